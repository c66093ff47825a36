"""Tool-correctness scoring per interaction: pure functions, no IO (DESIGN.md §5).

Scoring happens in two stages, because weights, the tool threshold and "ignore extra calls"
are slider settings applied later, vectorised, over many interactions:

1. :func:`score_tools` (run once per interaction) matches used calls to expected calls and
   returns the weight-independent :class:`ToolComponents`: four component scores, counts, the
   expected-vs-used match table and deterministic deduction sentences.
2. :func:`combine` turns one :class:`ToolComponents` into a :class:`ToolCorrectnessScore`
   (seed field names) for given weights and threshold; :func:`components_matrix` and
   :func:`overall_vectorised` do the same arithmetic over arrays for the aggregator, and produce
   bit-identical overall scores (same operations in the same order).

Definitions (the vacuous cases included):

* Calls are ordered by ``step`` when every call of the list has one (ties keep list order),
  else by list order; used and expected lists are ordered independently.
* Matching is one-to-one between same-name calls. Per tool name the assignment maximises,
  lexicographically, (number of *required* expected calls matched, total parameter agreement),
  ties going to pairs close in order. Every used call that can be matched is matched: a correct
  double call is two matches, a retry is one match plus one extra call.
* ``selection`` = F1 of precision (matched calls / used calls) and recall (matched required
  calls / required expected calls). Vacuous values: recall = 1 without required expected calls,
  precision = 1 without used calls; so no calls used while some were required gives 0, and
  nothing used while nothing was required gives 1. ``selection_ignore_extra`` is the same F1
  computed as if the extra (unmatched) used calls had not been made.
* ``parameters`` = mean over required expected calls of their match's agreement (0 when
  unmatched); without required expected calls, the mean over matched optional calls, else 1.
* ``sequence`` = 1 when order does not matter, else LCS(required expected names, used names) /
  number of required expected calls (1 without required calls): relative order, so an extra
  call in front does not lower it.
* ``utilization``: the ``final_answer_uses_tools`` flag when given; else inferred from evidence
  (a tool result value appears in the final answer); ``None`` (not assessable, left out of the
  overall score) when there is no flag and no usable result, or when no tool was called and
  none was required. Required tools expected but none called: 0.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple, cast

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict
from scipy.optimize import linear_sum_assignment

from agentic_core.errors import SettingsError, show_value
from agentic_core.schemas import (
    Agentic,
    ExpectedTool,
    GroundTruthAgentic,
    Interaction,
    ParameterRule,
    ToolCall,
)
from agentic_core.settings import ToolWeights
from agentic_core.wording import plural

__all__ = [
    "TOOL_THRESHOLD_TOLERANCE",
    "MatchRow",
    "ParamError",
    "ToolComponents",
    "ToolCorrectnessScore",
    "combine",
    "components_matrix",
    "normalise_text",
    "overall_vectorised",
    "score_interaction",
    "score_tools",
    "tool_correct_vectorised",
    "values_agree",
]

TOOL_THRESHOLD_TOLERANCE = 1e-9
"""``is_correct`` = overall >= tool_threshold - this, so 0.2/0.4/0.3/0.1 on a perfect call passes 1.0."""

# Tie-break weight per rank of distance between an expected and a used call in the matching.
# It only has to beat float noise (~1e-16) and stay far below the smallest real difference of
# total agreement (a fraction with small denominators, >= 1e-3 for any realistic parameter
# count), even summed over a large group: 1e-9 * (100 calls)^2 = 1e-5.
_TIE_BREAK = 1e-9

# Cap on result values examined per interaction when inferring utilization, so one huge tool
# result (a whole document as JSON) cannot make scoring slow.
_MAX_RESULT_LEAVES = 256


class ParamError(NamedTuple):
    """A parameter that disagrees in a matched (expected, used) pair.

    ``expected_value`` / ``used_value`` are ``None`` when the parameter is absent on that
    side; ``why`` then says so ("missing from the call", "not an expected parameter").
    """

    tool_name: str
    param_name: str
    expected_value: Any
    used_value: Any
    why: str


class MatchRow(NamedTuple):
    """One row of the expected-vs-used diff.

    Indices are 0-based positions in the *original* lists (``expected_tools`` /
    ``tools_used``), so a UI can look the calls up. A matched pair has both indices; a missing
    (or unused optional) expected call has ``used_index=None``; an extra used call has
    ``expected_index=None``. ``agreement`` is the pair's parameter agreement, 0 when unmatched.
    """

    expected_index: int | None
    used_index: int | None
    agreement: float


@dataclass(frozen=True, slots=True)
class ToolComponents:
    """The weight-independent result of :func:`score_tools` for one interaction.

    A slotted dataclass, not a pydantic model: it is internal (built here from validated data,
    never parsed from outside) and made 100k times per evaluation, where a model's
    construction cost a third of the scoring time.

    Attributes:
        selection: F1 of matched calls, extra calls penalised.
        selection_ignore_extra: The same F1 as if the extra calls had not been made.
        parameters: Mean parameter agreement (see the module docstring).
        sequence: LCS-based order score; 1.0 when order does not matter.
        sequence_checked: Whether order mattered (``tool_sequence_matters``).
        utilization: 1.0 / 0.0, or ``None`` when not assessable.
        utilization_inferred: Utilization was inferred from evidence (no flag given).
        n_required: Required expected calls.
        n_optional: Optional expected calls.
        n_used: Used calls.
        n_matched: Matched pairs (required and optional).
        n_matched_required: Matched pairs whose expected call is required.
        missing: Tool names of unmatched required expected calls, in expected order.
        extra: Tool names of unmatched used calls, in used order.
        param_errors: Disagreeing parameters of matched pairs, in display order.
        matches: The expected-vs-used diff rows, in display order (every call appears once).
        deductions: Deterministic sentences naming every deduction and how utilization was
            judged (empty when everything is correct).
    """

    selection: float
    selection_ignore_extra: float
    parameters: float
    sequence: float
    sequence_checked: bool
    utilization: float | None
    utilization_inferred: bool
    n_required: int
    n_optional: int
    n_used: int
    n_matched: int
    n_matched_required: int
    missing: list[str]
    extra: list[str]
    param_errors: list[ParamError]
    matches: list[MatchRow]
    deductions: list[str]


class ToolCorrectnessScore(BaseModel):
    """Tool correctness of one interaction for given weights and threshold (seed 003 names).

    ``overall_correctness`` is ``None`` only when every dimension with a weight > 0 is not
    assessable (for example only utilization is weighted and it could not be judged); then
    ``is_correct`` is false and the reasoning says why.
    """

    model_config = ConfigDict(frozen=True)

    tool_selection_correct: float
    parameter_accuracy: float
    sequence_correct: float
    result_utilization: float | None
    overall_correctness: float | None
    is_correct: bool
    reasoning: str


# --------------------------------------------------------------------------------------------
# Value comparison
# --------------------------------------------------------------------------------------------

_PUNCT_CATEGORIES = frozenset({"Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps"})
_WHITESPACE = re.compile(r"\s+")


@lru_cache(maxsize=65536)
def normalise_text(text: str) -> str:
    """Normalise text for the ``text`` rule: NFKC, case-fold, drop punctuation, squeeze spaces.

    Punctuation is removed rather than replaced by a space (as in SQuAD-style answer
    normalisation), so ``"U.S.A."`` equals ``"usa"`` and ``"e-mail"`` equals ``"email"``.

    Args:
        text: Any string.

    Returns:
        The normalised string.
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    kept = "".join(ch for ch in folded if unicodedata.category(ch) not in _PUNCT_CATEGORIES)
    return _WHITESPACE.sub(" ", kept).strip()


def _is_number(value: Any) -> bool:
    # bool is an int subclass in Python, but True must not equal 1 here.
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _num_exact(expected: Any, used: Any) -> bool:
    return bool(expected == used)  # 5 == 5.0; NaN != NaN


def _str_exact(expected: str, used: str) -> bool:
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
        if key not in used or not _structural_equal(value, used[key], num_eq, str_eq):
            return False
    return True


def _structural_equal(
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
    if _is_number(expected) and _is_number(used):
        return num_eq(expected, used)
    if isinstance(expected, Mapping) and isinstance(used, Mapping):
        return _mapping_equal(expected, used, num_eq, str_eq)
    if isinstance(expected, (list, tuple)) and isinstance(used, (list, tuple)):
        return len(expected) == len(used) and all(
            _structural_equal(e, u, num_eq, str_eq) for e, u in zip(expected, used, strict=True)
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


def _in_values(used: Any, rule: ParameterRule) -> bool:
    return any(_structural_equal(v, used, _num_exact, _str_exact) for v in rule.values or [])


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
        return _structural_equal(expected, used, _num_tolerance(rule), _str_exact)
    if kind == "text":
        return _structural_equal(expected, used, _num_exact, _str_text)
    if kind == "any_of":
        assert rule is not None
        return _structural_equal(expected, used, _num_exact, _str_exact) or _in_values(used, rule)
    return _structural_equal(expected, used, _num_exact, _str_exact)


def _canonical(value: Any) -> Any:
    """The value with dict keys sorted (recursively), so rendered text never depends on key order."""
    if isinstance(value, Mapping):
        return {k: _canonical(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    return value


def _show(value: Any) -> str:
    return show_value(_canonical(value))


def _why_differ(expected: Any, used: Any, rule: ParameterRule | None) -> str:
    """A short, deterministic explanation of why two present values disagree."""
    if rule is not None and rule.rule == "any_of":
        return f"not the expected value nor one of the allowed values {_show(rule.values)}"
    if rule is not None and rule.rule == "tolerance":
        return f"outside tolerance (abs_tol={rule.abs_tol:g}, rel_tol={rule.rel_tol:g})"
    if rule is not None and rule.rule == "text" and isinstance(expected, str) and isinstance(used, str):
        return (
            f"text differs after normalisation ({_show(normalise_text(expected))} vs "
            f"{_show(normalise_text(used))})"
        )
    if (isinstance(expected, bool) and _is_number(used)) or (isinstance(used, bool) and _is_number(expected)):
        return "a boolean is not a number"
    if isinstance(expected, float) and isinstance(used, float) and math.isnan(expected) and math.isnan(used):
        return "NaN never equals anything"
    if type(expected) is not type(used) and not (_is_number(expected) and _is_number(used)):
        return f"types differ ({type(expected).__name__} vs {type(used).__name__})"
    return "values differ"


def _pair_agreement(expected: ExpectedTool, used: ToolCall) -> tuple[float, list[ParamError]]:
    """Share of compared parameter names whose values agree, and the disagreements.

    Names are the union of expected and used names minus those ruled ``ignore``; they are
    visited in sorted order so errors (and hence reasoning) do not depend on key order.
    """
    exp_params, used_params, rules = expected.parameters, used.parameters, expected.parameter_rules
    names = sorted(set(exp_params) | set(used_params))
    compared = 0
    agreed = 0
    errors: list[ParamError] = []
    for name in names:
        rule = rules.get(name)
        if rule is not None and rule.rule == "ignore":
            continue
        compared += 1
        in_exp, in_used = name in exp_params, name in used_params
        if not in_used:
            errors.append(
                ParamError(expected.tool_name, name, exp_params[name], None, "missing from the call")
            )
            continue
        used_value = used_params[name]
        if not in_exp:
            # An any_of rule may list the accepted values without an expected value.
            if rule is not None and rule.rule == "any_of" and _in_values(used_value, rule):
                agreed += 1
            else:
                errors.append(
                    ParamError(expected.tool_name, name, None, used_value, "not an expected parameter")
                )
            continue
        exp_value = exp_params[name]
        if (
            _structural_equal(exp_value, used_value, _num_exact, _str_exact)
            if rule is None
            else values_agree(exp_value, used_value, rule)
        ):
            agreed += 1
        else:
            errors.append(
                ParamError(
                    expected.tool_name, name, exp_value, used_value, _why_differ(exp_value, used_value, rule)
                )
            )
    if compared == 0:
        return 1.0, errors  # two empty (or fully ignored) parameter sets agree fully
    return agreed / compared, errors


# --------------------------------------------------------------------------------------------
# Ordering, matching, sequence
# --------------------------------------------------------------------------------------------


def _order(steps: Sequence[int | None]) -> list[int]:
    """Original indices in evaluation order: by step when all calls have one, else list order."""
    if not steps or None in steps:
        return list(range(len(steps)))
    known = cast("Sequence[int]", steps)
    return sorted(range(len(known)), key=known.__getitem__)  # a stable sort: ties keep list order


def _assign(value: list[list[float]]) -> list[tuple[int, int]]:
    """Pairs (row, column) maximising the total value, one per row or column (the smaller side)."""
    n_rows, n_cols = len(value), len(value[0])
    if n_rows == 1:
        row = value[0]
        return [(0, max(range(n_cols), key=lambda j: (row[j], -j)))]
    if n_cols == 1:
        return [(max(range(n_rows), key=lambda i: (value[i][0], -i)), 0)]
    rows, cols = linear_sum_assignment(np.asarray(value, dtype=np.float64), maximize=True)
    return [(int(r), int(c)) for r, c in zip(rows, cols, strict=True)]


def _lcs(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence (O(len(a) * len(b)), tiny inputs)."""
    if not a or not b:
        return 0
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0] * (len(b) + 1)
        for j, y in enumerate(b, start=1):
            cur[j] = prev[j - 1] + 1 if x == y else max(prev[j], cur[j - 1])
        prev = cur
    return prev[-1]


def _f1(precision: float, recall: float) -> float:
    total = precision + recall
    return 0.0 if total == 0 else 2 * precision * recall / total


# --------------------------------------------------------------------------------------------
# Utilization evidence
# --------------------------------------------------------------------------------------------

_NUMBER_TOKEN = re.compile(r"\d+(?:,\d{3}(?!\d))*(?:\.\d+)?")
_NUMERIC_STRING = re.compile(r"[-+]?(?:\d+(?:,\d{3})*(?:\.\d+)?|\.\d+)")


def _result_leaves(value: Any, out: list[Any]) -> None:
    """Collect usable scalar leaves of a result (dict keys sorted so evidence is key-order free)."""
    if len(out) >= _MAX_RESULT_LEAVES or value is None or isinstance(value, bool):
        return
    if isinstance(value, str):
        if len(value.strip()) >= 2:
            out.append(value.strip())
        return
    if _is_number(value):
        try:
            if math.isfinite(float(value)):
                out.append(value)
        except OverflowError:  # an int beyond float range cannot be matched numerically
            pass
        return
    if isinstance(value, Mapping):
        for key in sorted(value, key=str):
            _result_leaves(value[key], out)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _result_leaves(item, out)


class _Answer:
    """The final answer, case-folded and tokenised into numbers once, on first need."""

    def __init__(self, text: str) -> None:
        self.folded = text.casefold()
        self._numbers: list[tuple[float, int]] | None = None

    def numbers(self) -> list[tuple[float, int]]:
        if self._numbers is None:
            tokens = _NUMBER_TOKEN.findall(self.folded)
            self._numbers = [(float(t.replace(",", "")), len(t.partition(".")[2])) for t in tokens]
        return self._numbers


def _number_in(value: float, answer: _Answer) -> bool:
    """Whether a number appears in the answer as a token (sign-free, rounding allowed).

    The sign is ignored because "-5" and "5 below zero" both show the value was used, and a
    hyphen ("15-27") must not hide a number. A token with d decimals matches a value that
    rounds to it ("3.14" for 3.14159); an integer token matches a non-integer value of
    magnitude >= 10 that rounds to it ("1,235" for 1234.6), never small ones ("3" for 3.4).
    """
    target = abs(float(value))
    for token, decimals in answer.numbers():
        if token == target:
            return True
        if decimals > 0:
            if abs(target - token) <= 0.5 * 10.0**-decimals * (1 + 1e-9):
                return True
        elif target >= 10 and not target.is_integer() and abs(target - token) <= 0.5:
            return True
    return False


def _text_in(needle: str, answer: _Answer) -> bool:
    """Case-insensitive containment; an alphanumeric edge must not continue a word ("ab" in "about")."""
    needle = needle.casefold()
    hay = answer.folded
    start = hay.find(needle)
    while start >= 0:
        end = start + len(needle)
        left_ok = not (needle[0].isalnum() and start > 0 and hay[start - 1].isalnum())
        right_ok = not (needle[-1].isalnum() and end < len(hay) and hay[end].isalnum())
        if left_ok and right_ok:
            return True
        start = hay.find(needle, start + 1)
    return False


def _leaf_in(leaf: Any, answer: _Answer) -> bool:
    if isinstance(leaf, str):
        if _text_in(leaf, answer):
            return True
        if _NUMERIC_STRING.fullmatch(leaf):
            return _number_in(float(leaf.replace(",", "")), answer)
        return False
    return _number_in(leaf, answer)


# --------------------------------------------------------------------------------------------
# Stage 1
# --------------------------------------------------------------------------------------------


def _names(calls: Sequence[str]) -> str:
    return ", ".join(f"'{c}'" for c in calls)


def _score_perfect(used: list[ToolCall], expected: GroundTruthAgentic, flag: bool | None) -> ToolComponents | None:
    """The components of a fully correct interaction, or ``None`` when it is not one.

    Most interactions of a real evaluation call exactly the expected tools with the expected
    parameters; this path recognises them without the matching machinery (about 5x faster on
    100k interactions). Anything unusual -- optional calls, parameter rules, extra or missing
    calls, a difference anywhere, utilization not flagged true -- goes to the general path,
    and a property test checks that both paths agree wherever this one answers.
    """
    exp = expected.expected_tools
    if flag is not True or not exp or len(used) != len(exp):
        return None
    e_order = _order([t.step for t in exp])
    u_order = _order([t.step for t in used])
    for e_i, u_i in zip(e_order, u_order, strict=True):
        e, u = exp[e_i], used[u_i]
        if e.optional or e.parameter_rules or e.tool_name != u.tool_name:
            return None
        e_params, u_params = e.parameters, u.parameters
        if e_params.keys() != u_params.keys():
            return None
        for name, value in e_params.items():
            if not values_agree(value, u_params[name]):
                return None
    n = len(exp)
    return ToolComponents(
        selection=1.0,
        selection_ignore_extra=1.0,
        parameters=1.0,
        sequence=1.0,
        sequence_checked=expected.tool_sequence_matters,
        utilization=1.0,
        utilization_inferred=False,
        n_required=n,
        n_optional=0,
        n_used=n,
        n_matched=n,
        n_matched_required=n,
        missing=[],
        extra=[],
        param_errors=[],
        matches=[MatchRow(e_i, u_i, 1.0) for e_i, u_i in zip(e_order, u_order, strict=True)],
        deductions=[],
    )


def score_tools(
    agentic: Agentic | None, expected: GroundTruthAgentic | None, final_answer: str
) -> ToolComponents | None:
    """Score one interaction's tool use, independently of weights and thresholds.

    Args:
        agentic: What the agent did (``None`` = no tool calls, no flag).
        expected: The tool ground truth; ``None`` means tool use is not evaluated.
        final_answer: The agent's final answer, searched for tool results when
            ``final_answer_uses_tools`` is absent.

    Returns:
        The components, or ``None`` (not applicable) when there is no tool ground truth or when
        no tools were expected and none were used.
    """
    if expected is None:
        return None
    used: list[ToolCall] = list(agentic.tools_used) if agentic is not None else []
    perfect = _score_perfect(used, expected, agentic.final_answer_uses_tools if agentic is not None else None)
    if perfect is not None:
        return perfect
    return _score_general(agentic, expected, used, final_answer)


def _score_general(
    agentic: Agentic | None, expected: GroundTruthAgentic, used: list[ToolCall], final_answer: str
) -> ToolComponents | None:
    """The general path of :func:`score_tools` (optimal matching, every deduction)."""
    exp: list[ExpectedTool] = list(expected.expected_tools)
    if not used and not exp:
        return None

    e_order = _order([t.step for t in exp])
    u_order = _order([t.step for t in used])
    e_rank = {orig: r for r, orig in enumerate(e_order)}
    u_rank = {orig: r for r, orig in enumerate(u_order)}
    n_required = sum(1 for t in exp if not t.optional)
    n_optional = len(exp) - n_required

    # ---- matching, per tool name (only same-name pairs can match) ----
    by_name_e: dict[str, list[int]] = {}
    for orig in e_order:
        by_name_e.setdefault(exp[orig].tool_name, []).append(orig)
    by_name_u: dict[str, list[int]] = {}
    for orig in u_order:
        by_name_u.setdefault(used[orig].tool_name, []).append(orig)

    match_of_exp: dict[int, tuple[int, float, list[ParamError]]] = {}
    matched_used: set[int] = set()
    for name, e_list in by_name_e.items():
        u_list = by_name_u.get(name)
        if not u_list:
            continue
        if len(e_list) == 1 and len(u_list) == 1:  # the common case needs no optimisation
            agreement, errors = _pair_agreement(exp[e_list[0]], used[u_list[0]])
            match_of_exp[e_list[0]] = (u_list[0], agreement, errors)
            matched_used.add(u_list[0])
            continue
        pairs = [[_pair_agreement(exp[e], used[u]) for u in u_list] for e in e_list]
        # Required matches first (worth more than any total agreement), then total agreement,
        # then closeness in order within the name group.
        bonus = min(len(e_list), len(u_list)) + 1.0
        value = [
            [
                (0.0 if exp[e].optional else bonus) + pairs[i][j][0] - _TIE_BREAK * abs(i - j)
                for j in range(len(u_list))
            ]
            for i, e in enumerate(e_list)
        ]
        for i, j in _assign(value):
            agreement, errors = pairs[i][j]
            match_of_exp[e_list[i]] = (u_list[j], agreement, errors)
            matched_used.add(u_list[j])

    n_used = len(used)
    n_matched = len(match_of_exp)
    n_matched_required = sum(1 for e in match_of_exp if not exp[e].optional)

    # ---- selection ----
    recall = n_matched_required / n_required if n_required else 1.0
    precision = n_matched / n_used if n_used else 1.0
    selection = _f1(precision, recall)
    selection_ignore_extra = _f1(1.0, recall)  # without extras every used call is matched

    # ---- parameters ----
    if n_required:
        parameters = (
            sum(match_of_exp[e][1] for e in e_order if not exp[e].optional and e in match_of_exp) / n_required
        )
    else:
        optional_agreements = [match_of_exp[e][1] for e in e_order if e in match_of_exp]
        parameters = sum(optional_agreements) / len(optional_agreements) if optional_agreements else 1.0

    # ---- sequence ----
    required_names = [exp[e].tool_name for e in e_order if not exp[e].optional]
    used_names = [used[u].tool_name for u in u_order]
    sequence_checked = expected.tool_sequence_matters
    lcs = 0
    if sequence_checked and n_required:
        lcs = _lcs(required_names, used_names)
        sequence = lcs / n_required
    elif n_required and not used:
        # Nothing was called although calls were required: there is no sequence to credit, and
        # the contract is that such an interaction scores 0 overall (with the reason), whatever
        # tool_sequence_matters says.
        sequence = 0.0
    else:
        sequence = 1.0

    # ---- display rows: expected order, each extra after the last match preceding it ----
    keyed: list[tuple[tuple[int, int, int], MatchRow]] = []
    last_match_before: list[int] = []  # expected rank of the matched pair, by used rank
    anchor = -1
    matched_exp_by_used = {u: e for e, (u, _, _) in match_of_exp.items()}
    for u in u_order:
        if u in matched_exp_by_used:
            anchor = e_rank[matched_exp_by_used[u]]
        last_match_before.append(anchor)
    for e in e_order:
        if e in match_of_exp:
            u, agreement, _ = match_of_exp[e]
            keyed.append(((e_rank[e], 0, u_rank[u]), MatchRow(e, u, agreement)))
        else:
            keyed.append(((e_rank[e], 0, -1), MatchRow(e, None, 0.0)))
    for u in u_order:
        if u not in matched_used:
            keyed.append(((last_match_before[u_rank[u]], 1, u_rank[u]), MatchRow(None, u, 0.0)))
    keyed.sort(key=lambda kv: kv[0])
    matches = [row for _, row in keyed]

    # ---- deductions (stable order: missing, extra, parameters, sequence, utilization) ----
    deductions: list[str] = []
    missing_idx = [e for e in e_order if not exp[e].optional and e not in match_of_exp]
    missing = [exp[e].tool_name for e in missing_idx]
    if missing_idx:
        listed = ", ".join(f"'{exp[e].tool_name}' (expected call #{e + 1})" for e in missing_idx)
        one = len(missing_idx) == 1
        lead = (
            f"No tool was called, but {plural(len(missing_idx), 'required call')} "
            f"{'was' if one else 'were'} expected"
            if not used
            else f"Expected {'tool' if one else 'tools'} never called"
        )
        counted = "selection, parameters and sequence" if not used else "selection and parameters"
        deductions.append(f"{lead}: {listed}; {counted} count {'it' if one else 'them'} as 0.")
    extra_idx = [u for u in u_order if u not in matched_used]
    extra = [used[u].tool_name for u in extra_idx]
    if extra_idx:
        matched_names = {used[u].tool_name for u in matched_used}
        parts = []
        for u in extra_idx:
            text = f"'{used[u].tool_name}' (used call #{u + 1}"
            if used[u].tool_name in matched_names:
                text += ", another call of a matched tool: a retry or duplicate"
            parts.append(text + ")")
        deductions.append(
            f"Extra {'call' if len(extra_idx) == 1 else 'calls'} matching no expected call: "
            f"{', '.join(parts)}."
        )
    param_errors: list[ParamError] = []
    for row in matches:
        if row.expected_index is None or row.used_index is None:
            continue
        errors = match_of_exp[row.expected_index][2]
        param_errors.extend(errors)
        counts = not exp[row.expected_index].optional or n_required == 0
        for err in errors:
            sentence = (
                f"Parameter '{err.param_name}' of '{err.tool_name}' (expected call "
                f"#{row.expected_index + 1}, used call #{row.used_index + 1}): "
            )
            if err.why == "missing from the call":
                sentence += f"expected {_show(err.expected_value)} but the call omits it"
            elif err.why == "not an expected parameter":
                sentence += f"not expected, but the call passes {_show(err.used_value)}"
            else:
                sentence += (
                    f"expected {_show(err.expected_value)} but got {_show(err.used_value)} ({err.why})"
                )
            if not counts:
                sentence += "; optional call, so it does not lower the parameter score"
            deductions.append(sentence + ".")
    if sequence_checked and n_required and lcs < n_required:
        # Missing calls also shorten the common subsequence; say "order" only when matched calls
        # are out of order, so the reason points at the real fault.
        what = "Order differs" if lcs < n_matched_required else "Sequence incomplete (calls missing)"
        deductions.append(
            f"{what}: expected {' -> '.join(required_names)}, used "
            f"{' -> '.join(used_names) if used_names else 'no call'}; the longest common "
            f"subsequence covers {lcs} of {plural(n_required, 'required call')}."
        )

    # ---- utilization ----
    flag = agentic.final_answer_uses_tools if agentic is not None else None
    utilization: float | None
    inferred = False
    if not used:
        if n_required:
            utilization = 0.0
            deductions.append("Utilization 0: no tool was called, so no tool result could be used.")
        else:
            utilization = None
            deductions.append(
                "Utilization not assessable: no tool was called and none was required; "
                "left out of the overall score."
            )
    elif flag is not None:
        utilization = 1.0 if flag else 0.0
        if not flag:
            deductions.append(
                "Utilization 0: final_answer_uses_tools is false "
                "(the final answer does not use the tool results)."
            )
    else:
        sources: list[tuple[int, Any]] = []
        for u in u_order:
            leaves: list[Any] = []
            _result_leaves(used[u].result, leaves)
            sources.extend((u, leaf) for leaf in leaves)
            if len(sources) >= _MAX_RESULT_LEAVES:
                break
        if not sources:
            utilization = None
            deductions.append(
                "Utilization not assessable: final_answer_uses_tools is absent and no tool call returned "
                "a usable result (a number, or text of 2+ characters); left out of the overall score."
            )
        else:
            inferred = True
            answer = _Answer(final_answer)
            found = next(((u, leaf) for u, leaf in sources if _leaf_in(leaf, answer)), None)
            if found is not None:
                utilization = 1.0
                u, leaf = found
                deductions.append(
                    "Utilization inferred (final_answer_uses_tools is absent): the result value "
                    f"{_show(leaf)} of '{used[u].tool_name}' (used call #{u + 1}) "
                    "appears in the final answer."
                )
            else:
                utilization = 0.0
                n_calls = len({u for u, _ in sources})
                deductions.append(
                    "Utilization inferred (final_answer_uses_tools is absent): none of the "
                    f"{plural(len(sources), 'result value')} of {plural(n_calls, 'tool call')} "
                    "appears in the final answer."
                )

    return ToolComponents(
        selection=selection,
        selection_ignore_extra=selection_ignore_extra,
        parameters=parameters,
        sequence=sequence,
        sequence_checked=sequence_checked,
        utilization=utilization,
        utilization_inferred=inferred,
        n_required=n_required,
        n_optional=n_optional,
        n_used=n_used,
        n_matched=n_matched,
        n_matched_required=n_matched_required,
        missing=missing,
        extra=extra,
        param_errors=param_errors,
        matches=matches,
        deductions=deductions,
    )


def score_interaction(interaction: Interaction) -> ToolComponents | None:
    """:func:`score_tools` on an interaction, with its ``assistant`` text as the final answer.

    Args:
        interaction: A validated interaction.

    Returns:
        As :func:`score_tools`.
    """
    return score_tools(interaction.agentic, interaction.ground_truth_agentic, interaction.assistant)


# --------------------------------------------------------------------------------------------
# Stage 2
# --------------------------------------------------------------------------------------------


def _check_threshold(tool_threshold: float) -> None:
    valid = isinstance(tool_threshold, (int, float)) and not isinstance(tool_threshold, bool)
    if not (valid and 0.0 <= tool_threshold <= 1.0):
        raise SettingsError(
            "tool_threshold", "must be a number between 0 and 1", tool_threshold, "give e.g. 1.0 or 0.75"
        )


def _weighted(
    weights: ToolWeights, selection: float, parameters: float, sequence: float, utilization: float | None
) -> tuple[float | None, float]:
    """Overall score and weight total, with exactly the operations of :func:`overall_vectorised`."""
    w_s, w_p, w_q, w_u = weights.as_tuple()
    has_u = utilization is not None
    u_value = utilization if utilization is not None else 0.0
    num = w_s * selection + w_p * parameters + w_q * sequence + w_u * u_value
    den = w_s + w_p + w_q + w_u * float(has_u)
    return (num / den if den > 0 else None), den


def combine(
    c: ToolComponents, weights: ToolWeights, tool_threshold: float, ignore_extra: bool = False
) -> ToolCorrectnessScore:
    """Apply weights and the tool threshold to one interaction's components.

    The overall score is the weighted mean over the assessable dimensions (utilization is left
    out when ``None``), weights renormalised over those. It is computed exactly as
    :func:`overall_vectorised` does, so both agree bit for bit.

    Args:
        c: Components from :func:`score_tools`.
        weights: Weights of the four dimensions.
        tool_threshold: Tool use is correct when overall >= this (tolerance 1e-9), in [0, 1].
        ignore_extra: Extra used calls do not lower selection.

    Returns:
        The seed-compatible score, with reasoning naming every deduction.

    Raises:
        SettingsError: ``tool_threshold`` outside [0, 1].
    """
    _check_threshold(tool_threshold)
    selection = c.selection_ignore_extra if ignore_extra else c.selection
    overall, den = _weighted(weights, selection, c.parameters, c.sequence, c.utilization)
    is_correct = overall is not None and overall >= tool_threshold - TOOL_THRESHOLD_TOLERANCE

    sentences = list(c.deductions)
    if ignore_extra and c.extra:
        sentences.append("Extra calls are ignored by option, so they do not lower selection.")
    if not sentences and overall is not None:
        reasoning = "All tools used correctly"
    else:
        w_s, w_p, w_q, w_u = weights.as_tuple()
        terms = []
        for label, value, w in (
            ("selection", selection, w_s),
            ("parameters", c.parameters, w_p),
            ("sequence", c.sequence, w_q),
            ("utilization", c.utilization, w_u),
        ):
            if value is None:
                terms.append(f"{label} not assessable (left out)")
            else:
                terms.append(f"{label} {value:.3f} (weight {w / den if den > 0 else 0.0:.3f})")
        if overall is None:
            line = (
                "Overall not defined: every dimension with a weight above 0 is not assessable "
                f"({', '.join(terms)}); counted as not correct."
            )
        else:
            verdict = "meets" if is_correct else "below"
            line = (
                f"Overall {overall:.3f} = weighted mean of {', '.join(terms)}; "
                f"{verdict} the tool threshold {tool_threshold:g}."
            )
        sentences.append(line)
        reasoning = " ".join(sentences)

    return ToolCorrectnessScore(
        tool_selection_correct=selection,
        parameter_accuracy=c.parameters,
        sequence_correct=c.sequence,
        result_utilization=c.utilization,
        overall_correctness=overall,
        is_correct=is_correct,
        reasoning=reasoning,
    )


_ARRAY_FIELDS = ("selection", "selection_ignore_extra", "parameters", "sequence")


def components_matrix(components: Sequence[ToolComponents | None]) -> dict[str, npt.NDArray[Any]]:
    """Columns of many interactions' components, for :func:`overall_vectorised`.

    Built once per run (one pass over the objects); every slider move then reuses the arrays.

    Args:
        components: One entry per interaction, ``None`` where tool use is not applicable.

    Returns:
        ``selection``, ``selection_ignore_extra``, ``parameters``, ``sequence``, ``utilization``
        (float64; NaN where not applicable, and utilization NaN where not assessable) and
        ``applicable`` (bool).
    """
    n = len(components)
    nan = math.nan

    def column(values: Iterator[float]) -> npt.NDArray[np.float64]:
        return np.fromiter(values, dtype=np.float64, count=n)

    arrays: dict[str, npt.NDArray[Any]] = {
        name: column(getattr(c, name) if c is not None else nan for c in components) for name in _ARRAY_FIELDS
    }
    arrays["utilization"] = column(
        c.utilization if c is not None and c.utilization is not None else nan for c in components
    )
    arrays["applicable"] = np.fromiter((c is not None for c in components), dtype=bool, count=n)
    return arrays


def overall_vectorised(
    arrays: Mapping[str, npt.NDArray[Any]], weights: ToolWeights, ignore_extra: bool = False
) -> npt.NDArray[np.float64]:
    """Overall tool scores of many interactions at once (no Python loop).

    Args:
        arrays: From :func:`components_matrix`.
        weights: Weights of the four dimensions.
        ignore_extra: Use ``selection_ignore_extra`` instead of ``selection``.

    Returns:
        float64 array: the weighted mean over assessable dimensions, bit-identical to
        :func:`combine`'s ``overall_correctness``; NaN where not applicable or where every
        weighted dimension is not assessable.
    """
    w_s, w_p, w_q, w_u = weights.as_tuple()
    selection = arrays["selection_ignore_extra" if ignore_extra else "selection"]
    utilization = arrays["utilization"]
    has_u = ~np.isnan(utilization)
    num = (
        w_s * selection
        + w_p * arrays["parameters"]
        + w_q * arrays["sequence"]
        + w_u * np.where(has_u, utilization, 0.0)
    )
    den = w_s + w_p + w_q + w_u * has_u.astype(np.float64)
    ok = arrays["applicable"] & (den > 0)
    out = np.full(num.shape, np.nan, dtype=np.float64)
    np.divide(num, den, out=out, where=ok)
    return out


def tool_correct_vectorised(overall: npt.NDArray[np.float64], tool_threshold: float) -> npt.NDArray[np.bool_]:
    """``is_correct`` for many overall scores: overall >= threshold - 1e-9 (NaN gives False).

    Args:
        overall: From :func:`overall_vectorised`.
        tool_threshold: In [0, 1].

    Returns:
        Boolean array.

    Raises:
        SettingsError: ``tool_threshold`` outside [0, 1].
    """
    _check_threshold(tool_threshold)
    with np.errstate(invalid="ignore"):
        return np.asarray(overall >= tool_threshold - TOOL_THRESHOLD_TOLERANCE, dtype=bool)
