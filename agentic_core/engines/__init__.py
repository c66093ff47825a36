"""Where :func:`~agentic_core.evaluate.evaluate` runs its per-interaction work: here, or on Ray Data.

``local`` (the default) judges and scores in this process. ``ray`` hands the heavy per-record work
to Ray Data (:mod:`agentic_core.engines.ray_engine`): tool scoring and the judge's calls run on Ray
workers (one machine or a cluster), while deduplication, the verdict cache and the shipped verdict
packs stay on the driver, exactly as :func:`~agentic_core.judges.runner.run_judge` does them, so
the result is the local engine's, number for number. Ray is optional
(``pip install -r requirements-ray.txt``).
"""

from __future__ import annotations

from agentic_core.errors import SettingsError

__all__ = ["DEFAULT_ENGINE", "ENGINES", "check_engine"]

ENGINES: tuple[str, ...] = ("local", "ray")
"""The engines ``evaluate`` can run on (``--engine``)."""
DEFAULT_ENGINE = "local"


def check_engine(engine: str, ray_address: str | None = None) -> str:
    """``engine`` when it is one of :data:`ENGINES` (and a Ray address comes only with ``ray``).

    Raises:
        SettingsError: an unknown engine, or a Ray address with the local engine (it would be ignored).
    """
    if engine not in ENGINES:
        raise SettingsError("engine", f"must be one of {', '.join(ENGINES)}", engine, "use 'local' or 'ray'")
    if ray_address is not None and engine != "ray":
        raise SettingsError(
            "ray_address", "is only used by the ray engine", ray_address, "add engine='ray' (--engine ray) or drop it"
        )
    return engine
