"""The headline numbers at K with their intervals: what a trend point and a per-assistant row both show."""

from __future__ import annotations

from typing import Any, Self

from pydantic import BaseModel, ConfigDict

from agentic_core import stats
from agentic_core.analysis.k_evidence import KEvidence


class HeadlineNumbers(BaseModel):
    """The headline numbers at K with their intervals: what a trend point and a per-assistant row both show.

    Attributes:
        k: The K of pass@K / pass^K.
        success_rate: pass@1 by the curve's method, or ``None``.
        success_rate_ci: Its interval.
        pass_at_k: pass@K, or ``None`` (undefined, or not measured).
        pass_at_k_ci: Its interval.
        pass_pow_k: pass^K, or ``None``.
        pass_pow_k_ci: Its interval.
        not_measured: Why pass@K and pass^K are ``None``: the data has too few attempts per task to
            measure them (:class:`~agentic_core.analysis.k_evidence.KEvidence`'s sentence); ``None`` when
            they are measured.
    """

    model_config = ConfigDict(frozen=True)

    k: int
    success_rate: float | None
    success_rate_ci: tuple[float, float] | None
    pass_at_k: float | None
    pass_at_k_ci: tuple[float, float] | None
    pass_pow_k: float | None
    pass_pow_k_ci: tuple[float, float] | None
    not_measured: str | None = None

    @classmethod
    def at(cls, point: stats.CurvePoint, evidence: KEvidence, **fields: Any) -> Self:
        """The headline of a curve point at the evidence's K, with a subclass's own ``fields`` (validated).

        pass@K and pass^K are kept only where ``evidence`` says the data measures them.
        """
        measured = evidence.measured
        return cls(
            k=evidence.k,
            success_rate=point.success_rate,
            success_rate_ci=point.success_rate_ci,
            pass_at_k=point.pass_at_k if measured else None,
            pass_at_k_ci=point.pass_at_k_ci if measured else None,
            pass_pow_k=point.pass_pow_k if measured else None,
            pass_pow_k_ci=point.pass_pow_k_ci if measured else None,
            not_measured=None if measured else evidence.sentence,
            **fields,
        )
