"""``python -m agentic_core serve``: seed 001's HTTP endpoint (FastAPI + uvicorn).

Loopback (127.0.0.1) by default: the endpoint evaluates whatever it is sent, with whatever key
it is sent, so exposing it is a decision (``--host 0.0.0.0``), said on stderr when taken.
"""

from __future__ import annotations

import argparse
import logging
from typing import TextIO

from agentic_core.errors import SettingsError
from agentic_core.judges.runner import CACHE_MODES
from agentic_core.service.config import DEFAULT_MAX_BODY_MB, DEFAULT_MAX_DATASETS, DEFAULT_MAX_INTERACTIONS, MIB

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
    serve.add_argument("--cache", choices=list(CACHE_MODES), default="use", help="judge cache mode (default: use)")
    serve.add_argument("--cache-path", help="judge cache file (default: the user cache directory)")
    serve.add_argument(
        "--allow-env-keys",
        action="store_true",
        help="let requests without an api_key use this server's key from the environment (off: they must bring one)",
    )
    serve.add_argument(
        "--log-level", choices=["debug", "info", "warning", "error"], default="info", help="server log level"
    )


def run_serve(args: argparse.Namespace, stderr: TextIO) -> int:
    """Run the ``serve`` command until interrupted; returns the exit code.

    Raises:
        SettingsError: an invalid port or limit (named as the option or its setting).
    """
    import uvicorn

    from agentic_core.service.app import create_app
    from agentic_core.service.config import ServiceConfig

    if not 0 <= args.port <= 65535:
        raise SettingsError("--port", "must be a port number in [0, 65535]", args.port, "such as --port 8000")
    config = ServiceConfig.build(
        max_body_bytes=int(args.max_body_mb * MIB),
        max_datasets=args.max_datasets,
        max_interactions=args.max_interactions,
        cache_mode=args.cache,
        cache_path=args.cache_path,
        allow_env_keys=args.allow_env_keys,
    )
    if args.host not in _LOOPBACK:
        print(
            f"warning: serving on {args.host}: anyone who can reach this port can run evaluations; put it behind "
            "TLS and authentication (keys travel in request bodies)",
            file=stderr,
        )
    app = create_app(config)
    try:
        print(f"default judge ready ({app.state.service.warm_up():.1f} s)", file=stderr)
    except RuntimeError as exc:  # serve anyway: each request then reports its own problem
        print(f"warning: {exc}", file=stderr)
    handler = logging.StreamHandler(stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    service_log = logging.getLogger("agentic_core.service")
    service_log.addHandler(handler)
    service_log.setLevel(args.log_level.upper())
    print(f"serving on http://{args.host}:{args.port} (POST /run, GET /health, docs at /docs)", file=stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    return 0  # EXIT_OK (the parser module imports this one, so it is not imported from there)
