// Kernel-free explorers (netlab.widgets.Explorer): swap precomputed frames when a
// control moves. Each explorer carries its SVG frames as JSON: a list of pieces shared
// by its frames, and per frame key "i-j-..." (the index of each control's value) the
// runs [first piece, count, ...] that make it up, its alt text and its readout.
// Frames follow the page's light/dark switch: their dark-theme block (written for the
// system setting) is switched on or off to match the theme the reader chose.
// A frame may also carry "narrow" runs: the same setting drawn for a phone (narrower, panels
// stacked), as runs into a list of pieces of their own. They are shown while the explorer's frame is narrower than its data-narrow-below
// (CSS px), where the wide frame's smallest text would be too small to read.
(function () {
  "use strict";

  var DARK_MEDIA = "@media (prefers-color-scheme:dark)";
  var explorers = [];

  function theme() {
    var t = document.documentElement.dataset.theme;
    return t === "dark" || t === "light" ? t : "";
  }

  function themed(svg) {
    var t = theme();
    if (t === "dark") { return svg.replace(DARK_MEDIA, "@media all"); }
    if (t === "light") { return svg.replace(DARK_MEDIA, "@media not all"); }
    return svg;
  }

  function setUp(root) {
    var dataNode = root.querySelector("script.netlab-explorer-frames");
    var piecesNode = root.querySelector("script.netlab-explorer-pieces");
    if (!dataNode || root.dataset.ready === "1") { return; }
    var frames = JSON.parse(dataNode.textContent);
    var pieces = piecesNode ? JSON.parse(piecesNode.textContent) : [];
    var narrowNode = root.querySelector("script.netlab-explorer-narrow-pieces");
    var narrowPieces = narrowNode ? JSON.parse(narrowNode.textContent) : [];
    var inputs = Array.prototype.slice.call(root.querySelectorAll(".netlab-explorer-input"));
    var labels = inputs.map(function (input) { return JSON.parse(input.dataset.labels); });
    var outputs = inputs.map(function (input) { return root.querySelector('output[for="' + input.id + '"]'); });
    var image = root.querySelector("img.netlab-explorer-frame");
    var readout = root.querySelector(".netlab-explorer-readout");
    var uris = {};   // frame key + form + theme -> data URI, built once
    var narrowBelow = Number(root.dataset.narrowBelow || 0);
    var narrow = false;

    function wantsNarrow() {
      if (!narrowBelow) { return false; }
      var style = getComputedStyle(root);
      var width = root.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return width > 0 && width < narrowBelow;
    }

    function source(key, frame) {
      var runs = narrow && frame.narrow ? frame.narrow : frame.parts;
      var from = runs === frame.parts ? pieces : narrowPieces;
      var cacheKey = key + (runs === frame.parts ? "/wide/" : "/narrow/") + theme();
      if (!uris[cacheKey]) {
        var svg = frame.svg;
        if (svg === undefined) {
          var out = [];
          for (var r = 0; r < runs.length; r += 2) {
            for (var i = runs[r]; i < runs[r] + runs[r + 1]; i++) { out.push(from[i]); }
          }
          svg = out.join("");
        }
        uris[cacheKey] = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(themed(svg));
      }
      return uris[cacheKey];
    }

    function show() {
      var key = inputs.map(function (input) { return input.value; }).join("-");
      var frame = frames[key];
      inputs.forEach(function (input, k) {
        var text = labels[k][Number(input.value)];
        if (outputs[k]) { outputs[k].textContent = text; }
        if (input.type === "range") { input.setAttribute("aria-valuetext", text); }
      });
      if (!frame) { return; }
      image.src = frame.src || source(key, frame);
      image.classList.toggle("netlab-explorer-narrow", narrow && !!frame.narrow);
      image.alt = frame.alt;
      if (readout) { readout.textContent = frame.readout; }
      root.dataset.frame = key;
    }

    inputs.forEach(function (input) {
      input.addEventListener("input", show);
      input.addEventListener("change", show);
    });
    root.dataset.ready = "1";
    root.dataset.frame = root.dataset["default"];
    narrow = wantsNarrow();
    if (theme() || narrow) { show(); }
    explorers.push(show);
    if (narrowBelow && window.ResizeObserver) {
      // a phone turned sideways, a window resized: switch between the wide and the narrow frames
      new ResizeObserver(function () {
        var now = wantsNarrow();
        if (now !== narrow) { narrow = now; show(); }
      }).observe(root);
    }
  }

  function setUpAll() {
    document.querySelectorAll(".netlab-explorer").forEach(setUp);
    // the theme switch sets <html data-theme>: redraw the frames shown in the new theme
    new MutationObserver(function () { explorers.forEach(function (show) { show(); }); })
      .observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUpAll);
  } else {
    setUpAll();
  }
})();
