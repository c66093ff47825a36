"""The endpoint's own settings: request limits, deadlines, who may call it, the judge cache and keys.

Set by ``python -m agentic_core serve`` options, or from environment variables (the Lambda
handler, which has no command line): ``AGENTIC_MAX_BODY_MB``, ``AGENTIC_MAX_DATASETS``,
``AGENTIC_MAX_INTERACTIONS``, ``AGENTIC_MAX_LABELS``, ``AGENTIC_SERVICE_CACHE`` (use / refresh / off),
``AGENTIC_CACHE_PATH`` (the judge cache's usual variable), ``AGENTIC_ALLOW_ENV_KEYS`` (1 / true),
``AGENTIC_REQUEST_DEADLINE_S`` and ``AGENTIC_MAX_JUDGE_CALL_S``.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator

from agentic_core.errors import SettingsError
from agentic_core.judges.runner import CacheMode

MIB = 1024 * 1024
DEFAULT_MAX_BODY_MB = 50.0
DEFAULT_MAX_DATASETS = 10_000
DEFAULT_MAX_INTERACTIONS = 100_000
DEFAULT_MAX_LABELS = 100_000
DEFAULT_BODY_TIMEOUT_S = 30.0
DEFAULT_REQUEST_DEADLINE_S = 600.0
# 60 s per call x 5 attempts: the LLM judge's own defaults (timeout 60 s, 4 retries) fit exactly.
DEFAULT_MAX_JUDGE_CALL_S = 300.0
DEFAULT_MAX_LLM_REQUESTS = 4
DEFAULT_OFFLINE_WORKERS = 8
LIGHT_BODY_BYTES = 64 * 1024
"""Offline requests with a body this small (a few dozen interactions) have a lane of their own."""
LIGHT_WORKERS = 2
"""Threads of that lane: its requests take milliseconds each, so a few threads keep it moving."""

_ORIGIN = re.compile(r"^https?://[^/\s?#]+$")

_TRUE = ("1", "true", "yes", "on")


def token_rule_broken(token: str) -> str | None:
    """The rule a bearer token breaks, or ``None`` when a client can send it.

    Any Unicode text is accepted (the guard compares its UTF-8 bytes, and its Latin-1 bytes when it
    has them, see :mod:`agentic_core.service.guard`), but not what no header can carry: nothing,
    control characters (a line break ends a header), whitespace at either end (clients and the
    guard strip it) or text that is not Unicode (an environment variable holding bytes that are not
    UTF-8 reads as lone surrogates).

    Args:
        token: The token as configured (never shown in a message).
    """
    if not token.strip():
        return "must not be empty (leave it unset for no authentication)"
    try:
        token.encode("utf-8")
    except UnicodeEncodeError:
        return "must be UTF-8 text (the environment variable holds bytes that are not UTF-8)"
    if token != token.strip():
        return "must not start or end with whitespace (clients strip it from the header)"
    if any(unicodedata.category(c) == "Cc" for c in token):
        return "must not hold control characters such as a line break (an HTTP header cannot carry them)"
    return None


class ServiceConfig(BaseModel):
    """How the endpoint serves requests.

    Attributes:
        max_body_bytes: Largest request body accepted (larger: 413). 50 MiB by default, about
            100k interactions with one tool call each.
        max_datasets: Most conversations in one request (more: 422).
        max_interactions: Most interactions in one request (more: 422); bounds the judge work a
            single request can ask for.
        max_labels: Most human labels in one request's ``labels`` (more: 422; issue 37).
        cache_mode: The judge cache mode (``use``, ``refresh``, ``off``); verdicts are keyed by
            the judge identity and the texts, never by or with a key.
        cache_path: The judge cache file; ``None``: ``AGENTIC_CACHE_PATH`` or the user cache
            folder; ``":memory:"``: kept in this process only.
        allow_env_keys: Let a connector without ``api_key`` use the server's key from the
            environment (the provider's usual variable, or seed 001's ``LLM_API_KEY``). Off by
            default: anyone who can reach the endpoint could otherwise spend the operator's key.
            Never used for a request that names its own ``base_url``.
        token: When set, every request except ``GET /health`` must carry
            ``Authorization: Bearer <token>`` (otherwise 401). ``serve --token-env NAME`` reads it
            from an environment variable, so it never appears on a command line. Any Unicode text
            a header can carry (see :func:`token_rule_broken`); sent UTF-8-encoded (or Latin-1).
        allowed_origins: Web origins (``https://host:port``) whose pages may call the endpoint.
            A request with an ``Origin`` header that is neither the server's own address nor
            listed is refused (403): without this, any web page a user opens could post to a
            server on their loopback and spend its keys. Requests without ``Origin`` (curl,
            scripts, other servers) are not browsers' and are allowed.
        body_timeout_s: Seconds a client has to send the whole request body (then 408), so a
            body trickled a byte at a time cannot hold a connection.
        request_deadline_s: Seconds a request may take from its arrival to its answer; the work
            still running then (waiting for a worker, loading and tool scoring, judging) is stopped
            (504; what was judged stays in the judge cache).
        max_judge_call_s: The most one judge call may take with all its attempts: a connector's
            ``timeout`` x (``max_retries`` + 1) above it is refused (422).
        max_llm_requests: Requests with a connector (LLM judge) served at once; one more is
            answered 503 with ``Retry-After``. They run in their own threads, so requests with
            the offline judge never wait behind slow models.
        offline_workers: Threads for requests with the offline judge (more wait their turn, until
            their deadline). Requests of at most :data:`LIGHT_BODY_BYTES` have
            :data:`LIGHT_WORKERS` threads of their own besides.
        store_runs: Store each answered ``POST /run`` in the run history (``$AGENTIC_RUNS_PATH``, else the
            user data folder; the dashboard's History and ``runs list`` read it) with the request's
            ``metadata`` as its tags and its ``labels``; the answer then carries ``run_id``. Off by default:
            a server does not fill a disk unasked. A history that cannot be written costs no answer: the
            results come back with a warning saying why the run was not stored.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_body_bytes: int = Field(default=int(DEFAULT_MAX_BODY_MB * MIB), ge=1024)
    max_datasets: int = Field(default=DEFAULT_MAX_DATASETS, ge=1)
    max_interactions: int = Field(default=DEFAULT_MAX_INTERACTIONS, ge=1)
    max_labels: int = Field(default=DEFAULT_MAX_LABELS, ge=1)
    cache_mode: CacheMode = "use"
    cache_path: str | None = None
    allow_env_keys: bool = False
    token: SecretStr | None = None
    allowed_origins: tuple[str, ...] = ()
    body_timeout_s: float = Field(default=DEFAULT_BODY_TIMEOUT_S, gt=0, allow_inf_nan=False)
    request_deadline_s: float = Field(default=DEFAULT_REQUEST_DEADLINE_S, gt=0, allow_inf_nan=False)
    max_judge_call_s: float = Field(default=DEFAULT_MAX_JUDGE_CALL_S, gt=0, allow_inf_nan=False)
    max_llm_requests: int = Field(default=DEFAULT_MAX_LLM_REQUESTS, ge=1)
    offline_workers: int = Field(default=DEFAULT_OFFLINE_WORKERS, ge=1)
    store_runs: bool = False

    @field_validator("token")
    @classmethod
    def _token(cls, v: SecretStr | None) -> SecretStr | None:
        broken = None if v is None else token_rule_broken(v.get_secret_value())
        if broken is not None:
            raise ValueError(broken)
        return v

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _origins(cls, v: object) -> object:
        if isinstance(v, str):
            v = (v,)
        if not isinstance(v, (list, tuple)):
            return v
        origins = []
        for origin in v:
            text = str(origin).strip().rstrip("/").lower()
            # An origin is exactly what a browser sends: scheme, host and port, no path.
            if not _ORIGIN.match(text):
                raise ValueError(f"{origin!r} is not an origin such as https://dashboard.example.com:8443")
            origins.append(text)
        return tuple(origins)

    @classmethod
    def build(cls, **values: object) -> ServiceConfig:
        """Build the settings, translating validation errors for the operator.

        Raises:
            SettingsError: naming the first invalid setting, its rule, value and fix.
        """
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            err = exc.errors()[0]
            name = ".".join(str(p) for p in err["loc"]) or "service settings"
            # The token's value is never shown, not even a wrong one.
            value = None if name == "token" else err.get("input")
            rule = err["msg"].removeprefix("Value error, ")  # pydantic's prefix of a validator's own rule
            raise SettingsError(
                name, rule[:1].lower() + rule[1:], value, "see `python -m agentic_core serve --help`",
                show=name != "token",
            ) from None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ServiceConfig:
        """The settings from environment variables (see the module docstring); defaults elsewhere.

        Raises:
            SettingsError: a variable holds a value of the wrong kind (named with the variable).
        """
        env = os.environ if environ is None else environ
        values: dict[str, object] = {}
        numbers = (
            ("AGENTIC_MAX_BODY_MB", "max_body_bytes", float),
            ("AGENTIC_MAX_DATASETS", "max_datasets", int),
            ("AGENTIC_MAX_INTERACTIONS", "max_interactions", int),
            ("AGENTIC_MAX_LABELS", "max_labels", int),
            ("AGENTIC_REQUEST_DEADLINE_S", "request_deadline_s", float),
            ("AGENTIC_MAX_JUDGE_CALL_S", "max_judge_call_s", float),
        )
        for var, name, kind in numbers:
            text = env.get(var, "").strip()
            if not text:
                continue
            try:
                number = kind(text)
            except ValueError:
                raise SettingsError(var, f"must be a {kind.__name__} number", text, f"export {var}=...") from None
            values[name] = int(number * MIB) if name == "max_body_bytes" else number
        mode = env.get("AGENTIC_SERVICE_CACHE", "").strip()
        if mode:
            values["cache_mode"] = mode
        path = env.get("AGENTIC_CACHE_PATH", "").strip()
        if path:
            values["cache_path"] = path
        values["allow_env_keys"] = env.get("AGENTIC_ALLOW_ENV_KEYS", "").strip().lower() in _TRUE
        values["store_runs"] = env.get("AGENTIC_STORE_RUNS", "").strip().lower() in _TRUE
        return cls.build(**values)
