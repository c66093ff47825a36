"""Files written whole or not at all: a temporary file in the same folder, flushed to disk, then renamed.

A full disk or a crash while writing ``--out`` would otherwise leave a half-written CSV that looks like
a result. ``os.replace`` within one folder is atomic on POSIX and Windows, so a reader sees the old
file or the new one, never a part; the temporary file is removed when anything fails.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path

from agentic_core.errors import AgenticError


class OutputError(AgenticError):
    """A requested output file could not be written (full disk, no permission, not a folder)."""


def _fix_for(exc: OSError) -> str:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "free some disk space, or choose a folder on another disk"
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "choose a folder you can write to"
    return "choose a writable folder"


def write_atomic(path: Path, data: bytes, place: str = "--out") -> Path:
    """Write ``data`` to ``path`` so that the file is either complete or untouched.

    Args:
        path: The file to write (its folder is created).
        data: The whole content.
        place: The option or setting that named the file, for the error message.

    Returns:
        ``path``.

    Raises:
        OutputError: the folder or the file cannot be written; no partial file is left behind.
    """
    target = Path(path)
    path = Path(os.path.realpath(target))  # the file a symbolic link points to is replaced, not the link
    tmp: str | None = None
    try:
        if path.exists() and not path.is_file():
            # A device or a pipe (/dev/stdout, a FIFO) cannot be swapped by a rename: it is written in place.
            with path.open("wb") as handle:
                handle.write(data)
            return target
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())  # on disk before the rename makes it visible
        # mkstemp makes the file private (0600); an output file keeps the mode it had, else the usual 0644.
        os.chmod(tmp, path.stat().st_mode & 0o7777 if path.exists() else 0o644)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise OutputError(
            place, f"could not be written to {target} ({exc.strerror or exc})", None, _fix_for(exc), show=False
        ) from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return target
