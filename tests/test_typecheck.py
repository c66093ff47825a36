"""mypy over the whole product (the core, ui/, pages/, app.py, dashboard.py) finds no error.

test.sh runs mypy before pytest; this test makes a plain ``pytest`` run fail on a type error too, with
mypy's own messages. It reads ``[tool.mypy]`` in pyproject.toml and reuses the project's mypy cache
(the one test.sh fills), so a run after test.sh's mypy re-checks only what changed. When test.sh's mypy
passed on exactly this tree (``AGENTIC_MYPY_PASSED`` holds the tree's fingerprint, tests/typecheck_stamp.py),
the check is not run a second time.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import tomllib
from mypy import api

from tests.typecheck_stamp import ENV, checked_files, tree_stamp

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = {"agentic_core", "ui", "pages", "app.py", "dashboard.py"}


def test_mypy_checks_the_whole_product() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    missing = PRODUCT - set(config.get("files", []))
    assert not missing, f"[tool.mypy] files in pyproject.toml leaves out {sorted(missing)}: add them back"
    assert "packages" not in config and "modules" not in config, "list what mypy checks in one place: files"


def test_mypy_finds_no_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    if os.environ.get(ENV) == tree_stamp(ROOT):
        return  # test.sh's mypy passed on this very tree a moment ago (any edit since changes the fingerprint)
    monkeypatch.chdir(ROOT)  # the configured files are relative to the project
    stdout, stderr, status = api.run(["--config-file", str(ROOT / "pyproject.toml")])
    assert status == 0, f"mypy found errors (fix their causes, not with type: ignore):\n{stdout}{stderr}"


def test_test_sh_exports_the_fingerprint_only_after_mypy_passed() -> None:
    script = (ROOT / "test.sh").read_text(encoding="utf-8").splitlines()
    commands = [line.strip() for line in script if line.strip() and not line.lstrip().startswith("#")]
    stamp = next(i for i, line in enumerate(commands) if "tests.typecheck_stamp" in line)
    mypy = commands.index(".venv/bin/mypy")
    export = next(i for i, line in enumerate(commands) if line.startswith(f"export {ENV}="))
    pytest_run = next(i for i, line in enumerate(commands) if "-m pytest" in line)
    # Fingerprinted before mypy reads the files, exported only once it passed (test.sh stops on its failure).
    assert stamp < mypy < export < pytest_run, commands
    assert "set -euo pipefail" in commands


def test_the_fingerprint_changes_with_every_file_mypy_reads(tmp_path: Path) -> None:
    shutil.copy2(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "agentic_core" / "sub").mkdir(parents=True)
    (tmp_path / "agentic_core" / "sub" / "mod.py").write_text("x: int = 1\n", encoding="utf-8")
    (tmp_path / "app.py").write_text("", encoding="utf-8")
    listed = [p.relative_to(tmp_path).as_posix() for p in checked_files(tmp_path)]
    assert listed == ["agentic_core/sub/mod.py", "app.py"]
    seen = {tree_stamp(tmp_path)}
    assert tree_stamp(tmp_path) in seen  # the same tree, the same fingerprint
    (tmp_path / "agentic_core" / "sub" / "mod.py").write_text('x: int = "1"\n', encoding="utf-8")  # a type error
    seen.add(tree_stamp(tmp_path))
    (tmp_path / "agentic_core" / "sub" / "mod.py").rename(tmp_path / "agentic_core" / "sub" / "other.py")
    seen.add(tree_stamp(tmp_path))
    (tmp_path / "ui").mkdir()
    (tmp_path / "ui" / "new.py").write_text("", encoding="utf-8")
    seen.add(tree_stamp(tmp_path))
    with (tmp_path / "pyproject.toml").open("a", encoding="utf-8") as config:
        config.write("\n# another configuration\n")
    seen.add(tree_stamp(tmp_path))
    assert len(seen) == 5


def test_a_stale_fingerprint_runs_mypy(monkeypatch: pytest.MonkeyPatch) -> None:
    # The variable names another tree: the check runs (and reports mypy's own errors, here none on a tiny tree).
    calls: list[list[str]] = []

    def fake_run(args: list[str]) -> tuple[str, str, int]:
        calls.append(args)
        return "error: boom\n", "", 1

    monkeypatch.setattr(api, "run", fake_run)
    monkeypatch.setenv(ENV, "0" * 64)
    with pytest.raises(AssertionError, match="boom"):
        test_mypy_finds_no_error(monkeypatch)
    assert calls
    monkeypatch.setenv(ENV, tree_stamp(ROOT))
    calls.clear()
    test_mypy_finds_no_error(monkeypatch)
    assert not calls
