"""The corrected curve: success rate, pass@k and pass^k with the judge's errors corrected by human labels.

Every conversation counts. The judge gives each conversation a value p_j in [0, 1] (1 / 0 for a
verdict, its probability for an item it abstained on, the run's mean judge value where it gave
nothing); humans label some conversations 1 / 0. Each metric is a mean over tasks of a task value
(:mod:`agentic_core.stats.corrected_terms`), and prediction-powered inference corrects the judge's
task values with the labelled ones (:mod:`agentic_core.stats.corrected_intervals`):

- task design (labels on a random sample of tasks, every attempt of a labelled task labelled):
  PPI++ (Angelopoulos et al., Science 2023; PPI++, arXiv:2311.01453) for the population, the
  difference estimator with the finite-population correction for these tasks; with inclusion
  probabilities (an "uncertain first" sample), the active-inference estimator (Zrnic and Candes,
  ICML 2024), which weights each labelled task by 1 / pi;
- attempt design (labels on a random sample of attempts): the same active-inference estimator with a
  Horvitz-Thompson rectifier per task, over the k-subsets of its attempts whose members are all
  labelled.

Targets: ``population`` (the tasks are a sample of the tasks the agent will face: the estimand is the
population mean of the task's true pass@k, E[1 - (1 - p)^k]); ``these-tasks`` (the estimand is the
mean over exactly these tasks of the value full human labelling of their recorded attempts would give:
only which conversations were labelled is uncertain, and the interval shrinks to a point when every
conversation is labelled).

Undefined is never 0: with fewer than :data:`~agentic_core.stats.corrected_intervals.MIN_LABELLED`
labelled tasks a value is None and a note says how many labels are needed. Results do not depend on
the order of the data: tasks and attempts are put in an order given by their content, and the
Bayesian mode's random stream is seeded from that content.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from agentic_core.common.wording import plural
from agentic_core.errors import SettingsError
from agentic_core.settings import Mode, Target, check_level, check_mode, check_target
from agentic_core.stats import corrected_intervals as ci_
from agentic_core.stats.corrected_bayes import posterior_hulls
from agentic_core.stats.corrected_models import CorrectedCurve, CorrectedPoint, Design, judge_agreement
from agentic_core.stats.corrected_terms import Conversations, TaskTerms, build_terms
from agentic_core.stats.counts import FloatArray, IntArray, check_ks, seed_entropy

# Random-stream tag of the Bayesian bootstrap (distinct from the other modules' tags).
TAG_CORRECTED = 37


def _floats(values: ArrayLike, place: str) -> FloatArray:
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 1:
        raise SettingsError(place, "must be a one-dimensional array", f"shape {arr.shape}", "pass one value per item")
    return arr


def judge_filled(judge: FloatArray) -> tuple[FloatArray, float | None]:
    """The judge's values with each missing one (NaN: a judge failure) predicted as the run's mean judge value.

    Args:
        judge: Per conversation, the judge's P(correct) in [0, 1], NaN where it gave nothing.

    Returns:
        The filled values and the value used (0.5 when the judge gave nothing at all; None for no conversation).
    """
    finite = judge[np.isfinite(judge)]
    # Sorted before summing: the same value, to the last digit, in any order of the data.
    imputed = float(np.sort(finite).mean()) if finite.size else (0.5 if judge.size else None)
    return np.where(np.isfinite(judge), judge, imputed if imputed is not None else 0.5), imputed


def _check_inputs(judge: ArrayLike, human: ArrayLike, task_codes: ArrayLike) -> tuple[FloatArray, FloatArray, IntArray]:
    j = _floats(judge, "judge")
    h = _floats(human, "human")
    t = np.asarray(task_codes)
    if t.ndim != 1 or (t.size and t.dtype.kind not in "iu"):
        raise SettingsError("task_codes", "must be a one-dimensional integer array", t.dtype.name, "pass task indices")
    for name, arr in (("human", h), ("task_codes", t)):
        if arr.size != j.size:
            raise SettingsError(name, f"must have one value per conversation ({j.size})", arr.size, "align the arrays")
    bad = np.isinf(j) | (j < 0.0) | (j > 1.0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise SettingsError(f"judge[{i}]", "must be in [0, 1] or NaN (nothing)", float(j[i]), "pass P(correct)")
    bad = np.isfinite(h) & (h != 0.0) & (h != 1.0) | np.isinf(h)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise SettingsError(f"human[{i}]", "must be 1, 0 or NaN (not labelled)", float(h[i]), "pass 1/0 labels")
    if t.size and int(t.min()) < 0:
        raise SettingsError("task_codes", "must be >= 0", int(t.min()), "pass task indices 0..T-1")
    return j, h, t.astype(np.int64)


def _check_inclusion(
    inclusion: ArrayLike | None, design: Design, human: FloatArray, tasks: IntArray
) -> FloatArray | None:
    if inclusion is None:
        return None
    pi = _floats(inclusion, "inclusion")
    if design == "attempts":
        if pi.size != human.size:
            raise SettingsError(
                "inclusion",
                f"must have one probability per conversation ({human.size})",
                pi.size,
                "pass each conversation's chance of being labelled",
            )
        needed = np.isfinite(human)
    else:
        size = int(tasks.max()) + 1 if tasks.size else 0
        if pi.size < size:
            raise SettingsError(
                "inclusion",
                f"must have one probability per task code (0..{size - 1})",
                pi.size,
                "pass each task's chance of being labelled",
            )
        needed = np.zeros(pi.size, dtype=bool)
        needed[tasks[np.isfinite(human)]] = True
    bad = needed & ~((pi > 0.0) & (pi <= 1.0))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise SettingsError(
            f"inclusion[{i}]",
            "must be in (0, 1] for every labelled item",
            float(pi[i]),
            "pass the probability the item had of being selected",
        )
    return pi


def _content_rng(terms: TaskTerms, seed: int, column: int) -> np.random.Generator:
    digest = hashlib.blake2b(digest_size=16)
    for arr in (terms.judge[:, column], terms.human[:, column], terms.ht_a, terms.ht_b, terms.inclusion):
        if arr is not None:
            digest.update(np.ascontiguousarray(arr, dtype=np.float64).tobytes())
            digest.update(b"|")
    entropy = [TAG_CORRECTED, seed_entropy(seed), column, int.from_bytes(digest.digest(), "little")]
    return np.random.default_rng(np.random.SeedSequence(entropy))


def _unit2(terms: TaskTerms, col: int, ks: list[int]) -> FloatArray:
    """Per task, u^2: how far one attempt's label can move the task's value, squared (the pseudo-observations'
    scale)."""
    n = terms.attempts.astype(np.float64)
    if col == 0:
        return 1.0 / (n * n)
    k = ks[(col - 1) % len(ks)]
    return np.minimum(1.0, k / n) ** 2


def _column(terms: TaskTerms, col: int, ks: list[int], kind: str, level: float, lam: float | None) -> ci_.ColumnResult:
    """One metric column, frequentist."""
    rows = np.isfinite(terms.judge[:, col])
    yh = terms.judge[rows, col]
    unit2 = _unit2(terms, col, ks)[rows]
    if kind in ("ppi", "difference"):
        lab = terms.labelled[rows]
        y, yh_l = terms.human[rows, col][lab], yh[lab]
        u2 = float(unit2[lab].mean()) if lab.any() else 1.0
        if kind == "ppi":
            return ci_.ppi_population(y, yh_l, yh[~lab], level, lam, u2)
        return ci_.difference_these(y, yh_l, yh, level, lam, u2)
    assert terms.ht_a is not None and terms.ht_b is not None and terms.ht_weight is not None
    assert terms.ht_units is not None
    a, b, w = terms.ht_a[rows, col], terms.ht_b[rows, col], terms.ht_weight[rows, col]
    units = int(terms.ht_units[col])
    if kind == "ht-population":
        return ci_.ht_population(a, b, yh, w, units, level, lam, unit2)
    assert terms.var_aa is not None and terms.var_ab is not None and terms.var_bb is not None
    v = (terms.var_aa[rows, col], terms.var_ab[rows, col], terms.var_bb[rows, col])
    return ci_.ht_these(a, b, yh, v, w, units, level, lam, unit2)


_NO_BAYES_THESE = (
    "Bayesian mode for these tasks needs a uniform sample of tasks (its Polya posterior draws the unlabelled "
    "tasks from the labelled ones); with inclusion probabilities or labelled attempts it gives no value: use "
    "frequentist mode"
)


def _columns(
    terms: TaskTerms, ks: list[int], kind: str, mode: Mode, level: float, lam: float | None, seed: int
) -> tuple[list[ci_.ColumnResult], list[ci_.ColumnResult], list[str]]:
    """Every column, corrected and labels-only (lambda = 0), in the mode asked; notes of the mode."""
    n_cols = 1 + 2 * len(ks)
    corrected = [_column(terms, c, ks, kind, level, lam) for c in range(n_cols)]
    labels = [_column(terms, c, ks, kind, level, 0.0) for c in range(n_cols)]
    if mode == "frequentist":
        return corrected, labels, []
    if kind == "ht-these":
        return (
            [ci_.ColumnResult(None, None, None)] * n_cols,
            [ci_.ColumnResult(None, None, None)] * n_cols,
            [_NO_BAYES_THESE],
        )
    # The success rate uses every task, the curve's columns the tasks with n >= K: one draw per set of tasks.
    masks = np.isfinite(terms.judge)
    groups: list[list[int]] = []
    for c in range(n_cols):
        for group in groups:
            if np.array_equal(masks[:, group[0]], masks[:, c]):
                group.append(c)
                break
        else:
            groups.append([c])
    for group in groups:
        pairs = [(c, corrected[c]) for c in group] + [(c, labels[c]) for c in group]
        done = posterior_hulls(kind, terms, masks[:, group[0]], pairs, level, _content_rng(terms, seed, group[0]))
        for i, c in enumerate(group):
            corrected[c], labels[c] = done[i], done[len(group) + i]
    return corrected, labels, []


def _points(results: list[ci_.ColumnResult], ks: list[int], notes: list[str]) -> tuple[list[CorrectedPoint], bool]:
    out: list[tuple[float | None, tuple[float, float] | None, float | None]] = []
    flags: set[str] = set()
    for res in results:
        value, ci, clipped = _clip01(res.estimate, res.ci)
        if clipped:
            flags.add("clipped")
        if res.floored:
            flags.add("floored")
        flags.update(res.flags)
        out.append((value, ci, res.lam))
    for flag in sorted(flags):
        notes.append(_FLAG_NOTES[flag])
    j = len(ks)
    points = [
        CorrectedPoint(
            k=k,
            success_rate=out[0][0], success_rate_ci=out[0][1], success_rate_lambda=out[0][2],
            pass_at_k=out[1 + i][0], pass_at_k_ci=out[1 + i][1], pass_at_k_lambda=out[1 + i][2],
            pass_pow_k=out[1 + j + i][0], pass_pow_k_ci=out[1 + j + i][1], pass_pow_k_lambda=out[1 + j + i][2],
        )
        for i, k in enumerate(ks)
    ]  # fmt: skip
    return points, results[0].exact_ppi


def _clip01(
    value: float | None, ci: tuple[float, float] | None
) -> tuple[float | None, tuple[float, float] | None, bool]:
    """Values are means of numbers in [0, 1]: the estimate and the interval are shown inside it."""
    if value is None or ci is None:
        return value, ci, False
    clipped = not 0.0 <= value <= 1.0
    return min(max(value, 0.0), 1.0), (max(ci[0], 0.0), min(ci[1], 1.0)), clipped


_FLAG_NOTES = {
    "clipped": "a corrected estimate fell outside [0, 1] (the labels' correction overshot) and is shown at the bound",
    "floored": (
        "the labels and the judge disagree so rarely that the interval's judge-error term comes from its "
        "pseudo-observations (a prior disagreement): a few labels cannot show that a judge is never wrong"
    ),
    "bootstrap-wider": "the Bayesian bootstrap's interval was wider than the t interval and is the one shown",
}


def _estimator_kind(target: Target, ht: bool) -> str:
    if ht:
        return "ht-population" if target == "population" else "ht-these"
    return "ppi" if target == "population" else "difference"


def _method_words(kind: str, design: Design, mode: Mode, uniform: bool) -> str:
    what = {
        "ppi": "PPI++ over tasks (Angelopoulos et al. 2023; power-tuned lambda per metric, Angelopoulos, Duchi "
        "and Zrnic 2023)",
        "difference": "the difference estimator over these tasks (PPI with lambda tuned per metric; variance "
        "with the finite-population correction 1 - n/T)",
        "ht-population": "active inference over tasks (Zrnic and Candes 2024): a Horvitz-Thompson rectifier "
        "per task, power-tuned lambda per metric",
        "ht-these": "active inference over these tasks (Zrnic and Candes 2024): a Horvitz-Thompson rectifier "
        "per task and its exact variance over the labelling, power-tuned lambda per metric",
    }[kind]
    sample = {
        ("tasks", True): "labels on a uniform random sample of tasks (task design)",
        ("tasks", False): "labels on tasks drawn with the given inclusion probabilities (task design, weighted "
        "by 1/pi)",
        ("attempts", True): "labels on a uniform random sample of attempts (attempt design)",
        ("attempts", False): "labels on attempts drawn with the given inclusion probabilities (attempt design, "
        "weighted by 1/pi)",
    }[(design, uniform)]
    interval = (
        "Student t intervals (Welch degrees of freedom) with the jackknife variance and pseudo-observations for "
        "small samples; ppi-python's normal interval from 1000 degrees of freedom on"
        if kind == "ppi"
        else "Student t intervals (labelled tasks - 1 degrees of freedom) with pseudo-observations for small samples"
        + (" and the jackknife variance" if kind != "ht-these" else "")
    )
    if mode == "bayesian":
        interval = "Bayesian bootstrap (Rubin 1981) intervals, widened to hold the " + interval
    return f"{what}; {sample}; {interval}"


def corrected_curve(
    judge: ArrayLike,
    human: ArrayLike,
    task_codes: ArrayLike,
    ks: Sequence[int],
    *,
    design: Design,
    inclusion: ArrayLike | None = None,
    mode: Mode = "frequentist",
    target: Target = "population",
    level: float = 0.95,
    seed: int = 0,
    lam: float | None = None,
) -> CorrectedCurve:
    """Success rate, pass@k and pass^k (k in ``ks``) corrected for the judge's errors by human labels.

    Args:
        judge: Per conversation (attempt), the judge's P(this conversation is fully correct) in [0, 1]
            (1 / 0 for a verdict, a probability for an item it abstained on), NaN where it gave
            nothing: such a conversation is predicted as the run's mean judge value and its label,
            if any, corrects that prediction (never dropped).
        human: Per conversation, the human label 1 / 0, NaN where not labelled.
        task_codes: Per conversation, its task's index (one task per conversation for flat data).
        ks: The k values (pass@k and pass^k use the tasks with at least max(ks) attempts).
        design: ``tasks`` (a random subset of tasks labelled, every attempt of a labelled task; a task
            with only some attempts labelled is left unlabelled and noted) or ``attempts``.
        inclusion: Per conversation (attempt design) or per task code (task design), the probability
            it had of being selected for labelling (non-uniform, "uncertain first" sampling); each
            labelled item is weighted by its inverse. None: a uniform random sample.
        mode: ``frequentist`` or ``bayesian``.
        target: ``population`` or ``these-tasks``.
        level: Interval level.
        seed: Seed of the Bayesian bootstrap (mixed with the data's content).
        lam: A fixed lambda for every metric (None: power-tuned per metric; 0: the labels alone).

    Returns:
        The :class:`~agentic_core.stats.corrected_models.CorrectedCurve`, with the labels-only values
        and the judge's agreement beside the corrected ones.

    Raises:
        SettingsError: an input outside its rules (the message names it and the fix).
    """
    j, h, t = _check_inputs(judge, human, task_codes)
    ks_ = [int(k) for k in check_ks(list(ks))]
    if design not in ("tasks", "attempts"):
        raise SettingsError("design", "must be 'tasks' or 'attempts'", design, "say how the labelled items were chosen")
    mode_, target_, level_ = check_mode(mode), check_target(target), check_level(level, "level")
    pi = _check_inclusion(inclusion, design, h, t)
    notes: list[str] = []
    agreement = judge_agreement(j, h, level_)
    missing = ~np.isfinite(j)
    finite = j[~missing]
    j_full, imputed = judge_filled(j)
    if missing.any():
        notes.append(
            f"{plural(int(missing.sum()), 'conversation')} had no judge value (a judge failure): predicted as the "
            f"run's mean judge value {imputed:.3f}; labels on them correct that prediction like any other"
        )
        if not finite.size:
            notes.append("the judge gave nothing at all: the corrected values are the labels' alone (lambda = 0)")
    labelled_conv = np.isfinite(h)
    sizes = np.bincount(t) if t.size else np.zeros(0, dtype=np.int64)
    flat = bool(t.size) and int(sizes[sizes > 0].max()) == 1
    design_used: Design = design
    task_pi = pi if design == "tasks" else None
    conv_pi = pi if design == "attempts" else None
    uniform = None
    if design == "attempts" and flat:
        # One attempt per task: labelling an attempt is labelling its task.
        design_used = "tasks"
        notes.append("one attempt per task: the attempt design is the task design")
        if pi is not None:
            task_pi = np.ones(int(t.max()) + 1)
            task_pi[t] = np.where(np.isfinite(pi), pi, 1.0)
        conv_pi = None
    elif design == "attempts" and pi is None:
        uniform = (int(labelled_conv.sum()), int(h.size))
    kind = _estimator_kind(target_, design_used == "attempts" or task_pi is not None)
    method = _method_words(kind, design_used, mode_, pi is None)
    if not j.size:
        empty = [
            CorrectedPoint(
                k=k,
                success_rate=None,
                success_rate_ci=None,
                pass_at_k=None,
                pass_at_k_ci=None,
                pass_pow_k=None,
                pass_pow_k_ci=None,
            )
            for k in ks_
        ]
        return CorrectedCurve(
            points=empty,
            human_only=empty,
            design=design_used,
            mode=mode_,
            target=target_,
            level=level_,
            method=method,
            n_conversations=0,
            n_labelled=0,
            n_labelled_tasks=0,
            n_tasks=0,
            n_tasks_curve=0,
            n_judge_missing=0,
            judge_imputed=None,
            n_uncertain=0,
            agreement=agreement,
            min_labelled_tasks=ci_.MIN_LABELLED,
            notes=("no conversations",),
        )
    terms = build_terms(
        Conversations(j_full, h, t, conv_pi), ks_, design_used, task_pi, uniform, target_ == "these-tasks"
    )
    n_tasks = int(terms.attempts.size)
    n_lab_tasks = int(terms.labelled.sum())
    if design_used == "tasks":
        partial = _partial_tasks(h, t)
        if partial:
            notes.append(
                f"{plural(partial, 'task')} with only some attempts labelled: the task design uses fully labelled "
                "tasks only (their labels still count in the agreement); use the attempt design to use them"
            )
    corrected, labels_only, mode_notes = _columns(terms, ks_, kind, mode_, level_, lam, seed)
    notes.extend(mode_notes)
    points, exact = _points(corrected, ks_, notes)
    human_only, _ = _points(labels_only, ks_, [])
    _label_notes(terms, ks_, design_used, notes)
    if pi is not None:
        notes.append(
            "the judge's agreement is measured on the labelled conversations as drawn; an 'uncertain first' "
            "sample over-represents the items the judge was unsure of"
        )
    short = int(np.sum(terms.attempts < max(ks_)))
    if short and max(ks_) > 1:
        notes.append(
            f"pass@k and pass^k use the {plural(n_tasks - short, 'task')} with at least K = {max(ks_)} attempts "
            f"({plural(short, 'task')} with fewer left out); the success rate uses every task"
        )
    return CorrectedCurve(
        points=points,
        human_only=human_only,
        design=design_used,
        mode=mode_,
        target=target_,
        level=level_,
        method=method,
        n_conversations=int(j.size),
        n_labelled=int(labelled_conv.sum()),
        n_labelled_tasks=n_lab_tasks,
        n_tasks=n_tasks,
        n_tasks_curve=n_tasks - short,
        n_judge_missing=int(missing.sum()),
        judge_imputed=imputed,
        n_uncertain=int(np.sum((finite > 0.0) & (finite < 1.0))),
        agreement=agreement,
        min_labelled_tasks=ci_.MIN_LABELLED,
        exact_ppi=exact,
        notes=tuple(dict.fromkeys(notes)),
    )


def _partial_tasks(human: FloatArray, tasks: IntArray) -> int:
    lab = np.bincount(tasks, weights=np.isfinite(human).astype(np.float64))
    size = np.bincount(tasks)
    return int(np.sum((lab > 0) & (lab < size)))


def _label_notes(terms: TaskTerms, ks: list[int], design: Design, notes: list[str]) -> None:
    """Say how many labels each value lacks (a value is None below the minimum)."""
    need = ci_.MIN_LABELLED
    if design == "tasks":
        have = int(terms.labelled[np.isfinite(terms.judge[:, 0])].sum())
        if have < need:
            notes.append(
                f"{plural(have, 'labelled task')}: a corrected value needs at least {need} (fewer cover too rarely, "
                f"benchmarks/RESULTS.md); label {need - have} more {'task' if need - have == 1 else 'tasks'}"
            )
        return
    assert terms.ht_units is not None
    if int(terms.ht_units[0]) < need:
        notes.append(
            f"{plural(int(terms.ht_units[0]), 'task')} with a labelled attempt: a corrected success rate needs at "
            f"least {need}"
        )
    short = [k for i, k in enumerate(ks) if k > 1 and int(terms.ht_units[1 + i]) < need]
    if short:
        notes.append(
            f"pass@k and pass^k for k = {', '.join(map(str, short))} need at least {need} tasks with k labelled "
            "attempts each (the attempt design rarely gives them): label whole tasks (the task design) for pass^k"
        )
