"""A hostile OpenAI-compatible judge server on loopback: its replies are computed from each request.

Unlike :class:`tests.fakes.OpenAIStandIn` (one fixed reply), :class:`EchoJudgeServer` calls
``reply(request_body, authorization_header)`` for every request, so a test can echo the caller's
key, answer one item with a broken reply, or send a body that is not JSON. Listens on 127.0.0.1
only; stdlib only.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ReplyFn = Callable[[dict[str, Any], str], str]
"""``reply(request_body, authorization_header) -> the message content`` of the completion."""


def last_user_text(body: dict[str, Any]) -> str:
    """The text of the request's last message (the judge's user prompt, holding the item)."""
    messages = body.get("messages") or [{}]
    content = messages[-1].get("content", "")
    return content if isinstance(content, str) else json.dumps(content)


def echo_key(body: dict[str, Any], authorization: str) -> str:
    """A judge that quotes the request's ``Authorization`` header in its reasoning."""
    return json.dumps({"score": 0.9, "reasoning": f"Looks right. (debug: Authorization: {authorization})"})


class EchoJudgeServer:
    """An OpenAI-compatible ``/v1/chat/completions`` server whose replies come from ``reply``.

    Args:
        reply: Computes the message content of each completion.
        raw_body: When set, every request is answered 200 with exactly these bytes (not JSON).
    """

    def __init__(self, reply: ReplyFn = echo_key, *, raw_body: bytes | None = None) -> None:
        self.reply = reply
        self.raw_body = raw_body
        self.requests = 0
        self.auth_headers: list[str] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> EchoJudgeServer:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                authorization = self.headers.get("authorization", "")
                with server._lock:
                    server.requests += 1
                    server.auth_headers.append(authorization)
                if server.raw_body is not None:
                    data = server.raw_body
                    content_type = "text/html"
                else:
                    payload = {
                        "id": f"chatcmpl-{server.requests}",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": body.get("model", "echo"),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": server.reply(body, authorization)},
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
                    }
                    # ensure_ascii: a lone surrogate travels as a \ud800 escape, as a real server sends it.
                    data = json.dumps(payload, ensure_ascii=True).encode()
                    content_type = "application/json"
                self.send_response(200)
                self.send_header("content-type", content_type)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._server is not None and self._thread is not None
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
