"""Summary lines of the site checks ("netlab site: 31 pages visited in 95 s"), printed at the end of the run.

Tests add lines with :func:`add`. Under pytest-xdist the tests run in worker processes, whose
terminal summary nobody sees: each worker hands its lines to the controller (xdist's
``workeroutput``), which prints them. The controller never loads ``tests/site/conftest.py``
(pytest loads a conftest there only while collecting, which a controller does not do), so the
Makefile loads this module as a plugin (``-p tests.site.notes``); the conftest registers it when
it was not given, so a plain ``pytest tests/site`` prints the lines too.
"""

from __future__ import annotations

import pytest

_lines: list[str] = []          # this process's lines
_from_workers: list[str] = []   # on an xdist controller: the workers' lines


def add(line: str) -> None:
    if line not in _lines:
        _lines.append(line)


def pytest_sessionfinish(session):
    if hasattr(session.config, "workeroutput"):     # an xdist worker: hand the lines over
        session.config.workeroutput["netlab_site_notes"] = list(_lines)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    for line in getattr(node, "workeroutput", {}).get("netlab_site_notes", []):
        if line not in _from_workers:
            _from_workers.append(line)


def pytest_terminal_summary(terminalreporter):
    for line in _lines + _from_workers:
        terminalreporter.write_line(f"netlab site: {line}")
