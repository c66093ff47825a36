"""Which format a parsed file is in, from the keys of its first records (never from its name).

Only the first few records are looked at, so detection costs the same for ten records and ten
million; a seed file is recognised by its first record's ``conversation`` key, one dict lookup.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agentic_core.io.otel_import import looks_like_otel
from agentic_core.io.parsed import UNPARSABLE, Parsed

LOOK_AT = 5
"""How many records (skipping lines that are not valid JSON) detection reads at most."""


@dataclass(frozen=True)
class Detected:
    """A detected format and the evidence: the record and the key that gave it away."""

    format: str
    record: int
    key: str


def record_format(record: Any) -> tuple[str, str] | None:
    """The format one record is in and the key that shows it, or ``None`` when no format fits."""
    if type(record) is not dict:
        return None
    if "conversation" in record:
        return "seed", "conversation"
    if "traj" in record:
        return "tau-bench", "traj"
    if "user_input" in record:
        return "ragas", "user_input"
    if "samples" in record and "eval" in record:
        return "inspect", "eval"
    if isinstance(record.get("messages"), list):
        return "openai", "messages"
    otel = looks_like_otel(record)
    if otel is not None:
        return "otel", otel
    if "session_id" in record:
        return "seed", "session_id"
    return None


def detect(parsed: Parsed) -> Detected | None:
    """The format of a parsed file, or ``None`` when its first records fit none (read as seed then).

    A seed-001 request (``{"datasets": [...]}``) is the seed format by construction.
    """
    if parsed.kind == "request":
        return Detected("seed", 0, "datasets")
    seen = 0
    for index, record in enumerate(parsed.records):
        if record is UNPARSABLE:
            continue
        found = record_format(record)
        if found is not None:
            return Detected(found[0], index, found[1])
        seen += 1
        if seen >= LOOK_AT:
            break
    return None
