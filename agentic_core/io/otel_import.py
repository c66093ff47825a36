"""OpenTelemetry GenAI traces (OTLP JSON, or JSON lines of spans) mapped to seed conversations.

The spans of a whole file are read first (each reduced to what the importer reads, see
:mod:`agentic_core.io.otel_spans`; a large file's go to the disk, :mod:`agentic_core.io.otel_spool`), then
grouped into conversations and mapped one conversation at a time (:mod:`agentic_core.io.otel_convert`). The
mapped file's records are the conversations, in the order their first span appears; every issue names the
span's place in the file as written
(``resourceSpans[0].scopeSpans[0].spans[4].attributes.gen_ai.tool.call.arguments``) and its line.

Every attribute the importer does not read is reported once, at its first place, with the number
of spans carrying it: a warning for an attribute it does not know, one note for those known to
carry nothing the workbench evaluates (request settings, provider, server address).

Expected answers and tools come from a separate reference file
(:mod:`agentic_core.io.otel_references`), joined by conversation or task id.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from agentic_core.common.wording import plural
from agentic_core.io.importers.common import RecordMap, file_stem
from agentic_core.io.load_report import Issue
from agentic_core.io.otel_convert import conversation
from agentic_core.io.otel_messages import attribute_use
from agentic_core.io.otel_references import References, active_references
from agentic_core.io.otel_spans import Span, UnreadableStart, spans_of
from agentic_core.io.otel_spool import SpanSpool
from agentic_core.io.parsed import UNPARSABLE, Parsed
from agentic_core.io.render import json_type, safe_value


def looks_like_otel(record: dict[str, Any]) -> str | None:
    """The key that shows a record is OpenTelemetry spans (``resourceSpans``, ``spanId``), else ``None``."""
    for key in ("resourceSpans", "resource_spans"):
        if key in record:
            return key
    for key in ("spanId", "span_id"):
        if key in record and ("traceId" in record or "trace_id" in record):
            return key
    context = record.get("context")
    if isinstance(context, dict) and "span_id" in context and "trace_id" in context:
        return "context"
    return None


class _Tally:
    """Attributes not read: per name, (count, first span) -- reported once each, at the first place."""

    def __init__(self) -> None:
        self.seen: dict[str, tuple[int, Span, str]] = {}
        self.starts = 0  # spans whose start is written but is no time: counted, the first kept (memory stays flat)
        self.first_start: UnreadableStart | None = None

    def unreadable(self, flaw: UnreadableStart) -> None:
        self.starts += 1
        self.first_start = self.first_start or flaw

    def see(self, span: Span) -> None:
        for key in span.attrs:
            self._count(key, span, span.attr_path(key))
        for ev in span.events:
            if not ev.name.startswith("gen_ai."):
                self._count(f"event {ev.name}", span, ev.path)

    def _count(self, key: str, span: Span, path: str) -> None:
        if key.startswith("event ") or attribute_use(key) is not None:
            first = self.seen.get(key)
            self.seen[key] = (1, span, path) if first is None else (first[0] + 1, first[1], first[2])

    def issues(self, file: str, line_of: Callable[[int], int | None]) -> list[Issue]:
        out: list[Issue] = []
        unused: list[str] = []
        first: tuple[Span, str] | None = None
        for key, (count, span, path) in self.seen.items():
            times = plural(count, "span")
            reason = "" if key.startswith("event ") else attribute_use(key)
            if reason:
                unused.append(f"{key} ({times}: {reason})")
                first = first or (span, path)
                continue
            what = "event" if key.startswith("event ") else "attribute"
            out.append(Issue("warning", file, None, path, f"is an {what} the OpenTelemetry importer does not read "
                             f"(on {times}, the first is here); it was not mapped", None,
                             "nothing to do if it carries nothing to evaluate; the attributes read are listed in "
                             "docs/data-format.md (OpenTelemetry traces)", line_of(span.record)))
        if first is not None:
            rule = f"{plural(len(unused), 'attribute')} not used: " + "; ".join(unused)
            out.append(Issue("info", file, None, first[0].path, rule, None, "",
                             line_of(first[0].record)))
        bad = self.first_start
        if bad is not None:
            out.append(Issue("warning", file, None, bad.path, f"must be the span's start in nanoseconds since the "
                             f"epoch (digits, or the SDK's ISO time); on {plural(self.starts, 'span')} (the first is "
                             "here) it is no time: each such span was ordered at its parent's start, just "
                             "after it (without a parent that has one: first, in file order), and no latency counts "
                             "its start", safe_value(bad.value), "export the spans with an OpenTelemetry exporter "
                             '(startTimeUnixNano as a string of digits, e.g. "1700000000000000000")',
                             line_of(bad.span.record)))
        return out


def read_spans(file: str, parsed: Parsed, out: Parsed, tally: _Tally, spans: SpanSpool) -> None:
    """Every span of the file into ``spans`` (records are released once read); a part that is not a span is an
    error."""
    for index in range(len(parsed.records)):
        parsed.parse_until(index + 1)  # JSON lines read lazily are parsed one at a time, then let go
        raw = parsed.records[index]
        if raw is UNPARSABLE:
            error = parsed.record_errors.get(index)
            if error is not None:
                out.issues.append(error)
            continue
        if not isinstance(raw, dict):
            out.issues.append(Issue("error", file, index, "", f"must be a span or an OTLP JSON object; it is "
                                    f"{json_type(raw)}, skipped", None, "export the traces as OTLP JSON or one "
                                    "span per line", parsed.line_of(index)))
            continue
        for item in spans_of(index, raw, len(spans)):
            if isinstance(item, Span):
                tally.see(item)
                spans.append(item)
            elif isinstance(item, UnreadableStart):
                tally.unreadable(item)
            else:
                out.issues.append(Issue("error", file, index, item[0], f"{item[1]}; this part was skipped", None,
                                        "export the traces with an OTLP exporter (OTLP JSON)", parsed.line_of(index)))
        parsed.records[index] = None  # the spans hold what is read; the parsed record and its line can go
        if parsed.lines is not None:
            parsed.lines[index] = None


def import_otel(file: str, parsed: Parsed) -> Parsed:
    """Map a file of OpenTelemetry spans to seed-format conversations (see the module's description).

    The spans are all read now; the conversations are mapped when the loader asks for them
    (:meth:`Parsed.parse_until`), a chunk at a time, so the mapped records of a large export are never
    all held at once. The unread attributes and the reference file's issues join ``issues`` once the last
    conversation is mapped.

    Args:
        file: The file name.
        parsed: The file as parsed (OTLP JSON documents or chunks, or one span per record).

    Returns:
        The mapped file: one record per conversation, every issue located in the original spans.
    """
    out = Parsed(parsed.kind, issues=list(parsed.issues), stdlib=parsed.stdlib, origins={})
    tally = _Tally()
    spool = SpanSpool()
    try:
        read_spans(file, parsed, out, tally, spool)
    except BaseException:
        spool.close()
        raise
    out.stdlib = parsed.stdlib  # JSON lines read lazily: known once every line is parsed (surrogates repaired)
    _Mapping(file, out, spool, tally, parsed.line_of)
    return out


class _Mapping:
    """Each conversation's spans mapped to one record of ``out`` when asked for, its issues recorded there."""

    def __init__(self, file: str, out: Parsed, spool: SpanSpool, tally: _Tally,
                 line_of: Callable[[int], int | None]) -> None:
        self.file, self.out, self.spool, self.tally, self.line_of = file, out, spool, tally, line_of
        self.groups = spool.groups()
        self.keys = list(self.groups)
        out.issues.extend(self._split_issues())
        self.references = active_references()  # read now: the load that set it is still running
        self.joined: list[Issue] = []
        self.first_lines: list[int | None] = []
        self.stem = file_stem(file)
        self.done = 0
        first_lines = self.first_lines
        out.records = [None] * len(self.keys)
        out.line_of = lambda i: first_lines[i] if 0 <= i < len(first_lines) else None
        out.more = self.more
        out.closers.append(spool.close)  # the loader releases it, also after a failure
        self._closed = weakref.finalize(out, spool.close)  # and one nobody releases removes it when it goes
        if not self.keys:
            self.more(0)

    def _split_issues(self) -> list[Issue]:
        """A warning for the traces split by conversation id, and one for their spans placed by no id (each once,
        at the first, with the count)."""
        splits, out = self.spool.splits, []
        if splits.first is not None:
            trace, ids, position = splits.first
            path, line = self._span_place(position, "gen_ai.conversation.id", "session.id")
            more = f"; {plural(splits.traces, 'trace')} of this file were split alike" if splits.traces > 1 else ""
            names = ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
            out.append(Issue("warning", self.file, None, path, f"trace {trace} names {len(ids)} conversation ids "
                             f"({names}): it was split into one conversation per id, each span going to its own id, "
                             f"else to its nearest ancestor's{more}", None, "nothing to do if the trace holds several "
                             "conversations; else give its spans one gen_ai.conversation.id", line))
        if splits.first_orphan is not None:
            position, trace, conv = splits.first_orphan
            path, line = self._span_place(position)
            out.append(Issue("warning", self.file, None, path, f"names no conversation id, nor does any of its "
                             f"ancestors, in trace {trace}, which names several: it went to the trace's first "
                             f"conversation ({conv}); spans placed so in this file: {splits.orphans}", None,
                             "set gen_ai.conversation.id on the trace's root span (or on this span)", line))
        return out

    def _span_place(self, position: int, *attrs: str) -> tuple[str, int | None]:
        """A spooled span's place (or that of the first of ``attrs`` it has) and line; none if it cannot be read."""
        try:
            span = self.spool.peek(position)
        except OSError:  # the temporary file failed: mapping reports it, this warning names the trace only
            return "", None
        key = next((a for a in attrs if a in span.attrs), None)
        return span.path if key is None else span.attr_path(key), self.line_of(span.record)

    def more(self, stop: int) -> None:
        """Map the conversations up to index ``stop`` (what :meth:`Parsed.parse_until` calls)."""
        for index in range(self.done, min(stop, len(self.keys))):
            # A conversation's spans are read (back) now and go once it is mapped.
            try:
                members = self.spool.spans(self.groups.pop(self.keys[index]))
            except OSError as err:
                self._lost(index, err)
                break
            self._map(index, members)
            self.done = index + 1
        if self.done >= len(self.keys):
            self._closed()
            out = self.out
            out.more = None
            out.issues.extend(self.tally.issues(self.file, self.line_of))
            out.issues.extend(self.joined)

    def _lost(self, index: int, err: OSError) -> None:
        """The temporary file failed: one error here, and this conversation and the rest are not loaded."""
        out, rest = self.out, len(self.keys) - index
        out.records[index:] = [UNPARSABLE] * rest
        self.first_lines.extend([None] * rest)
        out.record_errors[index] = Issue(
            "error", self.file, index, "", f"cannot be read back from the temporary file its spans waited in "
            f"({err.strerror or err}); this conversation and the {rest - 1} after it were not loaded", None,
            "check the disk of the temporary folder (TMPDIR) and load the file again")
        self.done = len(self.keys)

    def _map(self, index: int, members: list[Span]) -> None:
        out, line_of = self.out, self.line_of
        assert out.origins is not None
        self.first_lines.append(line_of(members[0].record))
        first_lines = self.first_lines
        found = map_conversation(self.file, index, self.keys[index], members, self.stem, line_of,
                                 lambda i: first_lines[i] if i < len(first_lines) else None, self.references)
        rec = found.rec
        if found.record is not None:
            out.records[index] = found.record
            out.origins[index] = rec.origins
            self.joined.extend(found.joined)
        else:
            out.records[index] = UNPARSABLE
            out.record_errors[index] = rec.errors[0]
            out.record_issues.extend(rec.errors[1:])
        out.record_issues.extend(rec.warnings)


@dataclass
class MappedConversation:
    """One conversation's spans mapped: the seed record (``None`` when it has errors), its issues, the join's.

    Attributes:
        record: The seed conversation, with its reference joined (``None``: ``rec.errors`` says why).
        rec: The mapping's issues (errors, warnings) and the origin of each mapped path.
        joined: The reference file's issues met joining this conversation.
    """

    record: dict[str, Any] | None
    rec: RecordMap
    joined: list[Issue]


def map_conversation(file: str, index: int, key: str, members: list[Span], stem: str,
                     line_of: Callable[[int], int | None], record_line: Callable[[int], int | None],
                     references: References | None) -> MappedConversation:
    """Map one conversation's spans to a seed record and join its reference: the one mapping of a group of spans.

    The file importer calls it for each group of a file; the live OTLP path
    (:mod:`agentic_core.live`) for each conversation it completes, so both give the same records.

    Args:
        file: The name issues are located in (the file, or the live stream).
        index: The record's index (its place among the mapped records).
        key: The group's conversation id (or trace id).
        members: The group's spans, in arrival (file) order.
        stem: The name of the agent when the spans name neither agent, model nor service.
        line_of: The line of a span's file record (``None`` when unknown).
        record_line: The line of a mapped record (its first span's).
        references: The golden set joined to the record, if any.
    """
    rec = RecordMap(file, index, record_line)

    def warn_span(span: Span, path: str, rule: str, value: Any, fix: str) -> None:
        # Located at the span's own line (a conversation's spans may lie anywhere in the file).
        found = rec.issue("warning", path, rule, value, fix)
        rec.warnings[-1] = replace(found, line=line_of(span.record))

    mapped = conversation(rec, key, members, stem, warn_span, line_of)
    if mapped is None or rec.errors:
        return MappedConversation(None, rec, [])
    joined = references.join(mapped) if references is not None else []
    return MappedConversation(mapped, rec, joined)
