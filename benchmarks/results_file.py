"""Benchmark scripts write their own section of ``benchmarks/RESULTS.md``.

Each section lives between two marker lines::

    <!-- results:bench_cascade start -->
    ...written by the script: command, date, machine, commit, tables...
    <!-- results:bench_cascade end -->

:func:`write_section` replaces what lies between one section's markers and leaves every other byte of the file
as it was, so hand-written prose outside the markers (interpretation, history) survives a re-run. A section whose
markers are absent is appended at the end of the file. The file is replaced atomically (a temporary file in the
same folder, then a rename), so a failure mid-write leaves the old file whole.

Scripts opt in with two flags added by :func:`add_results_arguments` (``--write-results``, off by default, so a
benchmark never edits the file by surprise, and ``--results-file PATH``) and a :class:`Recorder`, which copies
what the script prints and, when asked, writes it (its tables and their captions) or a body the script gives.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import os
import platform
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    # A script run as `python benchmarks/x.py` has only benchmarks/ on its path; the error family lives in the core.
    sys.path.insert(0, str(ROOT))

from agentic_core.errors import AgenticError  # noqa: E402

RESULTS_PATH = ROOT / "benchmarks" / "RESULTS.md"
_NAME = re.compile(r"[A-Za-z0-9_.-]+")


class ResultsFileError(AgenticError):
    """RESULTS.md cannot be updated as asked (bad section name, broken markers, ...)."""


def markers(name: str) -> tuple[str, str]:
    """The start and end marker lines of one section.

    Args:
        name: The section's name (letters, digits, ``_``, ``.`` and ``-``), usually the script's stem.

    Returns:
        The two marker lines, without their newlines.

    Raises:
        ResultsFileError: The name has other characters (they could break the HTML comment).
    """
    if not _NAME.fullmatch(name):
        raise ResultsFileError(
            "results section name",
            "only letters, digits, '_', '.' and '-' are allowed",
            name,
            "use the script's file name without .py",
        )
    return f"<!-- results:{name} start -->", f"<!-- results:{name} end -->"


def machine() -> str:
    """One line describing this machine: CPU model and count, total memory, platform and Python.

    Returns:
        For example ``"Intel(R) Xeon(R) ... x 2 CPUs, 23.4 GiB memory, Linux-6.1-x86_64, Python 3.12.3"``.
    """
    model = ""
    memory = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass  # not Linux: platform.processor() below is the best there is
    try:
        pages, size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
        memory = f"{pages * size / 2**30:.1f} GiB memory"
    except (ValueError, OSError, AttributeError):
        memory = "memory unknown"
    model = model or platform.processor() or platform.machine() or "unknown CPU"
    return (
        f"{model} x {os.cpu_count() or '?'} CPUs, {memory}, {platform.platform()}, "
        f"Python {platform.python_version()}"
    )


def commit(root: Path = ROOT) -> str:
    """The checkout's short commit hash, with ``+dirty`` when tracked files differ from it.

    Args:
        root: A folder inside the git checkout.

    Returns:
        ``"a207b19"``, ``"a207b19+dirty"``, or ``"unknown (not a git checkout)"``.
    """
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        # Untracked files (scratch data, caches) do not change what the benchmark ran, so they do not count.
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root, capture_output=True, text=True, check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return head + ("+dirty" if status.strip() else "")


def command_line(argv: list[str] | None = None) -> str:
    """The command that ran, as a reader would type it from the repository root, without the results flags.

    Args:
        argv: The arguments; ``sys.argv`` when omitted.

    Returns:
        ``"python benchmarks/bench_cascade.py --seeds 3"``, say.
    """
    raw = list(sys.argv if argv is None else argv)
    # The flags that only say where to write are left out: the command shown reproduces the figures.
    args: list[str] = []
    skip = False
    for arg in raw:
        if skip:
            skip = False
        elif arg == "--results-file":
            skip = True
        elif arg != "--write-results" and not arg.startswith("--results-file="):
            args.append(arg)
    if args:
        script = Path(args[0]).resolve()
        if script.is_relative_to(ROOT):
            args[0] = script.relative_to(ROOT).as_posix()
    return "python " + shlex.join(args)


def printed_markdown(text: str) -> str:
    """A script's printed output as markdown: its tables, with the lines that introduce and follow them.

    Benchmarks print a caption (sizes, what was timed), tables and a verdict line; all of it is kept, so figures
    printed outside the tables are recorded too. A blank line is put wherever a table starts or ends next to
    text (markdown needs it to see the table), and runs of blank lines become one.

    Args:
        text: Everything the script printed.

    Returns:
        The markdown, without leading or trailing blank lines.
    """
    out: list[str] = []
    previous = ""
    for raw in text.splitlines():
        line = raw.rstrip()
        is_table, was_table = line.lstrip().startswith("|"), previous.lstrip().startswith("|")
        if line and previous and is_table != was_table:
            out.append("")
        if line or (out and out[-1]):
            out.append(line)
        previous = line
    return "\n".join(out).strip("\n")


def render(body: str, command: str, *, now: dt.datetime | None = None, root: Path = ROOT) -> str:
    """A section's text: the command, date, machine and commit, then the body.

    Args:
        body: The figures, in markdown (usually the script's tables).
        command: The command that produced them.
        now: The time to record (UTC); now when omitted.
        root: The git checkout whose commit is recorded.

    Returns:
        The text that goes between the section's markers, ending with a blank line.
    """
    when = (now or dt.datetime.now(dt.timezone.utc)).astimezone(dt.timezone.utc)
    # Blank lines around every block: Python-Markdown (MkDocs) reads a comment line glued to a table as a row.
    header = [
        "<!-- written by the benchmark with --write-results: a re-run replaces everything up to the end marker -->",
        "",
        f"`{command}`",
        "",
        f"- date: {when:%Y-%m-%d %H:%M} UTC",
        f"- machine: {machine()}",
        f"- commit: {commit(root)}",
        "",
    ]
    return "\n".join(header) + "\n" + body.strip("\n") + "\n\n"


def replace_section(text: str, name: str, content: str, title: str | None = None) -> str:
    """The file's text with one section's content replaced (or the section appended).

    Args:
        text: The whole of RESULTS.md.
        name: The section's name (see :func:`markers`).
        content: What goes between the markers, ending with a newline.
        title: The ``##`` heading written above a section that is appended; ``name`` when omitted.

    Returns:
        The new text; outside the markers, byte for byte the old one.

    Raises:
        ResultsFileError: A marker appears more than once, only one of the two appears, or the end comes first.
    """
    start, end = markers(name)
    lines = text.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.strip() == start]
    ends = [i for i, line in enumerate(lines) if line.strip() == end]
    if not starts and not ends:
        lead = "" if not text or text.endswith("\n\n") else ("\n" if text.endswith("\n") else "\n\n")
        return f"{text}{lead}## {title or name}\n\n{start}\n{content}{end}\n"
    if len(starts) != 1 or len(ends) != 1 or starts[0] > ends[0]:
        raise ResultsFileError(
            f"RESULTS.md section {name!r}",
            f"needs exactly one {start!r} line followed by one {end!r} line",
            f"start lines {[i + 1 for i in starts]}, end lines {[i + 1 for i in ends]}",
            "fix the markers by hand (or delete both to have the section appended at the end)",
        )
    return "".join(lines[: starts[0] + 1]) + content + "".join(lines[ends[0] :])


def write_atomically(path: Path, text: str) -> None:
    """Replace a file's contents in one step: a temporary file next to it, then a rename.

    Args:
        path: The file to replace (created when absent).
        text: Its new contents.
    """
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        # The rename is the only step that touches `path`; before it, removing the temp undoes everything.
        Path(temp).unlink(missing_ok=True)
        raise


def write_section(
    name: str,
    body: str,
    *,
    command: str | None = None,
    path: Path = RESULTS_PATH,
    title: str | None = None,
) -> None:
    """Write one section of RESULTS.md: command, date, machine, commit and the figures.

    Args:
        name: The section's name (see :func:`markers`), usually the script's stem.
        body: The figures, in markdown.
        command: The command that produced them; this process's command line when omitted.
        path: The results file; ``benchmarks/RESULTS.md`` by default.
        title: The heading of a section that is appended because its markers are absent.

    Raises:
        ResultsFileError: The section's markers are broken (see :func:`replace_section`), or ``body`` is empty.
    """
    if not body.strip():
        raise ResultsFileError(
            f"RESULTS.md section {name!r}",
            "needs figures to write, and the benchmark printed nothing",
            body,
            f"check the benchmark's output; {path} was left as it was",
        )
    old = path.read_text(encoding="utf-8") if path.exists() else "# Benchmark results\n"
    content = render(body, command if command is not None else command_line())
    write_atomically(path, replace_section(old, name, content, title))


def add_results_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--write-results`` and ``--results-file`` to a benchmark's argument parser.

    Args:
        parser: The script's parser.
    """
    parser.add_argument(
        "--write-results",
        action="store_true",
        help="also write this run's tables into its section of benchmarks/RESULTS.md (off by default)",
    )
    parser.add_argument(
        "--results-file",
        type=Path,
        default=RESULTS_PATH,
        help="the results file --write-results updates (default: benchmarks/RESULTS.md)",
    )


class _Tee(io.TextIOBase):
    """Writes go to the real stream and to a buffer, so the script's output is unchanged."""

    def __init__(self, stream: TextIO, buffer: io.StringIO) -> None:
        self._stream, self._buffer = stream, buffer

    def write(self, text: str) -> int:
        self._buffer.write(text)
        return self._stream.write(text)

    def flush(self) -> None:
        self._stream.flush()

    # Libraries ask stdout for these (a progress bar checks isatty, a child process wants the descriptor).
    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._stream.encoding

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()


class Recorder:
    """Copies what a benchmark prints and, with ``--write-results``, writes its tables at the end.

    Start it right after parsing the arguments and call :meth:`finish` once the tables are printed. Without
    ``--write-results`` it does nothing at all.
    """

    def __init__(self, args: argparse.Namespace, name: str, title: str | None = None) -> None:
        self.name, self.title = name, title
        self.enabled: bool = bool(getattr(args, "write_results", False))
        self.path: Path = getattr(args, "results_file", RESULTS_PATH)
        self._buffer = io.StringIO()
        self._stdout: TextIO | None = None
        if self.enabled:
            self._stdout = sys.stdout
            sys.stdout = _Tee(sys.stdout, self._buffer)

    def finish(self, body: str | None = None) -> None:
        """Stop copying and, when enabled, write the section.

        Args:
            body: The markdown to write; what the script printed (see :func:`printed_markdown`) when omitted.
        """
        if not self.enabled:
            return
        if self._stdout is not None:
            sys.stdout = self._stdout
            self._stdout = None
        text = body if body is not None else printed_markdown(self._buffer.getvalue())
        write_section(self.name, text, path=self.path, title=self.title)
        print(f"wrote section {self.name!r} of {self.path}", file=sys.stderr)
