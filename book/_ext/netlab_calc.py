"""Calculators and a "Try it" console on the reading pages: a reader's own numbers through netlab itself.

Two directives (issue 36):

````md
```{netlab-calculator} nccl-tests
```

```{netlab-console}
from netlab.collectives import alpha_beta
alpha_beta.ring_all_reduce_time(1e9, 8, 5e-6, 400e9)
```
````

- ``netlab-calculator NAME`` shows the inputs of one calculator of ``netlab_calculators.py`` (beside
  this file) and its readout for the default inputs, computed here at build time by the same call
  the page makes later. A reader who types new numbers and presses Compute gets them computed by
  netlab's real functions, in Python, in their browser.
- ``netlab-console`` shows its code in an editable box and that code's output, run here at build
  time; Run runs the (edited) code in the browser, with ``netlab`` imported; Stop ends a run.

The browser side is ``static/netlab-pyodide.js`` beside this file (served as ``_static/netlab-pyodide.js``,
added only to the pages that use a directive) and ``static/netlab-pyodide-worker.js``: on the first Compute or Run, a Web Worker starts Pyodide
(CPython in WebAssembly, about 14 MB) from ``_static/pyodide/`` of this very site and installs
netlab's wheel there; nothing is fetched before, and nothing from another host. The runtime, the
wheel and the licence notices are staged into the built site by ``netlab_pyodide.stage`` (the
runtime's download and its integrity check: ``make runtime``).

Opened from a file (``file://``), a browser refuses to start the runtime; with JavaScript off there
is no runtime at all. Either way the page still shows each calculator's build-time readout and the
console's build-time output, and says how to serve the site.
"""

from __future__ import annotations

import html
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from sphinx.util import logging

import netlab_calculators as calcs
import netlab_pyodide

LOG = logging.getLogger(__name__)
HERE = Path(__file__).resolve().parent
SCRIPT, STYLE = "netlab-pyodide.js", "netlab-pyodide.css"
MARK = 'class="netlab-live '          # every directive's root element carries it

SERVE_NOTE = ("Computed when the book was built, for the values shown. To compute with your own, "
              "open the site over http with JavaScript on (the published site, or <code>make serve</code> "
              "and http://127.0.0.1:8000/): Compute then runs netlab itself in your browser, "
              "from about 14 MB this site sends once.")
CONSOLE_NOTE = ("Output from when the book was built. To run code of your own, open the site over http with "
                "JavaScript on (the published site, or <code>make serve</code> and http://127.0.0.1:8000/): Run "
                "then runs it in your browser, from about 14 MB this site sends once.")


def _static_prefix(docname: str) -> str:
    return "../" * docname.count("/") + "_static/"


def _licence_link(docname: str) -> str:
    return (f'<a href="{_static_prefix(docname)}pyodide/NOTICE.txt">Pyodide (MPL-2.0) and CPython (PSF)</a>')


class CalculatorDirective(Directive):
    required_arguments = 1
    has_content = False

    def run(self):
        env = self.state.document.settings.env
        name = self.arguments[0]
        if name not in calcs.CALCULATORS:
            raise self.error(f"netlab-calculator: no calculator {name!r}; known: {', '.join(calcs.CALCULATORS)}")
        calc = calcs.CALCULATORS[name]
        try:
            readout = calc(calc.defaults())
        except (ValueError, TypeError) as exc:
            raise self.error(f"netlab-calculator {name}: its default inputs fail: {exc}") from exc
        uid = f"netlab-calc-{name}-{env.new_serialno('netlab-calc')}"
        rows = []
        for f in calc.fields:
            fid = f"{uid}-{f.name}"
            if f.kind == "choice":
                options = "".join(f'<option value="{html.escape(v)}"{" selected" if v == f.default else ""}>'
                                  f"{html.escape(label)}</option>" for v, label in f.choices)
                control = f'<select id="{fid}" name="{f.name}">{options}</select>'
            else:
                mode = "numeric" if f.kind == "integer" else "decimal"
                control = (f'<input id="{fid}" name="{f.name}" type="text" inputmode="{mode}" '
                           f'value="{html.escape(f.default)}" size="9" autocomplete="off" spellcheck="false">')
            rows.append(f'<span class="netlab-calc-field"><label for="{fid}">{html.escape(f.label)}</label> {control}</span>')
        note = f'<p class="netlab-calc-note">{html.escape(calc.note)}</p>' if calc.note else ""
        body = (f'<form {MARK}netlab-calc" id="{uid}" data-calc="{html.escape(name)}" aria-labelledby="{uid}-title">\n'
                f'<p class="netlab-calc-title" id="{uid}-title"><strong>Calculator:</strong> {html.escape(calc.title)}</p>\n'
                f'<div class="netlab-calc-fields">{"".join(rows)}</div>\n'
                f'<p><button type="submit" class="netlab-calc-run">Compute</button></p>\n'
                f'<p class="netlab-calc-readout netlab-explorer-readout" aria-live="polite">{html.escape(readout)}</p>\n'
                f'{note}<p class="netlab-live-status">{SERVE_NOTE}</p>\n</form>\n')
        return [nodes.raw("", body, format="html")]


class ConsoleDirective(Directive):
    has_content = True
    option_spec = {"rows": directives.positive_int}

    def run(self):
        env = self.state.document.settings.env
        code = "\n".join(self.content).strip("\n")
        if not code:
            raise self.error("netlab-console: give the example code as the directive's content")
        uid = f"netlab-console-{env.new_serialno('netlab-console')}"
        output = calcs.console(code, key=f"build:{env.docname}:{uid}")
        if "Traceback (most recent call last)" in output:
            raise self.error(f"netlab-console: its example fails at build time:\n{output}")
        rows = self.options.get("rows", max(3, min(14, code.count("\n") + 2)))
        body = (f'<div {MARK}netlab-console" id="{uid}" role="group" aria-labelledby="{uid}-title">\n'
                f'<p class="netlab-console-title" id="{uid}-title"><strong>Try it:</strong> Python with netlab, '
                f"in your browser. Edit the code and press Run; your variables stay until the page closes.</p>\n"
                f'<label class="netlab-console-label" for="{uid}-code">Python code</label>\n'
                f'<textarea id="{uid}-code" class="netlab-console-code" rows="{rows}" spellcheck="false" '
                f'autocapitalize="off" autocomplete="off">{html.escape(code)}</textarea>\n'
                f'<p><button type="button" class="netlab-console-run">Run</button> '
                f'<button type="button" class="netlab-console-stop" hidden>Stop</button></p>\n'
                f'<pre class="netlab-console-output" aria-live="polite" aria-label="Output" tabindex="0">'
                f"{html.escape(output)}</pre>\n"
                f'<p class="netlab-live-status">{CONSOLE_NOTE} Runtime licences: '
                f"{_licence_link(env.docname)}.</p>\n</div>\n")
        return [nodes.raw("", body, format="html")]


def _add_script(app, pagename, templatename, context, doctree) -> None:
    """The page script only where a directive is used: other pages load nothing new."""
    if MARK in (context.get("body") or ""):
        app.add_js_file(SCRIPT, loading_method="defer")
        app.add_css_file(STYLE)


def _stage_runtime(app, exc) -> None:
    if exc is not None or app.builder.format != "html":
        return
    manifest = netlab_pyodide.stage(Path(app.outdir) / "_static" / "pyodide", HERE / "netlab_calculators.py",
                                    log=LOG.info)
    LOG.info(f"netlab_calc: Pyodide {manifest['pyodide']} and {manifest['wheel']} staged "
             f"({sum(manifest['bytes'].values()):,} bytes)")


def _static_path(app, config) -> None:
    # The page script, its worker and its stylesheet live beside this file, not in the book's _static/:
    # Jupyter Book adds every .js and .css of _static/ to every page, and these belong only on the
    # pages that use a directive (_add_script). Sphinx copies them into the site's _static/.
    config.html_static_path = list(config.html_static_path) + [str(HERE / "static")]


def setup(app):
    app.connect("config-inited", _static_path)
    app.add_directive("netlab-calculator", CalculatorDirective)
    app.add_directive("netlab-console", ConsoleDirective)
    app.connect("html-page-context", _add_script)
    app.connect("build-finished", _stage_runtime)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
