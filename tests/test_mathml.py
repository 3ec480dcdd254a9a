"""The build-time MathML renderer (book/_ext/mathml.py)."""

import importlib.util
import pathlib

_PATH = pathlib.Path(__file__).resolve().parents[1] / "book" / "_ext" / "mathml.py"
_SPEC = importlib.util.spec_from_file_location("netlab_book_mathml", _PATH)
mathml = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(mathml)


def test_a_display_formula_can_be_reached_by_keyboard():
    # a wide display formula scrolls sideways; without a tab stop a keyboard user cannot scroll
    # it (axe: scrollable-region-focusable, serious), which failed chapters 7 and 9
    block = mathml.to_mathml(r"T = 2(n-1)\alpha + 2\frac{n-1}{n}\frac{8S}{B}", display=True)
    assert block.startswith("<math") and 'tabindex="0"' in block.split(">", 1)[0]
    assert "application/x-tex" in block


def test_inline_formulas_are_not_tab_stops():
    assert "tabindex" not in mathml.to_mathml(r"x^2", display=False)
