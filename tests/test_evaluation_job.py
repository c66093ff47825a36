"""The background evaluation job: finishing, failing, cancelling, and the partial run."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from agentic_core import aggregate, make_settings
from agentic_core.evaluation_job import NOT_JUDGED, EvaluationJob
from agentic_core.io.samples import load_sample
from tests.fakes import FakeJudge, SlowStreamJudge


@pytest.fixture(autouse=True)
def _own_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENTIC_CACHE_PATH", str(tmp_path / "cache.sqlite"))


def _wait_until(predicate, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def test_a_job_finishes_with_the_same_result_as_evaluate() -> None:
    report = load_sample("seeds")
    job = EvaluationJob(report, FakeJudge(0.8)).start()
    assert job.wait(10)
    assert job.state == "done" and job.error is None and job.result is not None
    assert job.judge is None, "the judge (and any key it holds) is let go when the job ends"
    assert job.result.n_interactions == report.n_interactions
    assert np.allclose(job.result.interactions["score"], 0.8)
    snap = job.monitor.snapshot()
    assert snap.done == snap.total == report.n_interactions


def test_a_failing_judge_fails_the_job_with_its_error() -> None:
    job = EvaluationJob(load_sample("seeds"), FakeJudge(0.8, fail_on_call=1)).start()
    assert job.wait(10)
    assert job.state == "failed" and isinstance(job.error, RuntimeError)
    with pytest.raises(RuntimeError, match="only a cancelled job"):
        job.partial_result()


def test_a_cancelled_job_keeps_a_partial_run_with_the_rest_unscored() -> None:
    report = load_sample("travel")
    n = report.n_interactions
    job = EvaluationJob(report, SlowStreamJudge(0.9, per_item_s=0.03), cache_mode="off").start()
    _wait_until(lambda: job.monitor.snapshot().done >= 3)
    job.cancel()
    assert job.wait(10)
    assert job.state == "cancelled"
    result = job.partial_result()
    frame = result.interactions
    done = job.monitor.snapshot().done
    assert 3 <= done < n
    assert int(frame["score"].notna().sum()) == done
    not_judged = frame[frame["judge_error"] == NOT_JUDGED]
    assert len(not_judged) == n - done and not_judged["score"].isna().all()
    assert any("Partial run" in w for w in result.judge_run.warnings)
    # Unscored, never 0: the statistics leave those conversations out and count them.
    agg = aggregate(result, make_settings())
    assert agg.counts.unscored_interactions == n - done
    assert agg.counts.unscored_conversations >= 1
    assert agg.counts.correct_interactions == done  # every judged one scored 0.9; none counted as 0
