"""Run the right importer on a parsed file: detect (``auto``) or check (a forced format), map, and say so.

The loader calls :func:`import_parsed` on every parsed file before its checks and validation. A
seed file comes back unchanged (the same object, no copy: its load costs what it always did);
any other format comes back as seed-format records with a note naming the importer, and the
loader moves every issue it then finds back to the place in the original record
(:func:`~agentic_core.io.importers.common.relocate`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agentic_core.common.wording import plural
from agentic_core.io.importers.common import source_path
from agentic_core.io.importers.detect import LOOK_AT, Detected, detect
from agentic_core.io.importers.formats import FORMAT_LABELS
from agentic_core.io.importers.inspect_logs import import_inspect
from agentic_core.io.importers.openai_traces import import_openai
from agentic_core.io.importers.ragas_samples import import_ragas
from agentic_core.io.importers.tau_bench import import_tau_bench
from agentic_core.io.load_report import Issue, file_error
from agentic_core.io.otel_import import import_otel
from agentic_core.io.parsed import UNPARSABLE, Parsed


@dataclass(frozen=True)
class Importer:
    """One format's importer and the noun for one of its records (``trace``, ``trial``)."""

    run: Callable[[str, Parsed], Parsed]
    noun: str


IMPORTERS: dict[str, Importer] = {
    "openai": Importer(import_openai, "trace"),
    "ragas": Importer(import_ragas, "sample"),
    "tau-bench": Importer(import_tau_bench, "trial"),
    "inspect": Importer(import_inspect, "sample"),
    "otel": Importer(import_otel, "conversation"),
}
"""The importers by format name (every format but ``auto`` and ``seed``)."""

_NOTHING_TO_MAP = ("empty", "invalid")


def import_parsed(file: str, parsed: Parsed, fmt: str) -> Parsed:
    """The file's records in the seed format.

    Args:
        file: The file name.
        parsed: The file as parsed.
        fmt: ``auto`` (detect), ``seed`` or an importer's name (already checked, see
            :func:`~agentic_core.io.importers.formats.check_format`).

    Returns:
        ``parsed`` itself for a seed file (or one nothing could be read from); else the mapped
        file, with a note naming the importer, or with a file error when ``fmt`` was forced and
        the records are plainly in another format.
    """
    if parsed.kind in _NOTHING_TO_MAP:
        return parsed
    parsed.parse_first(LOOK_AT)  # a file read lazily: what detection reads
    found = detect(parsed)
    if (found is not None and found.format not in ("seed", "otel")) or fmt not in ("auto", "seed", "otel"):
        parsed.parse_until(len(parsed.records))  # an importer maps every record (the OTel one parses them one by one)
    if fmt == "auto":
        chosen = found.format if found is not None else "seed"
    else:
        if found is not None and found.format != fmt:
            return mismatch(file, parsed, fmt, found)
        chosen = fmt
    if chosen == "seed":
        return parsed
    importer = IMPORTERS[chosen]
    out = importer.run(file, parsed)
    out.imported_as = chosen
    out.issues.insert(0, import_note(file, out, chosen, importer.noun, forced=fmt != "auto"))
    missing = no_reference_issue(file, out)
    if missing is not None:
        out.issues.append(missing)
    return out


def import_note(file: str, out: Parsed, fmt: str, noun: str, *, forced: bool) -> Issue:
    """The note saying how a file was read: ``read as OpenAI chat traces: 12 traces, 31 interactions``."""
    mapped = [r for r in out.records if r is not UNPARSABLE]
    n_interactions = sum(len(r["conversation"]) for r in mapped)
    how = "the format chosen" if forced else "detected from the content"
    text = (
        f"read as {FORMAT_LABELS[fmt]} ({how}): {plural(len(mapped), noun)}, "
        f"{plural(n_interactions, 'interaction')}"
    )
    skipped = len(out.records) - len(mapped)
    if skipped:
        text += f"; {plural(skipped, noun)} could not be mapped (see the errors)"
    if fmt == "tau-bench":
        text += "; each trial's reward is its score: judge with the dataset judge to reproduce tau-bench's pass^k"
    return Issue("info", file, None, "", text)


def no_reference_issue(file: str, out: Parsed) -> Issue | None:
    """One warning for the interactions that came without a reference answer and without a score."""
    count = 0
    first: tuple[int, str] | None = None
    for index, record in enumerate(out.records):
        if record is UNPARSABLE:
            continue
        for j, turn in enumerate(record["conversation"]):
            if not turn["ground_truth_assistant"] and turn.get("score") is None:
                count += 1
                if first is None:
                    first = (index, f"conversation[{j}]")
    if first is None:
        return None
    index, path = first
    pairs = out.origins.get(index, []) if out.origins is not None else []
    total = sum(len(r["conversation"]) for r in out.records if r is not UNPARSABLE)
    return Issue(
        "warning",
        file,
        index,
        source_path(path, pairs),
        f"{count} of {plural(total, 'interaction')} have no reference answer and no score (the first is here); "
        "their ground truth is left empty, so answer judges grade them as wrong",
        None,
        "give a reference answer for every user turn (a list, one per turn), or a score, or evaluate tool use only",
        out.line_of(index),
    )


def mismatch(file: str, parsed: Parsed, fmt: str, found: Detected) -> Parsed:
    """The file error for a forced format that the records plainly are not in (nothing is read)."""
    issue = file_error(
        file,
        f"the format was set to {fmt!r} ({FORMAT_LABELS[fmt]}), but this file's records are in the "
        f"{found.format!r} format ({FORMAT_LABELS[found.format]}: record {found.record} has the key {found.key!r}); "
        "nothing was read from this file",
        f"choose the format {found.format!r} or 'auto' (detected from the content): --format {found.format} on "
        f"the command line, {FORMAT_LABELS[found.format]!r} or {FORMAT_LABELS['auto']!r} as the Data page's "
        "file format",
    )
    return Parsed("invalid", issues=[*parsed.issues, issue], stdlib=parsed.stdlib)
