"""The ``python -m agentic_core evaluate`` command that reproduces a run's exports (Export page)."""

from __future__ import annotations

import shlex

from agentic_core.agentic_metrics.results import DEFAULT_GOAL_JUDGE, GOAL_JUDGES
from agentic_core.analysis.aggregate import Aggregate
from agentic_core.cli.format_options import option_text
from agentic_core.judges.spec import spec_class_of
from agentic_core.result import EvaluationResult
from agentic_core.settings import DIMENSIONS, SETTINGS


def cli_command(result: EvaluationResult, agg: Aggregate, data: str = "DATA.jsonl", out: str = "exports") -> str:
    """The command producing the same exports as this run and aggregate.

    Args:
        result: The run (its judge identity names the judge).
        agg: The aggregate (its settings become options).
        data: The data path to show (the dashboard does not know where an upload came from).
        out: The output directory to show.
    """
    s = agg.settings
    identity = result.judge_identity
    parts = ["python", "-m", "agentic_core", "evaluate", data]
    spec = spec_class_of(identity)  # None: a judge of the user's own, which no flag names
    if spec is not None:
        parts += ["--judge", spec.judge_name()]
    if spec is not None and not spec.offline:  # the LLM and the cascade: identities with the LLM's provider, model
        if identity.params.get("provider"):
            parts += ["--provider", str(identity.params["provider"])]
        if identity.model:
            parts += ["--model", identity.model]

    def flag(name: str) -> str:
        return SETTINGS[name].flag

    weights = ",".join(f"{n}={w!r}" for n, w in zip(DIMENSIONS, s.tool_weights.as_tuple(), strict=True))
    parts += [
        flag("threshold"), repr(s.threshold),
        flag("k"), str(s.k),
        flag("unit"), s.unit,
        flag("estimator"), s.estimator,
        flag("mode"), s.mode,
        flag("prior"), f"{s.prior_a!r},{s.prior_b!r}",
        flag("ci_level"), repr(s.ci_level),
        flag("seed"), str(s.seed),
        flag("tool_threshold"), repr(s.tool_threshold),
        flag("tool_weights"), weights,
    ]  # fmt: skip
    if s.abstain_band is not None:  # unset: the judge's fitted band, which evaluate uses without the option
        parts += [flag("abstain_band"), f"{s.abstain_band[0]!r},{s.abstain_band[1]!r}"]
    # Said either way: evaluate ignores extra calls by default where the data's format says so (tau-bench).
    parts.append(option_text("ignore_extra_tools", s.ignore_extra_tools))
    for name in ("require_tool_correctness", "unscored_as_incorrect"):
        if getattr(s, name):
            parts.append(flag(name))
    if result.agentic is not None:  # seed 004's metrics, read as the run reports them
        view = result.agentic.view
        parts += ["--metrics", ",".join(result.agentic.metrics), "--tool-call-order", view.order,
                  "--topic-mode", view.mode, "--topic-variant", view.variant]
        goal_kind = result.agentic.goal_judge.split(" ")[0]
        if goal_kind in GOAL_JUDGES and goal_kind != DEFAULT_GOAL_JUDGE:
            parts += ["--goal-judge", goal_kind]
    parts += ["--out", out]
    return shlex.join(parts)
