"""Shared helpers of the agentic_core.tools tests: call builders, scoring shortcuts, weights."""

from __future__ import annotations

from typing import Any

from agentic_core.data.schemas import Agentic, GroundTruthAgentic
from agentic_core.settings import ToolWeights
from agentic_core.tools import ToolComponents, score_tools


def call(name: str, step: int | None = None, result: Any = None, **params: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"tool_name": name, "parameters": params, "step": step}
    if result is not None:
        out["result"] = result
    return out


def exp_call(
    name: str,
    step: int | None = None,
    optional: bool = False,
    rules: dict[str, dict[str, Any]] | None = None,
    **params: Any,
) -> dict[str, Any]:
    return {
        "tool_name": name,
        "parameters": params,
        "step": step,
        "optional": optional,
        "parameter_rules": rules or {},
    }


def ag(*calls: dict[str, Any], flag: bool | None = True) -> Agentic:
    return Agentic.model_validate({"tools_used": list(calls), "final_answer_uses_tools": flag})


def gt(*calls: dict[str, Any], matters: bool = False) -> GroundTruthAgentic:
    return GroundTruthAgentic.model_validate({"expected_tools": list(calls), "tool_sequence_matters": matters})


def score(agentic: Agentic | None, expected: GroundTruthAgentic | None, answer: str = "") -> ToolComponents:
    c = score_tools(agentic, expected, answer)
    assert c is not None
    return c


def agreement_of(expected: dict[str, Any], used: dict[str, Any], rules: dict[str, Any] | None = None) -> float:
    c = score(ag(call("t", **used)), gt(exp_call("t", rules=rules, **expected)))
    assert c.n_matched == 1
    return c.parameters


DEFAULT = ToolWeights()
SKEWED = ToolWeights(selection=0.2, parameters=0.4, sequence=0.3, utilization=0.1)
