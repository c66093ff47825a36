"""The README's Python API block is a contract: it runs as written (offline, in a temporary folder)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _python_api_block() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Python API") :]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "the README's Python API section has a python block"
    return match.group(1)


def test_the_readme_python_api_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTIC_CACHE_PATH", str(tmp_path / "cache.sqlite3"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sample_data").symlink_to(ROOT / "sample_data")
    namespace: dict[str, object] = {}
    exec(compile(_python_api_block(), "README.md", "exec"), namespace)
    written = sorted(os.listdir(tmp_path / "exports"))
    assert written == ["conversations.csv", "interactions.csv", "settings.json", "summary.json", "tasks.csv"]
    assert namespace["pass_at_k"](10, 7, 3) == pytest.approx(0.99167, abs=5e-6)  # type: ignore[operator]
    assert namespace["pass_pow_k"](10, 7, 3) == pytest.approx(0.29167, abs=5e-6)  # type: ignore[operator]
