"""Tags, note and metadata in the run history: stored, edited, exported, imported, trended; old histories still read."""

from __future__ import annotations

import gzip
import shutil
import sqlite3
from pathlib import Path

import orjson
import pytest

from agentic_core.errors import SettingsError
from agentic_core.evaluate import evaluate
from agentic_core.io.samples import load_sample
from agentic_core.result import EvaluationResult
from agentic_core.runs import ReopenedRuns, RunGrouping, RunStore, RunStoreError, RunTags, TagEdit, run_trend
from agentic_core.runs.store import SCHEMA_VERSION

SCHEMA1 = Path(__file__).parent / "data" / "history_schema1.sqlite3"  # written by main's store (data/README.md)
TAGS = RunTags.checked(["baseline", "nightly"], "before the prompt change", {"model": "gpt-4o", "agent_version": "1.0"})


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    return RunStore(tmp_path / "runs.sqlite3")


@pytest.fixture(scope="module")
def seeds() -> EvaluationResult:
    return evaluate(load_sample("seeds"), "dataset", cache_mode="off")


def _version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def test_tags_are_stored_with_the_run_and_listed(store: RunStore, seeds: EvaluationResult) -> None:
    meta = store.save(seeds, "seed_examples.json", tags=TAGS)
    assert meta.run_tags == TAGS
    listed = store.runs()[0]
    assert (listed.tags, listed.note, listed.metadata) == (list(TAGS.tags), TAGS.note, TAGS.metadata)
    assert store.payload(meta.id).meta.run_tags == TAGS
    assert store.save(seeds, "seed_examples.json").run_tags == RunTags()  # none given, none kept


def test_tags_are_edited_in_place_and_survive_a_rename(store: RunStore, seeds: EvaluationResult) -> None:
    meta = store.save(seeds, "seed_examples.json", tags=TAGS)
    edit = TagEdit(add=["candidate"], remove=["baseline"], note="", set_metadata={"model": "gpt-4o-mini"})
    changed = store.set_tags(meta.id, edit.apply)
    expected = RunTags.checked(["candidate", "nightly"], "", {"model": "gpt-4o-mini", "agent_version": "1.0"})
    assert changed.run_tags == expected
    store.rename(meta.id, "renamed")
    assert store.meta(meta.id).run_tags == changed.run_tags and store.meta(meta.id).name == "renamed"
    assert store.set_tags(meta.id, RunTags()).run_tags == RunTags()  # replacing with nothing clears them
    with pytest.raises(SettingsError, match="--tag"):
        store.set_tags(meta.id, TagEdit(add=["not one word"]).apply)
    assert store.meta(meta.id).run_tags == RunTags()  # a refused change leaves the run as it was
    with pytest.raises(RunStoreError, match="is not in the history"):
        store.set_tags("20990101-000000-dead", TAGS)


def test_export_and_import_keep_the_tags(tmp_path: Path, store: RunStore, seeds: EvaluationResult) -> None:
    meta = store.save(seeds, "seed_examples.json", tags=TAGS)
    other = RunStore(tmp_path / "other.sqlite3")
    imported = other.import_(store.export(meta.id), "run.json.gz")
    assert imported.run_tags == TAGS and other.meta(imported.id).run_tags == TAGS


def test_a_run_file_with_tags_breaking_the_rules_is_refused_by_place(store: RunStore, seeds: EvaluationResult) -> None:
    meta = store.save(seeds, "seed_examples.json")
    document = orjson.loads(gzip.decompress(store.export(meta.id)))
    document["meta"]["metadata"] = {"api_key": "x"}  # hand-edited: a credential's name
    with pytest.raises(SettingsError, match="must not name a credential") as caught:
        store.import_(gzip.compress(orjson.dumps(document)), "edited.json.gz")
    assert caught.value.place == "edited.json.gz: metadata key 'api_key'"
    assert len(store.runs()) == 1


def test_a_history_of_schema_1_is_upgraded_and_keeps_everything(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    shutil.copy(SCHEMA1, path)
    assert _version(path) == 1
    store = RunStore(path)
    assert _version(path) == SCHEMA_VERSION == 3
    runs = store.runs()
    assert sorted(m.name for m in runs) == ["second run", "seed_examples.json · dataset"]
    assert all(m.run_tags == RunTags() for m in runs)  # stored before tags existed: none
    first = next(m for m in runs if m.name != "second run")
    result = store.open(first.id)  # reopened without a judge, its override kept
    assert result.n_interactions == 12 and [o.note for o in result.overrides.values()] == ["wrong"]
    assert store.set_tags(first.id, TAGS).run_tags == TAGS
    assert RunStore(path).meta(first.id).run_tags == TAGS


def test_a_read_only_history_of_schema_1_is_read_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    shutil.copy(SCHEMA1, path)
    before = path.read_bytes()
    store = RunStore(path, read_only=True)
    runs = store.runs()
    assert len(runs) == 2 and store.open(runs[0].id).n_interactions == 12
    with pytest.raises(RunStoreError, match="read-only"):
        store.set_tags(runs[0].id, TAGS)
    assert path.read_bytes() == before and _version(path) == 1


def test_trend_points_carry_the_tags_and_split_per_group(store: RunStore, seeds: EvaluationResult) -> None:
    a = store.save(seeds, "seed_examples.json", tags=RunTags.checked(["gpt"], "", {"model": "gpt-4o"}))
    b = store.save(seeds, "seed_examples.json", tags=RunTags.checked(["claude"], "", {"model": "claude"}))
    c = store.save(seeds, "seed_examples.json", tags=RunTags.checked(["gpt"], "", {"model": "gpt-4o"}))
    cache = ReopenedRuns()
    points = run_trend(store, a.data_fingerprint, cache=cache)
    groups = RunGrouping(by="metadata", key="model").split(points)
    assert {k: [p.run_id for p in v] for k, v in groups.items()} == {"claude": [b.id], "gpt-4o": [a.id, c.id]}
    store.set_tags(b.id, RunTags.checked(["gpt"], "", {"model": "gpt-4o"}))
    again = RunGrouping(by="tag").split(run_trend(store, a.data_fingerprint, cache=cache))  # read afresh, not cached
    assert {k: [p.run_id for p in v] for k, v in again.items()} == {"gpt": [a.id, b.id, c.id]}
