"""``serve``'s live-trace options: they reach the live path, bad ones are user errors, and a history that cannot
take live runs turns ``POST /v1/traces`` off (said on stderr) without stopping ``/run``."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from agentic_core.runs import RunStore
from tests.service.test_serve import _serve


def test_the_live_options_reach_the_live_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTIC_RUNS_PATH", str(tmp_path / "runs.sqlite3"))
    golden = tmp_path / "golden.jsonl"
    golden.write_text('{"session_id": "conv-1", "reference": "Shipped."}\n', encoding="utf-8")
    code, err, calls = _serve(["--cache", "off", "--idle-s", "2.5", "--max-pending-conversations", "7",
                               "--max-spans-per-request", "100", "--otlp-judge", "lexical", "--references", str(golden),
                               "--spool", str(tmp_path / "spool" / "s.sqlite3")], monkeypatch)
    assert code == 0
    ingest = calls["app"].state.live
    assert (ingest.config.idle_s, ingest.config.max_pending, ingest.config.max_spans_per_request) == (2.5, 7, 100)
    assert ingest.judge.identity.kind == "lexical" and ingest.references is not None
    assert ingest.spool.path == tmp_path / "spool" / "s.sqlite3"
    assert "POST /v1/traces" in err and "judged after 2.5 s without a span (by lexical)" in err
    ingest.stop()
    code, err, calls = _serve(["--cache", "off", "--no-otlp"], monkeypatch)
    assert code == 0 and calls["app"].state.live is None and "/v1/traces" not in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--idle-s", "0"], "--idle-s"),
        (["--max-pending-conversations", "0"], "--max-pending-conversations"),
        (["--references", "/nonexistent/golden.jsonl"], "reference file /nonexistent/golden.jsonl"),
    ],
)
def test_bad_live_options_are_user_errors(argv: list[str], said: str, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTIC_RUNS_PATH", str(tmp_path / "runs.sqlite3"))
    code, err, calls = _serve([*argv, "--cache", "off"], monkeypatch)
    assert code == 2 and said in err and not calls
    assert "Traceback" not in err


def test_a_read_only_history_turns_the_live_path_off_and_serves_run(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    history = tmp_path / "runs.sqlite3"
    RunStore(history)
    history.chmod(stat.S_IRUSR)
    monkeypatch.setenv("AGENTIC_RUNS_PATH", str(history))
    monkeypatch.setattr(RunStore, "__init__", _read_only(RunStore.__init__))  # root writes anything: say it is not
    code, err, calls = _serve(["--cache", "off"], monkeypatch)
    history.chmod(stat.S_IRUSR | stat.S_IWUSR)
    assert code == 0 and calls["app"].state.live is None
    assert "warning: POST /v1/traces is off" in err and "is read-only" in err
    assert "serving on http://127.0.0.1:8000 (POST /run, GET /health" in err


def _read_only(init):  # type: ignore[no-untyped-def]
    def opened(self, path=None, read_only=None):  # type: ignore[no-untyped-def]
        init(self, path, True)

    return opened
