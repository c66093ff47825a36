"""Expected answers and tools for traced conversations, from a separate reference file (a golden set).

Production traces carry no reference answers. A reference file (JSON array or JSON Lines) gives
them, one record per conversation or per task, in the OpenAI importer's keys
(:mod:`agentic_core.io.importers.openai_traces`), read by the same code::

    {"session_id": "conv-17", "reference": ["Order 7 has shipped."],
     "expected_tool_calls": [{"name": "lookup_order", "arguments": {"order_id": 7}}]}
    {"task_id": "refund-4", "reference": "Refunded.", "tool_sequence_matters": true}

A record is joined to the conversation whose id (``gen_ai.conversation.id``, else the trace id)
is its ``session_id`` (``conversation_id`` is read alike); else, by ``task_id``, to every
conversation of that task. A record with both ids gives its ``task_id`` to that conversation, so
repeated runs of one task are grouped. ``score`` is read too. A reference record that matches no
conversation is a warning, never dropped silently.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from agentic_core.errors import DataError
from agentic_core.io.bounded_read import UnreadableFile, read_data_file
from agentic_core.io.importers.build import expected_tools
from agentic_core.io.importers.common import RecordMap, text_id
from agentic_core.io.importers.messages import Call, Turn
from agentic_core.io.importers.openai_traces import expected_per_turn, per_turn
from agentic_core.io.load_report import Issue
from agentic_core.io.parse import parse
from agentic_core.io.parsed import UNPARSABLE, Parsed

_KNOWN = frozenset({"session_id", "conversation_id", "task_id", "reference", "expected_tool_calls",
                    "tool_sequence_matters", "score"})


class References:
    """A reference file's records, by conversation id and by task id.

    Args:
        file: The reference file's name (for messages).
        parsed: Its records.
    """

    def __init__(self, file: str, parsed: Parsed) -> None:
        self.file = file
        self.line_of = parsed.line_of
        self.issues: list[Issue] = list(parsed.issues) + list(parsed.record_errors.values())
        self.by_session: dict[str, int] = {}
        self.by_task: dict[str, int] = {}
        self.records: list[Any] = []
        self.used: set[int] = set()
        parsed.parse_until(len(parsed.records))
        for index, raw in enumerate(parsed.records):
            self.records.append(raw)
            if raw is UNPARSABLE:
                continue
            if not isinstance(raw, dict):
                self.issues.append(Issue("warning", file, index, "", "must be a reference object; it was not read",
                                         None, 'write {"session_id": ..., "reference": [...]}', self.line_of(index)))
                continue
            keys = (text_id(raw.get(k)) for k in ("session_id", "conversation_id"))
            session = next((k for k in keys if k is not None), None)
            task = text_id(raw.get("task_id"))
            if session is None and task is None:
                self.issues.append(Issue("warning", file, index, "", "has neither 'session_id' nor 'task_id': it "
                                         "cannot be joined to a conversation and was not read", None,
                                         "give the conversation id (session_id) or the task id", self.line_of(index)))
                continue
            for key, table in ((session, self.by_session), (task, self.by_task)):
                if key is not None and key in table:
                    self.issues.append(Issue("warning", file, index, "session_id" if table is self.by_session
                                             else "task_id", f"repeats the id of record {table[key]}; this record "
                                             "was not read", key, "give each conversation or task one record",
                                             self.line_of(index)))
                elif key is not None and (table is self.by_session or session is None):
                    table[key] = index
            for name in raw:
                if name not in _KNOWN:
                    self.issues.append(Issue("warning", file, index, name, "is not a key of a reference record; it "
                                             "was not read", None, "the keys read: " + ", ".join(sorted(_KNOWN)),
                                             self.line_of(index)))

    def join(self, conv: dict[str, Any]) -> list[Issue]:
        """Give one mapped conversation its reference, if one matches; returns the issues found doing so."""
        index = self.by_session.get(conv["session_id"])
        if index is None and conv.get("task_id") is not None:
            index = self.by_task.get(conv["task_id"])
        if index is None:
            return []
        self.used.add(index)
        raw = self.records[index]
        rec = RecordMap(self.file, index, self.line_of)
        rec.session_id = conv["session_id"]
        apply(rec, raw, conv)
        return rec.warnings

    def unmatched(self) -> list[Issue]:
        """A warning for each reference record joined to no conversation."""
        out = []
        for index in sorted({*self.by_session.values(), *self.by_task.values()} - self.used):
            out.append(Issue("warning", self.file, index, "", "matches no loaded conversation (by session_id or "
                             "task_id); it was not used", None, "check the ids against the traces' "
                             "gen_ai.conversation.id (or trace id)", self.line_of(index)))
        return out


def apply(rec: RecordMap, raw: dict[str, Any], conv: dict[str, Any]) -> None:
    """Set one conversation's reference answers, expected calls, scores and task id from a reference record."""
    turns = conv["conversation"]
    task = text_id(raw.get("task_id"))
    if task is not None and conv.get("task_id") is None:
        conv["task_id"] = task
    for t, (text, _path) in enumerate(per_turn(rec, raw, "reference", len(turns), (str,), single_for_all=False)):
        if isinstance(text, str):
            turns[t]["ground_truth_assistant"] = text
        elif text is not None:
            rec.warn(f"reference[{t}]", "must be a string; it was left out", text, "give each reference as a string")
    for t, (score, _path) in enumerate(per_turn(rec, raw, "score", len(turns), (int, float), single_for_all=True)):
        if score is not None:
            turns[t]["score"] = score
    made = [Turn(i["query"], "", [Call(c["tool_name"], c["parameters"], "", "", "")
                                  for c in (i.get("agentic") or {}).get("tools_used", [])]) for i in turns]
    expected = expected_per_turn(rec, raw, made)
    if expected is not None:
        sequence = raw.get("tool_sequence_matters", False)
        for t, calls in enumerate(expected):
            turns[t]["ground_truth_agentic"] = expected_tools(rec, calls, f"conversation[{t}]", sequence)


_ACTIVE: ContextVar[References | None] = ContextVar("otel_references", default=None)


def active_references() -> References | None:
    """The reference file of the load under way (:func:`references_for`), if any."""
    return _ACTIVE.get()


def read_references(path: str | Path) -> References:
    """Read a reference file (JSON array or JSON Lines of reference records).

    Raises:
        DataError: The file cannot be read (missing, a directory, no permission, too large).
    """
    name = str(path)
    try:
        data = read_data_file(path)
    except UnreadableFile as err:
        raise DataError(f"reference file {name}", err.what, None, err.fix, show=False) from err
    except OSError as err:
        raise DataError(f"reference file {name}", f"cannot be read: {err.strerror or err}", None,
                        "check the path (the golden set keyed by session_id or task_id)", show=False) from err
    return References(name, parse(name, data))


@contextmanager
def references_for(references: References) -> Iterator[References]:
    """Within the block, the OpenTelemetry importer joins ``references`` to the conversations it maps."""
    token = _ACTIVE.set(references)
    try:
        yield references
    finally:
        _ACTIVE.reset(token)
