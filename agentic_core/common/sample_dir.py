"""Where the built-in sample files are: one constant, in a leaf, for every layer that reads them.

The loader's sample list (:mod:`agentic_core.io.samples`) and the shipped verdict packs
(:mod:`agentic_core.judges.packs`) both read this folder; kept here so the judges do not import io for a path.
"""

from __future__ import annotations

from pathlib import Path


def _sample_dir() -> Path:
    """Where the samples are: the package data of an installed copy first, else the checkout's sample_data/.

    The wheel installs ``sample_data/`` as ``agentic_core/sample_data`` (pyproject.toml), so an installed
    copy works from any folder; in a checkout that folder does not exist and the repository's is used.
    """
    package = Path(__file__).resolve().parents[1]
    installed = package / "sample_data"
    return installed if installed.is_dir() else package.parent / "sample_data"


SAMPLE_DIR = _sample_dir()
