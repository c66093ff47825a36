"""Stage 1 of tool scoring: one interaction's four dimensions, independent of weights and thresholds.

:func:`score_tools` matches used calls to expected calls and returns :class:`ToolComponents`: the
four component scores, counts, the expected-vs-used match table and deterministic sentences naming
every deduction (definitions in :mod:`agentic_core.tools`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from agentic_core.common.wording import plural
from agentic_core.data.schemas import Agentic, ExpectedTool, GroundTruthAgentic, Interaction, ToolCall
from agentic_core.tools.evidence import MAX_RESULT_LEAVES, Answer, leaf_in, result_leaves
from agentic_core.tools.matching import (
    Match,
    agreement_only,
    display_rows,
    evaluation_order,
    f1,
    lcs_length,
    match_calls,
    pair_agreement,
    paired_in_linear_time,
)
from agentic_core.tools.results import MatchRow, ParamError, ToolComponents
from agentic_core.tools.values import show_canonical, values_agree


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
    if len(used) == 1 and len(expected.expected_tools) == 1:
        assert agentic is not None  # it made the call
        one = _score_one_pair(agentic, expected, used[0], final_answer)
        if one is not None:
            return one
    return _score_general(agentic, expected, used, final_answer)


def score_interaction(interaction: Interaction) -> ToolComponents | None:
    """:func:`score_tools` on an interaction, with its ``assistant`` text as the final answer.

    Args:
        interaction: A validated interaction.

    Returns:
        As :func:`score_tools`.
    """
    return score_tools(interaction.agentic, interaction.ground_truth_agentic, interaction.assistant)


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
    n = len(exp)
    if n == 1:  # the evaluation order of one call (the common case)
        e_order = u_order = [0]
    else:
        e_order = evaluation_order([t.step for t in exp])
        u_order = evaluation_order([t.step for t in used])
    for e_i, u_i in zip(e_order, u_order, strict=True):
        e, u = exp[e_i], used[u_i]
        if e.optional or e.parameter_rules or e.tool_name != u.tool_name:
            return None
        e_params, u_params = e.parameters, u.parameters
        if e_params.keys() != u_params.keys():
            return None
        for name, value in e_params.items():
            other = u_params[name]
            kind = type(value)
            if kind is type(other) and kind in _LEAVES:
                # Two leaves of one built-in type agree exactly when they are equal (NaN never is).
                if value != other:
                    return None
            elif not values_agree(value, other):
                return None
    key = (n, expected.tool_sequence_matters, *e_order, -1, *u_order)
    perfect = _PERFECT.get(key)
    if perfect is None:
        perfect = _PERFECT[key] = _perfect_components(n, expected.tool_sequence_matters, e_order, u_order)
    return perfect


_LEAVES = frozenset({str, int, float, bool})
_PERFECT: dict[tuple[Any, ...], ToolComponents] = {}
"""Fully correct interactions' components by shape (count, order checked, orders): one shared
(frozen, never mutated) object each, instead of a million equal ones."""


def _perfect_components(n: int, sequence_checked: bool, e_order: list[int], u_order: list[int]) -> ToolComponents:
    if len(_PERFECT) > 4096:  # shapes are few; bound the memo all the same
        _PERFECT.clear()
    return ToolComponents(
        selection=1.0,
        selection_ignore_extra=1.0,
        parameters=1.0,
        sequence=1.0,
        sequence_checked=sequence_checked,
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


def _score_one_pair(
    agentic: Agentic, expected: GroundTruthAgentic, call: ToolCall, final_answer: str
) -> ToolComponents | None:
    """The components of one required call answered by one call of the same tool, else ``None``.

    The most common mistake (one call, a wrong parameter or an unused result) skips the matching
    machinery: the pair is the match, selection and sequence are full, and the sentences come
    from the general path's own helpers. A property test checks that both paths agree wherever
    this one answers.
    """
    exp = expected.expected_tools
    e = exp[0]
    if e.optional or e.tool_name != call.tool_name:
        return None
    agreement, errors = pair_agreement(e, call)
    matches = [MatchRow(0, 0, agreement)]
    deductions: list[str] = []
    param_errors = _parameter_deductions(exp, matches, {0: Match(0, agreement, errors)}, 1, deductions)
    utilization, inferred = _utilization(
        agentic.final_answer_uses_tools, [call], [0], 1, final_answer, deductions
    )
    return ToolComponents(
        selection=1.0,
        selection_ignore_extra=1.0,
        parameters=agreement,
        sequence=1.0,
        sequence_checked=expected.tool_sequence_matters,
        utilization=utilization,
        utilization_inferred=inferred,
        n_required=1,
        n_optional=0,
        n_used=1,
        n_matched=1,
        n_matched_required=1,
        missing=[],
        extra=[],
        param_errors=param_errors,
        matches=matches,
        deductions=deductions,
    )


def _score_general(
    agentic: Agentic | None, expected: GroundTruthAgentic, used: list[ToolCall], final_answer: str
) -> ToolComponents | None:
    """The general path of :func:`score_tools` (optimal matching, every deduction)."""
    exp: list[ExpectedTool] = list(expected.expected_tools)
    if not used and not exp:
        return None
    if not exp:
        return _score_unexpected(used, u_order=evaluation_order([t.step for t in used]))
    e_order = evaluation_order([t.step for t in exp])
    u_order = evaluation_order([t.step for t in used])
    n_required = sum(1 for t in exp if not t.optional)
    match_of_exp = match_calls(exp, used, e_order, u_order)
    n_used = len(used)
    n_matched = len(match_of_exp)
    n_matched_required = sum(1 for e in match_of_exp if not exp[e].optional)

    # ---- selection ----
    recall = n_matched_required / n_required if n_required else 1.0
    precision = n_matched / n_used if n_used else 1.0
    selection = f1(precision, recall)
    selection_ignore_extra = f1(1.0, recall)  # without extras every used call is matched

    # ---- parameters ----
    if n_required:
        parameters = (
            sum(match_of_exp[e].agreement for e in e_order if not exp[e].optional and e in match_of_exp)
            / n_required
        )
    else:
        optional_agreements = [match_of_exp[e].agreement for e in e_order if e in match_of_exp]
        parameters = sum(optional_agreements) / len(optional_agreements) if optional_agreements else 1.0

    # ---- sequence ----
    required_names = [exp[e].tool_name for e in e_order if not exp[e].optional]
    used_names = [used[u].tool_name for u in u_order]
    sequence_checked = expected.tool_sequence_matters
    lcs = 0
    if sequence_checked and n_required:
        lcs = lcs_length(required_names, used_names)
        sequence = lcs / n_required
    elif n_required and not used:
        # Nothing was called although calls were required: there is no sequence to credit, and
        # the contract is that such an interaction scores 0 overall (with the reason), whatever
        # tool_sequence_matters says.
        sequence = 0.0
    else:
        sequence = 1.0

    matches = display_rows(e_order, u_order, match_of_exp)
    missing_idx = [e for e in e_order if not exp[e].optional and e not in match_of_exp]
    matched_used = {m.used for m in match_of_exp.values()}
    extra_idx = [u for u in u_order if u not in matched_used]
    deductions = _call_deductions(exp, used, missing_idx, extra_idx, matched_used)
    param_errors = _parameter_deductions(exp, matches, match_of_exp, n_required, deductions)
    if sequence_checked and n_required and lcs < n_required:
        # Missing calls also shorten the common subsequence; say "order" only when matched calls
        # are out of order, so the reason points at the real fault.
        what = "Order differs" if lcs < n_matched_required else "Sequence incomplete (calls missing)"
        deductions.append(
            f"{what}: expected {' -> '.join(required_names)}, used "
            f"{' -> '.join(used_names) if used_names else 'no call'}; the longest common "
            f"subsequence covers {lcs} of {plural(n_required, 'required call')}."
        )
    deductions.extend(_preference_notes(exp, used, match_of_exp))
    flag = agentic.final_answer_uses_tools if agentic is not None else None
    utilization, inferred = _utilization(flag, used, u_order, n_required, final_answer, deductions)

    return ToolComponents(
        selection=selection,
        selection_ignore_extra=selection_ignore_extra,
        parameters=parameters,
        sequence=sequence,
        sequence_checked=sequence_checked,
        utilization=utilization,
        utilization_inferred=inferred,
        n_required=n_required,
        n_optional=len(exp) - n_required,
        n_used=n_used,
        n_matched=n_matched,
        n_matched_required=n_matched_required,
        missing=[exp[e].tool_name for e in missing_idx],
        extra=[used[u].tool_name for u in extra_idx],
        param_errors=param_errors,
        matches=matches,
        deductions=deductions,
    )


def _score_unexpected(used: list[ToolCall], u_order: list[int]) -> ToolComponents:
    """Tools called although none was expected: only selection has something to measure.

    Parameters and sequence compare calls with expected calls, and utilization asks whether the
    answer used results it should have fetched: with nothing expected all three are left out (not
    counted as 1.0, which made such tool use pass a 0.75 tool threshold), so overall = selection:
    0 when extra calls are penalised, 1 when they are ignored.
    """
    names = ", ".join(f"'{used[u].tool_name}' (used call #{u + 1})" for u in u_order)
    deductions = [
        f"No tool call was expected, but {plural(len(used), 'call')} {'was' if len(used) == 1 else 'were'} "
        f"made: {names}; every one is extra.",
        "Parameters, sequence and utilization have nothing to measure when no tool call was expected: "
        "left out, so the overall score is the selection score.",
    ]
    return ToolComponents(
        selection=0.0,
        selection_ignore_extra=1.0,
        parameters=None,
        sequence=None,
        sequence_checked=False,
        utilization=None,
        utilization_inferred=False,
        n_required=0,
        n_optional=0,
        n_used=len(used),
        n_matched=0,
        n_matched_required=0,
        missing=[],
        extra=[used[u].tool_name for u in u_order],
        param_errors=[],
        matches=[MatchRow(None, u, 0.0) for u in u_order],
        deductions=deductions,
    )


def _preference_notes(exp: list[ExpectedTool], used: list[ToolCall], match_of_exp: dict[int, Match]) -> list[str]:
    """Say when a used call went to a required call it disagrees with while an optional one agreed better.

    Matching covers required expected calls first (a missing required call costs more than a
    parameter error), so such a pairing is deliberate; the sentence makes it visible. Not said for
    a tool name group paired in linear time: its pairing was not optimised, and comparing each of
    its matches with each optional call would cost the square of the group's size.
    """
    notes: list[str] = []
    optional: dict[str, list[int]] = {}  # expected index of each optional call, by tool name
    for other, candidate in enumerate(exp):
        if candidate.optional:
            optional.setdefault(candidate.tool_name, []).append(other)
    if not optional:
        return notes  # nothing to prefer (most interactions)
    n_expected, n_used = Counter(t.tool_name for t in exp), Counter(t.tool_name for t in used)
    for e, match in sorted(match_of_exp.items()):
        name = exp[e].tool_name
        if exp[e].optional or match.agreement >= 1.0 or paired_in_linear_time(n_expected[name], n_used[name]):
            continue
        for other in optional.get(name, ()):
            candidate = exp[other]
            better = agreement_only(candidate, used[match.used])
            if better > match.agreement:
                notes.append(
                    f"Used call #{match.used + 1} ('{exp[e].tool_name}') was matched to required call #{e + 1} "
                    f"(parameter agreement {match.agreement:.2f}) although optional call #{other + 1} agrees "
                    f"with it better ({better:.2f}): required calls are covered first."
                )
                break
    return notes


def _call_deductions(
    exp: list[ExpectedTool], used: list[ToolCall], missing_idx: list[int], extra_idx: list[int], matched_used: set[int]
) -> list[str]:
    """The sentences for missing and extra calls (in that order: the start of the reasoning)."""
    deductions: list[str] = []
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
    return deductions


def _parameter_deductions(
    exp: list[ExpectedTool],
    matches: list[MatchRow],
    match_of_exp: dict[int, Match],
    n_required: int,
    deductions: list[str],
) -> list[ParamError]:
    """Append one sentence per disagreeing parameter (display order); return the errors."""
    param_errors: list[ParamError] = []
    for row in matches:
        if row.expected_index is None or row.used_index is None:
            continue
        errors = match_of_exp[row.expected_index].errors
        param_errors.extend(errors)
        counts = not exp[row.expected_index].optional or n_required == 0
        for err in errors:
            sentence = (
                f"Parameter '{err.param_name}' of '{err.tool_name}' (expected call "
                f"#{row.expected_index + 1}, used call #{row.used_index + 1}): "
            )
            if err.why == "missing from the call":
                sentence += f"expected {show_canonical(err.expected_value)} but the call omits it"
            elif err.why == "not an expected parameter":
                sentence += f"not expected, but the call passes {show_canonical(err.used_value)}"
            else:
                sentence += (
                    f"expected {show_canonical(err.expected_value)} but got {show_canonical(err.used_value)} "
                    f"({err.why})"
                )
            if not counts:
                sentence += "; optional call, so it does not lower the parameter score"
            deductions.append(sentence + ".")
    return param_errors


def _utilization(
    flag: bool | None,
    used: list[ToolCall],
    u_order: list[int],
    n_required: int,
    final_answer: str,
    deductions: list[str],
) -> tuple[float | None, bool]:
    """Utilization (``None`` = not assessable) and whether it was inferred; appends its sentence."""
    if not used:
        if n_required:
            deductions.append("Utilization 0: no tool was called, so no tool result could be used.")
            return 0.0, False
        deductions.append(
            "Utilization not assessable: no tool was called and none was required; "
            "left out of the overall score."
        )
        return None, False
    if flag is not None:
        if not flag:
            deductions.append(
                "Utilization 0: final_answer_uses_tools is false "
                "(the final answer does not use the tool results)."
            )
        return (1.0 if flag else 0.0), False
    sources: list[tuple[int, Any]] = []
    for u in u_order:
        leaves: list[Any] = []
        result_leaves(used[u].result, leaves)
        sources.extend((u, leaf) for leaf in leaves)
        if len(sources) >= MAX_RESULT_LEAVES:
            break
    if not sources:
        deductions.append(
            "Utilization not assessable: final_answer_uses_tools is absent and no tool call returned "
            "a usable result (a number, or text of 2+ characters); left out of the overall score."
        )
        return None, False
    answer = Answer(final_answer)
    found = next(((u, leaf) for u, leaf in sources if leaf_in(leaf, answer)), None)
    if found is not None:
        u, leaf = found
        deductions.append(
            "Utilization inferred (final_answer_uses_tools is absent): the result value "
            f"{show_canonical(leaf)} of '{used[u].tool_name}' (used call #{u + 1}) "
            "appears in the final answer."
        )
        return 1.0, True
    n_calls = len({u for u, _ in sources})
    deductions.append(
        "Utilization inferred (final_answer_uses_tools is absent): none of the "
        f"{plural(len(sources), 'result value')} of {plural(n_calls, 'tool call')} "
        "appears in the final answer."
    )
    return 0.0, True
