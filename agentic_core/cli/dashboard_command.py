"""``agentic-eval dashboard``: open the dashboard, first on the built-in sample (like ``inspect view``).

The dashboard (``app.py``, ``dashboard.py``, ``pages/``, ``ui/``) is a Streamlit app beside this package: in a
checkout it is the repository root, in an installed copy it is ``agentic_dashboard/`` next to
``agentic_core/`` (pyproject.toml maps it there without moving a file). The core never imports Streamlit, so
the server runs in a child process: ``python -P -m streamlit run <app.py>``. ``-P`` keeps the working
directory off the import path, so a folder named ``ui`` or ``pages`` where the command is typed cannot stand
in for the dashboard's own (Streamlit puts the app's folder on the path itself).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import tomllib

from agentic_core.errors import DataError

ENV_DATA = "AGENTIC_DEFAULT_DATA"
"""The dashboard's first-run data file (read by ``ui/state.py``); ``--data`` sets it for the child."""


def add_dashboard_parser(sub: Any) -> None:
    """Add the ``dashboard`` subcommand to the top-level subparsers."""
    dash = sub.add_parser(
        "dashboard",
        help="open the dashboard (Streamlit), first on the built-in sample",
        description="Serve the dashboard on http://ADDRESS:PORT and open it in a browser; the first page shows "
        "the built-in support sample already evaluated by the offline default judge (or --data). "
        "Ctrl-C stops it.",
    )
    dash.add_argument("--port", type=int, default=8501, help="port to serve on (default: 8501)")
    dash.add_argument(
        "--address", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)"
    )
    dash.add_argument("--headless", action="store_true", help="do not open a browser (servers, CI)")
    dash.add_argument(
        "--data", metavar="PATH", help="a dataset file to open first instead of the built-in sample"
    )


def dashboard_app() -> Path:
    """The dashboard's ``app.py`` that belongs with this ``agentic_core``: installed copy first, else checkout.

    Raises:
        DataError: neither location holds ``app.py`` (a copy of ``agentic_core`` without its dashboard).
    """
    root = Path(__file__).resolve().parents[2]
    for candidate in (root / "agentic_dashboard" / "app.py", root / "app.py"):
        if candidate.is_file():
            return candidate
    raise DataError(
        str(root),
        "the dashboard (agentic_dashboard/app.py, or app.py in a checkout) must be installed beside agentic_core",
        "not found",
        "reinstall the package (pip install agentic-workbench) or run from a full checkout",
    )


def config_options(app: Path) -> list[str]:
    """The settings of ``.streamlit/config.toml`` beside ``app`` as ``--section.key value`` options.

    Streamlit reads that file only from the working directory; passed as options, the dashboard runs as
    configured from any folder. Nested tables are flattened with dots, as Streamlit names its options.
    """
    path = app.parent / ".streamlit" / "config.toml"
    if not path.is_file():
        return []
    with path.open("rb") as handle:
        config = tomllib.load(handle)
    options: list[str] = []

    def walk(prefix: str, table: dict[str, Any]) -> None:
        for key, value in table.items():
            name = f"{prefix}.{key}" if prefix else key
            if isinstance(value, dict):
                walk(name, value)
            else:
                text = str(value).lower() if isinstance(value, bool) else str(value)
                options.extend((f"--{name}", text))

    walk("", config)
    return options


def streamlit_command(args: argparse.Namespace, app: Path) -> list[str]:
    """The child's command line: Streamlit on ``app`` with the shipped config, then the options given."""
    return [
        sys.executable,
        "-P",
        "-m",
        "streamlit",
        "run",
        str(app),
        *config_options(app),
        "--server.port",
        str(args.port),
        "--server.address",
        args.address,
        "--server.headless",
        "true" if args.headless else "false",
        "--browser.gatherUsageStats",
        "false",
    ]


def run_dashboard(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Run the dashboard until it stops; returns its exit code (0 after Ctrl-C).

    ``stdout`` is not written (the address goes to stderr); every command takes the same three arguments.

    Raises:
        DataError: no dashboard beside this package, or ``--data`` names no file.
    """
    app = dashboard_app()
    env = dict(os.environ)
    if args.data:
        data = Path(args.data).expanduser().resolve()
        if not data.is_file():
            raise DataError("--data", "must name an existing dataset file", args.data, "check the path")
        env[ENV_DATA] = str(data)
    print(f"dashboard: http://{args.address}:{args.port} (Ctrl-C stops it)", file=stderr)
    child = subprocess.Popen(streamlit_command(args, app), env=env)
    restore = _forward_stop_signals(child)
    try:
        return child.wait()
    except KeyboardInterrupt:
        # Ctrl-C reached the child too (same process group): let Streamlit shut down cleanly.
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.terminate()
            child.wait()
        return 0
    finally:
        restore()


def _forward_stop_signals(child: subprocess.Popen[bytes]) -> Callable[[], None]:
    """Pass SIGTERM / SIGHUP on to the server, so stopping this command never leaves Streamlit running.

    Returns the function that puts the previous handlers back. Signal handlers can only be set from the
    main thread; elsewhere (a caller's worker thread) nothing is forwarded.
    """
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    stops = [signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])

    def forward(signum: int, _frame: object) -> None:
        child.send_signal(signum)

    previous = {stop: signal.signal(stop, forward) for stop in stops}

    def restore() -> None:
        for stop, handler in previous.items():
            signal.signal(stop, handler)

    return restore
