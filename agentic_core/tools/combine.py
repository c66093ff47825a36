"""Stage 2 of tool scoring: weights and the tool threshold applied to the components.

:func:`combine` does it for one interaction (with the reasoning); :func:`components_matrix` and
:func:`overall_vectorised` do the same arithmetic over arrays for the aggregator, and produce
bit-identical overall scores (same operations in the same order).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from agentic_core.common.passing import reaches
from agentic_core.settings import ToolWeights, check_fraction
from agentic_core.tools.results import ToolComponents, ToolCorrectnessScore

NOT_SCORED = (
    "Tool use is not scored: all four tool weights are 0, so conversations are judged on their answers "
    "alone. Give a dimension a weight above 0 to score tool use."
)


def _weighted(
    weights: ToolWeights,
    selection: float,
    parameters: float | None,
    sequence: float | None,
    utilization: float | None,
) -> tuple[float | None, float]:
    """Overall score and weight total, with exactly the operations of :func:`overall_vectorised`.

    A dimension that is not assessable (``None``) is left out and the weights renormalised over
    the others.
    """
    w_s, w_p, w_q, w_u = weights.as_tuple()
    num = w_s * selection
    den = w_s
    for w, value in ((w_p, parameters), (w_q, sequence), (w_u, utilization)):
        num = num + w * (value if value is not None else 0.0)
        den = den + w * float(value is not None)
    return (num / den if den > 0 else None), den


def combine(
    c: ToolComponents, weights: ToolWeights, tool_threshold: float, ignore_extra: bool = False
) -> ToolCorrectnessScore:
    """Apply weights and the tool threshold to one interaction's components.

    The overall score is the weighted mean over the assessable dimensions (parameters, sequence
    and utilization are left out when ``None``), weights renormalised over those. It is computed exactly as
    :func:`overall_vectorised` does, so both agree bit for bit.

    Args:
        c: Components from :func:`score_tools`.
        weights: Weights of the four dimensions.
        tool_threshold: Tool use is correct when overall reaches this (:func:`agentic_core.common.passing.reaches`).
            With all four weights at 0 tool use is not scored: no overall, and never incorrect.
        ignore_extra: Extra used calls do not lower selection.

    Returns:
        The seed-compatible score, with reasoning naming every deduction.

    Raises:
        SettingsError: ``tool_threshold`` outside [0, 1].
    """
    check_fraction(tool_threshold, "tool_threshold")
    selection = c.selection_ignore_extra if ignore_extra else c.selection
    overall: float | None = None
    if not weights.scores_tools:
        is_correct, reasoning = True, f"{NOT_SCORED} The dimensions are shown as measured."
    else:
        overall, den = _weighted(weights, selection, c.parameters, c.sequence, c.utilization)
        is_correct = overall is not None and reaches(overall, tool_threshold)
        reasoning = _tool_reasoning(c, weights, selection, overall, den, tool_threshold, ignore_extra)
    return ToolCorrectnessScore(
        tool_selection_correct=selection,
        parameter_accuracy=c.parameters,
        sequence_correct=c.sequence,
        result_utilization=c.utilization,
        overall_correctness=overall,
        is_correct=is_correct,
        reasoning=reasoning,
    )


def _tool_reasoning(
    c: ToolComponents,
    weights: ToolWeights,
    selection: float,
    overall: float | None,
    den: float,
    tool_threshold: float,
    ignore_extra: bool,
) -> str:
    """The reasoning of a scored interaction: every deduction, then how the overall was reached."""
    sentences = list(c.deductions)
    if ignore_extra and c.extra:
        sentences.append("Extra calls are ignored by option, so they do not lower selection.")
    if not sentences and overall is not None:
        return "All tools used correctly"
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
        verdict = "meets" if reaches(overall, tool_threshold) else "below"
        line = (
            f"Overall {overall:.3f} = weighted mean of {', '.join(terms)}; "
            f"{verdict} the tool threshold {tool_threshold:g}."
        )
    sentences.append(line)
    return " ".join(sentences)


_ARRAY_FIELDS = ("selection", "selection_ignore_extra")
_OPTIONAL_FIELDS = ("parameters", "sequence", "utilization")


TABLE_COLUMNS = (*_ARRAY_FIELDS, *_OPTIONAL_FIELDS, "applicable")
"""The columns of :func:`components_table`, in order."""


def components_table(components: Sequence[ToolComponents | None]) -> npt.NDArray[np.float64]:
    """Many interactions' components as one float table, a row each (columns: :data:`TABLE_COLUMNS`).

    What :func:`components_matrix` splits into arrays; the loader builds it piece by piece while
    it scores tool use, so that a run need not read the million objects again.

    Args:
        components: One entry per interaction, ``None`` where tool use is not applicable.

    Returns:
        A ``(len(components), 6)`` float64 table: NaN where a component is not applicable or not
        assessable; the last column is 1.0 where tool use is applicable, else NaN.
    """
    n = len(components)
    nan = math.nan
    names = TABLE_COLUMNS[:-1]
    # One row of values per distinct object: fully correct interactions share one components
    # object (see agentic_core.tools.dimensions), so a million rows hold a few thousand objects.
    seen: dict[int, tuple[float, ...]] = {id(None): (nan,) * len(TABLE_COLUMNS)}
    rows: list[tuple[float, ...]] = []
    for c in components:
        row = seen.get(id(c))
        if row is None:
            values = [getattr(c, name) for name in names]
            row = seen[id(c)] = (*(nan if v is None else v for v in values), 1.0)
        rows.append(row)
    return np.array(rows, dtype=np.float64).reshape(n, len(TABLE_COLUMNS))


def table_arrays(table: npt.NDArray[np.float64]) -> dict[str, npt.NDArray[Any]]:
    """The arrays of :func:`components_matrix` from a :func:`components_table`."""
    arrays: dict[str, npt.NDArray[Any]] = {
        name: np.ascontiguousarray(table[:, k]) for k, name in enumerate(TABLE_COLUMNS[:-1])
    }
    arrays["applicable"] = table[:, -1] == 1.0
    return arrays


def components_matrix(components: Sequence[ToolComponents | None]) -> dict[str, npt.NDArray[Any]]:
    """Columns of many interactions' components, for :func:`overall_vectorised`.

    Built once per run (one pass over the objects); every slider move then reuses the arrays.

    Args:
        components: One entry per interaction, ``None`` where tool use is not applicable.

    Returns:
        ``selection``, ``selection_ignore_extra``, ``parameters``, ``sequence``, ``utilization``
        (float64; NaN where not applicable, and parameters, sequence and utilization NaN where not
        assessable) and ``applicable`` (bool).
    """
    return table_arrays(components_table(components))


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
    num = w_s * arrays["selection_ignore_extra" if ignore_extra else "selection"]
    den: npt.NDArray[np.float64] | float = w_s
    for w, name in ((w_p, "parameters"), (w_q, "sequence"), (w_u, "utilization")):
        values = arrays[name]
        has = ~np.isnan(values)
        num = num + w * np.where(has, values, 0.0)
        den = den + w * has.astype(np.float64)
    ok = arrays["applicable"] & (den > 0)
    den = np.broadcast_to(den, num.shape)
    out = np.full(num.shape, np.nan, dtype=np.float64)
    np.divide(num, den, out=out, where=ok)
    return out
