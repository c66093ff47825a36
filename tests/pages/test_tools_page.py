"""AppTest of the Tools page, driven by widget keys (offline: the dataset judge, a temporary cache)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from agentic_core.io.samples import SAMPLES
from tests.pages.conftest import OpenApp

APP = Path(__file__).parents[2] / "dashboard.py"
PAGE = "pages/tools.py"
WEIGHT_KEYS = ("w_selection", "w_parameters", "w_sequence", "w_utilization")


@pytest.fixture
def tapp(open_app: OpenApp) -> Callable[[str | Path | None], AppTest]:
    """Open the Tools page on the default sample, a named sample or a data file, with the dataset judge."""
    return lambda data=None: open_app(PAGE, data)


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def tool_names_in_file(path: Path) -> set[str]:
    """Every tool name expected or used anywhere in a JSONL file, read directly (not through the core)."""
    names: set[str] = set()
    for record in records(path):
        for turn in record["conversation"]:
            for call in (turn.get("agentic") or {}).get("tools_used", []):
                names.add(call["tool_name"])
            for call in (turn.get("ground_truth_agentic") or {}).get("expected_tools", []):
                names.add(call["tool_name"])
    return names


def metric_value(at: AppTest, label: str) -> str:
    found = [m.value for m in at.metric if m.label == label]
    assert len(found) == 1, [m.label for m in at.metric]
    return found[0]


def failing_count(at: AppTest) -> int:
    return int(metric_value(at, "Failing tool calls").replace(",", ""))


def frame_with(at: AppTest, column: str) -> pd.DataFrame | None:
    frames = [d.value for d in at.dataframe if column in d.value.columns]
    assert len(frames) <= 1
    return frames[0] if frames else None


def failing_table(at: AppTest) -> pd.DataFrame:
    frame = frame_with(at, "reasoning")
    assert frame is not None
    return frame


@pytest.mark.parametrize("sample", ["support", "travel"])
def test_renders_with_breakdown_row_per_tool_name(tapp: Callable[[str | Path | None], AppTest], sample: str) -> None:
    at = tapp(None if sample == "support" else sample)
    breakdown = frame_with(at, "tool_name")
    assert breakdown is not None
    expected = tool_names_in_file(SAMPLES[sample].path)
    assert len(breakdown) == len(expected)
    assert set(breakdown["tool_name"]) == expected
    # The failing table lists exactly the failing interactions counted in the metric.
    assert len(failing_table(at)) == failing_count(at) > 0
    assert "tools_dimensions" in [p.proto.id.rsplit("-", 1)[-1] for p in at.get("plotly_chart")]
    n_tool = sum(
        1
        for r in records(SAMPLES[sample].path)
        for t in r["conversation"]
        if (t.get("agentic") or {}).get("tools_used") or (t.get("ground_truth_agentic") or {}).get("expected_tools")
    )
    assert any(f"{n_tool:,} of " in m.value for m in at.markdown)
    assert metric_value(at, "Tool use correct").endswith(f"/ {n_tool:,}")


def test_utilization_weight_zero_changes_overall_and_failing(tapp: Callable[[str | Path | None], AppTest]) -> None:
    at = tapp(None)
    overall, failing = metric_value(at, "Overall tool score"), failing_count(at)
    at.slider(key="w_utilization").set_value(0.0).run()
    assert not at.exception
    assert metric_value(at, "Overall tool score") != overall
    assert failing_count(at) != failing
    assert len(failing_table(at)) == failing_count(at)
    assert any("utilization **0.00**" in c.value and "selection **0.33**" in c.value for c in at.caption)


def test_lower_tool_threshold_reduces_failing_calls(tapp: Callable[[str | Path | None], AppTest]) -> None:
    at = tapp("travel")
    before = failing_count(at)
    at.slider(key="tool_threshold").set_value(0.5).run()
    assert not at.exception
    after = failing_count(at)
    assert after < before
    assert len(failing_table(at)) == after
    assert (failing_table(at)["tool_overall"] < 0.5).all()


def test_all_weights_zero_means_tool_use_not_scored(tapp: Callable[[str | Path | None], AppTest]) -> None:
    at = tapp(None)
    for key in WEIGHT_KEYS:
        at.slider(key=key).set_value(0.0)
    at.run()
    assert not at.exception
    assert not at.error
    assert any("Tool use is not scored" in w.value for w in at.warning)
    assert not [m for m in at.metric if m.label == "Overall tool score"]
    # The weight-independent breakdown stays, and raising one weight brings everything back.
    assert frame_with(at, "tool_name") is not None
    at.slider(key="w_parameters").set_value(1.0).run()
    assert not at.error
    assert any("parameters **1.00**" in c.value for c in at.caption)


def test_filter_and_search_failing_calls(tapp: Callable[[str | Path | None], AppTest]) -> None:
    at = tapp("travel")
    total = len(failing_table(at))
    options = at.multiselect(key="tools_filter").options
    assert sorted(options) == sorted(tool_names_in_file(SAMPLES["travel"].path))
    at.multiselect(key="tools_filter").set_value(["book_flight"]).run()
    filtered = failing_table(at)
    assert 0 < len(filtered) < total
    assert all("book_flight" in tools.split(", ") for tools in filtered["tools"])
    at.multiselect(key="tools_filter").set_value([]).run()
    at.text_input(key="tools_search").set_value("TRV-004").run()
    searched = failing_table(at)
    assert len(searched) >= 1
    assert set(searched["session_id"]) == {"trv-004"}


def test_dataset_without_tools_shows_empty_state(tapp: Callable[[str | Path | None], AppTest], tmp_path: Path) -> None:
    stripped = []
    for record in records(SAMPLES["support"].path)[:16]:
        for turn in record["conversation"]:
            turn.pop("agentic", None)
            turn.pop("ground_truth_agentic", None)
        stripped.append(record)
    path = tmp_path / "no_tools.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in stripped), encoding="utf-8")
    at = tapp(path)
    assert any("No interaction in this dataset has tool expectations" in i.value for i in at.info)
    assert not at.metric
    assert not at.dataframe


def test_the_failing_table_is_paged_not_capped(
    tapp: Callable[[str | Path | None], AppTest], monkeypatch: pytest.MonkeyPatch
) -> None:
    import agentic_core.report as report  # the page reads its page size from the package's face

    monkeypatch.setattr(report, "FAILING_PAGE_ROWS", 5)
    at = tapp("travel")
    table = next(d.value for d in at.dataframe if "reasoning" in d.value.columns)
    assert len(table) == 5
    pages = at.number_input(key="tools_page")
    seen = []
    for page in range(1, int(pages.max) + 1):
        at.number_input(key="tools_page").set_value(page).run()
        assert not at.exception
        seen.append(next(d.value for d in at.dataframe if "reasoning" in d.value.columns))
    every = pd.concat(seen)
    assert len(every) == len(every.drop_duplicates(subset=["session_id", "qa_id", "position"]))
    assert f"of {len(every):,} failing interactions" in " ".join(c.value for c in at.caption)
