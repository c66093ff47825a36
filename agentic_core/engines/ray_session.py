"""Importing Ray (an optional dependency) and connecting to it: a local Ray, or a cluster.

``ray.init(address=None)`` starts a local Ray (or joins the one this process already runs);
``address="auto"`` joins a Ray started on this machine with ``ray start --head``;
``address="ray://host:10001"`` connects to a cluster's head through Ray Client. When Ray is already
initialised in this process (a notebook, the tests), that session is used as it is.
"""

from __future__ import annotations

import logging
from pathlib import Path
from types import ModuleType

from agentic_core.errors import JudgeConfigError

__all__ = ["RAY_INSTALL", "connect_ray", "import_ray"]

RAY_INSTALL = "pip install -r requirements-ray.txt"
"""The command that installs the Ray engine's packages."""


def import_ray() -> ModuleType:
    """The ``ray`` module, with Ray Data.

    Raises:
        JudgeConfigError: Ray (or Ray Data) is not installed; the message names the command.
    """
    try:
        import ray
        import ray.data
    except ImportError as exc:
        raise JudgeConfigError(
            "engine",
            "'ray' needs the ray[data] package, which is not installed",
            f"ray ({exc})",
            f"run `{RAY_INSTALL}`, or use --engine local",
        ) from None
    return ray


def connect_ray(address: str | None = None) -> ModuleType:
    """Ray, initialised: joined at ``address`` (``None``: a local Ray) unless this process already is.

    The project's package is shipped to the workers (``runtime_env.py_modules``), so a cluster does
    not need it installed; its Python packages (``requirements.txt``) must be.

    Args:
        address: ``None`` (start or join a local Ray), ``"auto"`` (the Ray started on this machine by
            ``ray start --head``) or ``"ray://host:10001"`` (a cluster, through Ray Client).

    Returns:
        The ``ray`` module.

    Raises:
        JudgeConfigError: Ray is not installed.
    """
    ray = import_ray()
    if not ray.is_initialized():
        package = Path(__file__).resolve().parents[1]
        ray.init(
            address=address,
            runtime_env={"py_modules": [str(package)]},
            include_dashboard=False,
            logging_level=logging.ERROR,
            log_to_driver=False,
        )
    # Ray Data reports every execution at INFO and draws progress bars: the run has its own progress.
    logging.getLogger("ray.data").setLevel(logging.WARNING)
    logging.getLogger("ray.data._internal.progress").setLevel(logging.ERROR)  # "progress bars disabled"
    context = ray.data.DataContext.get_current()
    if context.enable_progress_bars:
        context.enable_progress_bars = False
    context.print_on_execution_start = False
    return ray
