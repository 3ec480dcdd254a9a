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

  // ["round", k] if `given` is the answer rounded to k significant digits (one of rounding.round), else
  // ["cut", k] if it is the answer cut to k (one of rounding.cut), else null; as
  // netlab.exercises._rounding_match.
  function roundingMatch(given, answer, rounding) {
    var ways = [["round", 1, rounding.round], ["cut", 0, rounding.cut]];
    for (var w = 0; w < ways.length; w++) {
      for (var i = 0; i < ways[w][2].length; i++) {
        var k = ways[w][2][i];
        if (Math.abs(Math.abs(given) / rounded(answer, k)[ways[w][1]] - 1) <= tables().same_number) {
          return [ways[w][0], k];
        }
      }
    }
    return null;
  }

  // The fewest significant digits to which the answer, rounded, is within the tolerance.
  function digitsNeeded(answer, relTol) {
    var most = tables().key_digits;
    for (var k = 1; k < most; k++) {
      if (Math.abs(rounded(answer, k)[1] / Math.abs(answer) - 1) <= relTol) { return k; }
    }
    return most;
  }

  // The digits to ask for after a rounding or a cut, as netlab.exercises._rounding_fields.
  function roundingFields(match, answer, relTol) {
    var digits = digitsNeeded(answer, relTol);
    return {digits: String(match[0] === "cut" ? Math.max(digits, match[1]) : digits), tol: fmt(100 * relTol, 3)};
  }

  // The words for a factor slip, as netlab.exercises._factor_text.
  function factorText(slip, tooLarge, typedUnit) {
    return has(slip, "text_up") && tooLarge === typedUnit ? slip.text_up : slip.text;
  }

  // [correct, message], as netlab.exercises._judge; typedUnit: another unit was typed and converted.
  function judge(given, spec, typedUnit) {
    var ratio = given / spec.answer, unit = spec.unit;
    if (Math.abs(ratio - 1) <= spec.rel_tol) { return [true, say("correct", unit, {answer: fmt(spec.answer)})]; }
    if (ratio === 0) { return [false, say("zero", unit)]; }
    if (ratio < 0) { return [false, say("sign", unit)]; }
    for (var i = 0; i < spec.slips.length; i++) {
      var slip = spec.slips[i];
      var match;
      if (has(slip, "rounding")) {
        match = roundingMatch(given, spec.answer, slip.rounding);
        if (match !== null) {
          return [false, say(match[0] === "round" ? "rounded" : "cut", unit,
                             roundingFields(match, spec.answer, spec.rel_tol))];
        }
        continue;
      }
      if (has(slip, "value")) {
        if (Math.abs(given / slip.value - 1) <= slip.tol) {
          var later = null;
          for (var n = i + 1; n < spec.slips.length && later === null; n++) {
            if (has(spec.slips[n], "rounding")) { later = spec.slips[n].rounding; }
          }
          match = later === null ? null : roundingMatch(given, spec.answer, later);
          if (match !== null) {
            var fields = roundingFields(match, spec.answer, spec.rel_tol);
            fields.text = slip.text;
            return [false, say(match[0] === "round" ? "named_or_rounded" : "named_or_cut", unit, fields)];
          }
          return [false, say("named_value", unit, {text: slip.text})];
        }
        continue;
      }
      var cases = [[slip.factor, "slip_large"], [1 / slip.factor, "slip_small"]];
      for (var j = 0; j < 2; j++) {
        if (Math.abs(ratio / cases[j][0] - 1) <= slip.tol) {
          return [false, say(cases[j][1], unit, {factor: fmt(slip.factor),
                                                 text: factorText(slip, cases[j][0] > 1, !!typedUnit)})];
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
    var v = judge(reading.value, spec, !!reading.converted), message = reading.converted + v[1];
    if (reading.comma && !v[0]) { message += say("comma_note", spec.unit, {comma: reading.comma}); }
    return [v[0], message];
  }

  // --- an exercise of one's own, and answers to hand in -----------------------------------------
  // A varied exercise carries its variants (script.netlab-exercise-variants): each a prompt, its
  // params and its spec written against variant 0's (netlab.exercises.variant_delta). The student's
  // name picks one (netlab.exercises.variant_index: FNV-1a of the name and the key). Answers and
  // verdicts are kept in localStorage, per lab, and downloaded as the report of
  // netlab.exercises.Answers (JSON) and report_markdown (Markdown). Nothing leaves the browser.

  var STUDENT_KEY = "netlab.student", REPORT_FORMAT = "netlab-answers/1", memory = {};

  function load(name) {
    try { var v = window.localStorage.getItem(name); return v === null ? memory[name] || null : v; }
    catch (e) { return memory[name] || null; }
  }

  function store(name, value) {
    memory[name] = value;
    try { window.localStorage.setItem(name, value); } catch (e) { /* private mode: this visit only */ }
  }

  // netlab.exercises.student_id: NFC, spaces collapsed, lower case.
  function studentId(name) {
    return String(name || "").normalize("NFC").split(/\s+/).filter(Boolean).join(" ").toLowerCase();
  }

  // netlab.exercises.stable_hash: FNV-1a, 32 bits, over the UTF-8 bytes.
  function stableHash(text) {
    var bytes = new TextEncoder().encode(text), h = 0x811c9dc5;
    for (var i = 0; i < bytes.length; i++) { h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0; }
    return h >>> 0;
  }

  function variantIndex(name, key, n) {
    var who = studentId(name);
    if (!who || n <= 1) { return 0; }
    return 1 + stableHash(who + "\n" + key) % (n - 1);
  }

  // netlab.exercises.variant_spec
  function variantSpec(delta, base) {
    var spec = {answer: delta.answer};
    ["rel_tol", "unit", "quantity", "scale"].forEach(function (k) { spec[k] = has(delta, k) ? delta[k] : base[k]; });
    spec.slips = delta.slips.map(function (slip, i) {
      if (typeof slip === "number") { return base.slips[slip]; }
      var copy = {};
      Object.keys(slip).forEach(function (k) { if (k !== "whole") { copy[k] = slip[k]; } });
      if (!slip.whole) { copy.text = base.slips[i].text; }
      return copy;
    });
    return spec;
  }

  function student() { return (load(STUDENT_KEY) || "").split(/\s+/).filter(Boolean).join(" "); }

  function labId() {
    var last = window.location.pathname.split("/").pop() || "index.html";
    return last.replace(/\.html?$/, "") || "index";
  }

  function labTitle() {
    var h1 = document.querySelector("article.bd-article h1") || document.querySelector("h1");
    if (!h1) { return labId(); }
    var clone = h1.cloneNode(true);
    clone.querySelectorAll(".headerlink").forEach(function (a) { a.remove(); });
    return strip(clone.textContent).replace(/\s+/g, " ");
  }

  function saved() {
    try { return JSON.parse(load("netlab.answers." + labId()) || "{}") || {}; } catch (e) { return {}; }
  }

  function now() { return new Date().toISOString().replace(/\.\d{3}Z$/, "Z"); }

  var FORMS = window.netlabExerciseForms = window.netlabExerciseForms || [];

  function pick(form) {
    var name = student(), n = form.variants ? form.variants.length : 1;
    form.index = variantIndex(name, form.key, n);
    var v = form.variants ? form.variants[form.index] : null;
    form.spec = v ? variantSpec(v.spec, form.base) : form.base;
    form.prompt = v ? v.prompt : form.promptEl.textContent;
    form.params = v ? v.params : {};
    if (v) {
      form.promptEl.textContent = v.prompt;
      form.whoEl.textContent = name ? "Your own numbers (variant " + form.index + " of " + (n - 1) + ", for " + name + ")."
                                    : "Enter your name or ID at the top of the page to get your own numbers.";
    }
    var entry = saved()[form.key];
    form.input.value = "";
    form.feedback.textContent = "";
    form.feedback.className = "netlab-exercise-feedback";
    if (entry && entry.variant === form.index && entry.attempts > 0) {
      form.input.value = entry.answer;
      show(form, verdict(form.spec, entry.answer));
    }
  }

  function show(form, v) {
    form.feedback.textContent = v[1];
    form.feedback.className = "netlab-exercise-feedback " + (v[0] ? "correct" : "wrong");
  }

  function setUp(root) {
    if (root.dataset.ready === "1") { return; }
    var variants = root.querySelector("script.netlab-exercise-variants");
    var form = {root: root, key: root.dataset.key, base: JSON.parse(root.dataset.spec),
                variants: variants ? JSON.parse(variants.textContent) : null,
                promptEl: root.querySelector(".netlab-exercise-prompt"),
                input: root.querySelector(".netlab-exercise-input"),
                feedback: root.querySelector(".netlab-exercise-feedback")};
    if (form.variants) {
      form.whoEl = document.createElement("p");
      form.whoEl.className = "netlab-exercise-who";
      form.promptEl.insertAdjacentElement("afterend", form.whoEl);
    }
    var button = root.querySelector(".netlab-exercise-check");

    function check() {
      var typed = strip(form.input.value), v = verdict(form.spec, typed);
      show(form, v);
      var all = saved(), entry = all[form.key], time = now();
      if (!entry || entry.variant !== form.index) {
        entry = {attempts: 0, first_attempt: time};
      }
      entry.variant = form.index;
      entry.answer = typed;
      entry.correct = v[0];
      entry.verdict = v[1];
      entry.attempts += 1;
      entry.last_attempt = time;
      all[form.key] = entry;
      store("netlab.answers." + labId(), JSON.stringify(all));
    }

    button.addEventListener("click", check);
    form.input.addEventListener("keydown", function (event) { if (event.key === "Enter") { check(); } });
    root.dataset.ready = "1";
    FORMS.push(form);
    pick(form);
  }

  // The report, as netlab.exercises.Answers.report writes it.
  function report() {
    var all = saved();
    var rows = FORMS.map(function (form) {
      var e = all[form.key], mine = e && e.variant === form.index;
      return {key: form.key, prompt: form.prompt, variant: form.index, params: form.params, unit: form.spec.unit,
              answer: mine ? e.answer : "", correct: mine ? e.correct : false, verdict: mine ? e.verdict : "",
              attempts: mine ? e.attempts : 0, first_attempt: mine ? e.first_attempt : "",
              last_attempt: mine ? e.last_attempt : ""};
    });
    return {format: REPORT_FORMAT, name: student(), lab: labId(), title: labTitle(), created: now(), exercises: rows,
            score: {correct: rows.filter(function (r) { return r.correct; }).length,
                    answered: rows.filter(function (r) { return r.attempts > 0; }).length, total: rows.length}};
  }

  // netlab.exercises.report_markdown, line for line.
  function markdown(r) {
    var s = r.score, lines = ["# Answers: " + r.title, "", "- Name: " + (r.name || "(none given)"), "- Lab: " + r.lab,
      "- Written: " + r.created, "- Score: " + s.correct + " of " + s.total + " right (" + s.answered + " answered)", ""];
    r.exercises.forEach(function (ex, i) {
      var verdictText = ex.correct ? "correct" : (!ex.attempts ? "not answered" : "not yet correct");
      lines.push("## " + (i + 1) + ". " + ex.prompt, "",
        "- Answer: " + (ex.answer ? ex.answer : "(none)") + (ex.unit ? " (in " + ex.unit + ")" : ""),
        "- Verdict: " + verdictText + (ex.verdict ? ": " + ex.verdict : ""),
        "- Attempts: " + ex.attempts + (ex.attempts ? ", first " + ex.first_attempt + ", last " + ex.last_attempt : ""),
        "- Exercise: " + ex.key + ", variant " + ex.variant, "");
    });
    return lines.join("\n");
  }

  function download(kind) {
    var r = report(), text = kind === "json" ? JSON.stringify(r, null, 1) : markdown(r);
    var blob = new Blob([text], {type: kind === "json" ? "application/json" : "text/markdown"});
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = r.lab + "-answers." + (kind === "json" ? "json" : "md");
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 500);
  }

  function downloads() {
    var p = document.createElement("p");
    p.className = "netlab-answers-downloads";
    p.appendChild(document.createTextNode("Download my answers: "));
    [["md", "Markdown (to read)"], ["json", "JSON (to grade)"]].forEach(function (pair, i) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "netlab-answers-" + pair[0];
      b.textContent = pair[1];
      b.addEventListener("click", function () { download(pair[0]); });
      if (i) { p.appendChild(document.createTextNode(" ")); }
      p.appendChild(b);
    });
    return p;
  }

  // The panel at the top of a page with exercises: the name, and the downloads (again after the last exercise).
  function panel() {
    if (!FORMS.length || document.querySelector(".netlab-answers")) { return; }
    var box = document.createElement("div");
    box.className = "netlab-answers";
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", "Your answers");
    var intro = document.createElement("p");
    intro.innerHTML = "<strong>Your answers</strong> to the exercises below stay in this browser (nothing is sent " +
      "anywhere) and survive a reload. Give your name or student ID to get your own numbers, then download " +
      "your answers to hand them in.";
    var label = document.createElement("label");
    label.htmlFor = "netlab-student";
    label.textContent = "Name or student ID: ";
    var input = document.createElement("input");
    input.type = "text";
    input.id = "netlab-student";
    input.className = "netlab-student";
    input.autocomplete = "off";
    input.value = student();
    var save = document.createElement("button");
    save.type = "button";
    save.className = "netlab-student-save";
    save.textContent = "Use this name";
    var status = document.createElement("p");
    status.className = "netlab-answers-status";
    status.setAttribute("aria-live", "polite");
    function use() {
      store(STUDENT_KEY, input.value.split(/\s+/).filter(Boolean).join(" "));
      FORMS.forEach(pick);
      status.textContent = student() ? "The exercises now show the numbers of " + student() + "."
                                     : "No name: the exercises show the lab's own numbers.";
    }
    save.addEventListener("click", use);
    input.addEventListener("keydown", function (event) { if (event.key === "Enter") { use(); } });
    box.append(intro, label, input, document.createTextNode(" "), save, status, downloads());
    var h1 = document.querySelector("article.bd-article h1") || document.querySelector("article h1");
    var anchor = h1 ? (h1.closest("section") || h1.parentNode) : null;
    if (h1 && anchor) {
      var next = h1.nextElementSibling;
      while (next && next.matches("p, ul, ol")) { next = next.nextElementSibling; }
      anchor.insertBefore(box, next && next.parentNode === anchor ? next : null);
    } else {
      FORMS[0].root.insertAdjacentElement("beforebegin", box);
    }
    var last = FORMS[FORMS.length - 1].root;
    var after = last.closest(".cell") || last;
    var tail = downloads();
    tail.classList.add("netlab-answers-tail");
    after.insertAdjacentElement("afterend", tail);
  }

  function setUpAll() {
    document.querySelectorAll(".netlab-exercise").forEach(setUp);
    panel();
  }

  window.netlabExercise = {verdict: verdict, read: read, judge: judge, fmt: fmt, tables: tables,
                          variantIndex: variantIndex, stableHash: stableHash, variantSpec: variantSpec,
                          report: report, markdown: markdown};

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUpAll);
  } else {
    setUpAll();
  }
})();
