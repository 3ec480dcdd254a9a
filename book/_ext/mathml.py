"""Typeset the book's formulas at build time, as MathML: no MathJax, no script, no web font.

Sphinx's default HTML math renderer ships the TeX source to the browser and lets
MathJax (1.2 MB of JavaScript, plus fonts) typeset it on every visit. Browsers
render MathML themselves (Chromium since 109, Firefox and Safari for longer), so
this extension converts each formula once, while the book builds, with the pure
Python ``latex2mathml`` (pinned in requirements.txt), and writes the MathML into
the page. A page with math then costs nothing more than its markup, works with
the network off and prints into the PDF edition as it shows on screen.

The TeX source stays in the page, as the MathML ``<annotation>`` (copy and
screen-reader tools can use it). A formula that latex2mathml cannot convert is a
build warning, so the strict build (``-W``) stops on it instead of publishing raw
TeX. The browser tests (``tests/site``) check that every formula is rendered.
"""

from __future__ import annotations

import html
import re

from docutils import nodes
from sphinx.locale import _
from sphinx.util import logging
from sphinx.util.math import get_node_equation_number

logger = logging.getLogger(__name__)

_XMLNS = ' xmlns="http://www.w3.org/1998/Math/MathML"'
# a display block may hold several equations separated by blank lines (Sphinx's convention)
_PARTS = re.compile(r"\n\s*\n")


def to_mathml(latex: str, display: bool) -> str:
    """The MathML of one TeX formula (``display`` for a block), with its source as an annotation."""
    from latex2mathml.converter import convert

    body = convert(latex.strip(), display="block" if display else "inline")
    # <math ...><mrow>...</mrow></math> -> add the TeX source as a semantics annotation
    head, _, rest = body.partition(">")
    inner = rest.rsplit("</math>", 1)[0]
    head = head.replace(_XMLNS, "")
    if display:
        # a display formula wider than the column scrolls sideways (netlab.css): a keyboard
        # user must be able to reach it and scroll it too (axe: scrollable-region-focusable)
        head += ' tabindex="0"'
    return (f'{head}><semantics><mrow>{inner}</mrow>'
            f'<annotation encoding="application/x-tex">{html.escape(latex.strip())}</annotation>'
            f'</semantics></math>')


def _convert(self, node, latex: str, display: bool) -> str:
    try:
        return to_mathml(latex, display)
    except Exception as exc:  # noqa: BLE001 - any converter failure is reported as a build warning
        logger.warning("formula cannot be typeset as MathML (%s: %s): %s", type(exc).__name__, exc, latex,
                       location=node, type="netlab", subtype="math")
        return f'<code class="math-error">{html.escape(latex)}</code>'


def visit_math(self, node) -> None:
    self.body.append(self.starttag(node, "span", "", CLASS="math notranslate nohighlight"))
    self.body.append(_convert(self, node, node.astext(), display=False))
    self.body.append("</span>")
    raise nodes.SkipNode


def visit_displaymath(self, node) -> None:
    self.body.append(self.starttag(node, "div", CLASS="math notranslate nohighlight"))
    if node.get("number"):
        number = get_node_equation_number(self, node)
        self.body.append(f'<span class="eqno">({number})')
        self.add_permalink_ref(node, _("Link to this equation"))
        self.body.append("</span>")
    latex = node.astext()
    if node.get("nowrap"):   # amsmath environments arrive whole: \begin{align} ... \end{align}
        latex = re.sub(r"\\(begin|end)\{(align|equation|gather|multline)\*?\}",
                       lambda m: "\\" + m.group(1) + ("{aligned}" if m.group(2) == "align" else "{gathered}"), latex)
    for part in (p for p in _PARTS.split(latex) if p.strip()):
        self.body.append(_convert(self, node, part, display=True))
    self.body.append("</div>\n")
    raise nodes.SkipNode


def setup(app):
    app.add_html_math_renderer("mathml", (visit_math, None), (visit_displaymath, None))
    app.config.html_math_renderer = "mathml"
    return {"parallel_read_safe": True, "parallel_write_safe": True}
