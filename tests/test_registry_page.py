"""The registry appendix (book/appendix-registry.ipynb) built by ``specs.registry_page``."""

import json
import pathlib
import re

import pytest

from netlab import specs

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _book_parts():
    nb = json.loads((ROOT / "book" / "appendix-registry.ipynb").read_text())
    code = "".join(nb["cells"][1]["source"])
    namespace = {}
    exec(code.replace("Markdown(specs.registry_page(PARTS))", ""), namespace)  # noqa: S102 - the book's own cell
    return namespace["PARTS"]


def test_every_entry_is_listed_once_with_a_readable_section_name():
    parts = _book_parts()
    page = specs.registry_page(parts, cite=False)
    keys = re.findall(r"^\| \*\*.*?\*\* `([^`]+)` \|", page, re.M)
    assert sorted(keys) == sorted(s.key for s in specs.all_specs())
    assert "Other figures" not in page, "a key prefix has no section name in book/appendix-registry.ipynb"
    names = [n for names in parts.values() for n in names.values()]
    assert all(len(n) > 3 and n[0].isupper() or n.isupper() for n in names), names
    assert not {"Ibeth", "Ra", "Xgs"} & set(re.findall(r"^### (.*)$", page, re.M))


def test_contents_link_every_section_and_tables_have_three_columns():
    page = specs.registry_page({"Links": {"ib": "InfiniBand"}}, cite=False)
    targets = re.findall(r"^\(registry-([a-z0-9]+)\)=$", page, re.M)
    linked = re.findall(r"<registry-([a-z0-9]+)>`", page)
    assert targets and sorted(targets) == sorted(linked)
    header = next(line for line in page.splitlines() if line.startswith("| figure"))
    assert header.count("|") == 4
    # prefixes not named still appear, last, so no figure is dropped
    assert "Other figures" in page and "(registry-nvlink)=" in page


def test_bad_parts_are_refused():
    with pytest.raises(TypeError, match="parts"):
        specs.registry_page(["ib"])
