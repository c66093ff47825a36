"""The benchmarks' stand-in LLM server (``benchmarks/standin_server.py``) on loopback, in a thread."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

import uvicorn

from benchmarks.standin_server import Stats, create_app


class StandInServer:
    """Serves one stand-in dialect on 127.0.0.1 while the ``with`` block runs.

    Args:
        dialect: One of :data:`benchmarks.standin_server.DIALECTS`.
        **options: Passed on to :func:`benchmarks.standin_server.create_app` (``latency_s``, ``ramble_s``).
    """

    def __init__(self, dialect: str, **options: Any) -> None:
        self.app = create_app(dialect=dialect, **options)
        self.stats: Stats = self.app.state.stats
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.bind(("127.0.0.1", 0))
        self.port = self._sock.getsockname()[1]
        # The process's loggers are left as they are: uvicorn's logging config, its levels and access_log=False
        # (which stops uvicorn.access propagating) would outlive the server, and a later test reading the endpoint's
        # access log through caplog saw nothing. The root logger's level (WARNING) keeps the stand-in quiet.
        config = uvicorn.Config(self.app, log_config=None, log_level=None, access_log=True, lifespan="off")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._sock]}, daemon=True)

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL (``/v1``)."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def root_url(self) -> str:
        """The server's root (Ollama's own API lives under ``/api``)."""
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> StandInServer:
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the stand-in server did not start within 10 s")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self._sock.close()
