"""What the answer threshold and the abstention band can change on a run, in words beside each control.

A control that moves and changes nothing looks broken. With the default ``learned`` judge every decided
score lies at or below about 0.07 or at or above about 0.93 (its fitted band), so any threshold in between
gives the same verdicts; a judge that gives only 0 or 1 makes every threshold above 0 the same; a judge
without probabilities has no band to set. :func:`band_controls` works out, for the run and the current
settings, whether one step of each control changes a verdict, and when it does not, says why and what
would (the page renders the sentences, never a dead slider without a word).

Pure and vectorised (a sort of the distinct scores); what the controls change is decided by the same rules
as aggregation (:func:`~agentic_core.common.passing.reaches`, :func:`~agentic_core.analysis.abstention.band_verdicts`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from pydantic import BaseModel, ConfigDict

from agentic_core.analysis.abstention import band_in_force, band_verdicts, judge_band, judge_probabilities
from agentic_core.common.frame_columns import ResultCols
from agentic_core.common.passing import band_decides, reaches
from agentic_core.common.wording import decimals_apart, plural
from agentic_core.judges.offline.holdout import holdout_figures
from agentic_core.judges.spec import spec_class_of

if TYPE_CHECKING:
    from agentic_core.result import EvaluationResult

STEP = 0.01
"""One step of the dashboard's threshold and band sliders."""


class BandControls(BaseModel):
    """What the threshold and the band can change on one run, under the current settings.

    Attributes:
        with_probability: Interactions carrying the judge's probability (the band re-decides them).
        without_probability: Interactions the band cannot touch: their judge gives no probability
            (in a cascade run, the LLM's verdicts).
        fitted: The judge's fitted band (``None`` when it has none).
        fitted_inferred: ``fitted`` was read back from the run's verdicts (a run stored before bands were
            recorded), not recorded with the run.
        band: The band in force: the settings', else ``fitted``.
        uncertain: Interactions the band in force abstains on (no person's verdict replaces the judge's).
        threshold_moves: One step of the threshold, up or down, changes some verdict.
        band_moves: One step of some band edge changes some verdict (False without probabilities).
        threshold_note: Why the threshold changes nothing here, and what would (empty when it moves).
        band_note: What the band can and cannot re-decide on this run (empty when there is nothing to say).
        holdout_note: What the band in force costs and buys on the judge's holdout pairs (empty without
            holdout figures).
    """

    model_config = ConfigDict(frozen=True)

    with_probability: int
    without_probability: int
    fitted: tuple[float, float] | None
    fitted_inferred: bool = False
    band: tuple[float, float] | None
    uncertain: int
    threshold_moves: bool
    band_moves: bool
    threshold_note: str = ""
    band_note: str = ""
    holdout_note: str = ""

    @property
    def has_band(self) -> bool:
        """Whether the run has a band to set: some interaction carries the judge's probability."""
        return self.with_probability > 0


def _fmt(values: list[float]) -> str:
    """A format spec with the decimals at which these values print apart."""
    return f".{decimals_apart(values)}f"


def _inward(a: float | None, b: float | None) -> tuple[str, str]:
    """``a`` rounded up and ``b`` rounded down, to the fewest decimals (2 to 6) that keep them apart.

    "Every threshold above 0.07 and up to 0.93" must hold for every threshold it names: an edge of 0.9351
    printed as 0.94 would name one that changes a verdict.
    """
    for d in range(2, 7):
        scale = 10.0**d
        up = None if a is None else math.ceil(a * scale - 1e-6) / scale
        down = None if b is None else math.floor(b * scale + 1e-6) / scale
        if up is None or down is None or up < down:
            break
    return ("" if up is None else f"{up:.{d}f}"), ("" if down is None else f"{down:.{d}f}")


def _neighbours(value: float, low: float = 0.0, high: float = 1.0) -> list[float]:
    return [v for v in (round(value - STEP, 10), round(value + STEP, 10)) if low <= v <= high]


def _threshold_note(
    values: np.ndarray, threshold: float, judge: str, uncertain_p: np.ndarray
) -> tuple[bool, str]:
    """Whether one step of the threshold changes a verdict of the decided ``values``; if not, why and what would."""
    if not values.size:
        return False, "Nothing is scored under these settings, so the threshold has nothing to decide."
    if np.isin(values, (0.0, 1.0)).all():
        return False, (
            f"The judge ({judge}) gives only the scores {' and '.join(f'{v:g}' for v in values)}: every threshold "
            "above 0 and up to 1 gives the same verdicts."
        )
    now = reaches(values, threshold)
    if any((reaches(values, t) != now).any() for t in _neighbours(threshold)):
        return True, ""
    fail, passing = values[~now], values[now]
    a = float(fail.max()) if fail.size else None
    b = float(passing.min()) if passing.size else None
    above, up_to = _inward(a, b)
    if a is not None and b is not None:
        text = (
            f"No decided score lies between {above} and {up_to}: every threshold above {above} and up to "
            f"{up_to} gives the same verdicts."
        )
        inside = uncertain_p[(uncertain_p > a) & (uncertain_p < b)]
    elif b is not None:
        text = f"Every decided score is at or above {up_to}: every threshold up to {up_to} passes them all."
        inside = uncertain_p[uncertain_p < b]
    else:
        text = f"Every decided score is below {above}: every threshold above {above} fails them all."
        inside = uncertain_p[uncertain_p > (a or 0.0)]
    if inside.size:
        text += (
            f" The judge abstains on {plural(inside.size, 'interaction')} whose probabilities lie in there: narrow "
            "the abstention band to let it decide them."
        )
    return False, text


def _band_moves(p: np.ndarray, band: tuple[float, float]) -> bool:
    """Whether one step of either edge of ``band`` changes which of the probabilities ``p`` are decided."""
    low, high = band
    now = band_decides(p, low, high)
    moved = [(lo, high) for lo in _neighbours(low, high=high)] + [(low, hi) for hi in _neighbours(high, low=low)]
    return any((band_decides(p, lo, hi) != now).any() for lo, hi in moved)


def _dead_band_words(p: np.ndarray, band: tuple[float, float]) -> str:
    low, high = band
    inside = p[~band_decides(p, low, high)]
    if inside.size:
        f = _fmt([low, float(inside.min()), float(inside.max()), high])
        return (
            f"One step of either edge changes no verdict here: the probabilities the judge abstains on run from "
            f"{inside.min():{f}} to {inside.max():{f}}; move an edge past one to decide it."
        )
    below, above = p[p <= low], p[p >= high]
    near = [f"{below.max():.3f} below it" if below.size else "", f"{above.min():.3f} above it" if above.size else ""]
    return "One step of either edge changes no verdict here: no probability lies inside the band (the nearest are " + (
        " and ".join(n for n in near if n) or "none"
    ) + "); move an edge past one to abstain on it."


def _outside_words(band: tuple[float, float], threshold: float) -> str:
    low, high = band
    f = _fmt([low, high, threshold])
    if not reaches(high, threshold):  # decided scores from the upper edge up to the threshold fail
        return (
            f" The threshold {threshold:{f}} lies above the band: decided probabilities from {high:{f}} up to "
            f"{threshold:{f}} count as incorrect."
        )
    if not reaches(threshold, low):  # the threshold is below the lower edge: decided scores up to it pass
        return (
            f" The threshold {threshold:{f}} lies below the band: decided probabilities from {threshold:{f}} up to "
            f"{low:{f}} count as correct."
        )
    return ""


def _holdout_note(model: str | None, band: tuple[float, float], fitted: tuple[float, float], threshold: float) -> str:
    if model is None:
        return ""
    now = holdout_figures(model, band, threshold)
    never = holdout_figures(model, (threshold, threshold), threshold)
    if now is None or never is None:
        return ""
    which = "the judge's fitted band" if band == fitted else "this band"
    gives = "gives no verdict" if now.accuracy is None else f"is right on {now.accuracy:.0%} of the verdicts it gives"
    text = (
        f"On the judge's holdout ({now.pairs} labelled pairs it was never fitted on), {which} abstains on "
        f"{now.abstained:.0%} and {gives}"
    )
    if band != fitted and (fit := holdout_figures(model, fitted, threshold)) is not None and fit.accuracy is not None:
        text += f"; the fitted band: {fit.abstained:.0%} and {fit.accuracy:.0%}"
    never_text = "" if never.accuracy is None else f"; never abstaining: right on {never.accuracy:.0%}"
    return text + never_text + f" (at the threshold {threshold:g})."


def band_controls(result: EvaluationResult, threshold: float, band: tuple[float, float] | None) -> BandControls:
    """What one step of the threshold and of the band changes on this run, and the sentences to show beside them.

    Args:
        result: The judged run (its overrides are people's verdicts: no control changes them).
        threshold: The answer threshold in force.
        band: The settings' abstention band (``None``: the judge's fitted band).

    Returns:
        The controls' reach and words.
    """
    frame = result.interactions
    p = judge_probabilities(result)
    free = np.ones(len(frame), dtype=bool)
    if result.overrides:
        free[[r for r in result.overrides if 0 <= r < len(free)]] = False
    fitted, inferred = judge_band(result)
    fitted_edges = None if fitted is None else fitted.edges
    in_force = band_in_force(result, band)
    score, uncertain = band_verdicts(frame[ResultCols.SCORE].to_numpy(dtype=np.float64), p, band)
    has_p = ~np.isnan(p) & free
    judge = result.judge_identity.label()
    values = np.unique(score[free & ~np.isnan(score)])
    threshold_moves, threshold_note = _threshold_note(values, threshold, judge, p[uncertain & free])
    with_p, without_p = int(has_p.sum()), int((free & ~has_p).sum())
    band_moves, band_note, holdout_note = False, "", ""
    if not with_p:
        band_note = f"The judge ({judge}) gives no probability, so it has no abstention band: its verdicts stand."
    elif in_force is not None:
        band_moves = _band_moves(np.unique(p[has_p]), in_force)
        notes = []
        spec = spec_class_of(result.judge_identity)  # the run's record: its judge is not at hand
        if without_p and spec is not None and not spec.offline:  # the ones without a probability went to an LLM
            notes.append(
                f"The band re-decides only the {plural(with_p, 'interaction')} the offline judge decided (they carry "
                f"its probability); the {plural(without_p, 'interaction')} it was unsure of went to the LLM when "
                "judged and keep the LLM's verdicts: a wider band abstains on more, it sends nothing to the LLM."
            )
        elif without_p:
            notes.append(
                f"The band re-decides the {plural(with_p, 'interaction')} that carry a probability; the other "
                f"{without_p:,} keep their verdicts."
            )
        if not band_moves:
            notes.append(_dead_band_words(np.unique(p[has_p]), in_force))
        band_note = " ".join(notes) + _outside_words(in_force, threshold)
        if fitted is not None and fitted_edges is not None:
            holdout_note = _holdout_note(fitted.holdout, in_force, fitted_edges, threshold)
    return BandControls(
        with_probability=with_p,
        without_probability=without_p,
        fitted=fitted_edges,
        fitted_inferred=inferred,
        band=in_force,
        uncertain=int((uncertain & free).sum()),
        threshold_moves=threshold_moves,
        band_moves=band_moves,
        threshold_note=threshold_note,
        band_note=band_note.strip(),
        holdout_note=holdout_note,
    )
