"""Tool call accuracy as Ragas defines it (seed 004), value for value, per conversation.

Ragas' ``ToolCallAccuracy`` (``ragas.metrics._tool_call_accuracy``, ragas 0.3) compares the tool calls an
agent made in a whole multi-turn sample with the sample's ``reference_tool_calls``:

1. Both lists empty: 1.0. No call made: 0.0. Calls made but no reference: 0.0.
2. Flexible order (``strict_order=False``): both lists are sorted by (name, then each argument name and
   ``str(value)`` in sorted argument order) before anything else.
3. ``aligned`` = the lists of names are equal (strict) or equal once sorted (flexible); 0 or 1.
4. The i-th reference call is paired with the i-th made call (``zip``: pairs beyond the shorter list are
   dropped). A pair with the same name scores its argument agreement: 1.0 when both have no arguments, 0.0
   when only the reference has none, else the share of the reference's arguments whose ``str(value)`` equals
   the made call's ``str(value)`` exactly (``ExactMatch``; a missing argument counts 0; extra made arguments
   are ignored). A pair with different names scores 0.
5. score = sum of pair scores / number of reference calls, times (compared pairs / reference calls) when
   fewer calls were made than referenced, times ``aligned``.

Because values are compared as Python ``str()``, ``5`` and ``5.0`` differ, ``True`` and ``"True"`` agree,
and two nested objects agree only with the same key order. Those are Ragas' answers and are kept here so
numbers carried over from Ragas stay comparable; the four-dimension tool correctness
(:mod:`agentic_core.tools`) is the workbench's own, structural reading (see the README's comparison).

In the seed format a conversation's made calls are every interaction's ``agentic.tools_used`` in order, and
its reference calls every interaction's ``ground_truth_agentic.expected_tools`` in order (optional ones
included: Ragas has no optional calls). A conversation without any ``ground_truth_agentic`` has no reference
and no tool call accuracy (``None``, never 0 or 1).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from agentic_core.data.schemas import Conversation

ToolCallOrder = Literal["strict", "flexible"]
TOOL_CALL_ORDERS: tuple[ToolCallOrder, ...] = ("strict", "flexible")
"""``strict``: calls must come in the reference's order (Ragas' default); ``flexible``: any order."""

NamedCall = tuple[str, Mapping[str, Any]]
"""A tool call as Ragas sees it: its name and its arguments."""


class ToolCallAccuracy(BaseModel):
    """One conversation's Ragas tool call accuracy and how it came about.

    Attributes:
        value: the score in [0, 1].
        aligned: whether the name sequences align (``False`` makes the value 0).
        made: calls the agent made.
        referenced: reference calls.
        compared: pairs compared (``min(made, referenced)``).
        notes: each reason the value is below 1 (or an edge case), in words.
    """

    model_config = ConfigDict(frozen=True)

    value: float
    aligned: bool
    made: int
    referenced: int
    compared: int
    notes: tuple[str, ...] = ()


def _ragas_text(value: Any) -> str:
    # Ragas compares SingleTurnSample(response=str(pred), reference=str(ref)) with ExactMatch.
    return str(value)


def _order_key(call: NamedCall) -> tuple[str, ...]:
    name, args = call
    key = [name]
    for arg in sorted(args):
        key.extend((arg, _ragas_text(args[arg])))
    return tuple(key)


def argument_agreement(made: Mapping[str, Any], reference: Mapping[str, Any]) -> float:
    """Ragas' argument score of one same-name pair.

    Args:
        made: the made call's arguments.
        reference: the reference call's arguments.

    Returns:
        1.0 when neither has arguments, 0.0 when only the reference has none, else the share of reference
        arguments present in ``made`` with an equal ``str()``.
    """
    if not reference and not made:
        return 1.0
    if not reference:
        return 0.0
    hits = sum(1 for arg, want in reference.items() if arg in made and _ragas_text(made[arg]) == _ragas_text(want))
    return hits / len(reference)


def ragas_tool_call_accuracy(
    made: Sequence[NamedCall], reference: Sequence[NamedCall], order: ToolCallOrder = "strict"
) -> ToolCallAccuracy:
    """Ragas' ``ToolCallAccuracy`` of one sample (see the module docstring for every step).

    Args:
        made: the agent's calls, in the order made.
        reference: the reference calls, in the order expected.
        order: ``strict`` (Ragas' default) or ``flexible``.

    Returns:
        The score with the counts and the reasons behind it.
    """
    n_made, n_ref = len(made), len(reference)
    if not made and not reference:
        return ToolCallAccuracy(value=1.0, aligned=True, made=0, referenced=0, compared=0,
                                notes=("no call made and none referenced",))
    if not made:
        return ToolCallAccuracy(value=0.0, aligned=False, made=0, referenced=n_ref, compared=0,
                                notes=(f"no call made, {n_ref} referenced",))
    if not reference:
        return ToolCallAccuracy(value=0.0, aligned=False, made=n_made, referenced=0, compared=0,
                                notes=(f"{n_made} made, but the reference lists no call (Ragas scores 0)",))
    ordered_made = list(made) if order == "strict" else sorted(made, key=_order_key)
    ordered_ref = list(reference) if order == "strict" else sorted(reference, key=_order_key)
    made_names = [name for name, _ in ordered_made]
    ref_names = [name for name, _ in ordered_ref]
    aligned = made_names == ref_names if order == "strict" else sorted(made_names) == sorted(ref_names)
    notes: list[str] = []
    total = 0.0
    for i, ((ref_name, ref_args), (made_name, made_args)) in enumerate(zip(ordered_ref, ordered_made, strict=False)):
        if ref_name != made_name:
            notes.append(f"call {i + 1}: {made_name!r} where {ref_name!r} was referenced (0)")
            continue
        agreement = argument_agreement(made_args, ref_args)
        if agreement < 1.0:
            notes.append(f"call {i + 1} ({ref_name}): arguments agree {agreement:.2f} (exact text of each value)")
        total += agreement
    compared = min(n_made, n_ref)
    score = total / n_ref
    if compared < n_ref:
        score *= compared / n_ref
        notes.append(f"{n_made} made for {n_ref} referenced: coverage {compared}/{n_ref}")
    elif n_made > n_ref:
        notes.append(f"{n_made - n_ref} more call(s) made than referenced: only the first {n_ref} compared")
    if not aligned:
        notes.append(
            "the call names do not follow the reference's sequence (score 0)"
            if order == "strict"
            else "the call names differ from the reference's as a set with repeats (score 0)"
        )
    return ToolCallAccuracy(
        value=score * aligned, aligned=aligned, made=n_made, referenced=n_ref, compared=compared, notes=tuple(notes)
    )


def conversation_calls(conversation: Conversation) -> tuple[list[NamedCall], list[NamedCall]] | None:
    """The made and reference calls of a conversation, or ``None`` when it has no reference at all."""
    made: list[NamedCall] = []
    reference: list[NamedCall] = []
    has_reference = False
    for turn in conversation.conversation:
        if turn.agentic is not None:
            made.extend((call.tool_name, call.parameters) for call in turn.agentic.tools_used)
        if turn.ground_truth_agentic is not None:
            has_reference = True
            reference.extend((call.tool_name, call.parameters) for call in turn.ground_truth_agentic.expected_tools)
    return (made, reference) if has_reference else None


def conversation_tool_call_accuracy(
    conversations: Iterable[Conversation], order: ToolCallOrder = "strict"
) -> list[ToolCallAccuracy | None]:
    """Ragas' tool call accuracy of each conversation (``None`` where it has no reference calls).

    Args:
        conversations: the conversations, in any order (the result follows it).
        order: ``strict`` or ``flexible``.

    Returns:
        One entry per conversation.
    """
    out: list[ToolCallAccuracy | None] = []
    for conversation in conversations:
        calls = conversation_calls(conversation)
        out.append(None if calls is None else ragas_tool_call_accuracy(*calls, order=order))
    return out
