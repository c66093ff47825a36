"""A TCP proxy on loopback that counts the chat-completion requests passing through it, at the socket.

Put between the judge and a real server that keeps no count of its own (llama-cpp-python's has none), it
counts what the server received, retries and repeats by any client library included: every
``POST .../chat/completions`` request line the client sends. It also counts the connections the client
closed before the server had answered (hang-ups). Stdlib only; one thread running its own event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any

REQUEST_LINE = b"POST /v1/chat/completions "


class CountingProxy:
    """Forwards 127.0.0.1:<port> to ``target_port`` while the ``with`` block runs.

    Attributes:
        requests: Chat-completion request lines seen (client to server).
        hang_ups: Connections the client closed while a request on them was unanswered.
    """

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.requests = 0
        self.hang_ups = 0
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.base_events.Server | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL through the proxy."""
        return f"http://127.0.0.1:{self.port}/v1"

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, state: dict[str, Any],
                    upstream: bool) -> None:  # fmt: skip
        tail = b""
        try:
            while data := await reader.read(65536):
                if upstream:
                    seen = tail + data
                    found = seen.count(REQUEST_LINE)
                    self.requests += found
                    state["pending"] += found
                    tail = seen[-len(REQUEST_LINE) :]
                elif data.startswith(b"HTTP/1.1 ") or b"\r\nHTTP/1.1 " in data:
                    state["pending"] = max(0, state["pending"] - 1 - data.count(b"\r\nHTTP/1.1 "))
                writer.write(data)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            if upstream and state["pending"]:
                self.hang_ups += 1  # the client went away with a request unanswered
            with contextlib.suppress(Exception):
                writer.close()

    async def _handle(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        state = {"pending": 0}
        await asyncio.gather(
            self._pipe(client_reader, server_writer, state, upstream=True),
            self._pipe(server_reader, client_writer, state, upstream=False),
        )

    def __enter__(self) -> CountingProxy:
        self._thread.start()
        started = asyncio.run_coroutine_threadsafe(asyncio.start_server(self._handle, "127.0.0.1", 0), self._loop)
        self._server = started.result(timeout=10)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.close()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
