"""The Ray engine gives the local engine's result, number for number, with its per-record work on Ray.

One local Ray (2 CPUs, no dashboard, a small object store) serves the whole module. Nothing touches
the network: the LLM judge talks to a fake chat model that travels to the workers pickled.
"""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from agentic_core.cli import main
from agentic_core.columnar.columns import columns_of
from agentic_core.engines.ray_columns import columns_on_ray
from agentic_core.engines.ray_judge import RayJudge
from agentic_core.evaluate import aggregate, evaluate
from agentic_core.io.loader import load_paths
from agentic_core.io.samples import load_sample
from agentic_core.judges.cache import JudgeCache
from agentic_core.judges.llm.judge import LLMJudge
from agentic_core.judges.monitor import RunCancelled, RunMonitor
from agentic_core.report import summary
from agentic_core.result import EvaluationResult
from agentic_core.settings import make_settings
from tests.fakes import FakeJudge, LatencyChatModel, OpenAIStandIn, judgement_json, llm_judge_over

# Ray is optional (requirements-ray.txt): without it this module is skipped, not an error
# (tests/engines/test_ray_missing.py covers that case).
ray = pytest.importorskip("ray", reason="the Ray engine's tests need Ray (pip install -r requirements-ray.txt)")

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "sample_data" / "seed_examples.json"
SUPPORT = ROOT / "sample_data" / "support_bot_attempts.jsonl"
TRAVEL = ROOT / "sample_data" / "travel_agent.jsonl"


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    """A local Ray of 2 CPUs for this module (the engine joins it instead of starting its own)."""
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        object_store_memory=300 * 1024 * 1024,
        logging_level=logging.ERROR,
        log_to_driver=False,
    )
    yield
    ray.shutdown()


SETTINGS = [
    make_settings(),
    make_settings(k=3, unit="conversation", mode="frequentist", threshold=0.6),
    make_settings(
        mode="bayesian", target="these-tasks", seed=7, require_tool_correctness=True, unscored_as_incorrect=True
    ),
]


def _doc(result: EvaluationResult, settings: Any) -> dict[str, Any]:
    doc = summary(result, aggregate(result, settings))
    return json.loads(json.dumps(doc, default=str))


def assert_same(local: EvaluationResult, on_ray: EvaluationResult) -> None:
    """Every table, verdict, tool component and aggregate number of the two results is equal."""
    pd.testing.assert_frame_equal(local.interactions, on_ray.interactions)
    assert local.tool_components == on_ray.tool_components
    assert list(local.conversations) == list(on_ray.conversations)
    assert local.recommended_threshold == on_ray.recommended_threshold
    assert local.task_keys == on_ray.task_keys and local.session_ids == on_ray.session_ids
    np.testing.assert_array_equal(local.conv_index, on_ray.conv_index)
    np.testing.assert_array_equal(local.task_codes, on_ray.task_codes)
    assert local.tool_arrays.keys() == on_ray.tool_arrays.keys()
    for name, values in local.tool_arrays.items():
        np.testing.assert_array_equal(values, on_ray.tool_arrays[name])
    a, b = local.judge_run, on_ray.judge_run
    assert a.identity == b.identity
    assert [(v.score, v.status, v.reasoning, v.error) for v in a.verdicts] == [
        (v.score, v.status, v.reasoning, v.error) for v in b.verdicts
    ]
    for field in ("counts", "cache_hits", "cache_misses", "model_calls", "duplicates", "retries", "reasks",
                  "input_tokens", "output_tokens", "cache_mode"):
        assert getattr(a, field) == getattr(b, field), field
    assert (local.load_report is None) == (on_ray.load_report is None)
    if local.load_report is not None and on_ray.load_report is not None:
        assert local.load_report.issues == on_ray.load_report.issues
        assert local.load_report.skipped == on_ray.load_report.skipped
    for settings in SETTINGS:
        assert _doc(local, settings) == _doc(on_ray, settings)


@pytest.mark.parametrize("data", [SEEDS, SUPPORT, TRAVEL], ids=lambda p: p.stem)
def test_the_samples_under_the_dataset_judge_match_the_local_engine(data: Path) -> None:
    local = evaluate(data, "dataset", cache_mode="off")
    on_ray = evaluate(data, "dataset", cache_mode="off", engine="ray")
    assert_same(local, on_ray)


@pytest.mark.parametrize(("judge", "data"), [("lexical", TRAVEL), ("hybrid", SEEDS)])
def test_offline_judges_match_the_local_engine(judge: str, data: Path) -> None:
    loaded = load_paths([data])
    assert_same(evaluate(loaded, judge, cache_mode="off"), evaluate(loaded, judge, cache_mode="off", engine="ray"))


def test_agentic_metrics_are_the_local_engines(tmp_path: Path) -> None:
    local = evaluate(TRAVEL, "lexical", cache=JudgeCache(tmp_path / "a.sqlite3"), metrics="all")
    on_ray = evaluate(TRAVEL, "lexical", cache=JudgeCache(tmp_path / "b.sqlite3"), metrics="all", engine="ray")
    assert local.agentic is not None and on_ray.agentic is not None
    timeless = {"elapsed_s": 0.0}
    assert on_ray.agentic.model_copy(update=timeless) == local.agentic.model_copy(update=timeless)
    assert_same(local, on_ray)


def test_conversations_in_memory_get_their_columns_and_tool_scores_on_ray() -> None:
    conversations = list(load_sample("support").conversations)
    built = columns_on_ray(ray, conversations)
    expected = columns_of(conversations)
    assert built.tool_components == expected.tool_components
    np.testing.assert_array_equal(built.sizes, expected.sizes)
    for name, column in expected.texts.items():
        assert built.texts[name].to_pylist() == column.to_pylist()
    local = evaluate(conversations, "lexical", cache_mode="off")
    on_ray = evaluate(conversations, "lexical", cache_mode="off", engine="ray")
    assert on_ray.load_report is None
    assert_same(local, on_ray)


def scored_reply(prompt: str) -> str:
    """A fake LLM's reply whose score depends on the prompt (module level: workers unpickle it).

    The prompt's fence code is drawn afresh for every call, so it is left out of what the score reads.
    """
    text = re.sub(r"[0-9a-f]{16,}", "", prompt)
    return judgement_json(round((sum(map(ord, text)) % 101) / 100, 2), f"fake grade of {len(text)} chars")


def fake_llm_judge() -> LLMJudge:
    """An LLM judge over a fake chat model (picklable, so it travels to the workers as it is)."""
    model = LatencyChatModel(latency_s=0.0, reply=scored_reply, usage=(50, 10))
    return llm_judge_over(model, concurrency=3)


def test_an_llm_judge_object_is_pickled_to_the_workers_with_the_same_verdicts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped: list[int] = []
    to_ray = RayJudge.dataset

    def spy(self: RayJudge, items: Any) -> Any:
        shipped.append(len(items))
        return to_ray(self, items)

    monkeypatch.setattr(RayJudge, "dataset", spy)
    local = evaluate(SEEDS, fake_llm_judge(), cache=JudgeCache(tmp_path / "a.sqlite3"))
    on_ray = evaluate(SEEDS, fake_llm_judge(), cache=JudgeCache(tmp_path / "b.sqlite3"), engine="ray")
    assert shipped == [on_ray.judge_run.model_calls] and on_ray.judge_run.input_tokens > 0
    assert_same(local, on_ray)


def test_an_llm_judge_by_name_is_rebuilt_on_each_worker(tmp_path: Path) -> None:
    results = []
    with OpenAIStandIn(reply=judgement_json(0.75, "Stand-in verdict.")) as server:
        options = {"provider": "openai-compatible", "model": "stand-in", "base_url": server.base_url,
                   "api_key": "sk-test-not-a-key", "concurrency": 2}
        for engine in ("local", "ray"):
            before = server.requests
            cache = JudgeCache(tmp_path / f"{engine}.sqlite3")
            results.append(evaluate(SEEDS, "llm", cache=cache, engine=engine, **options))
            assert server.requests - before == results[-1].judge_run.model_calls > 0
    assert_same(*results)


def test_a_custom_judge_with_a_lambda_travels_by_value() -> None:
    def judge() -> FakeJudge:
        return FakeJudge(lambda item: round(len(item.answer) % 11 / 10, 1) or None, kind="custom")

    local = evaluate(SUPPORT, judge(), cache_mode="off")
    on_ray = evaluate(SUPPORT, judge(), cache_mode="off", engine="ray")
    assert 0 < on_ray.judge_run.counts["failed"] < on_ray.n_interactions  # None scores: failed verdicts
    assert_same(local, on_ray)


def test_the_cache_is_read_and_written_on_the_driver(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    local = evaluate(TRAVEL, fake_llm_judge(), cache=JudgeCache(tmp_path / "local.sqlite3"))
    cache = JudgeCache(tmp_path / "ray.sqlite3")
    first = evaluate(TRAVEL, fake_llm_judge(), cache=cache, engine="ray")
    assert first.judge_run.cache_path == str(cache.path)
    assert first.judge_run.model_calls == first.judge_run.cache_misses > 0
    assert_same(local, first)

    def no_workers(self: RayJudge, items: Any) -> Any:
        raise AssertionError(f"{len(items)} item(s) sent to Ray although the cache holds every verdict")

    monkeypatch.setattr(RayJudge, "dataset", no_workers)
    again = evaluate(TRAVEL, fake_llm_judge(), cache=cache, engine="ray")
    run = again.judge_run
    assert run.model_calls == 0 and run.cache_misses == 0
    assert run.counts["cached"] == again.n_interactions
    assert run.cache_hits == first.judge_run.model_calls
    local_again = evaluate(TRAVEL, fake_llm_judge(), cache=JudgeCache(tmp_path / "local.sqlite3"))
    assert_same(local_again, again)


def test_a_cancelled_run_keeps_the_blocks_that_came_back(tmp_path: Path) -> None:
    def slow_judge() -> LLMJudge:
        model = LatencyChatModel(latency_s=0.03, reply=scored_reply)
        return llm_judge_over(model, concurrency=1)

    cache = JudgeCache(tmp_path / "cache.sqlite3")
    monitor = RunMonitor(total=load_paths([TRAVEL]).n_interactions)

    def cancel_after_a_block(done: int, total: int) -> None:
        if done >= 16:
            monitor.cancel()

    with pytest.raises(RunCancelled):
        evaluate(TRAVEL, slow_judge(), cache=cache, engine="ray", monitor=monitor, progress=cancel_after_a_block)
    rest = evaluate(TRAVEL, fake_llm_judge(), cache=cache, engine="ray")
    assert rest.judge_run.cache_hits >= 16 and rest.judge_run.model_calls > 0  # the first blocks were kept
    assert rest.judge_run.cache_hits + rest.judge_run.model_calls == rest.n_interactions - rest.judge_run.duplicates


def test_invalid_records_give_the_same_load_report(tmp_path: Path) -> None:
    records = [json.loads(line) for line in SUPPORT.read_text(encoding="utf-8").splitlines() if line.strip()]
    records[1]["conversation"][0]["score"] = "high"  # a string score: rejected with its place
    records[2]["session_id"] = records[0]["session_id"]  # a duplicate
    records[2]["assistant_id"] = records[0]["assistant_id"]
    del records[3]["conversation"][0]["query"]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n{not json\n", encoding="utf-8")
    local = evaluate(path, "dataset", cache_mode="off")
    on_ray = evaluate(path, "dataset", cache_mode="off", engine="ray")
    assert on_ray.load_report is not None and len(on_ray.load_report.skipped) >= 4
    assert_same(local, on_ray)


def test_the_cli_runs_evaluate_on_ray_with_the_same_json(tmp_path: Path) -> None:
    docs = []
    for engine in ("local", "ray"):
        out, err = io.StringIO(), io.StringIO()
        argv = ["evaluate", str(SUPPORT), "--judge", "lexical", "--json", "--no-progress", "--no-save",
                "--cache-path", str(tmp_path / f"{engine}.sqlite3"), "--engine", engine]
        assert main(argv, stdout=out, stderr=err) == 0, err.getvalue()
        docs.append(json.loads(out.getvalue()))
    local, on_ray = docs
    assert (local.pop("engine"), on_ray.pop("engine")) == ("local", "ray")
    assert local == on_ray


def test_a_large_json_lines_file_is_checked_by_ray_tasks_with_the_same_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agentic_core.engines import ray_load
    from tests.io.test_load_pieces import _file

    path = tmp_path / "big.jsonl"
    path.write_bytes(_file(0, 120))  # every kind of invalid record, duplicates across pieces
    monkeypatch.setattr(ray_load, "RAY_PIECE_BYTES", 3_000)  # cut a small file into a dozen pieces
    tasks: list[int] = []
    real_submit = ray_load._RayTasks.submit

    def counted(self: Any, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        tasks.append(1)
        return real_submit(self, fn, *args, **kwargs)

    monkeypatch.setattr(ray_load._RayTasks, "submit", counted)
    local = evaluate(path, "dataset", cache_mode="off")
    on_ray = evaluate(path, "dataset", cache_mode="off", engine="ray")
    assert len(tasks) > 10
    assert local.load_report is not None and on_ray.load_report is not None
    assert on_ray.load_report.issues == local.load_report.issues
    assert on_ray.load_report.skipped == local.load_report.skipped
    assert len(on_ray.load_report.skipped) >= 7  # bad JSON, too deep, NaN-free invalid, duplicates, blank id
    assert_same(local, on_ray)
