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
(validated again in one call). Records whose JSON text is kept are validated into slotted twins
of the models first (:mod:`agentic_core.io.record_twins`, half the time); the twins refuse any
record with an unknown key or an error, and those records go through the models, which word
their warnings and errors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from agentic_core.common.time_limit import checkpoint
from agentic_core.data.schemas import Conversation
from agentic_core.errors import show_value
from agentic_core.io.explain import explain_validation_error
from agentic_core.io.load_report import Issue, SkippedRecord
from agentic_core.io.parsed import UNPARSABLE, Parsed
from agentic_core.io.record_checks import check_records
from agentic_core.io.record_twins import is_twin, validate_twins
from agentic_core.io.render import join_path
from agentic_core.io.unknown_keys import iter_model_extras, iter_raw_extras, unknown_key_fix, unknown_key_rule

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
its JSON text (or the parsed record, to serialise) when that is exact, else ``None``. With a
``raw``, the conversation may be a twin (:mod:`agentic_core.io.record_twins`): read its fields,
keep the text."""


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
    end = len(records) if stop is None else stop
    twins = True  # until most of a chunk's records have unknown keys (see _validate_chunk)
    for first in range(start, end, CHUNK):
        checkpoint()  # a request's deadline stops validation between chunks (agentic_core.common.time_limit)
        last = min(first + CHUNK, end)
        parsed.parse_until(last)
        # Records kept as JSON text: the line itself (JSON Lines, parsed by orjson), else the record
        # re-serialised when orjson parsed the bytes this load owns (an exact round trip). Asked after each
        # chunk is parsed: a file read lazily learns that a line needed the standard library only then.
        exact = owned and not parsed.stdlib
        for index in range(first, last):
            issue = parsed.record_errors.get(index)
            if issue is not None:
                issues.append(issue)
                skipped.append(SkippedRecord(name, index, issue.line, None, issue.message(with_place=False)))
        check_records(name, parsed, owned, issues, skipped, first, last)
        ids = [i for i in range(first, last) if records[i] is not UNPARSABLE]
        chunk = [records[i] for i in ids]
        raws = [lines[i] if lines is not None else records[i] if exact else None for i in ids]
        valid, twins = _validate_chunk(name, ids, chunk, raws, twins, line_of, issues, skipped)
        for position, conv in valid:
            index = ids[position]
            if _passes(name, index, conv, line_of, issues, skipped):
                keep(index, conv, raws[position])
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
    raws: list[Any],
    twins: bool,
    line_of: LineOf,
    issues: list[Issue],
    skipped: list[SkippedRecord],
) -> tuple[list[tuple[int, Conversation]], bool]:
    """Validate a chunk; report its invalid records.

    Records kept as JSON text (``raws``) are validated into twins first
    (:mod:`agentic_core.io.record_twins`) when ``twins`` is true; the others, and those the twins
    refuse, into models.

    Returns:
        ``(position in the chunk, conversation)`` of the valid records in chunk order, and whether
        twins are worth trying on the next chunk: not when the twins refused most of this one's
        records (every record has an unknown key, say), which were then validated twice.
    """
    valid: list[tuple[int, Conversation]] = []
    rest = list(range(len(chunk)))
    eligible = [p for p in rest if raws[p] is not None] if twins else []
    if eligible:
        valid = [(eligible[q], twin) for q, twin in _accepted_twins([chunk[p] for p in eligible])]
        twins = 2 * (len(eligible) - len(valid)) <= len(eligible)
        taken = {p for p, _ in valid}
        rest = [p for p in rest if p not in taken]
    if rest:
        models = _validate_models(name, [ids[p] for p in rest], [chunk[p] for p in rest], line_of, issues, skipped)
        valid.extend((rest[q], model) for q, model in models)
        valid.sort(key=lambda pair: pair[0])
    return valid, twins


def _accepted_twins(records: list[Any]) -> list[tuple[int, Conversation]]:
    """``(position, twin)`` of the records the twins accept (one call, or two when some are refused)."""
    try:
        return list(enumerate(validate_twins(records)))
    except ValidationError as err:
        errors = err.errors(include_url=False, include_context=False, include_input=False)
        refused = {error["loc"][0] for error in errors}
    good = [q for q in range(len(records)) if q not in refused]
    try:
        return list(zip(good, validate_twins([records[q] for q in good]), strict=True))
    except ValidationError:  # cannot happen for independent records; the models will tell
        return []


def _validate_models(
    name: str,
    ids: list[int],
    chunk: list[Any],
    line_of: LineOf,
    issues: list[Issue],
    skipped: list[SkippedRecord],
) -> list[tuple[int, Conversation]]:
    """Validate records into models; report the invalid ones; return ``(position, model)`` of the valid ones."""
    try:
        return list(enumerate(_ADAPTER.validate_python(chunk, strict=True)))
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
        valid = list(zip(good, models, strict=True))
    except ValidationError:
        # Cannot happen for independent records; validate one by one rather than lose any.
        valid = []
        for p in good:
            try:
                valid.append((p, _ADAPTER.validate_python([chunk[p]], strict=True)[0]))
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
    # A twin has no unknown key (they refuse them); a model's are found at once when it has none.
    extras = [] if is_twin(conv) else list(iter_model_extras(conv))
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
