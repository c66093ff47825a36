"""Issue 36: the Overview's unscored-bounds box gives pass@K / pass^K only where the core says the data measures them.

It printed "pass@18 99.8%" for one-attempt data while the cards above said "not measured".
"""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.datasets import conv
from tests.pages.conftest import OpenApp


def write_data(path: Path, attempts: int) -> Path:
    """Eight tasks with ``attempts`` conversations each; the first attempt of two tasks has no score (unscored)."""
    records = []
    for t in range(8):
        for a in range(attempts):
            record = conv(f"t{t}-a{a}", [0.9 if (t + a) % 3 else 0.1], task=f"task-{t}")
            if t < 2 and a == 0:
                del record["conversation"][0]["score"]  # the dataset judge leaves it unscored
            records.append(record)
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path


def bounds_box(at: AppTest) -> str:
    boxes = [w.value for w in at.warning if "could not be scored by the judge" in w.value]
    assert len(boxes) == 1, [w.value for w in at.warning]
    return boxes[0]


def test_one_attempt_data_has_no_pass_at_k_in_the_unscored_bounds(open_app: OpenApp, tmp_path: Path) -> None:
    at = open_app(data=write_data(tmp_path / "one.jsonl", attempts=1))
    box = bounds_box(at)
    assert "Had they all been incorrect: success rate" in box and "%" in box
    assert "pass@" not in box and "pass^" not in box
    assert any(m.label.startswith("pass@") and m.value == "not measured" for m in at.metric)


def test_repeated_attempts_keep_pass_at_k_in_the_unscored_bounds(open_app: OpenApp, tmp_path: Path) -> None:
    at = open_app(data=write_data(tmp_path / "three.jsonl", attempts=3))
    k = int(next(m.label for m in at.metric if m.label.startswith("pass@"))[len("pass@") :])
    box = bounds_box(at)
    assert k > 1 and f"pass@{k} " in box and f"pass^{k} " in box
