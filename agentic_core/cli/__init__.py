"""Command line: ``agentic-eval evaluate PATH [PATH ...] ...``, ``... serve``, ``... dashboard`` and the rest.

``agentic-eval`` is the console script the package installs (:func:`console_main`); ``python -m agentic_core``
is its alias, with the same subcommands.

A public contract: option names are kept stable. Bad input exits non-zero with the message
on stderr, naming the option as typed (``--k``, not the setting's field name); ``--json`` prints
exactly one JSON document on stdout.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from agentic_core.cli.parser import (
    EXIT_NOT_STORED,
    EXIT_NOTHING_SCORED,
    EXIT_OK,
    EXIT_STRICT,
    EXIT_USER_ERROR,
    build_parser,
)
from agentic_core.errors import AgenticError
from agentic_core.settings import relabel

__all__ = [
    "EXIT_NOTHING_SCORED",
    "EXIT_NOT_STORED",
    "EXIT_OK",
    "EXIT_STRICT",
    "EXIT_USER_ERROR",
    "build_parser",
    "console_main",
    "main",
]

CONSOLE_NAME = "agentic-eval"
"""The console script's name (pyproject.toml ``[project.scripts]``)."""


def main(
    argv: Sequence[str] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    prog: str = "python -m agentic_core",
) -> int:
    """Entry point; returns the process exit code.

    Args:
        argv: the arguments after the command (default: ``sys.argv[1:]``).
        stdout: where results go (default: ``sys.stdout``).
        stderr: where messages go (default: ``sys.stderr``).
        prog: the command as typed, shown in usage and help.
    """
    from agentic_core.cli.evaluate_command import run_evaluate

    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    args = build_parser(prog).parse_args(argv)
    try:
        if args.command == "evaluate":
            return run_evaluate(args, stdout, stderr)
        if args.command == "serve":
            from agentic_core.cli.serve_command import run_serve

            return run_serve(args, stderr)
        if args.command == "runs":
            from agentic_core.cli.runs_command import run_runs

            return run_runs(args, stdout, stderr)
        if args.command == "compare":
            from agentic_core.cli.compare_command import run_compare

            return run_compare(args, stdout, stderr)
        if args.command == "calibrate":
            from agentic_core.cli.calibrate_command import run_calibrate

            return run_calibrate(args, stdout, stderr)
        if args.command == "dashboard":
            from agentic_core.cli.dashboard_command import run_dashboard

            return run_dashboard(args, stderr)
        if args.command == "plan":
            from agentic_core.cli.plan_command import run_plan

            return run_plan(args, stdout, stderr)
    except AgenticError as exc:
        print(f"error: {relabel(exc, 'cli')}", file=stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        print("interrupted: judged results so far are kept in the cache", file=stderr)
        return 130
    return EXIT_USER_ERROR


def console_main() -> int:
    """The ``agentic-eval`` console script: :func:`main` with the command's own name in usage lines."""
    return main(prog=CONSOLE_NAME)
