"""Issue 40 on the command line: unscored interactions by cause on stderr and in ``--json``; calibrate's coverage.

The LLM is a loopback stand-in (no network): ``benchmarks/standin_server.py`` (one request at a time, working
abandoned requests to the end) or the stdlib stand-ins of ``tests/fakes.py`` and ``tests/echo_server.py``.
"""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import pytest

from agentic_core.cli import EXIT_NOTHING_SCORED, EXIT_OK, main
from tests.cascade_fakes import UNSURE, cascade_dataset, use_abstaining_default
from tests.echo_server import EchoJudgeServer, last_user_text
from tests.fakes import OpenAIStandIn, judgement_json
from tests.judges.standin import StandInServer

pytestmark = pytest.mark.timeout(120)


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _data(path: Path, answers: list[str], labels: list[int] | None = None) -> Path:
    turns: list[dict[str, Any]] = [
        {"qa_id": f"q{i}", "query": f"What is {i} + 1?", "assistant": answer, "ground_truth_assistant": f"{i + 1}"}
        for i, answer in enumerate(answers)
    ]
    for turn, label in zip(turns, labels or [], strict=False):
        turn["human_label"] = label
    path.write_text(json.dumps([{"session_id": "s1", "assistant_id": "a1", "conversation": turns}]))
    return path


def _llm(base_url: str, *extra: str) -> list[str]:
    return ["--judge", "llm", "--provider", "openai-compatible", "--model", "local", "--base-url", base_url,
            "--cache", "off", "--no-progress", *extra]  # fmt: skip


def test_a_run_whose_calls_all_time_out_says_so_naming_the_timeout(tmp_path: Path) -> None:
    # 0.8 s a reply, a 0.3 s timeout given: the call times out alone, and is not retried (a retry would take
    # as long, behind the abandoned one). No reply at all: the suggestion is twice the timeout.
    data = _data(tmp_path / "d.json", ["It is 1."])
    with StandInServer("generic", latency_s=0.8, serial=True) as server:
        code, _, err = _run("evaluate", str(data), *_llm(server.base_url, "--timeout", "0.3", "--no-save"))
        received = server.stats.received
    assert code == EXIT_NOTHING_SCORED and received == 1, err
    assert "nothing could be scored: the judge failed on all 1 interaction(s): 1 timed out after 0.3 s " \
        "(no call was answered within 0.3 s; try --timeout 0.6 or --concurrency 1)" in err  # fmt: skip
    assert "not retried: it was alone on the server" in err


def test_some_timed_out_the_summary_and_json_count_them_by_cause(tmp_path: Path) -> None:
    # One answer makes the (threaded) server slow: 3 s, past the 0.6 s timeout given, even after its retry.
    def reply(body: dict[str, Any], authorization: str) -> str:
        if "SLOW" in last_user_text(body):
            time.sleep(3)
        return judgement_json(0.9, "Same key facts as the ground truth.")

    data = _data(tmp_path / "d.json", ["It is 1.", "SLOW it is 2.", "It is 3."])
    with EchoJudgeServer(reply) as server:
        code, out, err = _run("evaluate", str(data), *_llm(server.base_url, "--timeout", "0.6", "--no-save", "--json"))
    assert code == EXIT_OK, err
    doc = json.loads(out)
    assert doc["unscored_causes"]["timed_out"] == 1 and sum(doc["unscored_causes"].values()) == 1
    assert doc["unscored_summary"].startswith("1 unscored: 1 timed out after 0.6 s (the server answered the first call")
    assert doc["llm_calls"]["timeout_explicit"] is True and doc["llm_calls"]["timeout_s"] == 0.6
    line = next(line for line in err.splitlines() if "unscored by the judge" in line)
    assert line.startswith("1 interaction(s) unscored by the judge (excluded): 1 timed out after 0.6 s")
    assert "try --timeout" in line and "judge_error" in line


def test_a_cascade_whose_llm_failed_on_everything_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_abstaining_default(monkeypatch)
    data = tmp_path / "cascade.json"
    data.write_text(json.dumps(cascade_dataset(n_sure=4, n_unsure=2)))
    with OpenAIStandIn(status=401) as server:
        code, out, err = _run("evaluate", str(data), "--judge", "cascade", "--provider", "openai-compatible",
                              "--model", "m", "--base-url", server.base_url, "--cache", "off", "--no-progress",
                              "--no-save", "--json")  # fmt: skip
    assert code == EXIT_OK, err  # the offline judge scored 4: not "nothing scored", but the fault is named
    assert "warning: the LLM judge scored none of the 2 interaction(s) the offline judge sent it: 2 rejected by " \
        "the server (HTTP 4xx" in err  # fmt: skip
    assert json.loads(out)["unscored_causes"]["rejected"] == 2


def test_calibrate_says_what_it_used_and_left_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The learned judge on the labelled sample abstains on some pairs; the counts must add up, and match
    # the run's own verdicts (an independent count below).
    from agentic_core import evaluate
    from agentic_core.io.samples import SAMPLES

    path = SAMPLES["labelled"].path
    code, out, err = _run("calibrate", str(path), "--judge", "learned", "--cache", "off", "--no-progress", "--json")
    assert code == EXIT_OK, err
    doc = json.loads(out)
    result = evaluate(path, "learned", cache_mode="off")
    frame = result.interactions
    labelled = frame["human_label"].notna() if "human_label" in frame else None
    uncertain = int((frame["judge_status"] == "uncertain").sum()) if labelled is None else int(
        ((frame["judge_status"] == "uncertain") & labelled).sum()
    )
    assert doc["labelled"] == doc["scored"] + doc["unscored"] and doc["scored"] == doc["n_labelled"]
    assert doc["unscored_causes"]["uncertain"] == uncertain == doc["unscored"] > 0
    assert doc["cascade"] is None and doc["llm_agreement"] is None
    code, text, _ = _run("calibrate", str(path), "--judge", "learned", "--cache", "off", "--no-progress")
    assert f"labelled: {doc['labelled']} interactions with a human verdict; {doc['scored']} scored by the judge" in text
    assert f"{doc['unscored']} unscored and left out: {uncertain} uncertain (the judge abstained)" in text


def test_calibrate_of_the_cascade_gives_the_llms_own_agreement(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 4 answers the offline judge is sure of (right, labelled correct), 4 it abstains on, labelled 1, 1, 0, 0.
    # The LLM stand-in scores every one 0.85, a pass at the threshold 0.7: on its 4 items it agrees with people
    # on the 2 labelled correct. Confusion tp 2, fp 2, fn 0, tn 0: accuracy 2/4 = 0.5; kappa (Cohen 1960):
    # p_o = 0.5, p_e = (4 x 2 + 0 x 2) / 16 = 0.5, so (0.5 - 0.5) / (1 - 0.5) = 0.
    use_abstaining_default(monkeypatch)
    records = cascade_dataset(n_sure=4, n_unsure=4)
    for record, label in zip(records, [1, 1, 1, 1, 1, 1, 0, 0], strict=True):
        record["conversation"][0]["human_label"] = label
    data = tmp_path / "labelled_cascade.json"
    data.write_text(json.dumps(records))
    with OpenAIStandIn() as server:
        code, out, err = _run("calibrate", str(data), "--judge", "cascade", "--provider", "openai-compatible",
                              "--model", "m", "--base-url", server.base_url, "--cache", "off", "--no-progress",
                              "--json")  # fmt: skip
    assert code == EXIT_OK, err
    doc = json.loads(out)
    assert server.requests == 4 and sum(UNSURE in r["conversation"][0]["assistant"] for r in records) == 4
    assert (doc["cascade"]["decided_offline"], doc["cascade"]["sent_to_llm"], doc["cascade"]["llm_failed"]) == (4, 4, 0)
    agreement = doc["llm_agreement"]
    assert agreement["scored"] == 4 and agreement["accuracy"] == 0.5 and agreement["kappa"] == 0.0
    assert (doc["labelled"], doc["scored"], doc["unscored"]) == (8, 8, 0)
