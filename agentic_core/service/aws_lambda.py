"""``agentic_core.lambda_handler(event, context)``: the endpoint as an AWS Lambda function.

API Gateway (REST or HTTP API) and Lambda function URLs deliver the request body as a string in
``event["body"]``, base64-encoded when ``isBase64Encoded`` is true; a direct invocation
(``aws lambda invoke --payload``) may pass the request object itself as the event. The answer is
``{"statusCode", "headers", "body"}`` with the same JSON document the HTTP server sends, from the
same function (:meth:`agentic_core.service.run.Service.run`).

Settings come from environment variables (see :mod:`agentic_core.service.config`). The service,
and with it the judge cache and the offline judge, is kept between warm invocations. Lambda's
file system is read-only outside ``/tmp``: set ``AGENTIC_CACHE_PATH=/tmp/judge_cache.sqlite3``
(an unwritable cache falls back to memory, with a warning in each answer).
"""

from __future__ import annotations

import base64
import binascii
import functools
from typing import Any

from agentic_core.errors import RequestError
from agentic_core.service.config import ServiceConfig
from agentic_core.service.run import JSON_HEADERS, Service, ServiceReply, error_body, problem_of


@functools.cache
def lambda_service() -> Service:
    """The service of this Lambda instance (settings from the environment), built on first use."""
    return Service(ServiceConfig.from_env())


def _method(event: dict[str, Any]) -> str:
    http = event.get("requestContext", {}).get("http", {}) if isinstance(event.get("requestContext"), dict) else {}
    method = event.get("httpMethod") or (http.get("method") if isinstance(http, dict) else None) or "POST"
    return str(method).upper()


def _path(event: dict[str, Any]) -> str:
    return str(event.get("rawPath") or event.get("path") or "/run")


def _event_body(event: dict[str, Any]) -> Any:
    """The request body of an API Gateway / function URL event, or the event itself when invoked directly."""
    if "body" not in event:
        return event
    body = event["body"]
    if body is None:
        return b""
    if isinstance(body, dict):  # a test console's parsed body
        return body
    if event.get("isBase64Encoded"):
        try:
            return base64.b64decode(body, validate=True)
        except (binascii.Error, ValueError):
            raise RequestError(
                "body", "is marked isBase64Encoded but is not valid base64", fix="send the JSON text", show=False
            ) from None
    return body


def _answer(reply: ServiceReply) -> dict[str, Any]:
    return {"statusCode": reply.status, "headers": dict(JSON_HEADERS), "body": reply.json_text()}


def lambda_handler(event: dict[str, Any], context: Any = None) -> dict[str, Any]:
    """The Lambda entry point: ``GET /health``, else ``POST /run``.

    Args:
        event: The invocation event (API Gateway proxy, function URL, or the request itself).
        context: The Lambda context (unused).

    Returns:
        ``{"statusCode": int, "headers": {...}, "body": JSON text}``.
    """
    service = lambda_service()
    if not isinstance(event, dict):
        error = RequestError("event", "must be an object", type(event).__name__, "invoke with a JSON object")
        return _answer(ServiceReply(400, error_body(400, str(error), [problem_of(error)])))
    method = _method(event)
    if method == "GET" and _path(event).rstrip("/").endswith("health"):
        return _answer(ServiceReply(200, service.health().model_dump()))
    if method != "POST":
        error = RequestError("method", "must be POST for /run (GET for /health)", method, "send a POST", status=405)
        return _answer(ServiceReply(405, error_body(405, str(error), [problem_of(error)])))
    try:
        body = _event_body(event)
    except RequestError as exc:
        return _answer(ServiceReply(exc.status, error_body(exc.status, str(exc), [problem_of(exc)])))
    return _answer(service.run(body))
