"""Labels files: human labels read from, and written to, CSV, JSONL or JSON.

A labels file has one row per label: ``session_id``, optional ``assistant_id`` and ``qa_id`` (absent or empty:
the whole conversation), ``label`` (1 / 0; also ``true`` / ``false``, ``right`` / ``wrong``, ``correct`` /
``incorrect``), and optional ``design`` and ``inclusion`` (what the review queue writes: how the item was drawn).
Extra columns (the question, the answer, the judge's verdict: what a person reads to label) are ignored, so a
queue exported to label elsewhere is imported back as it is. A row whose label is empty is not a label yet and
is skipped and counted; any other bad row is an error naming the file, the line and the fix.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from agentic_core.data.labels import HumanLabel, LabelSource
from agentic_core.errors import DataError

LABEL_COLUMNS = ("session_id", "assistant_id", "qa_id", "label", "design", "inclusion")
"""The columns a labels file is read by (in the order they are written; others are kept for a person, ignored)."""

_WORDS = {
    "1": 1, "0": 0, "true": 1, "false": 0, "right": 1, "wrong": 0, "correct": 1, "incorrect": 0, "yes": 1, "no": 0,
}  # fmt: skip
_FIX = "give session_id and label (1 or 0) on every row; assistant_id, qa_id, design and inclusion are optional"


class LabelsFile(BaseModel):
    """What a labels file held.

    Attributes:
        labels: The labels read, in file order.
        blank: Rows with an empty label (not labelled yet: skipped).
    """

    model_config = ConfigDict(frozen=True)

    labels: list[HumanLabel]
    blank: int = 0


def _label_value(raw: Any, place: str) -> int | None:
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if isinstance(raw, bool):
        return int(raw)
    if isinstance(raw, int | float) and raw in (0, 1):
        return int(raw)
    value = _WORDS.get(str(raw).strip().lower())
    if value is None:
        raise DataError(place, "label must be 1 or 0 (true/false, right/wrong)", raw, "write 1 for right, 0 for wrong")
    return value


def _row_label(row: dict[str, Any], place: str, source: LabelSource, at: float | None) -> HumanLabel | None:
    value = _label_value(row.get("label"), f"{place}, label")
    if value is None:
        return None
    fields: dict[str, Any] = {"label": value, "source": source}
    for key in ("session_id", "assistant_id", "qa_id", "design"):
        text = row.get(key)
        if text is not None and str(text).strip():
            fields[key] = str(text).strip()
    inclusion = row.get("inclusion")
    if inclusion is not None and str(inclusion).strip():
        fields["inclusion"] = inclusion
    if at is not None:
        fields["labelled_at"] = at
    try:
        return HumanLabel(**fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "row"
        raise DataError(f"{place}, {where}", first["msg"].lower(), first.get("input"), _FIX) from None


def _file_rows(data: bytes, name: str) -> Iterable[tuple[str, dict[str, Any]]]:
    text = data.decode("utf-8-sig", errors="strict")
    lower = name.lower()
    if lower.endswith(".csv"):
        reader = csv.DictReader(io.StringIO(text))
        if reader.fieldnames is None or "label" not in reader.fieldnames or "session_id" not in reader.fieldnames:
            raise DataError(f"{name}, header", "must name the columns session_id and label", reader.fieldnames, _FIX)
        for line, row in enumerate(reader, start=2):
            yield f"{name} line {line}", row
        return
    stripped = text.lstrip()
    if lower.endswith(".json") and stripped.startswith("["):
        try:
            items = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DataError(name, "must be a JSON list of label objects", exc.msg, "check the file's syntax") from None
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                raise DataError(f"{name} item {i}", "must be an object", type(item).__name__, _FIX)
            yield f"{name} item {i}", item
        return
    for line, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            item = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise DataError(f"{name} line {line}", "must be one JSON object per line", exc.msg, _FIX) from None
        if not isinstance(item, dict):
            raise DataError(f"{name} line {line}", "must be a JSON object", type(item).__name__, _FIX)
        yield f"{name} line {line}", item


def read_labels_file(
    data: bytes, name: str, *, source: LabelSource = "file", labelled_at: float | None = None
) -> LabelsFile:
    """Read human labels from a CSV (by its header), a JSON list or JSON Lines.

    Args:
        data: The file's bytes.
        name: Its name (the extension chooses CSV; the name is used in error messages).
        source: The labels' source (``file``; ``queue`` for a queue exported and labelled elsewhere).
        labelled_at: When they were given (None: now).

    Returns:
        The :class:`LabelsFile`.

    Raises:
        DataError: a row without session_id or with a label that is not 1 / 0 (the message names the line).
    """
    try:
        rows = list(_file_rows(data, name))
    except UnicodeDecodeError as exc:
        raise DataError(name, "must be UTF-8 text", exc.reason, "save the file as UTF-8") from None
    labels: list[HumanLabel] = []
    blank = 0
    for place, row in rows:
        label = _row_label(row, place, source, labelled_at)
        if label is None:
            blank += 1
        else:
            labels.append(label)
    if not labels and not blank:
        raise DataError(name, "holds no label", 0, _FIX)
    return LabelsFile(labels=labels, blank=blank)


def read_labels_path(path: str | os.PathLike[str], *, source: LabelSource = "file") -> LabelsFile:
    """Read a labels file from the disk (``evaluate --labels FILE``, ``evaluate(..., labels=path)``).

    Raises:
        DataError: the file cannot be read, or :func:`read_labels_file` refuses it (the message names the line).
    """
    file = Path(path).expanduser()
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise DataError(str(path), "cannot be read as a labels file", exc.strerror, "check the path") from None
    return read_labels_file(data, file.name, source=source)


def write_labels(
    rows: Sequence[dict[str, Any]], fmt: Literal["csv", "jsonl"], extra: Sequence[str] = ()
) -> bytes:
    """Write label rows (the :data:`LABEL_COLUMNS`, then ``extra`` columns for a person to read) as CSV or JSONL.

    Args:
        rows: One dict per item (``label`` may be None: not labelled yet, written empty).
        fmt: ``csv`` or ``jsonl``.
        extra: Further columns, after the label columns (question, answer, reference, judge verdict, ...).
    """
    columns = [*LABEL_COLUMNS, *extra]
    if fmt == "jsonl":
        lines = [json.dumps({c: row.get(c) for c in columns}, ensure_ascii=False) for row in rows]
        return ("\n".join(lines) + ("\n" if lines else "")).encode("utf-8")
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({c: ("" if row.get(c) is None else row.get(c)) for c in columns})
    return out.getvalue().encode("utf-8")


def label_rows(labels: Iterable[HumanLabel]) -> list[dict[str, Any]]:
    """Labels as rows for :func:`write_labels` (the label columns only)."""
    return [
        {
            "session_id": lab.session_id,
            "assistant_id": lab.assistant_id,
            "qa_id": lab.qa_id,
            "label": lab.label,
            "design": lab.design,
            "inclusion": lab.inclusion,
        }
        for lab in labels
    ]
