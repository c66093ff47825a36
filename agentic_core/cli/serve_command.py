"""``python -m agentic_core serve``: seed 001's HTTP endpoint (FastAPI + uvicorn), and live traces in (OTLP).

Loopback (127.0.0.1) by default: the endpoint evaluates whatever it is sent, with whatever key
it is sent, so exposing it is a decision (``--host 0.0.0.0``), said on stderr when taken, with
the advice to require a token (``--token-env``) when none is set.

``POST /v1/traces`` takes OpenTelemetry exports (:mod:`agentic_core.live`) unless ``--no-otlp``; when the live
path cannot start (a read-only run history, a spool that cannot be written), the server says why on stderr and
serves ``/run`` without it. A ``--references`` file that cannot be read stops the start (it was asked for).
"""

from __future__ import annotations

import argparse
import logging
import os
from typing import TextIO

from agentic_core.common.keywords import keywords_from
from agentic_core.errors import SettingsError
from agentic_core.judges.registry import DEFAULT_JUDGE
from agentic_core.judges.runner import CACHE_MODES
from agentic_core.live.config import (
    DEFAULT_IDLE_S,
    DEFAULT_MAX_PENDING,
    DEFAULT_MAX_SPANS_PER_REQUEST,
    LiveConfig,
    live_judges,
)
from agentic_core.live.spool import SpoolError
from agentic_core.runs.store import RunStoreError
from agentic_core.service.config import (
    DEFAULT_BODY_TIMEOUT_S,
    DEFAULT_MAX_BODY_MB,
    DEFAULT_MAX_DATASETS,
    DEFAULT_MAX_INTERACTIONS,
    DEFAULT_MAX_JUDGE_CALL_S,
    DEFAULT_MAX_LABELS,
    DEFAULT_MAX_LLM_REQUESTS,
    DEFAULT_OFFLINE_WORKERS,
    DEFAULT_REQUEST_DEADLINE_S,
    LIGHT_BODY_BYTES,
    LIGHT_WORKERS,
    MIB,
    token_rule_broken,
)

_LOOPBACK = ("127.0.0.1", "localhost", "::1")


def add_serve_parser(sub: argparse._SubParsersAction) -> None:
    """Register the ``serve`` command and its options on the command line's subparsers."""
    serve = sub.add_parser("serve", help="serve seed 001's HTTP endpoint (POST /run, GET /health, /docs)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine)")
    serve.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    serve.add_argument(
        "--max-body-mb", type=float, default=DEFAULT_MAX_BODY_MB, help="largest request body in MiB (default: 50)"
    )
    serve.add_argument("--max-datasets", type=int, default=DEFAULT_MAX_DATASETS, help="most conversations per request")
    serve.add_argument(
        "--max-interactions", type=int, default=DEFAULT_MAX_INTERACTIONS, help="most interactions per request"
    )
    serve.add_argument("--max-labels", type=int, default=DEFAULT_MAX_LABELS, help="most human labels per request")
    serve.add_argument("--cache", choices=list(CACHE_MODES), default="use", help="judge cache mode (default: use)")
    serve.add_argument("--cache-path", help="judge cache file (default: the user cache directory)")
    serve.add_argument(
        "--allow-env-keys",
        action="store_true",
        help="let requests without an api_key use this server's key from the environment (off: they must bring one)",
    )
    serve.add_argument(
        "--token-env",
        metavar="NAME",
        help="require 'Authorization: Bearer <token>' on every request but GET /health, the token read from this "
        "environment variable (recommended for any address other than loopback)",
    )
    serve.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help="a web origin (https://host:port) whose pages may call the endpoint; repeatable (default: none: "
        "requests with another Origin header are refused)",
    )
    serve.add_argument(
        "--body-timeout-s",
        type=float,
        default=DEFAULT_BODY_TIMEOUT_S,
        help="seconds a client has to send its whole request body (default: 30)",
    )
    serve.add_argument(
        "--request-deadline-s",
        type=float,
        default=DEFAULT_REQUEST_DEADLINE_S,
        help="seconds a request may take from arrival to answer; waiting, loading, tool scoring and judging are "
        "stopped then (default: 600)",
    )
    serve.add_argument(
        "--max-judge-call-s",
        type=float,
        default=DEFAULT_MAX_JUDGE_CALL_S,
        help="the most a connector's timeout x (max_retries + 1) may be (default: 300)",
    )
    serve.add_argument(
        "--max-llm-requests",
        type=int,
        default=DEFAULT_MAX_LLM_REQUESTS,
        help="requests with an LLM judge served at once; more get 503 with Retry-After (default: 4)",
    )
    serve.add_argument(
        "--offline-workers",
        type=int,
        default=DEFAULT_OFFLINE_WORKERS,
        help=f"threads for requests with the offline judge (default: 8; requests of at most "
        f"{LIGHT_BODY_BYTES // 1024} KiB have {LIGHT_WORKERS} more)",
    )
    serve.add_argument(
        "--store-runs",
        action="store_true",
        help="store each answered POST /run in the run history (AGENTIC_RUNS_PATH, else the user data folder) with "
        "its metadata and labels; the answer carries run_id (default: off)",
    )
    serve.add_argument(
        "--log-level", choices=["debug", "info", "warning", "error"], default="info", help="server log level"
    )
    _add_otlp_options(serve)


def _add_otlp_options(serve: argparse.ArgumentParser) -> None:
    """The live path's options (``POST /v1/traces``), in their own group of the help."""
    otlp = serve.add_argument_group("live traces (OTLP/HTTP at POST /v1/traces; docs: Send traces live)")
    otlp.add_argument("--no-otlp", action="store_true", help="do not take traces at POST /v1/traces")
    otlp.add_argument(
        "--idle-s",
        type=float,
        default=DEFAULT_IDLE_S,
        help="seconds without a span after which a conversation is complete and judged (default: 30); a trace "
        "naming no conversation id completes when its root span arrives",
    )
    otlp.add_argument(
        "--references",
        metavar="FILE",
        help="golden set joined to each live conversation by session_id or task_id (the OpenTelemetry importer's "
        "reference file)",
    )
    otlp.add_argument(
        "--otlp-judge",
        choices=live_judges(),
        default=DEFAULT_JUDGE,
        help=f"judge of live conversations (default: {DEFAULT_JUDGE}, the offline default)",
    )
    otlp.add_argument(
        "--max-spans-per-request",
        type=int,
        default=DEFAULT_MAX_SPANS_PER_REQUEST,
        help="most spans one export request may hold; more: 413 (default: 10000; the body limit is --max-body-mb)",
    )
    otlp.add_argument(
        "--max-pending-conversations",
        type=int,
        default=DEFAULT_MAX_PENDING,
        help="conversations held at once, waiting to complete or being judged; past it requests get 429 with "
        "Retry-After (default: 10000; their spans wait on the disk)",
    )
    otlp.add_argument(
        "--spool",
        metavar="PATH",
        help="file where spans wait until judged, kept across restarts (default: live-spool.sqlite3 beside the run "
        "history)",
    )


def _live_config(args: argparse.Namespace) -> LiveConfig | None:
    """The live path's settings from the options (``None`` with ``--no-otlp``).

    Raises:
        SettingsError: an invalid value, named as its option.
    """
    if args.no_otlp:
        return None
    options = {"idle_s": "--idle-s", "max_spans_per_request": "--max-spans-per-request",
               "max_pending": "--max-pending-conversations"}
    try:
        return LiveConfig.build(
            idle_s=args.idle_s, max_spans_per_request=args.max_spans_per_request,
            max_pending=args.max_pending_conversations, judge=args.otlp_judge, references=args.references,
            spool_path=args.spool,
        )
    except SettingsError as exc:
        raise SettingsError(options.get(exc.place, exc.place), exc.rule, exc.value, exc.fix) from None


def run_serve(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Run the ``serve`` command until interrupted; returns the exit code.

    ``stdout`` is not written (the server speaks on stderr); every command takes the same three arguments.

    Raises:
        SettingsError: an invalid port or limit (named as the option or its setting).
    """
    import uvicorn

    from agentic_core.service.app import create_app
    from agentic_core.service.config import ServiceConfig

    if not 0 <= args.port <= 65535:
        raise SettingsError("--port", "must be a port number in [0, 65535]", args.port, "such as --port 8000")
    token = None
    if args.token_env is not None:
        token = os.environ.get(args.token_env, "").strip()
        if not token:
            raise SettingsError(
                "--token-env",
                "must name an environment variable holding the token; it is unset or empty",
                args.token_env,
                f"export {args.token_env}=$(python -c 'import secrets; print(secrets.token_urlsafe(32))') first",
            )
        broken = token_rule_broken(token)
        if broken is not None:  # refused here, not on every request: a client could never send it
            raise SettingsError(
                "--token-env",
                f"must name a variable holding a token a client can send; its token {broken}",
                args.token_env,
                f"set {args.token_env} to printable text, such as "
                "$(python -c 'import secrets; print(secrets.token_urlsafe(32))')",
            )
    config = ServiceConfig.build(
        **keywords_from(
            args, "max_datasets", "max_interactions", "max_labels", "cache_path", "allow_env_keys", "body_timeout_s",
            "request_deadline_s", "max_judge_call_s", "max_llm_requests", "offline_workers", "store_runs",
            cache_mode="cache", allowed_origins="allow_origin",
        ),
        max_body_bytes=int(args.max_body_mb * MIB),
        token=token,
    )  # fmt: skip
    if args.host not in _LOOPBACK:
        advice = (
            "keep it behind TLS (keys travel in request bodies)"
            if token
            else "require a token with --token-env NAME and put it behind TLS (keys travel in request bodies)"
        )
        print(
            f"warning: serving on {args.host}: anyone who can reach this port can run evaluations"
            f"{'' if token else ' (no token required)'}; {advice}",
            file=stderr,
        )
    live = _live_config(args)
    try:
        app = create_app(config, live)
    except (RunStoreError, SpoolError) as exc:  # the live path cannot start: /run is served all the same
        print(f"warning: POST /v1/traces is off: {exc}", file=stderr)
        app, live = create_app(config), None
    try:
        print(f"default judge ready ({app.state.service.warm_up():.1f} s)", file=stderr)
    except RuntimeError as exc:  # serve anyway: each request then reports its own problem
        print(f"warning: {exc}", file=stderr)
    handler = logging.StreamHandler(stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    service_log = logging.getLogger("agentic_core.service")
    service_log.addHandler(handler)
    service_log.setLevel(args.log_level.upper())
    traces = ", POST /v1/traces" if live is not None else ""
    print(f"serving on http://{args.host}:{args.port} (POST /run{traces}, GET /health, docs at /docs)", file=stderr)
    if live is not None:
        ingest = app.state.live
        picked = f"; {ingest.picked_up} span(s) received before the last stop are picked up" if ingest.picked_up else ""
        print(f"live traces: a conversation is judged after {live.idle_s:g} s without a span (by {live.judge}) and "
              f"stored in {ingest.runs.store.path}{picked}", file=stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    return 0  # EXIT_OK (the parser module imports this one, so it is not imported from there)
