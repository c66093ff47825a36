"""The live runs this server grows: one per ``service.name``, judge and UTC day, found again after a restart.

A live run is an ordinary stored run (:mod:`agentic_core.runs.parts`): the first batch of a service's
conversations on a day starts it, later batches are added to it. What is known of each run is kept here (its id,
its conversations' session ids, the keys of the batches it holds), read from the history once per run and
process, so adding a batch never reads the run again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agentic_core.judges.base import JudgeIdentity
from agentic_core.result import EvaluationResult
from agentic_core.runs.payload import LiveSource, RunMeta
from agentic_core.runs.store import RunStore, RunStoreError


@dataclass
class _Known:
    """A live run as this process knows it."""

    run_id: str | None  # None: not in the history yet (its first batch starts it)
    sessions: set[str] = field(default_factory=set)
    batches: set[str] = field(default_factory=set)


class LiveRuns:
    """Find, start and grow live runs in a run history.

    Args:
        store: The run history.
        judge: The identity of the judge the live path uses (runs of another judge are not grown).
    """

    def __init__(self, store: RunStore, judge: JudgeIdentity) -> None:
        self.store = store
        self.judge = judge
        self._known: dict[tuple[str, str], _Known] = {}

    def _find(self, service: str, day: str) -> _Known:
        known = self._known.get((service, day))
        if known is not None:
            return known
        found: RunMeta | None = next(
            (m for m in self.store.runs() if m.live is not None and (m.live.service, m.live.day) == (service, day)
             and m.judge == self.judge), None)
        known = _Known(None if found is None else found.id)
        if found is not None:
            payload = self.store.payload(found.id)
            known.sessions = {str(c.get("session_id")) for c in payload.conversations}
            known.batches = self.store.live_batches(found.id)
        self._known[(service, day)] = known
        return known

    def stored(self, service: str, day: str, keys: list[str]) -> set[str]:
        """Those of ``keys`` (buckets' keys) whose conversations the service's run of that day already holds."""
        return self._find(service, day).batches.intersection(keys)

    def unique_ids(self, service: str, day: str, records: list[dict[str, Any]]) -> None:
        """Give each record a session id its run does not hold yet (``conv-1``, then ``conv-1 (2)``, ...).

        A conversation that goes on after it was judged (its id sent again after ``idle_s``) is judged again as a
        conversation of its own; the run never holds two conversations with one id.
        """
        taken = self._find(service, day).sessions
        for record in records:
            base = str(record["session_id"])
            name, n = base, 1
            while name in taken:
                n += 1
                name = f"{base} ({n})"
            record["session_id"] = name
            taken.add(name)

    def add(self, live: LiveSource, result: EvaluationResult, keys: list[str]) -> RunMeta:
        """Add a judged batch to the service's run of the day (starting it when there is none).

        Raises:
            RunStoreError: The history cannot be written.
        """
        known = self._find(live.service, live.day)
        batch = " ".join(keys)
        try:
            meta = self.store.add_live(result, live, batch, known.run_id)
        except RunStoreError:
            if known.run_id is None:
                raise
            known.run_id = None  # deleted meanwhile (History's Delete): the batch starts a new run
            meta = self.store.add_live(result, live, batch, None)
        known.run_id = meta.id
        known.batches.update(keys)
        return meta
