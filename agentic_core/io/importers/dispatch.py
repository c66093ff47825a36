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
    summary = _Summary(file, out, chosen, importer.noun, forced=fmt != "auto")
    if out.more is None:
        summary.see(len(out.records))
        summary.finish()
    else:  # records mapped as the loader reads them (OpenTelemetry): counted as they are mapped, before it lets
        # them go; the note is written once the last one is mapped
        mapped_until = out.more

        def more(stop: int) -> None:
            mapped_until(stop)
            summary.see(min(stop, len(out.records)))

        out.more = more
        out.when_read.append(summary.finish)
    return out


class _Summary:
    """What the import note and the missing-reference warning say, counted record by record."""

    def __init__(self, file: str, out: Parsed, fmt: str, noun: str, *, forced: bool) -> None:
        self.file, self.out, self.fmt, self.noun, self.forced = file, out, fmt, noun, forced
        self.seen = self.mapped = self.interactions = self.missing = 0
        self.first: tuple[int, str] | None = None  # the first interaction without a reference or a score

    def see(self, stop: int) -> None:
        """Count the records before index ``stop`` not counted yet."""
        records = self.out.records
        for index in range(self.seen, stop):
            record = records[index]
            if record is UNPARSABLE:
                continue
            self.mapped += 1
            self.interactions += len(record["conversation"])
            for j, turn in enumerate(record["conversation"]):
                if not turn["ground_truth_assistant"] and turn.get("score") is None:
                    self.missing += 1
                    if self.first is None:
                        self.first = (index, f"conversation[{j}]")
        self.seen = max(self.seen, stop)

    def finish(self) -> None:
        """Put the note first among the file's issues and the missing-reference warning, if any, last."""
        out = self.out
        out.issues.insert(0, self.note())
        if self.first is not None:
            index, path = self.first
            pairs = out.origins.get(index, []) if out.origins is not None else []
            out.issues.append(Issue(
                "warning",
                self.file,
                index,
                source_path(path, pairs),
                f"{self.missing} of {plural(self.interactions, 'interaction')} have no reference answer and no "
                "score (the first is here); their ground truth is left empty, so answer judges grade them as wrong",
                None,
                "give a reference answer for every user turn (a list, one per turn), or a score, or evaluate tool "
                "use only",
                out.line_of(index),
            ))

    def note(self) -> Issue:
        """How the file was read: ``read as OpenAI chat traces: 12 traces, 31 interactions``."""
        how = "the format chosen" if self.forced else "detected from the content"
        text = (
            f"read as {FORMAT_LABELS[self.fmt]} ({how}): {plural(self.mapped, self.noun)}, "
            f"{plural(self.interactions, 'interaction')}"
        )
        skipped = len(self.out.records) - self.mapped
        if skipped:
            text += f"; {plural(skipped, self.noun)} could not be mapped (see the errors)"
        if self.fmt == "tau-bench":
            text += "; each trial's reward is its score: judge with the dataset judge to reproduce tau-bench's pass^k"
        return Issue("info", self.file, None, "", text)


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
