"""What a failed LLM call means: worth a retry or not, how long to wait, and how to say it.

Kept apart from :mod:`agentic_core.judges.llm.judge` (which imports it) so the judge's call loop reads
without the provider-by-provider details. Nothing here imports a provider SDK: exceptions are
recognised by class name and attributes, so that none of the SDKs has to be installed.
"""

from __future__ import annotations

import random

from agentic_core.common.text_normal import squeeze
from agentic_core.judges.causes import UnscoredCause

# Exception class names (anywhere in the MRO) of the provider SDKs we support, by what they mean: openai, groq
# and anthropic (APITimeoutError derives from APIConnectionError; OverloadedError is anthropic's 529),
# google.api_core (ResourceExhausted and TooManyRequests 429, ServiceUnavailable 503, DeadlineExceeded 504) and
# httpx (TransportError: ConnectError, ReadTimeout, RemoteProtocolError, ...; TimeoutException).
_TIMEOUT_NAMES = frozenset({"APITimeoutError", "TimeoutException", "DeadlineExceeded", "ReadTimeout"})
_RATE_NAMES = frozenset({"RateLimitError", "ResourceExhausted", "TooManyRequests"})
_SERVER_NAMES = frozenset({"InternalServerError", "ServiceUnavailableError", "OverloadedError", "ServiceUnavailable"})
_CONNECTION_NAMES = frozenset({"APIConnectionError", "TransportError", "ConnectError"})
_RETRYABLE_NAMES = _TIMEOUT_NAMES | _RATE_NAMES | _SERVER_NAMES | _CONNECTION_NAMES
"""The names that mean "try again": timeouts, rate limits, overload and transport failures."""
MAX_RETRY_AFTER_S = 60.0
"""The longest ``Retry-After`` hint honoured; a server asking for more gets this."""

EMPTY_RESPONSE = "the provider returned an empty response"
"""How every empty reply is named, whatever layer noticed it (see :func:`empty_response_detail`)."""


def status_code_of(exc: BaseException) -> int | None:
    """The HTTP status carried by a provider exception, if any."""
    for candidate in (
        getattr(exc, "status_code", None),
        getattr(getattr(exc, "response", None), "status_code", None),
        getattr(exc, "code", None),  # google.api_core exceptions
    ):
        if isinstance(candidate, int) and not isinstance(candidate, bool) and 100 <= candidate <= 599:
            return candidate
    return None


# Words of an error body saying the request itself was refused, whatever the status: llama-cpp-python
# answers a response_format it does not know with HTTP 500 and a validation error, which would fail
# the same way on every repeat.
_INVALID_REQUEST_WORDS = ("validation error", "literal_error", "input should be", "must be one of",
                          "invalid_request_error", "extra inputs are not permitted", "not supported", "unsupported")


def is_request_invalid(exc: BaseException) -> bool:
    """Whether the server said the request itself is invalid (so repeating it cannot help).

    A 4xx other than 408, 409 and 429 is; so is a 5xx whose body reads as a validation error.
    """
    status = status_code_of(exc)
    if status is not None and 400 <= status < 500:
        return status not in (408, 409, 429)
    if status is not None and status >= 500:
        text = str(exc).lower()
        return any(word in text for word in _INVALID_REQUEST_WORDS)
    return False


# Words an error names when it is about the reply format asked for (OpenAI-style servers name the
# response_format; Gemini its response schema; tool-calling structured output its tools).
_FORMAT_WORDS = ("response_format", "json_schema", "json_object", "response_schema", "response_mime_type",
                 "structured", "tool_choice", "tools", "function")


def is_format_refused(exc: BaseException) -> bool:
    """Whether an invalid-request error is the server refusing the reply format asked for.

    Only an error that names the format counts: a too-long prompt, another bad parameter or an
    invalid key is refused as well, but would fail in every format, so stepping down to plain text
    for the rest of the run on its account would be wrong. Authentication, permission and
    not-found errors never are.
    """
    if not is_request_invalid(exc) or status_code_of(exc) in (401, 403, 404):
        return False
    text = str(exc).lower()
    return any(word in text for word in _FORMAT_WORDS)


def is_retryable(exc: BaseException) -> bool:
    """Whether a failed call is worth repeating.

    Rate limits (429), request timeouts (408), conflicts (409), server errors (5xx), timeouts
    and connection errors are; other 4xx (authentication, permission, bad request, unknown
    model) and a 5xx whose body says the request is invalid are not, since repeating them only
    wastes time and quota.
    """
    status = status_code_of(exc)
    if status is not None:
        return not is_request_invalid(exc) and (status in (408, 409, 429) or status >= 500)
    if isinstance(exc, (TimeoutError, ConnectionError)):
        return True
    return any(cls.__name__ in _RETRYABLE_NAMES for cls in type(exc).__mro__)


def cause_of_error(exc: BaseException) -> UnscoredCause:
    """Why a call that failed for good (``exc``: the exception of the last attempt) leaves its item unscored."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    status = status_code_of(exc)
    if status is not None and is_format_refused(exc):
        return UnscoredCause.REFUSED_FORMAT
    if isinstance(exc, TimeoutError) or names & _TIMEOUT_NAMES or status in (408, 504):
        return UnscoredCause.TIMED_OUT
    if status == 429 or names & _RATE_NAMES:
        return UnscoredCause.RATE_LIMITED
    if empty_response_detail(exc) is not None:
        return UnscoredCause.INVALID_REPLY
    if not_json_detail(exc) is not None:
        return UnscoredCause.OTHER  # a proxy or a wrong base_url answered: the error says what to check
    if status is not None and 400 <= status < 500:
        return UnscoredCause.REJECTED
    if (status is not None and status >= 500) or names & _SERVER_NAMES:
        return UnscoredCause.SERVER_ERROR
    if isinstance(exc, ConnectionError) or names & _CONNECTION_NAMES:
        return UnscoredCause.UNREACHABLE
    return UnscoredCause.OTHER


def retry_after_s(exc: BaseException) -> float | None:
    """The server's ``Retry-After`` hint in seconds, when it sent one."""
    headers = getattr(getattr(exc, "response", None), "headers", None)
    if headers is None:
        return None
    try:
        value = headers.get("retry-after")
        return None if value is None else max(0.0, float(value))
    except (TypeError, ValueError, AttributeError):
        return None


def backoff_s(attempt: int, error: BaseException, base_s: float, max_s: float) -> float:
    """The wait before retry ``attempt``: exponential from ``base_s`` (at most ``max_s``) with jitter, at
    least the server's ``Retry-After``."""
    delay = min(max_s, base_s * 2 ** (attempt - 1))
    # Jitter spreads the retries of concurrent workers hit by the same rate limit.
    delay *= random.uniform(0.5, 1.0)
    hint = retry_after_s(error)
    if hint is not None:
        delay = max(delay, min(hint, MAX_RETRY_AFTER_S))
    return delay


def empty_response_detail(exc: BaseException) -> str | None:
    """``"no choices"`` when ``exc`` is how the client stack reports a reply without any.

    A response with ``"choices": []`` leaves LangChain with no generation, and its
    ``generations[0][0]`` (like the OpenAI client's ``choices[0]``) raises a bare
    ``IndexError: list index out of range``, which tells the user nothing. The judge awaits only
    the model's runnable (its own parsing happens afterwards, and structured-output parsing
    errors are captured by ``include_raw``), so an ``IndexError`` escaping the call comes from
    the client stack. ``langchain_openai`` names a ``null`` or missing ``choices`` itself, in a
    ``TypeError`` / ``KeyError`` mentioning ``'choices'``.
    """
    if isinstance(exc, IndexError):
        return "no choices"
    if isinstance(exc, (TypeError, KeyError)) and "'choices'" in str(exc):
        return "no choices"
    return None


BODY_NOT_JSON = "the server answered, but its body was not a chat completion in JSON"
"""How a reply whose body is not JSON (an HTML error page, a proxy's text) is named."""

# How much of such a body the message quotes (it is usually an HTML page).
_BODY_SNIPPET_CHARS = 120


def not_json_detail(exc: BaseException) -> str | None:
    """What the body began with, when ``exc`` is how a client reports a 2xx reply that is not JSON.

    The OpenAI client hands such a body on as a string: ``langchain_openai`` then fails on
    ``str.choices`` (with the HTTP 200 response attached, which used to be reported as "check the
    API key"), its OpenAI-compatible path with "Unexpected response type ... got str", and Groq's
    on ``str.model_dump``.
    """
    body: object = None
    status = status_code_of(exc)
    if status is not None and 200 <= status < 300:
        try:
            body = getattr(getattr(exc, "response", None), "text", None)
        except Exception:  # a body not read yet: say so without it
            body = None
        if not isinstance(body, str):
            return f"HTTP {status}"
    elif isinstance(exc, AttributeError) and isinstance(getattr(exc, "obj", None), str):
        body = exc.obj
    elif isinstance(exc, ValueError) and "got str" in str(exc) and "response type" in str(exc):
        return "HTTP 200"
    if not isinstance(body, str):
        return None
    snippet = squeeze(body[:_BODY_SNIPPET_CHARS])
    return f"it began {snippet!r}" if snippet else "it was empty"


def describe_error(error: BaseException, attempts: int) -> str:
    """A one-line error for the user: what happened, the exception, the attempts made.

    Not scrubbed: the caller masks the secrets it knows of before the text goes anywhere.

    Args:
        error: The exception of the last attempt.
        attempts: Calls made for the item (1 when it was not retried).
    """
    text = f"{type(error).__name__}: {error}".strip()
    empty = empty_response_detail(error)
    not_json = None if empty is not None else not_json_detail(error)
    if empty is not None:
        # The plain words first; the original exception stays for whoever debugs the server.
        text = f"{EMPTY_RESPONSE} ({empty}) [{text}]"
    elif not_json is not None:
        text = (
            f"{BODY_NOT_JSON} ({not_json}): check base_url points at the API (often ending in /v1) and "
            f"that no proxy answers in its place [{text}]"
        )
    status = status_code_of(error)
    if attempts > 1:
        text += f" (after {attempts} attempts)"
    elif status is not None and status >= 500 and is_request_invalid(error):
        text += f" (HTTP {status}, but the server says the request is invalid: not retried)"
    elif status is not None and status >= 300 and not is_retryable(error):
        text += f" (HTTP {status}: not retried; check the API key, model name and permissions)"
    return text
