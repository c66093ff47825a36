"""The settings model: everything applied at aggregation time, validated by the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from agentic_core.errors import SettingsError
from agentic_core.settings.choices import K_MAX, Estimator, KChoice, Mode, Target, UnitChoice
from agentic_core.settings.rules import (
    check_fraction,
    check_k,
    check_level,
    check_n_samples,
    check_prior_value,
    check_seed,
)
from agentic_core.settings.specs import SETTINGS
from agentic_core.settings.weights import ToolWeights


class AggregateSettings(BaseModel):
    """Everything applied at aggregation time (never needs a judge call).

    Attributes:
        threshold: An interaction is correct when its judge score reaches it
            (see :mod:`agentic_core.common.passing`).
        tool_threshold: Tool use is correct when its overall tool score reaches it.
        tool_weights: Weights of the four tool dimensions.
        ignore_extra_tools: Extra (unexpected) tool calls do not lower selection.
        require_tool_correctness: An interaction is correct only if its tool use is correct too.
        k: The headline K; the curve covers k = 1..K. ``auto`` (the default): the largest k that at
            least 90% of the groups support (n >= k), between 1 and 20.
        unit: Unit of trial; ``auto`` = ``task`` when some task has 2+ attempts, else ``conversation``.
        target: What the intervals are for: ``population`` (the task population the evaluated tasks
            are a sample of; the default) or ``these-tasks`` (exactly these tasks).
        estimator: ``unbiased`` (combinatorial, k <= n only) or ``plug-in`` ((c/n)-based, any k).
        mode: ``frequentist`` (Wilson / bootstrap intervals) or ``bayesian`` (Beta posterior).
        prior_a: Beta prior alpha (1 = uniform, 0.5 = Jeffreys).
        prior_b: Beta prior beta.
        ci_level: Interval level, e.g. 0.95.
        unscored_as_incorrect: Count unscored interactions (judge failures, abstentions) as incorrect instead
            of excluding them.
        seed: Seed for bootstrap / Monte Carlo (results never depend on data order).
        n_samples: Bootstrap resamples / Monte Carlo draws for multi-group intervals.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    threshold: float = 0.7
    tool_threshold: float = 1.0
    tool_weights: ToolWeights = Field(default_factory=ToolWeights)
    ignore_extra_tools: bool = False
    require_tool_correctness: bool = False
    k: KChoice = "auto"
    unit: UnitChoice = "auto"
    target: Target = "population"
    estimator: Estimator = "unbiased"
    mode: Mode = "frequentist"
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
    def _k(cls, v: object) -> KChoice:
        return "auto" if v == "auto" else check_k(v, maximum=K_MAX)

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
