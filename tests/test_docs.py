"""The documentation site builds strictly, and what it generates is the code's own text (issue 26).

``mkdocs build --strict`` fails on any warning: a broken link or anchor between pages, a page left out of the
navigation, a docstring mkdocstrings cannot read. The CLI reference is generated from the argument parser and
the glossary from ``agentic_core.glossary`` (scripts/mkdocs_hooks.py), so both are checked against their source
here. Docstrings and comments cite only files that exist: DESIGN.md never did.
"""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Where the project's own sources live (the venv, caches and build output are not the project's).
SOURCE_DIRS = ("agentic_core", "ui", "pages", "tests", "benchmarks", "scripts", "sample_data", "examples")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"),
         "--site-dir", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout[-3000:]}\n{done.stderr[-6000:]}"
    return out


def _text(page: Path) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))


def test_cli_reference_is_the_parser_help_of_every_subcommand(site: Path) -> None:
    from agentic_core.cli import CONSOLE_NAME
    from agentic_core.cli.parser import build_parser
    from scripts.mkdocs_hooks import _subcommands

    page = _text(site / "cli" / "index.html")
    names = [name for name, _ in _subcommands(build_parser(CONSOLE_NAME))]
    assert {"evaluate", "compare", "runs", "calibrate", "serve", "dashboard"} <= set(names)
    for name in names:
        assert f"usage: {CONSOLE_NAME} {name}" in page, f"the CLI reference has no usage of {name}"
    # Every option of evaluate is there as the parser spells it.
    evaluate = dict(_subcommands(build_parser(CONSOLE_NAME)))["evaluate"]
    for action in evaluate._actions:
        for flag in action.option_strings:
            assert flag in page, f"evaluate's {flag} is missing from the CLI reference"


def test_glossary_and_api_reference_are_generated(site: Path) -> None:
    from agentic_core import __all__ as public
    from agentic_core.glossary import ENTRIES

    statistics = _text(site / "statistics" / "index.html")
    for entry in ENTRIES:
        assert entry.term in statistics, f"glossary entry {entry.term!r} is missing from the statistics page"
    api = (site / "python-api" / "index.html").read_text(encoding="utf-8")
    # Every public name has its entry, made from its docstring (evaluate and aggregate from their modules).
    for name in public:
        if name.startswith("__"):
            continue
        ids = (f'id="agentic_core.{name}"', f'id="agentic_core.{name}.{name}"')
        assert any(i in api for i in ids), f"agentic_core.{name} has no entry in the API reference"


def test_every_page_is_built_and_the_screenshots_ship(site: Path) -> None:
    for page in (ROOT / "docs").glob("*.md"):
        built = site / "index.html" if page.stem == "index" else site / page.stem / "index.html"
        assert built.is_file(), f"{page.name} was not built"
    for image in re.findall(r"\(img/([^)]+)\)", (ROOT / "docs" / "dashboard.md").read_text(encoding="utf-8")):
        assert (site / "img" / image).is_file(), image


def _tracked_python_files() -> list[Path]:
    files: list[Path] = []
    for folder in SOURCE_DIRS:
        files += [p for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts]
    return [*files, ROOT / "app.py", ROOT / "dashboard.py"]


def test_no_docstring_or_comment_cites_design_md() -> None:
    # DESIGN.md is not in the repository: a citation of it sends the reader nowhere.
    assert not (ROOT / "DESIGN.md").exists()
    this_file = Path(__file__).resolve()
    pattern = re.compile(r"\bDESIGN(\.md)?\s*(§|section\b)|\bDESIGN\.md\b")
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in _tracked_python_files()
        if path.resolve() != this_file
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert offenders == [], f"these lines cite DESIGN.md, which is not in the repository: {offenders}"


def test_core_docstrings_and_comments_keep_no_accuracy_figures() -> None:
    # Figures drift as the code changes (rules v1 figures stayed while v3 ran): they live in
    # benchmarks/RESULTS.md, which the benchmarks write with a date.
    figure = re.compile(r"ROC-AUC \d|\bAUC \d\.|accuracy \d\.\d|\d+ pairs, evaluated|\b[Rr]ules v\d")
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in (ROOT / "agentic_core").rglob("*.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if figure.search(line)
    ]
    assert offenders == [], f"measured figures belong in benchmarks/RESULTS.md, not in the code: {offenders}"


def test_the_seed_format_example_loads_without_an_issue() -> None:
    # Issue 36: the data-format page had no example record of the seed format. Its example must stay valid:
    # one conversation, one interaction with a tool call and the call expected of it, no warning either.
    import json

    from agentic_core.io import load_records

    page = (ROOT / "docs" / "data-format.md").read_text(encoding="utf-8")
    section = page.split("## The seed format", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```json\n(.*?)\n```", section, flags=re.DOTALL)
    assert len(blocks) == 1, "the seed format's section should hold one JSON example"
    report = load_records([json.loads(blocks[0])], "data-format.md", format="seed")
    assert report.issues == [] and len(report.conversations) == 1
    (interaction,) = report.conversations[0].conversation
    assert interaction.agentic is not None and interaction.agentic.tools_used
    assert interaction.ground_truth_agentic is not None and interaction.ground_truth_agentic.expected_tools


def test_every_input_format_is_named_where_the_docs_list_them() -> None:
    # Issue 36: OpenTelemetry was missing from the lists of formats on Getting started and the Overview. The
    # pages list them through a marker the site build fills from the loader's own list.
    from agentic_core.io import FORMAT_LABELS, formats_in_words
    from scripts.mkdocs_hooks import FORMATS_MARKER, input_formats

    words = input_formats()
    assert words == formats_in_words() and "OpenTelemetry" in words
    for name, label in FORMAT_LABELS.items():
        assert name in ("auto", "seed") or label in words
    for page in ("getting-started.md", "index.md", "dashboard.md"):
        assert FORMATS_MARKER in (ROOT / "docs" / page).read_text(encoding="utf-8"), page


def test_every_column_of_the_interactions_csv_is_documented() -> None:
    # Issue 36: four columns of interactions.csv looked always empty. Each column is documented with where it is
    # empty, so "empty" reads as "none in this run", not as a fault.
    from agentic_core import aggregate, evaluate, make_settings
    from agentic_core.io import load_paths
    from agentic_core.report import interactions_table

    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    section = page.split("### The interactions CSV", 1)[1].split("\n#", 1)[0]
    documented = set(re.findall(r"^\| (`[^|]+)\|", section, flags=re.MULTILINE))
    names = {name.strip("` ") for cell in documented for name in cell.split(",")}
    data = load_paths([ROOT / "sample_data" / "ragas_multiturn.jsonl"])
    result = evaluate(data, "dataset", cache_mode="off", metrics="topic_adherence")  # offline topic classification
    columns = set(interactions_table(result, aggregate(result, make_settings())).columns)
    assert "topic_on_topic" in columns and columns - names == set(), columns - names
