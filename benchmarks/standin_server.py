"""An OpenAI-compatible ``/v1/chat/completions`` stand-in for benchmarks (loopback only).

Every request waits ``--latency`` seconds (asyncio sleep, so thousands can wait at once), then
returns a valid judge reply (``{"score": ..., "reasoning": ...}`` as the message content) and a
``usage`` block, like a real provider. Run as a separate process so that serving does not
compete with the client's event loop:

    python benchmarks/standin_server.py --port 0 --latency 0.2

It prints ``PORT <n>`` on stdout once it is accepting connections. Binds 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import socket
import sys
import time
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route


def create_app(latency_s: float = 0.2) -> Starlette:
    """The stand-in application.

    Args:
        latency_s: Seconds each completion takes.
    """
    counter = {"n": 0}

    async def completions(request: Request) -> Response:
        body: dict[str, Any] = await request.json()
        counter["n"] += 1
        await asyncio.sleep(latency_s)
        prompt = json.dumps(body.get("messages", []))
        # A deterministic score per prompt, so repeated runs see the same judgements.
        score = int(hashlib.sha256(prompt.encode()).hexdigest()[:4], 16) % 101 / 100
        content = json.dumps({"score": score, "reasoning": "Stand-in judgement."})
        prompt_tokens = max(1, len(prompt) // 4)
        return JSONResponse(
            {
                "id": f"chatcmpl-{counter['n']}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", "stand-in"),
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": 16,
                    "total_tokens": prompt_tokens + 16,
                },
            }
        )

    async def count(request: Request) -> Response:
        return JSONResponse({"requests": counter["n"]})

    return Starlette(
        routes=[
            Route("/v1/chat/completions", completions, methods=["POST"]),
            Route("/stats", count, methods=["GET"]),
        ]
    )


def main(argv: list[str] | None = None) -> None:
    """Serve until killed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per completion")
    args = parser.parse_args(argv)

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.port))
    config = uvicorn.Config(
        create_app(args.latency),
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
