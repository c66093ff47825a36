"""``evaluate --labels FILE`` and ``compare --labels FILE``: human labels read beside the data, for the numbers
corrected for the judge's errors.

The option may be repeated; files are read in the order given, and a later file's label replaces an earlier one on
the same item (:func:`~agentic_core.analysis.corrected_reading.merged_labels`). They are read before any judging,
so a bad file costs no judge call: its :class:`~agentic_core.errors.DataError` names the file and the line, and the
command exits 2. ``evaluate`` stores them with the run in the history (and its run file); ``compare`` gives them to
both runs it compares (:func:`~agentic_core.analysis.given_labels.with_given_labels`) and stores nothing.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from agentic_core.common.wording import plural

if TYPE_CHECKING:
    from agentic_core.data.labels import HumanLabel


_FILES_HELP = (
    "human labels (CSV with a header, JSONL or a JSON list: session_id, optional assistant_id and qa_id, label 1/0)"
)
EVALUATE_LABELS_HELP = (
    f"{_FILES_HELP} for the headline corrected for the judge's errors; repeat for several files (a later one wins "
    "on the same item); stored with the run"
)
COMPARE_LABELS_HELP = (
    f"{_FILES_HELP} for the difference corrected for the judge's errors, given to both A and B (after a stored "
    "run's own labels: a file's label wins on the same item); repeat for several files (a later one wins on the "
    "same item); how many matched A and B is said on stderr; nothing is stored"
)


def add_label_options(parser: argparse._ActionsContainer, help_text: str = EVALUATE_LABELS_HELP) -> None:
    """Add ``--labels FILE`` (repeatable) to ``evaluate``, or to ``compare`` with its own ``help_text``."""
    parser.add_argument("--labels", action="append", metavar="FILE", help=help_text)


def labels_from_args(args: argparse.Namespace, stderr: TextIO) -> list[HumanLabel]:
    """The labels of every ``--labels`` file, one per item; what was read is said on ``stderr``.

    Raises:
        DataError: a file that cannot be read, or a bad row (the message names the file and the line).
    """
    from agentic_core.analysis.corrected_reading import merged_labels  # the parser imports this module: kept light
    from agentic_core.io.labels_file import read_labels_path

    groups: list[list[HumanLabel]] = []
    for name in getattr(args, "labels", None) or []:
        path = Path(name)
        read = read_labels_path(path)
        blank = f" ({plural(read.blank, 'row')} without a label skipped)" if read.blank else ""
        print(f"labels: {plural(len(read.labels), 'label')} read from {path.name}{blank}", file=stderr)
        groups.append(read.labels)
    return merged_labels(*groups)
