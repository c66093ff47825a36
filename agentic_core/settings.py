"""Every aggregation setting in one place: its rule, default, choices, label and help.

The command line, the dashboard and the HTTP endpoint derive their options from here: the
choices and defaults from :class:`AggregateSettings` and the :data:`SETTINGS` table, the words
they show from each :class:`SettingSpec`. Each validation rule is one function below, used both
by :class:`AggregateSettings` and by the statistics functions that take the same values, so a
rule and its message exist once.

Errors are :class:`~agentic_core.errors.SettingsError` naming the setting (by its field name),
the rule, the value and the fix. An interface shows the setting in its own words with
:func:`relabel` (``--k`` on the command line, "K (attempts)" on a page).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from agentic_core.errors import AgenticError, SettingsError

Unit = Literal["task", "conversation", "interaction"]
UnitChoice = Literal["auto", "task", "conversation", "interaction"]
Estimator = Literal["unbiased", "plug-in"]
Mode = Literal["frequentist", "bayesian"]
Interface = Literal["cli", "ui"]

DIMENSIONS: tuple[str, str, str, str] = ("selection", "parameters", "sequence", "utilization")
UNIT_DESCRIPTIONS: dict[str, str] = {
    "task": "task: attempts at the same task are grouped; pass@k per task, averaged over tasks",
    "conversation": "conversation: every conversation is one attempt at a single task (n = conversations)",
    "interaction": "interaction: per conversation, its interactions are the attempts (seed-003 compatibility)",
}
"""Each resolved unit of trial in one sentence (exports, the command line's text output)."""
PRIORS: dict[str, tuple[float, float]] = {"uniform": (1.0, 1.0), "jeffreys": (0.5, 0.5)}
"""Named Beta priors (a, b)."""
CI_LEVELS: tuple[float, ...] = (0.8, 0.9, 0.95, 0.99)
"""Interval levels offered as presets (any level strictly between 0 and 1 is valid)."""
K_MAX = 1000
N_SAMPLES_RANGE = (100, 200_000)

_PRIOR_FIX = "give two positive numbers: (1, 1) uniform or (0.5, 0.5) Jeffreys"


# --------------------------------------------------------------------------------------------
# The rules (one function each; AggregateSettings and the statistics functions both call them)
# --------------------------------------------------------------------------------------------


def _numpy_kind(value: object) -> str | None:
    """The dtype kind of a numpy scalar (``"i"``, ``"f"``, ...), ``None`` for anything else."""
    if getattr(value, "ndim", None) != 0:
        return None
    kind = getattr(getattr(value, "dtype", None), "kind", None)
    return kind if isinstance(kind, str) else None


def _is_real(value: object) -> bool:
    # bool is an int subclass: True must not silently mean 1.
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return True
    return _numpy_kind(value) in ("i", "u", "f")


def _is_whole(value: object) -> bool:
    if isinstance(value, int) and not isinstance(value, bool):
        return True
    return _numpy_kind(value) in ("i", "u")


def check_k(k: object, place: str = "k", maximum: int | None = None) -> int:
    """k is a genuine whole number >= 1 (``True``, ``2.5``, ``3.0`` and ``"3"`` are rejected, not rounded).

    Args:
        k: The candidate.
        place: The setting or argument named in the error.
        maximum: An upper bound, if any (the settings cap K at :data:`K_MAX`).

    Raises:
        SettingsError: naming ``place``.
    """
    if not _is_whole(k) or int(k) < 1:  # type: ignore[call-overload]
        raise SettingsError(place, "must be a whole number >= 1", k, "give a whole number k >= 1, e.g. 3")
    if maximum is not None and int(k) > maximum:  # type: ignore[call-overload]
        raise SettingsError(place, f"must be at most {maximum}", k, f"give a k between 1 and {maximum}")
    return int(k)  # type: ignore[call-overload]


def check_fraction(value: object, place: str, fix: str = "give a number between 0 and 1, e.g. 0.7") -> float:
    """A finite number in [0, 1] (thresholds, targets, probabilities).

    Raises:
        SettingsError: naming ``place``.
    """
    if not _is_real(value) or not 0.0 <= float(value) <= 1.0:  # type: ignore[arg-type]
        raise SettingsError(place, "must be a number between 0 and 1", value, fix)
    return float(value)  # type: ignore[arg-type]


def check_level(level: object, place: str = "ci_level") -> float:
    """An interval level strictly between 0 and 1.

    Raises:
        SettingsError: naming ``place``.
    """
    if not _is_real(level) or not 0.0 < float(level) < 1.0:  # type: ignore[arg-type]
        raise SettingsError(
            place, "must be a number strictly between 0 and 1", level, "give a level such as 0.95"
        )
    return float(level)  # type: ignore[arg-type]


def check_prior_value(value: object, place: str) -> float:
    """One Beta prior parameter: a finite number > 0.

    Raises:
        SettingsError: naming ``place``.
    """
    if not _is_real(value) or not math.isfinite(float(value)) or float(value) <= 0:  # type: ignore[arg-type]
        raise SettingsError(place, "must be a finite number > 0", value, _PRIOR_FIX)
    return float(value)  # type: ignore[arg-type]


def check_prior(prior: object) -> tuple[float, float]:
    """A Beta prior (a, b) of two finite numbers > 0.

    Raises:
        SettingsError: naming ``prior``, ``prior_a`` or ``prior_b``.
    """
    if not isinstance(prior, (tuple, list)) or len(prior) != 2:
        raise SettingsError("prior", "must be a pair (a, b)", prior, _PRIOR_FIX)
    return check_prior_value(prior[0], "prior_a"), check_prior_value(prior[1], "prior_b")


def check_seed(seed: object) -> int:
    """A whole-number seed (any sign or size).

    Raises:
        SettingsError: naming ``seed``.
    """
    if not _is_whole(seed):
        raise SettingsError("seed", "must be a whole number", seed, "give an integer such as 0")
    return int(seed)  # type: ignore[call-overload]


def check_n_samples(n_samples: object) -> int:
    """Bootstrap replicates / Monte Carlo draws: a whole number in :data:`N_SAMPLES_RANGE`.

    Raises:
        SettingsError: naming ``n_samples``.
    """
    low, high = N_SAMPLES_RANGE
    if not _is_whole(n_samples) or not low <= int(n_samples) <= high:  # type: ignore[call-overload]
        raise SettingsError(
            "n_samples", f"must be a whole number between {low} and {high}", n_samples, "give e.g. 4000"
        )
    return int(n_samples)  # type: ignore[call-overload]


def check_choice(value: object, place: str) -> str:
    """``value`` is one of the choices of setting ``place`` (see :data:`SETTINGS`).

    Raises:
        SettingsError: naming ``place`` and listing the choices.
    """
    choices = SETTINGS[place].choices
    if value not in choices:
        raise SettingsError(place, f"must be one of {', '.join(choices)}", value, f"choose one of {', '.join(choices)}")
    return str(value)


def check_estimator(value: object) -> Estimator:
    """One of the estimators (see :data:`SETTINGS`)."""
    return cast(Estimator, check_choice(value, "estimator"))


def check_mode(value: object) -> Mode:
    """One of the statistical modes (see :data:`SETTINGS`)."""
    return cast(Mode, check_choice(value, "mode"))


# --------------------------------------------------------------------------------------------
# Tool weights
# --------------------------------------------------------------------------------------------


class ToolWeights(BaseModel):
    """Weights of the four tool-correctness dimensions; normalised before use.

    Negative, non-finite or all-zero weights are errors (the reference implementation crashed
    on weights whose float sum was not exactly 1; we normalise instead).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    selection: float = 0.25
    parameters: float = 0.25
    sequence: float = 0.25
    utilization: float = 0.25

    @field_validator("selection", "parameters", "sequence", "utilization")
    @classmethod
    def _finite_non_negative(cls, v: float) -> float:
        if not math.isfinite(v) or v < 0:
            raise ValueError("must be a finite number >= 0")
        return float(v)

    def as_tuple(self) -> tuple[float, float, float, float]:
        """The raw weights in :data:`DIMENSIONS` order."""
        return (self.selection, self.parameters, self.sequence, self.utilization)

    def normalised(self) -> dict[str, float]:
        """The weights as used: each divided by their sum (which validation keeps above 0).

        Where utilization is not assessable for an interaction, the other three are renormalised
        over themselves for that interaction (see :func:`agentic_core.tools.combine`).
        """
        values = self.as_tuple()
        total = sum(values)
        return {name: w / total for name, w in zip(DIMENSIONS, values, strict=True)}

    @classmethod
    def from_mapping(cls, weights: Mapping[str, Any], place: str = "tool_weights") -> ToolWeights:
        """Build from a mapping, rejecting unknown names and all-zero weights.

        Missing names keep their default of 0.25 only if *no* name is given; when some are
        given, the missing ones are 0, because a user who writes ``selection=1`` means
        "only selection".

        Raises:
            SettingsError: unknown dimension, negative / non-finite value, or all zero.
        """
        unknown = sorted(set(weights) - set(DIMENSIONS))
        if unknown:
            raise SettingsError(
                f"{place}.{unknown[0]}",
                f"is not a tool dimension; the dimensions are {', '.join(DIMENSIONS)}",
                unknown[0],
                "use only those four names",
            )
        values: dict[str, Any] = {d: 0.0 for d in DIMENSIONS} if weights else {}
        values.update(weights)
        for name, value in values.items():
            try:
                number = float(value)
            except (TypeError, ValueError):
                raise SettingsError(
                    f"{place}.{name}", "must be a number >= 0", value, "give a number such as 0.25"
                ) from None
            if not math.isfinite(number) or number < 0:
                raise SettingsError(
                    f"{place}.{name}", "must be a finite number >= 0", value, "give a number such as 0.25"
                )
            values[name] = number
        result = cls(**values)
        if sum(result.as_tuple()) <= 0:
            raise SettingsError(
                place,
                "at least one weight must be greater than 0",
                values,
                "give a positive weight to the dimensions you care about",
            )
        return result

    @classmethod
    def parse(cls, text: str, place: str = "tool_weights") -> ToolWeights:
        """Parse ``"selection=0.4,parameters=0.3,sequence=0.2,utilization=0.1"``.

        Raises:
            SettingsError: malformed text or invalid weights.
        """
        weights: dict[str, str] = {}
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            name, sep, value = part.partition("=")
            if not sep:
                raise SettingsError(
                    place,
                    "each item must be name=value",
                    part,
                    "write e.g. selection=0.4,parameters=0.3,sequence=0.2,utilization=0.1",
                )
            weights[name.strip()] = value.strip()
        return cls.from_mapping(weights, place)


def parse_prior(text: str, place: str = "prior") -> tuple[float, float]:
    """``"uniform"``, ``"jeffreys"`` or ``"A,B"`` -> (a, b), validated.

    Raises:
        SettingsError: malformed text or invalid numbers.
    """
    named = PRIORS.get(text.strip().lower())
    if named is not None:
        return named
    try:
        a, b = (float(p) for p in text.split(","))
    except ValueError:
        raise SettingsError(
            place,
            f"must be A,B (two positive numbers) or one of {', '.join(PRIORS)}",
            text,
            "write e.g. 1,1 (uniform) or 0.5,0.5 (Jeffreys)",
        ) from None
    return check_prior((a, b))


# --------------------------------------------------------------------------------------------
# The settings model
# --------------------------------------------------------------------------------------------


class AggregateSettings(BaseModel):
    """Everything applied at aggregation time (never needs a judge call).

    Attributes:
        threshold: An interaction is correct when its judge score reaches it
            (see :mod:`agentic_core.passing`).
        tool_threshold: Tool use is correct when its overall tool score reaches it.
        tool_weights: Weights of the four tool dimensions.
        ignore_extra_tools: Extra (unexpected) tool calls do not lower selection.
        require_tool_correctness: An interaction is correct only if its tool use is correct too.
        k: The headline K; the curve covers k = 1..k.
        unit: Unit of trial; ``auto`` = ``task`` when some task has 2+ attempts, else ``conversation``.
        estimator: ``unbiased`` (combinatorial, k <= n only) or ``plug-in`` ((c/n)-based, any k).
        mode: ``frequentist`` (Wilson / bootstrap intervals) or ``bayesian`` (Beta posterior).
        prior_a: Beta prior alpha (1 = uniform, 0.5 = Jeffreys).
        prior_b: Beta prior beta.
        ci_level: Interval level, e.g. 0.95.
        unscored_as_incorrect: Count judge failures as incorrect instead of excluding them.
        seed: Seed for bootstrap / Monte Carlo (results never depend on data order).
        n_samples: Bootstrap resamples / Monte Carlo draws for multi-group intervals.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    threshold: float = 0.7
    tool_threshold: float = 1.0
    tool_weights: ToolWeights = Field(default_factory=ToolWeights)
    ignore_extra_tools: bool = False
    require_tool_correctness: bool = False
    k: int = 3
    unit: UnitChoice = "auto"
    estimator: Estimator = "unbiased"
    mode: Mode = "bayesian"
    prior_a: float = 1.0
    prior_b: float = 1.0
    ci_level: float = 0.95
    unscored_as_incorrect: bool = False
    seed: int = 0
    n_samples: int = 4000

    # The rules are the functions above: SettingsError propagates through pydantic unchanged.
    @field_validator("threshold", "tool_threshold", mode="before")
    @classmethod
    def _fraction(cls, v: object, info: ValidationInfo) -> float:
        return check_fraction(v, str(info.field_name))

    @field_validator("k", mode="before")
    @classmethod
    def _k(cls, v: object) -> int:
        return check_k(v, maximum=K_MAX)

    @field_validator("prior_a", "prior_b", mode="before")
    @classmethod
    def _prior(cls, v: object, info: ValidationInfo) -> float:
        return check_prior_value(v, str(info.field_name))

    @field_validator("ci_level", mode="before")
    @classmethod
    def _level(cls, v: object) -> float:
        return check_level(v)

    @field_validator("seed", mode="before")
    @classmethod
    def _seed(cls, v: object) -> int:
        return check_seed(v)

    @field_validator("n_samples", mode="before")
    @classmethod
    def _n_samples(cls, v: object) -> int:
        return check_n_samples(v)

    @field_validator("tool_weights", mode="before")
    @classmethod
    def _weights(cls, v: object) -> object:
        return ToolWeights.from_mapping(v) if isinstance(v, Mapping) else v

    @property
    def prior(self) -> tuple[float, float]:
        """The Beta prior ``(prior_a, prior_b)``."""
        return (self.prior_a, self.prior_b)


def default_of(name: str) -> Any:
    """The default value of setting ``name`` (from :class:`AggregateSettings`)."""
    info = AggregateSettings.model_fields[name]
    return info.get_default(call_default_factory=True)


# --------------------------------------------------------------------------------------------
# How interfaces show each setting
# --------------------------------------------------------------------------------------------


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
        "Tool use is correct when the weighted overall tool score reaches this (1.0 = perfect).",
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
    SettingSpec("k", "K (attempts)", "--k", "pass@k and pass^k are reported for k = 1..K."),
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
        "Frequentist (Wilson / bootstrap intervals) or Bayesian (Beta posteriors, credible intervals).",
        get_args(Mode),
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


def make_settings(**values: Any) -> AggregateSettings:
    """Build :class:`AggregateSettings`, translating validation errors for users.

    Raises:
        SettingsError: naming the first invalid setting, its rule, value and fix.
    """
    try:
        return AggregateSettings(**values)
    except ValidationError as exc:
        err = exc.errors()[0]
        name = ".".join(str(p) for p in err["loc"]) or "settings"
        top = str(err["loc"][0]) if err["loc"] else ""
        spec = SETTINGS.get(top)
        if err["type"] == "extra_forbidden":
            fix = f"the settings are {', '.join(AggregateSettings.model_fields)}"
        elif spec is not None and spec.choices:
            fix = f"choose one of {', '.join(spec.choices)}"
        else:
            fix = "give a value of the right kind (see the setting's help)"
        raise SettingsError(name, err["msg"].lower(), err.get("input"), fix) from None
