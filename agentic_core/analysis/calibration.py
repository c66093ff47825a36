"""Can the judge be trusted? Its scores against human labels (pure functions, no IO).

Interactions may carry ``human_label`` (0/1: is the answer correct?) or ``human_score`` (0..1, read
as correct at 0.5 and above). For the interactions that have both a human verdict and a judge score
this module computes, at an answer threshold: accuracy, Cohen's kappa (agreement beyond chance),
the confusion matrix; over all thresholds: the ROC curve and its AUC, the threshold sweep and the
threshold with the highest kappa (suggested); and a reliability diagram (judge score against the
share of human "correct" per score bin).

The sweep is a step function: a threshold t gives the verdicts ``score >= t``, so every t above one
candidate and up to the next gives the next candidate's verdicts (a chart draws it with Plotly's
``line_shape="vh"``). The highest kappa is usually reached on a range of thresholds (a plateau); the
suggestion is its middle (rounded to as few decimals as stay inside), not the score of the one answer
at its edge, which a re-judged answer moving by 0.001 would cross.

Kappa rather than accuracy picks the threshold because labels are often unbalanced: a judge that
passes everything scores 90% accuracy on data that is 90% correct, and kappa 0.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import pandas as pd
from pydantic import BaseModel, ConfigDict

from agentic_core.common.frame_columns import ResultCols
from agentic_core.common.passing import TOLERANCE, reaches
from agentic_core.errors import DataError

if TYPE_CHECKING:
    from agentic_core.result import EvaluationResult

HUMAN_SCORE_CUT = 0.5
"""A ``human_score`` at or above this counts as a human "correct"."""

FloatArray = npt.NDArray[np.float64]


class Confusion(BaseModel):
    """Judge verdicts (at a threshold) against human labels.

    Attributes:
        tp: Judge correct, human correct.
        fp: Judge correct, human incorrect (the judge let a wrong answer pass).
        fn: Judge incorrect, human correct (the judge failed a right answer).
        tn: Judge incorrect, human incorrect.
    """

    model_config = ConfigDict(frozen=True)

    tp: int
    fp: int
    fn: int
    tn: int

    @property
    def n(self) -> int:
        """Labelled interactions."""
        return self.tp + self.fp + self.fn + self.tn


class ThresholdPoint(BaseModel):
    """The judge's agreement with people at one answer threshold."""

    model_config = ConfigDict(frozen=True)

    threshold: float
    accuracy: float
    kappa: float
    true_positive_rate: float | None
    false_positive_rate: float | None
    confusion: Confusion


class ReliabilityBin(BaseModel):
    """Interactions whose judge score falls in ``[low, high)`` (the last bin includes 1)."""

    model_config = ConfigDict(frozen=True)

    low: float
    high: float
    n: int
    mean_score: float | None
    human_correct_rate: float | None


class Calibration(BaseModel):
    """The judge against human labels.

    Attributes:
        n_labelled: Interactions with a human verdict and a judge score (the others are left out).
        n_human_correct: Of those, how many people marked correct.
        threshold: The threshold of :attr:`at_threshold`.
        at_threshold: Accuracy, kappa and the confusion matrix at that threshold.
        auc: Area under the ROC curve (the chance that a random human-correct answer scores higher
            than a random human-incorrect one; ties count half); ``None`` with one class only.
        roc: ``(false positive rate, true positive rate)`` points from strictest to most lenient.
        sweep: Agreement at every distinct judge score used as a threshold (and 0 and 1): a threshold
            above one point's and up to the next point's agrees as the next point does.
        suggested_threshold: The middle of the widest range of thresholds with the highest kappa (the
            lowest such range on ties), rounded to as few decimals (two at least) as stay inside it.
        suggested_range: That range, ``(low, high)``: every threshold above ``low`` and up to ``high``
            gives the highest kappa (from 0 itself when ``low`` is 0 and 0 gives it).
        at_suggested: Accuracy, kappa and the confusion matrix at the suggested threshold.
        suggestion: The suggestion and its range in one sentence (the page and the command line print it).
        reliability: The reliability diagram's bins.
        notes: Things to know (few labels, one class only).
    """

    model_config = ConfigDict(frozen=True)

    n_labelled: int
    n_human_correct: int
    threshold: float
    at_threshold: ThresholdPoint
    auc: float | None
    roc: list[tuple[float, float]]
    sweep: list[ThresholdPoint]
    suggested_threshold: float
    suggested_range: tuple[float, float]
    at_suggested: ThresholdPoint
    suggestion: str
    reliability: list[ReliabilityBin]
    notes: list[str]


def human_verdicts(labels: Any, scores: Any) -> npt.NDArray[np.float64]:
    """Per interaction, 1.0 (human correct), 0.0 (incorrect) or NaN (no human verdict).

    Args:
        labels: ``human_label`` per interaction (0/1, or None / NaN).
        scores: ``human_score`` per interaction (0..1, or None / NaN), used where no label is given.
    """
    lab = np.asarray([np.nan if v is None else float(v) for v in labels], dtype=np.float64)
    sco = np.asarray([np.nan if v is None else float(v) for v in scores], dtype=np.float64)
    from_scores = np.where(np.isnan(sco), np.nan, (sco >= HUMAN_SCORE_CUT).astype(np.float64))
    return np.where(np.isnan(lab), from_scores, lab)


def confusion(judge_correct: npt.NDArray[np.bool_], human_correct: npt.NDArray[np.bool_]) -> Confusion:
    """The confusion matrix of two boolean arrays of the same length."""
    return Confusion(
        tp=int(np.sum(judge_correct & human_correct)),
        fp=int(np.sum(judge_correct & ~human_correct)),
        fn=int(np.sum(~judge_correct & human_correct)),
        tn=int(np.sum(~judge_correct & ~human_correct)),
    )


def cohen_kappa(c: Confusion) -> float:
    """Cohen's (1960) kappa of a 2x2 table: (p_o - p_e) / (1 - p_e); 0 when p_e is 1 (one class only)."""
    n = c.n
    if n == 0:
        return 0.0
    observed = (c.tp + c.tn) / n
    expected = ((c.tp + c.fp) * (c.tp + c.fn) + (c.fn + c.tn) * (c.fp + c.tn)) / (n * n)
    return 0.0 if expected >= 1.0 else (observed - expected) / (1.0 - expected)


def _point(threshold: float, scores: FloatArray, human: npt.NDArray[np.bool_]) -> ThresholdPoint:
    c = confusion(reaches(scores, threshold), human)
    positives, negatives = c.tp + c.fn, c.fp + c.tn
    return ThresholdPoint(
        threshold=float(threshold),
        accuracy=(c.tp + c.tn) / c.n if c.n else 0.0,
        kappa=cohen_kappa(c),
        true_positive_rate=c.tp / positives if positives else None,
        false_positive_rate=c.fp / negatives if negatives else None,
        confusion=c,
    )


def roc_auc(scores: FloatArray, human: npt.NDArray[np.bool_]) -> float | None:
    """ROC AUC by the Mann-Whitney statistic (ties count half); ``None`` with one class only."""
    pos, neg = scores[human], scores[~human]
    if len(pos) == 0 or len(neg) == 0:
        return None
    order = np.sort(neg)
    below = np.searchsorted(order, pos, side="left")
    ties = np.searchsorted(order, pos, side="right") - below
    return float((below.sum() + 0.5 * ties.sum()) / (len(pos) * len(neg)))


def reliability_bins(scores: FloatArray, human: npt.NDArray[np.bool_], bins: int = 10) -> list[ReliabilityBin]:
    """Equal-width bins of the judge score with the share people marked correct in each."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    index = np.clip(np.digitize(scores, edges[1:-1], right=False), 0, bins - 1)
    out = []
    for b in range(bins):
        inside = index == b
        n = int(inside.sum())
        out.append(
            ReliabilityBin(
                low=float(edges[b]),
                high=float(edges[b + 1]),
                n=n,
                mean_score=float(scores[inside].mean()) if n else None,
                human_correct_rate=float(human[inside].mean()) if n else None,
            )
        )
    return out


def best_plateau(candidates: FloatArray, kappas: FloatArray) -> tuple[float, float, float]:
    """The suggested threshold and its plateau: the widest range of thresholds with the highest kappa.

    Candidate ``i`` stands for every threshold above candidate ``i - 1`` and up to itself (the verdicts
    ``score >= t`` do not change in between); candidate 0 (the threshold 0) for itself. Consecutive
    candidates with the highest kappa (equal to 12 decimals) make one range; the widest wins, the lowest
    on ties. The suggestion is the range's middle rounded to the fewest decimals, from two (the answer
    threshold slider's step) to six, that stay inside the range; else the top candidate itself.

    Args:
        candidates: The sweep's thresholds, ascending, the first 0.
        kappas: Kappa at each.

    Returns:
        ``(suggested, low, high)``.
    """
    rounded = np.round(np.asarray(kappas, dtype=np.float64), 12)
    top = np.flatnonzero(rounded == rounded.max())
    # Runs of consecutive candidates: each run [first, last] is one range of thresholds.
    runs = np.split(top, np.flatnonzero(np.diff(top) > 1) + 1)
    ranges = [(int(r[0]), float(candidates[max(int(r[0]) - 1, 0)]), float(candidates[int(r[-1])])) for r in runs]
    first, low, high = max(ranges, key=lambda r: (round(r[2] - r[1], 12), -r[1]))
    middle = (low + high) / 2
    for decimals in range(2, 7):
        t = round(middle, decimals)
        # Above the lower candidate by more than the pass tolerance (else that candidate's answers pass too),
        # except for a range that starts at the threshold 0 itself; up to the top candidate.
        above_low = t >= low if first == 0 else t > low + TOLERANCE
        if above_low and t <= high + TOLERANCE:
            return t, low, high
    return high, low, high


def threshold_text(threshold: float) -> str:
    """A threshold with two decimals, or as many as it has (up to six): ``0.5`` -> ``0.50``, ``0.045`` -> ``0.045``."""
    decimals = next((d for d in range(2, 6) if round(threshold, d) == threshold), 6)
    return f"{threshold:.{decimals}f}"


def _suggestion(sweep: list[ThresholdPoint], suggested: float, low: float, high: float) -> str:
    """The suggested threshold and the range of thresholds with the same (highest) kappa, in words.

    The range's ends are rounded inwards (the lower up, the upper down), to as many decimals as keep the
    suggestion inside, so every threshold the sentence names does give that kappa.
    """
    kappa = sweep[int(np.searchsorted([p.threshold for p in sweep], high))].kappa
    best = f"the highest kappa ({kappa:.3f})"
    if low == high:
        return f"only the threshold {threshold_text(suggested)} gives {best}"
    from_zero = low == sweep[0].threshold and round(sweep[0].kappa, 12) == round(kappa, 12)
    for d in range(2, 7):
        scale = 10.0**d
        # A small slack so that 0.35 (35.000000000000004 hundredths) rounds to itself.
        up, down = math.ceil(low * scale - 1e-6) / scale, math.floor(high * scale + 1e-6) / scale
        if (up <= suggested if from_zero else up < suggested) and suggested <= down:
            break
    else:
        up, down, d = low, high, 12
    span = f"from {up:.{d}f}" if from_zero else f"above {up:.{d}f} and"
    return f"every threshold {span} up to {down:.{d}f} gives {best}; suggested: the middle, {threshold_text(suggested)}"


def calibrate(judge_scores: Any, human: Any, threshold: float) -> Calibration:
    """The judge's scores against human verdicts.

    Args:
        judge_scores: Judge score per interaction (NaN = unscored: left out).
        human: Human verdict per interaction from :func:`human_verdicts` (NaN = none: left out).
        threshold: The answer threshold to report the confusion matrix at.

    Returns:
        The calibration.

    Raises:
        DataError: no interaction has both a human verdict and a judge score.
    """
    s = np.asarray(judge_scores, dtype=np.float64)
    h = np.asarray(human, dtype=np.float64)
    keep = ~np.isnan(s) & ~np.isnan(h)
    if not keep.any():
        raise DataError(
            "human labels",
            "no interaction has both a human verdict and a judge score",
            int((~np.isnan(h)).sum()),
            "add human_label (0/1) or human_score (0..1) to the interactions and judge them",
        )
    scores, correct = s[keep], h[keep] >= 0.5
    candidates = np.unique(np.concatenate([[0.0, 1.0], scores]))
    sweep = [_point(float(t), scores, correct) for t in candidates]
    suggested, low, high = best_plateau(candidates, np.array([p.kappa for p in sweep]))
    roc = [(1.0, 1.0)] + [
        (p.false_positive_rate or 0.0, p.true_positive_rate or 0.0)
        for p in sweep
        if p.false_positive_rate is not None and p.true_positive_rate is not None
    ]
    roc = sorted(set(roc), key=lambda xy: (xy[0], xy[1]))
    notes = []
    if len(scores) < 30:
        notes.append(f"only {len(scores)} labelled interactions: agreement figures are rough")
    if correct.all() or not correct.any():
        notes.append("people marked every labelled answer the same way: kappa and the ROC curve need both kinds")
    return Calibration(
        n_labelled=len(scores),
        n_human_correct=int(correct.sum()),
        threshold=float(threshold),
        at_threshold=_point(threshold, scores, correct),
        auc=roc_auc(scores, correct),
        roc=roc,
        sweep=sweep,
        suggested_threshold=suggested,
        suggested_range=(low, high),
        at_suggested=_point(suggested, scores, correct),
        suggestion=_suggestion(sweep, suggested, low, high),
        reliability=reliability_bins(scores, correct),
        notes=notes,
    )


CELLS: dict[str, str] = {
    "tp": "judge correct · human correct",
    "fp": "judge correct · human incorrect",
    "fn": "judge incorrect · human correct",
    "tn": "judge incorrect · human incorrect",
}
"""The confusion matrix's cells (``Confusion`` field -> words), as the cases table names them."""


def run_verdicts(result: EvaluationResult) -> tuple[FloatArray, list[str]]:
    """Per interaction of a run, the human verdict and where it comes from.

    A human override made in the Explorer wins, then ``human_label``, then ``human_score``.

    Returns:
        ``(verdicts, sources)``: 1.0 / 0.0 / NaN per interaction (as :func:`human_verdicts`), and
        ``"override"``, ``"human_label"``, ``"human_score"`` or ``""`` per interaction.
    """
    labels, scores = result.human_values()
    verdicts = human_verdicts(labels, scores)
    sources = [
        "human_label" if lab is not None else "human_score" if sco is not None else ""
        for lab, sco in zip(labels, scores, strict=True)
    ]
    for row, override in result.overrides.items():
        if 0 <= row < len(verdicts):
            verdicts[row] = 1.0 if override.correct else 0.0
            sources[row] = "override"
    return verdicts, sources


def has_human_verdicts(result: EvaluationResult) -> bool:
    """Whether any interaction of the run has a human verdict (a label, a grade or an override)."""
    if result.overrides:
        return True
    labels, scores = result.human_values()
    return any(v is not None for v in labels) or any(v is not None for v in scores)


def calibrate_run(result: EvaluationResult, threshold: float) -> tuple[Calibration, pd.DataFrame]:
    """A run's judge scores against its human verdicts (see :func:`run_verdicts`).

    Args:
        result: The evaluated run.
        threshold: The answer threshold of the confusion matrix and of the cases' cells.

    Returns:
        The calibration and the labelled cases: one row per interaction with a human verdict and
        a judge score (``row``, ``session_id``, ``qa_id``, ``query``, ``answer``, ``ground_truth``,
        ``judge_score``, ``judge_correct``, ``human_correct``, ``human_source``, ``cell`` (a key
        of :data:`CELLS`), ``judge_reasoning``), lowest judge score first.

    Raises:
        DataError: no interaction has both a human verdict and a judge score.
    """
    verdicts, sources = run_verdicts(result)
    frame = result.interactions
    scores = frame[ResultCols.SCORE].to_numpy(dtype=np.float64)
    labelled = ~np.isnan(verdicts)
    if labelled.any() and np.isnan(scores[labelled]).all():
        raise _judge_scored_no_label_error(result, labelled)
    cal = calibrate(scores, verdicts, threshold)
    keep = ~np.isnan(scores) & ~np.isnan(verdicts)
    judge_ok = reaches(scores[keep], threshold)
    human_ok = verdicts[keep] >= 0.5
    cell = np.where(judge_ok, np.where(human_ok, "tp", "fp"), np.where(human_ok, "fn", "tn"))
    rows = np.flatnonzero(keep)
    cases = pd.DataFrame(
        {
            "row": rows,
            **{name: frame[name].to_numpy()[keep] for name in _CASE_TEXTS},
            "judge_score": scores[keep],
            "judge_correct": judge_ok,
            "human_correct": human_ok,
            "human_source": np.asarray(sources, dtype=object)[keep],
            "cell": cell,
            ResultCols.JUDGE_REASONING: frame[ResultCols.JUDGE_REASONING].to_numpy()[keep],
        }
    )
    return cal, cases.sort_values(["judge_score", "row"], kind="stable").reset_index(drop=True)


_CASE_TEXTS = (ResultCols.SESSION_ID, ResultCols.QA_ID, ResultCols.QUERY, ResultCols.ANSWER, ResultCols.GROUND_TRUTH)
"""The judged frame's columns a labelled case copies, in the cases table's order."""

# How many distinct failure reasons the error quotes (the rest are usually the same fault again).
_REASONS_SHOWN = 3


def _judge_scored_no_label_error(result: EvaluationResult, labelled: npt.NDArray[np.bool_]) -> DataError:
    """The error when people labelled interactions but the judge scored none of them, with its reasons.

    Saying "add human_label" there sent people to fix labels that were fine: the judge failed.
    """
    frame = result.interactions
    error = ResultCols.JUDGE_ERROR
    errors = frame[error].to_numpy()[labelled] if error in frame else np.array([], dtype=object)
    reasons = list(dict.fromkeys(str(e) for e in errors if isinstance(e, str) and e))[:_REASONS_SHOWN]
    why = "; ".join(reasons) if reasons else "no failure reason was recorded"
    n = int(labelled.sum())
    status = ResultCols.JUDGE_STATUS
    statuses = frame[status].to_numpy()[labelled] if status in frame else np.array([], dtype=object)
    # A judge that abstained on every labelled item has no model, key or server to fix: say what helps it.
    abstained = statuses.size > 0 and bool(np.all(statuses == "uncertain"))
    fix = (
        "the judge was unsure of every labelled answer: judge them with the cascade or an LLM judge (which decide "
        "what the offline judge leaves uncertain), or label more varied answers, then run calibrate again"
        if abstained
        else "fix what the reasons name (for an LLM judge: the model, the key, base_url, the server), then run "
        "calibrate again"
    )
    return DataError(
        f"judge {result.judge_identity.label()}",
        f"scored none of the {n:,} interactions people labelled (every one is unscored); first reasons: {why}",
        n,
        fix,
        show=False,
    )
