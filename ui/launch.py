"""Preparing the dashboard's first page before the server accepts a connection.

:func:`preload` imports the heavy modules and evaluates the first-run dataset (the built-in
sample, or ``AGENTIC_DEFAULT_DATA``) into the process-wide cache every session shares, so the
first page a browser opens shows results at once instead of paying for imports, loading and
scoring. ``app.py`` calls it from its lifespan, so ``streamlit run app.py`` and ``start.sh``
(``python -m ui.launch [streamlit options]``, the same server) both start prepared.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app.py"


def preload() -> None:
    """Import the heavy modules and evaluate the first-run dataset into the shared cache."""
    start = time.perf_counter()
    # Imported here so that plotly and scipy load before serving, not on the first visit.
    import ui.charts
    import ui.controls
    from ui.state import _evaluate_first, _first_run_choice
    from ui.streamlit_internals import quiet_missing_run_context

    # Called outside a script run, the shared cache works but Streamlit warns that there is no
    # run context ("can be ignored when running in bare mode"): silence exactly that, here.
    with quiet_missing_run_context():
        name, path, judge = _first_run_choice()
        _, result = _evaluate_first(path, judge)
        # First calls pay one-time costs (plotly's lazily loaded validators, numpy/scipy code
        # paths); pay them here too. The aggregate itself is recomputed per session (settings).
        from agentic_core import aggregate

        agg = aggregate(result)
        ui.charts.curve_figure(agg.curve, agg.settings.ci_level).to_plotly_json()
    print(
        f"launch: {name}: {result.n_conversations} conversations evaluated by {result.judge_identity.label()} "
        f"in {time.perf_counter() - start:.1f}s",
        file=sys.stderr,
    )


def main(argv: list[str] | None = None) -> None:
    """Hand over to ``streamlit run app.py`` in this process (its lifespan calls :func:`preload`)."""
    from ui.streamlit_internals import run_streamlit

    run_streamlit(["run", str(APP), *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    main()
