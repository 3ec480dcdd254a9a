"""The library reference (book/api/) documents every public module of netlab."""

import pathlib
import pkgutil
import re

import netlab

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _public_modules() -> set[str]:
    names: set[str] = set()
    for info in pkgutil.walk_packages(netlab.__path__, "netlab."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.add(info.name)
    return names


def test_every_public_module_is_in_the_reference():
    documented = set()
    for page in (ROOT / "book" / "api").glob("*.md"):
        documented |= set(re.findall(r"^\.\. automodule:: (netlab[\w.]*)$", page.read_text(), re.M))
    missing = sorted(_public_modules() - documented)
    assert not missing, f"add these modules to a page of book/api/: {missing}"
    assert not documented - _public_modules(), "book/api/ names a module that does not exist"
