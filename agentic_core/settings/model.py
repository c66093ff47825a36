"""The settings model: everything applied at aggregation time, validated by the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from agentic_core.errors import SettingsError
from agentic_core.settings.choices import K_MAX, Estimator, KChoice, Mode, Target, UnitChoice
from agentic_core.settings.rules import (
    check_band,
    check_fraction,
    check_k,
    check_level,
    check_n_samples,
    check_prior_value,
    check_seed,
)
from agentic_core.settings.specs import SETTINGS
from agentic_core.settings.weights import ToolWeights


def _k_or_auto(value: object, place: str) -> KChoice:
    return "auto" if value == "auto" else check_k(value, place, maximum=K_MAX)


_RULES: Final[dict[str, Callable[[object, str], object]]] = {
    "threshold": check_fraction,
    "tool_threshold": check_fraction,
    "k": _k_or_auto,
    "prior_a": check_prior_value,
    "prior_b": check_prior_value,
    "ci_level": check_level,
    "seed": check_seed,
    "n_samples": check_n_samples,
    "abstain_band": check_band,
}
"""The settings a rule of :mod:`agentic_core.settings.rules` checks: setting -> rule(value, setting's name)."""


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
        abstain_band: For a judge that gives a probability (the ``learned`` judge, the cascade's offline
            verdicts): ``(low, high)``, where it decides (P(correct) <= low or >= high, then the threshold
            says which way) and where it abstains (strictly between: uncertain, unscored). ``None`` (the
            default): the judge's own fitted band, its verdicts as given. A band of width 0 never abstains
            (:func:`agentic_core.common.passing.band_decides`).
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
    abstain_band: tuple[float, float] | None = None

    # One validator for every rule-checked setting (the table above): SettingsError propagates through
    # pydantic unchanged, naming the setting.
    @field_validator(*_RULES, mode="before")
    @classmethod
    def _rule(cls, v: object, info: ValidationInfo) -> object:
        place = str(info.field_name)
        return _RULES[place](v, place)

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
