"""The examples in netlab's docstrings run and print what they say.

A docstring example is teaching text too: ``400 * Gbps / GBps`` must really be 50.
"""

import doctest
import importlib
import pkgutil

import pytest

import netlab

MODULES = sorted(info.name for info in pkgutil.walk_packages(netlab.__path__, "netlab."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{name}: {result.failed} docstring example(s) failed"
