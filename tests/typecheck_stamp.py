"""A fingerprint of what mypy checks: every Python file of ``[tool.mypy] files``, pyproject.toml and mypy's version.

test.sh runs mypy over the whole product just before pytest; on success it exports the fingerprint of the tree
mypy checked as ``AGENTIC_MYPY_PASSED`` (``python -m tests.typecheck_stamp`` prints it). tests/test_typecheck.py
then re-runs mypy only where the tree it sees has another fingerprint: a plain ``pytest`` run (no variable), or
a file edited since. The same check is not run twice in one ``bash test.sh`` (it was 1-2.5 minutes of one
worker's time), and a plain ``pytest`` still fails on a type error.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import tomllib

ENV = "AGENTIC_MYPY_PASSED"
"""The variable test.sh exports once mypy passed: the fingerprint of the tree it passed on."""
ROOT = Path(__file__).resolve().parents[1]


def checked_files(root: Path) -> list[Path]:
    """The files mypy reads under ``root``'s configuration (``[tool.mypy] files``: folders and files), sorted.

    A configured path that does not exist adds nothing: its file appearing later changes the fingerprint.
    """
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    found: set[Path] = set()
    for entry in config.get("files", []):
        path = root / entry
        if path.is_dir():
            found.update(path.rglob("*.py"))
            found.update(path.rglob("*.pyi"))
        elif path.is_file():
            found.add(path)
    return sorted(found)


def tree_stamp(root: Path = ROOT) -> str:
    """The fingerprint: any edit, added or removed file, configuration change or other mypy gives another."""
    from mypy.version import __version__ as mypy_version

    digest = hashlib.sha256(f"mypy {mypy_version}\n".encode())
    for path in [root / "pyproject.toml", *checked_files(root)]:
        content = path.read_bytes()
        digest.update(f"{path.relative_to(root).as_posix()}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()


if __name__ == "__main__":
    print(tree_stamp())
