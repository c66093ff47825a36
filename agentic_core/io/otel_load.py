"""Loading OpenTelemetry trace files with a reference file (a golden set) joined to their conversations.

Its own module: it calls the loader, which runs the importers, so the importer's modules cannot
import it (:mod:`agentic_core.io.otel_references` holds the join itself).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agentic_core.io.load_report import LoadReport
from agentic_core.io.loader import load_paths
from agentic_core.io.otel_references import read_references, references_for


def load_otel(paths: Sequence[str | Path], references: str | Path | None = None, **options: Any) -> LoadReport:
    """Load OpenTelemetry trace files, with expected answers and tools from a reference file.

    Args:
        paths: The trace files (OTLP JSON, or JSON lines of spans; any format is detected as usual).
        references: The reference file (its records: :mod:`agentic_core.io.otel_references`), or ``None``.
        **options: Passed on to :func:`~agentic_core.io.loader.load_paths` (``format``, ``duplicate_key``).

    Returns:
        The :class:`~agentic_core.io.load_report.LoadReport`, with the reference file's issues
        (its unreadable records, records that matched no conversation) added.

    Raises:
        DataError: The reference file cannot be read.
    """
    if references is None:
        return load_paths(paths, **options)
    refs = read_references(references)
    with references_for(refs):
        report = load_paths(paths, **options)
    report.issues.extend(refs.issues)
    report.issues.extend(refs.unmatched())
    return report
