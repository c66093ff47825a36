"""The live runs this server grows: one per ``service.name``, judge and UTC day, found again after a restart.

A live run is an ordinary stored run (:mod:`agentic_core.runs.parts`): the first batch of a service's
conversations on a day starts it, later batches are added to it. Only each run's id is kept here; which
conversation ids and spool keys a run holds is looked up in the history (``live_conversations``), so the memory
this costs does not grow with the day's traffic.
"""

from __future__ import annotations

from typing import Any

from agentic_core.judges.base import JudgeIdentity
from agentic_core.result import EvaluationResult
from agentic_core.runs.payload import LiveSource, RunMeta
from agentic_core.runs.run_tags import RunTags
from agentic_core.runs.store import RunStore, RunStoreError


def _seq(key: str) -> int:
    """The spool ``seq`` a key ends with (``name:seq``)."""
    return int(key.rpartition(":")[2])


class LiveRuns:
    """Find, start and grow live runs in a run history.

    Args:
        store: The run history.
        judge: The identity of the judge the live path uses (runs of another judge are not grown).
        picked_up: The last spool ``seq`` found at start: only conversations from spans up to it can have been
            stored already (by the server that stopped).
    """

    def __init__(self, store: RunStore, judge: JudgeIdentity, picked_up: int = 0) -> None:
        self.store = store
        self.judge = judge
        self.picked_up = picked_up
        self._ids: dict[tuple[str, str], str | None] = {}

    def _run_id(self, service: str, day: str) -> str | None:
        if (service, day) not in self._ids:
            found: RunMeta | None = next(
                (m for m in self.store.runs() if m.live is not None and (m.live.service, m.live.day) == (service, day)
                 and m.judge == self.judge), None)
            self._ids[(service, day)] = None if found is None else found.id
        return self._ids[(service, day)]

    def stored(self, service: str, day: str, keys: list[str]) -> set[str]:
        """Those of ``keys`` (conversations' spool keys) whose conversations the service's run of that day holds."""
        run_id = self._run_id(service, day)
        before = [k for k in keys if _seq(k) <= self.picked_up]  # spans from before the start, judged again
        return self.store.live_held(run_id, "source_key", before) if run_id is not None and before else set()

    def unique_ids(self, service: str, day: str, records: list[dict[str, Any]]) -> None:
        """Give each record a session id its run does not hold yet (``conv-1``, then ``conv-1 (2)``, ...).

        A conversation that goes on after it was judged (its id sent again after ``idle_s``) is judged again as a
        conversation of its own; the run never holds two conversations with one id.
        """
        run_id = self._run_id(service, day)
        if run_id is None:
            return
        bases = [str(r["session_id"]) for r in records]
        names = list(bases)
        counts = [1] * len(records)
        todo = list(range(len(records)))
        while todo:
            taken = self.store.live_held(run_id, "session_id", [names[i] for i in todo])
            todo = [i for i in todo if names[i] in taken]
            for i in todo:
                counts[i] += 1
                names[i] = f"{bases[i]} ({counts[i]})"
        for record, name in zip(records, names, strict=True):
            record["session_id"] = name

    def add(self, live: LiveSource, result: EvaluationResult, keys: list[str], tags: RunTags | None = None) -> RunMeta:
        """Add a judged batch to the service's run of the day (starting it, with ``tags``, when there is none).

        Raises:
            RunStoreError: The history cannot be written.
        """
        run_id = self._run_id(live.service, live.day)
        try:
            meta = self.store.add_live(result, live, keys, run_id, tags)
        except RunStoreError:
            if run_id is None:
                raise
            meta = self.store.add_live(result, live, keys, None, tags)  # deleted meanwhile (History): a new run
        self._ids[(live.service, live.day)] = meta.id
        return meta
