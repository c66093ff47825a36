"""Ordering tool calls and matching used calls to expected calls one-to-one (optimal assignment).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import NamedTuple, cast

import numpy as np
import orjson

from agentic_core.common.time_limit import checkpoint
from agentic_core.data.schemas import ExpectedTool, ToolCall
from agentic_core.tools.results import MatchRow, ParamError
from agentic_core.tools.values import in_values, num_exact, str_exact, structural_equal, values_agree, why_differ

# Tie-break weight per rank of distance between an expected and a used call in the matching.
# It only has to beat float noise (~1e-16) and stay far below the smallest real difference of
# total agreement (a fraction with small denominators, >= 1e-3 for any realistic parameter
# count), even summed over a large group: 1e-9 * (100 calls)^2 = 1e-5.
_TIE_BREAK = 1e-9

# Above this many (expected, used) pairs in one tool name group, the optimal assignment (every pair
# compared, then a cubic solver) gives way to a pairing in linear time (:func:`_pair_in_linear_time`):
# a single interaction with thousands of calls of one tool must not take the server's memory.
MAX_ASSIGNMENT_PAIRS = 40_000


def pair_agreement(expected: ExpectedTool, used: ToolCall) -> tuple[float, list[ParamError]]:
    """Share of compared parameter names whose values agree, and the disagreements.

    Names are the union of expected and used names minus those ruled ``ignore``; they are
    visited in sorted order so errors (and hence reasoning) do not depend on key order.
    """
    errors: list[ParamError] = []
    return _agreement(expected, used, errors), errors


def agreement_only(expected: ExpectedTool, used: ToolCall) -> float:
    """:func:`pair_agreement`'s share alone, no disagreement explained: a cell of the matching's matrix.

    An explanation can cost as much as the values it quotes (an any_of rule's whole list): the
    matrix compares every pair, so only the pairs chosen are explained.
    """
    return _agreement(expected, used, None)


def _agreement(expected: ExpectedTool, used: ToolCall, errors: list[ParamError] | None) -> float:
    """The share of agreeing parameter names; each disagreement appended to ``errors`` unless it is ``None``."""
    exp_params, used_params, rules = expected.parameters, used.parameters, expected.parameter_rules
    names = set(exp_params) | set(used_params)
    compared = 0
    agreed = 0
    for name in names if errors is None else sorted(names):
        rule = rules.get(name)
        if rule is not None and rule.rule == "ignore":
            continue
        compared += 1
        if name not in used_params:
            if errors is not None:
                errors.append(
                    ParamError(expected.tool_name, name, exp_params[name], None, "missing from the call")
                )
            continue
        used_value = used_params[name]
        if name not in exp_params:
            # An any_of rule may list the accepted values without an expected value.
            if rule is not None and rule.rule == "any_of" and in_values(used_value, rule):
                agreed += 1
            elif errors is not None:
                errors.append(
                    ParamError(expected.tool_name, name, None, used_value, "not an expected parameter")
                )
            continue
        exp_value = exp_params[name]
        if (
            structural_equal(exp_value, used_value, num_exact, str_exact)
            if rule is None
            else values_agree(exp_value, used_value, rule)
        ):
            agreed += 1
        elif errors is not None:
            errors.append(
                ParamError(
                    expected.tool_name, name, exp_value, used_value, why_differ(exp_value, used_value, rule)
                )
            )
    if compared == 0:
        return 1.0  # two empty (or fully ignored) parameter sets agree fully
    return agreed / compared


# --------------------------------------------------------------------------------------------
# Ordering, matching, sequence
# --------------------------------------------------------------------------------------------


def evaluation_order(steps: Sequence[int | None]) -> list[int]:
    """Original indices in evaluation order: by step when all calls have one, else list order."""
    if len(steps) < 2 or None in steps:
        return list(range(len(steps)))
    known = cast("Sequence[int]", steps)
    return sorted(range(len(known)), key=known.__getitem__)  # a stable sort: ties keep list order


def assign(value: list[list[float]]) -> list[tuple[int, int]]:
    """Pairs (row, column) maximising the total value, one per row or column (the smaller side)."""
    n_rows, n_cols = len(value), len(value[0])
    if n_rows == 1:
        row = value[0]
        return [(0, max(range(n_cols), key=lambda j: (row[j], -j)))]
    if n_cols == 1:
        return [(max(range(n_rows), key=lambda i: (value[i][0], -i)), 0)]
    # Imported here: scipy.optimize takes 0.2 s to import, and most interactions (one call per
    # tool name) never get this far; the dashboard's first page appears that much sooner.
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(np.asarray(value, dtype=np.float64), maximize=True)
    return [(int(r), int(c)) for r, c in zip(rows, cols, strict=True)]


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence, exact, by the bit-parallel method (Hyyrö, 2004).

    One pass over ``a`` with a few operations on integers of ``len(b)`` bits: the classic table
    (``len(a) * len(b)`` Python steps) took seconds for one interaction with thousands of calls.
    """
    if not a or not b:
        return 0
    masks: dict[str, int] = {}
    for j, y in enumerate(b):
        masks[y] = masks.get(y, 0) | (1 << j)
    full = (1 << len(b)) - 1
    v = full  # a 0 bit marks a column where the common subsequence grew
    for x in a:
        u = v & masks.get(x, 0)
        v = ((v + u) | (v - u)) & full
    return len(b) - v.bit_count()


def f1(precision: float, recall: float) -> float:
    total = precision + recall
    return 0.0 if total == 0 else 2 * precision * recall / total


class Match(NamedTuple):
    """The used call matched to one expected call, their agreement and disagreeing parameters."""

    used: int
    agreement: float
    errors: list[ParamError]


def match_calls(
    exp: Sequence[ExpectedTool], used: Sequence[ToolCall], e_order: list[int], u_order: list[int]
) -> dict[int, Match]:
    """Match used calls to expected calls one-to-one, per tool name; keyed by expected index.

    Per tool name the assignment maximises, lexicographically, (number of *required* expected
    calls matched, total parameter agreement), ties going to pairs close in order. Every used
    call that can be matched is matched: a correct double call is two matches, a retry is one
    match plus one extra call.
    """
    by_name_e: dict[str, list[int]] = {}
    for orig in e_order:
        by_name_e.setdefault(exp[orig].tool_name, []).append(orig)
    by_name_u: dict[str, list[int]] = {}
    for orig in u_order:
        by_name_u.setdefault(used[orig].tool_name, []).append(orig)

    matched: dict[int, Match] = {}
    for name, e_list in by_name_e.items():
        u_list = by_name_u.get(name)
        if not u_list:
            continue
        if len(e_list) == 1 and len(u_list) == 1:  # the common case needs no optimisation
            agreement, errors = pair_agreement(exp[e_list[0]], used[u_list[0]])
            matched[e_list[0]] = Match(u_list[0], agreement, errors)
            continue
        if paired_in_linear_time(len(e_list), len(u_list)):
            chosen = _pair_in_linear_time(exp, used, e_list, u_list)
        else:
            # Agreements only (the disagreements of the chosen pairs are explained once, below):
            # explaining every pair quoted every any_of list 40,000 times.
            agreements = []
            for e in e_list:
                checkpoint()  # a row costs len(u_list) comparisons: a request's deadline can stop it here
                expected = exp[e]
                agreements.append([agreement_only(expected, used[u]) for u in u_list])
            # Required matches first (worth more than any total agreement), then total agreement,
            # then closeness in order within the name group.
            bonus = min(len(e_list), len(u_list)) + 1.0
            value = [
                [
                    (0.0 if exp[e].optional else bonus) + agreements[i][j] - _TIE_BREAK * abs(i - j)
                    for j in range(len(u_list))
                ]
                for i, e in enumerate(e_list)
            ]
            chosen = assign(value)
        for i, j in chosen:
            agreement, errors = pair_agreement(exp[e_list[i]], used[u_list[j]])
            matched[e_list[i]] = Match(u_list[j], agreement, errors)
    return matched


def paired_in_linear_time(n_expected: int, n_used: int) -> bool:
    """Whether a tool name group of this size is paired in linear time, not by the optimal assignment."""
    return n_expected * n_used > MAX_ASSIGNMENT_PAIRS


def _parameters_key(call: ToolCall | ExpectedTool) -> bytes | None:
    """The call's parameters as canonical JSON (equal keys: equal parameters), or ``None``."""
    try:
        return orjson.dumps(call.parameters, option=orjson.OPT_SORT_KEYS)
    except (TypeError, orjson.JSONEncodeError):  # an integer past 64 bits: paired in order instead
        return None


def _pair_in_linear_time(
    exp: Sequence[ExpectedTool], used: Sequence[ToolCall], e_list: list[int], u_list: list[int]
) -> list[tuple[int, int]]:
    """A pairing of one large name group without comparing every pair (positions in the lists).

    Calls with the very same parameters are paired first (expected calls without rules, whose
    agreement is then 1.0); the rest are paired in order, required expected calls first. This is
    not always the optimal assignment, which needs every pair compared and a cubic solver.
    """
    free: dict[bytes, deque[int]] = {}
    for j, u in enumerate(u_list):
        key = _parameters_key(used[u])
        if key is not None:
            free.setdefault(key, deque()).append(j)
    taken = [False] * len(u_list)
    pairs: list[tuple[int, int]] = []
    left: list[int] = []
    for i, e in enumerate(e_list):
        key = None if exp[e].parameter_rules else _parameters_key(exp[e])
        queue = free.get(key) if key is not None else None
        if queue:
            j = queue.popleft()
            taken[j] = True
            pairs.append((i, j))
        else:
            left.append(i)
    left.sort(key=lambda i: (bool(exp[e_list[i]].optional), i))
    rest = (j for j in range(len(u_list)) if not taken[j])
    pairs.extend(zip(left, rest, strict=False))
    return pairs


def display_rows(e_order: list[int], u_order: list[int], matched: dict[int, Match]) -> list[MatchRow]:
    """The expected-vs-used diff rows: expected order, each extra call after the last match before it."""
    if len(e_order) == 1 and len(u_order) == 1 and matched:  # one pair (the common mistake): its row
        ((only, pair),) = matched.items()
        return [MatchRow(only, pair.used, pair.agreement)]
    e_rank = {orig: r for r, orig in enumerate(e_order)}
    u_rank = {orig: r for r, orig in enumerate(u_order)}
    matched_exp_by_used = {m.used: e for e, m in matched.items()}
    keyed: list[tuple[tuple[int, int, int], MatchRow]] = []
    last_match_before: list[int] = []  # expected rank of the matched pair, by used rank
    anchor = -1
    for u in u_order:
        if u in matched_exp_by_used:
            anchor = e_rank[matched_exp_by_used[u]]
        last_match_before.append(anchor)
    for e in e_order:
        m = matched.get(e)
        if m is not None:
            keyed.append(((e_rank[e], 0, u_rank[m.used]), MatchRow(e, m.used, m.agreement)))
        else:
            keyed.append(((e_rank[e], 0, -1), MatchRow(e, None, 0.0)))
    for u in u_order:
        if u not in matched_exp_by_used:
            keyed.append(((last_match_before[u_rank[u]], 1, u_rank[u]), MatchRow(None, u, 0.0)))
    keyed.sort(key=lambda kv: kv[0])
    return [row for _, row in keyed]
