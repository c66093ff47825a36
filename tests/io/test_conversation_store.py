"""Tests of agentic_core.io.conversation_store: the loaded conversations kept as compressed JSON and
validated when read behave like the list of models they replace."""

from __future__ import annotations

import orjson
import pytest

from agentic_core.data.schemas import Conversation
from agentic_core.io import conversation_store
from agentic_core.io.conversation_store import ConversationStore
from agentic_core.io.loader import load_bytes, load_records
from tests.io.conftest import conversation, interaction, with_tools

RECORDS = [conversation(f"s{i}", with_tools(), interaction(score=i / 200)) for i in range(150)]


def _models() -> list[Conversation]:
    return [Conversation.model_validate(r, strict=True) for r in RECORDS]


def _loaded() -> ConversationStore:
    report = load_bytes("data.jsonl", b"\n".join(orjson.dumps(r) for r in RECORDS))
    assert report.ok
    return report.conversations


def test_a_loaded_file_is_kept_as_text_and_reads_back_the_same_models() -> None:
    store, models = _loaded(), _models()
    assert isinstance(store, ConversationStore)
    assert not store._models  # every record kept as JSON text, none as a model
    assert len(store) == len(models) and store.n_interactions == 300
    assert store[0] == models[0] and store[-1] == models[-1] and store[149] == models[149]
    assert store[70:73] == models[70:73] and store[::50] == models[::50]
    assert list(store) == models and store == models and models == list(store)
    assert store != models[:-1] and store != models[::-1]
    with pytest.raises(IndexError):
        store[150]
    with pytest.raises(IndexError):
        store[-151]


def test_reads_are_cached_in_a_small_bounded_cache() -> None:
    store = _loaded()
    first = store[3]
    assert store[3] is first  # a second read is the cached model
    for i in range(conversation_store._CACHE_SIZE + 10):
        store[i]
    assert len(store._cache) <= conversation_store._CACHE_SIZE


def test_models_handed_over_in_memory_are_kept_as_they_are() -> None:
    models = _models()
    store = ConversationStore(models)
    assert store[5] is models[5] and list(store) == models
    report = load_records(RECORDS)
    assert list(report.conversations) == models


def test_a_record_json_cannot_reproduce_is_kept_as_a_model() -> None:
    store = ConversationStore()
    big = conversation("big", interaction(agentic={"tools_used": [{"tool_name": "t", "parameters": {"n": 2**70}}]}))
    model = Conversation.model_validate(big, strict=True)
    store.append(model, big)  # orjson cannot write an integer past 64 bits
    store.append(_models()[0], RECORDS[0])
    assert store[0] is model and store[1] == _models()[0]
    assert store._models.keys() == {0}


def test_columns_are_the_columns_of_the_models() -> None:
    from agentic_core.columnar.columns import columns_of

    kept, built = _loaded().columns, columns_of(_models())
    assert kept.sizes.tolist() == built.sizes.tolist()
    assert kept.session_ids == built.session_ids and kept.task_keys == built.task_keys
    for name in ("qa_id", "query", "answer", "ground_truth"):
        assert kept.text(name) == built.text(name)
    assert kept.scores() == built.scores()
    assert kept.tool_components == built.tool_components
