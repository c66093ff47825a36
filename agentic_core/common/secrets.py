"""Keeping credentials out of messages, logs and the screen: the one place that masks them.

Keys reach the workbench from a password field, an environment variable, a data file someone
pasted one into, or an error a provider SDK raised with the key in it. Every path that turns such
text into a message goes through :func:`mask_secrets` (known secret strings) or :func:`redact`
(values stored under credential-looking keys).

A judge server can echo a key back (the ``Authorization`` header in its reasoning), and that
reasoning would be cached and served to another caller. So the process keeps a registry of every
key handed to a judge (:func:`register_secret`), and everything a judge returns is masked with all
of them plus the credential-looking environment variables (:func:`mask_known`) before it is stored
or shown.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote, quote_plus, unquote_plus

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


# -- every secret the process knows ---------------------------------------------------------------

# A key registered for the whole process is used to mask everything any judge returns, to every
# caller; a short one ("true", "the") would turn common words into stars in other callers'
# results, and no real key is that short. The request's own keys still mask its own answer from
# _MIN_SECRET_CHARS up.
_MIN_REGISTERED_CHARS = 8
# The registry is bounded so a long-running server that sees a new key per request keeps constant
# memory; the oldest keys are forgotten first (their verdicts were masked when they were made).
MAX_REGISTERED_SECRETS = 1_000
"""How many registered keys are remembered at most (oldest forgotten first)."""

# Environment variables whose NAME ends like a credential: OPENAI_API_KEY, GITHUB_TOKEN,
# AWS_SECRET_ACCESS_KEY, DB_PASSWORD, ... (TOKENIZERS_PARALLELISM does not end like one).
_SECRET_ENV_NAME = re.compile(
    r"(?:^|_)(?:API_?KEY|ACCESS_KEY|SECRET_KEY|PRIVATE_KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?"
    r"|AUTHORIZATION|AUTH)$",
    re.I,
)

_registry: dict[str, None] = {}  # insertion-ordered set
_registry_lock = threading.Lock()


def register_secret(*secrets: str | SecretStr | None) -> None:
    """Remember keys for the rest of the process: everything a judge returns is masked with them.

    Called wherever a key is handed to a judge (the CLI, the dashboard, the endpoint), so a key a
    judge server echoes can never reach the cache, another caller, a log or a file. Empty and short
    values are ignored.
    """
    with _registry_lock:
        for secret in secrets:
            plain = secret_text(secret)
            if plain is None or len(plain.strip()) < _MIN_REGISTERED_CHARS:
                continue
            _registry.pop(plain, None)
            _registry[plain] = None
            while len(_registry) > MAX_REGISTERED_SECRETS:
                del _registry[next(iter(_registry))]


def forget_secrets() -> None:
    """Forget every registered key (tests)."""
    with _registry_lock:
        _registry.clear()


def environment_secrets(environ: Mapping[str, str] | None = None) -> list[str]:
    """The values of environment variables whose name looks like a credential's, read now.

    Read at use time, so a variable set after start-up still counts.
    """
    env = os.environ if environ is None else environ
    return [
        value
        for name, value in list(env.items())
        if value and len(value.strip()) >= _MIN_REGISTERED_CHARS and _SECRET_ENV_NAME.search(name)
    ]


def known_secrets(extra: Iterable[str | SecretStr | None] = ()) -> list[str]:
    """Every secret the process knows: ``extra``, the registered keys and the environment's.

    Longest first, so a key that contains another is masked whole.
    """
    with _registry_lock:
        registered = list(_registry)
    plain = [p for p in (secret_text(s) for s in extra) if p is not None and len(p) >= _MIN_SECRET_CHARS]
    return sorted(dict.fromkeys([*plain, *registered, *environment_secrets()]), key=len, reverse=True)


def mask_known(text: str, extra: Iterable[str | SecretStr | None] = ()) -> str:
    """``text`` with every known secret (see :func:`known_secrets`) replaced by :data:`MASK`."""
    return mask_secrets(text, known_secrets(extra))


def mask_values(value: Any, secrets: Iterable[str | SecretStr | None]) -> Any:
    """A copy of a JSON-like document with the secrets masked inside its strings only.

    Masking the serialised text instead would also match the document's own syntax: a key
    ``"true"`` turned ``{"success": true}`` into invalid JSON. Keys are left as they are (two keys
    masked to the same text would merge). Walks with an explicit stack, so no nesting depth
    raises ``RecursionError``; containers are copied (tuples become lists), the input is unchanged.
    """
    plain = [p for p in (secret_text(s) for s in secrets) if p is not None and len(p) >= _MIN_SECRET_CHARS]
    if not plain:
        return value
    plain.sort(key=len, reverse=True)

    def mask_str(text: str) -> str:
        for secret in plain:
            if secret in text:
                text = text.replace(secret, MASK)
        return text

    if isinstance(value, str):
        return mask_str(value)
    root: list[Any] = [value]
    # Each frame: (container, its masked copy or None, the parent copy and slot to fill).
    stack: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    while stack:
        node, parent, slot = stack.pop()
        if isinstance(node, str):
            masked = mask_str(node)
            if masked is not node:
                parent[slot] = masked
        elif isinstance(node, dict):
            copy = dict(node)
            parent[slot] = copy
            stack.extend((v, copy, k) for k, v in node.items() if isinstance(v, (str, dict, list, tuple)))
        elif isinstance(node, (list, tuple)):
            items = list(node)
            parent[slot] = items
            stack.extend((v, items, i) for i, v in enumerate(node) if isinstance(v, (str, dict, list, tuple)))
    return root[0]


def json_holds_secret(text: str, secrets: Iterable[str | SecretStr | None]) -> bool:
    """Whether serialised JSON ``text`` may hold one of ``secrets`` inside a string.

    JSON escapes character by character, so a string holding a secret serialises to text holding
    the secret's escaped form: looking for both escaped forms (UTF-8 kept, or ``\\uXXXX``) and the
    plain one finds every occurrence. A match in the document's own syntax (a key ``"true"``) is a
    false alarm that only costs :func:`mask_values` a walk over the document.
    """
    for secret in secrets:
        plain = secret_text(secret)
        if plain is None or len(plain) < _MIN_SECRET_CHARS:
            continue
        forms = {plain, json.dumps(plain, ensure_ascii=False)[1:-1], json.dumps(plain)[1:-1]}
        if any(form in text for form in forms):
            return True
    return False


# -- request targets in log lines ----------------------------------------------------------------

# Query parameters whose name says they carry a credential, besides those is_secret_key names
# (access_token, api_key, password, ...): the short names API gateways and signed URLs use.
_QUERY_SECRET_NAME = re.compile(r"^(?:x-)?(?:key|auth|sig|signature|jwt|bearer|pass|pwd)$", re.I)


def is_query_secret(name: str) -> bool:
    """True for query parameter names that usually carry a credential (``token``, ``api_key``, ``key``, ``sig``)."""
    return is_secret_key(name) or _QUERY_SECRET_NAME.match(name) is not None


def mask_request_target(target: str, secrets: Iterable[str | SecretStr | None] = ()) -> str:
    """A request target (path and query string, as a server's access log writes it) fit for a log line.

    A client may put the server's bearer token in the URL (``/run?token=...``), where an access
    log would keep it. The value of every credential-looking query parameter (see
    :func:`is_query_secret`; names read percent-decoded) becomes :data:`MASK`, the name kept so
    the line still says what was sent; each of ``secrets`` is masked anywhere in the target, as
    written or percent-encoded (a token in the path).

    Args:
        target: ``/path?query``; text without ``?`` has no query.
        secrets: Secrets to mask wherever they appear (plain or ``SecretStr``; short ones ignored).

    Returns:
        The target with those values masked; everything else unchanged.
    """
    path, sep, query = target.partition("?")
    if sep:
        parts = []
        for part in query.split("&"):
            name, eq, _value = part.partition("=")
            parts.append(f"{name}={MASK}" if eq and is_query_secret(unquote_plus(name)) else part)
        target = f"{path}?{'&'.join(parts)}"
    forms: list[str] = []
    for secret in secrets:
        plain = secret_text(secret)
        if plain is not None and len(plain) >= _MIN_SECRET_CHARS:
            forms.extend((plain, quote(plain), quote(plain, safe=""), quote_plus(plain)))
    longest_first: list[str] = sorted(set(forms), key=len, reverse=True)  # a secret holding another is masked whole
    return mask_secrets(target, longest_first)


# -- credentials by their shape --------------------------------------------------------------------

# The prefixes providers give their keys (OpenAI / Anthropic sk-, GitHub ghp_ / github_pat_, AWS AKIA, Slack
# xox?-, Google AIza, Groq gsk_, Hugging Face hf_), a bearer header, a PEM private key. A heuristic for text that
# is about to be stored as data (a run's tags and metadata): a key nobody registered still looks like one.
_CREDENTIAL_SHAPE = re.compile(
    r"\bsk-[A-Za-z0-9_-]{16,}|\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}"
    r"|\bAKIA[0-9A-Z]{16}\b|\bxox[abposr]-[A-Za-z0-9-]{10,}|\bAIza[0-9A-Za-z_-]{30,}|\bgsk_[A-Za-z0-9]{20,}"
    r"|\bhf_[A-Za-z0-9]{20,}|\bBearer\s+[A-Za-z0-9._~+/=-]{12,}|-----BEGIN [A-Z ]*PRIVATE KEY-----"
)


def looks_like_credential(text: str) -> bool:
    """True when ``text`` holds something shaped like a provider's API key, a bearer token or a private key."""
    return _CREDENTIAL_SHAPE.search(text) is not None
