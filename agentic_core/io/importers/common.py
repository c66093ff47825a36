"""What every importer shares: a record's place and issues, message texts, tool arguments and results,
expected calls spread over turns, unmapped keys, and moving the loader's issues back to the original place.

An importer maps each original record to one seed-format dict (or skips it with an error), and
records where each mapped value came from (:attr:`RecordMap.origins`): the loader validates the
mapped dicts like any seed file, and :func:`relocate` then rewrites the path of every issue it
finds (``conversation[0].score``) to the place in the file as written (``score`` or
``messages[3].tool_calls[0].function.arguments``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

import orjson

from agentic_core.common.wording import plural
from agentic_core.io.load_report import Issue, Severity, SkippedRecord
from agentic_core.io.parsed import UNPARSABLE, Parsed
from agentic_core.io.render import json_type, safe_value
from agentic_core.io.unknown_keys import close_match


def under(base: str, path: str) -> str:
    """``path`` inside ``base``: ``under("samples[2]", "messages[0]")`` is ``samples[2].messages[0]``."""
    if not base:
        return path
    if not path:
        return base
    return base + path if path.startswith("[") else f"{base}.{path}"


class RecordMap:
    """One original record being mapped: its place, its issues and the origin of each mapped path.

    Args:
        file: The file name (for messages).
        index: The record's index in the file (for an Inspect log: the sample's index).
        line_of: The file's line lookup (called only when an issue needs the line).
        base: The record's own path in the file (``samples[3]`` for an Inspect sample; empty when
            the record is a top-level item of the file).
    """

    def __init__(self, file: str, index: int, line_of: Callable[[int], int | None], base: str = "") -> None:
        self.file = file
        self.index = index
        self.base = base
        self.session_id: str | None = None
        self.errors: list[Issue] = []
        self.warnings: list[Issue] = []
        self.origins: list[tuple[str, str]] = []
        self._line_of = line_of

    @property
    def line(self) -> int | None:
        """The record's 1-based line in the file, when known."""
        return self._line_of(self.index)

    def issue(self, severity: Severity, path: str, rule: str, value: Any = None, fix: str = "") -> Issue:
        """Record an issue at ``path`` (relative to the record) and return it.

        ``error`` means the record will be skipped; ``warning`` that it was mapped with a loss. A
        ``value`` of ``None`` is not shown (a missing key and a JSON ``null`` read the same).
        """
        shown = None if value is None else safe_value(value)
        found = Issue(severity, self.file, self.index, under(self.base, path), rule, shown, fix, self.line, None,
                      self.session_id)
        (self.errors if severity == "error" else self.warnings).append(found)
        return found

    def error(self, path: str, rule: str, value: Any = None, fix: str = "") -> None:
        """An error: the record cannot be mapped and is skipped."""
        self.issue("error", path, rule, value, fix)

    def warn(self, path: str, rule: str, value: Any = None, fix: str = "") -> None:
        """A warning: the record is mapped, but something in it was left out or guessed."""
        self.issue("warning", path, rule, value, fix)

    def required_id(self, raw: dict[str, Any], key: str, what: str, fix: str) -> str | None:
        """The id under ``key`` (a string or an integer) as a string; ``None``, with an error, when it is not one.

        Args:
            raw: The original record.
            key: The key of the id.
            what: What the id must be, for the rule (``the task's index (an integer or a string)``).
            fix: What to do about it.
        """
        found = text_id(raw.get(key))
        if found is None:
            self.error(key, f"must be {what}", raw.get(key), fix)
        return found

    def origin(self, mapped: str, source: str | None) -> None:
        """Note that the mapped record's ``mapped`` path came from ``source`` in the original record."""
        if source is not None:
            self.origins.append((mapped, under(self.base, source)))


def map_records(
    file: str,
    parsed: Parsed,
    one: Callable[[RecordMap, dict[str, Any]], dict[str, Any] | None],
    *,
    records: Sequence[Any] | None = None,
    line_of: Callable[[int], int | None] | None = None,
    base: Callable[[int], str] | None = None,
    what: str = "a JSON object",
    keys: KeyTally | None = None,
) -> Parsed:
    """Map every record of ``parsed`` with ``one``; return the seed-format records as a new :class:`Parsed`.

    Args:
        file: The file name.
        parsed: The file as parsed (its records, or ``records`` when given, are the originals).
        one: Maps one original record; returns ``None`` (with an error recorded) to skip it.
        records: The original records when they are not ``parsed.records`` (an Inspect log's samples).
        line_of: Their line lookup (default: ``parsed.line_of``).
        base: Each record's own path in the file (default: none).
        what: What each record must be, for the message about a record that is not an object.
        keys: Where the keys each record holds (and ``one`` may not read) are counted, before ``one`` maps it.

    Returns:
        The mapped file: skipped records are :data:`UNPARSABLE` with their first error in
        ``record_errors``; warnings (and further errors) are in ``record_issues``; ``origins``
        holds each mapped record's source paths.
    """
    originals = parsed.records if records is None else records
    lines = parsed.line_of if line_of is None else line_of
    out = Parsed(
        parsed.kind,
        issues=list(parsed.issues),
        record_errors=dict(parsed.record_errors),
        line_of=lines,
        stdlib=parsed.stdlib,
        origins={},
    )
    assert out.origins is not None
    for index, raw in enumerate(originals):
        if raw is UNPARSABLE:
            out.records.append(UNPARSABLE)
            continue
        rec = RecordMap(file, index, lines, base(index) if base else "")
        mapped = None
        if isinstance(raw, dict):
            if keys is not None:
                keys.see(rec, raw)
            mapped = one(rec, raw)
        else:
            rec.error("", f"must be {what}; it is {json_type(raw)}", raw, "put one object per record")
        if rec.errors or mapped is None:
            if not rec.errors:  # an importer that skips a record must say why; never silently
                rec.error("", "could not be mapped", None, "check the record against the format's description")
            out.records.append(UNPARSABLE)
            out.record_errors[index] = rec.errors[0]
            out.record_issues.extend(rec.errors[1:])
        else:
            out.records.append(mapped)
            out.origins[index] = rec.origins
        out.record_issues.extend(rec.warnings)
    return out


class RecordImporter(Protocol):
    """One file's import in a format whose records each map to one conversation."""

    keys: KeyTally
    """The keys of the records, counted before each is mapped (for the notes on those not read)."""

    def one(self, rec: RecordMap, raw: dict[str, Any]) -> dict[str, Any] | None:
        """One original record as a seed conversation (``None``, with an error recorded, to skip it)."""
        ...


def import_records(file: str, parsed: Parsed, importer: RecordImporter, *, what: str) -> Parsed:
    """Map every record of a file with ``importer``, then add its notes on the keys it did not read.

    Args:
        file: The file name.
        parsed: The file as parsed (one original record per record).
        importer: The format's importer for this file.
        what: What each record must be, for the message about a record that is not an object.

    Returns:
        The mapped file, with every issue located in the original records (see :func:`map_records`).
    """
    out = map_records(file, parsed, importer.one, what=what, keys=importer.keys)
    out.issues.extend(importer.keys.issues(file))
    return out


def file_stem(file: str) -> str:
    """The file name without folders and extension (``runs/gpt-4o.json`` -> ``gpt-4o``)."""
    return Path(file).stem or file


def text_id(value: Any) -> str | None:
    """An id given as a string or an integer, as a string; ``None`` for anything else or blank."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and value.strip():
        return value
    return None


# Content parts that are the reply's text, and those that are not part of the reply at all.
_TEXT_PARTS = ("text", "input_text", "output_text")
_NOT_REPLY_PARTS = ("reasoning", "thinking", "redacted_thinking")


def content_text(content: Any, path: str, rec: RecordMap) -> str | None:
    """The text of a message's content: a string, or a list of parts whose text parts are joined.

    Reasoning parts are the model's thinking, not its reply, and are left out without a note;
    any other part (an image, audio) is left out with a warning, since the judge never sees it.

    Returns:
        The text (parts joined by newlines), or ``None`` when there is none.
    """
    if content is None or isinstance(content, str):
        return content
    if not isinstance(content, list):
        rec.warn(path, f"must be a string or a list of content parts; it is {json_type(content)}, left out",
                 content, "write the message text as a string")
        return None
    texts: list[str] = []
    for i, part in enumerate(content):
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict) and part.get("type") in _TEXT_PARTS and isinstance(part.get("text"), str):
            texts.append(part["text"])
        elif not (isinstance(part, dict) and part.get("type") in _NOT_REPLY_PARTS):
            kind = part.get("type") if isinstance(part, dict) else json_type(part)
            rec.warn(f"{path}[{i}]", f"is a content part of type {kind!r}, not text; it was left out", None,
                     "only text parts ({\"type\": \"text\", \"text\": \"...\"}) are read")
    return "\n".join(texts)


def decode_result(value: Any) -> Any:
    """A tool result: a string holding JSON is decoded (``'{"temp": 18}'`` -> a dict), anything else kept."""
    if isinstance(value, str) and value.strip():
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return value
    return value


def tool_arguments(raw: Any, path: str, rec: RecordMap) -> dict[str, Any]:
    """A call's parameters from its arguments: a JSON object, or a string holding one.

    Arguments that are not a JSON object are a *warning*, not an error: the call was still made,
    so it still counts for tool selection and order, while its parameters (kept as
    ``{"_raw": <the text>}`` so the report shows what the agent sent) cannot match the expected
    ones. Skipping the whole conversation for one malformed call would also throw away its
    answers, which may be perfectly gradable.

    Returns:
        The parameters (``{}`` for no arguments: ``None``, ``""``).
    """
    if isinstance(raw, dict):
        return raw
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}
    if not isinstance(raw, str):
        rec.warn(path, f"must be a JSON object or a string holding one; it is {json_type(raw)}. The call is kept "
                 'with {"_raw": <value>} as its parameters, which cannot match the expected ones', raw,
                 'write the arguments as an object, e.g. {"city": "Paris"}')
        return {"_raw": raw}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as err:
        problem = f"is not valid JSON ({err.msg}, column {err.colno})"
    except RecursionError:
        problem = "is nested too deeply to be read"
    else:
        if isinstance(value, dict):
            return value
        problem = f"holds {json_type(value)}, not a JSON object"
    rec.warn(path, f"{problem}; the call is kept with its text as the parameters {{\"_raw\": ...}}, which cannot "
             "match the expected ones", raw, 'write the arguments as a JSON object in a string, e.g. "{\\"city\\": '
             '\\"Paris\\"}"')
    return {"_raw": raw}


def spread_expected(used: Sequence[Sequence[str]], expected: Sequence[str]) -> list[int]:
    """The turn each expected call belongs to, when they are given for a whole multi-turn trace.

    The expected calls are matched, in order, to the calls made (a longest common subsequence of
    tool names); a matched call goes to the turn where the agent made it, an unmatched one to the
    turn of the next matched call (so the order is kept), else of the previous one, else the
    last turn.

    Args:
        used: The tool names called in each turn, in order.
        expected: The expected tool names, in order.

    Returns:
        A turn index per expected call.
    """
    n_turns = len(used)
    if n_turns <= 1:
        return [0] * len(expected)
    made = [(turn, name) for turn, names in enumerate(used) for name in names]
    m, n = len(expected), len(made)
    table = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(m - 1, -1, -1):
        for j in range(n - 1, -1, -1):
            table[i][j] = (
                table[i + 1][j + 1] + 1 if expected[i] == made[j][1] else max(table[i + 1][j], table[i][j + 1])
            )
    turns: list[int | None] = [None] * m
    i = j = 0
    while i < m and j < n:
        if expected[i] == made[j][1]:
            turns[i] = made[j][0]
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    following: int | None = None
    for k in range(m - 1, -1, -1):
        if turns[k] is None:
            turns[k] = following
        else:
            following = turns[k]
    previous = n_turns - 1
    out: list[int] = []
    for turn in turns:
        previous = previous if turn is None else turn
        out.append(previous)
    return out


@dataclass
class KeyTally:
    """The keys of original records an importer does not read, counted over a file.

    Args:
        label: The format in words, for messages (``an OpenAI chat trace``).
        known: The keys the importer reads.
        unused: Keys of the format that carry something the workbench does not use, with the reason
            (reported together in one note, not as warnings).
    """

    label: str
    known: frozenset[str]
    unused: dict[str, str] = field(default_factory=dict)
    _seen: dict[str, tuple[int, int | None, str, int]] = field(default_factory=dict)

    def see(self, rec: RecordMap, raw: dict[str, Any]) -> None:
        """Count the keys of ``raw`` that are not read."""
        for key in raw:
            if key in self.known:
                continue
            first = self._seen.get(key)
            if first is None:
                self._seen[key] = (rec.index, rec.line, under(rec.base, key), 1)
            else:
                self._seen[key] = (*first[:3], first[3] + 1)

    def issues(self, file: str) -> list[Issue]:
        """A warning per unknown key (with a suggestion), and one note listing the format's unused keys."""
        out = []
        unused: list[str] = []
        first: tuple[int, int | None, str] | None = None
        for key, (index, line, path, count) in self._seen.items():
            times = f"in {count} records" if count > 1 else "in 1 record"
            if key in self.unused:
                unused.append(f"{key} ({times}: {self.unused[key]})")
                if first is None or index < first[0]:
                    first = (index, line, path)
                continue
            near = close_match(key, self.known | frozenset(self.unused))
            keys = ", ".join(sorted(self.known))
            fix = f"did you mean {near!r}?" if near else f"remove it, or rename it to one of the keys read: {keys}"
            rule = f"is not a key of {self.label} ({times}); it was not read"
            out.append(Issue("warning", file, index, path, rule, None, fix, line))
        if first is not None:
            index, line, path = first
            place = path.rsplit(".", 1)[0] if "." in path else ""
            rule = f"{plural(len(unused), 'key')} of {self.label} not used: " + "; ".join(unused)
            out.append(Issue("info", file, index, place, rule, None, "", line))
        return out


def relocate(issues: list[Issue], skipped: list[SkippedRecord], origins: dict[int, list[tuple[str, str]]]
             ) -> tuple[list[Issue], list[SkippedRecord]]:
    """Rewrite the paths of issues found in mapped records to the places in the original records.

    A path is rewritten by its longest mapped prefix (``conversation[0].agentic.tools_used[1].parameters.city``
    -> ``messages[3].tool_calls[0].function.arguments.city``); a skipped record's message follows its issue.
    """
    renamed: dict[str, str] = {}
    out: list[Issue] = []
    for issue in issues:
        pairs = origins.get(issue.record) if issue.record is not None else None
        if pairs and issue.path:
            path = source_path(issue.path, pairs)
            if path != issue.path:
                moved = replace(issue, path=path)
                renamed[issue.message(with_place=False)] = moved.message(with_place=False)
                issue = moved
        out.append(issue)
    if renamed:
        skipped = [replace(s, message=renamed.get(s.message, s.message)) for s in skipped]
    return out, skipped


def source_path(path: str, pairs: list[tuple[str, str]]) -> str:
    """``path`` of a mapped record as a path of its original record (unchanged when nothing maps it)."""
    best: tuple[str, str] | None = None
    for mapped, source in pairs:
        inside = path == mapped or (path.startswith(mapped) and path[len(mapped)] in ".[")
        if inside and (best is None or len(mapped) > len(best[0])):
            best = (mapped, source)
    if best is None:
        return path
    return best[1] + path[len(best[0]) :]
