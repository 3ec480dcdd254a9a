// Kernel-free exercise checking (netlab.exercises.NumericExercise): the verdicts of
// NumericExercise.check, computed in the browser. This file holds only the reader of typed
// answers and the rules of the verdict. Its tables (units, quantities, messages) are those of
// netlab/exercises.py, which every exercise form carries as JSON (a script element of class
// netlab-exercise-tables); the slips that apply come in the form's data-spec. The reader's
// regular expressions have twins in exercises.py; the tests run both on a table of cases
// (tests/data/exercise_cases.json), on random text and on every exercise of the built book, and
// require the same message.
(function () {
  "use strict";

  var TABLES = null;

  // The checker's tables, read once from the page (every form carries the same copy).
  function tables() {
    if (TABLES === null) {
      TABLES = JSON.parse(document.querySelector("script.netlab-exercise-tables").textContent);
    }
    return TABLES;
  }

  function fill(template, fields) {
    return template.replace(/\{(\w+)\}/g, function (_, name) { return fields[name]; });
  }

  // The message `name` with its fields filled in, as netlab.exercises._say (str.format) does.
  function say(name, unit, fields) {
    var all = {unit: unit}, phrases = tables().unit_phrases;
    Object.keys(phrases).forEach(function (k) { all[k] = unit ? fill(phrases[k], all) : ""; });
    Object.keys(fields || {}).forEach(function (k) { all[k] = fields[k]; });
    return fill(tables().messages[name], all);
  }

  var SPACES = /^[ \t\n\r\u00a0\u2009\u202f]+|[ \t\n\r\u00a0\u2009\u202f]+$/g;
  var NUMBER = new RegExp(
    "^([+\\-\u2212]?)" +
    "([0-9](?:[0-9]|[.,_'\u2019 \u00a0\u2009\u202f](?=[0-9]))*\\.?|[.,][0-9]+)" +
    "(?:[eE]([+\\-\u2212]?[0-9]+)" +
    "|[ \u00a0\u2009\u202f]*[x\u00d7*\u00b7][ \u00a0\u2009\u202f]*10[ \u00a0\u2009\u202f]*(?:\\^|\\*\\*)" +
    "[ \u00a0\u2009\u202f]*([+\\-\u2212]?[0-9]+))?");
  var GROUP_SEPS = "_'\u2019 \u00a0\u2009\u202f";

  function strip(text) { return text.replace(SPACES, ""); }

  function count(text, ch) { return text.split(ch).length - 1; }

  function stripZeros(body) { return body.replace(/0+$/, "").replace(/\.$/, ""); }

  // |x| rounded to `digits` significant digits: [its digits, the exponent of the first], as
  // netlab.exercises._digits.
  function sigDigits(x, digits) {
    var parts = Math.abs(x).toExponential(digits - 1).split("e");
    return [parts[0].replace(".", ""), parseInt(parts[1], 10)];
  }

  // x to `digits` significant digits, as netlab.exercises.fmt writes it.
  function fmt(x, digits) {
    digits = digits || 4;
    if (x === 0) { return "0"; }
    if (!isFinite(x)) { return isNaN(x) ? "nan" : (x > 0 ? "inf" : "-inf"); }
    var parts = sigDigits(x, digits), mantissa = parts[0], e = parts[1], body;
    if (e >= -4 && e < 9) {
      if (e >= digits - 1) {
        body = mantissa + "0".repeat(e - digits + 1);
      } else if (e >= 0) {
        body = stripZeros(mantissa.slice(0, e + 1) + "." + mantissa.slice(e + 1));
      } else {
        body = stripZeros("0." + "0".repeat(-e - 1) + mantissa);
      }
    } else {
      body = stripZeros(mantissa[0] + "." + mantissa.slice(1)) + "e" + e;
    }
    return (x < 0 ? "-" : "") + body;
  }

  // Digits with separators -> a plain decimal string, or null (see _read_number in Python).
  function readNumber(body) {
    var dots = count(body, "."), commas = count(body, ","), grouping = {}, decimal = "";
    body.split("").forEach(function (c) { if (GROUP_SEPS.indexOf(c) >= 0) { grouping[c] = true; } });
    if (dots && commas) {
      decimal = body[Math.max(body.lastIndexOf("."), body.lastIndexOf(","))];
      if (count(body, decimal) !== 1) { return null; }
      grouping[decimal === "." ? "," : "."] = true;
    } else if (dots === 1) {
      decimal = ".";
    } else if (dots > 1) {
      grouping["."] = true;
    } else if (commas === 1) {
      var halves = body.split(","), head = halves[0], tail = halves[1];
      if (Object.keys(grouping).length === 0 && tail.length === 3 && head.length >= 1 && head.length <= 3 &&
          head[0] !== "0") {
        grouping[","] = true;
      } else {
        decimal = ",";
      }
    } else if (commas > 1) {
      grouping[","] = true;
    }
    var seps = Object.keys(grouping);
    if (seps.length > 1) { return null; }
    var whole = body, frac = "";
    if (decimal) {
      var at = body.indexOf(decimal);
      whole = body.slice(0, at);
      frac = body.slice(at + 1);
    }
    if (seps.length === 1) {
      var groups = whole.split(seps[0]);
      if (groups[0].length < 1 || groups[0].length > 3) { return null; }
      for (var i = 1; i < groups.length; i++) { if (groups[i].length !== 3) { return null; } }
      whole = groups.join("");
    }
    if (!/^[0-9]*$/.test(whole) || !(decimal ? /^[0-9]*$/ : /^$/).test(frac)) { return null; }
    return (whole || "0") + (decimal ? "." + frac : "");
  }

  function sameWord(text, unit) {
    var t = text.toLowerCase(), u = unit.toLowerCase();
    var forms = [u, u + "s", u + "es", u.split(" ")[0]];
    if (u.slice(-1) === "s") { forms.push(u.slice(0, -1)); }
    if (u.slice(-2) === "es") { forms.push(u.slice(0, -2)); }
    return forms.indexOf(t) >= 0;
  }

  function has(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key); }

  // [scale, ""] (typed unit in exercise units) or [null, why not], as netlab.exercises._unit_scale.
  function unitScale(text, spec) {
    var unit = spec.unit, kind = spec.quantity, units = tables().units;
    if (text === unit || (unit && !has(units, unit) && sameWord(text, unit))) { return [1, ""]; }
    var match = has(units, text) ? units[text] : null;
    if (match === null) {
      var found = Object.keys(units).filter(function (u) { return u.toLowerCase() === text.toLowerCase(); }).sort();
      var kinds = {}, values = {};
      found.forEach(function (u) { kinds[units[u][0]] = true; values[units[u][0] + " " + units[u][1]] = true; });
      if (Object.keys(kinds).length === 1 && units[found[0]][0] !== kind) {
        match = units[found[0]];
      } else if (Object.keys(values).length > 1) {
        return [null, say("ambiguous_unit", unit, {text: text, choices: found.join(tables().messages.or)})];
      } else {
        match = found.length ? units[found[0]] : null;
      }
    }
    if (match === null) { return [null, say("unknown_unit", unit, {text: text})]; }
    var typedKind = match[0], typedScale = match[1];
    var compatible = tables().compatible[typedKind] || [];
    if (typedKind !== kind && compatible.indexOf(kind) < 0) {
      var quantities = tables().quantities;
      return [null, say("wrong_kind", unit, {text: text, typed_quantity: quantities[typedKind],
                                             quantity: quantities[kind]})];
    }
    return [spec.scale === null || spec.scale === undefined ? 1 : typedScale / spec.scale, ""];
  }

  // {value, problem, converted, comma}, as netlab.exercises.read_answer.
  function read(value, spec) {
    var unit = spec.unit, text = strip(String(value));
    if (text === "") { return {value: null, problem: say("empty", unit)}; }
    var m = NUMBER.exec(text);
    if (m === null) { return {value: null, problem: say("not_a_number", unit, {text: text})}; }
    var sign = m[1], body = m[2], exponent = (m[3] || m[4] || "0").replace("\u2212", "-");
    var digits = readNumber(body);
    if (digits === null) { return {value: null, problem: say("bad_grouping", unit, {body: body})}; }
    var x = Number((sign === "-" || sign === "\u2212" ? "-" : "") + digits + "e" + exponent);
    if (!isFinite(x)) { return {value: null, problem: say("huge", unit)}; }
    var comma = count(body, ",") === 1 && body.indexOf(".") < 0 ? say("comma", unit, {body: body, digits: digits}) : "";
    var rest = strip(text.slice(m[0].length));
    if (!rest) { return {value: x, problem: "", converted: "", comma: comma}; }
    var scaled = unitScale(rest, spec);
    if (scaled[0] === null) { return {value: null, problem: scaled[1]}; }
    if (scaled[0] === 1) { return {value: x, problem: "", converted: "", comma: comma}; }
    x = x * scaled[0];
    return {value: x, problem: "", comma: comma, converted: say("converted", unit,
      {number: strip(text.slice(0, m[0].length)), typed_unit: rest, value: fmt(x, 6)})};
  }

  // The answer cut and rounded (half up) to k significant digits, as netlab.exercises._rounded.
  function rounded(answer, k) {
    var parts = sigDigits(answer, tables().key_digits), cut = parseInt(parts[0].slice(0, k), 10);
    var up = parseInt(parts[0][k], 10) >= 5 ? 1 : 0, exponent = parts[1] - k + 1;
    return [Number(cut + "e" + exponent), Number((cut + up) + "e" + exponent)];
  }

  // Whether `given` is the answer rounded to one of rounding.round significant digits, or cut to one of
  // rounding.cut, as netlab.exercises._rounding_of.
  function roundingOf(given, answer, rounding) {
    var values = rounding.round.map(function (k) { return rounded(answer, k)[1]; })
      .concat(rounding.cut.map(function (k) { return rounded(answer, k)[0]; }));
    return values.some(function (v) { return Math.abs(Math.abs(given) / v - 1) <= tables().same_number; });
  }

  // The fewest significant digits to which the answer, rounded, is within the tolerance.
  function digitsNeeded(answer, relTol) {
    var most = tables().key_digits;
    for (var k = 1; k < most; k++) {
      if (Math.abs(rounded(answer, k)[1] / Math.abs(answer) - 1) <= relTol) { return k; }
    }
    return most;
  }

  // [correct, message], as netlab.exercises._judge.
  function judge(given, spec) {
    var ratio = given / spec.answer, unit = spec.unit;
    if (Math.abs(ratio - 1) <= spec.rel_tol) { return [true, say("correct", unit, {answer: fmt(spec.answer)})]; }
    if (ratio === 0) { return [false, say("zero", unit)]; }
    if (ratio < 0) { return [false, say("sign", unit)]; }
    for (var i = 0; i < spec.slips.length; i++) {
      var slip = spec.slips[i];
      if (has(slip, "rounding")) {
        if (roundingOf(given, spec.answer, slip.rounding)) {
          return [false, say("rounded", unit, {digits: String(digitsNeeded(spec.answer, spec.rel_tol)),
                                               tol: fmt(100 * spec.rel_tol, 3)})];
        }
        continue;
      }
      if (has(slip, "value")) {
        if (Math.abs(given / slip.value - 1) <= slip.tol) { return [false, say("named_value", unit, {text: slip.text})]; }
        continue;
      }
      var cases = [[slip.factor, "slip_large"], [1 / slip.factor, "slip_small"]];
      for (var j = 0; j < 2; j++) {
        if (Math.abs(ratio / cases[j][0] - 1) <= slip.tol) {
          return [false, say(cases[j][1], unit, {factor: fmt(slip.factor), text: slip.text})];
        }
      }
    }
    if (Math.abs(ratio - 1) <= tables().close_band) {
      return [false, say("close", unit, {tol: fmt(100 * spec.rel_tol, 3)})];
    }
    return [false, say(ratio > 1 ? "too_high" : "too_low", unit, {factor: fmt(Math.max(ratio, 1 / ratio), 3)})];
  }

  // [correct, message] for a typed answer, as netlab.exercises.check_spec.
  function verdict(spec, value) {
    var reading = read(value, spec);
    if (reading.value === null) { return [false, reading.problem]; }
    var v = judge(reading.value, spec), message = reading.converted + v[1];
    if (reading.comma && !v[0]) { message += say("comma_note", spec.unit, {comma: reading.comma}); }
    return [v[0], message];
  }

  function setUp(root) {
    if (root.dataset.ready === "1") { return; }
    var spec = JSON.parse(root.dataset.spec);
    var input = root.querySelector(".netlab-exercise-input");
    var button = root.querySelector(".netlab-exercise-check");
    var feedback = root.querySelector(".netlab-exercise-feedback");

    function check() {
      var v = verdict(spec, input.value);
      feedback.textContent = v[1];
      feedback.className = "netlab-exercise-feedback " + (v[0] ? "correct" : "wrong");
    }

    button.addEventListener("click", check);
    input.addEventListener("keydown", function (event) { if (event.key === "Enter") { check(); } });
    root.dataset.ready = "1";
  }

  function setUpAll() { document.querySelectorAll(".netlab-exercise").forEach(setUp); }

  window.netlabExercise = {verdict: verdict, read: read, judge: judge, fmt: fmt, tables: tables};

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUpAll);
  } else {
    setUpAll();
  }
})();
