"""Checking and validating a file's records chunk by chunk: one code for this process and for load workers.

:func:`stream_records` takes records ``[start, stop)`` of a :class:`Parsed` file through every
check that needs nothing but the record itself: JSON syntax, nesting and encoding
(:func:`~agentic_core.io.record_checks.check_records`), validation, unknown keys, a blank
``session_id``. Each valid record is handed to a ``keep`` callback; what depends on the other
records (a duplicate session id, possibly in another file) is the caller's to decide. The loader
calls it on a whole file in this process, and each load worker
(:mod:`agentic_core.io.load_pieces`) on its piece of a large JSON Lines file: the same code, so the
same issues, in the same order.

Speed: validation runs over chunks of records with one pydantic ``TypeAdapter`` call each
(per-record ``model_validate`` is several times slower); a chunk that fails is split into its
failing records (explained one by one from the errors already at hand) and the rest
(validated again in one call).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from agentic_core.errors import show_value
from agentic_core.io.explain import explain_validation_error
from agentic_core.io.load_report import Issue, SkippedRecord
from agentic_core.io.parsed import UNPARSABLE, Parsed
from agentic_core.io.record_checks import check_records
from agentic_core.io.render import join_path
from agentic_core.io.unknown_keys import iter_model_extras, iter_raw_extras, unknown_key_fix, unknown_key_rule
from agentic_core.schemas import Conversation

__all__ = ["CHUNK", "Keep", "LineOf", "stream_records", "unknown_key_issue"]

# Validation is strict (``strict=True`` at every call): parsed JSON already has the right types,
# and lax mode would convert "0.5" into a score or 1.0 into a step silently, while loaded data
# must stay exactly as written.
_ADAPTER: TypeAdapter[list[Conversation]] = TypeAdapter(list[Conversation])
CHUNK = 1024
"""Records validated per pydantic call (and parsed per step of a lazily read JSON Lines file)."""

LineOf = Callable[[int], "int | None"]
Keep = Callable[[int, Conversation, Any], None]
"""``keep(index, conversation, raw)``: a record that passed every check of its own; ``raw`` is
its JSON text (or the parsed record, to serialise) when that is exact, else ``None``."""


def unknown_key_issue(
    name: str, index: int, base: str, model: type[BaseModel], key: str, line: int | None, session_id: str | None
) -> Issue:
    """The warning for an unknown key (from a rejected raw record or an accepted model alike)."""
    return Issue(
        "warning",
        name,
        index,
        join_path(base, key),
        unknown_key_rule(key),
        None,
        unknown_key_fix(model, key),
        line,
        None,
        session_id,
    )


def stream_records(
    name: str,
    parsed: Parsed,
    owned: bool,
    issues: list[Issue],
    skipped: list[SkippedRecord],
    keep: Keep,
    start: int = 0,
    stop: int | None = None,
) -> None:
    """Chunk by chunk, in file order: parse (JSON Lines are read lazily), report lines that are not
    JSON, check, validate, report unknown keys and blank session ids, and hand each valid record to
    ``keep``.

    Issues are appended record by record within a chunk's steps; the caller sorts them by record
    afterwards, so the report is the same as if each step had run over the whole file at once.

    Args:
        name: The file name (for messages).
        parsed: The parsed file.
        owned: Whether the records belong to this load (else they are copied before a repair).
        issues: Where issues go.
        skipped: Where skipped records go.
        keep: Receives each record that passed (see :data:`Keep`).
        start: The first record.
        stop: Past the last record (all of them when ``None``).
    """
    records, lines, line_of = parsed.records, parsed.lines, parsed.line_of
    # Records kept as JSON text: the line itself (JSON Lines, parsed by orjson), else the
    # record re-serialised when orjson parsed the bytes this load owns (an exact round trip).
    exact = owned and not parsed.stdlib
    end = len(records) if stop is None else stop
    for first in range(start, end, CHUNK):
        last = min(first + CHUNK, end)
        parsed.parse_until(last)
        for index in range(first, last):
            issue = parsed.record_errors.get(index)
            if issue is not None:
                issues.append(issue)
                skipped.append(SkippedRecord(name, index, issue.line, None, issue.message(with_place=False)))
        check_records(name, parsed, owned, issues, skipped, first, last)
        ids = [i for i in range(first, last) if records[i] is not UNPARSABLE]
        chunk = [records[i] for i in ids]
        for index, conv in _validate_chunk(name, ids, chunk, line_of, issues, skipped):
            if _passes(name, index, conv, line_of, issues, skipped):
                keep(index, conv, lines[index] if lines is not None else records[index] if exact else None)
        if owned:
            # Drop the raw dicts (and JSON lines) as soon as their models exist: peak memory is
            # then about one copy of the data, not two.
            for i in ids:
                records[i] = None
            if lines is not None:
                lines[first:last] = [None] * (last - first)


def _validate_chunk(
    name: str,
    ids: list[int],
    chunk: list[Any],
    line_of: LineOf,
    issues: list[Issue],
    skipped: list[SkippedRecord],
) -> list[tuple[int, Conversation]]:
    """Validate a chunk; report its invalid records; return ``(index, model)`` of the valid ones."""
    try:
        return list(zip(ids, _ADAPTER.validate_python(chunk, strict=True), strict=True))
    except ValidationError as err:
        errors = err.errors(include_url=False)
    by_position: dict[int, list[ErrorDetails]] = {}
    for error in errors:
        position = error["loc"][0]
        assert isinstance(position, int)  # the first location of a list[...] error is its index
        by_position.setdefault(position, []).append(error)
    good = [p for p in range(len(chunk)) if p not in by_position]
    try:
        models = _ADAPTER.validate_python([chunk[p] for p in good], strict=True)
        valid = [(ids[p], m) for p, m in zip(good, models, strict=True)]
    except ValidationError:
        # Cannot happen for independent records; validate one by one rather than lose any.
        valid = []
        for p in good:
            try:
                valid.append((ids[p], _ADAPTER.validate_python([chunk[p]], strict=True)[0]))
            except ValidationError as single:
                by_position[p] = single.errors(include_url=False)
    for position in sorted(by_position):
        _reject(name, ids[position], chunk[position], by_position[position], line_of, issues, skipped)
    return sorted(valid, key=lambda pair: pair[0])


def _reject(
    name: str,
    index: int,
    raw: Any,
    errors: list[ErrorDetails],
    line_of: LineOf,
    issues: list[Issue],
    skipped: list[SkippedRecord],
) -> None:
    session = raw.get("session_id") if isinstance(raw, dict) else None
    session_id = session if isinstance(session, str) else None
    line = line_of(index)
    first: Issue | None = None
    for error in errors:
        why = explain_validation_error(error, tuple(error["loc"][1:]))
        issue = Issue("error", name, index, why.path, why.rule, why.value, why.fix, line, None, session_id)
        issues.append(issue)
        first = first or issue
    for base, model, key in iter_raw_extras(raw):
        issues.append(unknown_key_issue(name, index, base, model, key, line, session_id))
    assert first is not None  # a record is rejected only with at least one error
    skipped.append(SkippedRecord(name, index, line, session_id, first.message(with_place=False)))


def _passes(
    name: str,
    index: int,
    conv: Conversation,
    line_of: LineOf,
    issues: list[Issue],
    skipped: list[SkippedRecord],
) -> bool:
    """Report a valid record's unknown keys; whether it may be kept (its ``session_id`` is not blank)."""
    session_id = conv.session_id
    extras = list(iter_model_extras(conv))  # returns at once without unknown keys (has_model_extras)
    line = line_of(index) if extras else None
    for base, model, key in extras:
        issues.append(unknown_key_issue(name, index, base, model, key, line, session_id))
    if session_id.strip():
        return True
    error = Issue(
        "error",
        name,
        index,
        "session_id",
        "must not be blank",
        show_value(session_id),
        "give each conversation a unique, non-empty session_id",
        line_of(index),
        None,
        session_id,
    )
    issues.append(error)
    skipped.append(SkippedRecord(name, index, error.line, session_id, error.message(with_place=False)))
    return False
