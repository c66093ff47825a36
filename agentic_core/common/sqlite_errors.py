"""What an SQLite (or file-system) failure means, in one classifier the run history and the judge cache share.

Each caller keeps its own words (the place it names and the fix it proposes); only the reading of the error
lives here, so a new SQLite result code or message is learned once.
"""

from __future__ import annotations

import errno
from typing import Literal

SqliteFailure = Literal["damaged", "full", "read_only", "cannot_open", "busy", "other"]
"""What went wrong: the file is damaged or not a database, the disk is full, the file (or its folder) cannot be
written, it cannot be opened or created there, another connection holds a lock, or something else."""

# SQLite's primary result codes (https://sqlite.org/rescode.html) and what each means here.
_BY_CODE: dict[int, SqliteFailure] = {
    5: "busy",  # SQLITE_BUSY
    6: "busy",  # SQLITE_LOCKED
    8: "read_only",  # SQLITE_READONLY
    11: "damaged",  # SQLITE_CORRUPT
    13: "full",  # SQLITE_FULL
    14: "cannot_open",  # SQLITE_CANTOPEN
    26: "damaged",  # SQLITE_NOTADB
}

# Errors that name a missing or unreachable place: the file cannot be opened or created there.
_CANNOT_OPEN_ERRNOS = (errno.ENOENT, errno.ENOTDIR)


def primary_code(exc: BaseException) -> int | None:
    """The primary SQLite result code of an error (``None`` when it has none: another error, or Python < 3.11).

    Args:
        exc: Any exception.

    Returns:
        The code's low byte (extended result codes keep the primary code there), or ``None``.
    """
    code = getattr(exc, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def sqlite_failure(exc: BaseException) -> SqliteFailure:
    """Classify an SQLite or file-system error by its result code, else by its errno, type and message.

    The code decides when SQLite gives one this module knows; the message is the fallback because older
    Pythons do not carry the code and the callers also classify their own errors (a malformed row, a full disk).

    Args:
        exc: The error raised while opening, reading or writing an SQLite file.

    Returns:
        What the error means (see :data:`SqliteFailure`).
    """
    code = primary_code(exc)
    if code is not None and code in _BY_CODE:
        return _BY_CODE[code]
    number = getattr(exc, "errno", None)
    if isinstance(exc, OSError):
        # A file-system error: its errno and type decide. Its text names the path, and words in a folder's
        # name ("/srv/fullstack", "corrupted-backups") must never classify it.
        if number == errno.ENOSPC:
            return "full"
        if isinstance(exc, PermissionError) or number in (errno.EACCES, errno.EPERM, errno.EROFS):
            return "read_only"  # a read-only file system too: it can be read, never written
        if number in _CANNOT_OPEN_ERRNOS or isinstance(exc, (FileNotFoundError, NotADirectoryError)):
            return "cannot_open"
    # Without a known code (Pythons before 3.11, the callers' own errors) the errno, the type and the message
    # decide, in this order: a message naming two failures is read as the first. Of a file-system error only
    # its description is read, never its path.
    text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    lowered = text.lower()
    if _names(lowered, "malformed", "not a database", "corrupt"):
        return "damaged"
    if "full" in lowered or number == errno.ENOSPC:
        return "full"
    if _names(lowered, "readonly", "read-only") or isinstance(exc, PermissionError):
        return "read_only"
    if "unable to open" in lowered or number in _CANNOT_OPEN_ERRNOS:
        return "cannot_open"
    if _names(lowered, "locked", "busy"):
        return "busy"
    return "other"


def _names(message: str, *words: str) -> bool:
    return any(word in message for word in words)
