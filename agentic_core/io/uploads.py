"""Browser uploads: the per-file size limit and loading several uploaded files as one dataset.

The limit protects a server shared by every session; a file over it is reported in the load report
like any other unreadable file (with its place and the fix), never silently dropped.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import Protocol

from agentic_core.io.bounded_read import env_megabytes
from agentic_core.io.importers.formats import DEFAULT_FORMAT
from agentic_core.io.load_report import LoadReport, file_error
from agentic_core.io.loader import load_many
from agentic_core.io.otel_references import References, read_references, references_for

ENV_MAX_UPLOAD_MB = "AGENTIC_MAX_UPLOAD_MB"
DEFAULT_MAX_UPLOAD_MB = 200


class Upload(Protocol):
    """What an upload widget hands over (Streamlit's ``UploadedFile`` has these)."""

    name: str
    size: int

    def getvalue(self) -> bytes:
        """The file's bytes."""
        ...


def max_upload_mb() -> int:
    """The per-file upload limit in MB: 200, or ``$AGENTIC_MAX_UPLOAD_MB`` (a deployment's choice)."""
    return env_megabytes(ENV_MAX_UPLOAD_MB, DEFAULT_MAX_UPLOAD_MB)


def read_uploaded_references(upload: Upload) -> References:
    """An uploaded reference file (expected answers and tools for OpenTelemetry traces), read as on disk.

    Raises:
        DataError: The file cannot be read (its name is the place).
    """
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / (Path(upload.name).name or "references.json")
        path.write_bytes(upload.getvalue())
        return read_references(path)


def load_uploads(
    files: Sequence[Upload],
    limit_mb: int | None = None,
    *,
    format: str = DEFAULT_FORMAT,
    references: Upload | None = None,
) -> tuple[LoadReport, list[str]]:
    """Load the uploaded files together (duplicates checked across them); oversized ones are reported.

    Args:
        files: The uploads, in order.
        limit_mb: The per-file limit (default: :func:`max_upload_mb`).
        format: The files' format: ``auto`` (detected per file from its content) or a format name
            (:data:`~agentic_core.io.importers.formats.FORMAT_CHOICES`).
        references: A reference file joined to OpenTelemetry traces by conversation or task id
            (:mod:`agentic_core.io.otel_references`); its issues join the report.

    Returns:
        The load report (an error issue per oversized file) and the names of the oversized files.

    Raises:
        SettingsError: ``format`` is not a known format name.
        DataError: The reference file cannot be read.
    """
    limit_mb = max_upload_mb() if limit_mb is None else limit_mb
    limit = limit_mb * 1024 * 1024
    refs = None if references is None else read_uploaded_references(references)
    with nullcontext() if refs is None else references_for(refs):
        report = load_many([(f.name, f.getvalue()) for f in files if f.size <= limit], format=format)
    if refs is not None:
        report.issues.extend(refs.issues)
        report.issues.extend(refs.unmatched())
    oversized = [f for f in files if f.size > limit]
    for f in oversized:
        report.files.append(f.name)
        report.issues.append(
            file_error(
                f.name,
                f"is {f.size / 1024 / 1024:,.0f} MB, over the {limit_mb} MB limit per file",
                "split it into several files (JSON Lines split cleanly at line breaks) and upload them "
                "together, or load it with the command line",
            )
        )
    return report, [f.name for f in oversized]
