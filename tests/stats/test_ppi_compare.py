"""The corrected paired difference B - A (agentic_core.stats.corrected_compare, issue 37 "Compare").

References: ppi-python 0.2.3 (a dev dependency; ``ppi_mean_ci`` / ``ppi_mean_pointestimate``) applied to the
paired differences d = hB - hA with predictions dhat = jB - jA, and the PPI estimate written out by hand
(Angelopoulos et al., Science 2023: theta = lambda mean(dhat_u) + mean(d - lambda dhat)).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core.errors import SettingsError
from agentic_core.stats.corrected import corrected_curve
from agentic_core.stats.corrected_compare import corrected_difference
from agentic_core.stats.corrected_intervals import MIN_LABELLED

ppi_py = pytest.importorskip("ppi_py")


def _paired(seed: int, tasks: int, labelled: int, sens: float = 0.85, spec: float = 0.7):
    """Flat paired data (one attempt per task and run): judge verdicts with this sensitivity / specificity."""
    rng = np.random.default_rng(seed)
    p = rng.beta(1.0, 1.0, tasks)
    truth_a = (rng.random(tasks) < p).astype(float)
    truth_b = (rng.random(tasks) < np.clip(p + 0.1, 0, 1)).astype(float)

    def judge(truth: np.ndarray) -> np.ndarray:
        return np.where(truth == 1, rng.random(tasks) < sens, rng.random(tasks) >= spec).astype(float)

    ja, jb = judge(truth_a), judge(truth_b)
    mask = np.zeros(tasks, dtype=bool)
    mask[rng.choice(tasks, labelled, replace=False)] = True
    ha = np.where(mask, truth_a, np.nan)
    hb = np.where(mask, truth_b, np.nan)
    return ja, jb, ha, hb, mask


@pytest.mark.parametrize("lam", [None, 1.0, 0.4])
def test_large_samples_equal_ppi_python_on_the_differences(lam: float | None) -> None:
    # From 1000 Welch degrees of freedom on, the interval is ppi-python's (corrected_intervals' rule).
    ja, jb, ha, hb, mask = _paired(seed=11, tasks=4500, labelled=1500)
    ours = corrected_difference(ja, jb, ha, hb, lam=lam, level=0.9)
    d, dhat = (hb - ha)[mask], (jb - ja)[mask]
    dhat_u = (jb - ja)[~mask]
    point = float(np.squeeze(ppi_py.ppi_mean_pointestimate(d, dhat, dhat_u, lam=lam)))
    low, high = ppi_py.ppi_mean_ci(d, dhat, dhat_u, alpha=0.1, lam=lam)
    assert ours.exact_ppi
    assert ours.n_tasks == 4500 and ours.n_labelled == 1500 and ours.reason is None
    assert ours.estimate == pytest.approx(point, rel=1e-9, abs=1e-12)
    assert ours.ci is not None
    assert ours.ci[0] == pytest.approx(float(np.squeeze(low)), rel=1e-9, abs=1e-12)
    assert ours.ci[1] == pytest.approx(float(np.squeeze(high)), rel=1e-9, abs=1e-12)
    if lam is not None:
        assert ours.lam == lam


@pytest.mark.parametrize("lam", [1.0, 0.5, 0.0])
def test_a_small_sample_estimate_by_hand_and_an_interval_no_narrower_than_ppi_python(lam: float) -> None:
    ja, jb, ha, hb, mask = _paired(seed=3, tasks=120, labelled=25)
    ours = corrected_difference(ja, jb, ha, hb, lam=lam)
    d, dhat, dhat_u = (hb - ha)[mask], (jb - ja)[mask], (jb - ja)[~mask]
    by_hand = lam * dhat_u.mean() + np.mean(d - lam * dhat)
    assert ours.estimate == pytest.approx(by_hand, abs=1e-12)
    # The small-sample rules (t quantile, jackknife, pseudo-observations) only widen ppi-python's interval.
    low, high = ppi_py.ppi_mean_ci(d, dhat, dhat_u, alpha=0.05, lam=lam)
    assert ours.ci is not None and not ours.exact_ppi
    assert ours.ci[0] <= float(np.squeeze(low)) + 1e-12 and ours.ci[1] >= float(np.squeeze(high)) - 1e-12
    assert ours.ci[0] <= ours.estimate <= ours.ci[1]


def test_a_judge_that_agrees_with_every_label_on_all_tasks_gives_the_plain_difference() -> None:
    rng = np.random.default_rng(5)
    ha, hb = (rng.random(40) < 0.4).astype(float), (rng.random(40) < 0.6).astype(float)
    ours = corrected_difference(ha, hb, ha, hb)
    assert ours.estimate == pytest.approx(float(np.mean(hb - ha)), abs=1e-12)
    # Every task labelled: no unlabelled part, the labels alone (lambda = 0), and a finite interval around it
    # (main gave NaN bounds here, in the one-run corrected curve too).
    assert ours.lam == 0.0 and ours.ci is not None and np.isfinite(ours.ci).all()
    assert ours.ci[0] < ours.estimate < ours.ci[1]
    curve = corrected_curve(ha, ha, np.arange(40), [1], design="tasks").points[0]
    assert curve.success_rate_ci is not None and np.isfinite(curve.success_rate_ci).all()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lam=st.sampled_from([None, 1.0]))
def test_the_order_of_the_tasks_does_not_matter(seed: int, lam: float | None) -> None:
    ja, jb, ha, hb, _ = _paired(seed=seed % 1000, tasks=60, labelled=30)
    attempts = np.random.default_rng(seed).integers(1, 5, 60)
    first = corrected_difference(ja, jb, ha, hb, attempts_a=attempts, attempts_b=attempts[::-1], lam=lam)
    order = np.random.default_rng(seed + 1).permutation(60)
    again = corrected_difference(
        ja[order], jb[order], ha[order], hb[order], attempts_a=attempts[order], attempts_b=attempts[::-1][order],
        lam=lam,
    )  # fmt: skip
    assert again == first  # to the last digit


def test_too_few_tasks_labelled_in_both_runs_give_no_value_and_say_why() -> None:
    ja, jb, ha, hb, mask = _paired(seed=8, tasks=80, labelled=MIN_LABELLED + 5)
    # Six of the labelled tasks lose their label in B: labelled in A only, they do not count.
    hb[np.flatnonzero(mask)[:6]] = np.nan
    ours = corrected_difference(ja, jb, ha, hb)
    assert ours.estimate is None and ours.ci is None and ours.lam is None
    assert ours.n_labelled == MIN_LABELLED - 1 and ours.n_tasks == 80
    assert ours.reason is not None
    assert f"{MIN_LABELLED - 1} shared tasks labelled in both runs" in ours.reason
    assert "label 1 more shared task in both runs" in ours.reason


@pytest.mark.parametrize(
    ("kwargs", "place"),
    [
        ({"judge_b": [0.5]}, "judge_b"),
        ({"human_a": [0.2, 1.5]}, "human_a[1]"),
        ({"judge_a": [np.nan, 1.0]}, "judge_a[0]"),
        ({"attempts_b": [1, 0]}, "attempts_b[1]"),
    ],
)
def test_bad_inputs_name_the_place(kwargs: dict[str, object], place: str) -> None:
    base: dict[str, object] = {"judge_a": [1.0, 0.0], "judge_b": [1.0, 1.0], "human_a": [1.0, 0.0], "human_b": [1, 1]}
    with pytest.raises(SettingsError) as info:
        corrected_difference(**{**base, **kwargs})  # type: ignore[arg-type]
    assert info.value.place == place
