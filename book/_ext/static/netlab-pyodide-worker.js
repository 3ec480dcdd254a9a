// The Python side of the book's calculators and consoles, in a Web Worker (a module worker started by
// netlab-pyodide.js). "start" loads Pyodide from this site's _static/pyodide/ (indexURL: no other
// host), unpacks netlab's wheel into site-packages and imports netlab_calculators.py; "calc" and
// "console" call netlab_calculators.run_json and .console. Every answer carries the request's id.
let pyodide = null;
let calculators = null;

async function start(base) {
  const t0 = performance.now();
  // netlab's wheel and the calculators download while the runtime starts
  const wheelBytes = fetch(base + "manifest.json").then((r) => r.json())
    .then((manifest) => fetch(base + manifest.wheel)).then((r) => r.arrayBuffer());
  const calcSource = fetch(base + "netlab_calculators.py").then((r) => r.text());
  wheelBytes.catch(() => {}); calcSource.catch(() => {});   // a failure is reported where each is awaited
  const { loadPyodide } = await import(base + "pyodide.mjs");
  pyodide = await loadPyodide({ indexURL: base, packages: [], fullStdLib: false });
  const tCore = performance.now();
  pyodide.unpackArchive(await wheelBytes, "wheel");
  const source = await calcSource;
  const site = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.FS.writeFile(site + "/netlab_calculators.py", source);
  calculators = pyodide.pyimport("netlab_calculators");
  const python = pyodide.runPython("import sys; sys.version.split()[0]");
  const netlab = pyodide.runPython("import netlab; netlab.__version__");
  return { pyodide: pyodide.version, python, netlab, coreMs: tCore - t0, readyMs: performance.now() - t0,
           wasmHeapBytes: pyodide._module && pyodide._module.HEAP8 ? pyodide._module.HEAP8.length : null };
}

self.onmessage = async (event) => {
  const msg = event.data;
  try {
    if (msg.kind === "start") {
      self.postMessage(Object.assign({ id: msg.id }, await start(msg.base)));
    } else if (msg.kind === "calc") {
      const t = performance.now();
      const answer = JSON.parse(calculators.run_json(JSON.stringify({ name: msg.name, values: msg.values })));
      self.postMessage(Object.assign({ id: msg.id, workerMs: performance.now() - t }, answer));
    } else if (msg.kind === "console") {
      const t = performance.now();
      const output = calculators.console(msg.code, msg.key);
      self.postMessage({ id: msg.id, output, workerMs: performance.now() - t });
    }
  } catch (error) {
    self.postMessage({ id: msg.id, fatal: String(error && error.message ? error.message : error) });
  }
};
