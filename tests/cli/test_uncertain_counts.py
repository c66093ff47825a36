"""``evaluate`` with a judge that abstains: the ``uncertain`` count in ``--json``, the summary and stderr."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from agentic_core.cli import main
from agentic_core.data.schemas import Conversation
from agentic_core.evaluate import judge_items
from agentic_core.judges.registry import DEFAULT_JUDGE
from agentic_core.judges.verdict_counts import verdict_counts
from tests.abstaining import AbstainingJudge, abstains_on, records, register, unsure_record
from tests.fakes import replace_judge as register_judge


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    register(monkeypatch, DEFAULT_JUDGE)  # the default judge abstains on some items
    path = tmp_path / "abstaining.json"
    path.write_text(json.dumps(records()), encoding="utf-8")
    return path


def _expected() -> int:
    convs = [Conversation.model_validate(r) for r in records()]
    return sum(abstains_on(item) for item in judge_items(convs))


def test_json_counts_the_uncertain(data: Path) -> None:
    code, out, err = _run("evaluate", str(data), "--cache", "off", "--no-progress", "--no-save", "--json")
    assert code == 0, err
    doc = json.loads(out)
    expected = _expected()
    assert doc["uncertain"] == expected > 0
    assert doc["judge_counts"]["uncertain"] == expected and doc["judge_counts"]["failed"] == 0
    assert doc["counts"]["unscored_interactions"] == expected  # unscored, never 0 or 1
    assert f"{expected} interaction(s) uncertain" in err


def test_the_summary_says_judged_uncertain_failed(data: Path) -> None:
    code, out, err = _run("evaluate", str(data), "--cache", "off", "--no-progress", "--no-save")
    assert code == 0, err
    n = len(records()) * 3
    expected = _expected()
    assert f"verdicts: {n - expected} judged, {expected} uncertain (unscored), 0 failed" in out


def test_a_judge_that_abstains_on_everything_scores_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Unsure(AbstainingJudge):
        def verdict(self, item):  # type: ignore[no-untyped-def]
            return (
                super()
                .verdict(item)
                .model_copy(
                    update={"score": None, "status": "uncertain", "error": "uncertain: test", "probability": 0.5}
                )
            )

    register_judge(monkeypatch, DEFAULT_JUDGE, Unsure)
    path = tmp_path / "d.json"
    path.write_text(json.dumps(records(2)), encoding="utf-8")
    code, _, err = _run("evaluate", str(path), "--cache", "off", "--no-progress", "--no-save")
    assert code != 0
    assert "scored none of the 6 interaction(s) (0 judged, 6 uncertain (unscored), 0 failed)" in err
    assert verdict_counts({"uncertain": 6}).words() == "0 judged, 6 uncertain (unscored), 0 failed"


def test_a_judge_unsure_of_everything_points_to_the_cascade_not_to_its_configuration(tmp_path: Path) -> None:
    record = unsure_record()
    path = tmp_path / "unsure.json"
    path.write_text(json.dumps([record]), encoding="utf-8")
    code, _, err = _run("evaluate", str(path), "--cache", "off", "--no-progress", "--no-save")
    assert code != 0
    assert "--judge cascade" in err and "configuration" not in err
