"""MkDocs hooks (``mkdocs.yml`` ``hooks:``): the pages whose text lives elsewhere are generated at build time.

Nothing is written twice:

* ``<!-- generated: cli-reference -->`` in a page becomes the help of every command and subcommand, printed by
  the argument parser itself (``agentic_core.cli.parser.build_parser``), so the reference cannot drift from
  the command line;
* ``<!-- generated: glossary -->`` becomes the dashboard's glossary (``agentic_core.glossary``);
* ``<!-- generated: input-formats -->`` becomes the list of input formats in words, from the loader's own list
  (``agentic_core.io.formats_in_words``), so a new importer is named on every page that lists them;
* ``results.md``, ``sample-data.md`` and ``architecture.md`` are the repository's ``benchmarks/RESULTS.md``,
  ``sample_data/README.md`` and ``ARCHITECTURE.md``, so the site can link to the figures, the samples' field
  reference and the map of files without copying them.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

# Pages made from files outside docs/: (page in the site, file in the repository, title when it has none).
INCLUDED = (
    ("results.md", "benchmarks/RESULTS.md"),
    ("sample-data.md", "sample_data/README.md"),
    ("architecture.md", "ARCHITECTURE.md"),
)
CLI_MARKER = "<!-- generated: cli-reference -->"
GLOSSARY_MARKER = "<!-- generated: glossary -->"
FORMATS_MARKER = "<!-- generated: input-formats -->"
HELP_WIDTH = "100"  # argparse wraps at $COLUMNS: fixed, so the page is the same on every machine


def _importable() -> None:
    """Make the checkout's agentic_core importable (MkDocs restores sys.path after loading the hooks)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices.items())
    return []


def cli_reference() -> str:
    """Markdown: the help of ``agentic-eval`` and of every subcommand, nested ones included."""
    _importable()
    from agentic_core.cli import CONSOLE_NAME
    from agentic_core.cli.parser import build_parser

    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = HELP_WIDTH
    try:
        parser = build_parser(CONSOLE_NAME)
        parts = [f"### `{CONSOLE_NAME}`", "", "```text", parser.format_help().rstrip(), "```", ""]

        def walk(prefix: str, node: argparse.ArgumentParser) -> None:
            for name, child in _subcommands(node):
                command = f"{prefix} {name}"
                parts.extend([f"### `{command}`", "", "```text", child.format_help().rstrip(), "```", ""])
                walk(command, child)

        walk(CONSOLE_NAME, parser)
    finally:
        if previous is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = previous
    return "\n".join(parts)


def glossary() -> str:
    """Markdown: the dashboard's glossary, every entry with its formula."""
    _importable()
    from agentic_core.glossary import glossary_markdown

    return glossary_markdown()


def input_formats() -> str:
    """Markdown: every input format in words ("the seed format, OpenAI chat traces, ... or OpenTelemetry ...")."""
    _importable()
    from agentic_core.io import formats_in_words

    return formats_in_words()


def on_files(files: Any, config: Any) -> Any:
    """Add the pages made from repository files outside docs/."""
    from mkdocs.structure.files import File

    for page, source in INCLUDED:
        text = (ROOT / source).read_text(encoding="utf-8")
        note = f"\n\n*This page is the repository's `{source}`, included when the site is built.*\n"
        files.append(File.generated(config, page, content=text.rstrip() + note))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Replace the generated-content markers with the parser's help, the glossary and the input formats."""
    if FORMATS_MARKER in markdown:
        markdown = markdown.replace(FORMATS_MARKER, input_formats())
    if CLI_MARKER in markdown:
        markdown = markdown.replace(CLI_MARKER, cli_reference())
    if GLOSSARY_MARKER in markdown:
        markdown = markdown.replace(GLOSSARY_MARKER, glossary())
    return markdown
