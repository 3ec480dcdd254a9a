// Kernel-free explorers (netlab.widgets.Explorer): swap precomputed frames when a
// control moves. Each explorer carries its frames as JSON keyed "i-j-..." by the
// index of each control's value.
(function () {
  "use strict";

  function setUp(root) {
    var dataNode = root.querySelector("script.netlab-explorer-frames");
    if (!dataNode || root.dataset.ready === "1") { return; }
    var frames = JSON.parse(dataNode.textContent);
    var inputs = Array.prototype.slice.call(root.querySelectorAll("input.netlab-explorer-input"));
    var image = root.querySelector("img.netlab-explorer-frame");
    var readout = root.querySelector(".netlab-explorer-readout");

    function show() {
      var key = inputs.map(function (input) { return input.value; }).join("-");
      var frame = frames[key];
      inputs.forEach(function (input) {
        var labels = JSON.parse(input.dataset.labels);
        var text = labels[Number(input.value)];
        var output = root.querySelector('output[for="' + input.id + '"]');
        if (output) { output.textContent = text; }
        input.setAttribute("aria-valuetext", text);
      });
      if (!frame) { return; }
      image.src = frame.src;
      image.alt = frame.alt;
      if (readout) { readout.textContent = frame.readout; }
      root.dataset.frame = key;
    }

    inputs.forEach(function (input) { input.addEventListener("input", show); });
    root.dataset.ready = "1";
    root.dataset.frame = root.dataset["default"];
  }

  function setUpAll() {
    document.querySelectorAll(".netlab-explorer").forEach(setUp);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUpAll);
  } else {
    setUpAll();
  }
})();
