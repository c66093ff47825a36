"""Accuracy of the offline judges on the labelled development set.

Run: ``.venv/bin/python benchmarks/judge_accuracy.py [--devset PATH] [--pairs N] [--json PATH]``

Loads ``sample_data/judge_devset.jsonl`` (hand-labelled query / answer / ground truth / label /
category records), runs every offline judge that can be imported (``lexical`` always;
``embedding`` and ``hybrid`` when their modules exist and their packages are installed; a judge that
cannot be built is skipped with the reason) and prints markdown tables:

* per judge and split: ROC-AUC (rank-based, ties counted half), accuracy at the judge's
  ``recommended_threshold``, accuracy at the product default 0.7, the best threshold and its accuracy;
  for a judge that abstains (``learned``), the share it answered "uncertain" and its accuracy on the
  verdicts it gave (ROC-AUC and the other columns use its probability for every pair);
* per judge: pairs per second (``--pairs`` distinct pairs, caches cold) and load time (import,
  construction and a first one-item call, which is where lazy model loading happens);
* per category: accuracy at the recommended threshold, on all records and per split.

**Hold-out.** The devset is split deterministically into a ``dev`` half (for tuning rules and
thresholds) and a ``test`` half (only evaluated): within each category, records are ordered by the
sha256 of their id and alternate dev, test, dev, ... so both halves keep every category and their label
balance. A record may name its split itself (``"split": "holdout"``): such records stay out of that
alternation, so adding them moves no old record between dev and test. The ``holdout`` records were
written after the ``test`` half had been looked at, and are evaluated once after rules are frozen;
``all`` is every record. Splits with no records are left out of the tables.

Nothing here is asserted; results go to the README.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.metrics import roc_auc_score

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agentic_core.judges.base import Judge, JudgeItem  # noqa: E402
from agentic_core.judges.runner import judge_sync  # noqa: E402
from benchmarks.results_file import Recorder, add_results_arguments  # noqa: E402
from scripts.devset import DEFAULT_DEVSET, NAMED_SPLITS, load_devset  # noqa: E402

DEFAULT_THRESHOLD = 0.7
SPLITS = ("dev", "test", "holdout", "all")

JUDGES: list[tuple[str, str, str]] = [
    ("lexical", "agentic_core.judges.offline.learned", "LexicalJudge"),
    ("embedding", "agentic_core.judges.offline.embedding", "EmbeddingJudge"),
    ("hybrid", "agentic_core.judges.offline.learned", "HybridJudge"),
    ("learned", "agentic_core.judges.offline.learned", "LearnedJudge"),
]
"""(name, module, class) of each offline judge; built with no arguments."""


# --------------------------------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------------------------------


def split_devset(records: Sequence[dict[str, Any]]) -> dict[str, str]:
    """Assign each record to ``dev``, ``test`` or ``holdout``, deterministically.

    A record that names its split keeps it; the others are split dev / test, stratified by category.

    Args:
        records: Devset records.

    Returns:
        ``{record id: "dev" | "test" | "holdout"}``.
    """
    by_category: dict[str, list[dict[str, Any]]] = defaultdict(list)
    split: dict[str, str] = {}
    for rec in records:
        if "split" in rec:
            split[rec["id"]] = rec["split"]
        else:
            by_category[rec["category"]].append(rec)
    for recs in by_category.values():
        # Hash order, not file order: the file is grouped in right/wrong pairs, and alternating in
        # file order would put every correct answer in one half.
        ordered = sorted(recs, key=lambda r: hashlib.sha256(str(r["id"]).encode()).hexdigest())
        for i, rec in enumerate(ordered):
            split[rec["id"]] = "dev" if i % 2 == 0 else "test"
    return split


# --------------------------------------------------------------------------------------------------
# Metrics
# --------------------------------------------------------------------------------------------------


def roc_auc(scores: Sequence[float] | np.ndarray, labels: Sequence[int] | np.ndarray) -> float:
    """ROC-AUC by scikit-learn's ``roc_auc_score`` (tied scores count half).

    Args:
        scores: Judge scores.
        labels: 1 for correct answers, 0 for wrong ones.

    Returns:
        The probability that a random correct answer outscores a random wrong one, or ``nan``
        when one class is empty.
    """
    y = np.asarray(labels, dtype=int)
    if len(set(y.tolist())) < 2:
        return float("nan")
    return float(roc_auc_score(y, np.asarray(scores, dtype=float)))


def accuracy_at(scores: Sequence[float] | np.ndarray, labels: Sequence[int], threshold: float) -> float:
    """Share of records where ``score >= threshold`` agrees with the label."""
    s = np.asarray(scores, dtype=float)
    y = np.asarray(labels, dtype=int)
    if len(s) == 0:
        return float("nan")
    return float(np.mean((s >= threshold) == (y == 1)))


def best_threshold(scores: Sequence[float], labels: Sequence[int]) -> tuple[float, float]:
    """The cut with the highest accuracy, placed midway between adjacent distinct scores.

    Ties between cuts go to the one nearest the product default 0.7 (a stable, readable choice).

    Returns:
        ``(threshold, accuracy)``.
    """
    s = np.asarray(scores, dtype=float)
    if len(s) == 0:
        return float("nan"), float("nan")
    distinct = np.unique(s)
    cuts = np.concatenate(([distinct[0] - 1e-6], (distinct[:-1] + distinct[1:]) / 2, [distinct[-1] + 1e-6]))
    best = max(cuts, key=lambda t: (accuracy_at(s, labels, float(t)), -abs(float(t) - DEFAULT_THRESHOLD)))
    return float(best), accuracy_at(s, labels, float(best))


# --------------------------------------------------------------------------------------------------
# Running judges
# --------------------------------------------------------------------------------------------------


@dataclass
class JudgeRun:
    """One judge's results on the devset."""

    name: str
    label: str = ""
    skipped: str | None = None
    recommended_threshold: float = DEFAULT_THRESHOLD
    load_s: float = float("nan")
    pairs_per_s: float = float("nan")
    pairs_per_cpu_s: float = float("nan")
    """Pairs judged per CPU-second of this process (every thread: the embedding's too): steadier than
    wall time on a machine shared with other work."""
    scores: dict[str, float] = field(default_factory=dict)
    """The score, or for an abstention the judge's probability (so ROC-AUC covers every pair)."""
    abstained: set[str] = field(default_factory=set)
    """Ids the judge answered "uncertain"."""
    failed: list[str] = field(default_factory=list)


def build_judge(module: str, cls: str) -> tuple[Judge | None, str | None, float]:
    """Import and construct a judge; warm it up on one item.

    Returns:
        ``(judge, None, load seconds)``, or ``(None, reason, nan)`` when it cannot be built here.
    """
    start = time.perf_counter()
    try:
        mod = importlib.import_module(module)
    except ImportError as exc:
        return None, f"not importable ({exc})", float("nan")
    factory: Callable[[], Judge] | None = getattr(mod, cls, None)
    if factory is None:
        return None, f"{module} has no {cls}", float("nan")
    try:
        judge = factory()
        judge_sync(judge, [JudgeItem(query="warm-up", answer="42", ground_truth="42")])
    except Exception as exc:  # any construction failure (missing package, model) means "skip"
        return None, f"cannot be built: {type(exc).__name__}: {exc}", float("nan")
    return judge, None, time.perf_counter() - start


def throughput_items(records: Sequence[dict[str, Any]], n: int) -> list[JudgeItem]:
    """``n`` distinct pairs built from the devset (a variant tag makes every text unique, so no
    per-text cache can flatter the number), grouped so each ground truth repeats a few times as in
    real runs with several attempts per task."""
    items = []
    for i in range(n):
        rec = records[i % len(records)]
        variant = i // len(records)
        items.append(
            JudgeItem(
                query=rec["query"],
                answer=f"{rec['answer']} (variant {variant} attempt {i})",
                ground_truth=f"{rec['ground_truth']} (variant {variant})",
            )
        )
    return items


def run_judge(name: str, module: str, cls: str, records: Sequence[dict[str, Any]], pairs: int) -> JudgeRun:
    """Build one judge, score the devset and time it."""
    run = JudgeRun(name=name)
    judge, reason, load_s = build_judge(module, cls)
    if judge is None:
        run.skipped = reason
        return run
    run.label = judge.identity.label()
    run.recommended_threshold = float(judge.recommended_threshold)
    run.load_s = load_s
    items = [JudgeItem(query=r["query"], answer=r["answer"], ground_truth=r["ground_truth"]) for r in records]
    verdicts = judge_sync(judge, items)
    for rec, verdict in zip(records, verdicts, strict=True):
        value = verdict.score if verdict.score is not None else getattr(verdict, "probability", None)
        if value is None:
            run.failed.append(rec["id"])
            continue
        run.scores[rec["id"]] = float(value)
        if verdict.status == "uncertain":
            run.abstained.add(rec["id"])
    if pairs > 0:
        bulk = throughput_items(records, pairs)
        start, cpu = time.perf_counter(), time.process_time()
        judge_sync(judge, bulk)
        run.pairs_per_s = len(bulk) / (time.perf_counter() - start)
        run.pairs_per_cpu_s = len(bulk) / max(time.process_time() - cpu, 1e-9)
    return run


def summarise(run: JudgeRun, records: Sequence[dict[str, Any]], split: dict[str, str]) -> dict[str, Any]:
    """Metrics of one judge run per split and per category."""
    out: dict[str, Any] = {
        "judge": run.name,
        "label": run.label,
        "recommended_threshold": run.recommended_threshold,
        "load_s": run.load_s,
        "pairs_per_s": run.pairs_per_s,
        "pairs_per_cpu_s": run.pairs_per_cpu_s,
        "failed": run.failed,
        "splits": {},
        "categories": {},
    }
    for part in SPLITS:
        chosen = [r for r in records if (part == "all" or split[r["id"]] == part) and r["id"] in run.scores]
        s = [run.scores[r["id"]] for r in chosen]
        y = [int(r["label"]) for r in chosen]
        thr, best_acc = best_threshold(s, y)
        given = [r for r in chosen if r["id"] not in run.abstained]
        out["splits"][part] = {
            "abstained": 1 - len(given) / len(chosen) if chosen else float("nan"),
            "acc_given": accuracy_at(
                [run.scores[r["id"]] for r in given], [int(r["label"]) for r in given], run.recommended_threshold
            ),
            "n": len(chosen),
            "auc": roc_auc(s, y),
            "acc_recommended": accuracy_at(s, y, run.recommended_threshold),
            "acc_default": accuracy_at(s, y, DEFAULT_THRESHOLD),
            "best_threshold": thr,
            "best_accuracy": best_acc,
        }
    by_cat: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        if r["id"] in run.scores:
            by_cat[r["category"]].append(r)
    for cat, recs in sorted(by_cat.items()):
        s = [run.scores[r["id"]] for r in recs]
        y = [int(r["label"]) for r in recs]
        acc = accuracy_at(s, y, run.recommended_threshold)
        per_split = {}
        for part in NAMED_SPLITS:
            chosen = [r for r in recs if split[r["id"]] == part]
            per_split[part] = {
                "n": len(chosen),
                "acc_recommended": accuracy_at(
                    [run.scores[r["id"]] for r in chosen], [int(r["label"]) for r in chosen], run.recommended_threshold
                ),
            }
        out["categories"][cat] = {"n": len(recs), "acc_recommended": acc, "splits": per_split}
    return out


# --------------------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------------------


def _f(x: float, digits: int = 3) -> str:
    return "—" if x != x else f"{x:.{digits}f}"


def markdown(
    summaries: Sequence[dict[str, Any]], skipped: Sequence[tuple[str, str]], records: Sequence[dict[str, Any]]
) -> str:
    """Render the results as markdown tables."""
    positives = sum(int(r["label"]) for r in records)
    lines = [
        f"Devset: {len(records)} labelled pairs, {positives} correct / {len(records) - positives} wrong.",
        "",
        "| judge | split | n | ROC-AUC | acc @ recommended (thr) | acc @ 0.7 | best threshold (acc) "
        "| abstained | acc on verdicts given | pairs/s | pairs per CPU-s | load s |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for summ in summaries:
        for part in SPLITS:
            m = summ["splits"][part]
            if m["n"] == 0:
                continue
            lines.append(
                f"| {summ['judge']} | {part} | {m['n']} | {_f(m['auc'])} | "
                f"{_f(m['acc_recommended'])} ({summ['recommended_threshold']:.2f}) | "
                f"{_f(m['acc_default'])} | "
                f"{_f(m['best_threshold'], 2)} ({_f(m['best_accuracy'])}) | "
                f"{m['abstained']:.1%} | {_f(m['acc_given'])} | "
                f"{_f(summ['pairs_per_s'], 0)} | {_f(summ['pairs_per_cpu_s'], 0)} | {_f(summ['load_s'], 2)} |"
            )
    for name, reason in skipped:
        lines.append(f"| {name} | skipped: {reason} | | | | | | | | | | |")
    failed = [(s["judge"], len(s["failed"])) for s in summaries if s["failed"]]
    if failed:
        lines.append("")
        lines.append("Unscored (failed) items, excluded above: " + ", ".join(f"{j}: {n}" for j, n in failed))
    if summaries:
        lines += ["", "Per-category accuracy at each judge's recommended threshold (all records):", ""]
        names = [s["judge"] for s in summaries]
        lines.append("| category | n | " + " | ".join(names) + " |")
        lines.append("|---|---:|" + "---:|" * len(names))
        cats = sorted({c for s in summaries for c in s["categories"]})
        for cat in cats:
            n = max(s["categories"].get(cat, {}).get("n", 0) for s in summaries)
            accs = [_f(s["categories"].get(cat, {}).get("acc_recommended", float("nan"))) for s in summaries]
            lines.append(f"| {cat} | {n} | " + " | ".join(accs) + " |")
        lines += _category_split_table(summaries, cats)
    return "\n".join(lines)


def _category_split_table(summaries: Sequence[dict[str, Any]], cats: Sequence[str]) -> list[str]:
    """Per category and split: n and each judge's accuracy at its recommended threshold."""
    parts = [
        p
        for p in NAMED_SPLITS
        if any(m["splits"][p]["n"] for s in summaries for m in s["categories"].values() if "splits" in m)
    ]
    if len(parts) < 2:
        return []
    names = [s["judge"] for s in summaries]
    header = "| category | " + " | ".join(f"n {p}" for p in parts) + " | "
    header += " | ".join(f"{name} {p}" for name in names for p in parts) + " |"
    lines = ["", "Per-category accuracy at each judge's recommended threshold, per split:", "", header]
    lines.append("|---|" + "---:|" * (len(parts) * (1 + len(names))))
    for cat in cats:
        cell = [[s["categories"].get(cat, {}).get("splits", {}).get(p, {}) for p in parts] for s in summaries]
        counts = [str(max(row[i].get("n", 0) for row in cell)) for i in range(len(parts))]
        accs = [_f(m.get("acc_recommended", float("nan"))) if m.get("n") else "—" for row in cell for m in row]
        lines.append(f"| {cat} | " + " | ".join(counts + accs) + " |")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--devset", type=Path, default=DEFAULT_DEVSET, help="labelled JSONL devset")
    parser.add_argument(
        "--pairs", type=int, default=2000, help="distinct pairs for the pairs/s timing (0: skip)"
    )
    parser.add_argument(
        "--judges", default=",".join(j[0] for j in JUDGES), help="comma-separated judge names"
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the results as JSON here")
    add_results_arguments(parser)
    args = parser.parse_args(argv)
    recorder = Recorder(args, "judge_accuracy", "Offline judges: accuracy")

    records = load_devset(args.devset)
    split = split_devset(records)
    wanted = {w.strip() for w in args.judges.split(",") if w.strip()}
    summaries: list[dict[str, Any]] = []
    skipped: list[tuple[str, str]] = []
    for name, module, cls in JUDGES:
        if name not in wanted:
            continue
        run = run_judge(name, module, cls, records, args.pairs)
        if run.skipped:
            print(f"note: {name} judge skipped: {run.skipped}", file=sys.stderr)
            skipped.append((name, run.skipped))
            continue
        summaries.append(summarise(run, records, split))
    report = markdown(summaries, skipped, records)
    print(report)
    if args.json:
        payload = {
            "devset": str(args.devset),
            "n": len(records),
            "split": {
                "method": "a record's own split field, else per category, sha256(id) order, alternating dev/test",
                "counts": {part: sum(1 for v in split.values() if v == part) for part in NAMED_SPLITS},
            },
            "judges": summaries,
            "skipped": [{"judge": n, "reason": r} for n, r in skipped],
        }
        args.json.write_text(json.dumps(payload, indent=2, default=float) + "\n", encoding="utf-8")
    recorder.finish(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
