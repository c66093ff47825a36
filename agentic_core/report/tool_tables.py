"""The Tools page's tables and the expected-vs-used diff: per tool name, failing calls, one interaction's calls.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection
from typing import Any

import numpy as np
import pandas as pd

from agentic_core.analysis.aggregate import Aggregate
from agentic_core.common.frame_columns import InteractionCols, ResultCols
from agentic_core.data.schemas import Interaction
from agentic_core.result import EvaluationResult
from agentic_core.tools import ToolComponents, combine

_CELL_CHARS = 400  # parameter / result text shown in one diff cell


def tool_breakdown(result: EvaluationResult) -> pd.DataFrame:
    """Per tool name: expected and used calls, matches, missing, extra, parameter errors.

    Weight-independent (built from the tool components), so it is computed once per run.
    """
    rows: dict[str, dict[str, float]] = {}

    def row(name: str) -> dict[str, float]:
        return rows.setdefault(
            name,
            {
                "expected_calls": 0,
                "used_calls": 0,
                "matched": 0,
                "missing": 0,
                "extra": 0,
                "calls_with_parameter_errors": 0,
                "parameter_errors": 0,
                "agreement_sum": 0.0,
            },
        )

    expected_names, used_names = result.tool_call_names()
    for expected, used, comp in zip(expected_names, used_names, result.tool_components, strict=True):
        if comp is None:
            continue
        for name in expected:
            row(name)["expected_calls"] += 1
        for name in used:
            row(name)["used_calls"] += 1
        for m in comp.matches:
            if m.expected_index is not None and m.used_index is not None:
                r = row(expected[m.expected_index])
                r["matched"] += 1
                r["agreement_sum"] += m.agreement
                if m.agreement < 1.0:
                    r["calls_with_parameter_errors"] += 1
        for name in comp.missing:
            row(name)["missing"] += 1
        for name in comp.extra:
            row(name)["extra"] += 1
        for err in comp.param_errors:
            row(err.tool_name)["parameter_errors"] += 1
    frame = pd.DataFrame.from_dict(rows, orient="index")
    if frame.empty:
        return pd.DataFrame(
            columns=["tool_name", "expected_calls", "used_calls", "matched", "missing", "extra",
                     "calls_with_parameter_errors", "parameter_errors", "mean_parameter_agreement"]
        )
    frame["mean_parameter_agreement"] = np.where(
        frame["matched"] > 0, frame["agreement_sum"] / frame["matched"].where(frame["matched"] > 0, 1), np.nan
    )
    frame = frame.drop(columns="agreement_sum").astype(
        {c: "int64" for c in frame.columns if c not in ("mean_parameter_agreement", "agreement_sum")}
    )
    frame.index.name = "tool_name"
    return frame.reset_index().sort_values(["missing", "extra", "parameter_errors"], ascending=False, kind="stable")


_IDENTITY = (ResultCols.SESSION_ID, ResultCols.POSITION, ResultCols.QA_ID)
"""The judged frame's columns that say which interaction a failing call is."""


def failing_tool_calls(result: EvaluationResult, agg: Aggregate) -> pd.DataFrame:
    """Interactions whose tool use is below the tool threshold, worst first, with the reasons."""
    inter = agg.interactions
    base = result.interactions
    mask = base[ResultCols.TOOL_APPLICABLE].to_numpy() & ~inter[InteractionCols.TOOL_CORRECT].to_numpy()
    idx = np.flatnonzero(mask)
    comps = [result.tool_components[i] for i in idx.tolist()]
    s = agg.settings
    frame = pd.DataFrame(
        {
            **{name: base[name].to_numpy()[idx] for name in _IDENTITY},
            InteractionCols.TOOL_OVERALL: inter[InteractionCols.TOOL_OVERALL].to_numpy()[idx],
            "missing": [", ".join(c.missing) if c else "" for c in comps],
            "extra": [", ".join(c.extra) if c else "" for c in comps],
            "parameter_errors": [len(c.param_errors) if c else 0 for c in comps],
            "reasoning": [
                combine(c, s.tool_weights, s.tool_threshold, s.ignore_extra_tools).reasoning if c else ""
                for c in comps
            ],
            "row": idx,
        }
    )
    return frame.sort_values(InteractionCols.TOOL_OVERALL, kind="stable").reset_index(drop=True)


def interaction_tool_names(result: EvaluationResult) -> pd.Series:
    """Per interaction (in ``result.interactions`` order), the sorted distinct tool names it expected or used.

    Weight-independent: compute once per run, then filter tables such as :func:`failing_tool_calls`
    (whose ``row`` column indexes this series) by tool name.
    """
    expected_names, used_names = result.tool_call_names()
    shared: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[str, ...]] = {}
    names: list[tuple[str, ...]] = []
    for expected, used in zip(expected_names, used_names, strict=True):
        key = (expected, used)
        found = shared.get(key)
        if found is None:
            found = shared[key] = tuple(sorted(set(expected) | set(used)))
        names.append(found)
    return pd.Series(names, dtype=object, name="tool_names")



def filter_failing_calls(
    failing: pd.DataFrame, tool_names: pd.Series, tools: Collection[str] = (), term: str = ""
) -> pd.DataFrame:
    """The failing calls that involve any of ``tools`` and contain ``term``, with a ``tools`` column.

    Args:
        failing: From :func:`failing_tool_calls` (its ``row`` column indexes ``tool_names``).
        tool_names: From :func:`interaction_tool_names` for the same run.
        tools: Keep interactions that expected or called any of these (empty: keep all).
        term: Case-insensitive literal text searched in session_id, qa_id, tools, missing and
            extra calls and the reasoning (blank: keep all).

    Returns:
        The kept rows, in the order of ``failing``, with ``tools`` (comma-separated names) added.
    """
    names = tool_names.iloc[failing["row"].to_numpy()]
    view = failing.assign(tools=names.map(", ".join).to_numpy())
    if tools:
        wanted = set(tools)
        view = view[[not wanted.isdisjoint(t) for t in names]]
    needle = term.strip()
    if needle:
        haystack = view[ResultCols.SESSION_ID].astype(str)
        for column in (ResultCols.QA_ID, "tools", "missing", "extra", "reasoning"):
            haystack = haystack + " " + view[column].astype(str)
        view = view[haystack.str.contains(needle, case=False, regex=False).to_numpy()]
    return view


def cell_json(value: Any, limit: int = _CELL_CHARS) -> str:
    """Compact JSON of a value with sorted keys, shortened for one table cell."""
    try:
        text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _call_label(index: int, name: str, step: int | None) -> str:
    return f"#{index + 1} {name}" + (f" (step {step})" if step is not None else "")


def tool_diff(interaction: Interaction, components: ToolComponents) -> pd.DataFrame:
    """Expected-vs-used tool calls of one interaction, one row per call pairing.

    ``diff`` is ``match`` (same tool, parameters agree), ``parameter mismatch`` (same tool,
    some parameter disagrees: listed in ``mismatches``), ``missing`` (a required expected call
    never made), ``optional, not called`` or ``extra`` (a used call matching no expected call).
    Rows follow :attr:`ToolComponents.matches` (expected order, extras after the match before them).

    Returns:
        Columns ``diff``, ``expected_call``, ``expected_parameters``, ``used_call``,
        ``used_parameters``, ``result``, ``agreement`` (NaN when unmatched), ``mismatches``.
    """
    expected = interaction.ground_truth_agentic.expected_tools if interaction.ground_truth_agentic else []
    used = interaction.agentic.tools_used if interaction.agentic else []
    errors = list(components.param_errors)
    cursor = 0
    rows: list[dict[str, Any]] = []
    for m in components.matches:
        exp = expected[m.expected_index] if m.expected_index is not None else None
        call = used[m.used_index] if m.used_index is not None else None
        mismatches: list[str] = []
        if exp is not None and call is not None:
            kind = "match" if m.agreement >= 1.0 else "parameter mismatch"
            # The pair's errors are consecutive in param_errors (display order); how many is
            # fixed by its agreement over the compared (non-ignored) parameter names.
            names = set(exp.parameters) | set(call.parameters)
            compared = sum(
                1 for n in names if not (n in exp.parameter_rules and exp.parameter_rules[n].rule == "ignore")
            )
            n_err = compared - round(m.agreement * compared) if compared else 0
            for err in errors[cursor : cursor + n_err]:
                if err.why == "missing from the call":
                    mismatches.append(f"{err.param_name}: expected {cell_json(err.expected_value, 80)}, omitted")
                elif err.why == "not an expected parameter":
                    mismatches.append(f"{err.param_name}: not expected, got {cell_json(err.used_value, 80)}")
                else:
                    mismatches.append(
                        f"{err.param_name}: expected {cell_json(err.expected_value, 80)}, "
                        f"got {cell_json(err.used_value, 80)} ({err.why})"
                    )
            cursor += n_err
        elif exp is not None:
            kind = "optional, not called" if exp.optional else "missing"
        else:
            kind = "extra"
        rows.append(
            {
                "diff": kind,
                "expected_call": "" if exp is None else _call_label(m.expected_index or 0, exp.tool_name, exp.step)
                + (" (optional)" if exp.optional else ""),
                "expected_parameters": "" if exp is None else cell_json(exp.parameters),
                "used_call": "" if call is None else _call_label(m.used_index or 0, call.tool_name, call.step),
                "used_parameters": "" if call is None else cell_json(call.parameters),
                "result": "" if call is None else cell_json(call.result),
                "agreement": m.agreement if exp is not None and call is not None else math.nan,
                "mismatches": "; ".join(mismatches),
            }
        )
    return pd.DataFrame(
        rows,
        columns=[
            "diff",
            "expected_call",
            "expected_parameters",
            "used_call",
            "used_parameters",
            "result",
            "agreement",
            "mismatches",
        ],
    )


FAILING_PAGE_ROWS = 1000
"""Rows of the Tools page's failing-calls table sent per page (every row stays reachable page by page)."""


def table_page(view: pd.DataFrame, page: int, size: int) -> tuple[pd.DataFrame, int, int]:
    """Page ``page`` (1-based, clamped into range) of ``view`` in pages of ``size`` rows.

    Every row stays reachable while the browser only ever receives ``size`` rows (a table of 100k
    failing calls would otherwise be tens of megabytes per slider move).

    Returns:
        ``(rows of the page, the page shown, the number of pages)``; an empty view has one empty page.
    """
    pages = max(1, -(-len(view) // size))
    page = min(max(1, int(page)), pages)
    return view.iloc[(page - 1) * size : page * size], page, pages
