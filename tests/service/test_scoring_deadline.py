"""Issue 36: the request deadline bounds tool scoring too, and heavy requests cannot starve a small one.

Tool use is scored while the records are loaded, before any judging: a request whose scoring takes
minutes held its worker for minutes and was answered after them. Real HTTP on loopback as the other
endpoint tests; the heavy request is one interaction with 200 used and 200 expected calls of one tool,
200 parameters each, every expected value unlike every used one (the optimal assignment compares
40,000 pairs of 200 parameters: seconds of CPU, far past the small deadlines used here).
"""

from __future__ import annotations

import concurrent.futures
import time
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from agentic_core.service import Service, ServiceConfig
from agentic_core.service.app import _Lanes, _Late
from tests.service.conftest import LiveServer

ONE_TURN = {"qa_id": "q", "query": "What is 5 + 3?", "assistant": "8", "ground_truth_assistant": "8"}
# The lexical judge: no model to load on a server that was not warmed up.
ONE_LINE = {
    "datasets": [{"session_id": "one-line", "assistant_id": "a", "conversation": [ONE_TURN]}],
    "config": {"judge": "lexical"},
}


def heavy_request(session: str = "heavy", calls: int = 200, params: int = 200) -> dict[str, Any]:
    used = [{"tool_name": "t", "parameters": {f"p{k}": i + k for k in range(params)}} for i in range(calls)]
    expected = [{"tool_name": "t", "parameters": {f"p{k}": -(i + k + 1) for k in range(params)}} for i in range(calls)]
    turn = {
        "qa_id": "q",
        "query": "Which tools?",
        "assistant": "Done.",
        "ground_truth_assistant": "Done.",
        "agentic": {"tools_used": used, "final_answer_uses_tools": True},
        "ground_truth_agentic": {"expected_tools": expected},
    }
    return {"datasets": [{"session_id": session, "assistant_id": "a", "conversation": [turn]}]}


def _config(tmp_path: Path, **values: Any) -> ServiceConfig:
    return ServiceConfig(cache_path=str(tmp_path / "judge_cache.sqlite3"), **values)


def _post(url: str, request: dict[str, Any], delay: float = 0.0) -> tuple[httpx.Response, float]:
    time.sleep(delay)
    with httpx.Client(base_url=url, timeout=120) as client:
        start = time.monotonic()
        response = client.post("/run", json=request)
        return response, time.monotonic() - start


def test_scoring_past_the_deadline_is_stopped_with_a_504_in_the_core(tmp_path: Path) -> None:
    service = Service(_config(tmp_path))
    start = time.monotonic()
    reply = service.run(heavy_request(), deadline=start + 1.0)
    elapsed = time.monotonic() - start
    assert reply.status == 504, reply.body
    problem = reply.body["errors"][0]
    assert problem["place"] == "request" and "deadline" in problem["rule"] and "tool use" in problem["rule"]
    assert "--request-deadline-s" in problem["fix"]
    assert elapsed < 1.0 + 3.0, elapsed  # was: every pair scored first (seconds past the deadline)


def test_a_request_whose_scoring_passes_the_deadline_is_answered_504_at_the_deadline(tmp_path: Path) -> None:
    deadline_s = 1.5
    with LiveServer(_config(tmp_path, request_deadline_s=deadline_s)) as server:
        response, elapsed = _post(server.url, heavy_request())
        after, _ = _post(server.url, ONE_LINE)  # the worker is free again
    assert response.status_code == 504, response.text
    problem = response.json()["errors"][0]
    assert "scoring their tool use" in problem["rule"]
    assert elapsed < deadline_s + 4.0, elapsed  # was: answered once scoring ended, seconds later
    assert after.status_code == 200, after.text


def test_heavy_requests_filling_the_offline_lane_cannot_starve_a_one_line_request(tmp_path: Path) -> None:
    # Was: eight heavy requests at once made a one-line request wait 137 s, then answered it 504.
    deadline_s = 4.0
    config = _config(tmp_path, request_deadline_s=deadline_s, offline_workers=1)
    with LiveServer(config) as server:
        assert _post(server.url, ONE_LINE)[0].status_code == 200  # imports what evaluation needs
        with concurrent.futures.ThreadPoolExecutor(3) as pool:
            # 1,000-value rules: about 20 s of scoring on a 2-core CI machine, so that even a machine several
            # times faster cannot finish one inside the deadline (at 200 values one took 3.3 s here, and a quiet
            # machine answered it 200).
            heavy = [pool.submit(_post, server.url, heavy_request(f"heavy-{i}", params=1000)) for i in range(2)]
            small = pool.submit(_post, server.url, ONE_LINE, 0.5)
            small_response, small_s = small.result()
            answers = [f.result() for f in heavy]
    # The one-line request did not wait for the heavy ones to be stopped at their deadline.
    assert small_response.status_code == 200, small_response.text
    assert small_s < deadline_s, small_s
    # Both heavy requests were answered at their deadline: the one scoring, and the one waiting for the
    # single offline worker (stopped while waiting, or at its first checkpoint once it got the worker).
    assert [r.status_code for r, _ in answers] == [504, 504]
    assert all(seconds < deadline_s + 4.0 for _, seconds in answers), answers


def test_a_request_waiting_for_a_busy_lane_is_refused_at_its_deadline() -> None:
    async def wait_for_a_busy_lane() -> float:
        lanes = _Lanes.of(ServiceConfig(offline_workers=1))
        other = object()
        await lanes.offline.acquire_on_behalf_of(other)  # another request holds the lane's only worker
        start = time.monotonic()
        with pytest.raises(_Late):
            await lanes.run(lanes.offline, start + 0.3, lambda: None)
        lanes.offline.release_on_behalf_of(other)
        assert await lanes.run(lanes.offline, time.monotonic() + 5, lambda: "ran") == "ran"  # free again
        return time.monotonic() - start

    elapsed = anyio.run(wait_for_a_busy_lane)
    assert 0.3 <= elapsed < 3.0, elapsed
