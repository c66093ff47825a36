"""Aggregation settings: everything a slider can change without judging again.

Validation failures are raised as :class:`~agentic_core.errors.SettingsError` naming the
setting, the rule, the value and the fix (pydantic's own messages are translated).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from agentic_core.errors import SettingsError

Unit = Literal["task", "conversation", "interaction"]
UnitChoice = Literal["auto", "task", "conversation", "interaction"]
Estimator = Literal["unbiased", "plug-in"]
Mode = Literal["frequentist", "bayesian"]

DIMENSIONS: tuple[str, str, str, str] = ("selection", "parameters", "sequence", "utilization")


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
    def parse(cls, text: str, place: str = "--tool-weights") -> ToolWeights:
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


class AggregateSettings(BaseModel):
    """Everything applied at aggregation time (never needs a judge call).

    Attributes:
        threshold: An interaction is correct when its judge score >= threshold.
        tool_threshold: Tool use is correct when overall tool score >= tool_threshold (1e-9 tolerance).
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

    threshold: float = Field(default=0.7, ge=0.0, le=1.0, allow_inf_nan=False)
    tool_threshold: float = Field(default=1.0, ge=0.0, le=1.0, allow_inf_nan=False)
    tool_weights: ToolWeights = Field(default_factory=ToolWeights)
    ignore_extra_tools: bool = False
    require_tool_correctness: bool = False
    k: int = Field(default=3, ge=1, le=1000)
    unit: UnitChoice = "auto"
    estimator: Estimator = "unbiased"
    mode: Mode = "bayesian"
    prior_a: float = Field(default=1.0, gt=0.0, allow_inf_nan=False)
    prior_b: float = Field(default=1.0, gt=0.0, allow_inf_nan=False)
    ci_level: float = Field(default=0.95, gt=0.0, lt=1.0, allow_inf_nan=False)
    unscored_as_incorrect: bool = False
    seed: int = 0
    n_samples: int = Field(default=4000, ge=100, le=200_000)

    @field_validator("tool_weights")
    @classmethod
    def _weights_not_all_zero(cls, v: ToolWeights) -> ToolWeights:
        if sum(v.as_tuple()) <= 0:
            raise ValueError("at least one tool weight must be greater than 0")
        return v


_FIXES: dict[str, str] = {
    "threshold": "give a number between 0 and 1, e.g. 0.7",
    "tool_threshold": "give a number between 0 and 1, e.g. 1.0 (perfect) or 0.75",
    "k": "give a whole number k >= 1, e.g. 3",
    "prior_a": "give a positive number: 1 (uniform) or 0.5 (Jeffreys)",
    "prior_b": "give a positive number: 1 (uniform) or 0.5 (Jeffreys)",
    "ci_level": "give a level strictly between 0 and 1, e.g. 0.95",
    "unit": "choose one of auto, task, conversation, interaction",
    "estimator": "choose unbiased or plug-in",
    "mode": "choose frequentist or bayesian",
    "n_samples": "give a whole number between 100 and 200000",
}


def make_settings(**values: Any) -> AggregateSettings:
    """Build :class:`AggregateSettings`, translating validation errors for users.

    ``k`` must be a genuine integer: ``2.5``, ``True`` and ``"3"`` are rejected, not rounded.

    Raises:
        SettingsError: naming the first invalid setting, its rule, value and fix.
    """
    k = values.get("k")
    if k is not None and (isinstance(k, bool) or not isinstance(k, int)):
        raise SettingsError("k", "must be a whole number >= 1", k, _FIXES["k"])
    if isinstance(values.get("tool_weights"), Mapping):
        values["tool_weights"] = ToolWeights.from_mapping(values["tool_weights"])
    try:
        return AggregateSettings(**values)
    except ValidationError as exc:
        err = exc.errors()[0]
        name = ".".join(str(p) for p in err["loc"]) or "settings"
        top = str(err["loc"][0]) if err["loc"] else ""
        raise SettingsError(
            name, err["msg"].lower(), err.get("input"), _FIXES.get(top, "see --help for valid values")
        ) from None
