"""The record twins (agentic_core.io.record_twins) accept exactly what the models accept without an
unknown key, hold the same values, and leave every load report unchanged."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any
from unittest import mock

import numpy as np
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, TypeAdapter, ValidationError

from agentic_core.data.schemas import Conversation
from agentic_core.io import loader, record_stream
from agentic_core.io.conversation_store import ConversationStore
from agentic_core.io.loader import LoadReport, load_bytes, load_records
from agentic_core.io.record_twins import TWINS, is_twin, validate_twins
from agentic_core.io.unknown_keys import iter_model_extras
from tests.io.conftest import as_json, as_jsonl, conversation, interaction, with_tools

_MODELS = TypeAdapter(list[Conversation])


def _full_record() -> dict[str, Any]:
    """A record that sets every field of every twinned model (so every field can be mutated)."""
    turn = with_tools()
    turn["agentic"]["tools_used"][0]["result"] = {"value": 8, "unit": None}
    turn["ground_truth_agentic"]["expected_tools"].append(
        {
            "tool_name": "lookup",
            "parameters": {"q": "x"},
            "step": 2,
            "optional": True,
            "parameter_rules": {
                "q": {"rule": "text"},
                "n": {"rule": "tolerance", "abs_tol": 0.5, "rel_tol": 0.1},
                "k": {"rule": "any_of", "values": ["a", 1]},
            },
        }
    )
    turn.update(observation="seen", logprobs={"a": [0.5]}, score=0.75, human_label=1, human_score=0.5)
    return conversation(
        "s1",
        turn,
        interaction("q2"),
        task_id="t1",
        language="en",
        context="c",
        reference_topics=["maths"],
        reference="8",
    )


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value (keys of objects, indices of arrays), the root excluded."""
    found: list[tuple[Any, ...]] = []
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    for key, child in children:
        found.append((*path, key))
        found.extend(_paths(child, (*path, key)))
    return found


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)  # what orjson reads as an integer
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=3), inner, max_size=2),
    max_leaves=4,
)
# Values a lax validator would convert and a strict one refuses (and their strict twins).
_TRICKY = st.sampled_from(["1", "0.5", "true", "", "x", 1.0, 0.0, 2.0, 1, 0, -1, 0.5, True, False, None, [], {}, [1]])
_VALUES = st.one_of(_TRICKY, _JSON)
_BASE = _full_record()
_PLACES = _paths(_BASE)


@st.composite
def _records(draw: st.DrawFn) -> Any:
    """The full record with a few places changed: a value replaced, a key removed or an unknown key added."""
    record = copy.deepcopy(_BASE)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_PLACES))
        parent: Any = record
        try:
            for key in path[:-1]:
                parent = parent[key]
            if isinstance(parent, list) != isinstance(path[-1], int):
                continue  # an earlier change replaced a list by an object, or the reverse
            action = draw(st.sampled_from(["replace", "remove", "add"]))
            if action == "replace":
                parent[path[-1]] = draw(_VALUES)
            elif action == "remove" and isinstance(parent, dict):
                del parent[path[-1]]
            elif isinstance(parent, dict):
                parent[draw(st.sampled_from(["extra", "tools_usde", "qa_id", "step"]))] = draw(_VALUES)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed or replaced the place
    return orjson.loads(orjson.dumps(record))  # what a load sees: parsed JSON


def _plain(value: Any) -> Any:
    """A twin or a model as nested plain values, field by field (its type kept in the repr)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, BaseModel):
        return {name: _plain(getattr(value, name)) for name in type(value).model_fields}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_records())
def test_the_twins_accept_what_the_models_accept_without_unknown_keys_with_the_same_values(record: Any) -> None:
    try:
        model: Conversation | None = _MODELS.validate_python([record], strict=True)[0]
    except ValidationError:
        model = None
    try:
        twin: Any = validate_twins([record])[0]
    except ValidationError:
        twin = None
    if model is None or list(iter_model_extras(model)):
        assert twin is None
        return
    assert twin is not None
    # repr tells 1 from 1.0 and 0.0 from -0.0, which == does not.
    assert repr(_plain(twin)) == repr(_plain(model))
    assert twin.task_key() == model.task_key()


def test_every_field_of_every_model_has_its_twin() -> None:
    for model, twin in TWINS.items():
        fields = {f.name: f for f in dataclasses.fields(twin)}
        assert list(fields) == list(model.model_fields)
        assert not hasattr(twin(**_required(model)), "__dict__")  # slotted: that is the point


def _required(model: type[BaseModel]) -> dict[str, Any]:
    values = {"tool_name": "t", "qa_id": "q", "query": "", "assistant": "", "ground_truth_assistant": ""}
    values |= {"session_id": "s", "assistant_id": "a", "conversation": [interaction()]}
    return {name: values[name] for name, info in model.model_fields.items() if info.is_required()}


def test_a_model_with_a_validator_is_not_twinned() -> None:
    from pydantic import model_validator

    from agentic_core.io import record_twins

    class Checked(BaseModel):
        x: int

        @model_validator(mode="after")
        def _check(self) -> Checked:
            return self

    with pytest.raises(TypeError, match="has validators"):
        record_twins._twin(Checked, {})


def test_a_twin_is_kept_only_with_its_json_text() -> None:
    record = conversation("s1", with_tools())
    twin = validate_twins([record])[0]
    store = ConversationStore()
    with pytest.raises(TypeError, match="only with its JSON text"):
        store.append(twin, None)
    store.append(twin, orjson.dumps(record))
    assert type(store[0]) is Conversation
    assert store[0] == Conversation.model_validate(record, strict=True)


def _models_only() -> Any:
    """Loads with every record refused by the twins: the model path alone, as before the twins."""
    return mock.patch.object(record_stream, "_accepted_twins", lambda records: [])


def _same_report(got: LoadReport, expected: LoadReport) -> None:
    assert [i.message() for i in got.issues] == [i.message() for i in expected.issues]
    assert got.skipped == expected.skipped
    assert list(got.conversations) == list(expected.conversations)
    a, b = got.conversations.columns, expected.conversations.columns
    assert a.session_ids == b.session_ids and a.task_keys == b.task_keys
    np.testing.assert_array_equal(a.tool_table, b.tool_table)
    assert list(a.tool_components) == list(b.tool_components)
    for name, texts in a.texts.items():
        assert texts.equals(b.texts[name])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_records(), min_size=1, max_size=6), st.booleans())
def test_a_load_reports_the_same_with_and_without_twins(records: list[Any], lines: bool) -> None:
    for number, record in enumerate(records):
        if isinstance(record, dict):
            record["session_id"] = f"s{number}"  # duplicates are the loader's, not the twins'
    data = as_jsonl(records) if lines else as_json(records)
    got = load_bytes("f.jsonl" if lines else "f.json", data)
    with _models_only():
        expected = load_bytes("f.jsonl" if lines else "f.json", data)
    _same_report(got, expected)


def test_clean_records_of_a_file_are_twins_and_records_given_in_memory_are_models() -> None:
    records = [conversation(f"s{i}", with_tools()) for i in range(3)]
    kept: list[Any] = []
    real = record_stream.stream_records

    def spying(name: str, parsed: Any, owned: bool, issues: Any, skipped: Any, keep: Any) -> None:
        def spy(index: int, conv: Any, raw: Any) -> None:
            kept.append(conv)
            keep(index, conv, raw)

        real(name, parsed, owned, issues, skipped, spy)

    with mock.patch.object(loader, "stream_records", spying):
        load_bytes("f.jsonl", as_jsonl(records))
        assert [is_twin(c) for c in kept] == [True] * 3
        kept.clear()
        load_records(records)  # the caller's objects: no exact text to keep, so models
        assert [is_twin(c) for c in kept] == [False] * 3


def test_twins_are_given_up_when_most_records_have_unknown_keys() -> None:
    chunk = record_stream.CHUNK
    records = [conversation(f"s{i}", interaction(), note="kept") for i in range(2 * chunk + 5)]
    calls: list[int] = []
    real = record_stream._accepted_twins

    def counted(batch: list[Any]) -> Any:
        calls.append(len(batch))
        return real(batch)

    with mock.patch.object(record_stream, "_accepted_twins", counted):
        report = load_bytes("f.jsonl", as_jsonl(records))
    assert calls == [chunk]  # the first chunk only: every record was refused
    assert len(report.conversations) == len(records)
    assert sum("unknown key 'note'" in i.message() for i in report.issues) == len(records)


def test_twins_and_their_strict_models_pickle_by_name() -> None:
    import pickle

    record = conversation("s1", _full_record()["conversation"][0])
    twin = validate_twins([record])[0]
    again = pickle.loads(pickle.dumps(twin))
    assert repr(_plain(again)) == repr(_plain(twin))
    rule = twin.conversation[0].ground_truth_agentic.expected_tools[1].parameter_rules["n"]
    assert type(pickle.loads(pickle.dumps(rule))) is type(rule)
