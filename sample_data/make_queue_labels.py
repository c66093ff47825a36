"""Write ``labelled_support_queue20.csv``: the people's labels on a review queue's first 20 tasks.

The review queue (``agentic_core.analysis.label_queue``, random tasks, seed 0) of ``labelled_support.jsonl``
judged by the default offline judge; each queued item of the queue's first 20 tasks gets the person's
``human_label`` the data carries, written as the queue writes labels (``design`` ``random-tasks``). It is the
worked example of docs/when-the-judge-is-wrong.md: the corrected headline from about 20 labelled tasks, next to
the one from every label. Deterministic; ``--check`` compares with the file on disk; prints the readings.

    .venv/bin/python sample_data/make_queue_labels.py [--check]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from agentic_core import aggregate, evaluate  # noqa: E402
from agentic_core.analysis import label_queue, queue_label, queue_size  # noqa: E402
from agentic_core.analysis.corrected_reading import corrected_reading, data_labels  # noqa: E402
from agentic_core.io.labels_file import label_rows, write_labels  # noqa: E402

DATA = HERE / "labelled_support.jsonl"
OUT = HERE / "labelled_support_queue20.csv"
TASKS = 20


def main() -> int:
    """Write (or check) the labels file and print the three readings the docs quote."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the file on disk, write nothing")
    args = parser.parse_args()
    result = evaluate(str(DATA))
    agg = aggregate(result)
    truth = {lab.key: lab.label for lab in data_labels(result)}
    queue = label_queue(result, agg, [], seed=0, size=queue_size(result, agg, [], half_width=0.2))
    chosen = set(queue.tasks[:TASKS])
    items = [item for item in queue.items if item.task in chosen and item.key in truth]
    given = [queue_label(queue, item, truth[item.key]) for item in items]
    text = write_labels(label_rows(given), "csv")
    rate = agg.success_rate
    print(f"judge only ({result.judge_identity.label()}): {rate.value:.3f} {rate.ci} "
          f"on {agg.counts.scored_conversations} of {agg.counts.conversations} conversations")  # fmt: skip
    readings = (("every label", agg.corrected), (f"{TASKS} queue tasks", corrected_reading(result, agg, given)))
    for name, reading in readings:
        assert reading is not None
        value = reading.success_rate
        print(f"{name}: {reading.summary()}; corrected {value.estimate:.3f} {value.ci}; "
              f"labels only {value.labels_only:.3f} {value.labels_only_ci}")  # fmt: skip
    if args.check:
        same = OUT.read_bytes() == text
        print("labelled_support_queue20.csv is up to date" if same else "labelled_support_queue20.csv differs")
        return 0 if same else 1
    OUT.write_bytes(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
