"""Coverage of the corrected (prediction-powered) 95% intervals by simulation, with a judge that errs (issue 37).

Run: ``.venv/bin/python benchmarks/bench_ppi_coverage.py [--sims 400] [--quick] [--jobs 2] [--write-results]``.

Known truth. T tasks, task success probabilities p_i from the coverage grid's laws (Beta(2,5) mostly hard,
Beta(5,2) mostly easy, Beta(0.5,0.5) U-shaped: :mod:`benchmarks.bench_coverage`), n attempts per task
(1 and 4), each attempt truly correct with probability p_i. The judge sees each attempt with a
sensitivity in {0.70, 0.85, 0.95} and a specificity in {0.55, 0.75, 0.95}, and on 30% of attempts it
abstains and gives a probability instead of a verdict, the way the learned judge does (Beta(5, 3) for a
correct attempt, Beta(3, 5) for a wrong one: informative but blurred). Humans label 5%, 10% or 30% of the
tasks (task design: every attempt of a labelled task) or of the attempts (attempt design, n = 4).

Truth (population target): the population mean of the per-task value, exactly from the law: success
rate E[p], pass@K = 1 - E[(1 - p)^K], pass^K = E[p^K] (K = n). Per cell, over the simulated runs:

- coverage of the corrected interval (``corrected_curve``, frequentist, population) for the success
  rate, pass@K and pass^K, and its mean width; runs below the minimum number of labelled tasks give no
  value and are counted apart (the "no value" column);
- the mean width of the labels-only interval (same rules, lambda = 0), over the same runs;
- the coverage of the judge-only interval (the mean of the judge's task values +- t s / sqrt(T), which
  knows nothing of the judge's errors).

``--modes bayesian`` and ``--targets these-tasks`` run the other mode and target on three judges (the
these-tasks truth is the value full labelling of the simulated run gives). A last table checks the label
planner (:func:`agentic_core.stats.label_plan.labels_needed`): the planned number of labelled tasks for a
target half-width, and the half-width and coverage achieved with that many. Seeded: the same command
prints the same tables.
"""

from __future__ import annotations

import argparse
import math
import sys
from multiprocessing import Pool
from pathlib import Path

import numpy as np
from scipy.special import stdtrit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentic_core.stats import corrected_intervals
from agentic_core.stats.corrected import corrected_curve
from agentic_core.stats.corrected_intervals import MIN_LABELLED
from agentic_core.stats.corrected_terms import Conversations, build_terms
from agentic_core.stats.label_plan import labels_needed
from agentic_core.stats.planner_variance import beta_population
from agentic_core.stats.ppi import ppi_mean
from benchmarks.bench_coverage import SHAPES, draw_p, truths
from benchmarks.results_file import Recorder, add_results_arguments

LAWS = ("Beta(2,5)", "Beta(5,2)", "Beta(0.5,0.5)")
TASKS = (40, 200)
ATTEMPTS = (1, 4)
SENSITIVITY = (0.70, 0.85, 0.95)
SPECIFICITY = (0.55, 0.75, 0.95)
SHARES = (0.05, 0.10, 0.30)
SMALL_T_SHARE = 0.5
"""With T = 40 the shares above label 2, 4 and 12 tasks, below the minimum; half the tasks (20) is simulated."""
ABSTAIN = 0.3
"""Share of attempts the judge abstains on (it gives a probability instead of a verdict)."""
FEW_JUDGES = ((0.70, 0.55), (0.85, 0.75), (0.95, 0.95))
"""The judges of the Bayesian and these-tasks tables."""

Cell = tuple[str, int, int, float, float, float, str, str, str, int]

SEED_STREAM: list[int] = []
"""Appended to every cell's seed: ``--cell`` re-checks draw runs independent of the grid's (``[1]``)."""


def judge_values(rng: np.random.Generator, y: np.ndarray, sens: float, spec: float) -> np.ndarray:
    """Per attempt: a verdict with this sensitivity / specificity, or on ABSTAIN of them a probability."""
    verdict = np.where(y == 1, rng.random(y.size) < sens, rng.random(y.size) >= spec).astype(np.float64)
    prob = np.where(y == 1, rng.beta(5.0, 3.0, y.size), rng.beta(3.0, 5.0, y.size))
    return np.where(rng.random(y.size) < ABSTAIN, prob, verdict)


def simulate(rng: np.random.Generator, law: str, tasks: int, attempts: int, sens: float, spec: float):
    """One run: per attempt the truth, the judge's value and the task code."""
    p = draw_p(rng, SHAPES[law], tasks)
    task = np.repeat(np.arange(tasks), attempts)
    y = (rng.random(tasks * attempts) < p[task]).astype(np.float64)
    return y, judge_values(rng, y, sens, spec), task


def labels_of(rng: np.random.Generator, y: np.ndarray, task: np.ndarray, share: float, design: str) -> np.ndarray:
    """Human labels on a uniform random sample of tasks (all their attempts) or of attempts."""
    h = np.full(y.size, np.nan)
    if design == "tasks":
        tasks = int(task.max()) + 1
        chosen = rng.choice(tasks, size=round(share * tasks), replace=False)
        mask = np.isin(task, chosen)
    else:
        mask = np.zeros(y.size, dtype=bool)
        mask[rng.choice(y.size, size=round(share * y.size), replace=False)] = True
    h[mask] = y[mask]
    return h


def metric_values(point) -> list[tuple[float | None, tuple[float, float] | None]]:
    """(estimate, interval) of the success rate, pass@K and pass^K of the largest-k point."""
    return [
        (point.success_rate, point.success_rate_ci),
        (point.pass_at_k, point.pass_at_k_ci),
        (point.pass_pow_k, point.pass_pow_k_ci),
    ]


def judge_only(judge: np.ndarray, task: np.ndarray, ks: list[int]) -> list[tuple[float, float]]:
    """The judge's task values' mean +- t s / sqrt(T): what a report without labels would say."""
    terms = build_terms(Conversations(judge, np.full(judge.size, np.nan), task, None), ks, "tasks", None, None, False)
    out = []
    for col in (0, len(ks), 2 * len(ks)):
        values = terms.judge[:, col]
        values = values[np.isfinite(values)]
        half = float(stdtrit(values.size - 1, 0.975)) * float(values.std(ddof=1)) / math.sqrt(values.size)
        out.append((float(values.mean()) - half, float(values.mean()) + half))
    return out


def full_label_values(y: np.ndarray, task: np.ndarray, ks: list[int]) -> np.ndarray:
    """The these-tasks truth: the metrics from every attempt's true label."""
    terms = build_terms(Conversations(y, np.full(y.size, np.nan), task, None), ks, "tasks", None, None, False)
    cols = (0, len(ks), 2 * len(ks))
    return np.array([float(np.nanmean(terms.judge[:, c])) for c in cols])


def run_cell(cell: Cell) -> tuple[Cell, dict[str, np.ndarray]]:
    """Coverage counts, widths and no-value counts over the simulated runs of one cell."""
    law, tasks, attempts, sens, spec, share, design, mode, target, sims = cell
    ks = sorted({1, attempts})
    a, b, _ = SHAPES[law]
    truth_pop = np.array([float(a) / (float(a) + b), *truths(SHAPES[law], [attempts])])
    seed = [37, LAWS.index(law), tasks, attempts, int(sens * 100), int(spec * 100), int(share * 100)]
    seed += [("tasks", "attempts").index(design), ("frequentist", "bayesian").index(mode)]
    seed += [("population", "these-tasks").index(target), *SEED_STREAM]
    rng = np.random.default_rng(seed)
    acc = {name: np.zeros(3) for name in ("hits", "width", "defined", "human_width", "human_defined", "judge_hits")}
    for sim in range(sims):
        y, judge, task = simulate(rng, law, tasks, attempts, sens, spec)
        human = labels_of(rng, y, task, share, design)
        truth = truth_pop if target == "population" else full_label_values(y, task, ks)
        curve = corrected_curve(judge, human, task, ks, design=design, mode=mode, target=target, seed=sim)  # type: ignore[arg-type]
        got = metric_values(curve.points[-1])
        alone = metric_values(curve.human_only[-1])
        for m in range(3):
            ci = got[m][1]
            if ci is not None:
                acc["defined"][m] += 1
                acc["hits"][m] += ci[0] - 1e-12 <= truth[m] <= ci[1] + 1e-12
                acc["width"][m] += ci[1] - ci[0]
                if alone[m][1] is not None:
                    acc["human_defined"][m] += 1
                    acc["human_width"][m] += alone[m][1][1] - alone[m][1][0]  # type: ignore[index]
        for m, (lo, hi) in enumerate(judge_only(judge, task, ks)):
            acc["judge_hits"][m] += lo <= truth[m] <= hi
    return cell, acc


def _fmt_cov(hits: float, defined: float) -> str:
    return f"{hits / defined:.3f}" if defined else "no value"


def _fmt_width(width: float, defined: float) -> str:
    return f"{width / defined:.3f}" if defined else "-"


def print_rows(results: list[tuple[Cell, dict[str, np.ndarray]]], sims: int) -> float:
    """One row per cell, then how often the corrected interval is the narrower; returns the lowest coverage."""
    print(
        "| law | T | n | design | labelled | sens / spec | coverage: success, pass@K, pass^K | runs with a value | "
        "width corrected | width labels only | judge-only coverage |"
    )
    print("|---|---:|---:|---|---:|---|---|---|---|---|---|")
    lowest = 1.0
    narrower = total = 0
    widest = (0.0, "")
    for cell, acc in results:
        law, tasks, attempts, sens, spec, share, design = cell[:7]
        metrics = [0] if attempts == 1 else [0, 1, 2]
        cov = ", ".join(_fmt_cov(acc["hits"][m], acc["defined"][m]) for m in metrics)
        for m in metrics:
            if acc["defined"][m] >= sims / 2:
                lowest = min(lowest, acc["hits"][m] / acc["defined"][m])
            if acc["defined"][m] and acc["human_defined"][m]:
                ours = acc["width"][m] / acc["defined"][m]
                alone = acc["human_width"][m] / acc["human_defined"][m]
                total += 1
                narrower += ours < alone
                if ours / alone > widest[0]:
                    where = f"{law}, T = {tasks}, n = {attempts}, {design}, {share:.0%}, {sens} / {spec}"
                    widest = (ours / alone, where)
        defined = ", ".join(f"{int(acc['defined'][m])}" for m in metrics)
        width = ", ".join(_fmt_width(acc["width"][m], acc["defined"][m]) for m in metrics)
        human = ", ".join(_fmt_width(acc["human_width"][m], acc["human_defined"][m]) for m in metrics)
        judge = ", ".join(f"{acc['judge_hits'][m] / sims:.3f}" for m in metrics)
        print(
            f"| {law} | {tasks} | {attempts} | {design} | {share:.0%} | {sens:.2f} / {spec:.2f} | {cov} | {defined} | "
            f"{width} | {human} | {judge} |",
            flush=True,
        )
    print(
        f"\nCorrected interval narrower than the labels-only one in {narrower} of {total} values; the widest "
        f"relative to it: {widest[0]:.3f} times ({widest[1]})."
    )
    return lowest


def plan_check(sims: int) -> None:
    """The label planner: planned labelled tasks for a half-width, and what that many achieve."""
    print("\nLabel planner: planned labelled tasks (task design, population, success rate and pass^K) and the")
    print(f"mean half-width and coverage achieved with that many, {sims} simulated runs per row.\n")
    print(
        "| law | T | n | sens / spec | metric | target half-width | planned labels | achieved half-width | coverage |"
    )
    print("|---|---:|---:|---|---|---:|---:|---:|---:|")
    rows = [
        ("Beta(2,5)", 400, 1, 0.85, 0.75, "success rate", 1, 0.06),
        ("Beta(0.5,0.5)", 800, 1, 0.95, 0.95, "success rate", 1, 0.04),
        ("Beta(5,2)", 300, 4, 0.85, 0.75, "success rate", 1, 0.05),
        ("Beta(5,2)", 300, 4, 0.85, 0.75, "pass^k", 4, 0.07),
        ("Beta(0.5,0.5)", 300, 4, 0.70, 0.55, "pass^k", 4, 0.08),
    ]
    for law, tasks, attempts, sens, spec, metric, k, half in rows:
        a, b, _ = SHAPES[law]
        plan = labels_needed(
            sensitivity=sens,
            specificity=spec,
            abstention_rate=ABSTAIN,
            population=beta_population(float(a), b),
            tasks=tasks,
            attempts=attempts,
            half_width=half,
            metric=metric,
            k=k,
            abstention_probabilities=((5.0, 3.0), (3.0, 5.0)),
        )
        if plan.labels is None:
            print(f"| {law} | {tasks} | {attempts} | {sens:.2f} / {spec:.2f} | {metric} | {half} | unreachable | | |")
            continue
        rng = np.random.default_rng([37, 7, tasks, attempts, int(half * 1000)])
        col = 0 if metric == "success rate" else 2
        truth = float(a) / (float(a) + b) if col == 0 else float(truths(SHAPES[law], [k])[1])
        widths, hits = [], 0
        for sim in range(sims):
            y, judge, task = simulate(rng, law, tasks, attempts, sens, spec)
            human = labels_of(rng, y, task, plan.labels / tasks, "tasks")
            point = corrected_curve(judge, human, task, sorted({1, k}), design="tasks", seed=sim).points[-1]
            ci = metric_values(point)[col][1]
            assert ci is not None
            widths.append((ci[1] - ci[0]) / 2)
            hits += ci[0] <= truth <= ci[1]
        print(
            f"| {law} | {tasks} | {attempts} | {sens:.2f} / {spec:.2f} | {metric} | {half} | {plan.labels} | "
            f"{np.mean(widths):.4f} | {hits / sims:.3f} |",
            flush=True,
        )


RULE_CELLS = [
    (law, tasks, attempts, sens, spec, share)
    for share in (0.05, 0.10)
    for law in LAWS
    for tasks, attempts, sens, spec in ((200, 4, 0.85, 0.75),)
] + [
    ("Beta(5,2)", 200, 4, 0.95, 0.95, 0.10),
    ("Beta(0.5,0.5)", 40, 4, 0.85, 0.75, 0.30),
    ("Beta(2,5)", 40, 1, 0.85, 0.75, 0.30),
]
"""Cells of the small-sample table: 10, 12 and 20 labelled tasks (task design, population)."""
RULES = ("ppi-python", "t", "t + jackknife", "shipped rules", "labels only")


def _welch_t(y: np.ndarray, yh: np.ndarray, yh_u: np.ndarray) -> tuple[float, float]:
    """PPI++ with a Student t (Welch) interval and sample variances, nothing else."""
    fit = ppi_mean(y, yh, yh_u)
    n, big_n = y.size, yh_u.size
    a = float(np.var(y - fit.lam * yh, ddof=1)) / n
    b = fit.lam**2 * float(np.var(yh_u, ddof=1)) / big_n
    nu = (a + b) ** 2 / max(a * a / (n - 1) + b * b / (big_n - 1), 1e-300)
    half = float(stdtrit(nu, 0.975)) * math.sqrt(a + b)
    return fit.estimate - half, fit.estimate + half


def rule_cell(args: tuple[tuple[str, int, int, float, float, float], int]) -> tuple[tuple, np.ndarray]:
    """Coverage of each small-sample variant (rows: RULES; columns: success rate, pass@K, pass^K)."""
    (law, tasks, attempts, sens, spec, share), sims = args
    ks = sorted({1, attempts})
    a, b, _ = SHAPES[law]
    truth = np.array([float(a) / (float(a) + b), *truths(SHAPES[law], [attempts])])
    rng = np.random.default_rng([37, 11, LAWS.index(law), tasks, attempts, int(share * 100), int(sens * 100)])
    hits = np.zeros((len(RULES), 3))
    # The shipped rules without the minimum, to show what it guards against (a benchmark-only switch).
    saved, corrected_intervals.MIN_LABELLED = corrected_intervals.MIN_LABELLED, 2
    try:
        for _ in range(sims):
            y, judge, task = simulate(rng, law, tasks, attempts, sens, spec)
            human = labels_of(rng, y, task, share, "tasks")
            terms = build_terms(Conversations(judge, human, task, None), ks, "tasks", None, None, False)
            lab = terms.labelled
            for m, col in enumerate((0, len(ks), 2 * len(ks))):
                y_l, yh_l, yh_u = terms.human[lab, col], terms.judge[lab, col], terms.judge[~lab, col]
                unit2 = 1.0 / attempts**2 if col == 0 else 1.0
                fit = ppi_mean(y_l, yh_l, yh_u)
                intervals = [
                    fit.ci,
                    _welch_t(y_l, yh_l, yh_u),
                    corrected_intervals.ppi_population(y_l, yh_l, yh_u, 0.95, None, 0.0).ci,
                    corrected_intervals.ppi_population(y_l, yh_l, yh_u, 0.95, None, unit2).ci,
                    corrected_intervals.ppi_population(y_l, yh_l, yh_u, 0.95, 0.0, unit2).ci,
                ]
                for r, ci in enumerate(intervals):
                    assert ci is not None
                    hits[r, m] += ci[0] <= truth[m] <= ci[1]
    finally:
        corrected_intervals.MIN_LABELLED = saved
    return (law, tasks, attempts, sens, spec, share), hits / sims


def rules_table(sims: int, jobs: int) -> None:
    """Why the small-sample rules: coverage of PPI++ as ppi-python computes it, then with each rule added."""
    print(
        f"Small samples: coverage of the 95% interval (task design, population) with few labelled tasks, {sims} "
        "simulated runs per cell; success rate, pass@K, pass^K (n = 1: one number). ppi-python: PPI++ with its "
        "normal interval and plug-in variance; t: Student t (Welch) with sample variances; t + jackknife: the "
        "jackknife variance where larger; shipped rules: t, jackknife and the pseudo-observations (what "
        f"`corrected_curve` computes, here without its minimum of {MIN_LABELLED} labelled tasks); labels only: the "
        "shipped rules with lambda = 0.\n"
    )
    print("| law | T | n | sens / spec | labelled tasks | " + " | ".join(RULES) + " |")
    print("|---|---:|---:|---|---:|" + "---|" * len(RULES))
    with Pool(jobs) as pool:
        for (law, tasks, attempts, sens, spec, share), cov in pool.imap(rule_cell, [(c, sims) for c in RULE_CELLS]):
            metrics = [0] if attempts == 1 else [0, 1, 2]
            cells = " | ".join(", ".join(f"{cov[r, m]:.3f}" for m in metrics) for r in range(len(RULES)))
            print(f"| {law} | {tasks} | {attempts} | {sens:.2f} / {spec:.2f} | {round(share * tasks)} | {cells} |")


def grid(mode: str, target: str, sims: int, quick: bool) -> tuple[list[Cell], list[str]]:
    """The cells to simulate, and the task-design cells below the minimum (listed, not simulated)."""
    main_grid = mode == "frequentist" and target == "population"
    judges = FEW_JUDGES if (quick or not main_grid) else [(s, p) for s in SENSITIVITY for p in SPECIFICITY]
    cells: list[Cell] = []
    below: list[str] = []
    for law in LAWS:
        for tasks in TASKS:
            if (quick or not main_grid) and tasks != 200:
                continue
            for attempts in ATTEMPTS:
                for design in ("tasks",) if attempts == 1 else ("tasks", "attempts"):
                    for share in SHARES + ((SMALL_T_SHARE,) if tasks == min(TASKS) and design == "tasks" else ()):
                        if design == "tasks" and round(share * tasks) < MIN_LABELLED:
                            if law == LAWS[0] and attempts == 1:
                                below.append(f"T = {tasks}, {share:.0%} ({round(share * tasks)} tasks)")
                            continue
                        cells += [(law, tasks, attempts, s, p, share, design, mode, target, sims) for s, p in judges]
    return cells, below


def recheck(args: argparse.Namespace) -> None:
    """Cells of the grid again, at ``--sims`` runs each drawn apart from the grid's: is a low cell chance or a flaw?"""
    recorder = Recorder(args, "bench_ppi_coverage-recheck", "Corrected estimates: low cells re-checked (issue 37)")
    SEED_STREAM.append(1)
    cells: list[Cell] = []
    for text in args.cell:
        law, tasks, attempts, design, share, sens, spec, mode, target = text.split(";")
        cells.append((law, int(tasks), int(attempts), float(sens), float(spec), float(share), design, mode, target,
                      args.sims))  # fmt: skip
    se = math.sqrt(0.95 * 0.05 / args.sims)
    print(
        f"The cells of the grids above with a coverage below 0.93, each simulated again with {args.sims} runs drawn "
        f"apart from the grid's (+-{se:.3f} at 0.95); mode and target per row."
    )
    with Pool(args.jobs) as pool:
        results = list(pool.imap(run_cell, cells))
    for cell, result in zip(cells, results, strict=True):
        print(f"\n{cell[7]}, {cell[8]}:")
        print_rows([result], args.sims)
    recorder.finish()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sims", type=int, default=400, help="simulated runs per cell (default 400)")
    parser.add_argument("--side-sims", type=int, default=200, help="runs per cell of the Bayesian / these-tasks tables")
    parser.add_argument("--quick", action="store_true", help="T = 200 and three judges only, 100 runs per cell")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--modes", default="frequentist", help="comma-separated: frequentist,bayesian")
    parser.add_argument("--targets", default="population", help="comma-separated: population,these-tasks")
    parser.add_argument("--plan-sims", type=int, default=200, help="runs per planner row (0: skip the planner)")
    parser.add_argument("--rules", action="store_true", help="only the small-sample table (its own RESULTS.md section)")
    parser.add_argument(
        "--cell",
        action="append",
        default=[],
        help="re-check one cell with fresh runs (repeatable): law;T;n;design;share;sensitivity;specificity;mode;target",
    )
    add_results_arguments(parser)
    args = parser.parse_args()
    if args.cell:
        recheck(args)
        return
    if args.rules:
        recorder = Recorder(args, "bench_ppi_coverage-rules", "Corrected estimates: the small-sample rules (issue 37)")
        rules_table(100 if args.quick else args.sims, args.jobs)
        recorder.finish()
        return
    recorder = Recorder(args, "bench_ppi_coverage", "Corrected estimates: coverage with a judge that errs (issue 37)")
    print(
        f"Corrected 95% intervals (`corrected_curve`). The judge abstains on {ABSTAIN:.0%} of attempts (it gives a "
        "probability). Coverage and widths over the runs that have a value, judge-only coverage over every run. "
        "n = 1: one number (success rate = pass@1 = pass^1); n = 4: success rate, pass@4, pass^4 (attempt design: "
        f"pass@4 and pass^4 need {MIN_LABELLED} tasks with all 4 attempts labelled, which a sample of attempts does "
        "not give: no value)."
    )
    lowest = 1.0
    for mode in args.modes.split(","):
        for target in args.targets.split(","):
            main_grid = mode == "frequentist" and target == "population"
            sims = 100 if args.quick else (args.sims if main_grid else args.side_sims)
            cells, below = grid(mode, target, sims, args.quick)
            se = math.sqrt(0.95 * 0.05 / sims)
            print(f"\n{mode}, {target}: {sims} simulated runs per cell (+-{se:.3f} at 0.95).")
            if below:
                print(
                    f"Task design with fewer than {MIN_LABELLED} labelled tasks gives no value (the minimum-label "
                    f"rule), not simulated: {'; '.join(below)}.\n"
                )
            with Pool(args.jobs) as pool:
                results = list(pool.imap(run_cell, cells))
            lowest = min(lowest, print_rows(results, sims))
    print(f"\nLowest coverage over the cells where at least half the runs have a value: {lowest:.3f}")
    if args.plan_sims:
        plan_check(50 if args.quick else args.plan_sims)
    recorder.finish()


if __name__ == "__main__":
    main()
