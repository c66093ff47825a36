"""Why a verdict is unscored: one classification, recorded per verdict and counted by every surface.

A judge that cannot score an item says why in :attr:`~agentic_core.judges.base.Verdict.cause`
(the LLM judge classifies its errors as it makes them); :func:`cause_of` reads it back, and for
verdicts without one (runs stored before causes were recorded, other judges, verdicts that crossed
a Ray worker) it classifies the verdict's status and error text the same way. The counts and their
words are :mod:`agentic_core.judges.verdict_counts`'s. No import of the verdict model here: the
verdict model imports this module for its field's type.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class UnscoredCause(StrEnum):
    """Why an item is unscored (never 0, never 1).

    Members:
        TIMED_OUT: No reply within the timeout (after the retries that could help).
        REFUSED_FORMAT: The server refused the reply format asked for (a pinned one, or every one).
        INVALID_REPLY: A reply that is not a judgement: unreadable, out of range, empty, cut at the
            reply budget, several verdicts twice, or a copy of the rubric's placeholders.
        RATE_LIMITED: Rate limited (HTTP 429) beyond the retries.
        SERVER_ERROR: A server error (HTTP 5xx) beyond the retries.
        UNREACHABLE: The server could not be reached (connection refused or reset).
        REJECTED: The server refused the request itself (HTTP 4xx: the key, the model name, a permission).
        UNCERTAIN: The judge abstained (status ``uncertain``).
        NOT_JUDGED: The run was cancelled before the item was judged.
        OTHER: Anything else; the verdict's error says what.
    """

    TIMED_OUT = "timed_out"
    REFUSED_FORMAT = "refused_format"
    INVALID_REPLY = "invalid_reply"
    RATE_LIMITED = "rate_limited"
    SERVER_ERROR = "server_error"
    UNREACHABLE = "unreachable"
    REJECTED = "rejected"
    UNCERTAIN = "uncertain"
    NOT_JUDGED = "not_judged"
    OTHER = "other"


CAUSES: tuple[UnscoredCause, ...] = tuple(UnscoredCause)
"""Every cause, in the order counts list them."""

# Words of an error text, for verdicts recorded without a cause: first match wins, so the more
# specific phrases come first (a timeout's text may also name the connection that timed out).
_TEXT_RULES: tuple[tuple[UnscoredCause, tuple[str, ...]], ...] = (
    (UnscoredCause.NOT_JUDGED, ("not judged: the run was cancelled",)),
    (UnscoredCause.TIMED_OUT, ("no reply within", "timeouterror", "timeoutexception", "readtimeout", "timed out",
                               "deadlineexceeded", "apitimeouterror")),
    (UnscoredCause.REFUSED_FORMAT, ("the server refused the reply format",)),
    (UnscoredCause.RATE_LIMITED, ("ratelimiterror", "rate limit", "resourceexhausted", "toomanyrequests",
                                  "error code: 429")),
    (UnscoredCause.INVALID_REPLY, ("unparseable judge output", "the provider returned an empty response",
                                   "the reply was cut at", "held several verdicts", "could not be read",
                                   "is not valid unicode", "copies the rubric", "re-asked after")),
    (UnscoredCause.UNREACHABLE, ("apiconnectionerror", "connecterror", "connectionerror", "connection refused",
                                 "connectionreseterror", "remoteprotocolerror")),
    (UnscoredCause.SERVER_ERROR, ("internalservererror", "serviceunavailable", "overloadederror", "error code: 5",
                                  "(http 5")),
    (UnscoredCause.REJECTED, ("authenticationerror", "permissiondeniederror", "notfounderror", "badrequesterror",
                              "error code: 4", "(http 4")),
)


def cause_from_text(status: str, error: str | None) -> UnscoredCause | None:
    """The cause of an unscored verdict read from its status and error text (``None`` when it is scored).

    Args:
        status: The verdict's status.
        error: Its error text.
    """
    if status == "uncertain":
        return UnscoredCause.UNCERTAIN
    if status != "failed":
        return None
    text = (error or "").lower()
    for cause, words in _TEXT_RULES:
        if any(word in text for word in words):
            return cause
    return UnscoredCause.OTHER


def cause_of(verdict: Any) -> UnscoredCause | None:
    """Why ``verdict`` is unscored (``None`` when it has a score).

    Its recorded :attr:`~agentic_core.judges.base.Verdict.cause` when it has one, else
    :func:`cause_from_text`; an abstention is always :attr:`UnscoredCause.UNCERTAIN`.
    """
    status = str(getattr(verdict, "status", ""))
    if status not in ("failed", "uncertain"):
        return None
    recorded = getattr(verdict, "cause", None)
    if recorded is not None and status == "failed":
        return UnscoredCause(recorded)
    return cause_from_text(status, getattr(verdict, "error", None))
