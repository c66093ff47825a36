"""A request body read within the size limit and the body deadline (``POST /run`` and ``POST /v1/traces``).

A huge or trickled upload is refused without being held: 413 as soon as it passes the limit, 408 once the
deadline passes.
"""

from __future__ import annotations

import logging

import anyio
from starlette.requests import ClientDisconnect, Request

from agentic_core.errors import RequestError
from agentic_core.service.run import body_too_large

log = logging.getLogger("agentic_core.service")


class HungUp(Exception):
    """The client closed the connection before its whole body arrived."""


def too_slow(seconds: float, size: int) -> RequestError:
    """The 408 error of a body still arriving after ``seconds`` (``size`` bytes received)."""
    return RequestError(
        "request body",
        f"must arrive within this server's body deadline of {seconds:g} s",
        f"{size:,} bytes received by then",
        "send the body at once (a slow link: fewer conversations per request), or ask the operator to raise "
        "--body-timeout-s",
        status=408,
    )


async def read_body(request: Request, limit: int, seconds: float) -> bytes | RequestError:
    """The body, or the 413 error as soon as it exceeds ``limit`` bytes, or the 408 once ``seconds`` pass.

    Raises:
        HungUp: the client closed the connection mid-body.
    """
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return body_too_large(int(declared), limit)
    chunks: list[bytes] = []
    size = 0
    # One deadline for the whole body, not per chunk: a byte every few seconds must not hold a
    # connection (and a worker's memory) for minutes.
    with anyio.move_on_after(seconds) as scope:
        try:
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:  # chunked uploads declare no length: count as they arrive
                    return body_too_large(None, limit)
                chunks.append(chunk)
        except ClientDisconnect:
            log.warning(
                "POST %s: the client hung up after %d bytes of the body; nothing was taken", request.url.path, size
            )
            raise HungUp from None
    if scope.cancelled_caught:
        return too_slow(seconds, size)
    return b"".join(chunks)
