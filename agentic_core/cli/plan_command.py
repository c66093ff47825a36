"""``python -m agentic_core plan``: how many tasks and attempts a decision needs (the planner).

The task population comes from one of: assumed rates (``--mean`` and ``--spread``), an assumed
Beta (``--beta A,B``), a pilot's per-task counts (``--counts FILE``: CSV or JSON with columns ``n``
and ``c``, such as ``tasks.csv`` that ``evaluate --out`` writes) or a stored pilot run
(``--run RUN_ID``). The answer is :func:`agentic_core.stats.planner.plan_evaluation`'s, printed as
text or, with ``--json``, as one JSON document (the :class:`~agentic_core.stats.planner.Plan` fields).

Every number is checked against the planner's limits before anything is computed (exit 2 naming the limit),
and ``--counts`` is read through the same bounded reader as ``evaluate`` (devices, binary content and files
past :data:`COUNTS_FILE_MB` refused before they are held). Agent B is described with ``--b-mean/--b-spread``
or ``--b-beta``, else modelled as A shifted by the difference (the plan says which). Judge calls the judge
leaves unscored are counted: ``--unscored-share``, else a pilot run's own share, else the ``--judge``'s.
With ``--half-width``, the human labels the corrected estimate needs (issue 37) are planned next to the tasks and
attempts, from the judge's stated ``--sensitivity`` / ``--specificity`` or its agreement measured on a ``--run``'s
labels (``--json``'s ``labels``).
"""

from __future__ import annotations

import argparse
import io
import json
import math
from pathlib import Path
from typing import Any, TextIO, get_args

from agentic_core.common.keywords import keywords_from
from agentic_core.errors import DataError, SettingsError
from agentic_core.io.bounded_read import UnreadableFile, max_file_mb, read_data_file
from agentic_core.judges.planning import expected_unscored_share
from agentic_core.judges.registry import DEFAULT_JUDGE, JUDGES
from agentic_core.settings import SETTINGS, default_of
from agentic_core.settings.rules import check_k
from agentic_core.stats.plan_labels import PlanLabels, plan_labels
from agentic_core.stats.planner import DEFAULT_ATTEMPTS, DEFAULT_TASKS, Plan, PlanMetric, plan_evaluation
from agentic_core.stats.planner_bounds import (
    MAX_ATTEMPTS,
    MAX_TASKS,
    check_interactions,
    check_unscored_share,
    whole_numbers,
)
from agentic_core.stats.planner_sequential import (
    MAX_LOOKS,
    MIN_BATCH,
    Boundary,
    nominal_levels,
    sequential_bounds,
)
from agentic_core.stats.planner_variance import TaskPopulation, beta_population, pilot_population, rates_population

COUNTS_FILE_MB = 64
"""The largest ``--counts`` file: a table of n and c per task (millions of tasks fit)."""


def _whole(part: str) -> int:
    # "1e6" is a whole number as users write it; 2.5 is not, and is refused rather than rounded.
    try:
        return int(part)
    except ValueError:
        value = float(part)
        if not math.isfinite(value) or not value.is_integer():
            raise
        return int(value)


def _numbers(text: str, place: str, kind: type = int) -> list:
    try:
        return [(_whole if kind is int else kind)(part) for part in text.split(",") if part.strip()]
    except (ValueError, OverflowError):
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
    agent_b = plan.add_argument_group(
        "agent B's tasks, with --difference (default: A shifted by the difference, same concentration)"
    )
    agent_b.add_argument("--b-mean", type=float, help="B's assumed mean success rate over tasks")
    agent_b.add_argument("--b-spread", type=float, help="B's assumed standard deviation of task success rates")
    agent_b.add_argument("--b-beta", help="B's assumed Beta(A,B) of task success rates")
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
    what.add_argument(
        "--attempts",
        default=",".join(map(str, DEFAULT_ATTEMPTS)),
        help="attempts run per task to consider (each at most 1,000)",
    )
    what.add_argument(
        "--interactions", type=float, help="judge calls per attempt (default: the pilot run's interactions, else 1)"
    )
    what.add_argument(
        "--unscored-share",
        type=float,
        help="share of judge calls expected back unscored, 0 to 0.95 (default: the --run pilot's own share, "
        "else the --judge's: learned abstains on the share its fit chose)",
    )
    what.add_argument(
        "--judge",
        choices=list(JUDGES),
        default=DEFAULT_JUDGE,
        help=f"the judge the run will use, for its unscored share (default: {DEFAULT_JUDGE})",
    )
    what.add_argument(
        "--looks",
        type=int,
        default=1,
        help="with --difference: judge the tasks in this many batches and stop early when the answer is clear "
        "(default: 1, no early stop)",
    )
    what.add_argument("--boundary", choices=list(get_args(Boundary)), default="obrien-fleming")
    judge = plan.add_argument_group(
        "human labels for the corrected estimate, with --half-width (default: the judge's agreement measured on "
        "a --run's labels)"
    )
    judge.add_argument("--sensitivity", type=float, help="the judge's stated sensitivity P(says right | right)")
    judge.add_argument("--specificity", type=float, help="the judge's stated specificity P(says wrong | wrong)")
    plan.add_argument("--json", action="store_true", help="print one JSON document on stdout")


def _counts_file(path_text: str) -> TaskPopulation:
    import pandas as pd

    path = Path(path_text).expanduser()
    place = f"--counts {path_text}"
    limit = min(COUNTS_FILE_MB, max_file_mb())
    try:
        data = read_data_file(path, limit)
    except UnreadableFile as err:
        # A counts table has one short row per task: past the limit it is not one (and the data files' limit,
        # 4 GB by default, would hold a sparse file of zeros in memory).
        fix = (
            f"give tasks.csv from 'evaluate --out' (a table of n and c per task, at most {limit} MB)"
            if "limit" in err.what
            else err.fix.replace("data file", "counts table")
        )
        raise DataError(place, err.what, None, fix, show=False) from None
    except OSError as exc:
        raise DataError(
            place, "must be a readable CSV or JSON table", exc.strerror or str(exc), "give tasks.csv from --out"
        ) from None
    try:
        buffer = io.BytesIO(data)
        frame = pd.read_json(buffer) if path.suffix.lower() in (".json", ".jsonl") else pd.read_csv(buffer)
    except (ValueError, UnicodeDecodeError) as exc:
        raise DataError(place, "must be a readable CSV or JSON table", str(exc), "give tasks.csv from --out") from None
    missing = [name for name in ("n", "c") if name not in frame.columns]
    if missing:
        raise DataError(
            place,
            "must have columns n (attempts) and c (correct attempts) per task",
            list(frame.columns)[:10],
            "give tasks.csv that 'evaluate --out' writes, or a table with n and c",
        )
    return pilot_population(frame["n"].to_numpy(), frame["c"].to_numpy(), place)


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
        return _beta(args.beta, "--beta"), "beta"
    if args.counts is not None:
        return _counts_file(args.counts), "counts"
    from agentic_core.cli.runs_command import _store, _stored_settings
    from agentic_core.evaluate import aggregate

    store = _store(args)
    payload = store.payload(args.run)
    result = store.open(args.run)
    settings, _ = _stored_settings(payload.settings, result.recommended_threshold)
    return aggregate(result, settings.model_copy(update={"unit": "task"})), "run"


def _beta(text: str, place: str) -> TaskPopulation:
    ab = _numbers(text, place, float)
    if len(ab) != 2:
        raise SettingsError(place, "must be two numbers A,B", text, f"give e.g. {place} 0.5,0.5")
    try:
        return beta_population(ab[0], ab[1])
    except SettingsError as err:
        raise err.at(f"{place} {err.place}") from None


def _population_b(args: argparse.Namespace) -> TaskPopulation | None:
    """Agent B's population from --b-mean/--b-spread or --b-beta (``None``: A shifted by the difference)."""
    rates = args.b_mean is not None or args.b_spread is not None
    if not rates and args.b_beta is None:
        return None
    if args.difference is None:
        raise SettingsError(
            "--b-mean/--b-spread/--b-beta",
            "describe agent B of a comparison",
            None,
            "add --difference 0.05",
            show=False,
        )
    if rates and args.b_beta is not None:
        raise SettingsError(
            "agent B", "needs one description", None, "give --b-mean and --b-spread, or --b-beta", show=False
        )
    if args.b_beta is not None:
        return _beta(args.b_beta, "--b-beta")
    if args.b_mean is None or args.b_spread is None:
        raise SettingsError(
            "--b-mean/--b-spread", "go together", None, "give both, e.g. --b-mean 0.65 --b-spread 0.2", show=False
        )
    try:
        return rates_population(args.b_mean, args.b_spread)
    except SettingsError as err:
        raise err.at(f"agent B's {err.place}") from None


def _unscored_share(args: argparse.Namespace) -> tuple[float | None, str | None]:
    """--unscored-share, else ``None`` for a pilot run (its own share), else the judge's expected share."""
    if args.unscored_share is not None or args.run is not None:
        return args.unscored_share, None
    return expected_unscored_share(args.judge)


def _text(plan: Plan, out: TextIO) -> None:
    name = plan.metric.replace("k", str(plan.k))
    print(
        f"population: {plan.population}; mean success {plan.mean_success:.3f}, spread {plan.spread:.3f}, "
        f"{name} = {plan.value:.3f}",
        file=out,
    )
    print(f"{plan.mode}, target {plan.target}, {plan.level:.0%} intervals", file=out)
    if plan.agent_b is not None:
        print(f"assumption: {plan.agent_b}", file=out)
    print(
        f"unscored: {plan.unscored_share:.0%} of judge calls ({plan.unscored_source}); each attempt scored with "
        f"probability {plan.scored_attempt_share:.2f}; n below is attempts run per task",
        file=out,
    )
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
    # The early-stopping options are checked before the plan is computed, like every other number.
    if not (isinstance(args.looks, int) and 1 <= args.looks <= MAX_LOOKS):
        raise SettingsError("--looks", f"must be a whole number from 1 to {MAX_LOOKS}", args.looks, "give e.g. 3")
    tasks, attempts = _numbers(args.tasks, "--tasks"), _numbers(args.attempts, "--attempts")
    try:
        # The limits first, before a pilot is read; the planner checks them again (its own callers).
        check_k(args.k, "k", MAX_ATTEMPTS)
        whole_numbers(tasks, "tasks", MAX_TASKS)
        whole_numbers(attempts, "attempts", MAX_ATTEMPTS)
        if args.interactions is not None:
            check_interactions(args.interactions)
        if args.unscored_share is not None:
            check_unscored_share(args.unscored_share)
        population_b = _population_b(args)
        share, share_words = _unscored_share(args)
        population, _ = _population(args)
        plan = _computed_plan(args, population, tasks, attempts, population_b, share, share_words)
    except SettingsError as err:
        raise err.at(_FLAGS.get(err.place, err.place)) from None
    early = _early_stopping(plan, args.looks, args.boundary)
    labels = _labels(args, plan, population)
    if args.json:  # "labels": an added key (issue 37), null without a half-width goal or the judge's agreement
        document = {**plan.model_dump(mode="json"), "early_stopping": early}
        document["labels"] = None if labels is None else labels.model_dump(mode="json")
        json.dump(document, stdout)
        stdout.write("\n")
    else:
        _text(plan, stdout)
        _labels_text(labels, plan, args, stdout)
        if early is not None and early["tasks_per_look"] is not None:
            bounds = ", ".join(f"{b:.2f}" for b in early["t_bounds"])
            print(
                f"stop early ({early['boundary']}): judge {early['tasks_per_look']:,} tasks per look, "
                f"{args.looks} looks; stop when |paired t| reaches {bounds} (t boundaries for "
                f"{early['tasks_per_look']:,} tasks a look) and the exact sign-flip test's P is at most "
                f"{', '.join(f'{p:.2g}' for p in early['nominal_levels'])}",
                file=stdout,
            )
    return 0


def _labels(args: argparse.Namespace, plan: Plan, population: object) -> PlanLabels | None:
    """Labels for the corrected estimate: stated --sensitivity/--specificity, else measured on a --run's labels."""
    stated = (args.sensitivity, args.specificity)
    if (stated[0] is None) != (stated[1] is None):
        raise SettingsError("--sensitivity/--specificity", "go together", stated, "give both, e.g. 0.85 and 0.9")
    if stated[0] is not None:
        return plan_labels(plan, sensitivity=stated[0], specificity=stated[1], agreement="stated")
    reading = getattr(population, "corrected", None)  # a --run pilot: its data's and its stored labels
    if reading is None or reading.sensitivity is None or reading.specificity is None:
        return None
    words = f"measured on {reading.n_labelled} labelled conversations of run {args.run}"
    return plan_labels(plan, sensitivity=reading.sensitivity, specificity=reading.specificity, agreement=words)


def _labels_text(labels: PlanLabels | None, plan: Plan, args: argparse.Namespace, out: TextIO) -> None:
    if plan.half_width is None:
        return
    if labels is None:
        print("human labels: give --sensitivity and --specificity (or a --run with labels) to plan the labels the "
              "corrected estimate needs", file=out)  # fmt: skip
        return
    print(
        f"human labels for ±{plan.half_width} with the corrected estimate (judge sensitivity {labels.sensitivity:.2f}"
        f", specificity {labels.specificity:.2f}, {labels.agreement}; abstains on {labels.abstention_rate:.0%} of "
        "attempts):",
        file=out,
    )
    for row in labels.rows:
        lp = row.plan
        need = "not reached even with every task labelled" if lp.labels is None else f"label {lp.labels:,} {lp.unit}"
        alone = f"the same labels alone ±{lp.half_width_labels_only:.3f}"
        print(f"  n = {row.attempts}, {row.tasks:,} tasks: {need} (±{lp.half_width:.3f}; {alone}; the judge alone is "
              f"off by {lp.judge_bias:+.3f})", file=out)  # fmt: skip
    for note in labels.notes:
        print(f"  note: {note}", file=out)


# The planner's places as this command's flags, so an error names the option to change.
_FLAGS = {
    "k": "--k", "tasks": "--tasks", "attempts": "--attempts", "half-width": "--half-width",
    "difference": "--difference", "power": "--power", "correlation": "--correlation", "ci_level": "--ci-level",
    "interactions per attempt": "--interactions", "unscored share": "--unscored-share",
}  # fmt: skip


def _computed_plan(
    args: argparse.Namespace,
    population: TaskPopulation | object,
    tasks: list[int],
    attempts: list[int],
    population_b: TaskPopulation | None,
    share: float | None,
    share_words: str | None,
) -> Plan:
    return plan_evaluation(
        population,
        **keywords_from(
            args, "metric", "k", "mode", "target", "estimator", "half_width", "difference", "power", "correlation",
            level="ci_level", interactions_per_attempt="interactions",
        ),
        tasks=tasks,
        attempts=attempts,
        population_b=population_b,
        unscored_share=share,
        unscored_source=share_words,
    )  # fmt: skip


def _early_stopping(plan: Plan, looks: int, boundary: Boundary) -> dict[str, Any] | None:
    """The sequential rule for the cheapest comparison (``None`` without --difference or with one look).

    Raises:
        SettingsError: no --difference, or fewer than ``MIN_BATCH`` tasks per look.
    """
    if looks == 1 and boundary == "obrien-fleming":
        return None
    if plan.difference is None:
        raise SettingsError("--looks", "needs --difference (it stops a comparison)", looks, "add --difference 0.05")
    bounds = sequential_bounds(looks, plan.level, boundary)
    best = plan.cheapest_for_difference
    tasks = None if best is None else best.tasks
    per_look = None if tasks is None else -(-tasks // looks)
    if tasks is not None and per_look is not None and per_look < MIN_BATCH:
        most = tasks // MIN_BATCH
        raise SettingsError(
            "--looks",
            f"leaves {per_look} task a look of the plan's {tasks} tasks; the early-stopping rule needs at "
            f"least {MIN_BATCH} tasks a look (a t statistic on one task has no degree of freedom)",
            looks,
            f"give --looks {most} or fewer" if most >= 2 else "judge the planned tasks at once (no --looks)",
        )
    t_bounds = None if per_look is None else sequential_bounds(looks, plan.level, boundary, per_look)
    return {
        "looks": looks,
        "boundary": boundary,
        "z_bounds": list(bounds),
        "attempts": None if best is None else best.attempts,
        "tasks_per_look": per_look,
        "statistic": "paired t",
        "min_tasks_per_look": MIN_BATCH,
        "t_bounds": None if t_bounds is None else list(t_bounds),
        "nominal_levels": None if per_look is None else list(nominal_levels(looks, plan.level, boundary, per_look)),
    }
