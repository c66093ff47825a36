"""Reading a data file with bounds: the size limit applies while reading, not after.

Read whole, ``/dev/zero`` never ends and a 2 GB sparse file of zeros is held in memory only to be
refused. Devices are refused before reading, the first bytes are checked for a binary format before
the rest is read, and reading stops one byte past the limit.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import IO

ENV_MAX_FILE_MB = "AGENTIC_MAX_FILE_MB"
DEFAULT_MAX_FILE_MB = 4096
_MB = 1024 * 1024
_HEAD = 64 * 1024


class UnreadableFile(Exception):
    """A data file refused before or while reading: ``what`` it is and the ``fix``."""

    def __init__(self, what: str, fix: str) -> None:
        super().__init__(what)
        self.what = what
        self.fix = fix


def env_megabytes(name: str, default: int) -> int:
    """A size limit in MB from the environment variable ``name`` (at least 1), else ``default``.

    A deployment's choice, read at each use; a value that is not a whole number keeps the default.
    """
    try:
        return max(1, int(os.environ.get(name, str(default))))
    except ValueError:
        return default


def max_file_mb() -> int:
    """The per-file limit of a data file given by path, in MB: 4096, or ``$AGENTIC_MAX_FILE_MB``."""
    return env_megabytes(ENV_MAX_FILE_MB, DEFAULT_MAX_FILE_MB)


def _not_a_regular_file(mode: int) -> str | None:
    """What a file that is not a regular file (nor a pipe, which ends) is, or ``None``."""
    if stat.S_ISCHR(mode):
        return "a character device (such as /dev/zero), not a regular file"
    if stat.S_ISBLK(mode):
        return "a block device (a disk), not a regular file"
    if stat.S_ISSOCK(mode):
        return "a socket, not a regular file"
    return None


def read_data_file(path: str | Path, limit_mb: int | None = None) -> bytes:
    """A data file's bytes, refusing devices, binary content and files past the limit early.

    Args:
        path: The file (a pipe such as ``<(zcat x.gz)`` is read too, within the limit).
        limit_mb: The limit in MB (default: :func:`max_file_mb`).

    Returns:
        The whole content.

    Raises:
        UnreadableFile: a device, a binary format seen in the first bytes, or more bytes than the limit.
        OSError: the file cannot be opened or read (the caller names the cause).
    """
    from agentic_core.io.parse import binary_format

    limit_mb = max_file_mb() if limit_mb is None else limit_mb
    limit = limit_mb * _MB
    with open(path, "rb") as handle:
        mode = os.fstat(handle.fileno()).st_mode
        kind = _not_a_regular_file(mode)
        if kind is not None:
            raise UnreadableFile(f"is {kind}", "give the path of a JSON or JSON Lines data file")
        head = handle.read(_HEAD)
        binary = binary_format(head)
        if binary is not None:
            raise UnreadableFile(*binary)
        if stat.S_ISREG(mode) and os.fstat(handle.fileno()).st_size > limit:
            size = os.fstat(handle.fileno()).st_size
            raise UnreadableFile(*_too_large(f"is {size / _MB:,.0f} MB", limit_mb))
        # One byte past the limit tells "too large" from "exactly the limit" (a pipe has no size).
        rest = handle.read(limit + 1 - len(head))
    data = head + rest
    if len(data) > limit:
        raise UnreadableFile(*_too_large("is larger than the limit (reading stopped there)", limit_mb))
    return data


def _too_large(what: str, limit_mb: int) -> tuple[str, str]:
    return (
        f"{what}: the limit per data file is {limit_mb} MB",
        f"split it into several files (JSON Lines split cleanly at line breaks), or raise {ENV_MAX_FILE_MB}",
    )


def read_at(handle: IO[bytes], offset: int, length: int) -> bytes:
    """``length`` bytes of an open file from ``offset`` (``os.pread``; a seek where there is none, as on Windows).

    Raises:
        OSError: The read failed, or the file ends before ``offset + length`` (it changed since it was scanned).
    """
    if hasattr(os, "pread"):
        data = os.pread(handle.fileno(), length, offset)
    else:  # pragma: no cover - Windows
        handle.seek(offset)
        data = handle.read(length)
    if len(data) != length:
        raise OSError(errno.EIO, "the file is shorter than when it was scanned (it changed while it was read)")
    return data
