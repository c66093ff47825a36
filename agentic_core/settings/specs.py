"""How the command line and the dashboard show each setting: label, option, help, choices.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import get_args

from agentic_core.errors import AgenticError
from agentic_core.settings.choices import Estimator, Interface, Mode, Target, UnitChoice


@dataclass(frozen=True)
class SettingSpec:
    """How the command line and the dashboard show one setting.

    Attributes:
        name: The :class:`AggregateSettings` field (``prior`` stands for prior_a and prior_b).
        label: The words a page shows ("Unit of trial").
        flag: The command-line option (``--unit``).
        help: One sentence for tooltips and ``--help``.
        choices: The allowed values, for settings with a fixed list.
        choice_labels: Longer words for each choice, for menus.
    """

    name: str
    label: str
    flag: str
    help: str
    choices: tuple[str, ...] = ()
    choice_labels: dict[str, str] = field(default_factory=dict)

    def place(self, interface: Interface) -> str:
        """How this setting is named to the reader of ``interface``."""
        return self.flag if interface == "cli" else f"setting '{self.label}'"


_SPECS = (
    SettingSpec(
        "threshold",
        "Answer threshold",
        "--threshold",
        "An interaction is correct when its judge score is at least this.",
    ),
    SettingSpec(
        "tool_threshold",
        "Tool threshold",
        "--tool-threshold",
        "Tool use is correct when the weighted overall tool score reaches this (1.0 = perfect; the default here, "
        "the CLI's and the Python API's, as in Fair-Forge's metric). The HTTP endpoint's request format (seed "
        "001) defaults to 0.75 instead: set it explicitly to compare numbers across the two.",
    ),
    SettingSpec(
        "tool_weights",
        "Tool weights",
        "--tool-weights",
        "Weights of selection, parameters, sequence and utilization (normalised before use).",
    ),
    SettingSpec(
        "ignore_extra_tools",
        "Ignore extra calls",
        "--ignore-extra-tools",
        "Extra (unexpected) tool calls do not lower the selection score.",
    ),
    SettingSpec(
        "require_tool_correctness",
        "Require correct tool use",
        "--require-tools",
        "An interaction counts as correct only if its tool use also reaches the tool threshold.",
    ),
    SettingSpec(
        "k",
        "K (attempts)",
        "--k",
        "pass@k and pass^k are reported for k = 1..K; 'auto' takes the largest k that at least 90% of the "
        "tasks have attempts for (1 to 20).",
    ),
    SettingSpec(
        "unit",
        "Unit of trial",
        "--unit",
        "What counts as one attempt. 'task' groups conversations with the same task_id (or the same "
        "questions); 'conversation' treats every conversation as an attempt at one task; 'interaction' "
        "scores each conversation over its turns (the reference's semantics).",
        get_args(UnitChoice),
        {
            "auto": "auto (task if tasks repeat)",
            "task": "task (attempts per task)",
            "conversation": "conversation (all = one task)",
            "interaction": "interaction (per conversation, seed 003)",
        },
    ),
    SettingSpec(
        "estimator",
        "Estimator",
        "--estimator",
        "Frequentist point estimates: unbiased (needs k <= attempts) or plug-in (c/n)^k.",
        get_args(Estimator),
    ),
    SettingSpec(
        "mode",
        "Mode",
        "--mode",
        "Frequentist (point estimates with confidence intervals) or Bayesian (posterior means with "
        "credible intervals).",
        get_args(Mode),
    ),
    SettingSpec(
        "target",
        "Target",
        "--target",
        "What an interval is for: the task population the evaluated tasks were drawn from (how the agent "
        "will do on tasks like these), or exactly these tasks (only their finite attempts are uncertain).",
        get_args(Target),
        {"population": "task population", "these-tasks": "these tasks"},
    ),
    SettingSpec("prior", "Prior", "--prior", "Beta prior on each group's success probability."),
    SettingSpec("prior_a", "Prior a", "--prior", "First parameter of the Beta prior."),
    SettingSpec("prior_b", "Prior b", "--prior", "Second parameter of the Beta prior."),
    SettingSpec("ci_level", "Interval level", "--ci", "Level of every interval, e.g. 0.95."),
    SettingSpec(
        "unscored_as_incorrect",
        "Count unscored as incorrect",
        "--unscored-as-incorrect",
        "Judge failures are excluded by default (and counted on screen); this counts them as incorrect.",
    ),
    SettingSpec(
        "abstain_band",
        "Abstention band",
        "--abstain-band",
        "For a judge that gives a probability (the learned judge): it decides only where P(correct) is at or "
        "below LOW or at or above HIGH, and abstains in between (uncertain, unscored). Unset: the judge's fitted "
        "band. LOW = HIGH never abstains. Moving it re-decides the judged items; no judge is called.",
    ),
    SettingSpec("seed", "Seed", "--seed", "Seed of the bootstrap / Monte Carlo (same seed, same numbers)."),
    SettingSpec("n_samples", "Resamples", "--n-samples", "Bootstrap replicates / Monte Carlo draws."),
)
SETTINGS: dict[str, SettingSpec] = {spec.name: spec for spec in _SPECS}
"""Every setting's words for the interfaces, by field name."""


def relabel(error: AgenticError, interface: Interface) -> AgenticError:
    """The same error with its place named as ``interface`` shows the setting.

    ``k`` becomes ``--k`` on the command line and "setting 'K (attempts)'" on a page; a place
    below a setting (``tool_weights.selection``) keeps its tail. Errors about anything else
    are returned unchanged.
    """
    head, _, tail = error.place.partition(".")
    spec = SETTINGS.get(head)
    if spec is None:
        return error
    place = spec.place(interface) + (f" ({tail})" if tail else "")
    return error.at(place)
