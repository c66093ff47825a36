"""Keeping credentials out of messages, logs and the screen: the one place that masks them.

Keys reach the workbench from a password field, an environment variable, a data file someone
pasted one into, or an error a provider SDK raised with the key in it. Every path that turns such
text into a message goes through :func:`mask_secrets` (known secret strings) or :func:`redact`
(values stored under credential-looking keys).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from pydantic import SecretStr

MASK = "***"
"""What a secret is replaced with."""

# Shorter strings than this are not masked: "ab" would turn every occurrence of those letters
# in a message into stars, and no real key is that short.
_MIN_SECRET_CHARS = 4
_SECRET_KEY = re.compile(r"api[_-]?key|secret|token|password|passwd|authorization|credential", re.I)


def secret_text(secret: str | SecretStr | None) -> str | None:
    """The plain text of a secret (``SecretStr`` unwrapped), or ``None`` when it is empty."""
    if isinstance(secret, SecretStr):
        secret = secret.get_secret_value()
    return secret if secret else None


def mask_secrets(text: str, secrets: Iterable[str | SecretStr | None]) -> str:
    """``text`` with every occurrence of each secret replaced by :data:`MASK`.

    Args:
        text: A message that may contain a secret (an SDK's error, a URL).
        secrets: The secrets to hide (plain or ``SecretStr``; ``None`` and short ones ignored).

    Returns:
        The masked text.
    """
    for secret in secrets:
        plain = secret_text(secret)
        if plain is not None and len(plain) >= _MIN_SECRET_CHARS:
            text = text.replace(plain, MASK)
    return text


def is_secret_key(key: object) -> bool:
    """True for mapping keys that usually hold credentials (``api_key``, ``token``, ...)."""
    return isinstance(key, str) and _SECRET_KEY.search(key) is not None


def redact(value: Any, *, max_items: int = 7, max_depth: int = 4) -> Any:
    """A bounded copy of ``value`` with the values of credential-looking keys masked.

    Containers are copied (at most ``max_items`` entries each, ``max_depth`` levels deep), so an
    API key pasted into a data file never reaches a message, a log or the screen.
    """
    if max_depth < 0:
        return value
    if isinstance(value, dict):
        return {
            k: MASK if is_secret_key(k) else redact(v, max_items=max_items, max_depth=max_depth - 1)
            for k, v in list(value.items())[:max_items]
        }
    if isinstance(value, list):
        return [redact(v, max_items=max_items, max_depth=max_depth - 1) for v in value[:max_items]]
    return value
