"""Shared check: a public netlab function refuses meaningless input, naming the parameter.

Each test module lists its public functions with one valid call in a dict named
``API`` ({function: kwargs}); ``test_api_coverage.py`` checks that every public
model function of netlab appears in one of them, and :func:`assert_rejects`
(driven by hypothesis) feeds each numeric parameter values that no physical
quantity here can take: NaN, infinities, negatives, strings, None, lists.

The second half is the discovered sweep of tests/test_bad_input.py: :func:`discover` walks the
package for every public function, class and method, :func:`cases` pairs each parameter with each
of :data:`BAD_INPUTS`, and :func:`judge` decides whether the answer was a clean refusal or a result
in range.
"""

from __future__ import annotations

import ast
from collections.abc import Callable as _Callable
import dataclasses
import importlib
import inspect
import math
import numbers
import pathlib
import pkgutil

from hypothesis import strategies as st
import pytest

import netlab
from tests import properties as P

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


# --- the discovered sweep (tests/test_bad_input.py) -----------------------------------------------
# Every public function, class and method of netlab is found by walking the package, so that a new
# one is swept as soon as it exists (or the coverage test asks for a valid call or a reason). Each of
# its parameters in turn receives each of the values below, the others keeping a valid value.


# (what a report shows, the value): what a new user passes by mistake -- nothing, a number typed as
# text, the IEEE specials, integers beyond a float and beyond a C long, a negative size, zero, an
# empty sequence, and a bool where a number belongs.
BAD_INPUTS = [("None", None), ("'1'", "1"), ("nan", math.nan), ("inf", math.inf), ("-inf", -math.inf),
              ("10**400", 10**400), ("2**63", 2**63), ("-1", -1), ("0", 0), ("[]", []), ("True", True)]
HANG_GUARD_S = 20.0      # real seconds per call: a guard against a hang, not a speed limit
# Not public API: the old import paths (each module there is one of the swept ones) and the build's
# matplotlib speed devices, which take matplotlib objects and are tested against matplotlib itself.
SKIP_MODULES = ("netlab._moved", "netlab._mpl_speedups")


@dataclasses.dataclass(frozen=True)
class Target:
    """One public callable: a function, a class (its constructor) or a method of a public class."""

    label: str                 # netlab.package.module.name[.method]
    kind: str                  # "function", "class" or "method"
    obj: object                # the function, the class, or the function defined on the class
    owner: type | None = None  # the class of a method


@dataclasses.dataclass(frozen=True)
class Case:
    """A valid call of one target, which the sweep spoils one parameter at a time.

    ``kwargs``: valid values of the parameters without a default (others keep their default), or a
    function that builds them afresh for every call (for arguments a call changes): of no argument,
    or for a method of the instance it is called on.
    ``make``: for a method, a zero-argument function returning a fresh instance to call it on.
    ``then``: ``then(result, instance)`` uses what a call accepted as a user would next (run the
    network, print the record, pass the shape to the model); any error there is an error deferred
    from the call, and a finding.
    ``related``: ``{parameter: why}`` for a parameter whose range is checked where the value is
    used, because it depends on what the later use brings (a switch buffer against the mtu of the
    network it joins) or by design (a record a user may build by hand, checked by the model that
    reads it). For these the call may accept the value; the later use (``then``) must then answer
    in range or refuse naming the parameter.
    """

    kwargs: dict | _Callable = dataclasses.field(default_factory=dict)
    make: _Callable | None = None
    then: _Callable | None = None
    related: dict = dataclasses.field(default_factory=dict)


def _is_function(obj) -> bool:
    return inspect.isfunction(obj) or type(obj).__name__ == "cython_function_or_method"


def discover() -> list[Target]:
    """Every public function, class and method defined in a netlab module, in module order."""
    found = []
    for info in pkgutil.walk_packages(netlab.__path__, "netlab."):
        if info.name in SKIP_MODULES:
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if name.startswith("_") or getattr(obj, "__module__", None) != info.name:
                continue
            label = f"{info.name}.{name}"
            if _is_function(obj):
                found.append(Target(label, "function", obj))
            elif inspect.isclass(obj):
                found.append(Target(label, "class", obj))
                for mname, member in vars(obj).items():
                    if not mname.startswith("_") and _is_function(member):
                        found.append(Target(f"{label}.{mname}", "method", member, obj))
    return found


def signature(obj) -> inspect.Signature:
    """``inspect.signature(obj)``; for a class compiled by Cython, whose ``__init__`` cannot be
    inspected, the signature of its ``__init__`` read from the ``.py`` source it was compiled from."""
    try:
        return inspect.signature(obj)
    except ValueError:
        if not inspect.isclass(obj):
            raise
    for cls in obj.__mro__:
        if cls is object:
            return inspect.Signature()
        init = _source_init(cls)
        if init is not None:
            return init
    return inspect.Signature()   # pragma: no cover -- every MRO ends in object


def _source_init(cls) -> inspect.Signature | None:
    """The signature of ``cls.__init__`` as written in its module's source, or ``None`` if the
    class defines none there."""
    module = importlib.import_module(cls.__module__)
    path = pathlib.Path(module.__file__).parent / (cls.__module__.rsplit(".", 1)[-1] + ".py")
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    return _signature_of(item.args, vars(module))
            return None
    return None


def _signature_of(args: ast.arguments, namespace: dict) -> inspect.Signature:
    def value(expr):
        return eval(compile(ast.Expression(expr), "<default>", "eval"), dict(namespace))  # noqa: S307
    positional = args.args[1:]                                   # without self
    defaults = [inspect.Parameter.empty] * (len(positional) - len(args.defaults)) + \
        [value(d) for d in args.defaults]
    params = [inspect.Parameter(a.arg, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=d)
              for a, d in zip(positional, defaults)]
    params += [inspect.Parameter(a.arg, inspect.Parameter.KEYWORD_ONLY,
                                 default=inspect.Parameter.empty if d is None else value(d))
               for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    return inspect.Signature(params)


def parameters(target: Target) -> list[inspect.Parameter]:
    """The parameters a caller passes by name (not ``self``, ``*args`` or ``**kwargs``)."""
    params = list(signature(target.obj).parameters.values())
    if target.kind == "method":
        params = params[1:]
    return [p for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def missing(target: Target, case: Case | None) -> list[str]:
    """Parameters without a default that ``case`` gives no valid value for (an incomplete call)."""
    if case is None:
        return ["(no valid call)"] if any(p.default is p.empty for p in parameters(target)) or \
            target.kind == "method" else []
    if target.kind == "method" and case.make is None:
        return ["(no instance: Case.make)"]
    kwargs = _kwargs(target, case, case.make() if target.kind == "method" else None)
    return [p.name for p in parameters(target) if p.default is p.empty and p.name not in kwargs]


def _show(value) -> str:
    return next((text for text, bad in BAD_INPUTS if bad is value), repr(value)[:40])


def _same(a, b) -> bool:
    """``a`` is ``b`` for the sweep's purposes (a bad value equal to the valid one is not tried)."""
    if type(a) is not type(b):
        return False
    try:
        return bool(a == b) or (isinstance(a, float) and math.isnan(a) and math.isnan(b))
    except Exception:          # arrays and the like compare element-wise
        return False


def cases(target: Target, case: Case | None):
    """``(parameter, bad value)`` pairs to try: every bad input on every parameter, except a value
    equal to the parameter's valid one, and ``None`` where ``None`` is the documented default."""
    case = case or Case()
    valid = {} if callable(case.kwargs) else case.kwargs
    for p in parameters(target):
        good = valid.get(p.name, p.default)
        for _, bad in BAD_INPUTS:
            if bad is None and p.default is None:
                continue
            if p.name in valid and _same(bad, good):
                continue
            yield p.name, bad


def _kwargs(target: Target, case: Case, instance=None) -> dict:
    if not callable(case.kwargs):
        return dict(case.kwargs)
    return case.kwargs(instance) if target.kind == "method" else case.kwargs()


def _call(target: Target, case: Case, name: str, bad):
    instance = case.make() if target.kind == "method" else None
    kwargs = _kwargs(target, case, instance)
    kwargs[name] = bad
    if target.kind == "method":
        return getattr(instance, target.obj.__name__)(**kwargs), instance
    return target.obj(**kwargs), None


def judge(target: Target, case: Case | None, name: str, bad) -> str | None:
    """Call ``target`` with ``name=bad``: ``None`` if it answered in range or refused cleanly (a
    ValueError/TypeError naming ``name``), else a one-line finding."""
    case = case or Case()
    shown = f"{target.label}({name}={_show(bad)})"
    stage = "call"
    try:
        def run():
            nonlocal stage
            result, instance = _call(target, case, name, bad)
            stage = "later use"
            if name not in case.related:
                stage = "check"
                check(result)
                stage = "later use"
                repr(result), str(result)
            if case.then is not None:
                case.then(result, instance)
            return result
        P.call_within(HANG_GUARD_S, run, {})
    except P.TooSlow:
        return f"{shown}: no answer within {HANG_GUARD_S:g} s ({stage})"
    except AssertionError as err:
        return f"{shown}: returned {err}"
    except (ValueError, TypeError) as err:
        if stage == "later use" and name in case.related and name in str(err):
            return None
        if stage != "call":
            return f"{shown}: accepted, then {type(err).__name__} at the {stage}: {err}"
        if name not in str(err):
            return f"{shown}: {type(err).__name__} not naming {name!r}: {str(err)[:200]}"
        return None
    except Exception as err:   # noqa: BLE001 -- any other error is what the sweep looks for
        where = "" if stage == "call" else f" at the {stage} (accepted by the call)"
        return f"{shown}: {type(err).__name__}{where}: {str(err)[:200]}"
    return None


# Documented NaN sentinels: a simulated flow that did not finish has no completion time, a port
# with no credit flow control has no minimum credit, and an exercise's answer that is not a number
# has no ratio to the key (its Feedback says what to type instead); a DDP bucket that no NCCL tree can
# carry (one rank, or more ranks than NCCL's tuner models) has no tree time.
SENTINEL_NAN = ("completion_time_s", "min_credits_bytes", "ratio", "tree_s")


def check(result) -> None:
    """:func:`tests.properties.check_result`, but the documented NaN sentinels may be NaN."""
    try:
        P.check_result(result)
    except AssertionError as err:
        if not any(f".{name} is nan" in str(err) for name in SENTINEL_NAN):
            raise
        P.check_result(_without_sentinels(result))


def _without_sentinels(value, depth=0):
    if depth > 6:
        return None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: (None if f.name in SENTINEL_NAN else _without_sentinels(getattr(value, f.name), depth + 1))
                for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [_without_sentinels(v, depth + 1) for v in value[:200]]
    if isinstance(value, dict):
        return {k: _without_sentinels(v, depth + 1) for k, v in list(value.items())[:200]}
    return value
