"""Where each model of a record sits: its place in words, its shape, its child models and its known keys.

The messages about a record need to know the schema: which model a JSON path points into,
where a misplaced key belongs, which keys are known at a given place. This map is that
knowledge, shared by :mod:`agentic_core.io.unknown_keys` and :mod:`agentic_core.io.explain`.
"""

from __future__ import annotations

from pydantic import BaseModel

from agentic_core.data.schemas import (
    Agentic,
    Conversation,
    ExpectedTool,
    GroundTruthAgentic,
    Interaction,
    ParameterRule,
    Telemetry,
    ToolCall,
)

# Where each model lives in a record, for messages ("'expected_tools' belongs in ...").
HOME: dict[type[BaseModel], str] = {
    Conversation: "the conversation object (the top level of a record)",
    Interaction: "each interaction (an item of 'conversation')",
    Agentic: "'agentic'",
    ToolCall: "each call in 'agentic.tools_used'",
    GroundTruthAgentic: "'ground_truth_agentic'",
    ExpectedTool: "each call in 'ground_truth_agentic.expected_tools'",
    ParameterRule: "a parameter rule",
    Telemetry: "'telemetry'",
}

# What each model looks like, for "expected an object like ...".
SHAPE: dict[type[BaseModel], str] = {
    Conversation: '{"session_id": "...", "assistant_id": "...", "conversation": [...]}',
    Interaction: '{"qa_id": "...", "query": "...", "assistant": "...", "ground_truth_assistant": "..."}',
    Agentic: '{"tools_used": [...], "final_answer_uses_tools": true}',
    ToolCall: '{"tool_name": "...", "parameters": {...}, "result": ..., "step": 1}',
    GroundTruthAgentic: '{"expected_tools": [...], "tool_sequence_matters": false}',
    ExpectedTool: '{"tool_name": "...", "parameters": {...}, "step": 1}',
    ParameterRule: '{"rule": "tolerance", "abs_tol": 0.01}',
}

# Child models reached through a field: (model, field) -> (child model, "list" | "dict" | "one").
CHILDREN: dict[tuple[type[BaseModel], str], tuple[type[BaseModel], str]] = {
    (Conversation, "conversation"): (Interaction, "list"),
    (Interaction, "agentic"): (Agentic, "one"),
    (Interaction, "ground_truth_agentic"): (GroundTruthAgentic, "one"),
    (Interaction, "telemetry"): (Telemetry, "one"),
    (Agentic, "tools_used"): (ToolCall, "list"),
    (GroundTruthAgentic, "expected_tools"): (ExpectedTool, "list"),
    (ExpectedTool, "parameter_rules"): (ParameterRule, "dict"),
}

# The keys each model knows (any other key is an unknown key).
KNOWN: dict[type[BaseModel], frozenset[str]] = {m: frozenset(m.model_fields) for m in HOME}

# CHILDREN by parent, for walking a record down: model -> ((field, child model, kind), ...), in CHILDREN's order.
CHILD_FIELDS: dict[type[BaseModel], tuple[tuple[str, type[BaseModel], str], ...]] = {
    model: tuple((name, child, kind) for (parent, name), (child, kind) in CHILDREN.items() if parent is model)
    for model in HOME
}
