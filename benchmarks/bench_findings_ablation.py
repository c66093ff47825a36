"""What each finding of the offline judges earns: leave it out, refit as the fit script does, measure.

Run: ``.venv/bin/python benchmarks/bench_findings_ablation.py [--boot 2000] [--models embedding,lexical] [--eliminate]
[--write-results]``

For each detector (:data:`agentic_core.judges.offline.features.DETECTORS`) and each group of the other features
(:data:`GROUPS`), the learned model is refitted without it exactly as ``scripts/fit_learned_judge.py`` fits
(its own ``select``, ``model``, ``folds``, ``out_of_fold`` and ``band_for``: scikit-learn's ``LogisticRegression``
on standardised features, 5 folds grouped by question, seed 0) and measured twice:

* **fresh holdout** (``sample_data/judge_holdout_v2.jsonl``, 168 pairs, never fitted on): the model fitted on the
  whole devset, its band chosen out of fold on the devset, as the shipped model is;
* **devset, out of fold**: each devset pair scored by the model fitted without its fold, the band from those.

Each measure: ROC-AUC, log-loss, the share abstained at the band and the accuracy on the verdicts given. The
change when a feature is left out is the "without" figure minus the whole model's; a positive log-loss change and
a negative AUC change are what the feature earns. On 168 pairs a few hundredths of AUC is noise, so each held-out
change carries a paired bootstrap interval (``--boot`` resamples of the pairs, the same resamples for both models;
the devset's resamples draw whole questions, as its folds do).

A finding *earns its place* when leaving it out makes the fresh holdout's log-loss or AUC worse (the point
estimate: the rule of issue 38), or makes the devset's out-of-fold log-loss or AUC worse beyond noise (its interval
excludes 0: the detectors were written for devset pairs, and a class the 168 fresh pairs lack, such as swapped
roles, must not be lost for want of a fresh example). ``--eliminate`` removes what does not earn its place one at
a time (the one whose absence helps the held-out log-loss most first), refitting and measuring again after each,
until everything left earns it, then compares what is left with the whole model. Choosing by the fresh holdout
makes its figures afterwards a little flattering; the devset's intervals say what was given up there.

Nothing here is asserted; the figures go to benchmarks/RESULTS.md (``--write-results``), and the README's table
of findings is read off them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import rankdata
from sklearn.metrics import log_loss

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agentic_core.judges.offline.embedding import similarities  # noqa: E402
from agentic_core.judges.offline.features import DETECTORS, FEATURES, feature_matrix  # noqa: E402
from benchmarks.judge_accuracy import DEFAULT_DEVSET  # noqa: E402
from benchmarks.results_file import Recorder, add_results_arguments  # noqa: E402
from scripts import fit_learned_judge as FIT  # noqa: E402  (the ablation fits with the fit script's very functions)

HOLDOUT = ROOT / "sample_data" / "judge_holdout_v2.jsonl"




def groups() -> dict[str, tuple[str, ...]]:
    """The feature groups left out together: one per kind of measure, beside the detectors one by one."""
    facts = {
        f"facts: {kind}": tuple(f for f in FEATURES if f.startswith(f"{kind}_"))
        for kind in ("number", "date", "time", "amount")
    }
    return {
        "cosine": ("cosine",),
        "token_set": ("token_set",),
        "word overlap (word_similarity, recall, precision)": ("word_similarity", "recall", "precision"),
        "findings (the count)": ("findings",),
        "entities (entity_missing, entity_conflict, entity_fuzzy)": (
            "entity_missing",
            "entity_conflict",
            "entity_fuzzy",
        ),
        "code_missing": ("code_missing",),
        **facts,
        "near (number_near, amount_near)": ("number_near", "amount_near"),
        "every detector": DETECTORS,
    }


GROUPS = groups()


@dataclass(frozen=True)
class Fitted:
    """One feature set's probabilities: out of fold on the devset, and on the holdout (with the devset's band)."""

    oof: np.ndarray
    held: np.ndarray
    band: tuple[float, float]


def measures(p: np.ndarray, y: np.ndarray, band: tuple[float, float]) -> dict[str, float]:
    """ROC-AUC, log-loss, the share abstained at ``band`` and the accuracy on the verdicts given."""
    m = FIT.scores(p, y, band)
    return {
        "auc": m["auc"],
        "log_loss": float(log_loss(y, np.clip(p, 1e-12, 1 - 1e-12), labels=[0, 1])),
        "abstained": m["abstained"],
        "accuracy_given": m["accuracy_given"],
    }


@dataclass
class Data:
    """The devset's and the holdout's feature matrices (every feature), labels and the devset's folds."""

    x_dev: np.ndarray
    y_dev: np.ndarray
    groups: list[str]
    x_held: np.ndarray
    y_held: np.ndarray
    splits: list[tuple[np.ndarray, np.ndarray]]

    def fit(self, feats: Sequence[str]) -> Fitted:
        """Fit ``feats`` as the fit script does; score the devset out of fold and the holdout."""
        x = FIT.select(self.x_dev, feats)
        oof = FIT.out_of_fold(x, self.y_dev, self.splits)
        band = FIT.band_for(oof)
        fitted = FIT.model().fit(x, self.y_dev)
        held = fitted.predict_proba(FIT.select(self.x_held, feats))[:, 1]
        return Fitted(oof, held, band)


def load(devset: Path) -> Data:
    """Both files' features by the judge's own code (:func:`feature_matrix`), with the MiniLM cosine."""
    x_dev, y_dev, question = FIT.data(devset)
    held = [json.loads(line) for line in HOLDOUT.read_text(encoding="utf-8").splitlines() if line.strip()]
    triples = [(r["query"], r["answer"], r["ground_truth"]) for r in held]
    cosines = similarities([t[1] for t in triples], [t[2] for t in triples])
    x_held, _ = feature_matrix(triples, [float(c) for c in cosines])
    y_held = np.array([int(r["label"]) for r in held], dtype=int)
    return Data(x_dev, y_dev, question, x_held, y_held, FIT.folds(y_dev, question))


def _aucs(y: np.ndarray, p: np.ndarray) -> np.ndarray:
    """ROC-AUC of each row of ``p`` against the same row of ``y`` (ties count half; NaN for one class only)."""
    ranks = rankdata(p, axis=1)
    pos = y.sum(axis=1)
    neg = y.shape[1] - pos
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(((ranks * y).sum(axis=1) - pos * (pos + 1) / 2) / (pos * neg), dtype=np.float64)


def _losses(y: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Each pair's log-loss (the probability clipped as scikit-learn's ``log_loss`` does)."""
    q = np.clip(p, 1e-12, 1 - 1e-12)
    return np.asarray(-(y * np.log(q) + (1 - y) * np.log(1 - q)), dtype=np.float64)


def paired_interval(
    y: np.ndarray, p_with: np.ndarray, p_without: np.ndarray, draws: list[np.ndarray]
) -> dict[str, tuple[float, float]]:
    """95% percentile intervals of the log-loss and AUC changes (without minus with) over the same resamples."""
    delta_loss = _losses(y, p_without) - _losses(y, p_with)
    ll, auc = [], []
    for chunk in range(0, len(draws), 250):
        part = draws[chunk : chunk + 250]
        if len({len(d) for d in part}) == 1:
            idx = np.stack(part)  # resamples of one size (of pairs): all at once
            ll.extend(delta_loss[idx].mean(axis=1))
            auc.extend(_aucs(y[idx], p_without[idx]) - _aucs(y[idx], p_with[idx]))
            continue
        for d in part:  # whole questions: resamples of different sizes
            ll.append(float(delta_loss[d].mean()))
            auc.append(float(_aucs(y[d][None], p_without[d][None])[0] - _aucs(y[d][None], p_with[d][None])[0]))
    q = (2.5, 97.5)
    lo_ll, hi_ll = np.nanpercentile(ll, q)
    lo_auc, hi_auc = np.nanpercentile(auc, q)
    return {"log_loss": (float(lo_ll), float(hi_ll)), "auc": (float(lo_auc), float(hi_auc))}


def draws_for(n: int, boot: int, seed: int, clusters: Sequence[str] | None = None) -> list[np.ndarray]:
    """``boot`` resamples of ``n`` rows (of whole clusters when given), from a fixed seed."""
    rng = np.random.default_rng(seed)
    if clusters is None:
        return [rng.integers(0, n, n) for _ in range(boot)]
    by: dict[str, list[int]] = {}
    for i, c in enumerate(clusters):
        by.setdefault(c, []).append(i)
    members = [np.asarray(v) for v in by.values()]
    return [np.concatenate([members[k] for k in rng.integers(0, len(members), len(members))]) for _ in range(boot)]


@dataclass(frozen=True)
class Row:
    """One feature (or group) left out: the figures without it and their changes."""

    left_out: str
    held: dict[str, float]
    dev: dict[str, float]
    held_change: dict[str, float]
    dev_change: dict[str, float]
    held_interval: dict[str, tuple[float, float]]
    dev_interval: dict[str, tuple[float, float]]

    @property
    def earns(self) -> bool:
        """Whether it earns its place (see the module docstring): leaving it out makes the held-out log-loss or
        AUC worse, or the devset's out-of-fold log-loss or AUC worse beyond noise (its interval excludes 0)."""
        return (
            self.held_change["log_loss"] > 0
            or self.held_change["auc"] < 0
            or self.dev_interval["log_loss"][0] > 0
            or self.dev_interval["auc"][1] < 0
        )


def ablate(
    data: Data, feats: Sequence[str], candidates: dict[str, Sequence[str]], boot: int
) -> tuple[dict[str, Any], list[Row]]:
    """The whole model's figures and one :class:`Row` per candidate left out."""
    whole = data.fit(feats)
    base_held = measures(whole.held, data.y_held, whole.band)
    base_dev = measures(whole.oof, data.y_dev, whole.band)
    held_draws = draws_for(len(data.y_held), boot, seed=1)
    dev_draws = draws_for(len(data.y_dev), boot, seed=2, clusters=data.groups)
    rows = []
    for name, leave in candidates.items():
        kept = [f for f in feats if f not in leave]
        if len(kept) == len(feats):
            continue  # not in this model (the cosine of the lexical one)
        without = data.fit(kept)
        held = measures(without.held, data.y_held, without.band)
        dev = measures(without.oof, data.y_dev, without.band)
        rows.append(
            Row(
                name,
                held,
                dev,
                {k: held[k] - base_held[k] for k in held},
                {k: dev[k] - base_dev[k] for k in dev},
                paired_interval(data.y_held, whole.held, without.held, held_draws),
                paired_interval(data.y_dev, whole.oof, without.oof, dev_draws),
            )
        )
    return {"held": base_held, "dev": base_dev, "band": whole.band}, rows


def _change(value: float, interval: tuple[float, float]) -> str:
    return f"{value:+.4f} [{interval[0]:+.4f}, {interval[1]:+.4f}]"


def table(kind: str, base: dict[str, Any], rows: Sequence[Row]) -> list[str]:
    """The markdown table of one model's ablation."""
    h, d = base["held"], base["dev"]
    lines = [
        f"**`{kind}` model.** Whole model: fresh holdout log-loss {h['log_loss']:.4f}, ROC-AUC {h['auc']:.3f}, "
        f"{h['abstained']:.1%} abstained, {h['accuracy_given']:.3f} on the verdicts given; devset out of fold "
        f"log-loss {d['log_loss']:.4f}, ROC-AUC {d['auc']:.3f}, {d['abstained']:.1%} abstained, "
        f"{d['accuracy_given']:.3f} on the verdicts given (band {base['band'][0]:.3f} - {base['band'][1]:.3f}).",
        "",
        "| left out | holdout: log-loss change [95%] | holdout: ROC-AUC change [95%] | holdout: abstained, accuracy "
        "on given | devset OOF: log-loss change [95%] | devset OOF: ROC-AUC change [95%] | earns its place |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        lines.append(
            f"| `{r.left_out}` | {_change(r.held_change['log_loss'], r.held_interval['log_loss'])} | "
            f"{_change(r.held_change['auc'], r.held_interval['auc'])} | "
            f"{r.held['abstained']:.1%}, {r.held['accuracy_given']:.3f} | "
            f"{_change(r.dev_change['log_loss'], r.dev_interval['log_loss'])} | "
            f"{_change(r.dev_change['auc'], r.dev_interval['auc'])} | {'yes' if r.earns else '**no**'} |"
        )
    return lines


def eliminate(data: Data, feats: Sequence[str], boot: int) -> tuple[list[str], list[Row], list[str]]:
    """Backward elimination: while a candidate does not earn its place, leave out the one whose absence helps the
    held-out log-loss most, refit, and ablate again.

    Returns:
        ``(features kept, the rows of the candidates left out in order, the candidates' names left out)``.
    """
    kept = list(feats)
    removed: list[Row] = []
    names: list[str] = []
    candidates: dict[str, Sequence[str]] = {d: (d,) for d in DETECTORS} | {
        k: v for k, v in GROUPS.items() if k not in ("cosine", "every detector")
    }
    while True:
        live = {k: v for k, v in candidates.items() if k not in names and any(f in kept for f in v)}
        _, rows = ablate(data, kept, live, boot)
        idle = [r for r in rows if not r.earns]
        if not idle:
            return kept, removed, names
        worst = min(idle, key=lambda r: r.held_change["log_loss"])
        removed.append(worst)
        names.append(worst.left_out)
        kept = [f for f in kept if f not in candidates[worst.left_out]]
        print(f"round {len(names)}: leave out {worst.left_out} ({len(idle)} did not earn their place)", file=sys.stderr)


def elimination_table(
    data: Data, feats: Sequence[str], kept: Sequence[str], removed: Sequence[Row], boot: int
) -> list[str]:
    """The order of elimination, and the model left against the whole one."""
    if not removed:  # nothing to compare: the whole model is what is left
        return [f"Nothing left out: each of the {len(feats)} features earns its place."]
    lines = [
        "| round | left out | holdout: log-loss change [95%] | holdout: ROC-AUC change [95%] | "
        "devset OOF: log-loss change [95%] | devset OOF: ROC-AUC change [95%] |",
        "|---:|---|---:|---:|---:|---:|",
    ]
    for i, r in enumerate(removed, start=1):
        lines.append(
            f"| {i} | `{r.left_out}` | {_change(r.held_change['log_loss'], r.held_interval['log_loss'])} | "
            f"{_change(r.held_change['auc'], r.held_interval['auc'])} | "
            f"{_change(r.dev_change['log_loss'], r.dev_interval['log_loss'])} | "
            f"{_change(r.dev_change['auc'], r.dev_interval['auc'])} |"
        )
    base, (total,) = ablate(data, feats, {"all of them": [f for f in feats if f not in kept]}, boot)
    lines += ["", "Everything above left out at once, against the whole model:", "", *table("whole", base, [total])]
    lines += [
        "",
        f"Left: {len(kept)} features. Without them: fresh holdout log-loss {total.held['log_loss']:.4f}, ROC-AUC "
        f"{total.held['auc']:.3f}, {total.held['abstained']:.1%} abstained, {total.held['accuracy_given']:.3f} on "
        f"the verdicts given; devset out of fold log-loss {total.dev['log_loss']:.4f}, ROC-AUC {total.dev['auc']:.3f}, "
        f"{total.dev['abstained']:.1%} abstained, {total.dev['accuracy_given']:.3f} on the verdicts given.",
    ]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Ablate each detector and feature group in each model; print (and optionally record) the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--devset", type=Path, default=DEFAULT_DEVSET)
    parser.add_argument("--boot", type=int, default=2000, help="bootstrap resamples per interval")
    parser.add_argument("--models", default="embedding,lexical", help="which fitted models to ablate")
    parser.add_argument(
        "--eliminate", action="store_true", help="backward elimination of what does not earn its place (first model)"
    )
    add_results_arguments(parser)
    args = parser.parse_args(argv)
    name = "bench_findings_ablation" + ("-elimination" if args.eliminate else "")
    recorder = Recorder(args, name, "Offline judges: what each finding earns (issue 38)")
    data = load(args.devset)
    models = [k.strip() for k in args.models.split(",") if k.strip()]
    print(
        f"Each finding left out and the model refitted as scripts/fit_learned_judge.py fits; fresh holdout "
        f"{len(data.y_held)} pairs (never fitted on), devset {len(data.y_dev)} pairs out of fold. Changes are "
        f"without minus with (log-loss up, AUC down: what it earns), with paired bootstrap 95% intervals "
        f"({args.boot} resamples; the devset's of whole questions)."
    )
    if args.eliminate:
        feats = FIT.MODELS[models[0]]
        kept, removed, _ = eliminate(data, feats, args.boot)
        print()
        print(f"Backward elimination on the `{models[0]}` model, in order:")
        print()
        print("\n".join(elimination_table(data, feats, kept, removed, args.boot)))
        recorder.finish()
        return 0
    candidates: dict[str, Sequence[str]] = {**{d: (d,) for d in DETECTORS}, **GROUPS}
    for kind in models:
        base, rows = ablate(data, FIT.MODELS[kind], candidates, args.boot)
        print()
        print("\n".join(table(kind, base, rows)))
    recorder.finish()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
