"""netlab.validate: the shared checks name the parameter and the range, and never leak an
OverflowError, a KeyError quoting a list, or a value that cannot be."""

import math

import pytest

from netlab import validate


@pytest.mark.parametrize("check", [validate.positive, validate.non_negative,
                                   lambda n, v: validate.in_range(n, v, 0, 1),
                                   lambda n, v: validate.number(n, v, "> 0")])
def test_huge_integer_is_a_value_error_not_overflow(check):
    # before: float(10**400) raised OverflowError from inside the validator
    with pytest.raises(ValueError, match="bandwidth_bps.*too large for a float"):
        check("bandwidth_bps", 10**400)


def test_an_integer_beyond_a_float_is_refused_as_an_integer():
    # 10**400 has no float; the integer check says what it wanted instead of leaking OverflowError
    with pytest.raises(ValueError, match="x must be an integer"):
        validate.integer("x", 10**400)


def test_upper_bounds_say_what_is_reasonable():
    with pytest.raises(ValueError, match=r"world_size must be an integer >= 1 and <= 1048576 \(ranks"):
        validate.integer("world_size", 2**31, 1, validate.MAX_RANKS, why="ranks enumerated one by one")
    with pytest.raises(ValueError, match="n must be an integer >= 1 and <= 5, got an integer of 101 digits"):
        validate.integer("n", 10**100, 1, 5)
    with pytest.raises(ValueError, match=r"size_bytes must be a finite number > 0 and <= 1e\+12 \(memory"):
        validate.positive("size_bytes", 2e12, maximum=1e12, why="memory")
    assert validate.positive("x", 5, maximum=5) == 5.0
    assert validate.non_negative("x", 0, maximum=1) == 0.0


def test_steps_refuse_an_interval_that_would_never_end():
    with pytest.raises(ValueError, match=r"interval_s must be >= 1e-10 \(at most 10,000,000 samples"):
        validate.steps("interval_s", 1e-20, 1e-3)
    with pytest.raises(ValueError, match="interval_s must be between 1e-30 and 1e"):
        validate.steps("interval_s", 1e-300, 1e-3)       # below the floor of every positive quantity
    assert validate.steps("interval_s", 1e-6, 1e-3) == 1e-6


def test_key_and_choice_type_errors_name_the_parameter():
    # before: a GPU name passed as a list reached a registry lookup and raised KeyError("gpu.['h100']...")
    with pytest.raises(TypeError, match="gpu must be a string"):
        validate.key("gpu", ["h100"], ["h100", "b200"])
    with pytest.raises(ValueError, match=r"gpu must be one of \['h100', 'b200'\], got 'a100x'"):
        validate.key("gpu", "a100x", ["h100", "b200"])
    with pytest.raises(TypeError, match="mode"):
        validate.choice("mode", ["lossy"], ["lossy", "pfc"])
    with pytest.raises(TypeError, match="mode"):
        validate.choice("mode", {}, ["lossy", "pfc"])
    assert validate.key("gpu", "h100", ["h100"]) == "h100"


@pytest.mark.parametrize("bad", [math.nan, math.inf, -1.0])
def test_result_refuses_a_quantity_that_cannot_be(bad):
    with pytest.raises(ValueError, match="algbw_bps came out as"):
        validate.result("algbw_bps", bad)
    assert validate.result("algbw_bps", 0.0) == 0.0
