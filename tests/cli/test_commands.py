"""Every subcommand the parser offers has its entry point, ``run_<name>`` in ``<name>_command.py``."""

from __future__ import annotations

import argparse
import inspect

from agentic_core.cli import build_parser, command


def _subcommands() -> list[str]:
    parser = build_parser("agentic-eval")
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(sub.choices)


def test_every_subcommand_has_an_entry_point_taking_args_stdout_stderr() -> None:
    names = _subcommands()
    assert {"evaluate", "serve", "runs", "compare", "calibrate", "dashboard", "plan"} <= set(names)
    for name in names:
        run = command(name)
        assert run.__name__ == f"run_{name}"
        assert list(inspect.signature(run).parameters) == ["args", "stdout", "stderr"], name
