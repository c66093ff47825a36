"""The cascade judge against the LLM judge alone: LLM calls saved, and kappa with human labels.

Run: ``.venv/bin/python benchmarks/bench_cascade.py [--offline NAME] [--rates 0.92,0.97] [--seeds 20]
[--split holdout] [--json PATH]``

On the labelled pairs of ``sample_data/judge_devset.jsonl`` that the offline model never saw (the
``holdout`` split by default, see :mod:`benchmarks.judge_accuracy`), an **LLM stand-in** whose verdicts
agree with the human labels at a set rate replaces the LLM: for each seed, exactly
``round((1 - rate) * n)`` pairs, drawn by a seeded generator, get the wrong verdict (score 0.1 for a
right answer, 0.9 for a wrong one), the others the right one. The LLM alone and the cascade use the
same stand-in (the same wrong pairs), so each seed is a paired comparison.

For each rate and seed: the LLM calls of the cascade (the pairs the offline judge was uncertain of,
or whose score would flip at the LLM's threshold) against one per pair for the LLM alone, and Cohen's
kappa with the human labels of both, at the LLM's threshold 0.7 (verdicts the cascade left unscored
are counted and left out of its kappa). Printed: mean and spread (sd, min, max) over the seeds, and
whether the issue's goal holds (at least 60% fewer LLM calls, kappa within 0.02 of the LLM alone).

The offline judge is the registry's default (``build_judge(DEFAULT_JUDGE)``) unless ``--offline`` names
another; one that never abstains sends nothing to the LLM, which is said plainly.

Nothing here is asserted; the figures go to ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agentic_core.analysis.calibration import cohen_kappa, confusion  # noqa: E402
from agentic_core.common.passing import reaches  # noqa: E402
from agentic_core.judges.base import (  # noqa: E402
    Judge,
    JudgeIdentity,
    JudgeItem,
    ProgressFn,
    Verdict,
    uncertain_verdict,
)
from agentic_core.judges.cascade import CascadeJudge  # noqa: E402
from agentic_core.judges.registry import DEFAULT_JUDGE, JUDGES, build_judge  # noqa: E402
from benchmarks.judge_accuracy import DEFAULT_DEVSET, load_devset, split_devset  # noqa: E402
from benchmarks.results_file import Recorder, add_results_arguments  # noqa: E402

LLM_THRESHOLD = 0.7
GOAL_SAVED = 0.60
GOAL_KAPPA_GAP = 0.02

Key = tuple[str, str, str]


def _key(item: JudgeItem) -> Key:
    return (item.query, item.answer, item.ground_truth)


class AgreeingLLM:
    """An LLM stand-in: right on all pairs but ``wrong`` (a set of pair keys), counting its calls.

    Args:
        labels: The human label of each pair.
        wrong: The pairs it gets wrong.
        name: Recorded in its identity.
    """

    recommended_threshold = LLM_THRESHOLD
    cacheable = True

    def __init__(self, labels: dict[Key, int], wrong: set[Key], name: str) -> None:
        self.labels = labels
        self.wrong = wrong
        self.calls = 0
        self.identity = JudgeIdentity(kind="llm-standin", model=name, params={"provider": "stand-in"})

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        out = []
        for item in items:
            self.calls += 1
            key = _key(item)
            says_right = bool(self.labels[key]) != (key in self.wrong)
            out.append(
                Verdict(score=0.9 if says_right else 0.1, reasoning=f"stand-in: {'right' if says_right else 'wrong'}")
            )
        return out


class MemoJudge:
    """An offline judge whose verdicts are computed once per pair (every seed and band reuses them)."""

    def __init__(self, inner: Judge) -> None:
        self.inner = inner
        self.identity = inner.identity
        self.recommended_threshold = inner.recommended_threshold
        self.cacheable = inner.cacheable
        self.memo: dict[Key, Verdict] = {}

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        todo = [i for i in items if _key(i) not in self.memo]
        if todo:
            for item, verdict in zip(todo, await self.inner.ajudge(todo), strict=True):
                self.memo[_key(item)] = verdict
        return [self.memo[_key(i)] for i in items]


class RebandedJudge:
    """The offline judge with another abstention band on its probability: uncertain strictly inside (low, high).

    Measures the trade-off between calls saved and agreement without refitting; a verdict without
    a probability is kept as it is.
    """

    def __init__(self, inner: Judge, low: float, high: float) -> None:
        self.inner = inner
        self.low, self.high = low, high
        self.recommended_threshold = inner.recommended_threshold
        self.cacheable = inner.cacheable
        params = {**inner.identity.params, "band": [low, high]}
        self.identity = inner.identity.model_copy(update={"params": params})

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        out = []
        for v in await self.inner.ajudge(items):
            p = v.probability
            if p is None:
                out.append(v)
            elif self.low < p < self.high:
                why = f"P(correct) {p:.2f} is inside the band ({self.low:g}, {self.high:g})"
                out.append(uncertain_verdict(p, v.reasoning, why))
            else:
                out.append(Verdict(score=p, probability=p, reasoning=v.reasoning))
        return out


def wrong_pairs(keys: Sequence[Key], rate: float, seed: int) -> set[Key]:
    """Exactly ``round((1 - rate) * len(keys))`` pairs, drawn by a generator seeded with ``seed``."""
    n_wrong = round((1.0 - rate) * len(keys))
    picks = np.random.default_rng(seed).choice(len(keys), size=n_wrong, replace=False)
    return {keys[int(i)] for i in picks}


def kappa_of(verdicts: Sequence[Verdict], labels: Sequence[int]) -> tuple[float, int]:
    """Cohen's kappa of the scored verdicts (at the LLM's threshold) with the labels, and how many were unscored."""
    scored = [(v.score, lab) for v, lab in zip(verdicts, labels, strict=True) if v.score is not None]
    if not scored:
        return float("nan"), len(verdicts)
    scores = np.array([s for s, _ in scored], dtype=float)
    human = np.array([lab == 1 for _, lab in scored], dtype=bool)
    return cohen_kappa(confusion(reaches(scores, LLM_THRESHOLD), human)), len(verdicts) - len(scored)


def _spread(values: Sequence[float]) -> dict[str, float]:
    return {
        "mean": statistics.fmean(values),
        "sd": statistics.stdev(values) if len(values) > 1 else 0.0,
        "min": min(values),
        "max": max(values),
    }


def offline_profile(offline: Judge, items: Sequence[JudgeItem], labels: Sequence[int]) -> dict[str, Any]:
    """The offline judge alone on these pairs: abstentions, failures, accuracy on the verdicts it gave."""
    verdicts = asyncio.run(offline.ajudge(items))
    uncertain = sum(v.status == "uncertain" for v in verdicts)
    failed = sum(v.status == "failed" for v in verdicts)
    given = [
        (reaches(v.score, float(offline.recommended_threshold)), lab == 1)
        for v, lab in zip(verdicts, labels, strict=True)
        if v.score is not None
    ]
    accuracy = sum(a == b for a, b in given) / len(given) if given else float("nan")
    return {
        "pairs": len(items),
        "uncertain": uncertain,
        "failed": failed,
        "abstention_share": uncertain / len(items) if items else 0.0,
        "accuracy_on_given": accuracy,
    }


def _cascade_rows(
    offline: Judge,
    items: Sequence[JudgeItem],
    labels: Sequence[int],
    rates: Sequence[float],
    seeds: int,
) -> list[dict[str, Any]]:
    """One row per rate and seed: LLM calls of the cascade and of the LLM alone, and both kappas."""
    keys = [_key(i) for i in items]
    by_key = dict(zip(keys, labels, strict=True))
    rows = []
    for rate in rates:
        for seed in range(seeds):
            wrong = wrong_pairs(keys, rate, seed)
            alone = AgreeingLLM(by_key, wrong, f"agree-{rate}")
            kappa_llm, _ = kappa_of(asyncio.run(alone.ajudge(items)), labels)
            standin = AgreeingLLM(by_key, wrong, f"agree-{rate}")
            verdicts = asyncio.run(CascadeJudge(offline, standin).ajudge(items))
            kappa_cascade, unscored = kappa_of(verdicts, labels)
            rows.append(
                {
                    "rate": rate,
                    "seed": seed,
                    "llm_calls_alone": alone.calls,
                    "llm_calls_cascade": standin.calls,
                    "saved": 1.0 - standin.calls / alone.calls,
                    "kappa_llm": kappa_llm,
                    "kappa_cascade": kappa_cascade,
                    "kappa_gap": kappa_cascade - kappa_llm,
                    "cascade_unscored": unscored,
                }
            )
    return rows


def summarise(rows: Sequence[dict[str, Any]], rates: Sequence[float]) -> dict[str, Any]:
    """Per rate: mean and spread over the seeds, and whether the goal holds (on the means)."""
    summary = {}
    for rate in rates:
        mine = [r for r in rows if r["rate"] == rate]
        cell: dict[str, Any] = {
            name: _spread([r[name] for r in mine]) for name in ("saved", "kappa_llm", "kappa_cascade", "kappa_gap")
        }
        cell["cascade_unscored_max"] = max(r["cascade_unscored"] for r in mine)
        cell["goal_met"] = cell["saved"]["mean"] >= GOAL_SAVED and cell["kappa_gap"]["mean"] >= -GOAL_KAPPA_GAP
        summary[str(rate)] = cell
    return summary


def run(
    offline_name: str,
    rates: Sequence[float],
    seeds: int,
    split_name: str,
    devset: Path,
    bands: Sequence[tuple[float, float]] = (),
) -> dict[str, Any]:
    """Every rate x seed with the offline judge as it is, then with each re-banded abstention band."""
    records = load_devset(devset)
    split = split_devset(records)
    chosen = [r for r in records if split[r["id"]] == split_name or split_name == "all"]
    items = [JudgeItem(query=r["query"], answer=r["answer"], ground_truth=r["ground_truth"]) for r in chosen]
    labels = [int(r["label"]) for r in chosen]
    repeated = len(items) - len({_key(i) for i in items})
    if repeated:
        raise SystemExit(f"{split_name}: {repeated} repeated pair(s); the stand-in needs distinct pairs")
    start = time.perf_counter()
    offline = MemoJudge(build_judge(offline_name))
    profile = offline_profile(offline, items, labels)
    profile["load_and_first_pass_s"] = time.perf_counter() - start
    rows = _cascade_rows(offline, items, labels, rates, seeds)
    banded = []
    for low, high in bands:
        rebanded = RebandedJudge(offline, low, high)
        band_rows = _cascade_rows(rebanded, items, labels, rates, seeds)
        banded.append(
            {
                "band": [low, high],
                "profile": offline_profile(rebanded, items, labels),
                "summary": summarise(band_rows, rates),
            }
        )
    return {
        "offline": offline_name,
        "offline_identity": offline.identity.label(),
        "split": split_name,
        "pairs": len(items),
        "seeds": seeds,
        "profile": profile,
        "summary": summarise(rows, rates),
        "bands": banded,
        "rows": rows,
    }


def _ms(cell: dict[str, float], digits: int = 3) -> str:
    return f"{cell['mean']:.{digits}f} ± {cell['sd']:.{digits}f} [{cell['min']:.{digits}f}, {cell['max']:.{digits}f}]"


def markdown(doc: dict[str, Any]) -> str:
    """The results as a short markdown report."""
    p = doc["profile"]
    lines = [
        f"offline judge: `{doc['offline']}` ({doc['offline_identity']}); split `{doc['split']}`, {doc['pairs']} "
        f"labelled pairs; {doc['seeds']} seeds per rate; threshold {LLM_THRESHOLD}",
        f"offline judge alone: uncertain on {p['uncertain']} ({p['abstention_share']:.1%}), failed on {p['failed']}, "
        f"accuracy on the verdicts it gave {p['accuracy_on_given']:.3f}",
    ]
    if p["uncertain"] == 0:
        lines.append(
            f"NOTE: `{doc['offline']}` never abstained on these pairs: the cascade sends the LLM nothing (except "
            "verdicts that would flip at the LLM's threshold) and its kappa is the offline judge's own. Pass "
            "--offline with an abstaining judge to measure the cascade."
        )
    lines += [
        "",
        "| LLM stand-in agreement | LLM calls saved | kappa, LLM alone | kappa, cascade | kappa gap (cascade - LLM) "
        "| cascade unscored (max) | goal (>= 60% saved, gap >= -0.02) |",
        "|---:|---:|---:|---:|---:|---:|---|",
    ]
    for rate, cell in doc["summary"].items():
        goal = "met" if cell["goal_met"] else "NOT met"
        kappas = f"{_ms(cell['kappa_llm'])} | {_ms(cell['kappa_cascade'])} | {_ms(cell['kappa_gap'])}"
        lines.append(
            f"| {float(rate):.0%} | {cell['saved']['mean']:.1%} | {kappas} | {cell['cascade_unscored_max']} | {goal} |"
        )
    lines.append("")
    lines.append(
        "mean ± sd [min, max] over the seeds; calls saved are the same for every seed (the offline judge is "
        "deterministic)"
    )
    if doc["bands"]:
        rates = list(doc["summary"])
        lines += [
            "",
            "Re-banded (the offline judge's probability, uncertain strictly inside the band; no refit):",
            "",
            "| band | offline uncertain | offline accuracy on given | LLM calls saved | "
            + " | ".join(f"kappa gap at {float(r):.0%}" for r in rates)
            + " |",
            "|---|---:|---:|---:|" + "---:|" * len(rates),
        ]
        for b in doc["bands"]:
            p = b["profile"]
            first = b["summary"][rates[0]]
            gaps = " | ".join(_ms(b["summary"][r]["kappa_gap"]) for r in rates)
            lines.append(
                f"| ({b['band'][0]:g}, {b['band'][1]:g}) | {p['abstention_share']:.1%} | {p['accuracy_on_given']:.3f} "
                f"| {first['saved']['mean']:.1%} | {gaps} |"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    offline_names = [n for n, info in JUDGES.items() if info.offline]
    parser.add_argument(
        "--offline",
        default=DEFAULT_JUDGE,
        choices=offline_names,
        help=f"the cascade's offline judge (default: {DEFAULT_JUDGE}, the registry's default)",
    )
    parser.add_argument("--rates", default="0.92,0.97", help="the LLM stand-in's agreement rates with the labels")
    parser.add_argument("--seeds", type=int, default=20, help="seeds per rate (default 20)")
    parser.add_argument(
        "--split",
        default="holdout",
        choices=("dev", "test", "holdout", "all"),
        help="the devset split (default: holdout, pairs the offline model never saw)",
    )
    parser.add_argument("--devset", type=Path, default=DEFAULT_DEVSET)
    parser.add_argument(
        "--bands",
        default="",
        help="also re-band the offline judge's probability, e.g. 0.2-0.8,0.1-0.9 (uncertain strictly inside)",
    )
    parser.add_argument("--json", type=Path, help="also write the rows and summaries as JSON here")
    add_results_arguments(parser)
    args = parser.parse_args(argv)
    recorder = Recorder(args, "bench_cascade", "Cascade judge")
    rates = [float(r) for r in args.rates.split(",") if r.strip()]
    bands = [(float(lo), float(hi)) for lo, hi in (b.split("-") for b in args.bands.split(",") if b.strip())]
    doc = run(args.offline, rates, args.seeds, args.split, args.devset, bands)
    report = markdown(doc)
    print(report)
    if args.json:
        args.json.write_text(json.dumps(doc, indent=2))
    recorder.finish(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
