"""Shared check: a public netlab function refuses meaningless input, naming the parameter.

Each test module lists its public functions with one valid call in a dict named
``API`` ({function: kwargs}); ``test_api_coverage.py`` checks that every public
model function of netlab appears in one of them, and :func:`assert_rejects`
(driven by hypothesis) feeds each numeric parameter values that no physical
quantity here can take: NaN, infinities, negatives, strings, None, lists.
"""

from __future__ import annotations

import inspect
import math
import numbers

from hypothesis import strategies as st
import pytest

BAD_VALUES = st.one_of(
    st.sampled_from([math.nan, math.inf, -math.inf, None, "1", [1.0], True]),
    st.floats(max_value=-1e-9, allow_nan=False, allow_infinity=False),
    st.integers(max_value=-1),
)


def numeric_params(kwargs: dict) -> list[str]:
    """Names of the arguments in ``kwargs`` that are plain numbers (not bools)."""
    return [k for k, v in kwargs.items() if isinstance(v, numbers.Real) and not isinstance(v, bool)]


def assert_rejects(func, valid: dict, name: str, bad) -> None:
    """``func(**valid)`` with ``name`` set to ``bad`` raises ValueError/TypeError naming ``name``."""
    default = inspect.signature(func).parameters[name].default
    if bad is None and default is None:
        return  # None is this parameter's documented default
    kwargs = dict(valid)
    kwargs[name] = bad
    with pytest.raises((ValueError, TypeError)) as info:
        func(**kwargs)
    assert name in str(info.value), f"{func.__name__}: message does not name {name!r}: {info.value}"
