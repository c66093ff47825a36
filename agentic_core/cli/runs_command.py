"""``python -m agentic_core runs list|show|rename|tag|delete|export|import``: the run history.

The same history as the dashboard's History page (:class:`~agentic_core.runs.RunStore`, at
``$AGENTIC_RUNS_PATH`` or the user data folder; ``--runs-path`` points at another file). Every
subcommand prints text, or with ``--json`` one JSON document; an unknown run id exits 2 with a
message naming the id and how to list the ids. ``runs list`` filters on tags, metadata and words
(``--tag``, ``--meta``, ``--search``); ``runs tag`` changes a run's tags, note and metadata.

``evaluate`` stores its run here too (:func:`store_evaluation`) unless given ``--no-save``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from agentic_core.cli.headline_text import corrected_lines, pass_k_lines
from agentic_core.cli.tag_options import (
    add_filter_options,
    add_tag_arguments,
    filter_from_args,
    meta_document,
    run_tag_action,
    tag_lines,
)
from agentic_core.common.atomic_file import write_atomic
from agentic_core.errors import AgenticError
from agentic_core.result import EvaluationResult
from agentic_core.runs import RunMeta, RunStore, RunTags, age_text
from agentic_core.runs.run_file import read_run_file
from agentic_core.settings import AggregateSettings

EXIT_OK = 0  # agentic_core.cli.parser imports this module, so its constants are not imported here


def add_runs_parser(sub: argparse._SubParsersAction) -> None:
    """Register the ``runs`` command and its subcommands on the command line's subparsers."""
    runs = sub.add_parser("runs", help="the run history: list, show, rename, tag, delete, export, import")
    actions = runs.add_subparsers(dest="runs_command", required=True, metavar="ACTION")

    def action(name: str, help_text: str, json_output: bool = True) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = actions.add_parser(name, help=help_text)
        parser.add_argument(
            "--runs-path", help="the history file (default: $AGENTIC_RUNS_PATH, else the user data folder)"
        )
        if json_output:
            parser.add_argument("--json", action="store_true", help="print one JSON document on stdout")
        return parser

    add_filter_options(action("list", "every stored run, newest first (--tag, --meta, --search: only those matching)"))
    action("show", "one run: its description, settings and headline numbers").add_argument("run_id", metavar="RUN_ID")
    rename = action("rename", "give a run another name", json_output=False)
    rename.add_argument("run_id", metavar="RUN_ID")
    rename.add_argument("name", metavar="NAME")
    add_tag_arguments(action("tag", "add or remove a run's tags, set its note and metadata"))
    action("delete", "delete a run and its overrides", json_output=False).add_argument("run_id", metavar="RUN_ID")
    export = action("export", "write a run to one file (what 'runs import' and the History page read)", False)
    export.add_argument("run_id", metavar="RUN_ID")
    export.add_argument("--out", help="the file to write (default: run-RUN_ID.json.gz here)")
    action("import", "add a run file to the history").add_argument("file", metavar="FILE")


def _store(args: argparse.Namespace) -> RunStore:
    path = getattr(args, "runs_path", None)
    return RunStore(Path(path).expanduser() if path else None)


def _print_table(metas: list[RunMeta], labels: dict[str, int], out: TextIO) -> None:
    rows = [
        (m.id, m.name, m.data_name, m.judge.label(), age_text(m.created_at), str(m.n_conversations), ",".join(m.tags),
         str(labels.get(m.id, 0)))
        for m in metas
    ]  # fmt: skip
    header = ("id", "name", "data", "judge", "made", "conversations", "tags", "labels")
    widths = [min(40, max(len(h), *(len(r[i]) for r in rows))) for i, h in enumerate(header)]

    def line(cells: tuple[str, ...]) -> str:
        text = [c if len(c) <= w else c[: w - 1] + "…" for c, w in zip(cells, widths, strict=True)]
        return "  ".join(t.ljust(w) for t, w in zip(text, widths, strict=True)).rstrip()

    print(line(header), file=out)
    for row in rows:
        print(line(row), file=out)


def _stored_settings(document: dict[str, Any] | None, recommended: float) -> tuple[AggregateSettings, str]:
    """The run's reported settings, else the defaults with the judge's threshold (and which it was)."""
    from agentic_core.settings import make_settings

    if document:
        try:
            return AggregateSettings.model_validate(document), "as evaluated"
        except ValueError:
            pass  # settings of another version: the defaults below, said so
    return make_settings(threshold=recommended), "defaults (none stored with the run), the judge's threshold"


def _show(store: RunStore, run_id: str, as_json: bool, out: TextIO) -> None:
    from agentic_core.analysis.corrected_reading import data_labels
    from agentic_core.analysis.corrected_words import conversations_counted
    from agentic_core.evaluate import aggregate
    from agentic_core.report import summary

    payload = store.payload(run_id)
    result = store.open(run_id)
    settings, origin = _stored_settings(payload.settings, result.recommended_threshold)
    agg = aggregate(result, settings)
    doc = summary(result, agg, include_conversations=False)
    overrides = [o.model_dump(mode="json") for o in payload.overrides]
    corrected = agg.corrected  # the data's own human labels and those stored with the run
    if as_json:
        document = {"run": meta_document(payload.meta), "settings_origin": origin, "overrides": overrides, **doc}
        document["labels"] = len(payload.labels)  # added fields (issue 37): labels stored with the run, the reading
        document["corrected"] = None if corrected is None else corrected.as_json()
        json.dump(document, out, ensure_ascii=False)
        out.write("\n")
        return
    meta = payload.meta
    rate = doc["conversation_success_rate"]
    print(f"run: {meta.id}  {meta.name}", file=out)
    print(f"data: {meta.data_name} (fingerprint {meta.data_fingerprint[:12]})", file=out)
    print(f"judge: {meta.judge.label()}   made {age_text(meta.created_at)} with version {meta.app_version}", file=out)
    print(f"conversations: {meta.n_conversations}   interactions: {meta.n_interactions}", file=out)
    for line in tag_lines(meta):
        print(line, file=out)
    print(f"settings ({origin}):", file=out)
    for name, value in settings.model_dump(mode="json").items():
        print(f"  {name}: {value}", file=out)

    def with_interval(x: float | None, ci: Sequence[float] | None) -> str:
        text = "undefined" if x is None else f"{x:.3f}"
        return text if ci is None else f"{text} [{ci[0]:.3f}, {ci[1]:.3f}]"

    counted = conversations_counted(agg)  # none left out silently
    print(f"success rate (pass@1): {with_interval(rate['rate'], rate['ci'])}{f' {counted}' if counted else ''}",
          file=out)  # fmt: skip
    for line in pass_k_lines(doc, with_interval):  # "not measured" and why on one-attempt data
        print(line, file=out)
    own = len(data_labels(result))
    print(f"human labels stored with the run: {len(payload.labels)}" + (f" (and {own} in the data)" if own else ""),
          file=out)  # fmt: skip
    for line in corrected_lines(corrected, agg):
        print(line, file=out)
    print(f"human overrides: {len(overrides)}", file=out)
    for o in payload.overrides:
        note = f" — {o.note}" if o.note else ""
        print(f"  row {o.row}: {'correct' if o.correct else 'incorrect'}{note}", file=out)


def run_runs(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Run a ``runs`` subcommand; returns the exit code.

    Raises:
        AgenticError: an unknown run, an unreadable file or history (the caller prints it).
    """
    store = _store(args)
    action = args.runs_command
    as_json = bool(getattr(args, "json", False))
    if action == "list":
        wanted = filter_from_args(args)
        metas = wanted.apply(store.runs())
        labels = store.label_counts([m.id for m in metas])
        if as_json:  # each run's description, and (an added field) how many human labels it holds
            runs = [{**meta_document(m), "labels": labels.get(m.id, 0)} for m in metas]
            json.dump({"path": str(store.path), "runs": runs}, stdout, ensure_ascii=False)
            stdout.write("\n")
        elif not metas and wanted:
            print(f"no stored run in {store.path} matches the filters ('runs list' without them lists every run)",
                  file=stdout)  # fmt: skip
        elif not metas:
            print(f"no stored run in {store.path}: 'evaluate' stores one, 'runs import FILE' adds one", file=stdout)
        else:
            print(f"history: {store.path}", file=stderr)
            _print_table(metas, labels, stdout)
    elif action == "show":
        _show(store, args.run_id, as_json, stdout)
    elif action == "rename":
        store.rename(args.run_id, args.name)
        print(f"renamed {args.run_id} to {args.name.strip()!r}", file=stdout)
    elif action == "tag":
        run_tag_action(store, args, stdout)
    elif action == "delete":
        meta = store.meta(args.run_id)
        store.delete(args.run_id)
        print(f"deleted {meta.id} ({meta.name!r}) and its overrides", file=stdout)
    elif action == "export":
        data = store.export(args.run_id)
        target = write_atomic(Path(args.out or f"run-{args.run_id}.json.gz").expanduser(), data)
        print(f"exported {args.run_id} to {target}", file=stdout)
    elif action == "import":
        path = Path(args.file).expanduser()
        data = read_run_file(path)
        meta = store.import_(data, str(path))
        if as_json:
            json.dump(meta_document(meta), stdout, ensure_ascii=False)
            stdout.write("\n")
        else:
            print(f"imported {meta.name!r} as {meta.id}", file=stdout)
    return EXIT_OK


def data_name_of(paths: list[str]) -> str:
    """The name a run made from these data files is stored under: the files' names."""
    return ", ".join(Path(p).name for p in paths)


def store_evaluation(
    result: EvaluationResult,
    paths: list[str],
    settings: AggregateSettings,
    stderr: TextIO,
    tags: RunTags | None = None,
) -> tuple[str | None, AgenticError | None]:
    """Store an ``evaluate`` run in the history, never raising for the history's sake.

    A damaged, read-only or full history must not cost the evaluation: the caller prints the results
    and then reports the returned error (``evaluate`` exits ``EXIT_NOT_STORED``).

    Args:
        result: The evaluation.
        paths: The data files as given (their names name the run).
        settings: The settings it was reported with (stored with it).
        stderr: Where the new run's id is said.
        tags: The run's tags, note and metadata (``--tag``, ``--note``, ``--meta``), if any.

    Returns:
        The run's id and ``None``; or ``None`` and why it could not be stored.
    """
    import sqlite3

    data_name = data_name_of(paths)
    try:
        store = RunStore()
        meta = store.save(result, data_name, settings=settings.model_dump(mode="json"), tags=tags)
    except AgenticError as exc:
        return None, exc
    except (OSError, sqlite3.Error) as exc:  # the store words its own; anything else is named as it came
        return None, AgenticError("the run history", "could not store the run", str(exc),
                                  "check the history file, or set AGENTIC_RUNS_PATH to another one")
    print(f"run stored: {meta.id} (python -m agentic_core runs show {meta.id}; --no-save skips this)", file=stderr)
    return meta.id, None
