"""The session sweeper shuts down what Streamlit let go of, and empties what it still holds."""

from __future__ import annotations

import types
import weakref
from typing import Any

import pytest

from ui import housekeeping
from ui.housekeeping import MODULES_KEY, SessionSweeper


class FakeState(dict[str, Any]):
    """Streamlit's SessionState, as far as the sweeper touches it."""

    def __init__(self, **values: Any) -> None:
        super().__init__(values)
        self._new_widget_state = types.SimpleNamespace(widget_metadata={"w": object()})


class FakeSession:
    def __init__(self, session_id: str, **state: Any) -> None:
        self.id = session_id
        self.shut_down = 0
        self._session_state = FakeState(**state)
        self._fragment_storage: dict[str, Any] = {"f": object()}
        self._browser_queue: list[Any] = [object()]

    def shutdown(self) -> None:
        self.shut_down += 1


class FakeCache:
    """Streamlit's TTL cache of closed sessions: ``expire()`` returns what it removed."""

    def __init__(self) -> None:
        self.live: dict[str, Any] = {}
        self.expiring: dict[str, Any] = {}

    def expire(self) -> list[tuple[str, Any]]:
        gone, self.expiring = list(self.expiring.items()), {}
        return gone

    def items(self) -> Any:
        return self.live.items()


class FakeManager:
    def __init__(self) -> None:
        self._session_storage = types.SimpleNamespace(_cache=FakeCache())
        self.active: list[FakeSession] = []

    def list_active_sessions(self) -> list[Any]:
        return [types.SimpleNamespace(session=s) for s in self.active]

    def store(self, session: FakeSession) -> None:
        self._session_storage._cache.live[session.id] = types.SimpleNamespace(session=session)


def test_an_expired_session_is_shut_down_and_emptied() -> None:
    manager, sweeper = FakeManager(), SessionSweeper()
    closed = FakeSession("a", _active_run="100k interactions")
    manager._session_storage._cache.expiring["a"] = types.SimpleNamespace(session=closed)
    assert sweeper.sweep(manager) == 1
    assert closed.shut_down == 1
    assert closed._session_state == {} and not closed._session_state._new_widget_state.widget_metadata
    assert closed._fragment_storage == {} and closed._browser_queue == []


def test_a_session_dropped_unseen_is_shut_down_but_a_reconnected_one_is_kept() -> None:
    manager, sweeper = FakeManager(), SessionSweeper()
    dropped, back = FakeSession("dropped"), FakeSession("back", _active_run="kept")
    manager.store(dropped)
    manager.store(back)
    assert sweeper.sweep(manager) == 0  # both kept for a reconnect
    # Streamlit drops "dropped" from its cache without telling; "back" reconnects.
    manager._session_storage._cache.live.clear()
    manager.active.append(back)
    assert sweeper.sweep(manager) == 1
    assert dropped.shut_down == 1
    assert back.shut_down == 0 and back._session_state == {"_active_run": "kept"}


def test_a_closed_sessions_script_modules_are_emptied() -> None:
    # The pages' globals (the run, the aggregate) live in the script run's module.
    module = types.ModuleType("__main__")
    module.run = "a 100k-interaction run"  # type: ignore[attr-defined]
    module.__file__ = "app.py"
    session = FakeSession("a", **{MODULES_KEY: [weakref.ref(module)]})
    manager, sweeper = FakeManager(), SessionSweeper()
    manager._session_storage._cache.expiring["a"] = types.SimpleNamespace(session=session)
    sweeper.sweep(manager)
    assert not hasattr(module, "run") and module.__file__ == "app.py"


def test_sweeping_can_be_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(housekeeping.ENV_SWEEP, "0")
    assert housekeeping._interval() == 0
    monkeypatch.setenv(housekeeping.ENV_SWEEP, "bad")
    assert housekeeping._interval() == housekeeping.SWEEP_SECONDS
    monkeypatch.delenv(housekeeping.ENV_SWEEP)
    assert housekeeping._interval() == housekeeping.SWEEP_SECONDS


def test_a_closed_sessions_running_evaluation_is_cancelled() -> None:
    from agentic_core.evaluation_job import EvaluationJob
    from agentic_core.io.samples import load_sample
    from tests.fakes import SlowStreamJudge
    from ui.run_job import JOB_KEY

    job = EvaluationJob(load_sample("support"), SlowStreamJudge(0.9, per_item_s=0.05), cache_mode="off").start()
    manager, sweeper = FakeManager(), SessionSweeper()
    session = FakeSession("s1", **{JOB_KEY: job})
    manager._session_storage._cache.expiring[session.id] = types.SimpleNamespace(session=session)
    assert sweeper.sweep(manager) == 1
    assert job.wait(10)
    assert job.state == "cancelled", "nobody can keep that run: its judge calls stop"
