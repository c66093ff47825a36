"""``python -m agentic_core serve``: the start command, its options and its warm-up."""

from __future__ import annotations

import io
import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from agentic_core.cli import main
from agentic_core.service import Service, ServiceConfig
from tests.service.conftest import ROOT, SEED001_REQUEST


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_documented_start_command_serves_the_seed_request(tmp_path: Path) -> None:
    port = _free_port()
    command = [sys.executable, "-m", "agentic_core", "serve", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--cache-path", str(tmp_path / "judge_cache.sqlite3")]
    with (tmp_path / "stderr.txt").open("w+b") as err:
        proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err)
        try:
            url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
            # What the README's curl sends: the sample file's bytes.
            response = httpx.post(
                f"{url}/run",
                content=SEED001_REQUEST.read_bytes(),
                headers={"content-type": "application/json"},
                timeout=60,
            )
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        err.seek(0)
        log = err.read().decode()
    assert response.status_code == 200, response.text
    agg = response.json()["aggregated_metrics"]
    assert (round(agg["pass_at_k"], 3), round(agg["pass_pow_k"], 3), agg["interpretation"]) == (
        0.963,
        0.296,
        "inconsistent",
    )
    assert "default judge ready" in log and f"serving on http://127.0.0.1:{port}" in log
    assert "Traceback" not in log


def _serve(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, dict[str, Any]]:
    """Run ``main(["serve", ...])`` with uvicorn.run recorded instead of serving."""
    import uvicorn

    calls: dict[str, Any] = {}

    def fake_run(app: Any, **kwargs: Any) -> None:
        calls.update(kwargs, app=app)

    monkeypatch.setattr(uvicorn, "run", fake_run)
    stderr = io.StringIO()
    code = main(["serve", *argv], stderr=stderr)
    return code, stderr.getvalue(), calls


def test_loopback_is_the_default_and_other_hosts_are_warned_about(monkeypatch: pytest.MonkeyPatch) -> None:
    code, err, calls = _serve(["--cache", "off"], monkeypatch)
    assert code == 0 and (calls["host"], calls["port"]) == ("127.0.0.1", 8000)
    assert "warning" not in err
    code, err, calls = _serve(["--host", "0.0.0.0", "--port", "9001", "--cache", "off"], monkeypatch)
    assert code == 0 and calls["host"] == "0.0.0.0"
    assert "warning: serving on 0.0.0.0" in err and "--token-env" in err and "no token required" in err


def test_options_reach_the_service(monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, calls = _serve(["--max-datasets", "5", "--max-body-mb", "1", "--cache", "off"], monkeypatch)
    assert code == 0
    config = calls["app"].state.service.config
    assert (config.max_datasets, config.max_body_bytes, config.cache_mode) == (5, 1024 * 1024, "off")


@pytest.mark.parametrize(
    ("argv", "place"), [(["--port", "70000"], "--port"), (["--max-datasets", "0"], "max_datasets")]
)
def test_bad_options_are_user_errors(argv: list[str], place: str, monkeypatch: pytest.MonkeyPatch) -> None:
    code, err, calls = _serve([*argv, "--cache", "off"], monkeypatch)
    assert code == 2 and place in err and not calls
    assert "Traceback" not in err


def test_warm_up_answers_a_tiny_request_without_touching_the_cache(tmp_path: Path) -> None:
    cache = tmp_path / "judge_cache.sqlite3"
    seconds = Service(ServiceConfig(cache_path=str(cache))).warm_up()
    assert seconds > 0
    assert not cache.exists()


def test_seed_request_file_is_seed_001s_example_plus_a_wrong_conversation() -> None:
    doc = json.loads(SEED001_REQUEST.read_text(encoding="utf-8"))
    assert [d["session_id"] for d in doc["datasets"]][:2] == ["conversation_001", "conversation_002"]
    assert len(doc["datasets"]) == 3 and "connector" not in doc
    assert doc["config"]["k"] == 3


def test_token_env_reads_the_token_and_refuses_to_start_without_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGENTIC_TEST_TOKEN", raising=False)
    code, err, calls = _serve(["--token-env", "AGENTIC_TEST_TOKEN", "--cache", "off"], monkeypatch)
    assert code == 2 and not calls
    assert "--token-env" in err and "AGENTIC_TEST_TOKEN" in err and "unset or empty" in err
    monkeypatch.setenv("AGENTIC_TEST_TOKEN", "t0ken-from-the-environment")
    argv = ["--token-env", "AGENTIC_TEST_TOKEN", "--host", "0.0.0.0", "--cache", "off"]
    code, err, calls = _serve([*argv, "--allow-origin", "https://ui.example:8443/"], monkeypatch)
    assert code == 0
    config = calls["app"].state.service.config
    assert config.token.get_secret_value() == "t0ken-from-the-environment"
    assert config.allowed_origins == ("https://ui.example:8443",)
    assert "t0ken-from-the-environment" not in err
    assert "warning: serving on 0.0.0.0" in err and "no token required" not in err


@pytest.mark.parametrize(
    ("argv", "place"),
    [
        (["--allow-origin", "https://ui.example/path"], "allowed_origins"),
        (["--body-timeout-s", "0"], "body_timeout_s"),
        (["--max-llm-requests", "0"], "max_llm_requests"),
    ],
)
def test_bad_guard_options_are_user_errors(argv: list[str], place: str, monkeypatch: pytest.MonkeyPatch) -> None:
    code, err, calls = _serve([*argv, "--cache", "off"], monkeypatch)
    assert code == 2 and place in err and not calls


def test_the_lambda_settings_read_the_deadline_and_the_call_cap_from_the_environment() -> None:
    config = ServiceConfig.from_env({"AGENTIC_REQUEST_DEADLINE_S": "45", "AGENTIC_MAX_JUDGE_CALL_S": "120"})
    assert (config.request_deadline_s, config.max_judge_call_s) == (45.0, 120.0)
    assert ServiceConfig.from_env({}).max_judge_call_s == ServiceConfig().max_judge_call_s
