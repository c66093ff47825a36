"""A run's tags, note and metadata: the rules every face shares, the endpoint's and OTLP's forms, filters, groups."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentic_core.errors import SettingsError
from agentic_core.judges.base import JudgeIdentity
from agentic_core.runs import (
    LIMITS,
    RESOURCE_META_PREFIX,
    RESOURCE_NOTE,
    RESOURCE_TAGS,
    RunFilter,
    RunGrouping,
    RunMeta,
    RunTags,
    TagEdit,
    groupings,
    known_metadata,
    known_tags,
    parse_meta_pairs,
    tags_from_resource,
)
from agentic_core.runs.run_tags import CLI_PLACES, MAX_METADATA_KEYS, MAX_NOTE_CHARS, MAX_TAG_CHARS, MAX_TAGS


def test_tags_are_a_sorted_set_and_every_text_is_stripped() -> None:
    tags = RunTags.checked(["prompt-v2", " baseline ", "prompt-v2", "Alpha"], "  a note \n", {"model": " gpt-4o "})
    assert tags.tags == ("Alpha", "baseline", "prompt-v2")
    assert tags.note == "a note" and tags.metadata == {"model": "gpt-4o"}
    assert bool(tags) and not RunTags.checked()


@pytest.mark.parametrize(
    ("tags", "note", "metadata", "place", "rule"),
    [
        (["two words"], "", {}, "tag 1", "one word"),
        (["ok", "a,b"], "", {}, "tag 2", "no spaces or commas"),
        ([""], "", {}, "tag 1", "must not be empty"),
        ([3], "", {}, "tag 1", "must be a string"),
        (["x" * (MAX_TAG_CHARS + 1)], "", {}, "tag 1", f"at most {MAX_TAG_CHARS} characters"),
        ([f"t{i}" for i in range(MAX_TAGS + 1)], "", {}, f"tag {MAX_TAGS + 1}", f"at most {MAX_TAGS} tags"),
        ([], "n" * (MAX_NOTE_CHARS + 1), {}, "note", f"at most {MAX_NOTE_CHARS:,} characters"),
        ([], "bell \x07", {}, "note", "control characters"),
        ([], "", {"1model": "x"}, "metadata key '1model'", "must be a letter then"),
        ([], "", {"model": ""}, "metadata key 'model'", "must not be empty"),
        ([], "", {"model": "a\nb"}, "metadata key 'model'", "one line"),
        ([], "", {"model": 4}, "metadata key 'model'", "must be a string"),
        ([], "", {f"k{i}": "v" for i in range(MAX_METADATA_KEYS + 1)}, f"key 'k{MAX_METADATA_KEYS}'", "too many"),
    ],
)
def test_each_rule_names_the_field_and_the_bound(
    tags: list[object], note: str, metadata: dict[str, object], place: str, rule: str
) -> None:
    with pytest.raises(SettingsError) as caught:
        RunTags.checked(tags, note, metadata)
    assert place in caught.value.place and rule in caught.value.rule and caught.value.fix


def test_the_limits_table_is_the_rules_own() -> None:
    # The table the docs quote is the one the checks use: one past each bound is refused above.
    assert LIMITS["tags"] == MAX_TAGS and LIMITS["tag characters"] == MAX_TAG_CHARS
    assert LIMITS["note characters"] == MAX_NOTE_CHARS and LIMITS["metadata keys"] == MAX_METADATA_KEYS
    RunTags.checked([f"t{i}" for i in range(MAX_TAGS)], "n" * MAX_NOTE_CHARS,
                    {f"k{i}": "v" * LIMITS["value characters"] for i in range(MAX_METADATA_KEYS)})  # fmt: skip


@pytest.mark.parametrize("key", ["api_key", "OPENAI_API_KEY", "github_token", "db_password", "client_secret"])
def test_a_key_that_names_a_credential_is_refused(key: str) -> None:
    with pytest.raises(SettingsError, match="must not name a credential"):
        RunTags.checked(metadata={key: "x"}, places=CLI_PLACES)


@pytest.mark.parametrize(
    "value",
    [
        "sk-proj-abcdefghijklmnopqrstuvwxyz012345",
        "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        "AKIAABCDEFGHIJKLMNOP",
        "Bearer abcdefghijklmnopqrstuvwxyz",
    ],
)
def test_a_value_shaped_like_a_key_is_refused_without_repeating_it(value: str) -> None:
    for call in (
        lambda: RunTags.checked(metadata={"model": value}),
        lambda: RunTags.checked(note=f"used {value} today"),
    ):
        with pytest.raises(SettingsError, match="must not hold a credential") as caught:
            call()
        assert value not in str(caught.value)


def test_a_secret_the_process_knows_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_SERVICE_TOKEN", "plain-words-not-a-key-shape")
    with pytest.raises(SettingsError, match="must not hold a credential") as caught:
        RunTags.checked(metadata={"model": "plain-words-not-a-key-shape"})
    assert "plain-words" not in str(caught.value)


def test_suggested_keys_and_everyday_values_pass() -> None:
    metadata = {"agent_version": "1.4.2", "model": "gpt-4o-mini", "prompt_hash": "9f2c1e", "git_commit": "a" * 40}
    tags = RunTags.checked(["nightly"], "", metadata)
    assert set(tags.metadata) == {"agent_version", "model", "prompt_hash", "git_commit"}


def test_meta_pairs_split_at_the_first_equals_sign() -> None:
    assert parse_meta_pairs(["model=gpt-4o", "url=a=b", "  "]) == {"model": "gpt-4o", "url": "a=b"}
    with pytest.raises(SettingsError, match="must be KEY=VALUE") as caught:
        parse_meta_pairs(["model"])
    assert caught.value.place == "--meta"
    with pytest.raises(SettingsError, match="twice") as caught:
        parse_meta_pairs(["a=1", "a=2"], "metadata line {n}")
    assert caught.value.place == "metadata line 2"


def test_an_edit_adds_removes_and_replaces() -> None:
    current = RunTags.checked(["a", "b"], "old", {"model": "m1", "seed": "1"})
    edited = TagEdit(add=["c"], remove=["a", "absent"], note="new", set_metadata={"model": "m2"}, unset=["seed"])
    after = edited.apply(current)
    assert after == RunTags.checked(["b", "c"], "new", {"model": "m2"})
    assert TagEdit().apply(current) == current  # no change is no change
    assert TagEdit(note="").apply(current).note == ""
    with pytest.raises(SettingsError, match="--tag"):
        TagEdit(add=["bad tag"]).apply(current)


def test_the_request_form_reads_back_what_it_writes() -> None:
    tags = RunTags.from_request({"tags": ["nightly"], "note": "after the fix", "model": "gpt-4o"})
    assert tags == RunTags.checked(["nightly"], "after the fix", {"model": "gpt-4o"})
    assert RunTags.from_request(tags.request_form()) == tags
    for bad, place in (
        ([], "metadata"),
        ({"tags": "nightly"}, "metadata.tags"),
        ({"tags": ["ok", "not ok"]}, "metadata.tags[1]"),
        ({"model": 3}, "metadata.model"),
        ({"note": 3}, "metadata.note"),
    ):
        with pytest.raises(SettingsError) as caught:
            RunTags.from_request(bad)
        assert caught.value.place == place


def test_an_otlp_resource_names_its_run_and_reports_what_it_refused() -> None:
    found = tags_from_resource({
        "service.name": "support-bot",
        "service.version": "2.1.0",
        RESOURCE_TAGS: ["canary", "bad tag", "eu"],
        RESOURCE_NOTE: "deployed at noon",
        f"{RESOURCE_META_PREFIX}model": "gpt-4o-mini",
        f"{RESOURCE_META_PREFIX}max_turns": 8,
        f"{RESOURCE_META_PREFIX}api_key": "whatever",
    })  # fmt: skip
    assert found.tags == RunTags.checked(
        ["canary", "eu"], "deployed at noon", {"agent_version": "2.1.0", "model": "gpt-4o-mini", "max_turns": "8"}
    )
    assert sorted(p.place for p in found.problems) == [f"{RESOURCE_META_PREFIX}api_key", f"{RESOURCE_TAGS}[1]"]


def test_an_otlp_resource_may_give_tags_as_one_string_and_its_own_agent_version() -> None:
    found = tags_from_resource(
        {RESOURCE_TAGS: "canary, eu", "service.version": "2", f"{RESOURCE_META_PREFIX}agent_version": "2.0.1"}
    )
    assert found.tags.tags == ("canary", "eu") and found.tags.metadata == {"agent_version": "2.0.1"}
    assert found.problems == [] and tags_from_resource({}).tags == RunTags()


def _meta(run_id: str, name: str = "run", tags: tuple[str, ...] = (), note: str = "", **metadata: str) -> RunMeta:
    return RunMeta(
        id=run_id, name=name, created_at=0.0, data_name="data.jsonl", data_fingerprint="f" * 64,
        judge=JudgeIdentity(name="dataset", kind="dataset"), n_conversations=1, n_interactions=1,
        tags=list(tags), note=note, metadata=metadata,
    )  # fmt: skip


RUNS = [
    _meta("r1", "baseline run", ("baseline",), "first try", model="gpt-4o", agent_version="1.0"),
    _meta("r2", "candidate", ("candidate", "prompt-v2"), "after the Prompt fix", model="gpt-4o-mini"),
    _meta("r3", "old run"),
]


def test_a_filter_needs_every_tag_every_pair_and_every_word() -> None:
    ids = lambda f: [m.id for m in f.apply(RUNS)]  # noqa: E731
    assert ids(RunFilter()) == ["r1", "r2", "r3"] and not RunFilter()
    assert ids(RunFilter(tags=("prompt-v2",))) == ["r2"]
    assert ids(RunFilter(tags=("prompt-v2", "baseline"))) == []
    assert ids(RunFilter(metadata={"model": "gpt-4o"})) == ["r1"]  # exact: gpt-4o-mini is another value
    assert ids(RunFilter(text="prompt FIX")) == ["r2"]  # words anywhere, case ignored (the note, a tag)
    assert ids(RunFilter(text="gpt-4o")) == ["r1", "r2"]  # metadata values are searched too
    assert ids(RunFilter(text="run")) == ["r1", "r3"]


@given(
    st.lists(st.sampled_from(["a", "b", "c"]), max_size=3),
    st.dictionaries(st.sampled_from(["model", "agent_version"]), st.sampled_from(["gpt-4o", "1.0"]), max_size=2),
    st.sampled_from(["", "run", "fix", "gpt"]),
)
def test_a_filter_is_the_intersection_of_its_conditions(tags: list[str], metadata: dict[str, str], text: str) -> None:
    runs = [*RUNS, _meta("r4", "x", ("a", "b"), model="gpt-4o"), _meta("r5", "fix run", ("c",), agent_version="1.0")]
    whole = {m.id for m in RunFilter(tags=tuple(tags), metadata=metadata, text=text).apply(runs)}
    parts = [RunFilter(tags=tuple(tags)), RunFilter(metadata=metadata), RunFilter(text=text)]
    assert whole == set.intersection(*({m.id for m in p.apply(runs)} for p in parts))


def test_groups_per_tag_and_per_metadata_value() -> None:
    per_tag = RunGrouping(by="tag").split(RUNS)
    assert {k: [m.id for m in v] for k, v in per_tag.items()} == {
        "baseline": ["r1"], "candidate": ["r2"], "prompt-v2": ["r2"], None: ["r3"],
    }  # fmt: skip
    assert list(per_tag)[-1] is None  # runs without a tag come last
    per_model = RunGrouping(by="metadata", key="model").split(RUNS)
    by_model = {k: [m.id for m in v] for k, v in per_model.items()}
    assert by_model == {"gpt-4o": ["r1"], "gpt-4o-mini": ["r2"], None: ["r3"]}
    assert RunGrouping(by="metadata", key="model").none_label() == "(no model)"
    assert [g.label for g in groupings(RUNS)] == ["tag", "metadata: agent_version", "metadata: model"]
    assert known_tags(RUNS) == ["baseline", "candidate", "prompt-v2"]
    assert known_metadata(RUNS) == {"agent_version": ["1.0"], "model": ["gpt-4o", "gpt-4o-mini"]}
    assert groupings([RUNS[2]]) == []
