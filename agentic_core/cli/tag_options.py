"""A run's tags, note and metadata on the command line: ``evaluate --tag/--note/--meta``, ``runs list``'s filters,
``runs tag``.

The rules are :mod:`agentic_core.runs.run_tags`' (bounds, no credentials); errors name the option as typed
(``--tag``, ``--meta model``) and exit 2 before anything is judged.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from agentic_core.runs import RunFilter, RunMeta, RunStore, RunTags, TagEdit, parse_meta_pairs
from agentic_core.runs.run_tags import CLI_PLACES, LIMITS, SUGGESTED_KEYS

_TAG_HELP = (
    f"a tag for the run (repeatable; at most {LIMITS['tags']}, each one word of at most "
    f"{LIMITS['tag characters']} characters)"
)
_META_HELP = (
    f"a metadata KEY=VALUE for the run (repeatable; at most {LIMITS['metadata keys']} keys; suggested: "
    f"{', '.join(SUGGESTED_KEYS)}; keys naming a credential are refused)"
)


def add_tag_options(parser: argparse.ArgumentParser) -> None:
    """``evaluate``'s ``--tag``, ``--note`` and ``--meta``: kept with the stored run and in ``--out``'s run file."""
    group = parser.add_argument_group("run tags (kept with the stored run and in --out's run file)")
    group.add_argument("--tag", action="append", default=[], metavar="TAG", help=_TAG_HELP)
    group.add_argument("--note", default="", metavar="TEXT",
                       help=f"a note on the run (at most {LIMITS['note characters']:,} characters)")  # fmt: skip
    group.add_argument("--meta", action="append", default=[], metavar="KEY=VALUE", help=_META_HELP)


def tags_from_args(args: argparse.Namespace) -> RunTags:
    """The tags, note and metadata the options give (none when none is given).

    Raises:
        SettingsError: a rule broken, named by its option (``--tag``, ``--meta model``).
    """
    metadata = parse_meta_pairs(getattr(args, "meta", []) or [])
    return RunTags.checked(getattr(args, "tag", []) or [], getattr(args, "note", "") or "", metadata, CLI_PLACES)


def add_filter_options(parser: argparse.ArgumentParser) -> None:
    """``runs list``'s filters: runs with every ``--tag``, every ``--meta KEY=VALUE``, every word of ``--search``."""
    parser.add_argument("--tag", action="append", default=[], metavar="TAG",
                        help="only runs with this tag (repeatable: every tag)")  # fmt: skip
    parser.add_argument("--meta", action="append", default=[], metavar="KEY=VALUE",
                        help="only runs whose metadata KEY is VALUE (repeatable: every pair)")  # fmt: skip
    parser.add_argument("--search", default="", metavar="TEXT",
                        help="only runs with every word of TEXT (any case) in their name, note, tags, data name, "
                        "id or metadata values")  # fmt: skip


def filter_from_args(args: argparse.Namespace) -> RunFilter:
    """The filter ``runs list``'s options ask for (every run when none is given)."""
    return RunFilter(tags=tuple(args.tag), metadata=parse_meta_pairs(args.meta), text=args.search)


def add_tag_arguments(tag: argparse.ArgumentParser) -> None:
    """``runs tag RUN_ID [TAG ...] [--remove TAG] [--note TEXT] [--meta KEY=VALUE] [--unset KEY]``'s arguments."""
    tag.add_argument("run_id", metavar="RUN_ID")
    tag.add_argument("add", nargs="*", metavar="TAG", help="tags to add")
    tag.add_argument("--remove", action="append", default=[], metavar="TAG", help="a tag to remove (repeatable)")
    tag.add_argument("--note", default=None, metavar="TEXT", help="the new note ('' clears it)")
    tag.add_argument("--meta", action="append", default=[], metavar="KEY=VALUE", help=_META_HELP)
    tag.add_argument("--unset", action="append", default=[], metavar="KEY", help="a metadata key to remove")


def run_tag_action(store: RunStore, args: argparse.Namespace, stdout: TextIO) -> RunMeta:
    """Apply ``runs tag``'s change in one transaction and print the run's tags, note and metadata.

    Raises:
        AgenticError: an unknown run, a read-only history, or a rule broken (named by its option).
    """
    edit = TagEdit(add=args.add, remove=args.remove, note=args.note, set_metadata=parse_meta_pairs(args.meta),
                   unset=args.unset)  # fmt: skip
    meta = store.set_tags(args.run_id, edit.apply)
    if args.json:
        json.dump(meta_document(meta), stdout, ensure_ascii=False)
        stdout.write("\n")
    else:
        print(f"run {meta.id} ({meta.name}):", file=stdout)
        for line in tag_lines(meta):
            print(line, file=stdout)
    return meta


def meta_document(meta: RunMeta) -> dict[str, Any]:
    """A run's description as ``runs list --json`` and ``runs show --json`` print it (with the judge in words)."""
    return {**meta.model_dump(mode="json"), "judge_label": meta.judge.label()}


def tag_lines(meta: RunMeta) -> list[str]:
    """``tags: a, b`` / ``note: ...`` / ``metadata: k=v, ...``: what ``runs show`` and ``runs tag`` print."""
    return [
        f"tags: {', '.join(meta.tags) if meta.tags else '(none)'}",
        f"note: {meta.note or '(none)'}",
        f"metadata: {', '.join(f'{k}={v}' for k, v in meta.metadata.items()) or '(none)'}",
    ]
