"""Comparing a used parameter value with the expected one (structural, with per-parameter rules).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from agentic_core.common.text_normal import normalise_text
from agentic_core.data.schemas import ParameterRule
from agentic_core.errors import show_value


def is_number(value: Any) -> bool:
    # bool is an int subclass in Python, but True must not equal 1 here.
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def num_exact(expected: Any, used: Any) -> bool:
    return bool(expected == used)  # 5 == 5.0; NaN != NaN


def str_exact(expected: str, used: str) -> bool:
    return expected == used


def _str_text(expected: str, used: str) -> bool:
    return expected == used or normalise_text(expected) == normalise_text(used)


def _num_tolerance(rule: ParameterRule) -> Callable[[Any, Any], bool]:
    def equal(expected: Any, used: Any) -> bool:
        if expected == used:
            return True
        # NaN and inf give a NaN / inf difference, which is never within tolerance.
        try:
            return bool(abs(used - expected) <= max(rule.abs_tol, rule.rel_tol * abs(expected)))
        except OverflowError:  # an int too large for a float: no tolerance can bridge the gap
            return False

    return equal


def _mapping_equal(
    expected: Mapping[Any, Any],
    used: Mapping[Any, Any],
    num_eq: Callable[[Any, Any], bool],
    str_eq: Callable[[str, str], bool],
) -> bool:
    # Same key set, then values by key: the order of keys never matters.
    if len(expected) != len(used):
        return False
    for key, value in expected.items():
        if key not in used or not structural_equal(value, used[key], num_eq, str_eq):
            return False
    return True


def structural_equal(
    expected: Any,
    used: Any,
    num_eq: Callable[[Any, Any], bool],
    str_eq: Callable[[str, str], bool],
) -> bool:
    """Structural equality with pluggable leaf comparisons for numbers and strings."""
    kind = type(expected)
    # Fast path for the common case of two leaves of the very same built-in type.
    if kind is type(used):
        if kind is str:
            return str_eq(expected, used)
        if kind is int or kind is float:
            return num_eq(expected, used)
        if kind is bool:
            return bool(expected is used)
        if kind is dict:
            return _mapping_equal(expected, used, num_eq, str_eq)
    if isinstance(expected, str) and isinstance(used, str):
        return str_eq(expected, used)
    if isinstance(expected, bool) or isinstance(used, bool):
        return isinstance(expected, bool) and isinstance(used, bool) and expected == used
    if is_number(expected) and is_number(used):
        return num_eq(expected, used)
    if isinstance(expected, Mapping) and isinstance(used, Mapping):
        return _mapping_equal(expected, used, num_eq, str_eq)
    if isinstance(expected, (list, tuple)) and isinstance(used, (list, tuple)):
        return len(expected) == len(used) and all(
            structural_equal(e, u, num_eq, str_eq) for e, u in zip(expected, used, strict=True)
        )
    if expected is None or used is None:
        return expected is None and used is None
    if isinstance(expected, (str, int, float, Mapping, list, tuple)) or isinstance(
        used, (str, int, float, Mapping, list, tuple)
    ):
        return False  # different JSON kinds (a string vs a number, a dict vs a list, ...)
    try:
        return bool(expected == used)
    except Exception:  # an exotic type whose __eq__ does not return a truth value
        return False


_NEVER = object()  # the key of a value holding a NaN, which never equals anything


def value_key(value: Any) -> Any:
    """A hashable key, equal for values :func:`structural_equal` calls equal under the exact rule.

    The kind comes first so that ``True`` and ``1`` differ (a bool is not a number) while ``5`` and
    ``5.0`` agree (integers compare exactly with floats); lists and tuples share a kind; a mapping's
    key is its set of (name, value key) pairs, so key order never matters. A value holding a NaN
    anywhere equals nothing: its key is a marker no set holds. ``None`` when the value holds
    something that is not JSON (only Python code can pass one); such values are compared one by one.
    """
    kind = type(value)
    if kind is str:
        return ("s", value)
    if kind is bool:
        return ("b", value)
    if kind is int or kind is float:
        return _NEVER if value != value else ("n", value)
    if value is None:
        return ("z", None)
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, bool):
        return ("b", value)
    if is_number(value):
        return _NEVER if value != value else ("n", value)
    if isinstance(value, Mapping):
        pairs = []
        for name, item in value.items():
            key = value_key(item)
            if key is None or key is _NEVER:
                return key
            pairs.append((name, key))
        return ("d", frozenset(pairs))
    if isinstance(value, (list, tuple)):
        items = []
        for item in value:
            key = value_key(item)
            if key is None or key is _NEVER:
                return key
            items.append(key)
        return ("l", tuple(items))
    return None


@dataclass
class _ValueIndex:
    """An any_of rule's values, normalised once: their keys for lookup, and their rendering.

    Values holding something that is not JSON have no key: no JSON value can equal them.
    """

    keys: frozenset[Any]
    shown: str | None = None  # the values as the explanation of a disagreement shows them


def _value_index(rule: ParameterRule) -> _ValueIndex:
    """The rule's values indexed (built on first use, then kept on the rule).

    A linear scan of the values per comparison made an any_of list of 1,000 values over hundreds of
    calls take tens of seconds: with the index each comparison is one key and one set lookup.
    """
    index = rule._value_index
    if index is None:
        keys = {value_key(value) for value in rule.values or []} - {None, _NEVER}
        index = rule._value_index = _ValueIndex(frozenset(keys))
    return cast("_ValueIndex", index)


def in_values(used: Any, rule: ParameterRule) -> bool:
    """Whether ``used`` structurally equals one of the rule's ``values`` (one set lookup for JSON values).

    A JSON value (strings, numbers, booleans, null, objects and lists of them) never equals a value
    that holds something else, so its key's lookup is the whole answer; only a used value holding
    something that is not JSON is compared with every value.
    """
    key = value_key(used)
    if key is _NEVER:
        return False
    if key is not None:
        return key in _value_index(rule).keys
    return any(structural_equal(v, used, num_exact, str_exact) for v in rule.values or [])


def values_agree(expected: Any, used: Any, rule: ParameterRule | None = None) -> bool:
    """Whether a used parameter value agrees with the expected one.

    Structural comparison: key order never matters, dicts and lists recurse, ``5 == 5.0``,
    ``True != 1`` (a bool is not a number), NaN never equals, strings are exact. A rule changes
    the leaf comparison: ``tolerance`` compares every numeric leaf within
    ``max(abs_tol, rel_tol * |expected|)``; ``text`` compares every string leaf after
    :func:`normalise_text`; ``any_of`` accepts the expected value or any of ``values``;
    ``ignore`` always agrees.

    Args:
        expected: The expected value.
        used: The value the agent passed.
        rule: The parameter's rule; ``None`` means ``exact``.

    Returns:
        True when the values agree.
    """
    kind = rule.rule if rule is not None else "exact"
    if kind == "ignore":
        return True
    if kind == "tolerance":
        assert rule is not None
        return structural_equal(expected, used, _num_tolerance(rule), str_exact)
    if kind == "text":
        return structural_equal(expected, used, num_exact, _str_text)
    if kind == "any_of":
        assert rule is not None
        return structural_equal(expected, used, num_exact, str_exact) or in_values(used, rule)
    return structural_equal(expected, used, num_exact, str_exact)


_LEAF_TYPES = frozenset({str, int, float, bool, type(None)})


def canonical(value: Any) -> Any:
    """The value with dict keys sorted (recursively), so rendered text never depends on key order."""
    if type(value) in _LEAF_TYPES:  # most values (an any_of list of 1,000 strings): no abstract checks
        return value
    if isinstance(value, Mapping):
        return {k: canonical(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    return value


def show_canonical(value: Any) -> str:
    return show_value(canonical(value))


def why_differ(expected: Any, used: Any, rule: ParameterRule | None) -> str:
    """A short, deterministic explanation of why two present values disagree."""
    if rule is not None and rule.rule == "any_of":
        index = _value_index(rule)
        if index.shown is None:  # rendered once per rule, not once per disagreement
            index.shown = show_canonical(rule.values)
        return f"not the expected value nor one of the allowed values {index.shown}"
    if rule is not None and rule.rule == "tolerance":
        return f"outside tolerance (abs_tol={rule.abs_tol:g}, rel_tol={rule.rel_tol:g})"
    if rule is not None and rule.rule == "text" and isinstance(expected, str) and isinstance(used, str):
        return (
            f"text differs after normalisation ({show_canonical(normalise_text(expected))} vs "
            f"{show_canonical(normalise_text(used))})"
        )
    if (isinstance(expected, bool) and is_number(used)) or (isinstance(used, bool) and is_number(expected)):
        return "a boolean is not a number"
    if isinstance(expected, float) and isinstance(used, float) and math.isnan(expected) and math.isnan(used):
        return "NaN never equals anything"
    if type(expected) is not type(used) and not (is_number(expected) and is_number(used)):
        return f"types differ ({type(expected).__name__} vs {type(used).__name__})"
    return "values differ"
