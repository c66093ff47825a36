"""``serve --store-runs``: an answered ``POST /run`` kept in the run history, never at the cost of its answer."""

from __future__ import annotations

import logging
from typing import Any

from agentic_core.errors import AgenticError
from agentic_core.runs.run_tags import RunTags

log = logging.getLogger("agentic_core.service")


def store_answered_run(result: Any, agg: Any, tags: RunTags | None, warnings: list[str]) -> str | None:
    """Store an answered request's run in the history (``serve --store-runs``); its id, or ``None`` and a warning.

    Results first: the evaluation is answered whether or not the history takes it; a history that cannot be
    written adds a warning naming why (and the fix) to the answer instead.
    """
    import sqlite3

    from agentic_core.runs import RunStore

    try:
        meta = RunStore().save(result, "POST /run", settings=agg.settings.model_dump(mode="json"), tags=tags)
    except AgenticError as exc:
        warnings.append(f"the run was not stored in the history: {exc}")
        return None
    except (OSError, sqlite3.Error) as exc:
        log.warning("storing a /run answer failed: %s: %s", type(exc).__name__, exc)
        warnings.append(
            f"the run was not stored in the history ({type(exc).__name__}: {exc}); check the history file or set "
            "AGENTIC_RUNS_PATH to another one"
        )
        return None
    return meta.id
