"""What tool scoring returns: the weight-independent components of one interaction, and the seed-003 score.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict


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
        parameters: Mean parameter agreement (see the module docstring); ``None`` when no tool call
            was expected (nothing to measure).
        sequence: LCS-based order score; 1.0 when order does not matter; ``None`` when no tool
            call was expected.
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
    parameters: float | None
    sequence: float | None
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

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Load workers pickle every piece's components (agentic_core.columnar.component_list). Pickled as
        # the constructor's arguments (the dataclass's own slot-by-slot state took a third longer
        # to read back), with the rows as plain tuples: a NamedTuple pickles through a Python-level
        # __getnewargs__ per row. Measured on 3,558 components: 18 ms against 31 ms.
        return _rebuild, (
            _HEAD(self),
            list(map(tuple, self.param_errors)),
            list(map(tuple, self.matches)),
            self.deductions,
        )


_ROWS = ("param_errors", "matches", "deductions")
assert tuple(ToolComponents.__dataclass_fields__)[-3:] == _ROWS  # the order __reduce__ and _rebuild rely on
_HEAD = attrgetter(*tuple(ToolComponents.__dataclass_fields__)[:-3])
"""Every field but the last three (``param_errors``, ``matches``, ``deductions``), as a tuple."""


def _rebuild(
    head: tuple[Any, ...], param_errors: list[tuple[Any, ...]], matches: list[tuple[Any, ...]], deductions: list[str]
) -> ToolComponents:
    """A pickled :class:`ToolComponents` read back (see its ``__reduce__``)."""
    # mypy cannot count the fields a tuple of unknown length fills (the assert above does).
    return ToolComponents(  # type: ignore[call-arg]
        *head, [ParamError._make(e) for e in param_errors], [MatchRow._make(m) for m in matches], deductions
    )


class ToolCorrectnessScore(BaseModel):
    """Tool correctness of one interaction for given weights and threshold (seed 003 names).

    ``overall_correctness`` is ``None`` only when every dimension with a weight > 0 is not
    assessable (for example only utilization is weighted and it could not be judged); then
    ``is_correct`` is false and the reasoning says why.
    """

    model_config = ConfigDict(frozen=True)

    tool_selection_correct: float
    parameter_accuracy: float | None
    sequence_correct: float | None
    result_utilization: float | None
    overall_correctness: float | None
    is_correct: bool
    reasoning: str
