"""Turn pydantic validation errors into rules and fixes a person can act on.

pydantic says ``Input should be a valid boolean``; a user needs ``must be true or false (JSON
boolean), not a string (got 'false'). Fix: write false without quotes``. The translation
knows the schema (which model a JSON path points into, see :mod:`agentic_core.io.schema_map`)
so that it can name the field's meaning, and suggest a close known key for typos. Unknown keys
(warnings, not errors) are in :mod:`agentic_core.io.unknown_keys`.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from typing import Any, get_args

from pydantic import BaseModel
from pydantic_core import ErrorDetails

from agentic_core.data.schemas import Conversation, Interaction, ParameterRule, RuleKind
from agentic_core.io.render import Loc, json_type, render_path, safe_value
from agentic_core.io.schema_map import CHILDREN, HOME, KNOWN, SHAPE
from agentic_core.io.unknown_keys import SIMILARITY, close_match

# What a field holds, for "required field 'qa_id' is missing (it holds ...)".
_HOLDS: dict[str, str] = {
    "session_id": "the conversation's unique id, a string",
    "assistant_id": "the id of the agent that produced the conversation, a string",
    "conversation": "the list of interactions, the question/answer turns",
    "qa_id": "the interaction's id, a string; repeated attempts at one question share it",
    "query": "the user's question, a string",
    "assistant": "the agent's answer, a string",
    "ground_truth_assistant": "the expected (reference) answer, a string",
    "tool_name": "the name of the tool, a string",
}

# An example to paste, for "add ...".
_EXAMPLE: dict[str, str] = {
    "conversation": '"conversation": [{"qa_id": "...", "query": "...", "assistant": "...", '
    '"ground_truth_assistant": "..."}]',
}

_RULE_KINDS: tuple[str, ...] = get_args(RuleKind)


def _model_at(loc: Loc) -> tuple[type[BaseModel] | None, str]:
    """The model holding the last element of ``loc`` (relative to a record), and that element."""
    model: type[BaseModel] | None = Conversation
    pending: tuple[type[BaseModel], str] | None = None  # a list/dict child waiting for its key
    last = ""
    for i, part in enumerate(loc):
        if i == len(loc) - 1:
            last = str(part)
            if pending is not None:
                # The last element is a list index / dict key: its "holder" is the container.
                return None, last
            return model, last
        if pending is not None:
            model, pending = pending[0], None
            continue
        if model is None or not isinstance(part, str):
            return None, str(loc[-1])
        child = CHILDREN.get((model, part))
        if child is None:
            return None, str(loc[-1])
        if child[1] == "one":
            model = child[0]
        else:
            pending = child
    return model, last


@dataclass(frozen=True, slots=True)
class Explained:
    """A validation problem in words."""

    path: str
    rule: str
    value: str | None
    fix: str


def _number_text(value: Any) -> str | None:
    """The text of a string that holds a plain number (``"0.5"``), else ``None``."""
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return None
        if math.isfinite(number):
            return value.strip()
    return None


def _missing(model: type[BaseModel] | None, name: str, container: Any) -> tuple[str, str]:
    holds = _HOLDS.get(name)
    rule = f"required field {name!r} is missing"
    if holds:
        rule += f" (it holds {holds})"
    if isinstance(container, dict):
        # A close key in the same object is almost always the typo that caused this; a key the model
        # knows (ground_truth_agentic next to a missing ground_truth_assistant) is not a typo.
        known = KNOWN.get(model, frozenset()) if model is not None else frozenset()
        candidates = tuple(k for k in container if isinstance(k, str) and k not in known)
        close = difflib.get_close_matches(name, candidates, n=1, cutoff=SIMILARITY)
        if close:
            return rule, f"rename {close[0]!r} to {name!r}"
    example = _EXAMPLE.get(name, f'"{name}": "..."')
    where = f" to {HOME[model]}" if model is not None else ""
    return rule, f"add {example}{where}"


def _bool_fix(value: Any, name: str) -> str:
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return f"write {value.strip().lower()} without quotes"
    if isinstance(value, str) and value.strip().lower() in ("yes", "no", "y", "n", "1", "0", "on", "off"):
        return "write true or false without quotes"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "write true or false instead of a number"
    if name == "tool_sequence_matters":
        return "write true or false, or remove the key to use the default (false)"
    if name == "optional":
        return "write true or false, or remove the key to use the default (false)"
    return "write true or false without quotes, or remove the key"


def explain_validation_error(err: ErrorDetails, loc: Loc) -> Explained:
    """Explain one pydantic error.

    Args:
        err: The error as returned by ``ValidationError.errors()``.
        loc: Its location *inside the record* (the record index removed).

    Returns:
        The JSON path, the rule, the shortened value (``None`` when not worth showing) and
        the fix.
    """
    kind = err["type"]
    value = err.get("input")
    ctx = err.get("ctx") or {}
    model, name = _model_at(loc)
    path = render_path(loc)
    shown: str | None = safe_value(value)

    if kind == "missing":
        rule, fix = _missing(model, name, value)
        return Explained(path, rule, None, fix)

    if kind == "model_type" or kind == "model_attributes_type":
        target = next((m for m in HOME if m.__name__ == ctx.get("class_name")), None)
        shape = SHAPE.get(target, "{...}") if target is not None else "{...}"
        if not loc:
            rule = f"each record must be a JSON object (one conversation), not {json_type(value)}"
            return Explained(path, rule, shown, f"make each record an object like {shape}")
        if target is ParameterRule and isinstance(value, str) and value in _RULE_KINDS:
            return Explained(
                path,
                f"a parameter rule must be an object, not {json_type(value)}",
                shown,
                f'write {{"rule": "{value}"}}',
            )
        return Explained(
            path, f"must be an object, not {json_type(value)}", shown, f"give an object like {shape}"
        )

    if kind == "bool_type":
        return Explained(
            path,
            f"must be true or false (JSON boolean), not {json_type(value)}",
            shown,
            _bool_fix(value, name),
        )

    if name == "score" and model is Interaction:
        if kind == "float_type":
            text = _number_text(value)
            if text is not None:
                fix = f"write {text} without quotes"
            elif isinstance(value, bool):
                fix = "write 1 or 0 (a number), or remove the score"
            else:
                fix = "give a number in [0, 1], or null (or no 'score' key) when there is no score"
            return Explained(path, f"must be a number in [0, 1], not {json_type(value)}", shown, fix)
        if kind == "finite_number":
            return Explained(
                path,
                "must be a finite number in [0, 1]; NaN and Infinity are not scores",
                shown,
                "give a number in [0, 1], or null (or no 'score' key) when the interaction has no score",
            )
        if kind in ("less_than_equal", "greater_than_equal", "less_than", "greater_than"):
            return Explained(
                path,
                "must be a number in [0, 1]",
                shown,
                "rescale scores to [0, 1] (for example divide a 0-10 grade by 10, a percentage by 100)",
            )

    if model is Interaction and name in ("human_label", "human_score"):
        explained = _explain_human(kind, value, name, path, shown)
        if explained is not None:
            return explained

    if model is ParameterRule or (kind == "value_error" and model is None and "parameter_rules" in loc):
        explained = _explain_rule(kind, value, ctx, name, path, shown, err["msg"])
        if explained is not None:
            return explained

    if kind == "too_short" and name == "conversation":
        return Explained(
            path,
            "a conversation needs at least one interaction",
            shown,
            "add the conversation's interactions, or remove this record",
        )
    if kind == "string_too_short":
        fixes = {
            "session_id": "give each conversation a unique, non-empty session_id",
            "qa_id": "give the interaction an id (repeated attempts at one question share it)",
            "tool_name": "give the tool's name",
        }
        return Explained(path, "must not be empty", shown, fixes.get(name, "give a non-empty string"))
    if kind == "string_type":
        if isinstance(value, int | float) and not isinstance(value, bool):
            fix = f'write "{value}" in quotes'
        elif value is None:
            fix = "give a string; null is not allowed here"
        else:
            fix = "give a string (text in double quotes)"
        return Explained(path, f"must be a string (text in quotes), not {json_type(value)}", shown, fix)
    if kind == "int_type" or kind == "int_from_float":
        if isinstance(value, float) and value.is_integer():
            fix = f"write {int(value)} instead of {value}"
        elif isinstance(value, str) and value.strip().isdigit():
            fix = f"write {value.strip()} without quotes"
        else:
            fix = "give a whole number such as 1, or remove it"
        return Explained(path, f"must be a whole number (JSON integer), not {json_type(value)}", shown, fix)
    if kind == "list_type":
        if isinstance(value, dict) and name in ("conversation", "tools_used", "expected_tools"):
            fix = "wrap the object in [ ] to make a list of one item"
        else:
            fix = "give a list [...]"
        return Explained(path, f"must be a list (JSON array), not {json_type(value)}", shown, fix)
    if kind == "dict_type":
        fixes = {
            "parameters": 'give the parameters as an object of name: value pairs, e.g. {"city": "Paris"}',
            "parameter_rules": (
                'give an object mapping a parameter name to its rule, e.g. {"city": {"rule": "text"}}'
            ),
            "logprobs": "give an object, or remove the key",
        }
        return Explained(
            path,
            f"must be an object (JSON {{...}}), not {json_type(value)}",
            shown,
            fixes.get(name, "give an object"),
        )
    if kind == "float_type":
        return Explained(
            path, f"must be a number, not {json_type(value)}", shown, "give a number without quotes"
        )
    if kind == "finite_number":
        return Explained(path, "must be a finite number (not NaN or Infinity)", shown, "give a finite number")

    message = err["msg"]
    rule = message[:1].lower() + message[1:]
    return Explained(path, rule, shown, "correct the value at this path")


def _explain_rule(
    kind: str, value: Any, ctx: dict[str, Any], name: str, path: str, shown: str | None, msg: str
) -> Explained | None:
    """Errors inside ``parameter_rules`` (``ParameterRule`` forbids unknown keys)."""
    kinds = ", ".join(repr(k) for k in _RULE_KINDS)
    if kind == "literal_error" and name == "rule":
        close = close_match(str(value), _RULE_KINDS) if isinstance(value, str) else None
        fix = f"did you mean {close!r}?" if close else f"use one of {kinds}"
        return Explained(path, f"must be one of {kinds}", shown, fix)
    if kind == "extra_forbidden":
        fields = ", ".join(repr(f) for f in sorted(KNOWN[ParameterRule]))
        close = close_match(name, KNOWN[ParameterRule])
        fix = f"did you mean {close!r}?" if close else "remove it"
        return Explained(
            path, f"{name!r} is not a parameter-rule field (the fields are {fields})", shown, fix
        )
    if kind == "value_error":
        error = ctx.get("error")
        text = str(error) if error is not None else msg
        if "any_of" in text:
            fix = 'add "values": [...] listing the accepted values'
        elif "tolerance" in text:
            fix = 'add "abs_tol" or "rel_tol" greater than 0, e.g. "abs_tol": 0.01'
        else:
            fix = "correct the parameter rule"
        return Explained(path, f"invalid parameter rule: {text}", shown, fix)
    if name in ("abs_tol", "rel_tol"):
        if kind in ("greater_than_equal", "greater_than"):
            return Explained(path, "must be a number >= 0", shown, "give a tolerance >= 0, e.g. 0.01")
        if kind == "finite_number":
            return Explained(path, "must be a finite number >= 0", shown, "give a tolerance >= 0, e.g. 0.01")
    return None


def _explain_human(kind: str, value: Any, name: str, path: str, shown: str | None) -> Explained | None:
    """Errors in a person's verdict: ``human_label`` (0 or 1) or ``human_score`` (a number in [0, 1])."""
    if name == "human_label":
        if isinstance(value, bool):
            fix = f"write {int(value)} instead of {str(value).lower()}"
        elif isinstance(value, str) and value.strip() in ("0", "1"):
            fix = f"write {value.strip()} without quotes"
        elif isinstance(value, float) and value in (0.0, 1.0):
            fix = f"write {int(value)} instead of {value}"
        else:
            fix = "write 1 (the answer is correct) or 0 (incorrect); a graded verdict goes in 'human_score'"
        return Explained(path, "must be 0 or 1 (a person's verdict: incorrect or correct)", shown, fix)
    if kind in ("float_type", "finite_number", "less_than_equal", "greater_than_equal"):
        text = _number_text(value)
        fix = (
            f"write {text} without quotes"
            if text is not None and kind == "float_type"
            else "give a number in [0, 1] (rescale a 1-5 grade as (grade - 1) / 4), or remove the key"
        )
        return Explained(path, "must be a number in [0, 1] (a person's grade of the answer)", shown, fix)
    return None
