"""The server's access log without credentials: a client's ``?token=...`` never reaches a log line.

uvicorn writes one access line per request with the request target, query string included, on
the ``uvicorn.access`` logger. The endpoint never reads a credential from the URL, but a client
may still put one there (``/run?token=...`` instead of the ``Authorization`` header), and the
line would keep it in whatever file or service collects the logs. A filter on that logger
rewrites each line's arguments before any handler (console, file, ``caplog``) sees them: the
values of credential-looking query parameters and this server's own token, as written or
percent-encoded, become the mask (:func:`agentic_core.common.secrets.mask_request_target`).

A filter on the logger, not on a handler: it holds whatever handlers uvicorn's log config (or
the operator's) attaches, and uvicorn's ``dictConfig`` keeps a logger's existing filters.
"""

from __future__ import annotations

import logging

from pydantic import SecretStr

from agentic_core.common.secrets import known_secrets, mask_request_target

ACCESS_LOGGER = "uvicorn.access"
"""The logger of uvicorn's access lines (also gunicorn's uvicorn workers')."""


class AccessLogMask(logging.Filter):
    """Masks credentials in every string argument of an access line (the request target among them).

    Attributes:
        tokens: The bearer tokens of the apps served in this process (masked wherever they appear).
    """

    def __init__(self) -> None:
        super().__init__()
        self.tokens: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record in place; never drops it."""
        secrets = known_secrets(self.tokens)
        if isinstance(record.args, tuple) and record.args:
            # uvicorn's formatters unpack the five arguments, so their number and kinds are kept.
            record.args = tuple(
                mask_request_target(a, secrets) if isinstance(a, str) else a for a in record.args
            )
        elif not record.args and isinstance(record.msg, str):
            record.msg = mask_request_target(record.msg, secrets)
        return True


def mask_access_log(token: SecretStr | None = None) -> AccessLogMask:
    """Install the filter on uvicorn's access logger (once per process) and add ``token`` to what it masks.

    Args:
        token: The server's bearer token, if it has one.

    Returns:
        The installed filter.
    """
    logger = logging.getLogger(ACCESS_LOGGER)
    installed = next((f for f in logger.filters if isinstance(f, AccessLogMask)), None)
    if installed is None:
        installed = AccessLogMask()
        logger.addFilter(installed)
    if token is not None:
        installed.tokens.add(token.get_secret_value())
    return installed
