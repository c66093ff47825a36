"""``python -m agentic_core plan``: how many tasks and attempts a decision needs (the planner).

The task population comes from one of: assumed rates (``--mean`` and ``--spread``), an assumed
Beta (``--beta A,B``), a pilot's per-task counts (``--counts FILE``: CSV or JSON with columns ``n``
and ``c``, such as ``tasks.csv`` that ``evaluate --out`` writes) or a stored pilot run
(``--run RUN_ID``). The answer is :func:`agentic_core.stats.planner.plan_evaluation`'s, printed as
text or, with ``--json``, as one JSON document (the :class:`~agentic_core.stats.planner.Plan` fields).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, TextIO, get_args

from agentic_core.common.keywords import keywords_from
from agentic_core.errors import DataError, SettingsError
from agentic_core.settings import SETTINGS, default_of
from agentic_core.stats.planner import DEFAULT_ATTEMPTS, DEFAULT_TASKS, Plan, PlanMetric, plan_evaluation
from agentic_core.stats.planner_sequential import Boundary, sequential_bounds
from agentic_core.stats.planner_variance import TaskPopulation, beta_population, pilot_population, rates_population


def _numbers(text: str, place: str, kind: type = int) -> list:
    try:
        return [kind(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise SettingsError(place, "must be numbers separated by commas", text, "give e.g. 1,2,4,8") from None


def add_plan_parser(sub: argparse._SubParsersAction) -> None:
    """Register the ``plan`` command on the command line's subparsers."""
    plan = sub.add_parser(
        "plan",
        help="how many tasks and attempts: interval half-width, tasks for a target, power of a comparison, cost",
        description="Plan an evaluation from a pilot run or assumed rates: the interval half-width of pass@k / "
        "pass^k over tasks x attempts, the tasks needed for a target half-width or to detect a difference between "
        "two agents on the same tasks, and the judge calls each choice costs.",
    )
    src = plan.add_argument_group("task population (one of)")
    src.add_argument("--mean", type=float, help="assumed mean success rate over tasks, e.g. 0.6")
    src.add_argument("--spread", type=float, help="assumed standard deviation of task success rates, e.g. 0.25")
    src.add_argument("--beta", help="assumed Beta(A,B) of task success rates, e.g. 0.5,0.5 (U-shaped)")
    src.add_argument("--counts", help="a pilot's per-task counts: CSV or JSON with columns n and c")
    src.add_argument("--run", help="a stored pilot run's id (see 'runs list')")
    src.add_argument("--runs-path", help="the history file (default: $AGENTIC_RUNS_PATH, else the user data folder)")
    what = plan.add_argument_group("what to plan")
    what.add_argument("--metric", choices=list(get_args(PlanMetric)), default="pass^k", help="default: pass^k")
    what.add_argument("--k", type=int, default=1, help="the k of pass@k / pass^k (default: 1)")
    for name in ("mode", "target", "estimator"):
        what.add_argument(f"--{name}", choices=list(SETTINGS[name].choices), default=default_of(name))
    what.add_argument("--ci-level", type=float, default=0.95, help="interval level; the test is at 1 - level")
    what.add_argument("--half-width", type=float, help="target interval half-width, e.g. 0.05 for +-5 points")
    what.add_argument("--difference", type=float, help="difference between two agents to detect, e.g. 0.05")
    what.add_argument("--power", type=float, default=0.8, help="power of the comparison (default: 0.8)")
    what.add_argument(
        "--correlation",
        type=float,
        default=0.5,
        help="correlation of the two agents' per-task success (default: 0.5; 0 = unrelated tasks)",
    )
    what.add_argument(
        "--tasks", default=",".join(map(str, DEFAULT_TASKS)), help="task counts of the table, comma-separated"
    )
    what.add_argument("--attempts", default=",".join(map(str, DEFAULT_ATTEMPTS)), help="attempts per task to consider")
    what.add_argument(
        "--interactions", type=float, help="judge calls per attempt (default: the pilot run's interactions, else 1)"
    )
    what.add_argument(
        "--looks",
        type=int,
        default=1,
        help="with --difference: judge the tasks in this many batches and stop early when the answer is clear "
        "(default: 1, no early stop)",
    )
    what.add_argument("--boundary", choices=list(get_args(Boundary)), default="obrien-fleming")
    plan.add_argument("--json", action="store_true", help="print one JSON document on stdout")


def _counts_file(path_text: str) -> TaskPopulation:
    import pandas as pd

    path = Path(path_text).expanduser()
    try:
        frame = pd.read_json(path) if path.suffix.lower() in (".json", ".jsonl") else pd.read_csv(path)
    except (OSError, ValueError) as exc:
        raise DataError(
            f"--counts {path_text}", "must be a readable CSV or JSON table", str(exc), "give tasks.csv from --out"
        ) from None
    missing = [name for name in ("n", "c") if name not in frame.columns]
    if missing:
        raise DataError(
            f"--counts {path_text}",
            "must have columns n (attempts) and c (correct attempts) per task",
            list(frame.columns)[:10],
            "give tasks.csv that 'evaluate --out' writes, or a table with n and c",
        )
    return pilot_population(frame["n"].to_numpy(), frame["c"].to_numpy(), f"--counts {path_text}")


def _population(args: argparse.Namespace) -> tuple[TaskPopulation | object, str]:
    given = [
        name
        for name, present in (
            ("--mean/--spread", args.mean is not None or args.spread is not None),
            ("--beta", args.beta is not None),
            ("--counts", args.counts is not None),
            ("--run", args.run is not None),
        )
        if present
    ]
    if len(given) != 1:
        raise SettingsError(
            "plan",
            "needs exactly one task population",
            given or None,
            "give --mean and --spread, or --beta A,B, or --counts FILE, or --run RUN_ID",
        )
    if args.mean is not None or args.spread is not None:
        if args.mean is None or args.spread is None:
            raise SettingsError("--mean/--spread", "go together", given, "give both, e.g. --mean 0.6 --spread 0.25")
        return rates_population(args.mean, args.spread), "rates"
    if args.beta is not None:
        ab = _numbers(args.beta, "--beta", float)
        if len(ab) != 2:
            raise SettingsError("--beta", "must be two numbers A,B", args.beta, "give e.g. --beta 0.5,0.5")
        return beta_population(ab[0], ab[1]), "beta"
    if args.counts is not None:
        return _counts_file(args.counts), "counts"
    from agentic_core.cli.runs_command import _store, _stored_settings
    from agentic_core.evaluate import aggregate

    store = _store(args)
    payload = store.payload(args.run)
    result = store.open(args.run)
    settings, _ = _stored_settings(payload.settings, result.recommended_threshold)
    return aggregate(result, settings.model_copy(update={"unit": "task"})), "run"


def _text(plan: Plan, out: TextIO) -> None:
    name = plan.metric.replace("k", str(plan.k))
    print(
        f"population: {plan.population}; mean success {plan.mean_success:.3f}, spread {plan.spread:.3f}, "
        f"{name} = {plan.value:.3f}",
        file=out,
    )
    print(f"{plan.mode}, target {plan.target}, {plan.level:.0%} intervals", file=out)
    ts = sorted({c.tasks for c in plan.cells})
    print(f"half-width of {name}; rows: attempts per task, columns: tasks", file=out)
    print("n \\ T  " + "".join(f"{t:>9}" for t in ts), file=out)
    for n in sorted({c.attempts for c in plan.cells}):
        row = [c for c in plan.cells if c.attempts == n]
        cells = "".join(f"{'-' if c.half_width is None else f'±{c.half_width:.3f}':>9}" for c in row)
        print(f"{n:<7}" + cells, file=out)
    for title, reqs, best in (
        (f"for ±{plan.half_width}", plan.for_half_width, plan.cheapest_for_half_width),
        (
            f"to detect a difference of {plan.difference} with power {plan.power:g} (both agents)",
            plan.for_difference,
            plan.cheapest_for_difference,
        ),
    ):
        if reqs is None:
            continue
        print(f"tasks needed {title}:", file=out)
        for r in reqs:
            text = "unreachable" if r.tasks is None else f"{r.tasks:,} tasks, {r.judge_calls:,} judge calls"
            print(f"  n = {r.attempts}: {text}", file=out)
        if best is not None:
            print(f"  cheapest: {best.tasks:,} tasks x {best.attempts} attempts = {best.judge_calls:,} calls", file=out)
    for note in plan.notes:
        print(f"note: {note}", file=out)


def run_plan(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Run ``plan``; returns the exit code.

    Raises:
        AgenticError: a bad option or an unreadable pilot (the caller prints it).
    """
    population, _ = _population(args)
    plan = plan_evaluation(
        population,
        **keywords_from(
            args, "metric", "k", "mode", "target", "estimator", "half_width", "difference", "power", "correlation",
            level="ci_level", interactions_per_attempt="interactions",
        ),
        tasks=_numbers(args.tasks, "--tasks"),
        attempts=_numbers(args.attempts, "--attempts"),
    )  # fmt: skip
    early = _early_stopping(plan, args.looks, args.boundary)
    if args.json:
        json.dump({**plan.model_dump(mode="json"), "early_stopping": early}, stdout)
        stdout.write("\n")
    else:
        _text(plan, stdout)
        if early is not None and early["tasks_per_look"] is not None:
            bounds = ", ".join(f"{b:.2f}" for b in early["z_bounds"])
            print(
                f"stop early ({early['boundary']}): judge {early['tasks_per_look']:,} tasks per look, "
                f"{args.looks} looks; stop when |paired z| reaches {bounds}",
                file=stdout,
            )
    return 0


def _early_stopping(plan: Plan, looks: int, boundary: Boundary) -> dict[str, Any] | None:
    """The sequential rule for the cheapest comparison (``None`` without --difference or with one look)."""
    if looks == 1 and boundary == "obrien-fleming":
        return None
    if plan.difference is None:
        raise SettingsError("--looks", "needs --difference (it stops a comparison)", looks, "add --difference 0.05")
    bounds = sequential_bounds(looks, plan.level, boundary)
    best = plan.cheapest_for_difference
    per_look = None if best is None or best.tasks is None else -(-best.tasks // looks)
    return {
        "looks": looks,
        "boundary": boundary,
        "z_bounds": list(bounds),
        "attempts": None if best is None else best.attempts,
        "tasks_per_look": per_look,
    }
