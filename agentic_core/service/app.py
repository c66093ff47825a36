"""The HTTP server: ``POST /run``, ``GET /health`` and OpenAPI at ``/docs`` (FastAPI).

A thin layer over :meth:`agentic_core.service.run.Service.run`: it reads the body (stopping at
the size limit, so a huge upload is refused without being held in memory), hands it to the pure
function in a worker thread (judging is blocking work) and sends the answer. The body is read
raw rather than declared as a FastAPI model: every bad request then gets the same located
``success: false`` document the Lambda handler sends, not FastAPI's own error format. The
request and response models are still published in the OpenAPI document.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.openapi.utils import get_openapi
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from agentic_core.errors import RequestError
from agentic_core.service.config import ServiceConfig
from agentic_core.service.models import ErrorResponse, RunRequest, RunResponse
from agentic_core.service.run import JSON_HEADERS, Service, ServiceReply, body_too_large, error_body, problem_of
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


async def _read_body(request: Request, limit: int) -> bytes | RequestError:
    """The body, or the 413 error as soon as it is known to exceed ``limit`` bytes."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return body_too_large(int(declared), limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:  # chunked uploads declare no length: count as they arrive
            return body_too_large(None, limit)
        chunks.append(chunk)
    return b"".join(chunks)


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


def create_app(config: ServiceConfig | None = None) -> FastAPI:
    """The FastAPI application of the endpoint.

    Args:
        config: Limits, cache and key policy (default: :class:`ServiceConfig`'s defaults).

    Returns:
        The app; serve it with uvicorn (``python -m agentic_core serve``).
    """
    service = Service(config)
    app = FastAPI(title="Agent-evaluation workbench endpoint", version=__version__, description=_DESCRIPTION)
    app.state.service = service

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        # Unknown paths and methods answer in the endpoint's format too.
        error = RequestError(
            f"{request.method} {request.url.path}",
            str(exc.detail).lower(),
            show=False,
            fix="POST /run, GET /health, GET /docs",
            status=exc.status_code,
        )
        return _refuse(error)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        # Service.run never raises; this guards the layer around it. No body, no key, in the log.
        log.error("%s %s failed unexpectedly: %s", request.method, request.url.path, type(exc).__name__)
        return _send(ServiceReply(500, error_body(500, "internal error; the details are in the server log", [])))

    @app.get("/health", summary="Liveness, version and the accepted connector class paths")
    async def health() -> dict[str, Any]:
        return service.health()

    @app.post(
        "/run",
        summary="Evaluate conversations (seed 001's request and response)",
        responses={
            200: {"model": RunResponse, "description": "the evaluation"},
            400: {"model": ErrorResponse, "description": "not JSON"},
            413: {"model": ErrorResponse, "description": "body over the size limit"},
            422: {"model": ErrorResponse, "description": "invalid request, with each problem located"},
            500: {"model": ErrorResponse, "description": "unexpected failure (generic message)"},
            502: {"model": ErrorResponse, "description": "the judge model failed on every interaction"},
        },
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RunRequest"}}},
            }
        },
    )
    async def run(request: Request) -> Response:
        body = await _read_body(request, service.config.max_body_bytes)
        if isinstance(body, RequestError):
            return _refuse(body)
        reply = await run_in_threadpool(service.run, body)
        return _send(reply)

    app.openapi = lambda: _openapi_schema(app)  # type: ignore[method-assign]
    return app
