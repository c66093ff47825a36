"""docs/live-traces.md's five-line SDK snippet works as written: run (in a fresh interpreter, as an agent would) in
front of the scripted agent, against a server this test starts, its conversation appears in the history."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from agentic_core.live import LiveConfig
from agentic_core.runs import RunStore
from agentic_core.service import ServiceConfig
from tests.service.conftest import LiveServer

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "live-traces.md"
DOCUMENTED = "http://127.0.0.1:8000"


def snippet() -> str:
    """The page's first Python block."""
    (code,) = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)[:1]
    return str(code)


def test_the_snippet_is_five_lines_with_the_sdk_s_exporter() -> None:
    lines = snippet().strip().splitlines()
    assert len(lines) == 5
    assert "BatchSpanProcessor" in lines[-1] and f'OTLPSpanExporter(endpoint="{DOCUMENTED}/v1/traces")' in lines[-1]


def test_the_snippet_sends_an_agent_s_conversation_into_the_history(tmp_path: Path) -> None:
    live = LiveConfig(runs_path=str(tmp_path / "runs.sqlite3"), spool_path=str(tmp_path / "spool.sqlite3"),
                      judge="lexical", idle_s=0.5)
    with LiveServer(ServiceConfig(cache_path=str(tmp_path / "cache.sqlite3")), live) as server:
        # Only the address differs: the test's server listens on a free port, not 8000.
        agent = (snippet().replace(DOCUMENTED, server.url) + "\nfrom tests.io.otel_agent import run_agent\n"
                 "run_agent('current', 'conv-doc', provider=provider)\nprovider.shutdown()\n")
        env = {**os.environ, "OTEL_SERVICE_NAME": "doc-bot"}
        done = subprocess.run([sys.executable, "-c", agent], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        assert "Failed to export" not in done.stderr
        store = RunStore(tmp_path / "runs.sqlite3")
        deadline = time.monotonic() + 60
        while not store.runs():
            assert time.monotonic() < deadline, "the conversation did not reach the history"
            time.sleep(0.1)
    (meta,) = store.runs()
    assert meta.name.startswith("doc-bot · live ") and meta.n_conversations == 1 and meta.n_interactions == 2
    assert store.payload(meta.id).conversations[0]["session_id"] == "conv-doc"
