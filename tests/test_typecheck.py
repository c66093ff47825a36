"""mypy over the whole product (the core, ui/, pages/, app.py, dashboard.py) finds no error.

test.sh runs mypy before pytest; this test makes a plain ``pytest`` run fail on a type error too, with
mypy's own messages. It reads ``[tool.mypy]`` in pyproject.toml and reuses the project's mypy cache
(the one test.sh fills), so a run after test.sh's mypy re-checks only what changed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import tomllib
from mypy import api

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = {"agentic_core", "ui", "pages", "app.py", "dashboard.py"}


def test_mypy_checks_the_whole_product() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    missing = PRODUCT - set(config.get("files", []))
    assert not missing, f"[tool.mypy] files in pyproject.toml leaves out {sorted(missing)}: add them back"
    assert "packages" not in config and "modules" not in config, "list what mypy checks in one place: files"


def test_mypy_finds_no_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the configured files are relative to the project
    stdout, stderr, status = api.run(["--config-file", str(ROOT / "pyproject.toml")])
    assert status == 0, f"mypy found errors (fix their causes, not with type: ignore):\n{stdout}{stderr}"
