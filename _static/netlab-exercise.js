// Kernel-free exercise checking (netlab.exercises.NumericExercise): the same
// verdicts as NumericExercise.check, computed in the browser. Every table and
// regular expression here has a twin in netlab/exercises.py; the tests run both
// on one table of cases (tests/data/exercise_cases.json) and on every exercise
// of the built book, and require the same message.
(function () {
  "use strict";

  var QUANTITIES = {
    data: "a data size", rate: "a data rate", time: "a time", power: "a power",
    energy_per_bit: "an energy per bit", percent: "a percentage", db: "a level in decibels",
    db_ratio: "a plain ratio (a factor)", ratio: "a plain ratio (a factor)", count: "a count"
  };

  function dataUnits(units) {
    var dec = [["", 1], ["K", 1e3], ["k", 1e3], ["M", 1e6], ["G", 1e9], ["T", 1e12], ["P", 1e15]];
    var bin = [["Ki", 1024], ["Mi", 1048576], ["Gi", 1073741824], ["Ti", 1099511627776]];
    dec.concat(bin).forEach(function (p) {
      var prefix = p[0], scale = p[1], binary = prefix.length === 2;
      units[prefix + "B"] = ["data", 8 * scale];
      units[prefix + "B/s"] = ["rate", 8 * scale];
      if (!binary) {
        ["b", "bit"].forEach(function (bit) {
          units[prefix + bit] = ["data", scale];
          units[prefix + bit + "/s"] = ["rate", scale];
        });
        units[prefix + "bps"] = ["rate", scale];
      }
    });
    [["bit", 1], ["bits", 1], ["byte", 8], ["bytes", 8]].forEach(function (w) { units[w[0]] = ["data", w[1]]; });
    return units;
  }

  var UNITS = dataUnits({});
  [["ps", "time", 1e-12], ["ns", "time", 1e-9], ["us", "time", 1e-6], ["\u00b5s", "time", 1e-6],
   ["\u03bcs", "time", 1e-6], ["ms", "time", 1e-3], ["s", "time", 1], ["sec", "time", 1],
   ["min", "time", 60], ["h", "time", 3600], ["hour", "time", 3600], ["hours", "time", 3600],
   ["day", "time", 86400], ["days", "time", 86400],
   ["mW", "power", 1e-3], ["W", "power", 1], ["kW", "power", 1e3], ["KW", "power", 1e3],
   ["MW", "power", 1e6], ["GW", "power", 1e9],
   ["fJ/bit", "energy_per_bit", 1e-15], ["pJ/bit", "energy_per_bit", 1e-12], ["nJ/bit", "energy_per_bit", 1e-9],
   ["fJ/b", "energy_per_bit", 1e-15], ["pJ/b", "energy_per_bit", 1e-12], ["nJ/b", "energy_per_bit", 1e-9],
   ["%", "percent", 1], ["percent", "percent", 1], ["dB", "db", 1],
   ["x", "ratio", 1], ["\u00d7", "ratio", 1], ["times", "ratio", 1]
  ].forEach(function (u) { UNITS[u[0]] = [u[1], u[2]]; });

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

  // x to `digits` significant digits, as netlab.exercises.fmt writes it.
  function fmt(x, digits) {
    digits = digits || 4;
    if (x === 0) { return "0"; }
    if (!isFinite(x)) { return isNaN(x) ? "nan" : (x > 0 ? "inf" : "-inf"); }
    var parts = Math.abs(x).toExponential(digits - 1).split("e");
    var mantissa = parts[0].replace(".", ""), e = parseInt(parts[1], 10), body;
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

  // [scale, ""] (typed unit in exercise units) or [null, why not].
  function unitScale(text, spec) {
    var unit = spec.unit, kind = spec.quantity, wanted = unit ? " in " + unit : "";
    if (text === unit || (unit && !has(UNITS, unit) && sameWord(text, unit))) { return [1, ""]; }
    var match = has(UNITS, text) ? UNITS[text] : null;
    if (match === null) {
      var found = Object.keys(UNITS).filter(function (u) { return u.toLowerCase() === text.toLowerCase(); }).sort();
      var kinds = {}, values = {};
      found.forEach(function (u) { kinds[UNITS[u][0]] = true; values[UNITS[u][0] + " " + UNITS[u][1]] = true; });
      if (Object.keys(kinds).length === 1 && UNITS[found[0]][0] !== kind) {
        match = UNITS[found[0]];
      } else if (Object.keys(values).length > 1) {
        return [null, "Is \u201c" + text + "\u201d " + found.join(" or ") + "? Case matters: B is a byte and b a bit, " +
          "M is mega and m milli. Give your answer" + wanted + "."];
      } else {
        match = found.length ? UNITS[found[0]] : null;
      }
    }
    if (match === null) {
      return [null, "I could not read the unit \u201c" + text + "\u201d. Give a number" + wanted +
        ", optionally followed by its unit."];
    }
    var typedKind = match[0], typedScale = match[1];
    if (typedKind !== kind && !(typedKind === "ratio" && (kind === "db_ratio" || kind === "count"))) {
      return [null, "\u201c" + text + "\u201d is " + QUANTITIES[typedKind] + ", but this answer is " +
        QUANTITIES[kind] + (unit ? " (in " + unit + ")" : "") + ". Check what the question asks for."];
    }
    return [spec.scale === null || spec.scale === undefined ? 1 : typedScale / spec.scale, ""];
  }

  // {value, problem, converted, comma}, as netlab.exercises.read_answer.
  function read(value, spec) {
    var unit = spec.unit, wanted = unit ? " in " + unit : "";
    var text = strip(String(value));
    if (text === "") { return {value: null, problem: "Please type your answer first: a number" + wanted + "."}; }
    var m = NUMBER.exec(text);
    if (m === null) {
      return {value: null, problem: "Please give a number" + wanted + " (for example 12.5, 1,250 or 3.2e-6), got \u201c" +
        text + "\u201d."};
    }
    var sign = m[1], body = m[2], exponent = (m[3] || m[4] || "0").replace("\u2212", "-");
    var digits = readNumber(body);
    if (digits === null) {
      return {value: null, problem: "I could not read \u201c" + body + "\u201d as a number: group thousands by 3 digits " +
        "(1,250,000 or 1 250 000) and use one decimal point or comma (1250.5)."};
    }
    var x = Number((sign === "-" || sign === "\u2212" ? "-" : "") + digits + "e" + exponent);
    if (!isFinite(x)) { return {value: null, problem: "That number is too large to be the answer: give it" + wanted + "."}; }
    var comma = count(body, ",") === 1 && body.indexOf(".") < 0 ? "\u201c" + body + "\u201d as " + digits : "";
    var rest = strip(text.slice(m[0].length));
    if (!rest) { return {value: x, problem: "", converted: "", comma: comma}; }
    var scaled = unitScale(rest, spec);
    if (scaled[0] === null) { return {value: null, problem: scaled[1]}; }
    if (scaled[0] === 1) { return {value: x, problem: "", converted: "", comma: comma}; }
    x = x * scaled[0];
    return {value: x, problem: "", comma: comma,
            converted: strip(text.slice(0, m[0].length)) + " " + rest + " = " + fmt(x, 6) + " " + unit + ". "};
  }

  // [correct, message], as netlab.exercises._judge.
  function judge(given, spec) {
    var ratio = given / spec.answer, tol = spec.rel_tol;
    if (Math.abs(ratio - 1) <= tol) {
      return [true, ("Correct: " + fmt(spec.answer) + " " + spec.unit).replace(/\s+$/, "") + "."];
    }
    if (ratio === 0) { return [false, "Not yet: the answer is not zero."]; }
    if (ratio < 0) { return [false, "Not yet: the sign is wrong."]; }
    for (var i = 0; i < spec.slips.length; i++) {
      var slip = spec.slips[i];
      if (has(slip, "value")) {
        if (Math.abs(given / slip.value - 1) <= slip.tol) { return [false, "Not yet: " + slip.text]; }
        continue;
      }
      var cases = [[slip.factor, "large"], [1 / slip.factor, "small"]];
      for (var j = 0; j < 2; j++) {
        if (Math.abs(ratio / cases[j][0] - 1) <= slip.tol) {
          return [false, "Not yet: your answer is " + fmt(slip.factor) + "x too " + cases[j][1] + ". " + slip.text];
        }
      }
    }
    if (Math.abs(ratio - 1) <= 0.1) {
      return [false, "Close, but outside the tolerance (\u00b1" + fmt(100 * tol, 3) + " %): check rounding " +
        "and any term you left out."];
    }
    return [false, "Not yet: your answer is too " + (ratio > 1 ? "high" : "low") + " (by a factor of " +
      fmt(Math.max(ratio, 1 / ratio), 3) + "). Re-read the units of each input."];
  }

  // [correct, message] for a typed answer, as netlab.exercises.check_spec.
  function verdict(spec, value) {
    var reading = read(value, spec);
    if (reading.value === null) { return [false, reading.problem]; }
    var v = judge(reading.value, spec), message = reading.converted + v[1];
    if (reading.comma && !v[0]) { message += " (I read " + reading.comma + ".)"; }
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

  window.netlabExercise = {verdict: verdict, read: read, judge: judge, fmt: fmt, UNITS: UNITS, QUANTITIES: QUANTITIES};

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUpAll);
  } else {
    setUpAll();
  }
})();
