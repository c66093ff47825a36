"""Issue 23, "one request cannot take the server down": who may call the loopback server, and how long.

Real HTTP on loopback (uvicorn in a thread); raw sockets where a client misbehaves (a trickled
body, a hang-up); an OpenAI stand-in that answers late where a slow judge model is needed.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import socket
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from agentic_core.service import ServiceConfig
from tests.fakes import OpenAIStandIn
from tests.service.conftest import FAKE_KEY, LiveServer

JSON = {"content-type": "application/json"}


def _config(tmp_path: Path, **values: Any) -> ServiceConfig:
    return ServiceConfig(cache_path=str(tmp_path / "judge_cache.sqlite3"), **values)


def _with_llm(request: dict[str, Any], base_url: str, **params: Any) -> dict[str, Any]:
    connector_params = {"model": "m", "api_key": FAKE_KEY, "base_url": base_url, "timeout": 30, "max_retries": 0}
    connector_params.update(params)
    out = {**request, "connector": {"class_path": "langchain_openai.ChatOpenAI", "params": connector_params}}
    out["config"] = {**request["config"], "use_structured_output": False}
    return out


class HangingModel:
    """A judge model server that accepts every connection and never answers (until closed)."""

    def __init__(self) -> None:
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(1024)  # every caller gets in: the calls hang, they are not refused
        self.base_url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/v1"
        self.connections: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)

    def _accept(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                self.connections.append(self.listener.accept()[0])

    def __enter__(self) -> HangingModel:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        for sock in [self.listener, *self.connections]:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)  # wakes accept() and ends every call in flight
            sock.close()
        self.thread.join(5)


# -- content type and origin ----------------------------------------------------------------------------


def test_a_text_plain_post_from_a_foreign_page_is_refused_before_judging(
    live_server: LiveServer, seed_request: dict[str, Any]
) -> None:
    # Was: accepted and judged; a "simple" cross-origin request needs no preflight, so any page could send it.
    import json

    body = json.dumps(seed_request)
    with httpx.Client(base_url=live_server.url, timeout=30) as client:
        foreign = client.post(
            "/run", content=body, headers={"content-type": "text/plain", "origin": "http://evil.example"}
        )
        foreign_json = client.post("/run", content=body, headers={**JSON, "origin": "http://evil.example"})
        opaque = client.post("/run", content=body, headers={**JSON, "origin": "null"})
        plain = client.post("/run", content=body, headers={"content-type": "text/plain"})
        missing = client.post("/run", content=body.encode())
    for response in (foreign, foreign_json, opaque):
        assert response.status_code == 403, response.text
        problem = response.json()["errors"][0]
        assert problem["place"] == "Origin header" and "--allow-origin" in problem["fix"]
    for response in (plain, missing):
        assert response.status_code == 415, response.text
        problem = response.json()["errors"][0]
        assert problem["place"] == "Content-Type header" and "application/json" in problem["fix"]
    assert "text/plain" in plain.json()["error"]


def test_the_servers_own_pages_and_non_browser_clients_are_served(
    live_server: LiveServer, seed_request: dict[str, Any]
) -> None:
    port = live_server.url.rsplit(":", 1)[1]
    with httpx.Client(base_url=live_server.url, timeout=60) as client:
        own = client.post("/run", json=seed_request, headers={"origin": live_server.url})
        localhost = client.post("/run", json=seed_request, headers={"origin": f"http://localhost:{port}"})
        charset = client.post(
            "/run", json=seed_request, headers={"content-type": "application/json; charset=utf-8"}
        )
    assert [r.status_code for r in (own, localhost, charset)] == [200, 200, 200]


def test_a_rebinding_host_name_is_not_the_servers_own_origin(
    live_server: LiveServer, seed_request: dict[str, Any]
) -> None:
    # A DNS-rebinding page sends Origin and Host of its own name: the Host header proves nothing.
    port = live_server.url.rsplit(":", 1)[1]
    headers = {"origin": f"http://rebind.example:{port}", "host": f"rebind.example:{port}"}
    with httpx.Client(base_url=live_server.url, timeout=30) as client:
        response = client.post("/run", json=seed_request, headers=headers)
    assert response.status_code == 403


def test_an_allowed_origin_is_served_with_cors_headers(tmp_path: Path, seed_request: dict[str, Any]) -> None:
    site = "https://dashboard.example:8443"
    config = _config(tmp_path, allowed_origins=(f"{site}/",))
    with LiveServer(config) as server, httpx.Client(base_url=server.url, timeout=60) as client:
        preflight = client.options(
            "/run",
            headers={
                "origin": site,
                "access-control-request-method": "POST",
                "access-control-request-headers": "content-type",
            },
        )
        allowed = client.post("/run", json=seed_request, headers={"origin": site})
        other = client.post("/run", json=seed_request, headers={"origin": "https://other.example"})
    assert preflight.status_code == 200 and preflight.headers["access-control-allow-origin"] == site
    assert allowed.status_code == 200 and allowed.headers["access-control-allow-origin"] == site
    assert other.status_code == 403


# -- bearer token -----------------------------------------------------------------------------------------


def test_a_configured_token_is_required_everywhere_but_health(tmp_path: Path, seed_request: dict[str, Any]) -> None:
    token = "tok-" + "x" * 40
    config = _config(tmp_path, token=SecretStr(token))
    with LiveServer(config) as server, httpx.Client(base_url=server.url, timeout=60) as client:
        health = client.get("/health")
        docs = client.get("/docs")
        none = client.post("/run", json=seed_request)
        wrong = client.post("/run", json=seed_request, headers={"authorization": f"Bearer {token}y"})
        basic = client.post("/run", json=seed_request, headers={"authorization": f"Basic {token}"})
        right = client.post("/run", json=seed_request, headers={"authorization": f"Bearer {token}"})
    assert health.status_code == 200
    for response in (docs, none, wrong, basic):
        assert response.status_code == 401, response.text
        assert response.headers["www-authenticate"] == "Bearer"
        assert response.json()["errors"][0]["place"] == "Authorization header"
        assert token not in response.text
    assert right.status_code == 200


def test_an_empty_token_is_a_settings_error_that_does_not_show_it() -> None:
    from agentic_core.errors import SettingsError

    with pytest.raises(SettingsError) as info:
        ServiceConfig.build(token="  ")
    assert info.value.place == "token" and "(got" not in str(info.value)


# -- slow bodies and hang-ups -----------------------------------------------------------------------------


def _raw_post_head(url: str, length: int) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=15)
    head = f"POST /run HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
    sock.sendall(head.encode())
    return sock


def test_a_body_trickled_byte_by_byte_is_cut_off_at_the_body_deadline(tmp_path: Path) -> None:
    # Was: a byte every few seconds held the connection for as long as the client liked.
    config = _config(tmp_path, body_timeout_s=1.5)
    with LiveServer(config) as server:
        sock = _raw_post_head(server.url, 10_000)
        stop = threading.Event()

        def trickle() -> None:
            while not stop.wait(0.3):
                try:
                    sock.sendall(b" ")
                except OSError:
                    return

        sender = threading.Thread(target=trickle, daemon=True)
        start = time.monotonic()
        sender.start()
        chunks: list[bytes] = []
        try:
            chunks.append(sock.recv(65536))
            elapsed = time.monotonic() - start
            sock.settimeout(3)
            with contextlib.suppress(OSError):
                while chunk := sock.recv(65536):  # the rest of the answer, until the server closes
                    chunks.append(chunk)
        finally:
            stop.set()
            sender.join(5)
            sock.close()
    answer = b"".join(chunks).decode("latin-1")
    assert answer.startswith("HTTP/1.1 408"), answer[:200]
    assert 1.0 < elapsed < 8, elapsed
    assert "body deadline of 1.5 s" in answer


def test_a_client_hanging_up_mid_body_is_one_log_line(
    live_server: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    # Was: ClientDisconnect went up to uvicorn, which logged "Exception in ASGI application" and a traceback.
    with caplog.at_level(logging.DEBUG):
        sock = _raw_post_head(live_server.url, 1000)
        sock.sendall(b'{"datasets": [')
        time.sleep(0.2)
        sock.close()
        deadline = time.monotonic() + 10
        while "hung up" not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # anything logged after the line would show up here
    lines = [r for r in caplog.records if "hung up" in r.getMessage()]
    assert len(lines) == 1 and "14 bytes" in lines[0].getMessage()
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert "Traceback" not in caplog.text


# -- LLM requests: their own lane, a cap per call, a deadline per request ---------------------------------


def test_offline_requests_are_not_starved_by_llm_requests_whose_judge_hangs(
    tmp_path: Path, seed_request: dict[str, Any]
) -> None:
    # Was: 41 requests whose judge never answered took every worker thread, and an offline request waited.
    config = _config(tmp_path)
    with LiveServer(config) as server:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            assert client.post("/run", json=seed_request).status_code == 200  # loads the offline judge
        # The model is left first, so the calls it holds end before the pool waits for them.
        with concurrent.futures.ThreadPoolExecutor(45) as pool, HangingModel() as model:
            llm_request = _with_llm(seed_request, model.base_url)

            def post(_: int) -> httpx.Response:
                with httpx.Client(base_url=server.url, timeout=90) as client:
                    return client.post("/run", json=llm_request)

            futures = [pool.submit(post, i) for i in range(45)]
            # Wait until 40 requests (anyio's default thread count) are at the model or answered.
            deadline = time.monotonic() + 8
            while sum(f.done() for f in futures) + len(model.connections) // 4 < 40 and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.3)
            start = time.monotonic()
            with httpx.Client(base_url=server.url, timeout=90) as client:
                offline = client.post("/run", json=seed_request)
            offline_s = time.monotonic() - start
            busy = [f.result() for f in futures if f.done()]
        answers = [f.result() for f in futures]  # the model hung up: the calls in flight fail
    assert offline.status_code == 200 and offline_s < 4, offline_s
    statuses = sorted(r.status_code for r in answers)
    assert statuses == [502] * config.max_llm_requests + [503] * (45 - config.max_llm_requests)
    assert len(busy) == 45 - config.max_llm_requests  # refused at once, not after the model gave up
    refused = busy[0]
    assert refused.status_code == 503 and int(refused.headers["retry-after"]) >= 1
    assert "--max-llm-requests" in refused.json()["errors"][0]["fix"]


def test_a_judge_call_budget_over_the_cap_is_refused_naming_it(
    live_server: LiveServer, seed_request: dict[str, Any]
) -> None:
    # Was: one request could ask for 600 s x 11 attempts per call.
    request = _with_llm(seed_request, "http://127.0.0.1:9/v1", timeout=600, max_retries=10)
    with httpx.Client(base_url=live_server.url, timeout=30) as client:
        response = client.post("/run", json=request)
    assert response.status_code == 422, response.text
    problem = response.json()["errors"][0]
    assert problem["place"] == "connector.params.timeout"
    assert "cap of 300 s" in problem["rule"] and "6600 s" in problem["value"]
    assert FAKE_KEY not in response.text


def test_the_default_judge_call_budget_fits_the_default_cap(tmp_path: Path, seed_request: dict[str, Any]) -> None:
    # 60 s x 5 attempts (the judge's defaults) is exactly the default cap: a plain connector is not refused.
    from agentic_core.service.connector import connector_judge

    connector = {"class_path": "langchain_openai.ChatOpenAI", "params": {"model": "m", "api_key": FAKE_KEY}}
    connector["params"]["base_url"] = "http://127.0.0.1:9/v1"
    assert connector_judge(connector, _config(tmp_path), False, None).class_path == "langchain_openai.ChatOpenAI"


def test_judging_past_the_request_deadline_is_stopped_with_a_504(tmp_path: Path, seed_request: dict[str, Any]) -> None:
    # A deadline well past reading four interactions (on a loaded machine that took over 1.5 s once, and the 504
    # then came from the reading stage), and a model far slower than the deadline.
    config = _config(tmp_path, request_deadline_s=3)
    with OpenAIStandIn(latency_s=12) as model, LiveServer(config) as server:
        start = time.monotonic()
        with httpx.Client(base_url=server.url, timeout=60) as client:
            response = client.post("/run", json=_with_llm(seed_request, model.base_url))
        elapsed = time.monotonic() - start
    assert response.status_code == 504, response.text
    problem = response.json()["errors"][0]
    assert problem["place"] == "request" and "deadline" in problem["rule"]
    assert "0 of 4 interactions" in problem["value"]
    assert elapsed < 9, elapsed  # stopped at the deadline, not after the model's 12 s
