"""A real Streamlit runtime, no web server, for tests/ui/test_streamlit_internals.py.

Run in a child process: ``python -m tests.ui.streamlit_runtime_probe``.
Streamlit's runtime is a process-wide singleton, so it is started here and not in the test process
(where AppTest runs scripts). One browser session connects and disconnects; its kept session
expires (a 1-second time to live) and the sweep must shut it down and empty it through
:mod:`ui.streamlit_internals`. Prints one JSON object with what it saw.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

from streamlit.runtime import Runtime, RuntimeConfig
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.runtime.memory_session_storage import MemorySessionStorage
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager

from ui import streamlit_internals as internals
from ui.housekeeping import SessionSweeper

TTL_S = 1


class Browser:
    """A connected browser, as far as the runtime needs one (it receives messages)."""

    def write_forward_msg(self, msg: Any) -> None:
        pass


def main() -> None:
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    seen: dict[str, Any] = {"runtime_before_start": internals.on_event_loop(lambda manager: "ran")}
    config = RuntimeConfig(
        script_path=str(Path(__file__).resolve().parents[2] / "dashboard.py"),
        media_file_storage=MemoryMediaFileStorage("/media"),
        uploaded_file_manager=MemoryUploadedFileManager("/upload"),
        session_storage=MemorySessionStorage(ttl_seconds=TTL_S),
    )
    rt = Runtime(config)
    asyncio.run_coroutine_threadsafe(rt.start(), loop).result(30)
    browser: Any = Browser()
    session_id: Any = internals.on_event_loop(
        lambda manager: rt.connect_session(client=browser, user_info={}, existing_session_id=None)
    )
    sweeper = SessionSweeper()
    seen["active"] = internals.on_event_loop(lambda manager: sorted(internals.active_session_ids(manager)))
    seen["closed_while_connected"] = internals.on_event_loop(sweeper.sweep)
    internals.on_event_loop(lambda manager: rt.disconnect_session(session_id))
    seen["closed_while_kept"] = internals.on_event_loop(sweeper.sweep)
    seen["kept"] = list(sweeper.kept) == [session_id]
    session = sweeper.kept[session_id]
    state = internals.session_state(session)
    assert state is not None
    state["run"] = "a large run"  # type: ignore[index]
    seen["state_before"] = sorted(state)
    time.sleep(TTL_S + 0.3)
    seen["closed_after_expiry"] = internals.on_event_loop(sweeper.sweep)
    seen["state_after"] = sorted(internals.session_state(session) or {})
    seen["session_state_after"] = type(session._state).__name__ + "." + session._state.name
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
