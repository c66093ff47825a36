"""Fit the ``learned`` judge's coefficients and abstention band; write them as data.

Run: ``.venv/bin/python scripts/fit_learned_judge.py [--devset PATH] [--out PATH] [--check]``

1. Reads the labelled pairs (``sample_data/judge_devset.jsonl``) and splits them as
   ``benchmarks/judge_accuracy.py`` does: ``dev`` (fitted on), ``test`` (frozen, only evaluated),
   ``holdout`` (written after the test split was looked at; never fitted on).
2. Computes every pair's features with the judge's own code
   (:func:`agentic_core.judges.learned_features.feature_matrix`), so fit and use cannot drift.
3. Fits an L2-penalised logistic regression (scipy's L-BFGS) on the standardised ``dev`` features,
   twice: with the MiniLM cosine (``embedding``) and without it (``lexical``, for installs without
   the embedding packages).
4. Chooses the abstention band ``(low, high)`` on out-of-fold ``dev`` probabilities (5 folds): the
   band around 0.5 that abstains on :data:`ABSTAIN_SHARE` of the dev pairs.
5. Writes ``agentic_core/judges/data/learned_judge.json`` (coefficients, band, provenance) and
   prints ROC-AUC, accuracy, abstention and selective accuracy per split.
6. Writes ``agentic_core/judges/data/learned_judge_holdout.json``: each holdout pair's probability under
   each shipped model, its label, and the model file's sha256. The dashboard reads it to say what any
   abstention band costs and buys (share abstained, accuracy on the verdicts given) on pairs never fitted
   on. A separate file on purpose: the model file's sha256 is part of the judge's identity (cached and
   shipped verdicts are keyed by it), so adding figures to it would re-key every verdict. When a refit
   gives the shipped coefficients again (as ``--check`` compares them), the model file is left byte for
   byte as it is and only the holdout file is written.

``--check`` refits and compares with the shipped files instead of writing them (exit 1 when they
differ), so a test can tell when the devset changed without a refit.

To teach the judge a new failure class: add labelled rows to the devset (both verdicts, a short
``category``), run this script, check the printed holdout figures did not fall, and commit the
devset and the model file together.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agentic_core.judges.embedding import similarities  # noqa: E402
from agentic_core.judges.learned import MODEL_PATH  # noqa: E402
from agentic_core.judges.learned_features import FEATURES, feature_matrix  # noqa: E402
from agentic_core.judges.learned_holdout import HOLDOUT_PATH  # noqa: E402
from benchmarks.judge_accuracy import DEFAULT_DEVSET, load_devset, roc_auc, split_devset  # noqa: E402

VERSION = "learned-v2"
"""Bump when the features or the fitting change (the file's sha256 changes with every refit anyway)."""
PENALTY = 3.0
"""L2 penalty on the standardised coefficients: chosen among 0.3, 3 and 30 on the dev split's folds."""
ABSTAIN_SHARE = 0.30
"""The share of dev pairs (out of fold) the band abstains on; the issue allows at most 0.40."""
FOLDS = 5
REPLACED: tuple[str, ...] = (
    "missing_number",
    "missing_date",
    "missing_time",
    "unit_conflict",
    "extra_value",
    "conflicting_value",
)
"""Lexical detectors the models leave out: the library-parsed fact agreement (``number_missing`` ..
``amount_conflict``, :mod:`agentic_core.judges.facts`) says the same, and dev out-of-fold and test figures
were not worse without them (benchmarks/RESULTS.md, "Learned judge")."""


def fit_logistic(x: np.ndarray, y: np.ndarray, penalty: float = PENALTY) -> dict[str, Any]:
    """L2-penalised logistic regression on standardised columns.

    Args:
        x: One row per pair, one column per feature (no NaN).
        y: Labels 0 / 1.
        penalty: The L2 penalty on the coefficients (not the intercept).

    Returns:
        ``{"mean", "scale", "intercept", "coef"}`` as lists (a constant column gets scale 1).
    """
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = np.c_[np.ones(len(x)), (x - mean) / scale]

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        s = z @ w
        p = 1.0 / (1.0 + np.exp(-s))
        grad = z.T @ (p - y)
        grad[1:] += penalty * w[1:]
        return float((np.logaddexp(0.0, s) - y * s).sum() + penalty * (w[1:] ** 2).sum() / 2), grad

    w = minimize(loss, np.zeros(z.shape[1]), jac=True, method="L-BFGS-B").x
    return {"mean": mean.tolist(), "scale": scale.tolist(), "intercept": float(w[0]), "coef": w[1:].tolist()}


def predict(model: dict[str, Any], x: np.ndarray) -> np.ndarray:
    """P(correct) for each row of ``x`` under a :func:`fit_logistic` model."""
    s = model["intercept"] + ((x - np.asarray(model["mean"])) / np.asarray(model["scale"])) @ np.asarray(model["coef"])
    return 1.0 / (1.0 + np.exp(-s))


def out_of_fold(x: np.ndarray, y: np.ndarray, ids: Sequence[str]) -> np.ndarray:
    """Each dev pair's probability from a model fitted without its fold (folds by sha256 of the id)."""
    fold = np.array([int(hashlib.sha256(i.encode()).hexdigest(), 16) % FOLDS for i in ids])
    p = np.empty(len(y))
    for k in range(FOLDS):
        held = fold == k
        p[held] = predict(fit_logistic(x[~held], y[~held]), x[held])
    return p


def band_for(p: np.ndarray, share: float = ABSTAIN_SHARE) -> tuple[float, float]:
    """The band around 0.5 holding ``share`` of the probabilities ``p`` (by distance from 0.5)."""
    half = float(np.quantile(np.abs(p - 0.5), share)) if len(p) else 0.0
    return round(0.5 - half, 4), round(0.5 + half, 4)


def selective(p: np.ndarray, y: np.ndarray, band: tuple[float, float]) -> tuple[float, float]:
    """(abstention share, accuracy on the verdicts given) for a band."""
    given = (p <= band[0]) | (p >= band[1])
    if not given.any():
        return 1.0, float("nan")
    return float(1 - given.mean()), float(((p[given] >= 0.5) == (y[given] == 1)).mean())


def fit_all(devset: Path) -> tuple[dict[str, Any], list[str], dict[str, Any]]:
    """Fit both models; return the model file's content, the report lines and the pairs' features.

    The features (``x``: every pair's :data:`FEATURES` columns, ``y``: labels, ``split``: each pair's split)
    let :func:`holdout_document` score the holdout pairs with whichever coefficients are shipped.
    """
    records = load_devset(devset)
    split = split_devset(records)
    triples = [(r["query"], r["answer"], r["ground_truth"]) for r in records]
    cosines = similarities([t[1] for t in triples], [t[2] for t in triples])
    x_all, _ = feature_matrix(triples, [float(c) for c in cosines])
    y_all = np.array([r["label"] for r in records], dtype=np.float64)
    names = np.array([split[r["id"]] for r in records])
    ids = [r["id"] for r in records]
    dev = names == "dev"
    models: dict[str, Any] = {}
    lines = [
        "| model | split | pairs | ROC-AUC | accuracy at 0.5 | abstained | accuracy on the verdicts given |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    used = tuple(f for f in FEATURES if f not in REPLACED)
    for kind, feats in (("embedding", used), ("lexical", tuple(f for f in used if f != "cosine"))):
        cols = [FEATURES.index(f) for f in feats]
        x = x_all[:, cols]
        fitted = fit_logistic(x[dev], y_all[dev])
        band = band_for(out_of_fold(x[dev], y_all[dev], [i for i, d in zip(ids, dev, strict=True) if d]))
        models[kind] = {"features": list(feats), **fitted, "band": list(band)}
        p = predict(fitted, x)
        for part in ("dev", "test", "holdout"):
            sel = names == part
            if not sel.any():
                continue
            abstained, acc_given = selective(p[sel], y_all[sel], band)
            lines.append(
                f"| {kind} | {part} | {int(sel.sum())} | {roc_auc(p[sel], y_all[sel]):.3f} | "
                f"{float(((p[sel] >= 0.5) == (y_all[sel] == 1)).mean()):.3f} | {abstained:.1%} | {acc_given:.3f} |"
            )
    content = {
        "version": VERSION,
        "fitted_on": {
            "devset": devset.name,
            "devset_sha256": hashlib.sha256(devset.read_bytes()).hexdigest(),
            "split": "dev",
            "pairs": int(dev.sum()),
            "penalty": PENALTY,
            "abstain_share": ABSTAIN_SHARE,
        },
        "models": models,
    }
    return content, lines, {"x": x_all, "y": y_all, "split": names}


def holdout_document(models: dict[str, Any], pairs: dict[str, Any], model_sha256: str) -> dict[str, Any]:
    """The holdout file: every holdout pair's probability under each model, its label, the model file's sha256.

    Args:
        models: The model file's ``models`` (the coefficients shipped).
        pairs: :func:`fit_all`'s features.
        model_sha256: The sha256 of the model file these probabilities belong to (the reader checks it).
    """
    held = pairs["split"] == "holdout"
    x, y = pairs["x"][held], pairs["y"][held]
    probabilities = {
        kind: [round(float(p), 6) for p in predict(spec, x[:, [FEATURES.index(f) for f in spec["features"]]])]
        for kind, spec in models.items()
    }
    return {
        "version": VERSION,
        "model_sha256": model_sha256,
        "split": "holdout",
        "pairs": int(held.sum()),
        "label": [int(v) for v in y],
        "probability": probabilities,
    }


def _same_models(shipped: dict[str, Any], content: dict[str, Any]) -> bool:
    """Whether the shipped model file holds the coefficients a refit gives (to 1e-6)."""
    return (
        shipped["version"] == content["version"]
        and shipped["fitted_on"] == content["fitted_on"]
        and shipped["models"].keys() == content["models"].keys()
        and all(shipped["models"][k]["features"] == content["models"][k]["features"] for k in content["models"])
        and all(
            np.allclose(shipped["models"][k][f], content["models"][k][f], atol=1e-6)
            for k in content["models"]
            for f in ("mean", "scale", "coef", "band", "intercept")
        )
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Fit, report, and write (or ``--check``) the model file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devset", type=Path, default=DEFAULT_DEVSET)
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--holdout-out", type=Path, default=HOLDOUT_PATH)
    parser.add_argument("--check", action="store_true", help="compare with --out instead of writing it")
    args = parser.parse_args(argv)
    content, lines, pairs = fit_all(args.devset)
    print("\n".join(lines))
    shipped_blob = args.out.read_bytes() if args.out.exists() else None
    same = shipped_blob is not None and _same_models(json.loads(shipped_blob), content)
    if args.check:
        assert shipped_blob is not None  # --check compares with a shipped file
        print("model file is up to date" if same else f"model file {args.out} is stale: rerun without --check")
        expected = holdout_document(json.loads(shipped_blob)["models"], pairs, hashlib.sha256(shipped_blob).hexdigest())
        holdout_same = args.holdout_out.exists() and _same_holdout(json.loads(args.holdout_out.read_text()), expected)
        print("holdout file is up to date" if holdout_same else f"holdout file {args.holdout_out} is stale")
        return 0 if same and holdout_same else 1
    if same:
        # The shipped coefficients again: keep the file byte for byte (its sha256 keys every verdict).
        assert shipped_blob is not None
        blob = shipped_blob
        print(f"{args.out} is up to date: left as it is")
    else:
        blob = (json.dumps(content, indent=1) + "\n").encode()
        args.out.write_bytes(blob)
        print(f"wrote {args.out}")
    holdout = holdout_document(json.loads(blob)["models"], pairs, hashlib.sha256(blob).hexdigest())
    args.holdout_out.write_text(json.dumps(holdout, indent=1) + "\n")
    print(f"wrote {args.holdout_out}")
    return 0


def _same_holdout(shipped: dict[str, Any], expected: dict[str, Any]) -> bool:
    """Whether the shipped holdout file is the one the shipped models give (probabilities to 1e-6)."""
    return (
        {k: v for k, v in shipped.items() if k != "probability"}
        == {k: v for k, v in expected.items() if k != "probability"}
        and shipped["probability"].keys() == expected["probability"].keys()
        and all(np.allclose(shipped["probability"][k], v, atol=1e-6) for k, v in expected["probability"].items())
    )


if __name__ == "__main__":
    raise SystemExit(main())
