// The book's calculators and "Try it" consoles (book/_ext/netlab_calc.py writes their HTML, with the
// build-time result). Nothing is loaded until a reader presses Compute or Run: then one Web Worker
// (netlab-pyodide-worker.js) starts Pyodide from this site's _static/pyodide/ and installs netlab's
// wheel; every later call goes to that worker, so the page never freezes. Stop ends the worker
// (Python cannot be interrupted in place without cross-origin isolation); the next run starts a new one.
(function () {
  "use strict";
  const script = document.currentScript;
  const STATIC = new URL(".", script ? script.src : location.href);   // .../_static/
  const FROM_FILE = location.protocol === "file:";
  let worker = null, ready = null, nextId = 1;
  const pending = new Map();
  const stats = { startMs: null, calls: [] };
  window.netlabLive = stats;      // read by the browser test and the measurements (benchmarks)

  function post(message) {
    return start().then(() => new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage(Object.assign({ id }, message));
    }));
  }

  function start() {
    if (ready) { return ready; }
    const t0 = performance.now();
    worker = new Worker(new URL("netlab-pyodide-worker.js", STATIC), { type: "module" });
    worker.onmessage = (event) => {
      const msg = event.data, waiter = pending.get(msg.id);
      if (!waiter) { return; }
      pending.delete(msg.id);
      if (msg.fatal) { waiter.reject(new Error(msg.fatal)); } else { waiter.resolve(msg); }
    };
    worker.onerror = (event) => {
      const error = new Error(event.message || "the Python worker failed to start");
      for (const waiter of pending.values()) { waiter.reject(error); }
      pending.clear();
    };
    ready = new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, kind: "start", base: new URL("pyodide/", STATIC).href });
    }).then((msg) => { stats.startMs = performance.now() - t0; stats.start = msg; return msg; });
    ready.catch(() => { stop(); });
    return ready;
  }

  function stop() {
    if (worker) { worker.terminate(); }
    worker = null; ready = null;
    for (const waiter of pending.values()) { waiter.reject(new Error("stopped")); }
    pending.clear();
  }

  function status(root, text) {
    const el = root.querySelector(".netlab-live-status");
    if (el) { el.textContent = text; }
  }

  function startingText() {
    return "Starting Python in your browser (about 14 MB from this site, once per visit) ...";
  }

  // the status line after an answer: what computed it, the call's time in Python, and (on the
  // first answer of the page) how long Python took to start
  function readyText(msg, first) {
    const v = stats.start || {}, ms = msg.workerMs || 0;
    const started = first && stats.startMs ? `Python started in ${(stats.startMs / 1000).toFixed(1)} s; ` : "";
    return `${started}computed in your browser by netlab ${v.netlab || ""} (Python ${v.python || ""}, ` +
      `Pyodide ${v.pyodide || ""}) in ${ms < 1 ? ms.toFixed(2) : ms.toFixed(1)} ms.`;
  }

  function fileText() {
    return "This page is opened from a file, where a browser will not start the Python runtime: the value " +
      "shown is the one computed when the book was built. Serve the site (make serve, then open " +
      "http://127.0.0.1:8000/) to compute your own.";
  }

  function setUpCalculator(form) {
    const out = form.querySelector(".netlab-calc-readout");
    let live = false, timer = null, asked = 0;
    function values() {
      const v = {};
      for (const c of form.querySelectorAll("input[name], select[name]")) { v[c.name] = c.value; }
      return v;
    }
    function compute() {
      if (FROM_FILE) { status(form, fileText()); return; }
      const ask = ++asked, first = !ready;
      if (first) { status(form, startingText()); }
      form.setAttribute("aria-busy", "true");
      const t = performance.now();
      post({ kind: "calc", name: form.dataset.calc, values: values() }).then((msg) => {
        if (ask !== asked) { return; }                  // a newer request is on its way
        const ms = performance.now() - t;
        stats.calls.push({ roundTripMs: ms, workerMs: msg.workerMs });
        live = true;
        form.removeAttribute("aria-busy");
        form.dataset.live = "1";
        if (msg.error) {
          out.textContent = "error: " + msg.error;
          out.classList.add("netlab-calc-error");
        } else {
          out.textContent = msg.readout;
          out.classList.remove("netlab-calc-error");
        }
        status(form, readyText(msg, first));
      }, (error) => {
        form.removeAttribute("aria-busy");
        status(form, "Python could not start here: " + error.message + ". The value shown is the book's.");
      });
    }
    form.addEventListener("submit", (event) => { event.preventDefault(); compute(); });
    // once the runtime runs, every edit recomputes (a short pause first, while typing)
    form.addEventListener("input", () => {
      if (!live) { return; }
      clearTimeout(timer);
      timer = setTimeout(compute, 150);
    });
    form.addEventListener("change", () => { if (live) { clearTimeout(timer); compute(); } });
  }

  function setUpConsole(root) {
    const code = root.querySelector(".netlab-console-code");
    const out = root.querySelector(".netlab-console-output");
    const run = root.querySelector(".netlab-console-run"), halt = root.querySelector(".netlab-console-stop");
    run.addEventListener("click", () => {
      if (FROM_FILE) { status(root, fileText()); return; }
      const first = !ready;
      if (first) { status(root, startingText()); }
      run.disabled = true; halt.hidden = false;
      root.setAttribute("aria-busy", "true");
      post({ kind: "console", key: root.id, code: code.value }).then((msg) => {
        out.textContent = msg.output;
        root.dataset.live = "1";
        status(root, readyText(msg, first));
      }, (error) => {
        status(root, error.message === "stopped" ? "Stopped. The next Run starts Python again (variables are lost)."
          : "Python could not start here: " + error.message + ". The output shown is the book's.");
      }).finally(() => { run.disabled = false; halt.hidden = true; root.removeAttribute("aria-busy"); });
    });
    halt.addEventListener("click", stop);
  }

  function init() {
    document.querySelectorAll("form.netlab-calc").forEach(setUpCalculator);
    document.querySelectorAll("div.netlab-console").forEach(setUpConsole);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); } else { init(); }
})();
