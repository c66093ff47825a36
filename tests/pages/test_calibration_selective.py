"""Calibration page: selective accuracy against coverage, for a judge that gives a probability and abstains."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentic_core.analysis.selective import run_selective_accuracy
from agentic_core.data.schemas import Conversation
from agentic_core.evaluate import evaluate
from tests.abstaining import AbstainingJudge, records
from tests.pages.conftest import OpenApp

PAGE = "pages/calibration.py"


def labelled_records() -> list[dict]:  # type: ignore[type-arg]
    data = records(20)
    for c, record in enumerate(data):
        for i, turn in enumerate(record["conversation"]):
            # People agree with the fake's sure verdicts, except on every fifth answer.
            right = "I do not know" not in turn["assistant"]
            turn["human_label"] = int(right if (c * 3 + i) % 5 else not right)
    return data


@pytest.fixture
def abstaining_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from tests.fakes import replace_judge

    replace_judge(monkeypatch, "lexical", AbstainingJudge)
    path = tmp_path / "labelled-abstaining.json"
    path.write_text(json.dumps(labelled_records()), encoding="utf-8")
    return path


def test_the_page_shows_selective_accuracy_for_a_judge_with_probabilities(
    open_app: OpenApp, abstaining_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENTIC_DEFAULT_JUDGE", "lexical")  # built as the abstaining fake
    at = open_app(PAGE, data=abstaining_data)
    assert not at.exception and not at.error
    charts = [c for c in at.get("plotly_chart") if "calibration_selective" in str(c.proto.id)]
    assert len(charts) == 1
    figure = json.loads(charts[0].proto.spec)
    traces = figure["data"]
    expected = run_selective_accuracy(
        evaluate([Conversation.model_validate(r) for r in labelled_records()], AbstainingJudge(), cache_mode="off")
    )
    assert expected is not None
    curve, own = expected
    assert traces[0]["y"] == pytest.approx(curve["accuracy"].tolist())
    assert traces[0]["x"] == pytest.approx(curve["coverage"].tolist())
    assert traces[1]["x"] == pytest.approx([own.coverage]) and traces[1]["y"] == pytest.approx([own.accuracy])
    assert own.n_abstained > 0 and own.coverage < 1
    table = next(d.value for d in at.dataframe if "n_given" in d.value.columns)
    assert table["n_given"].tolist() == curve["n_given"].tolist()
    assert any(f"abstained on **{own.n_abstained:,}**" in m.value for m in at.markdown)


def test_without_probabilities_the_page_says_why_there_is_no_curve(open_app: OpenApp) -> None:
    at = open_app(PAGE)  # the dataset judge gives no probability
    assert not at.exception
    assert any("gives no probability" in c.value for c in at.caption)
    assert not [c for c in at.get("plotly_chart") if "calibration_selective" in str(c.proto.id)]
