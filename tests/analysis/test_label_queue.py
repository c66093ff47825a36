"""The review queue (agentic_core/analysis/label_queue.py and label_queue_files.py) on the sample that ships labels.

sample_data/labelled_support.jsonl: 28 tasks x 2 attempts, one interaction each, human labels on 54 of the 56
conversations in the data itself.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from agentic_core.analysis.aggregate import Aggregate, aggregate
from agentic_core.analysis.corrected_reading import corrected_reading, data_labels
from agentic_core.analysis.label_queue import (
    DEFAULT_SENSITIVITY,
    LabelGain,
    label_gain,
    label_queue,
    queue_label,
    queue_size,
    queue_weights,
)
from agentic_core.analysis.label_queue_files import export_queue, import_queue_file
from agentic_core.evaluate import evaluate
from agentic_core.result import EvaluationResult
from agentic_core.settings import make_settings

SAMPLE = "sample_data/labelled_support.jsonl"


@pytest.fixture(scope="module")
def run() -> tuple[EvaluationResult, Aggregate]:
    result = evaluate(SAMPLE)  # the default offline judge (abstains on some)
    return result, aggregate(result, make_settings())


def test_every_attempt_of_a_drawn_task_is_queued_in_a_stable_order(run: tuple[EvaluationResult, Aggregate]) -> None:
    result, agg = run
    queue = label_queue(result, agg, [], seed=5)
    assert queue == label_queue(result, agg, [], seed=5)  # a reload shows the same queue
    assert queue.tasks != label_queue(result, agg, [], seed=6).tasks
    # The planner cannot reach +-5% on 28 tasks: every task is queued.
    assert len(queue.tasks) == 28 == len(set(queue.tasks))
    by_task: dict[str, int] = {}
    for item in queue.items:
        by_task[item.task] = by_task.get(item.task, 0) + 1
    assert set(by_task.values()) == {2}  # both attempts of each task
    assert [item.position for item in queue.items] == list(range(56))
    assert queue.n_labelled == 0 and queue.progress() == "0 of 56 labelled"
    assert all(item.inclusion is None for item in queue.items) and queue.design == "random-tasks"


def test_labels_given_count_as_done_and_carry_the_design(run: tuple[EvaluationResult, Aggregate]) -> None:
    result, agg = run
    queue = label_queue(result, agg, [], design="uncertain-first", seed=1)
    first = queue.items[0]
    label = queue_label(queue, first, 1)
    assert (label.source, label.design, label.inclusion) == ("queue", "uncertain-first", first.inclusion)
    assert first.inclusion is not None and 0 < first.inclusion <= 1
    again = label_queue(result, agg, [label], design="uncertain-first", seed=1, size=queue.size)
    assert again.items[0].label == 1 and again.n_labelled == 1 and again.pending[0] == queue.items[1]


def test_the_data_labels_mark_their_items_done(run: tuple[EvaluationResult, Aggregate]) -> None:
    result, agg = run
    queue = label_queue(result, agg, seed=0)  # None: the data's own human_label values
    assert queue.progress() == "54 of 56 labelled"


def test_uncertain_first_weights_favour_tasks_without_a_verdict(run: tuple[EvaluationResult, Aggregate]) -> None:
    result, agg = run
    weights = queue_weights(result, agg)
    undecided = ~np.isfinite(agg.interactions["score"].to_numpy(dtype=float))
    codes = result.task_codes[result.conv_index]
    share = np.bincount(codes, weights=undecided, minlength=len(result.task_keys)) / np.bincount(codes)
    assert weights.tolist() == pytest.approx((0.25 + share).tolist())
    assert weights.min() >= 0.25 and weights.max() > weights.min()


def test_the_size_follows_the_planner_and_never_the_queue_labels(run: tuple[EvaluationResult, Aggregate]) -> None:
    result, agg = run
    stated = queue_size(result, agg, [], half_width=0.2)
    assert not stated.measured and stated.sensitivity == DEFAULT_SENSITIVITY
    assert stated.tasks >= 20 and stated.planned is not None  # +-20 points is reachable; at least 20 tasks
    data = queue_size(result, agg, half_width=0.2)  # the data's labels measure the judge
    assert data.measured and data.sensitivity != DEFAULT_SENSITIVITY
    queue = label_queue(result, agg, [], seed=0, size=stated)
    given = [queue_label(queue, item, 0) for item in queue.items[:30]]
    assert queue_size(result, agg, given, half_width=0.2) == stated  # queue labels never resize the queue


def test_a_larger_half_width_asks_for_fewer_labels(run: tuple[EvaluationResult, Aggregate]) -> None:
    result, agg = run
    wide = queue_size(result, agg, [], half_width=0.3)
    narrow = queue_size(result, agg, [], half_width=0.15)
    assert wide.tasks <= narrow.tasks


def test_the_gain_of_one_more_label(run: tuple[EvaluationResult, Aggregate]) -> None:
    result, agg = run
    reading = agg.corrected
    assert reading is not None and reading.success_rate.ci is not None
    gain = label_gain(reading, queue_size(result, agg))
    m = reading.n_labelled_tasks
    now = (reading.success_rate.ci[1] - reading.success_rate.ci[0]) / 2
    assert gain.half_width_now == pytest.approx(now)
    assert gain.half_width_next == pytest.approx(now * np.sqrt(m / (m + 1)))
    none = label_gain(None, queue_size(result, agg, []))
    assert isinstance(none, LabelGain) and none.half_width_now is None and "20 labelled tasks" in none.sentence


def test_export_and_import_round_trip(run: tuple[EvaluationResult, Aggregate]) -> None:
    result, agg = run
    queue = label_queue(result, agg, [], design="uncertain-first", seed=2)
    given = [queue_label(queue, item, i % 2) for i, item in enumerate(queue.items[:3])]
    queue = label_queue(result, agg, given, design="uncertain-first", seed=2, size=queue.size)
    for fmt, name in (("csv", "queue.csv"), ("jsonl", "queue.jsonl")):
        data = export_queue(result, agg, queue, fmt)  # type: ignore[arg-type]
        text = data.decode()
        assert "question" in text and "judge_verdict" in text
        back = import_queue_file(data, name)
        assert back.blank == len(queue.items) - 3
        assert [(b.key, b.label, b.design, b.inclusion, b.source) for b in back.labels] == [
            (g.key, g.label, g.design, g.inclusion, "queue") for g in given
        ]


def test_queue_labels_make_the_corrected_reading(run: tuple[EvaluationResult, Aggregate]) -> None:
    # The data's labels given again through the queue (random tasks): the same items, now with a stated design.
    result, agg = run
    bare = dataclasses.replace(result, labels=[])
    queue = label_queue(bare, agg, [], seed=0)
    truth = {lab.key: lab.label for lab in data_labels(result)}
    given = [queue_label(queue, item, truth[item.key]) for item in queue.items if item.key in truth]
    assert len(given) == 54 and all(lab.design == "random-tasks" for lab in given)
    from_data = corrected_reading(result, agg, data_labels(result))
    from_queue = corrected_reading(result, agg, given)
    assert from_data is not None and from_queue is not None
    assert from_queue.design_said and not from_data.design_said
    assert from_queue.success_rate.estimate == pytest.approx(from_data.success_rate.estimate)
