"""Compare's corrected paired difference (agentic_core.analysis.compare_corrected, issue 37 "Compare"): tasks matched
by task key, the inputs built from each run's judge values and labels, what compare_sides and its JSON carry."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from agentic_core import stats
from agentic_core.analysis.compare_corrected import FREQUENTIST_ONLY, corrected_comparison
from agentic_core.analysis.compare_runs import Side, compare_sides
from agentic_core.settings import make_settings
from tests.analysis.test_corrected_reading import record, run

SETTINGS = make_settings(threshold=0.5)


def _words(seed: int, tasks: int) -> tuple[list[list[str]], list[list[int]]]:
    """Per task two attempts: the judge's word (right / wrong) and the truth, the judge wrong one time in five."""
    rng = np.random.default_rng(seed)
    truth = (rng.random((tasks, 2)) < rng.random(tasks)[:, None]).astype(int)
    flip = rng.random((tasks, 2)) < 0.2
    judged = np.where(flip, 1 - truth, truth)
    return [["right" if j else "wrong" for j in row] for row in judged], truth.tolist()


def _records(
    prefix: str, words: list[list[str]], truth: list[list[int]], labelled: range, tasks: range
) -> list[dict[str, Any]]:
    out = []
    for t in tasks:
        for r in range(2):
            human = [truth[t][r]] if t in labelled else None
            out.append(record(f"{prefix}{t}-{r}", [words[t][r]], task=f"t{t}", human=human))
    return out


@pytest.fixture(scope="module")
def runs() -> tuple[Any, Any, dict[str, Any]]:
    words_a, truth_a = _words(1, 34)
    words_b, truth_b = _words(2, 34)
    words_a[0][1] = "fail"  # a judge failure: predicted as A's mean judge value, never dropped
    # A: tasks 0-31 (0-27 labelled); B: tasks 2-33 (2-29 labelled): shared 2-31, labelled in both 2-27 (26).
    a = run(_records("a", words_a, truth_a, range(28), range(32)))
    b = run(_records("b", words_b, truth_b, range(2, 30), range(2, 34)))
    return a, b, {"words_a": words_a, "words_b": words_b, "truth_a": truth_a, "truth_b": truth_b}


def _value(word: str) -> float:
    return {"right": 1.0, "wrong": 0.0}.get(word, np.nan)


def test_the_inputs_are_task_means_of_judge_values_and_labels_on_shared_tasks(runs: tuple[Any, Any, Any]) -> None:
    a, b, raw = runs
    got = corrected_comparison(a, SETTINGS, b, SETTINGS)
    assert got is not None
    # Built by hand from the scripted words: A's failed conversation takes A's mean judge value.
    values_a = np.array([[_value(w) for w in row] for row in raw["words_a"][:32]])
    values_a[np.isnan(values_a)] = np.nanmean(values_a)
    values_b = np.array([[_value(w) for w in row] for row in raw["words_b"][2:34]])
    shared = range(2, 32)
    j_a = values_a[2:32].mean(axis=1)
    j_b = values_b[: len(shared)].mean(axis=1)
    h_a = np.array([np.mean(raw["truth_a"][t]) if t < 28 else np.nan for t in shared])
    h_b = np.array([np.mean(raw["truth_b"][t]) if t < 30 else np.nan for t in shared])
    direct = stats.corrected_difference(j_a, j_b, h_a, h_b, attempts_a=np.full(30, 2), attempts_b=np.full(30, 2))
    assert (got.n_shared_tasks, got.n_labelled_both, got.n_labelled_a, got.n_labelled_b) == (30, 26, 26, 28)
    assert got.estimate == pytest.approx(direct.estimate, abs=1e-12)
    assert got.ci == pytest.approx(direct.ci, abs=1e-12)
    assert got.reason is None and got.level == 0.95
    assert got.summary().startswith("corrected difference (B - A) with 26 human-labelled shared tasks: ")


def test_no_labels_anywhere_gives_none_and_labels_on_one_side_say_why() -> None:
    words, truth = _words(3, 25)
    bare_a = run(_records("a", words, truth, range(0), range(25)))
    bare_b = run(_records("b", words, truth, range(0), range(25)))
    labelled_b = run(_records("b", words, truth, range(25), range(25)))
    assert corrected_comparison(bare_a, SETTINGS, bare_b, SETTINGS) is None
    one = corrected_comparison(bare_a, SETTINGS, labelled_b, SETTINGS)
    assert one is not None and one.estimate is None
    assert one.reason == "A has no human label (label the same tasks in both runs)"
    assert one.summary() == f"corrected difference (B - A): none, {one.reason}"


def test_too_few_tasks_labelled_in_both_give_the_statistics_reason() -> None:
    words, truth = _words(4, 30)
    a = run(_records("a", words, truth, range(0, 15), range(30)))
    b = run(_records("b", words, truth, range(5, 30), range(30)))
    got = corrected_comparison(a, SETTINGS, b, SETTINGS)
    assert got is not None and got.estimate is None and got.n_labelled_both == 10
    assert got.reason is not None and got.reason.startswith("10 shared tasks labelled in both runs")


def test_bayesian_mode_says_the_difference_is_frequentist(runs: tuple[Any, Any, Any]) -> None:
    a, b, _ = runs
    bayes = make_settings(threshold=0.5, mode="bayesian")
    got = corrected_comparison(a, bayes, b, bayes)
    same = corrected_comparison(a, SETTINGS, b, SETTINGS)
    assert got is not None and same is not None
    assert FREQUENTIST_ONLY in got.notes and got.estimate == same.estimate and got.ci == same.ci


def test_compare_sides_carries_it_and_the_json_adds_one_key(runs: tuple[Any, Any, Any]) -> None:
    a, b, _ = runs
    cmp = compare_sides(Side(a, SETTINGS, label="A"), Side(b, SETTINGS, label="B"))
    assert cmp.corrected == corrected_comparison(a, SETTINGS, b, SETTINGS)
    doc = cmp.to_json()
    assert doc["corrected_difference"] == cmp.corrected.as_json()  # type: ignore[union-attr]
    assert doc["corrected_difference"]["n_labelled_both"] == 26
    # The labels never change the judge-only rows.
    assert doc["metrics"][0]["delta"] == pytest.approx(cmp.paired.metrics[0].delta)


def test_two_assistants_of_one_run_use_their_own_conversations() -> None:
    words, truth = _words(5, 24)
    recs = _records("x", words, truth, range(24), range(24))
    other = _records("y", words, truth, range(24), range(24))
    for r in other:  # the same conversations, judged and labelled the same, under a second assistant
        r["assistant_id"] = "other"
    result = run(recs + other)
    got = corrected_comparison(result, SETTINGS, result, SETTINGS, assistant_a="agent", assistant_b="other")
    assert got is not None and got.n_shared_tasks == 24 and got.n_labelled_both == 24
    assert got.estimate == 0.0 and got.ci is not None and got.ci[0] <= 0.0 <= got.ci[1]
