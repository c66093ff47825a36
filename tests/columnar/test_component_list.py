"""Tests of agentic_core.columnar.component_list: tool components that stay pickled until read."""

from __future__ import annotations

import itertools
import pickle
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core.columnar import component_list
from agentic_core.columnar.component_list import ComponentList
from agentic_core.io.samples import load_sample
from agentic_core.tools import MatchRow, ParamError, ToolComponents, score_interaction


def _travel_components() -> list[ToolComponents | None]:
    report = load_sample("travel")
    return [score_interaction(i) for c in report.conversations for i in c.conversation]


COMPONENTS = _travel_components()
_LOADS = pickle.loads  # the test's own reads, not counted by ``decodes`` (which patches the module)


@pytest.fixture
def decodes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many packs the component list reads back (calls of its ``pickle.loads``)."""
    calls: list[int] = []
    real = pickle.loads

    def spy(data: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(len(data))
        return real(data, *args, **kwargs)

    monkeypatch.setattr(component_list.pickle, "loads", spy)
    yield calls


def test_the_sample_has_every_kind_of_component() -> None:
    # What the tests below round-trip: none, perfect, and ones with every kind of row.
    real = [c for c in COMPONENTS if c is not None]
    assert None in COMPONENTS and real
    assert any(c.param_errors for c in real) and any(c.missing for c in real) and any(c.extra for c in real)
    assert any(m.expected_index is None or m.used_index is None for c in real for m in c.matches)


def test_tool_components_pickle_back_equal_with_their_row_types() -> None:
    back = pickle.loads(pickle.dumps(COMPONENTS, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == COMPONENTS
    for c in back:
        if c is not None:
            assert all(type(m) is MatchRow for m in c.matches)
            assert all(type(e) is ParamError for e in c.param_errors)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, len(COMPONENTS)), max_size=5), st.integers(-3 * len(COMPONENTS), 3 * len(COMPONENTS)))
def test_reads_like_the_list_it_replaces(cuts: list[int], index: int) -> None:
    bounds = [0, *sorted(cuts), len(COMPONENTS)]
    packs = ComponentList()
    for start, end in itertools.pairwise(bounds):
        packs.extend(COMPONENTS[start:end])  # empty parts add no pack
    for built in (packs, pickle.loads(pickle.dumps(packs))):
        assert len(built) == len(COMPONENTS)
        as_list = list(COMPONENTS)
        assert list(built) == as_list and built == as_list and as_list == built  # both sides of ==
        assert built[3:-2:2] == COMPONENTS[3:-2:2]
        if -len(COMPONENTS) <= index < len(COMPONENTS):
            assert built[index] == COMPONENTS[index]
        else:
            with pytest.raises(IndexError):
                built[index]


def test_pickled_packs_are_read_only_when_asked_for_and_once(decodes: list[int]) -> None:
    half = len(COMPONENTS) // 2
    sent = ComponentList(COMPONENTS[:half])
    sent.extend(COMPONENTS[half:])
    received = _LOADS(pickle.dumps(sent))  # what a load worker's parent gets
    assert decodes == []  # the outer pickle only carried bytes
    merged = ComponentList(COMPONENTS[:1])
    merged.extend(received)  # merging keeps them pickled too
    assert len(merged) == len(COMPONENTS) + 1 and decodes == []
    assert merged[half + 1] == COMPONENTS[half]  # the second pack only
    assert len(decodes) == 1
    assert merged[-1] == COMPONENTS[-1] and len(decodes) == 1  # kept once read
    # Sent on now, the packs read are pickled anew and the one not read passes as it was.
    assert _LOADS(pickle.dumps(merged)) == [COMPONENTS[0], *COMPONENTS]
    assert len(decodes) == 4  # the new list read its three packs to compare
    assert list(merged) == [COMPONENTS[0], *COMPONENTS]
    assert len(decodes) == 5  # merged read the one pack it had not read yet


def test_extending_with_itself_doubles_it() -> None:
    doubled = ComponentList(COMPONENTS)
    doubled.extend(doubled)
    assert doubled == COMPONENTS + COMPONENTS


def test_take_keeps_the_marked_components_in_order() -> None:
    received = pickle.loads(pickle.dumps(ComponentList(COMPONENTS)))
    keep = [i % 3 != 1 for i in range(len(COMPONENTS))]
    assert received.take(keep) == [c for c, k in zip(COMPONENTS, keep, strict=True) if k]
    with pytest.raises(ValueError):
        received.take(keep[:-1])  # one flag per component, no silent truncation


def test_is_not_equal_to_other_lengths_or_values_and_not_hashable() -> None:
    built = ComponentList(COMPONENTS)
    assert built != COMPONENTS[:-1]
    assert built != [*COMPONENTS[:-1], None if COMPONENTS[-1] is not None else COMPONENTS[0]]
    assert built != "text" and ComponentList() == []
    with pytest.raises(TypeError):
        hash(built)
