// Kernel-free exercise checking (netlab.exercises.NumericExercise): the same
// verdicts as NumericExercise.check, computed in the browser.
(function () {
  "use strict";

  function parse(text) {
    var cleaned = String(text).trim().replace(/[,_\s]/g, "");
    if (cleaned === "") { return null; }
    var x = Number(cleaned);
    return isFinite(x) ? x : null;
  }

  function fmt(x) { return Number(x.toPrecision(4)).toString(); }

  function judge(given, spec) {
    var ratio = given / spec.answer;
    var tol = spec.rel_tol;
    if (Math.abs(ratio - 1) <= tol) {
      return [true, ("Correct: " + fmt(spec.answer) + " " + spec.unit).trim() + "."];
    }
    if (ratio <= 0) {
      return [false, "Not yet: the sign is wrong (a time, size or rate here is positive)."];
    }
    for (var i = 0; i < spec.slips.length; i++) {
      var factor = spec.slips[i][0], text = spec.slips[i][1];
      var cases = [[factor, "large"], [1 / factor, "small"]];
      for (var j = 0; j < 2; j++) {
        if (Math.abs(ratio / cases[j][0] - 1) <= tol) {
          return [false, "Not yet: your answer is " + fmt(factor) + "x too " + cases[j][1] + ". " + text];
        }
      }
    }
    if (Math.abs(ratio - 1) <= 0.1) {
      return [false, "Close, but outside the tolerance: check rounding and any term you left out."];
    }
    var direction = ratio > 1 ? "high" : "low";
    return [false, "Not yet: your answer is too " + direction + " (by a factor of " +
      Number(Math.max(ratio, 1 / ratio).toPrecision(3)) + "). Re-read the units of each input."];
  }

  function setUp(root) {
    if (root.dataset.ready === "1") { return; }
    var spec = JSON.parse(root.dataset.spec);
    var input = root.querySelector(".netlab-exercise-input");
    var button = root.querySelector(".netlab-exercise-check");
    var feedback = root.querySelector(".netlab-exercise-feedback");

    function check() {
      var given = parse(input.value);
      var verdict = given === null
        ? [false, "Please give a number" + (spec.unit ? " (in " + spec.unit + ")" : "") + "."]
        : judge(given, spec);
      feedback.textContent = verdict[1];
      feedback.className = "netlab-exercise-feedback " + (verdict[0] ? "correct" : "wrong");
    }

    button.addEventListener("click", check);
    input.addEventListener("keydown", function (event) { if (event.key === "Enter") { check(); } });
    root.dataset.ready = "1";
  }

  function setUpAll() { document.querySelectorAll(".netlab-exercise").forEach(setUp); }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUpAll);
  } else {
    setUpAll();
  }
})();
