"""``--abstain-band`` (issue 41): the band re-decides without a judge call, in the text, --json and the exit code."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from agentic_core.analysis.aggregate import Aggregate, aggregate
from agentic_core.cli import main
from agentic_core.cli.reproduce import cli_command
from agentic_core.data.schemas import Conversation
from agentic_core.evaluate import evaluate
from agentic_core.judges.registry import DEFAULT_JUDGE
from agentic_core.settings import make_settings
from tests.abstaining import AbstainingJudge, records, register

ARGS = ("--cache", "off", "--no-progress", "--no-save")


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    register(monkeypatch, DEFAULT_JUDGE)  # abstains with P(correct) in 0.40 .. 0.60, sure ones at 0.05 / 0.95
    path = tmp_path / "abstaining.json"
    path.write_text(json.dumps(records()), encoding="utf-8")
    return path


def _core(**settings: object) -> Aggregate:
    result = evaluate([Conversation.model_validate(r) for r in records()], AbstainingJudge(), cache_mode="off")
    return aggregate(result, make_settings(threshold=0.5, **settings))


def test_a_band_of_width_0_decides_every_abstention(data: Path) -> None:
    code, out, err = _run("evaluate", str(data), *ARGS, "--json", "--abstain-band", "0.5,0.5")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["settings"]["abstain_band"] == [0.5, 0.5]
    assert doc["uncertain"] == 0 and doc["counts"]["unscored_interactions"] == 0
    assert doc["judge_counts"]["uncertain"] > 0  # the judge's own abstentions, as judged
    expected = _core(abstain_band=(0.5, 0.5))
    assert doc["counts"]["correct_interactions"] == expected.counts.correct_interactions
    assert "uncertain" not in err


def test_without_the_option_the_judges_band_stands(data: Path) -> None:
    code, out, err = _run("evaluate", str(data), *ARGS, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["settings"]["abstain_band"] is None
    expected = _core().counts.uncertain_interactions
    assert doc["uncertain"] == doc["judge_counts"]["uncertain"] == expected > 0


def test_the_text_says_the_band_set(data: Path) -> None:
    code, out, err = _run("evaluate", str(data), *ARGS, "--abstain-band", "0.45,0.55")
    assert code == 0, err
    expected = _core(abstain_band=(0.45, 0.55)).counts.uncertain_interactions
    assert f"abstention band: 0.45 to 0.55 (set): {expected} uncertain (unscored)" in out


def test_a_band_abstaining_on_everything_scores_nothing_and_says_why(data: Path) -> None:
    code, _, err = _run("evaluate", str(data), *ARGS, "--abstain-band", "0,1")
    assert code == 5
    assert "abstention band 0,1 abstains on every interaction" in err and "--abstain-band" in err


def test_a_bad_band_is_a_usage_error_before_judging(data: Path) -> None:
    code, _, err = _run("evaluate", str(data), *ARGS, "--abstain-band", "0.9,0.1")
    assert code == 2
    assert "--abstain-band" in err and "LOW <= HIGH" in err


def test_the_reproducing_command_carries_a_set_band() -> None:
    result = evaluate([Conversation.model_validate(r) for r in records()], AbstainingJudge(), cache_mode="off")
    assert "--abstain-band" not in cli_command(result, aggregate(result, make_settings()))
    command = cli_command(result, aggregate(result, make_settings(abstain_band=(0.3, 0.7))))
    assert "--abstain-band 0.3,0.7" in command
