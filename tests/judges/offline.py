"""How the offline model judges one pair, for tests that check a detector *and* its effect on the verdict.

The detectors (lexical_gates, claim_gates, role_gates, list_gates) only find; what a finding weighs is a fitted
coefficient (issue 38). So "the answer fails" means the ``lexical`` judge (the fitted model without the
embedding: deterministic and quick) puts P(correct) below its 0.5 cut.
"""

from __future__ import annotations

import asyncio
from functools import lru_cache

from agentic_core.judges.base import JudgeItem
from agentic_core.judges.offline.findings.lexical import LexicalAnalysis
from agentic_core.judges.offline.learned import RECOMMENDED_THRESHOLD, LexicalJudge

PASS = RECOMMENDED_THRESHOLD
"""The cut of the judges that never abstain (``hybrid``, ``lexical``): correct at or above it."""


@lru_cache(maxsize=1)
def _judge() -> LexicalJudge:
    return LexicalJudge()


def p_correct(answer: str, truth: str, query: str = "") -> float:
    """The ``lexical`` judge's P(correct) for one pair."""
    (verdict,) = asyncio.run(_judge().ajudge([JudgeItem(query=query, answer=answer, ground_truth=truth)]))
    assert verdict.status == "ok" and verdict.score is not None, verdict.error
    return verdict.score


def not_passed(answer: str, truth: str, query: str = "") -> bool:
    """Whether the default ``learned`` judge (here its model without the embedding) does not call the answer
    correct: P(correct) below the upper cut of its band (so incorrect, or uncertain)."""
    return p_correct(answer, truth, query) < _judge().model.high


def reasoning_of(analysis: LexicalAnalysis) -> str:
    """The analysis in words: every finding (``[name] detail``)."""
    return "; ".join(g.describe() for g in analysis.gates)
