"""Committed notebooks are clean: no outputs, a title, cell ids, seeded randomness."""

import json
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p for d in ("labs", "book") for p in (ROOT / d).rglob("*.ipynb")
                   if ".ipynb_checkpoints" not in p.parts)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_clean(path):
    nb = json.loads(path.read_text())
    cells = nb["cells"]
    assert cells[0]["cell_type"] == "markdown" and "".join(cells[0]["source"]).startswith("# ")
    for cell in cells:
        assert "id" in cell
        if cell["cell_type"] == "code":
            assert cell.get("outputs") == [] and cell.get("execution_count") is None
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    if re.search(r"\b(random|default_rng|np\.random)\b", code):
        assert re.search(r"seed", code), f"{path.name} uses randomness without a seed"


def test_every_notebook_is_in_the_table_of_contents():
    toc = (ROOT / "_toc.yml").read_text()
    for path in NOTEBOOKS:
        assert str(path.relative_to(ROOT).with_suffix("")) in toc, path
