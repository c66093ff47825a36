"""``evaluate`` (a real process) against hostile judge servers: echoed keys, one broken reply."""

from __future__ import annotations

import gzip
import json
import os
import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

from tests.echo_server import EchoJudgeServer, last_user_text

ROOT = Path(__file__).resolve().parents[2]
JUDGE_KEY = "sk-cli-judge-key-0123456789abcdef"
OTHER_KEY = "ghp-other-token-9876543210fedcba"  # an unrelated credential in the environment


def _dataset(path: Path, n: int) -> Path:
    turns = [
        {
            "qa_id": f"q{i}",
            "query": f"What is {i} + 1?",
            "assistant": f"It is {i + 1}.",
            "ground_truth_assistant": f"{i + 1}",
        }
        for i in range(n)
    ]
    path.write_text(json.dumps([{"session_id": "s1", "assistant_id": "a1", "conversation": turns}]), encoding="utf-8")
    return path


def _evaluate(tmp_path: Path, server: EchoJudgeServer, data: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "MY_JUDGE_KEY": JUDGE_KEY,
        "CI_DEPLOY_TOKEN": OTHER_KEY,
        "AGENTIC_RUNS_PATH": str(tmp_path / "runs.sqlite3"),
        "AGENTIC_CACHE_PATH": str(tmp_path / "cache.sqlite3"),
        "PYTHONIOENCODING": "utf-8",
    }
    command = [
        sys.executable,
        "-m",
        "agentic_core",
        "evaluate",
        str(data),
        "--judge",
        "llm",
        "--provider",
        "openai-compatible",
        "--model",
        "echo-judge",
        "--base-url",
        server.base_url,
        "--api-key-env",
        "MY_JUDGE_KEY",
        "--no-progress",
        *extra,
    ]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, timeout=300, check=False)


def _history_text(path: Path) -> str:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT meta, payload FROM runs").fetchall()
    assert rows
    return "\n".join(meta + zlib.decompress(payload).decode("utf-8") for meta, payload in rows)


def _files_text(folder: Path) -> str:
    texts = []
    for path in folder.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            texts.append((gzip.decompress(data) if path.suffix == ".gz" else data).decode("utf-8", "replace"))
    return "\n".join(texts)


def test_keys_echoed_by_the_judge_reach_no_output_file_history_or_cache(tmp_path: Path) -> None:
    def leak(body: dict[str, Any], authorization: str) -> str:
        return json.dumps({"score": 0.9, "reasoning": f"OK. auth={authorization} env={OTHER_KEY}"})

    data = _dataset(tmp_path / "data.json", 5)
    with EchoJudgeServer(leak) as server:
        shown = _evaluate(tmp_path, server, data, "--out", str(tmp_path / "out"))
        as_json = _evaluate(tmp_path, server, data, "--json", "--cache", "refresh")
    assert shown.returncode == 0 and as_json.returncode == 0, (shown.stderr, as_json.stderr)
    assert server.auth_headers and set(server.auth_headers) == {f"Bearer {JUDGE_KEY}"}  # the key was used
    outputs = _files_text(tmp_path / "out")
    assert "interactions.csv" in {p.name for p in (tmp_path / "out").iterdir()}
    assert "***" in outputs  # the reasoning is there, masked
    cache = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("cache.sqlite3"))
    places = {
        "stdout": shown.stdout + as_json.stdout,
        "stderr": shown.stderr + as_json.stderr,
        "--out files": outputs,
        "run history": _history_text(tmp_path / "runs.sqlite3"),
        "cache": cache.decode("utf-8", "replace"),
    }
    for key in (JUDGE_KEY, OTHER_KEY):
        leaks = [place for place, text in places.items() if key in text]
        assert not leaks, f"{key} found in {leaks}"


def test_one_broken_reply_in_a_hundred_leaves_99_cached_and_one_unscored(tmp_path: Path) -> None:
    def one_bad(body: dict[str, Any], authorization: str) -> str:
        if "What is 57 + 1?" in last_user_text(body):
            return json.dumps({"score": 0.9, "reasoning": "broken \ud800 text"})
        return json.dumps({"score": 0.9, "reasoning": "Same number."})

    data = _dataset(tmp_path / "data.json", 100)
    with EchoJudgeServer(one_bad) as server:
        done = _evaluate(tmp_path, server, data, "--json")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    with sqlite3.connect(tmp_path / "cache.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM verdicts").fetchone()[0] == 99
    report = json.loads(done.stdout)
    assert report["judge_counts"] == {"ok": 99, "failed": 1, "cached": 0, "uncertain": 0}
    assert report["counts"]["unscored_interactions"] == 1
