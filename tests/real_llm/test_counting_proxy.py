"""The counting proxy the real-server test puts in front of llama-cpp-python, checked against the stand-in's own
counts (loopback; not opt-in: it needs no model)."""

from __future__ import annotations

import time

import pytest

from agentic_core.judges.runner import run_judge_sync
from agentic_core.judges.spec import LLMSpec
from tests.fakes import make_items
from tests.judges.standin import StandInServer
from tests.real_llm.counting_proxy import CountingProxy

pytestmark = pytest.mark.timeout(60)


def test_the_proxy_counts_what_the_server_received_and_the_hang_ups() -> None:
    with StandInServer("generic", latency_s=0.3, serial=True) as server, CountingProxy(server.port) as proxy:
        fine = LLMSpec(provider="openai-compatible", model="m", base_url=proxy.base_url, timeout_s=10.0).build()
        assert run_judge_sync(fine, make_items(3), cache_mode="off").counts["ok"] == 3
        slow = LLMSpec(provider="openai-compatible", model="m", base_url=proxy.base_url, timeout_s=0.1).build()
        run = run_judge_sync(slow, make_items(1, prefix="slow"), cache_mode="off")
        assert run.counts["failed"] == 1
        while server.stats.in_flight:  # the abandoned request is worked to the end
            time.sleep(0.02)
    assert proxy.requests == server.stats.received == 4
    assert proxy.hang_ups == server.stats.abandoned == 1
