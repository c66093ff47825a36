"""AppTest of the Export page, driven by widget keys (offline: the dataset judge, a temporary cache).

AppTest cannot download, so the tests call the very functions the download buttons were given
(kept under a non-widget session key) and check that they follow the sliders.
"""

from __future__ import annotations

import io
import json
import shlex
import zipfile
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from agentic_core.report import EXPORT_FILES
from tests.pages.conftest import OpenApp

APP = Path(__file__).parents[2] / "dashboard.py"
PAGE = "pages/export.py"
BUILDERS_KEY = "_export_builders"


@pytest.fixture
def eapp(open_app: OpenApp) -> Callable[[str | None], AppTest]:
    """Open the Export page on the default sample (or the sample named) with the dataset judge."""
    return lambda data=None: open_app(PAGE, data)


def built(at: AppTest, name: str) -> bytes:
    """The file the download button ``name`` would serve now."""
    builders = at.session_state[BUILDERS_KEY]
    return builders[name]()


def test_renders_every_download_button_and_the_cli_command(eapp: Callable[[str | None], AppTest]) -> None:
    at = eapp(None)
    buttons = {getattr(b, "key", None): str(getattr(b, "label", "")) for b in at.get("download_button")}
    assert set(buttons) == {"download_zip", *(f"download_{name}" for name in EXPORT_FILES)}
    assert "ZIP" in buttons["download_zip"] and buttons["download_interactions"] == "Interactions (CSV)"
    code = at.code[0].value
    argv = shlex.split(code)
    assert argv[:5] == ["python", "-m", "agentic_core", "evaluate", "sample_data/support_bot_attempts.jsonl"]
    assert argv[argv.index("--threshold") + 1] == "0.7" and argv[argv.index("--judge") + 1] == "dataset"
    words = "\n".join(m.value for m in at.markdown)
    assert "Answer threshold **0.70**" in words and "Judge: **dataset**" in words
    # previews: first rows of each table
    previews = [d.value for d in at.dataframe]
    assert [len(p) for p in previews] == [10, 10, 10]
    assert "judge_score" in previews[0].columns and "status" in previews[1].columns and "n" in previews[2].columns


def test_built_files_follow_the_threshold_slider(eapp: Callable[[str | None], AppTest]) -> None:
    at = eapp(None)
    conv_before = built(at, "conversations")
    inter_before = built(at, "interactions")
    before = pd.read_csv(io.BytesIO(conv_before))
    assert len(before) == 240 and before["is_fully_correct"].sum() == 156

    at.slider(key="threshold").set_value(0.95).run()
    assert not at.exception
    conv_after = built(at, "conversations")
    assert conv_after != conv_before and built(at, "interactions") != inter_before
    after = pd.read_csv(io.BytesIO(conv_after))
    assert after["is_fully_correct"].sum() < 156
    interactions = pd.read_csv(io.BytesIO(built(at, "interactions")))
    assert interactions["correct"].sum() == after["correct_interactions"].sum()
    doc = json.loads(built(at, "summary"))
    assert doc["settings"]["threshold"] == 0.95
    assert doc["counts"]["correct_conversations"] == after["is_fully_correct"].sum()
    assert json.loads(built(at, "settings"))["settings"]["threshold"] == 0.95
    with zipfile.ZipFile(io.BytesIO(built(at, "zip"))) as archive:
        assert sorted(archive.namelist()) == sorted(EXPORT_FILES.values())
        assert archive.read("conversations.csv") == conv_after
    assert "Answer threshold **0.95**" in "\n".join(m.value for m in at.markdown)
    assert "--threshold 0.95" in at.code[0].value


def test_tasks_file_follows_k_and_unit(eapp: Callable[[str | None], AppTest]) -> None:
    at = eapp("seeds")
    tasks = pd.read_csv(io.BytesIO(built(at, "tasks")))
    assert len(tasks) == 5  # 'auto' picks task: 5 tasks in the seed examples
    at.selectbox(key="unit").set_value("conversation").run()
    at.select_slider(key="k").set_value(2).run()
    assert not at.exception
    tasks = pd.read_csv(io.BytesIO(built(at, "tasks")))
    assert tasks["group"].tolist() == ["all conversations"] and tasks[["n", "c"]].values.tolist() == [[11, 9]]
    doc = json.loads(built(at, "summary"))
    assert doc["unit"] == "conversation" and [p["k"] for p in doc["curve"]] == [1, 2]
