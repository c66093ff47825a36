"""examples/walkthrough.ipynb runs from top to bottom, offline, and its saved numbers are current."""

from __future__ import annotations

import copy
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
NOTEBOOK = EXAMPLES / "walkthrough.ipynb"


def checked_outputs(nb: nbformat.NotebookNode) -> list[str]:
    """The printed text of the cells tagged ``check`` (the headline numbers)."""
    return [
        "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")
        for cell in nb.cells
        if cell.cell_type == "code" and "check" in cell.get("metadata", {}).get("tags", [])
    ]


@pytest.mark.timeout(600)
def test_walkthrough_runs_clean_and_its_saved_numbers_are_current(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("AGENTIC_CACHE_PATH", str(tmp_path / "cache.sqlite3"))  # the kernel inherits it
    saved = nbformat.read(NOTEBOOK, as_version=4)
    fresh = copy.deepcopy(saved)
    # Raises CellExecutionError, naming the cell, on the first error.
    NotebookClient(fresh, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(EXAMPLES)}}).execute()
    assert checked_outputs(saved), "the notebook shows its headline numbers in a cell tagged 'check'"
    # Stale saved outputs would show readers numbers the code no longer produces.
    assert checked_outputs(fresh) == checked_outputs(saved)
    errors = [o for c in fresh.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
