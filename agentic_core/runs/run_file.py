"""Run files: writing one, and reading with bounds (the size limits apply while reading and decompressing).

A run file is gzip-compressed JSON (``runs export``, ``evaluate --out``; :func:`run_file_bytes` writes one).
Read whole, ``/dev/zero`` would exhaust memory, and a small file of zeros expands about a thousandfold: both
are refused as soon as they pass the limit, with the cause named.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import orjson

from agentic_core.common.gc_control import gc_paused
from agentic_core.errors import DataError
from agentic_core.io.bounded_read import env_megabytes
from agentic_core.runs.payload import RunPayload

ENV_MAX_RUN_MB = "AGENTIC_MAX_RUN_MB"
DEFAULT_MAX_RUN_MB = 1024
_MB = 1024 * 1024
_STEP = 16 * _MB


def max_run_mb() -> int:
    """The limit of a run document once decompressed, in MB: 1024, or ``$AGENTIC_MAX_RUN_MB``."""
    return env_megabytes(ENV_MAX_RUN_MB, DEFAULT_MAX_RUN_MB)


def read_run_file(path: Path) -> bytes:
    """A run file's bytes, reading no more than the per-file limit (``$AGENTIC_MAX_UPLOAD_MB``) allows.

    Raises:
        DataError: the file cannot be read, or is larger than the limit.
    """
    from agentic_core.io.uploads import ENV_MAX_UPLOAD_MB, max_upload_mb

    limit = max_upload_mb() * _MB
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)  # one byte past the limit tells "too large" from "exactly the limit"
    except OSError as exc:
        raise DataError(
            str(path), "cannot be read", exc.strerror, "give the path of a file written by 'runs export'"
        ) from None
    if len(data) > limit:
        raise DataError(
            str(path), f"is larger than the run file limit of {limit // _MB} MB (read up to the limit, then stopped)",
            None, f"give a run file written by 'runs export', or raise {ENV_MAX_UPLOAD_MB}", show=False,
        )
    return data


def expand_run_file(data: bytes, place: str) -> bytes | bytearray:
    """A run file's JSON text: gunzipped with the expanded size bounded (``$AGENTIC_MAX_RUN_MB``).

    Content that is not gzip is returned as it is (a run document saved uncompressed).

    Raises:
        DataError: a damaged or truncated gzip stream, or one expanding past the limit.
    """
    if data[:2] != b"\x1f\x8b":
        return data
    limit = max_run_mb() * _MB
    inflater = zlib.decompressobj(wbits=31)  # 31: the gzip container
    raw = bytearray()
    pending = data
    try:
        # In steps, so a bomb is stopped one step past the limit: one call with the limit as its
        # bound grew its buffer by doubling, twice the limit in memory before refusing.
        while not inflater.eof and len(raw) <= limit:
            chunk = inflater.decompress(pending, _STEP)
            pending = inflater.unconsumed_tail
            if not chunk and not pending:
                break  # no input left and no output: the stream ends early (said below)
            raw += chunk
    except zlib.error as exc:
        raise DataError(
            place, "is not a run file (a damaged gzip stream)", str(exc)[:120], "export the run again"
        ) from None
    if len(raw) > limit:
        raise DataError(
            place, f"expands past the run document limit of {limit // _MB} MB (decompression stopped there)", None,
            f"if it is a real run, raise {ENV_MAX_RUN_MB}; otherwise it is not a run file (export the run again)",
            show=False,
        )
    if not inflater.eof:
        raise DataError(place, "is truncated (the gzip stream ends early)", None, "export the run again", show=False)
    return raw


RUN_FILE_SUFFIX = ".agentic-run.json.gz"
"""How a run file is named (``runs export``, ``evaluate --out``); the History page imports it."""


def run_file_bytes(payload: RunPayload) -> bytes:
    """A run document as a run file's content (gzip-compressed JSON, reproducible bytes)."""
    import gzip

    with gc_paused():  # see packing.py
        return gzip.compress(orjson.dumps(payload.model_dump(mode="json")), 6, mtime=0)
