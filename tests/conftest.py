"""What the whole test run shares: no test is timed, and behaviour and robustness are counted apart.

* Hypothesis's deadline (200 ms per example by default) is a timed assertion; the profile below
  turns it off for every property test. A hang is caught by tests/hang_guard.py; speed is measured
  in benchmarks/.
* A *robustness* test checks only that bad or scaled input gets a clean answer or a clean refusal
  (a ValueError or TypeError naming the parameter), not what a correct answer is. They carry the
  marker ``robustness``: the API tables' sweeps (tests/test_api_*.py, tests/test_bad_input*.py),
  every test that calls ``tests.sweep.assert_rejects`` (the per-module bad-input sweeps), and tests
  marked by hand. Everything else is a *behaviour* test. The run ends with one line that counts the
  passed tests of each kind; ``-m robustness`` or ``-m "not robustness"`` selects one kind.
* Python's garbage collector: as each test file starts, what the files before left as garbage is
  collected and what is still alive (the imported modules, the collected tests, module-level
  tables) is frozen (``gc.freeze``), so the collector's full passes walk only what the current
  file made. The run's ~50 full passes each walked the whole session's heap: 12 of its ~86 CPU
  seconds, 3 now (measured with ``gc.callbacks``). Nothing is frozen that is garbage then, and no
  test sees the difference: a frozen object is never collected, and they were alive anyway.
"""

from __future__ import annotations

import functools
import gc
import inspect
import pathlib

from hypothesis import settings

settings.register_profile("netlab", deadline=None)
settings.load_profile("netlab")

ROBUSTNESS_FILES = ("test_api_*.py", "test_bad_input*.py")    # API tables and the sweeps over them
ROBUSTNESS_CALL = "assert_rejects("                            # tests/sweep.py's bad-input check


@functools.lru_cache(maxsize=None)
def _sweeps(function) -> bool:
    try:
        return ROBUSTNESS_CALL in inspect.getsource(function)
    except (OSError, TypeError):
        return False


def is_robustness(item) -> bool:
    """A collected item that is a robustness sweep (see the module's docstring)."""
    path = pathlib.Path(str(item.fspath))
    if path.parent.name == "tests" and any(path.match(p) for p in ROBUSTNESS_FILES):
        return True
    function = getattr(item, "function", None)
    return function is not None and _sweeps(function)


def pytest_collection_modifyitems(config, items):
    import pytest

    for item in items:
        if item.get_closest_marker("robustness") is None and is_robustness(item):
            item.add_marker(pytest.mark.robustness)


_FROZEN_UP_TO: list[str] = [""]       # the test file whose start last froze the heap


def pytest_runtest_setup(item):
    path = str(item.fspath)
    if path != _FROZEN_UP_TO[0]:
        _FROZEN_UP_TO[0] = path
        gc.collect()
        gc.freeze()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if config.option.collectonly:
        return
    passed = [r for r in terminalreporter.stats.get("passed", []) if r.when == "call"]
    robustness = sum(1 for r in passed if "robustness" in r.keywords)
    terminalreporter.write_line(f"{len(passed) - robustness} behaviour tests, {robustness} robustness tests "
                                "(passed; tests/conftest.py says which is which)")
