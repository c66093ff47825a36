"""Who may call the HTTP endpoint: the origin rule, the bearer token and the content type.

A server on loopback is still reachable from every web page its user opens: a page may post a
``text/plain`` body to ``http://127.0.0.1:8000/run`` without asking anyone (a "simple" request
needs no CORS preflight), and the server would judge it, with the operator's key when
``--allow-env-keys`` is on. Three rules close that, checked before the body is read:

* **Origin.** Browsers name the page's origin on every cross-origin request. A request whose
  ``Origin`` is neither this server's own address (the address the connection reached, never
  the ``Host`` header a rebinding DNS name controls) nor configured in ``allowed_origins`` is
  refused with 403. Without ``Origin`` the caller is not a browser page (curl, a script, CI).
* **Token.** With a token configured, every request except ``GET /health`` needs
  ``Authorization: Bearer <token>`` (401 otherwise), compared in constant time; a non-ASCII
  token is accepted sent as UTF-8 (or Latin-1).
* **Content type.** ``POST`` bodies must be ``application/json`` (415 otherwise): a page can send
  that type cross-origin only after a preflight, which the origin rule answers. ``POST /v1/traces`` (OTLP) also
  takes ``application/x-protobuf``, which needs a preflight alike.
"""

from __future__ import annotations

import contextlib
import hmac
from typing import Any

from pydantic import SecretStr
from starlette.types import ASGIApp, Receive, Scope, Send

from agentic_core.errors import RequestError
from agentic_core.service.config import ServiceConfig

_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
_OPEN_PATHS = ("/health",)
OTLP_PATH = "/v1/traces"
"""Where OTLP/HTTP exporters send traces (their default path)."""
OTLP_TYPES = {"application/x-protobuf": "protobuf", "application/json": "json"}
"""The bodies ``POST /v1/traces`` takes, and the encoding each names (as the OTLP/HTTP exporters send them)."""


def _host_text(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def own_origins(scope: Scope) -> set[str]:
    """The origins of this server's own pages (``/docs``): the address the connection reached.

    On loopback every loopback name of that port counts as the server's own.
    """
    server = scope.get("server")
    if not server or server[1] is None:
        return set()
    host, port = _host_text(str(server[0])), int(server[1])
    scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
    hosts = {host.lower()}
    if host in _LOOPBACK_NAMES or host.startswith("127."):
        hosts.update(_LOOPBACK_NAMES)
    return {f"{scheme}://{h}:{port}" for h in hosts}


def _raw_header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value)
    return None


def _header(scope: Scope, name: bytes) -> str | None:
    raw = _raw_header(scope, name)
    return None if raw is None else raw.decode("latin-1")


def token_matches(given: bytes, token: SecretStr) -> bool:
    """Whether ``given`` (a header's raw bytes) is ``token``, compared in constant time.

    Header bytes have no declared encoding: curl and most clients send a non-ASCII token as
    UTF-8, Python's ``http.client`` (``requests``) as Latin-1. Both encodings of the one token are
    accepted; decoding the header as Latin-1 and comparing UTF-8 (as before) accepted only the
    second.
    """
    text = token.get_secret_value()
    expected = {text.encode("utf-8")}
    with contextlib.suppress(UnicodeEncodeError):  # characters past U+00FF have no Latin-1 form
        expected.add(text.encode("latin-1"))
    # compare_digest for each form, every time: the time taken does not say how much of a guess was right.
    return any([hmac.compare_digest(given, form) for form in expected])


def _origin_error(origin: str) -> RequestError:
    return RequestError(
        "Origin header",
        "must be this server's own address or an allowed origin: pages of other sites may not call this endpoint",
        origin,
        "call it from a script, curl or the server's own /docs page, or start the server with "
        f"--allow-origin {origin} to let pages of that site call it",
        status=403,
    )


def _token_error(given: bool) -> RequestError:
    return RequestError(
        "Authorization header",
        "must be 'Bearer <token>' with this server's token" if not given else "does not carry this server's token",
        fix="send the header Authorization: Bearer <token> (ask the operator for the token)",
        show=False,
        status=401,
    )


def _type_error(content_type: str | None, path: Any) -> RequestError:
    if path == OTLP_PATH:
        return RequestError(
            "Content-Type header",
            "must be application/x-protobuf or application/json (OTLP/HTTP's two encodings)",
            content_type if content_type is not None else "no Content-Type",
            "export with an OTLP/HTTP exporter (OTLPSpanExporter of opentelemetry-exporter-otlp-proto-http)",
            status=415,
        )
    return RequestError(
        "Content-Type header",
        "must be application/json (the endpoint reads JSON only)",
        content_type if content_type is not None else "no Content-Type",
        "send the header Content-Type: application/json (curl: -H 'Content-Type: application/json')",
        status=415,
    )


def check_request(scope: Scope, config: ServiceConfig) -> RequestError | None:
    """The first rule a request breaks (origin, then token, then content type), or ``None``.

    Args:
        scope: The ASGI scope of an HTTP request.
        config: The server's settings (token, allowed origins).

    Returns:
        The 403 / 401 / 415 error to answer with, or ``None`` when the request may proceed.
    """
    origin = _header(scope, b"origin")
    if origin is not None:
        cleaned = origin.strip().rstrip("/").lower()
        if cleaned not in config.allowed_origins and cleaned not in own_origins(scope):
            return _origin_error(origin)
    if config.token is not None and scope.get("path") not in _OPEN_PATHS:
        given = _raw_header(scope, b"authorization") or b""
        scheme, _, token = given.strip().partition(b" ")
        if scheme.lower() != b"bearer" or not token_matches(token.strip(), config.token):
            return _token_error(bool(given))
    if scope.get("method") == "POST":
        content_type = _header(scope, b"content-type")
        media = (content_type or "").partition(";")[0].strip().lower()
        path = scope.get("path")
        if media != "application/json" and not (path == OTLP_PATH and media in OTLP_TYPES):
            return _type_error(content_type, path)
    return None


class Guard:
    """ASGI middleware refusing requests that break :func:`check_request`, before their body is read.

    Args:
        app: The application behind the guard.
        config: The server's settings.
        refuse: Turns an error into the response to send (the endpoint's error document).
    """

    def __init__(self, app: ASGIApp, config: ServiceConfig, refuse: Any) -> None:
        self.app = app
        self.config = config
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            error = check_request(scope, self.config)
            if error is not None:
                response = self.refuse(error)
                if error.status == 401:
                    response.headers["www-authenticate"] = "Bearer"
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
