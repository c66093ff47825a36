"""``evaluate``'s ``--engine`` and ``--ray-address``: where the per-record work runs (this process or Ray)."""

from __future__ import annotations

import argparse
from typing import TypedDict

from agentic_core.engines import DEFAULT_ENGINE, ENGINES
from agentic_core.engines.ray_session import RAY_INSTALL


def add_engine_options(ev: argparse.ArgumentParser) -> None:
    """Add ``--engine`` and ``--ray-address``."""
    e = ev.add_argument_group("engine")
    e.add_argument(
        "--engine",
        choices=list(ENGINES),
        default=DEFAULT_ENGINE,
        help="local: judge and score in this process; ray: the judge's calls and tool scoring run on Ray Data "
        "workers (the verdict cache stays here; same numbers as local; needs "
        f"`{RAY_INSTALL}`) (default: {DEFAULT_ENGINE})",
    )
    e.add_argument(
        "--ray-address",
        default=None,
        metavar="ADDRESS",
        help="with --engine ray: auto (the Ray started here by `ray start --head`) or ray://HOST:10001 (a "
        "cluster); default: start a local Ray",
    )


class EngineKeywords(TypedDict):
    """``evaluate``'s ``engine`` and ``ray_address``, by keyword."""

    engine: str
    ray_address: str | None


def engine_keywords(args: argparse.Namespace) -> EngineKeywords:
    """``evaluate``'s ``engine`` and ``ray_address`` from the options (commands without them: local)."""
    return {"engine": getattr(args, "engine", DEFAULT_ENGINE), "ray_address": getattr(args, "ray_address", None)}
