"""False alarms of the CI gate (``compare A B --fail-if-worse``) on re-runs of the same agent, by simulation.

Run: ``.venv/bin/python benchmarks/bench_gate.py [--sims 2000] [--quick] [--write-results]``.

A *re-run* is the same agent run again: the same true per-task success probabilities, fresh attempts.
Whatever the gate says of B against A is then a false alarm, and the gate promises (docs/compare.md)
that it fails such a pair at most 5% of the time, over every metric it checks (the family-wise rate).

The simulated agent has T tasks with p_i ~ Beta(0.5, 0.5) (U-shaped difficulty, as in
``bench_compare_coverage.py``) and n attempts per task and run. An attempt draws u ~ U(0, 1) and is
correct when u < p_i; its tool use draws v, equal to u with probability 1/2 (tool use and answer go
together) and a fresh U(0, 1) otherwise, and scores 1 on tool dimension d when v < q_id =
p_i + (1 - p_i) g_d, g = (0.6, 0.4, 0.5, 0.3) for selection, parameters, sequence, utilization, else
0; the overall tool score is their mean (the default equal weights). A task's tool metrics are the
means over its attempts. A and B are two independent runs of this agent; K = min(3, n).

Each pair is compared as ``compare_sides`` compares two runs (success rate, pass@k and pass^k for
k = 1..K, the five tool metrics), and the gate is applied to four metric sets: the success rate;
success rate and pass^K; success rate, pass@K and pass^K; ``all``. *before*: the rule of issue 36's
audit, each metric failing on its own when P(B worse than A) >= 0.95; *after*: the shipped gate,
:func:`agentic_core.analysis.gate.worse_than_baseline` (Holm's step-down over the metrics). The rates
come with their Monte-Carlo standard errors. Seeded: the same command prints the same table.

Speed: the comparison's P(B > A) is the paired t of the per-task differences (:func:`paired_t`, with
the rules of ``compare_counts`` / ``compare_task_means`` for no difference and for a flat one); the
sides' own curve intervals, which the gate never reads but which cost up to half a second per pair,
are not computed. Where a metric's per-task differences are all the same non-zero value (MOVER, which
reads those intervals) the real functions are called. ``tests/analysis/test_gate.py`` checks that
these rows equal the real ones.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentic_core.analysis.compare_runs import TOOL_METRICS, RunComparison
from agentic_core.analysis.gate import WORSE_CONFIDENCE, parse_gate_metrics, worse_than_baseline
from agentic_core.analysis.k_evidence import KEvidence
from agentic_core.stats.compare import (
    MetricComparison,
    PairedComparison,
    compare_counts,
    compare_task_means,
    paired_t,
)
from agentic_core.stats.joint import metric_columns
from agentic_core.stats.kernels import estimates
from benchmarks.results_file import Recorder, add_results_arguments

GAINS = np.array([0.6, 0.4, 0.5, 0.3])
SHARED = 0.5
METRIC_SETS = ("success_rate", "success_rate,pass_pow_k", "success_rate,pass_at_k,pass_pow_k", "all")
CELLS = ((10, 1), (10, 3), (30, 1), (30, 3), (100, 3))
QUICK_CELLS = ((10, 3), (30, 3))


def rerun(rng: np.random.Generator, p: np.ndarray, attempts: int) -> tuple[np.ndarray, np.ndarray]:
    """One run of the agent: correct attempts per task, and per task the means of the five tool metrics."""
    u = rng.random((p.size, attempts))
    v = np.where(rng.random((p.size, attempts)) < SHARED, u, rng.random((p.size, attempts)))
    q = p[:, None] + (1.0 - p[:, None]) * GAINS[None, :]  # (tasks, dimensions)
    dims = (v[:, :, None] < q[:, None, :]).mean(axis=1)  # (tasks, dimensions)
    return (u < p[:, None]).sum(axis=1), np.column_stack([dims, dims.mean(axis=1)])


def _row(metric: str, k: int | None, x: np.ndarray, y: np.ndarray, p: float | None, tasks: int) -> MetricComparison:
    a, b = float(x.mean()), float(y.mean())
    return MetricComparison(metric=metric, k=k, a=a, b=b, delta=b - a, delta_ci=None, p_b_better=p, n_tasks=tasks)


def comparison(
    n: np.ndarray, c_a: np.ndarray, c_b: np.ndarray, tools_a: np.ndarray, tools_b: np.ndarray, k: int
) -> RunComparison:
    """B against A as ``compare_sides`` compares them, with each metric's P(B > A) (the gate's input)."""
    ks = np.arange(1, k + 1)
    ks_all = np.union1d(ks, [1])
    x = metric_columns(*estimates(n, c_a, ks_all, "unbiased"), ks_all, ks)
    y = metric_columns(*estimates(n, c_b, ks_all, "unbiased"), ks_all, ks)
    d = y - x
    names = [("success_rate", None), *(("pass_at_k", j) for j in ks.tolist())]
    names += [("pass_pow_k", j) for j in ks.tolist()]
    _, _, shares = paired_t(d, np.ones(n.size), 0.95)
    flat = np.all(d == d[:1], axis=0)
    exact = None
    rows = []
    for m, (name, kk) in enumerate(names):
        p: float | None = float(shares[m])
        if not d.any():
            p = None  # the same results on every task, every metric: no P(B > A)
        elif flat[m] and d[0, m] == 0.0:
            p = 0.5  # MOVER at delta 0
        elif flat[m]:
            exact = exact or compare_counts(n, c_a, n, c_b, ks.tolist(), n_samples=200)
            p = exact.metrics[m].p_b_better
        rows.append(_row(name, kk, x[:, m], y[:, m], p, n.size))
    tools = []
    for j, name in enumerate(TOOL_METRICS):
        tx, ty = tools_a[:, j], tools_b[:, j]
        dt = ty - tx
        if not dt.any():
            p = None
        elif np.all(dt == dt[0]):
            p = compare_task_means(tx, ty, metric=name, n_samples=200).p_b_better
        else:
            p = float(paired_t(dt[:, None], np.ones(n.size), 0.95)[2][0])
        tools.append(_row(name, None, tx, ty, p, n.size))
    paired = PairedComparison(
        metrics=tuple(rows), n_tasks=n.size, n_excluded=0, excluded_reason=None, mode="frequentist",
        estimator="unbiased", level=0.95,
    )  # fmt: skip
    # Every simulated task has n >= k attempts: pass@k and pass^k are measured at every k up to K.
    most = int(n.max())
    evidence = KEvidence(
        k=k, tasks=n.size, tasks_with_k=int((n >= k).sum()), max_attempts=most, needed=k, measured_up_to=k,
        measured=True,
    )  # fmt: skip
    return RunComparison(
        a_label="A", b_label="B", k=k, paired=paired, tools=tuple(tools), tasks=(), k_evidence=evidence
    )


def fails_one_by_one(cmp: RunComparison, metrics: list[tuple[str, int | None]]) -> bool:
    """The gate before issue 36: any named metric with P(B worse than A) >= 0.95 on its own."""
    rows = {(m.metric, m.k): m for m in cmp.metrics}
    for name, k in metrics:
        row = rows.get((name, cmp.k if name in ("pass_at_k", "pass_pow_k") and k is None else k))
        if row is not None and row.p_b_better is not None and 1.0 - row.p_b_better >= WORSE_CONFIDENCE:
            return True
    return False


def cell(tasks: int, attempts: int, sims: int, seed: int) -> dict[str, tuple[float, float]]:
    """Per metric set, the share of re-runs the gate fails: (before, after)."""
    k = min(3, attempts)
    rng = np.random.default_rng([seed, tasks, attempts])
    n = np.full(tasks, attempts)
    sets = {text: parse_gate_metrics(text) for text in METRIC_SETS}
    before = dict.fromkeys(METRIC_SETS, 0)
    after = dict.fromkeys(METRIC_SETS, 0)
    for _ in range(sims):
        p = rng.beta(0.5, 0.5, tasks)
        (c_a, t_a), (c_b, t_b) = rerun(rng, p, attempts), rerun(rng, p, attempts)
        cmp = comparison(n, c_a, c_b, t_a, t_b, k)
        for text, metrics in sets.items():
            before[text] += fails_one_by_one(cmp, metrics)
            after[text] += bool(worse_than_baseline(cmp, metrics))
    return {text: (before[text] / sims, after[text] / sims) for text in METRIC_SETS}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sims", type=int, default=4000, help="re-run pairs per cell")
    parser.add_argument("--quick", action="store_true", help="fewer cells")
    parser.add_argument("--seed", type=int, default=36)
    add_results_arguments(parser)
    args = parser.parse_args()
    recorder = Recorder(args, "bench_gate", "CI gate: false alarms on re-runs of the same agent")
    cells = QUICK_CELLS if args.quick else CELLS
    se = np.sqrt(0.05 * 0.95 / args.sims)
    print(
        f"Share of re-runs of the same agent that `compare --fail-if-worse METRICS` fails, {args.sims:,} pairs per "
        f"row (Monte-Carlo standard error about {se:.3f} at a rate of 0.05; +- figures are one standard error). "
        "T tasks of n attempts per run, K = min(3, n). before: each metric on its own at P(B worse than A) >= 0.95; "
        "after: Holm's step-down over the metrics (the shipped gate). The gate promises at most 0.05."
    )
    print()
    heads = " | ".join(f"`{text}` before | after" for text in METRIC_SETS)
    print(f"| T | n | K | {heads} | seconds |")
    print("|---:|---:|---:|" + "---:|---:|" * len(METRIC_SETS) + "---:|")
    worst = 0.0
    for tasks, attempts in cells:
        start = time.perf_counter()
        rates = cell(tasks, attempts, args.sims, args.seed)
        parts = []
        for before, after in rates.values():
            worst = max(worst, after)
            parts.append(f"{before:.3f} ± {np.sqrt(before * (1 - before) / args.sims):.3f}")
            parts.append(f"{after:.3f} ± {np.sqrt(after * (1 - after) / args.sims):.3f}")
        print(
            f"| {tasks} | {attempts} | {min(3, attempts)} | {' | '.join(parts)} | {time.perf_counter() - start:.0f} |",
            flush=True,
        )
    print()
    verdict = "holds" if worst <= 0.05 + 2 * se else "MISSES"
    print(f"Highest rate after: {worst:.3f}: the gate {verdict} its 0.05 bound (within two standard errors)")
    recorder.finish()


if __name__ == "__main__":
    main()
