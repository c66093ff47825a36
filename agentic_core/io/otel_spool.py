"""The spans of one file, held until they are grouped into conversations: in memory, or on the disk when many.

Spans can only be grouped once the whole file is read (a conversation's spans may lie anywhere in it),
so a large export's spans would all be held at once: about 1.2 times the file's size. Past
:data:`SPILL_FROM` (the spans' texts, estimated), the spool writes each span to a temporary file
(``marshal``, the fastest codec for plain values) and keeps only what grouping needs: its trace id and
conversation id. The spans of one conversation are read back when it is mapped, then let go, so the
load's memory is the grouping keys plus one conversation, whatever the file's size.

A disk that refuses the temporary file (full, read-only) is not an error: the spool keeps the spans in
memory from there on (the load then needs the memory it needed before spooling).
"""

from __future__ import annotations

import marshal
import os
import tempfile
from array import array
from dataclasses import dataclass
from typing import IO, Any

from agentic_core.io.bounded_read import read_at
from agentic_core.io.otel_messages import conversation_id
from agentic_core.io.otel_spans import Event, Span

__all__ = ["SPILL_FROM", "SpanSpool", "Splits"]

SPILL_FROM = 64 * 1024 * 1024
"""Estimated bytes of span text held in memory before the spool starts writing spans to the disk."""
_WRITE_EVERY = 4 * 1024 * 1024
"""Encoded spans gathered before one write (few, large writes)."""
_SPAN_OVERHEAD = 200
"""Bytes a span costs beyond its attribute texts (ids, times, the object itself), for the estimate."""


def _weight(span: Span) -> int:
    """A cheap estimate of a span's memory: its string attribute values dominate (messages, arguments)."""
    size = _SPAN_OVERHEAD
    for value in span.attrs.values():
        if isinstance(value, str):
            size += len(value)
    for event in span.events:
        for value in event.attrs.values():
            if isinstance(value, str):
                size += len(value)
    return size


@dataclass
class Splits:
    """Traces whose spans name several conversation ids, split into one conversation per id: counted, and the
    first kept (for one warning each), never one note per trace or span.

    Attributes:
        traces: How many traces were split.
        first: The first such trace: its id, its conversation ids (file order) and the position of its first
            span naming an id other than the first.
        orphans: Spans of such traces with no conversation id on them or their ancestors (given the trace's
            first id).
        first_orphan: The first of them: its position, its trace and the conversation it was given.
    """

    traces: int = 0
    first: tuple[str, list[str], int] | None = None
    orphans: int = 0
    first_orphan: tuple[int, str, str] | None = None

    def see(self, trace: str, ids: list[str], position: int) -> None:
        """Count one split trace."""
        self.traces += 1
        self.first = self.first or (trace, ids, position)

    def unplaced(self, position: int, trace: str, conversation: str) -> None:
        """Count one span placed by no id of its own or of an ancestor."""
        self.orphans += 1
        self.first_orphan = self.first_orphan or (position, trace, conversation)


class SpanSpool:
    """Spans in file order, grouped into conversations once all are in (see the module).

    Use as a context manager, or call :meth:`close`: the temporary file is removed then.
    """

    def __init__(self, spill_from: int | None = None) -> None:
        self._spill_from = SPILL_FROM if spill_from is None else spill_from
        self._held: dict[int, Span] = {}  # spans kept in memory, by position
        self._weight = 0
        self._traces: list[str] = []  # per span, what grouping reads
        self._conversations: list[str | None] = []
        self._offsets = array("q")  # per span: where it is in the file (-1: held in memory)
        self._lengths = array("q")
        self._file: IO[bytes] | None = None
        self._spilling = False
        self._failed = False  # the disk refused: hold the rest in memory
        self._pending = bytearray()
        self._pending_at: list[tuple[int, int]] = []  # (position, length) of the spans in the pending buffer
        self._written = 0
        self._resources: list[dict[str, Any]] = []  # resources are shared by many spans: written once each
        self._resource_index: dict[Any, int] = {}  # kept alive in _resources, so an id is never reused
        self.splits = Splits()

    def __enter__(self) -> SpanSpool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __len__(self) -> int:
        return len(self._traces)

    @property
    def spilled(self) -> bool:
        """Whether any span went to the disk."""
        return self._written > 0 or bool(self._pending_at)

    def append(self, span: Span) -> None:
        """Add the next span of the file."""
        position = len(self._traces)
        self._traces.append(span.trace_id)
        self._conversations.append(conversation_id(span))
        if not self._spilling or self._failed:
            self._held[position] = span
            self._offsets.append(-1)
            self._lengths.append(0)
            self._weight += _weight(span)
            if self._weight > self._spill_from and not self._failed:
                self._start_spilling()
            return
        self._offsets.append(-1)
        self._lengths.append(0)
        self._encode(position, span)

    def groups(self) -> dict[str, list[int]]:
        """Span positions by conversation id (a trace's id when none of its spans names one), in file order.

        A trace whose spans name several conversation ids is split (:meth:`_split`): each span goes to its own
        id, a span without one to its nearest ancestor's; :attr:`splits` counts what was split.
        """
        self._flush()
        trace_conv: dict[str, str] = {}
        several: dict[str, list[int]] = {}  # traces naming more than one conversation id: their spans
        for trace, conv in zip(self._traces, self._conversations, strict=True):
            if conv is not None and trace_conv.setdefault(trace, conv) != conv:
                several[trace] = []
        if several:
            for position, trace in enumerate(self._traces):
                if trace in several:
                    several[trace].append(position)
            for trace, positions in several.items():
                for position, conv in self._split(trace, positions, trace_conv[trace]).items():
                    self._conversations[position] = conv  # no second table: memory stays one trace's
        groups: dict[str, list[int]] = {}
        for position, (trace, conv) in enumerate(zip(self._traces, self._conversations, strict=True)):
            key = (conv if trace in several else None) or trace_conv.get(trace, trace or "no-trace-id")
            groups.setdefault(key, []).append(position)
        self._traces = []  # grouping was their only use
        self._conversations = []
        return groups

    def _split(self, trace: str, positions: list[int], first: str) -> dict[int, str]:
        """The conversation of each span of a trace naming several: its own id, else its nearest ancestor's,
        else the trace's first id (in file order). Linear: each span's walk up stops at a span already placed."""
        placed: dict[int, str] = {p: c for p in positions if (c := self._conversations[p]) is not None}
        ids = list(dict.fromkeys(placed.values()))
        self.splits.see(trace, ids, next(p for p, c in placed.items() if c != first))
        parents: dict[int, str] = {}
        by_id: dict[str, int] = {}  # a repeated id names its first span, as the conversation's tree does
        try:  # one trace's spans at a time, let go once placed
            for p in positions:
                span = self.peek(p)
                parents[p] = span.parent_id
                if span.span_id:
                    by_id.setdefault(span.span_id, p)
        except OSError:  # the temporary file failed: spans go by their own id only (mapping reports the file)
            parents.clear()
        for position in positions:
            walk: list[int] = []
            seen: set[int] = set()
            node: int | None = position
            while node is not None and node not in placed and node not in seen:
                seen.add(node)
                walk.append(node)
                parent = parents.get(node)
                node = by_id.get(parent) if parent else None
            found = placed.get(node) if node is not None else None
            for item in walk:
                if found is None:
                    self.splits.unplaced(item, trace, first)
                placed[item] = found or first
        return placed

    def peek(self, position: int) -> Span:
        """The span at ``position``, left in the spool (read back from the disk if it went there).

        Raises:
            OSError: The temporary file cannot be read back.
        """
        held = self._held.get(position)
        if held is not None:
            return held
        assert self._file is not None
        return self._decode(read_at(self._file, self._offsets[position], self._lengths[position]))

    def spans(self, positions: list[int]) -> list[Span]:
        """The spans at ``positions`` (from :meth:`groups`), read back from the disk where they went.

        Raises:
            OSError: The temporary file cannot be read back.
        """
        out: list[Span] = []
        for position in positions:
            held = self._held.pop(position, None)
            if held is not None:
                out.append(held)
                continue
            assert self._file is not None
            out.append(self._decode(read_at(self._file, self._offsets[position], self._lengths[position])))
        return out

    def close(self) -> None:
        """Remove the temporary file and let every span go."""
        if self._file is not None:
            self._file.close()
            self._file = None
        self._held.clear()
        self._pending.clear()
        self._pending_at.clear()

    # -- the disk --------------------------------------------------------------------------

    def _start_spilling(self) -> None:
        try:
            # Closed by close() (the spool's owner holds it open across the load), removed by the OS then.
            self._file = tempfile.TemporaryFile(prefix="agentic-otel-spans-")  # noqa: SIM115
        except OSError:
            self._failed = True
            return
        self._spilling = True
        held, self._held = self._held, {}
        for position, span in held.items():
            self._encode(position, span)
        self._weight = 0

    def _resource(self, resource: dict[str, Any]) -> int:
        """The index of a span's resource in :attr:`_resources` (equal resources are kept once)."""
        # The SDK's to_json repeats the resource in every span: equal ones are one entry, not one per span. The
        # encoded form is the key (lists are values too; 1 and true stay apart).
        try:
            key: Any = marshal.dumps(resource)
        except ValueError:  # a value marshal cannot write (none a JSON parser makes): told apart by identity
            key = id(resource)
        index = self._resource_index.get(key)
        if index is None:
            index = self._resource_index[key] = len(self._resources)
            self._resources.append(resource)
        return index

    def _encode(self, position: int, span: Span) -> None:
        resource = self._resource(span.resource)
        events = tuple((e.name, e.time_ns, e.attrs, e.path) for e in span.events)
        try:
            blob = marshal.dumps((span.trace_id, span.span_id, span.parent_id, span.name, span.start_ns,
                                  span.end_ns, span.attrs, events, span.record, span.place, resource, span.order,
                                  span.error))
        except ValueError:  # a value marshal cannot write (none a JSON parser makes): this span stays in memory
            self._held[position] = span
            return
        self._pending_at.append((position, len(blob)))
        self._pending += blob
        if len(self._pending) >= _WRITE_EVERY:
            self._flush()

    def _decode(self, blob: bytes) -> Span:
        (trace, span_id, parent, name, start, end, attrs, events, record, place, resource,
         order, error) = marshal.loads(blob)
        return Span(trace, span_id, parent, name, start, end, attrs, tuple(Event(*e) for e in events), record,
                    place, self._resources[resource], order, error)

    def _flush(self) -> None:
        if not self._pending_at:
            return
        assert self._file is not None
        data = memoryview(self._pending)
        try:
            done = 0
            while done < len(data):
                done += os.write(self._file.fileno(), data[done:])
        except OSError:
            # The disk refused (full, gone): these spans stay in memory, and so do the file's later ones.
            self._failed = True
            at = 0
            for position, length in self._pending_at:
                self._held[position] = self._decode(bytes(data[at:at + length]))
                at += length
        else:
            at = self._written
            for position, length in self._pending_at:
                self._offsets[position] = at
                self._lengths[position] = length
                at += length
            self._written = at
        finally:
            data.release()
        self._pending = bytearray()
        self._pending_at = []
