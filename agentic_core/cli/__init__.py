"""Command line: ``agentic-eval evaluate PATH [PATH ...] ...``, ``... serve``, ``... dashboard`` and the rest.

``agentic-eval`` is the console script the package installs (:func:`console_main`); ``python -m agentic_core``
is its alias, with the same subcommands.

A public contract: option names are kept stable. Bad input exits non-zero with the message
on stderr, naming the option as typed (``--k``, not the setting's field name); ``--json`` prints
exactly one JSON document on stdout.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Protocol, TextIO, cast

from agentic_core.cli.parser import (
    EXIT_NOT_STORED,
    EXIT_NOTHING_SCORED,
    EXIT_OK,
    EXIT_STRICT,
    EXIT_USER_ERROR,
    build_parser,
)
from agentic_core.cli.reproduce import cli_command
from agentic_core.errors import AgenticError
from agentic_core.settings import relabel

__all__ = [
    "EXIT_NOTHING_SCORED",
    "EXIT_NOT_STORED",
    "EXIT_OK",
    "EXIT_STRICT",
    "EXIT_USER_ERROR",
    "build_parser",
    "cli_command",
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
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    args = build_parser(prog).parse_args(argv)
    try:
        return command(args.command)(args, stdout, stderr)
    except AgenticError as exc:
        print(f"error: {relabel(exc, 'cli')}", file=stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        print("interrupted: judged results so far are kept in the cache", file=stderr)
        return 130


class Command(Protocol):
    """A subcommand: ``run_<name>(args, stdout, stderr)`` in ``agentic_core/cli/<name>_command.py``."""

    def __call__(self, args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int: ...


def command(name: str) -> Command:
    """The subcommand ``name``'s entry point, imported only when it runs.

    Each command pulls in its own dependencies (the server, the planner, Streamlit's launcher), so
    ``--help`` and one command do not load the others. tests/cli/test_commands.py checks that every
    subcommand of the parser has its module and function.
    """
    module = importlib.import_module(f"agentic_core.cli.{name}_command")
    return cast(Command, getattr(module, f"run_{name}"))


def console_main() -> int:
    """The ``agentic-eval`` console script: :func:`main` with the command's own name in usage lines."""
    return main(prog=CONSOLE_NAME)
