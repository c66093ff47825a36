"""Tool-correctness scoring per interaction: pure functions, no IO (docs/statistics.md, tool correctness).

Scoring happens in two stages, because weights, the tool threshold and "ignore extra calls"
are slider settings applied later, vectorised, over many interactions:

1. :func:`score_tools` (:mod:`~agentic_core.tools.dimensions`, run once per interaction) matches
   used calls to expected calls (:mod:`~agentic_core.tools.matching`, comparing values with
   :mod:`~agentic_core.tools.values`, inferring utilization with :mod:`~agentic_core.tools.evidence`)
   and returns the weight-independent :class:`ToolComponents`: four component scores, counts, the
   expected-vs-used match table and deterministic deduction sentences.
2. :func:`combine` (:mod:`~agentic_core.tools.combine`) turns one :class:`ToolComponents` into a
   :class:`ToolCorrectnessScore` (seed field names) for given weights and threshold;
   :func:`components_matrix` and :func:`overall_vectorised` do the same arithmetic over arrays for
   the aggregator, and produce bit-identical overall scores (same operations in the same order).

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

from agentic_core.tools.combine import NOT_SCORED, combine, components_matrix, overall_vectorised
from agentic_core.tools.dimensions import score_interaction, score_tools
from agentic_core.tools.results import MatchRow, ParamError, ToolComponents, ToolCorrectnessScore
from agentic_core.tools.values import normalise_text, values_agree

__all__ = [
    "NOT_SCORED",
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
    "values_agree",
]
