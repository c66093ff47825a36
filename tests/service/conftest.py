"""Fixtures of the endpoint tests: seed 001's request, an isolated service, a live server on loopback."""

from __future__ import annotations

import copy
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agentic_core.service import Service, ServiceConfig

ROOT = Path(__file__).resolve().parents[2]
SEED001_REQUEST = ROOT / "sample_data" / "seed001_request.json"
FAKE_KEY = "sk-test-RECOGNISABLE-0123456789abcdef"
"""A fake key that is easy to find in any text it leaks into."""


@pytest.fixture
def seed_request() -> dict[str, Any]:
    """Seed 001's example request (its two conversations plus a wrong third: 2 of 3 correct)."""
    return copy.deepcopy(json.loads(SEED001_REQUEST.read_text(encoding="utf-8")))


@pytest.fixture
def service_config(tmp_path: Path) -> ServiceConfig:
    """Default limits, with a judge cache of this test's own."""
    return ServiceConfig(cache_path=str(tmp_path / "judge_cache.sqlite3"))


@pytest.fixture
def service(service_config: ServiceConfig) -> Service:
    return Service(service_config)


class LiveServer:
    """The FastAPI app served by uvicorn in a thread, on a free loopback port."""

    def __init__(self, config: ServiceConfig, live: Any = None) -> None:
        import uvicorn

        from agentic_core.service.app import create_app

        self.app = create_app(config, live)  # with live settings: POST /v1/traces too
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}"
        # log_config=None: uvicorn's loggers propagate to the root, where caplog sees every line.
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_config=None, log_level="debug"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def app_state(self) -> Any:
        """The app's state (``.service``, ``.live``)."""
        return self.app.state

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.socket.close()


@pytest.fixture
def live_server(service_config: ServiceConfig) -> Iterator[LiveServer]:
    with LiveServer(service_config) as server:
        yield server
