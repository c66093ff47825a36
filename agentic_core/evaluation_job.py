"""An evaluation running in the background: the dashboard starts it, watches it, may cancel it.

The Run page must stay responsive while a judge works for minutes: it starts an
:class:`EvaluationJob` (a thread running :func:`~agentic_core.evaluate.evaluate` with a
:class:`~agentic_core.judges.monitor.RunMonitor`), redraws the monitor's progress, rate, ETA and
partial results every half second, and offers Cancel. A cancelled job keeps what it judged in the
cache, and :meth:`EvaluationJob.partial_result` turns it into a run (the rest unscored) that the
user may keep or drop.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Literal

import numpy as np

from agentic_core.columnar.columns import InteractionColumns, columns_of
from agentic_core.common.wording import plural
from agentic_core.errors import AgenticError
from agentic_core.evaluate import assemble, evaluate
from agentic_core.io.load_report import LoadReport
from agentic_core.judges.base import Judge, fitted_band
from agentic_core.judges.cache import JudgeCache
from agentic_core.judges.monitor import RunCancelled, RunMonitor
from agentic_core.judges.runner import CacheMode, JudgeRun
from agentic_core.judges.verdict_counts import status_counts
from agentic_core.result import EvaluationResult

log = logging.getLogger(__name__)

JobState = Literal["running", "done", "failed", "cancelled"]
NOT_JUDGED = "not judged: the run was cancelled before this interaction"
"""The reason an interaction of a kept partial run is unscored."""


class EvaluationJob:
    """One evaluation in a background thread.

    Args:
        report: The loaded data.
        judge: The judge (built by the caller; its key never reaches the job's state).
        cache_mode: ``use``, ``refresh`` or ``off``.
        metrics: Seed 004's agentic metrics to compute after judging (``evaluate(metrics=...)``).
    """

    def __init__(
        self,
        report: LoadReport,
        judge: Judge,
        *,
        cache_mode: CacheMode = "use",
        metrics: Sequence[str] = (),
    ) -> None:
        self.report = report
        # The judge (and any API key its chat model holds) is let go when the job ends; what the
        # page shows afterwards needs only these.
        self.judge: Judge | None = judge
        self.identity = judge.identity
        self.fitted_band = fitted_band(judge)
        self.recommended_threshold = float(judge.recommended_threshold)
        self.cacheable = judge.cacheable
        self.cache_mode: CacheMode = cache_mode
        self.metrics = list(metrics)
        self.monitor = RunMonitor(report.n_interactions)
        self.result: EvaluationResult | None = None
        self.error: BaseException | None = None
        self._state: JobState = "running"
        self._columns: InteractionColumns | None = None
        self._ends = np.zeros(0, dtype=np.int64)
        self._thread = threading.Thread(target=self._work, name="agentic-evaluation", daemon=True)

    def start(self) -> EvaluationJob:
        """Start judging in the background; returns the job."""
        self._thread.start()
        return self

    def _work(self) -> None:
        judge, self.judge = self.judge, None
        assert judge is not None
        try:
            cache = JudgeCache() if self.cache_mode != "off" and judge.cacheable else None
            try:
                self.result = evaluate(
                    self.report,
                    judge,
                    cache=cache,
                    cache_mode=self.cache_mode,
                    monitor=self.monitor,
                    metrics=self.metrics or None,
                )
            finally:
                if cache is not None:
                    cache.close()
        except RunCancelled as exc:
            self.error = exc
            self._state = "cancelled"
        except BaseException as exc:  # reported to the user by the page, never lost in a thread
            self.error = exc
            self._state = "failed"
            if not isinstance(exc, AgenticError):
                log.error("evaluation job with judge %s failed: %s", self.identity.label(), type(exc).__name__)
        else:
            self._state = "done"
        finally:
            self.monitor.finish()
            del judge

    @property
    def state(self) -> JobState:
        """``running``, ``done``, ``failed`` or ``cancelled``."""
        return self._state

    @property
    def running(self) -> bool:
        """Whether the job has not finished yet."""
        return self._state == "running"

    def cancel(self) -> None:
        """Ask the job to stop; it becomes ``cancelled`` within a moment (or ``done`` if it just finished)."""
        self.monitor.cancel()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds for the job to finish; whether it has."""
        self._thread.join(timeout)
        return not self.running

    def describe_row(self, row: int) -> tuple[str, str]:
        """``(session_id, query)`` of interaction ``row`` (for the partial results' latest verdicts).

        Read from the data's columns (kept by the loader, built once otherwise), so it costs no
        validation of conversations however large the data.
        """
        if self._columns is None:
            self._columns = columns_of(self.report.conversations)
            self._ends = np.cumsum(self._columns.sizes)
        conv = int(np.searchsorted(self._ends, row, side="right"))
        return self._columns.session_ids[conv], str(self._columns.texts["query"][row])

    def partial_result(self) -> EvaluationResult:
        """A cancelled job's run: every verdict obtained, the interactions not judged unscored.

        Unscored is never 0: by default those conversations leave the statistics, and the run's
        warnings say how many were not judged.

        Raises:
            RuntimeError: the job was not cancelled.
        """
        if self._state != "cancelled":
            raise RuntimeError(f"only a cancelled job has a partial result (this one is {self._state})")
        verdicts = self.monitor.partial(NOT_JUDGED)
        snap = self.monitor.snapshot()
        missing = snap.total - snap.done
        run = JudgeRun(
            verdicts=verdicts,
            identity=self.identity,
            counts=status_counts(verdicts),
            model_calls=snap.judged,
            elapsed_s=snap.elapsed_s,
            cache_mode=self.cache_mode if self.cacheable else "off",
            fitted_band=self.fitted_band,
            warnings=[
                f"Partial run: cancelled after {snap.done:,} of {snap.total:,} interactions had a verdict; the other "
                f"{plural(missing, 'interaction')} are unscored (not judged), never counted as 0."
            ],
        )
        # The monitor counted the report's interactions in order, as evaluate() judged them.
        return assemble(self.report.conversations, run, self.recommended_threshold, self.report)
