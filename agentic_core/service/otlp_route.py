"""``POST /v1/traces``: OTLP/HTTP trace exports taken as an OpenTelemetry collector takes them.

The guard (:mod:`agentic_core.service.guard`) has checked the origin, the token and the content type
(``application/x-protobuf`` or ``application/json``). Then, as a collector answers:

- the body is read within ``--max-body-mb`` (413) and the body deadline (408); a ``Content-Encoding`` of ``gzip``
  or ``deflate`` (the exporters' compression) is undone within the same limit (413), another is refused (415);
- a body that is not an export request in its encoding is 400, one with more than ``--max-spans-per-request``
  spans is 413 (nothing of it kept);
- when the server holds ``--max-pending-conversations`` conversations, the request is refused with 429 and
  ``Retry-After`` (the SDKs' exporters wait that long and send again);
- otherwise the spans are on the disk when the answer goes: 200 with an ``ExportTraceServiceResponse`` in the
  request's encoding, its ``partial_success`` counting the spans refused (no trace id or span id) and saying why.

Errors are answered with the endpoint's JSON error document (place, rule, value, fix), which the exporters log.
"""

from __future__ import annotations

import logging
import sqlite3
import zlib
from collections.abc import Callable
from typing import Any

import anyio
from fastapi import FastAPI, Request
from fastapi.responses import Response

from agentic_core.errors import RequestError
from agentic_core.io.otlp_export import Encoding, TooManySpans, UndecodableExport, export_response, read_export
from agentic_core.live.ingest import Full, LiveIngest
from agentic_core.service.body import HungUp, read_body
from agentic_core.service.config import ServiceConfig
from agentic_core.service.guard import OTLP_PATH, OTLP_TYPES
from agentic_core.service.run import body_too_large

log = logging.getLogger("agentic_core.service")

OTLP_WORKERS = 2
"""Threads that decode and keep OTLP requests (their own: ``/run`` requests never wait behind them)."""

_MEDIA = {encoding: media for media, encoding in OTLP_TYPES.items()}


def _unpacked(body: bytes, coding: str, limit: int) -> bytes:
    """The body with its ``Content-Encoding`` undone, never more than ``limit`` bytes.

    Raises:
        RequestError: 415 for an encoding other than gzip / deflate, 400 for a damaged one, 413 past ``limit``.
    """
    if coding in ("", "identity"):
        return body
    if coding not in ("gzip", "deflate"):
        raise RequestError("Content-Encoding header", "must be gzip, deflate or none (the OTLP exporters' choices)",
                           coding, "export with compression gzip, or none", status=415)
    # 47: a gzip or a zlib header, either (exporters' "deflate" is zlib's format); max_length stops a small body
    # that would expand past the limit (a compression bomb) after limit + 1 bytes.
    unpacker, out, size, data = zlib.decompressobj(47), [], 0, body
    try:
        while data:
            chunk = unpacker.decompress(data, limit + 1 - size)
            out.append(chunk)
            size += len(chunk)
            if size > limit:
                raise body_too_large(None, limit)
            data = unpacker.unconsumed_tail or (unpacker.unused_data if unpacker.eof else b"")
            if unpacker.eof and data:  # a second gzip member
                unpacker = zlib.decompressobj(47)
    except zlib.error as exc:
        raise RequestError("request body", f"is not valid {coding} data ({exc})", None,
                           "send the body as the Content-Encoding header says", show=False, status=400) from None
    return b"".join(out)


def _export_answer(encoding: Encoding, payload: bytes) -> Response:
    return Response(payload, status_code=200, media_type=_MEDIA[encoding])


def _take(ingest: LiveIngest, body: bytes, coding: str, encoding: Encoding, config: ServiceConfig) -> Any:
    """Undo the compression, read the request and keep its spans (in a worker thread: SQLite writes block)."""
    data = _unpacked(body, coding, config.max_body_bytes)
    try:
        batch = read_export(data, encoding, ingest.config.max_spans_per_request)
    except UndecodableExport as exc:
        raise RequestError("request body", str(exc), None, "send an OTLP ExportTraceServiceRequest (an OTLP/HTTP "
                           "exporter does)", show=False, status=400) from None
    except TooManySpans as exc:
        raise RequestError("request body", f"must hold at most {ingest.config.max_spans_per_request:,} spans (this "
                           "server's limit)", f"{exc.count:,} spans", "export smaller batches (BatchSpanProcessor's "
                           "max_export_batch_size), or ask the operator to raise --max-spans-per-request",
                           status=413) from None
    try:
        full = ingest.receive(batch)
    except (OSError, sqlite3.Error) as exc:  # a full disk, a spool locked for long: the exporter retries a 503
        log.error("the live spool cannot keep a request's spans: %s", exc)
        raise RequestError("server", "cannot keep the spans now: its spool on the disk refused them", str(exc),
                           "retry later (exporters retry a 503); the operator should check the spool's disk",
                           status=503) from None
    return full if full is not None else batch


def add_otlp_route(app: FastAPI, ingest: LiveIngest, config: ServiceConfig,
                   refuse: Callable[[RequestError], Response]) -> None:
    """Serve ``POST /v1/traces`` on ``app`` (see the module).

    Args:
        app: The endpoint's app.
        ingest: The live path that keeps, completes, judges and stores the spans.
        config: The endpoint's limits (body size, body deadline).
        refuse: The endpoint's error document for an error.
    """
    lane = anyio.CapacityLimiter(OTLP_WORKERS)

    @app.post(
        OTLP_PATH,
        summary="OpenTelemetry traces (OTLP/HTTP, protobuf or JSON): judged as their conversations complete",
        responses={400: {"description": "not an export request"}, 413: {"description": "over a size limit"},
                   415: {"description": "another content type or encoding"},
                   429: {"description": "conversations held at the limit (see Retry-After)"},
                   503: {"description": "the spool cannot be written now (see Retry-After)"}},
    )
    async def traces(request: Request) -> Response:
        media = (request.headers.get("content-type") or "").partition(";")[0].strip().lower()
        encoding: Encoding = "protobuf" if OTLP_TYPES.get(media) == "protobuf" else "json"
        try:
            body = await read_body(request, config.max_body_bytes, config.body_timeout_s)
        except HungUp:
            return Response(status_code=400)  # nobody is listening; sent only to end the exchange
        if isinstance(body, RequestError):
            return refuse(body)
        coding = (request.headers.get("content-encoding") or "").strip().lower()
        try:
            taken = await anyio.to_thread.run_sync(_take, ingest, body, coding, encoding, config, limiter=lane)
        except RequestError as refused:
            log.warning("POST %s -> %d: %s", OTLP_PATH, refused.status, refused)
            response = refuse(refused)
            if refused.status == 503:
                response.headers["retry-after"] = "5"
            return response
        if isinstance(taken, Full):
            error = RequestError("server", f"holds {taken.held:,} conversations, its limit: they are judged as they "
                                 "complete", None, "retry after the Retry-After seconds (exporters do), or ask the "
                                 "operator to raise --max-pending-conversations", show=False, status=429)
            log.warning("POST %s -> 429: %d conversations held", OTLP_PATH, taken.held)
            response = refuse(error)
            response.headers["retry-after"] = str(taken.retry_after)
            return response
        log.info("POST %s -> 200: %d span(s) kept, %d refused", OTLP_PATH, len(taken.spans), taken.rejected)
        message = taken.message() if taken.rejected else ""
        return _export_answer(encoding, export_response(encoding, taken.rejected, message))
