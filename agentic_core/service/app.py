"""The HTTP server: ``POST /run``, ``GET /health`` and OpenAPI at ``/docs`` (FastAPI).

A thin layer over :meth:`agentic_core.service.run.Service.run`: the guard
(:mod:`agentic_core.service.guard`) checks the origin, token and content type; the body is read
within the size limit and the body deadline (a huge or trickled upload is refused without being
held); the pure function then runs in a worker thread (judging is blocking work) and the answer
is sent. The body is read raw rather than declared as a FastAPI model: every bad request then
gets the same located ``success: false`` document the Lambda handler sends, not FastAPI's own
error format. The request and response models are still published in the OpenAPI document.

Three lanes of worker threads: requests with a connector (an LLM judge, which may wait on a slow
model for minutes) run in their own, bounded lane and are refused with 503 + ``Retry-After``
when it is full, so requests with the offline judge never queue behind them. Requests with the
offline judge share the offline lane, except small ones (a body of at most
:data:`~agentic_core.service.config.LIGHT_BODY_BYTES`), which have a lane of their own: large
requests filling the offline lane cannot make a one-line request wait. Waiting for a lane counts
against the request's deadline: a request still waiting when it passes is answered 504 then, and
the work in a lane stops at the deadline too (:mod:`agentic_core.service.deadline`), so no request
holds a worker past it.
"""

from __future__ import annotations

import contextlib
import logging
import math
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio
from fastapi import FastAPI, Request
from fastapi.openapi.utils import get_openapi
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.cors import CORSMiddleware

from agentic_core.errors import AgenticError, RequestError
from agentic_core.live.config import LiveConfig
from agentic_core.live.ingest import LiveIngest
from agentic_core.service.access_log import mask_access_log
from agentic_core.service.body import HungUp, read_body
from agentic_core.service.config import LIGHT_BODY_BYTES, LIGHT_WORKERS, ServiceConfig
from agentic_core.service.guard import Guard
from agentic_core.service.models import ErrorResponse, Health, RunRequest, RunResponse
from agentic_core.service.otlp_route import add_otlp_route
from agentic_core.service.run import (
    JSON_HEADERS,
    Service,
    ServiceReply,
    _parse_body,
    error_body,
    problem_of,
)
from agentic_core.version import __version__

log = logging.getLogger("agentic_core.service")

_DESCRIPTION = (
    "Seed 001's agentic evaluation endpoint: send conversations (`datasets`), a judge (`connector`, or none for "
    "the offline default judge) and `config`; get per-conversation metrics and pass@k / pass^k with intervals. "
    "API keys are used for the request only: never logged, stored, cached or echoed."
)


def _send(reply: ServiceReply) -> Response:
    headers = {k: v for k, v in JSON_HEADERS.items() if k != "content-type"}
    return Response(reply.json_bytes(), status_code=reply.status, headers=headers, media_type="application/json")


def _refuse(error: RequestError) -> Response:
    return _send(ServiceReply(error.status, error_body(error.status, str(error), [problem_of(error)])))


T = TypeVar("T")


class _Late(Exception):
    """The request's deadline passed while it waited for a worker of its lane."""


def _refuse_late() -> Response:
    log.warning("POST /run -> 504: the deadline passed while the request waited for a worker")
    error = RequestError(
        "request",
        "passed this server's deadline while waiting for a worker (every one was busy with other requests)",
        fix="retry later, or ask the operator to raise --offline-workers",
        show=False,
        status=504,
    )
    return _refuse(error)


@dataclass
class _Lanes:
    """The worker threads: bounded lanes for LLM, offline and small offline requests."""

    llm: anyio.CapacityLimiter
    offline: anyio.CapacityLimiter
    light: anyio.CapacityLimiter
    # Every lane's threads; never the one that waits (a lane's own limiter is taken first).
    threads: anyio.CapacityLimiter
    llm_active: int = 0  # changed on the event loop only: no lock needed

    @classmethod
    def of(cls, config: ServiceConfig) -> _Lanes:
        """The lanes of a server with these settings."""
        threads = config.max_llm_requests + config.offline_workers + LIGHT_WORKERS
        limiter = anyio.CapacityLimiter
        return cls(
            limiter(config.max_llm_requests), limiter(config.offline_workers), limiter(LIGHT_WORKERS), limiter(threads)
        )

    async def run(self, lane: anyio.CapacityLimiter, deadline: float, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a worker thread of ``lane``, once the lane has a free thread.

        Raises:
            _Late: the deadline passed while the request waited for the lane.
        """
        acquired = False
        with anyio.move_on_after(max(0.0, deadline - time.monotonic())):
            await lane.acquire()
            acquired = True
        if not acquired:
            raise _Late
        try:
            # The work itself stops at the deadline (agentic_core.service.deadline); a thread cannot be
            # stopped from outside, so it is not abandoned here: its lane stays taken until it returns.
            return await anyio.to_thread.run_sync(work, *args, limiter=self.threads)
        finally:
            lane.release()


def _busy(config: ServiceConfig) -> ServiceReply:
    error = RequestError(
        "connector",
        f"cannot be served now: this server's {config.max_llm_requests} request(s) with an LLM judge are all busy",
        fix="retry after the Retry-After seconds, or ask the operator to raise --max-llm-requests",
        show=False,
        status=503,
    )
    return ServiceReply(503, error_body(503, str(error), [problem_of(error)]))


async def _answer(service: Service, lanes: _Lanes, body: bytes, deadline: float) -> Response:
    """Parse in the offline (or light) lane, then evaluate in the lane the request's judge belongs to."""
    offline = lanes.light if len(body) <= LIGHT_BODY_BYTES else lanes.offline
    try:
        doc = await lanes.run(offline, deadline, _parse_body, body, service.config.max_body_bytes)
    except _Late:
        return _refuse_late()
    except AgenticError:
        # Service.run words every refusal; parse errors are answered by it from the raw body.
        doc = None
    request: Any = doc if isinstance(doc, dict) else body
    if not (isinstance(doc, dict) and doc.get("connector") is not None):
        try:
            return _send(await lanes.run(offline, deadline, service.run, request, deadline))
        except _Late:
            return _refuse_late()
    if lanes.llm_active >= service.config.max_llm_requests:
        response = _send(_busy(service.config))
        # An LLM request may take up to the deadline; a tenth of it is a fair first retry.
        response.headers["retry-after"] = str(max(1, math.ceil(service.config.request_deadline_s / 10)))
        return response
    lanes.llm_active += 1
    try:
        return _send(await anyio.to_thread.run_sync(service.run, request, deadline, limiter=lanes.llm))
    finally:
        lanes.llm_active -= 1


def _openapi_schema(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI document, with the request model the raw-body route reads."""
    if app.openapi_schema is None:
        schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
        request_schema = RunRequest.model_json_schema(ref_template="#/components/schemas/{model}")
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        components.update(request_schema.pop("$defs", {}))
        components["RunRequest"] = request_schema
        app.openapi_schema = schema
    return app.openapi_schema


_RUN_ERRORS: dict[int | str, str] = {
    400: "not JSON",
    401: "the server's bearer token is missing or wrong",
    403: "a web page of another origin",
    408: "the body did not arrive within the body deadline",
    413: "body over the size limit",
    415: "Content-Type is not application/json",
    422: "invalid request, with each problem located",
    500: "unexpected failure (generic message)",
    502: "the judge model failed on every interaction",
    503: "every LLM-judge slot is busy (see Retry-After)",
    504: "the request deadline passed (while waiting for a worker, scoring tool use or judging)",
}
"""The statuses ``POST /run`` answers with an error document, and when (its OpenAPI ``responses``)."""


def create_app(config: ServiceConfig | None = None, live: LiveConfig | None = None) -> FastAPI:
    """The FastAPI application of the endpoint.

    Args:
        config: Limits, cache and key policy (default: :class:`ServiceConfig`'s defaults).
        live: The live path's settings: with them, ``POST /v1/traces`` takes OTLP exports and a thread judges and
            stores their conversations (:mod:`agentic_core.live`) while the app runs; ``None``: no live path.

    Returns:
        The app; serve it with uvicorn (``python -m agentic_core serve``).

    Raises:
        AgenticError: The live path cannot start (its run history, spool or reference file).
    """
    service = Service(config)
    settings = service.config
    mask_access_log(settings.token)  # a client's ?token=... in the URL never reaches the access log
    ingest = None if live is None else LiveIngest(live, service._judge_cache(), settings.cache_mode)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if ingest is not None:
            ingest.start()
        try:
            yield
        finally:
            if ingest is not None:
                ingest.stop()  # what waits stays in the spool for the next start

    app = FastAPI(
        title="Agent-evaluation workbench endpoint", version=__version__, description=_DESCRIPTION, lifespan=lifespan
    )
    app.state.service = service
    app.state.live = ingest
    lanes = _Lanes.of(settings)
    app.add_middleware(Guard, config=settings, refuse=_refuse)
    if settings.allowed_origins:
        # Outside the guard: it answers the preflight a browser sends before posting JSON.
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(settings.allowed_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["content-type", "authorization"],
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        # Unknown paths and methods answer in the endpoint's format too.
        error = RequestError(
            f"{request.method} {request.url.path}",
            str(exc.detail).lower(),
            show=False,
            fix="POST /run, GET /health, GET /docs" + (", POST /v1/traces" if ingest is not None else ""),
            status=exc.status_code,
        )
        return _refuse(error)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        # Service.run never raises; this guards the layer around it. No body, no key, in the log.
        log.error("%s %s failed unexpectedly: %s", request.method, request.url.path, type(exc).__name__)
        return _send(ServiceReply(500, error_body(500, "internal error; the details are in the server log", [])))

    @app.get("/health", summary="Liveness, version and the accepted connector class paths")
    async def health() -> Health:
        return service.health()

    @app.post(
        "/run",
        summary="Evaluate conversations (seed 001's request and response)",
        responses={
            200: {"model": RunResponse, "description": "the evaluation"},
            **{status: {"model": ErrorResponse, "description": why} for status, why in _RUN_ERRORS.items()},
        },
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RunRequest"}}},
            }
        },
    )
    async def run(request: Request) -> Response:
        deadline = time.monotonic() + settings.request_deadline_s  # counted from the request's arrival
        try:
            body = await read_body(request, settings.max_body_bytes, settings.body_timeout_s)
        except HungUp:
            return Response(status_code=400)  # nobody is listening; sent only to end the exchange
        if isinstance(body, RequestError):
            return _refuse(body)
        return await _answer(service, lanes, body, deadline)

    if ingest is not None:
        add_otlp_route(app, ingest, settings, _refuse)
    app.openapi = lambda: _openapi_schema(app)  # type: ignore[method-assign]
    return app
