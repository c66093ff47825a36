"""Tool weights (four dimensions, normalised before use) and the text forms of weights and priors.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from agentic_core.errors import SettingsError
from agentic_core.settings.choices import DIMENSIONS, PRIORS
from agentic_core.settings.rules import check_prior, check_weight_total


class ToolWeights(BaseModel):
    """Weights of the four tool-correctness dimensions; normalised before use.

    Negative or non-finite weights are errors, and so are weights whose sum overflows (the
    reference implementation crashed on weights whose float sum was not exactly 1; we normalise
    instead, which needs a finite sum). All four at 0 means "do not score
    tool use": no overall tool score, and conversations are judged on their answers alone
    (:attr:`scores_tools`).
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

    @model_validator(mode="after")
    def _finite_sum(self) -> ToolWeights:
        # Checked on the model, not only in from_mapping, so every way of building weights
        # (the CLI's text, the endpoint's object, Python code) refuses an overflowing sum.
        check_weight_total(dict(zip(DIMENSIONS, self.as_tuple(), strict=True)))
        return self

    def as_tuple(self) -> tuple[float, float, float, float]:
        """The raw weights in :data:`DIMENSIONS` order."""
        return (self.selection, self.parameters, self.sequence, self.utilization)

    @property
    def scores_tools(self) -> bool:
        """Whether tool use is scored: some weight is above 0."""
        return sum(self.as_tuple()) > 0

    def normalised(self) -> dict[str, float]:
        """The weights as used: each divided by their sum (all 0 when every weight is 0).

        Where utilization is not assessable for an interaction, the other three are renormalised
        over themselves for that interaction (see :func:`agentic_core.tools.combine`).
        """
        values = self.as_tuple()
        total = sum(values) or 1.0
        return {name: w / total for name, w in zip(DIMENSIONS, values, strict=True)}

    @classmethod
    def from_mapping(cls, weights: Mapping[str, Any], place: str = "tool_weights") -> ToolWeights:
        """Build from a mapping, rejecting unknown names and invalid numbers.

        Missing names keep their default of 0.25 only if *no* name is given; when some are
        given, the missing ones are 0, because a user who writes ``selection=1`` means
        "only selection".

        Raises:
            SettingsError: unknown dimension, negative / non-finite value, or a sum that overflows.
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
        check_weight_total(values, place)
        return cls(**values)

    @classmethod
    def parse(cls, text: str, place: str = "tool_weights") -> ToolWeights:
        """Parse ``"selection=0.4,parameters=0.3,sequence=0.2,utilization=0.1"``.

        Raises:
            SettingsError: malformed text or invalid weights.
        """
        weights: dict[str, str] = {}
        parts = [p.strip() for p in text.split(",") if p.strip()]
        if not parts:
            raise SettingsError(
                place,
                "must name at least one dimension as name=value",
                text,
                "write e.g. selection=0.4,parameters=0.3,sequence=0.2,utilization=0.1, or leave the option out "
                "for equal weights",
            )
        for part in parts:
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
