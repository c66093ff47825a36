"""An OpenAI-compatible ``/v1/chat/completions`` stand-in for benchmarks and tests (loopback only).

Every request waits ``--latency`` seconds (asyncio sleep, so thousands can wait at once), then
returns a valid judge reply (``{"score": ..., "reasoning": ...}`` as the message content) and a
``usage`` block, like a real provider. Run as a separate process so that serving does not
compete with the client's event loop:

    python benchmarks/standin_server.py --port 0 --latency 0.2 [--dialect llama.cpp]

It prints ``PORT <n>`` on stdout once it is accepting connections. Binds 127.0.0.1 only.

``--dialect`` mimics where the OpenAI-compatible endpoints of self-hosted servers differ (see
:data:`DIALECTS`): the ``response_format`` types each accepts and the error it answers the others
with, which reply-budget field it reads, whether it serves one request at a time, and the long
reply a small model writes when no budget is sent. ``POST /api/chat`` is Ollama's own API (what
langchain-ollama calls), with the same behaviour. ``GET /stats`` reports what was received.

``--on-disconnect`` says what the server does with a request whose client hung up before its reply
(a client that timed out and closed the connection): ``stop`` drops it at once, queued or running,
as llama.cpp's own server, Ollama and vLLM do; ``keep-working`` works it to the end regardless, as
llama-cpp-python's server does with a request that does not stream. The counters say what happened:
``received``, ``finished`` (worked to the end, whether anyone still waited) and ``abandoned`` (the
client hung up first).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import re
import socket
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route


@dataclass(frozen=True)
class Dialect:
    """How one server's OpenAI-compatible endpoint behaves where servers differ.

    Attributes:
        formats: The ``response_format`` types accepted (``text`` is always accepted).
        refusal: ``(status, body)`` answered to another type; ``{type}`` in the body is replaced.
        budget_fields: The request fields read as the reply budget, first found wins.
        serial: Serves one request at a time (the others wait in its queue).
        fenced_text: In text mode, wraps the JSON in a code fence and a sentence, as small models do.
        rambles: Without a budget it reads, replies slowly with prose cut at the context (a small
            model that never stops); otherwise the budget does not matter.
    """

    formats: frozenset[str]
    refusal: tuple[int, dict[str, Any]]
    budget_fields: tuple[str, ...]
    serial: bool
    fenced_text: bool = False
    rambles: bool = True


_OPENAI_ERROR = {"error": {"message": "invalid response_format type {type}", "type": "invalid_request_error"}}

DIALECTS: dict[str, Dialect] = {
    # Any format, concurrent: the benchmarks' default.
    "generic": Dialect(
        frozenset({"json_object", "json_schema"}),
        (400, _OPENAI_ERROR),
        ("max_completion_tokens", "max_tokens"),
        False,
        rambles=False,
    ),
    # llama-cpp-python's server: its request model allows only text and json_object, and its error
    # handler turns the validation error into an HTTP 500; it reads max_tokens only; one at a time.
    "llama.cpp": Dialect(
        frozenset({"json_object"}),
        (
            500,
            {
                "error": {
                    "message": "[{'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': "
                    "\"Input should be 'text' or 'json_object'\", 'input': '{type}', 'ctx': {'expected': "
                    "\"'text' or 'json_object'\"}}]",
                    "type": "internal_server_error",
                    "param": None,
                    "code": None,
                }
            },
        ),
        ("max_tokens",),
        True,
        fenced_text=True,
    ),
    # Ollama's /v1 endpoint: json_object and json_schema, 400 with an OpenAI-style body for the rest,
    # max_tokens (its num_predict), one request at a time by default (OLLAMA_NUM_PARALLEL=1).
    "ollama": Dialect(frozenset({"json_object", "json_schema"}), (400, _OPENAI_ERROR), ("max_tokens",), True),
    # vLLM: both JSON formats through guided decoding, its own 400 body, batches requests concurrently.
    "vllm": Dialect(
        frozenset({"json_object", "json_schema"}),
        (400, {"object": "error", "message": "Unsupported response_format {type}", "type": "BadRequestError",
               "param": None, "code": 400}),
        ("max_completion_tokens", "max_tokens"),
        False,
    ),
}

# The per-call fence code of the judge's prompt: left out of the score's hash, so the same item
# gets the same score on every call.
_FENCE_CODE = re.compile(r"[0-9a-f]{16}")

RAMBLE = "Let me think about this step by step. The answer mentions several facts and the reference too. "
"""What a small model writes when nothing stops it (no JSON: a reply cut at the context is unreadable)."""


ON_DISCONNECT = ("keep-working", "stop")
"""What a server does with a request whose client hung up (see the module docstring)."""


@dataclass
class Stats:
    """What the stand-in received (``GET /stats``; ``app.state.stats`` in-process).

    ``requests`` counts every request (refused ones too); ``received``, ``finished`` and
    ``abandoned`` count the completions it worked on (see the module docstring).
    """

    requests: int = 0
    received: int = 0
    finished: int = 0
    abandoned: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    formats: list[str] = field(default_factory=list)
    budgets: list[int | None] = field(default_factory=list)
    schemas: list[bool] = field(default_factory=list)  # whether a JSON schema came with the format
    refused: int = 0


def _refusal(dialect: Dialect, kind: str) -> JSONResponse:
    status, body = dialect.refusal
    return JSONResponse(json.loads(json.dumps(body).replace("{type}", kind)), status_code=status)


async def _hung_up(request: Request) -> None:
    """Return once the client has closed the connection (the body has been read by then)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


def create_app(
    latency_s: float = 0.2,
    dialect: str = "generic",
    ramble_s: float | None = None,
    on_disconnect: str = "keep-working",
    serial: bool | None = None,
) -> Starlette:
    """The stand-in application.

    Args:
        latency_s: Seconds each completion takes.
        dialect: One of :data:`DIALECTS`.
        ramble_s: Seconds a completion takes when the request sends no reply budget the dialect
            reads (default: 50 times ``latency_s``); the reply is then prose cut at the context.
        on_disconnect: One of :data:`ON_DISCONNECT`: what to do with a request whose client hung up.
        serial: One request at a time (default: the dialect's own).
    """
    spec = DIALECTS[dialect]
    if on_disconnect not in ON_DISCONNECT:
        raise ValueError(f"on_disconnect must be one of {', '.join(ON_DISCONNECT)}, not {on_disconnect!r}")
    ramble = 50 * latency_s if ramble_s is None else ramble_s
    stats = Stats()
    queue = asyncio.Lock() if (spec.serial if serial is None else serial) else None

    async def work(seconds: float) -> None:
        """The completion's work: wait for the server (one at a time when serial), then take ``seconds``."""
        stats.in_flight += 1
        stats.max_in_flight = max(stats.max_in_flight, stats.in_flight)
        try:
            async with queue if queue is not None else contextlib.nullcontext():
                await asyncio.sleep(seconds)
            stats.finished += 1
        finally:
            stats.in_flight -= 1

    async def attended(request: Request | None, seconds: float) -> bool:
        """Do the work while watching the client; whether it was still there at the end.

        A client that hangs up makes the request abandoned: with ``stop`` the work is dropped (queued
        or running), with ``keep-working`` it goes on to the end, holding the server as before.
        """
        job = asyncio.ensure_future(work(seconds))
        if request is None:
            await job
            return True
        watch = asyncio.ensure_future(_hung_up(request))
        try:
            await asyncio.wait({job, watch}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            watch.cancel()
        if job.done():
            return True
        stats.abandoned += 1
        if on_disconnect == "stop":
            job.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await job  # keep-working: to the end, the reply sent to nobody
        return False

    async def answer(
        kind: str, budget: int | None, messages: Any, schema: bool = False, request: Request | None = None
    ) -> tuple[str, str, int, int] | JSONResponse | None:
        """``(content, finish reason, prompt tokens, completion tokens)``, the dialect's refusal, or ``None``
        when the client hung up first."""
        stats.requests += 1
        stats.formats.append(kind)
        stats.budgets.append(budget)
        stats.schemas.append(schema)
        if kind != "text" and kind not in spec.formats:
            stats.refused += 1
            return _refusal(spec, kind)
        stats.received += 1
        rambling = spec.rambles and not budget
        if not await attended(request, ramble if rambling else latency_s):
            return None
        prompt = _FENCE_CODE.sub("", json.dumps(messages))
        # A deterministic score per prompt, so repeated runs see the same judgements.
        score = int(hashlib.sha256(prompt.encode()).hexdigest()[:4], 16) % 101 / 100
        verdict = json.dumps({"score": score, "reasoning": "Stand-in judgement."})
        prompt_tokens = max(1, len(prompt) // 4)
        if rambling:
            return RAMBLE * 40, "length", prompt_tokens, 3000
        if kind == "text" and spec.fenced_text:
            return f"Here is my verdict:\n```json\n{verdict}\n```", "stop", prompt_tokens, 30
        return verdict, "stop", prompt_tokens, 16

    async def completions(request: Request) -> Response:
        body: dict[str, Any] = await request.json()
        response_format = body.get("response_format") or {}
        kind = str(response_format.get("type") or "text")
        budget = next((body[f] for f in spec.budget_fields if isinstance(body.get(f), int)), None)
        schema = isinstance(response_format.get("schema") or response_format.get("json_schema"), dict)
        got = await answer(kind, budget, body.get("messages", []), schema, request)
        if got is None:
            return Response(status_code=499)  # nobody reads it: the client is gone
        if isinstance(got, JSONResponse):
            return got
        content, finish, prompt_tokens, completion_tokens = got
        return JSONResponse(
            {
                "id": f"chatcmpl-{stats.requests}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", "stand-in"),
                "choices": [
                    {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish}
                ],
                "usage": {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": completion_tokens,
                    "total_tokens": prompt_tokens + completion_tokens,
                },
            }
        )

    async def ollama_chat(request: Request) -> Response:
        # Ollama's own API (what langchain-ollama's ChatOllama calls): "format" is "json" or a JSON
        # schema, the budget is options.num_predict, and the reply streams as JSON lines.
        body: dict[str, Any] = await request.json()
        fmt = body.get("format")
        kind = "json_schema" if isinstance(fmt, dict) else "json_object" if fmt == "json" else "text"
        budget = (body.get("options") or {}).get("num_predict")
        budget = budget if isinstance(budget, int) and budget > 0 else None
        got = await answer(kind, budget, body.get("messages", []), isinstance(fmt, dict), request)
        if got is None:
            return Response(status_code=499)
        if isinstance(got, JSONResponse):
            return JSONResponse({"error": json.dumps(json.loads(got.body))}, status_code=got.status_code)
        content, finish, prompt_tokens, completion_tokens = got
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        lines = [
            {"model": body.get("model"), "created_at": now, "message": {"role": "assistant", "content": content},
             "done": False},
            {"model": body.get("model"), "created_at": now, "message": {"role": "assistant", "content": ""},
             "done": True, "done_reason": finish, "prompt_eval_count": prompt_tokens, "eval_count": completion_tokens},
        ]
        return Response("".join(json.dumps(line) + "\n" for line in lines), media_type="application/x-ndjson")

    async def count(request: Request) -> Response:
        return JSONResponse(
            {
                "requests": stats.requests,
                "max_in_flight": stats.max_in_flight,
                "refused": stats.refused,
                "received": stats.received,
                "finished": stats.finished,
                "abandoned": stats.abandoned,
                "in_flight": stats.in_flight,
            }
        )

    app = Starlette(
        routes=[
            Route("/v1/chat/completions", completions, methods=["POST"]),
            Route("/api/chat", ollama_chat, methods=["POST"]),
            Route("/stats", count, methods=["GET"]),
        ]
    )
    app.state.stats = stats
    return app


def main(argv: list[str] | None = None) -> None:
    """Serve until killed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per completion")
    parser.add_argument("--dialect", choices=list(DIALECTS), default="generic", help="server to mimic")
    parser.add_argument(
        "--on-disconnect", choices=ON_DISCONNECT, default="keep-working",
        help="what to do with a request whose client hung up (default: keep-working, as llama-cpp-python)",
    )  # fmt: skip
    parser.add_argument("--serial", action="store_true", help="one request at a time, whatever the dialect")
    args = parser.parse_args(argv)

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.port))
    config = uvicorn.Config(
        create_app(args.latency, args.dialect, on_disconnect=args.on_disconnect, serial=args.serial or None),
        log_level="warning",
        access_log=False,
        lifespan="off",
        backlog=2048,
        timeout_keep_alive=30,
    )
    server = uvicorn.Server(config)
    print(f"PORT {sock.getsockname()[1]}", flush=True)
    sys.stdout.flush()
    server.run(sockets=[sock])


if __name__ == "__main__":
    main()
