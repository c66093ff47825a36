"""The README and the docs pages are contracts: their Python blocks run as written, their links resolve.

The README is what a visitor reads first (issue 26): at most 400 lines, the Quick start's two commands exactly
as they have always been, and every relative link (into docs/, benchmarks/RESULTS.md, ARCHITECTURE.md) points
at a file in the repository. The docs pages' Python API block runs from a clone's root.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
QUICK_START = (
    "bash start.sh   # set up .venv, judge the built-in samples offline, open the dashboard on http://127.0.0.1:8501\n"
    "bash test.sh    # set up and run the whole test suite: ruff, mypy, unit, property, page and real-browser tests\n"
)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _python_block(path: Path, heading: str) -> str:
    text = path.read_text(encoding="utf-8")
    section = text[text.index(heading) :]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, f"{path.name}'s {heading!r} section has a python block"
    return match.group(1)


def _run_block(block: str, name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    monkeypatch.setenv("AGENTIC_CACHE_PATH", str(tmp_path / "cache.sqlite3"))
    monkeypatch.setenv("AGENTIC_RUNS_PATH", str(tmp_path / "runs.sqlite3"))
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    exec(compile(block, name, "exec"), namespace)
    return namespace


def test_the_readme_python_api_runs_as_written_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No sample_data/ in this folder: the block finds the built-in samples wherever the package is.
    namespace = _run_block(_python_block(README, "## Python API"), "README.md", tmp_path, monkeypatch)
    written = sorted(os.listdir(tmp_path / "exports"))
    assert written == ["conversations.csv", "interactions.csv", "settings.json", "summary.json", "tasks.csv"]
    assert namespace["pass_at_k"](10, 7, 3) == pytest.approx(0.99167, abs=5e-6)  # type: ignore[operator]
    assert namespace["pass_pow_k"](10, 7, 3) == pytest.approx(0.29167, abs=5e-6)  # type: ignore[operator]


def test_the_docs_python_api_block_runs_as_written_from_a_clone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "sample_data").symlink_to(ROOT / "sample_data")
    page = ROOT / "docs" / "python-api.md"
    namespace = _run_block(_python_block(page, "# Python API"), "docs/python-api.md", tmp_path, monkeypatch)
    assert sorted(os.listdir(tmp_path / "exports")) == [
        "conversations.csv", "interactions.csv", "settings.json", "summary.json", "tasks.csv"
    ]
    assert namespace["run_id"]


def test_readme_is_short_and_keeps_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 400, "the README is for a visitor: move detail into docs/"
    assert QUICK_START in text, "the Quick start's two commands are a contract: keep them exactly"
    for script in ("start.sh", "test.sh"):
        assert (ROOT / script).is_file()
    assert "agentic-eval" in text and "pip install" in text


def _targets(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    # Links inside code blocks are examples, not links.
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return [t for t in LINK.findall(text) if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


def test_every_relative_link_of_the_readme_resolves() -> None:
    targets = _targets(README)
    assert any(t.startswith("docs/") for t in targets), "the README links into the docs"
    for target in targets:
        file = target.split("#", 1)[0]
        if file:
            assert (ROOT / file).exists(), f"README.md links to {target}, which is not in the repository"


def test_every_relative_link_of_the_docs_resolves() -> None:
    from scripts.mkdocs_hooks import INCLUDED

    generated = {page for page, _ in INCLUDED}
    docs = ROOT / "docs"
    for page in docs.rglob("*.md"):
        for target in _targets(page):
            file = target.split("#", 1)[0]
            if file and file not in generated:
                assert (page.parent / file).exists(), f"{page.relative_to(ROOT)} links to {target}: not found"
