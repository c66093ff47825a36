"""The typed judge specs (agentic_core/judges/spec.py): names to specs, validated once, built, handed to Ray.

A spec must not change any cache key, so an old cache still hits. Identities are compared with those recorded
in tests/golden/judge_identities.json: each judge as ``build_judge(name, **options)`` built it on main before
the LLM judge was built from its spec only (at 2147898, where the builders took keyword options and checked
them again; tests/golden/make_judge_identities.py made the file, its docstring says how).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from agentic_core.engines.worker_judge import WorkerJudge
from agentic_core.errors import JudgeConfigError
from agentic_core.evaluate import evaluate
from agentic_core.judges import (
    JUDGES,
    Capabilities,
    CascadeSpec,
    DatasetSpec,
    LearnedSpec,
    LexicalSpec,
    LLMSpec,
    build_judge,
    capabilities,
    judge_spec,
    spec_class_of,
)
from agentic_core.judges.base import JudgeIdentity, JudgeItem, ProgressFn, Verdict
from agentic_core.judges.cascade import CascadeJudge
from agentic_core.judges.offline.learned import LearnedJudge, LexicalJudge
from agentic_core.judges.spec import SPECS, spec_from_dump
from tests.fakes import OpenAIStandIn, judgement_json
from tests.judges.conftest import SECRET

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "sample_data" / "seed_examples.json"
RECORDED = json.loads((ROOT / "tests" / "golden" / "judge_identities.json").read_text(encoding="utf-8"))
OLLAMA = {"provider": "ollama", "model": "llama3"}
SERVER = {"provider": "openai-compatible", "model": "m-7", "base_url": "http://user:pw@127.0.0.1:9/v1",
          "api_key": SECRET, "concurrency": 3, "timeout_s": 30.0, "max_tokens": 99, "use_structured_output": "text"}

OPTIONS: dict[str, dict[str, Any]] = {name: {} for name in JUDGES} | {"llm": OLLAMA, "cascade": OLLAMA}
"""Options each judge can be built with here (no key, no server)."""


def test_the_registry_is_the_union_of_the_specs_in_the_order_interfaces_show() -> None:
    assert list(JUDGES) == ["learned", "hybrid", "lexical", "embedding", "dataset", "llm", "cascade"]
    assert JUDGES is SPECS and {case["judge"] for case in RECORDED["cases"]} == set(JUDGES)
    assert all(spec.judge_name() == name and spec.title and spec.description for name, spec in JUDGES.items())
    assert [name for name, spec in JUDGES.items() if spec.offline] == ["learned", "hybrid", "lexical", "embedding",
                                                                      "dataset"]


def _padded_url(case: dict[str, Any]) -> bool:
    url = case["options"].get("base_url")
    return isinstance(url, str) and url != url.strip()


@pytest.mark.parametrize("case", RECORDED["cases"], ids=lambda case: f"{case['judge']}-{case['identity']['model']}")
def test_every_judge_keeps_the_identity_main_recorded(case: dict[str, Any]) -> None:
    name = case["judge"]
    spec = judge_spec(name, **case["options"])
    assert type(spec) is JUDGES[name] and spec.judge == name
    built = spec.build()
    assert spec_class_of(built.identity) is JUDGES[name]
    assert build_judge(name, **case["options"]).identity == built.identity
    if _padded_url(case):
        # The one identity that moves, on purpose: a base URL given with spaces around it was recorded with
        # them (the chat model was built with it stripped); the spec strips it once, for both.
        recorded = JudgeIdentity(**case["identity"])
        assert recorded.params["base_url"] != built.identity.params["base_url"] == recorded.params["base_url"].strip()
        assert built.identity == recorded.model_copy(update={"params": built.identity.params})
        return
    assert built.identity.model_dump(mode="json") == case["identity"]
    assert built.identity.fingerprint() == case["fingerprint"]  # the cache key: an old cache hits


def test_the_recorded_cases_cover_the_llm_judges_options() -> None:
    llm = [case["options"] for case in RECORDED["cases"] if case["judge"] == "llm"]
    given = {option for options in llm for option in options}
    # api_key_env only says where the key is read from, and nothing of a key reaches an identity
    # (test_providers.py::test_identity_never_holds_the_key); a case would need the variable set here.
    assert given >= set(LLMSpec.model_fields) - {"judge", "api_key_env"}, "record a case giving each option"
    assert sum(map(_padded_url, RECORDED["cases"])) == 1


def test_an_llm_judges_options_reach_its_identity() -> None:
    built = judge_spec("llm", **SERVER).build()
    assert built.identity.params == {"provider": "openai-compatible", "temperature": 0.0, "structured": False,
                                     "base_url": "http://127.0.0.1:9/v1"}
    cascade = judge_spec("cascade", offline="lexical", **SERVER).build()
    assert cascade.identity == CascadeJudge(LexicalJudge(), built).identity


@pytest.mark.parametrize(
    ("name", "options", "place"),
    [
        ("llm", {"provider": "nope", "model": "m"}, "provider"),
        ("llm", {"model": "m"}, "provider"),
        ("llm", {**OLLAMA, "concurrency": -1}, "concurrency"),
        ("llm", {**OLLAMA, "concurrency": True}, "concurrency"),
        ("llm", {**OLLAMA, "rps": 0}, "rps"),
        ("llm", {**OLLAMA, "timeout_s": float("nan")}, "timeout_s"),
        ("llm", {**OLLAMA, "max_retries": -1}, "max_retries"),
        ("llm", {**OLLAMA, "use_structured_output": "yes"}, "use_structured_output"),
        ("llm", {"provider": "ollama", "model": " "}, "model"),
        ("llm", {"provider": "openai-compatible", "model": "m"}, "base_url"),
        ("llm", {**OLLAMA, "temperature": "warm"}, "temperature"),
        ("llm", {**OLLAMA, "fast": True}, "fast"),
        ("cascade", {**OLLAMA, "offline": "llm"}, "offline"),
        ("cascade", {**OLLAMA, "offline": "cascade"}, "offline"),
        ("cascade", {**OLLAMA, "concurrency": 0}, "concurrency"),
        ("nope", {}, "judge"),
        ("learned", {"provider": "groq"}, "provider"),
        ("dataset", {"model": "m"}, "model"),
    ],
)
def test_a_refused_option_is_one_config_error_naming_it(name: str, options: dict[str, Any], place: str) -> None:
    with pytest.raises(JudgeConfigError) as info:
        judge_spec(name, **options)
    assert info.value.place == place and info.value.rule and info.value.fix


def test_the_words_of_the_refusals() -> None:
    with pytest.raises(JudgeConfigError, match=r"^provider: is not an option of the learned judge\. Fix: the learned "
                                               r"judge takes no option$"):
        judge_spec("learned", provider="groq")
    with pytest.raises(JudgeConfigError, match=r"offline: must be one of the offline judges learned, hybrid, lexical, "
                                               r"embedding, dataset \(got 'llm'\)"):
        judge_spec("cascade", offline="llm", **OLLAMA)
    with pytest.raises(JudgeConfigError, match=r"^judge: must be one of learned, hybrid, .*, cascade \(got 'nope'\)"):
        judge_spec("nope")
    with pytest.raises(JudgeConfigError, match=r"^temperature: must be a valid number"):
        judge_spec("llm", temperature="warm", **OLLAMA)


def test_the_spec_keeps_the_model_and_the_url_as_the_judge_uses_them() -> None:
    # Stripped once here: the chat model is built with these and the identity records them (it used to record
    # the URL as typed, spaces and all, while the model was built with it stripped).
    spec = LLMSpec(provider="openai-compatible", model="  local model ", base_url=" http://127.0.0.1:9/v1  ")
    assert (spec.model, spec.base_url) == ("local model", "http://127.0.0.1:9/v1")
    judge = spec.build()
    assert judge.identity.model == "local model" and judge.identity.params["base_url"] == spec.base_url
    assert judge._model.openai_api_base == spec.base_url  # type: ignore[attr-defined]
    assert LLMSpec(provider="ollama", model="m", base_url="   ").base_url is None  # blank: the provider's own
    with pytest.raises(JudgeConfigError) as info:
        LLMSpec(provider="ollama", model=7)
    assert info.value.place == "model" and info.value.rule == "must be a valid string"


def test_a_missing_key_is_refused_when_the_spec_is_made_naming_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GROQ_API_KEY", raising=False)
    with pytest.raises(JudgeConfigError, match="GROQ_API_KEY"):
        LLMSpec(provider="groq", model="m")
    with pytest.raises(JudgeConfigError, match="GROQ_API_KEY"):
        CascadeSpec(llm={"provider": "groq", "model": "m"})
    monkeypatch.setenv("GROQ_API_KEY", SECRET)
    assert LLMSpec(provider="GROQ", model="m").provider == "groq"  # found now; the provider's name as the table's


def test_a_missing_provider_package_is_refused_before_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "langchain_groq" else real(name))
    monkeypatch.delenv("GROQ_API_KEY", raising=False)
    with pytest.raises(JudgeConfigError, match=r"pip install langchain-groq=="):
        LLMSpec(provider="groq", model="m")


def test_a_wrong_key_is_never_shown_in_the_refusal() -> None:
    with pytest.raises(JudgeConfigError) as info:
        LLMSpec(provider="groq", model="m", api_key=["sk-in-a-list-4242"])
    assert info.value.place == "api_key" and "sk-in-a-list-4242" not in str(info.value)


def test_the_key_never_shows_in_a_dump_a_repr_or_a_str() -> None:
    for spec in (LLMSpec(**SERVER), CascadeSpec(**SERVER), judge_spec("cascade", offline="lexical", **SERVER)):
        shown = [repr(spec), str(spec), spec.model_dump_json(), json.dumps(spec.model_dump(mode="json")),
                 repr(spec.model_dump()), str(spec.model_dump())]
        assert all(SECRET not in text for text in shown)
        assert SECRET in json.dumps(spec.worker_dump())  # the one dump that holds it: for the workers
    handover = WorkerJudge.of(LLMSpec(**SERVER))
    assert SECRET not in repr(handover)


def test_a_worker_rebuilds_the_same_judge_from_the_dump() -> None:
    for spec in (judge_spec("learned"), judge_spec("dataset"), LLMSpec(**SERVER),
                 judge_spec("cascade", offline="lexical", **SERVER)):
        dump = json.loads(json.dumps(spec.worker_dump()))  # what crosses to a worker: plain data
        again = spec_from_dump(dump)
        assert again == spec and type(again) is type(spec)
        assert again.build().identity == spec.build().identity
        assert WorkerJudge.of(spec).build().identity == spec.build().identity  # the Ray hand-over's own path


def test_a_worker_needs_no_key_variable_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    # The key named by a variable on the driver travels in the dump: a cluster's workers have no such variable.
    monkeypatch.setenv("MY_JUDGE_KEY", SECRET)
    spec = LLMSpec(provider="groq", model="m", api_key_env="MY_JUDGE_KEY")
    dump = spec.worker_dump()
    monkeypatch.delenv("MY_JUDGE_KEY")
    monkeypatch.delenv("GROQ_API_KEY", raising=False)
    judge = spec_from_dump(dump).build()
    assert judge._model.groq_api_key.get_secret_value() == SECRET  # type: ignore[attr-defined]


def test_a_dump_of_no_judge_is_refused() -> None:
    with pytest.raises(JudgeConfigError, match="judge"):
        spec_from_dump({"judge": "os.system"})


def test_the_cascade_takes_nested_or_flat_options_alike() -> None:
    llm = LLMSpec(**OLLAMA)
    nested = CascadeSpec(offline=LexicalSpec(), llm=llm)
    assert nested == judge_spec("cascade", offline="lexical", **OLLAMA) == CascadeSpec(offline="lexical", llm=OLLAMA)
    assert CascadeSpec(llm=llm).offline_judge == LearnedSpec()  # the default: the learned judge, which abstains


def test_evaluate_takes_a_spec_as_it_takes_a_name() -> None:
    with OpenAIStandIn(reply=judgement_json(0.8)) as server:
        options = {"provider": "openai-compatible", "model": "stand-in", "base_url": server.base_url, "api_key": SECRET}
        by_spec = evaluate(SEEDS, LLMSpec(**options), cache_mode="off")
        by_name = evaluate(SEEDS, "llm", cache_mode="off", **options)
    assert by_spec.judge_identity == by_name.judge_identity
    assert by_spec.interactions["score"].tolist() == by_name.interactions["score"].tolist()
    assert evaluate(SEEDS, DatasetSpec(), cache_mode="off").judge_identity.kind == "dataset"
    with pytest.raises(JudgeConfigError, match="judge options: must be fields of the lexical spec"):
        evaluate(SEEDS, LexicalSpec(), concurrency=2)


CAPABILITIES = {  # (calls_llm, reads_texts, abstains), as each judge's docs say
    "learned": (False, True, True),
    "hybrid": (False, True, False),
    "lexical": (False, True, False),
    "embedding": (False, True, False),
    "dataset": (False, False, False),
    "llm": (True, True, False),
    "cascade": (True, True, False),
}


@pytest.mark.parametrize("name", list(CAPABILITIES))
def test_the_capabilities_of_each_judge(name: str) -> None:
    judge = judge_spec(name, **OPTIONS[name]).build()
    able = capabilities(judge)
    assert (able.calls_llm, able.reads_texts, able.abstains) == CAPABILITIES[name]
    assert (judge.calls_llm, judge.reads_texts, judge.abstains) == CAPABILITIES[name]  # declared, not defaulted
    assert able.calls_llm == (not JUDGES[name].offline)  # the registry's flag and the judge agree


def test_a_notice_is_read_from_the_judge_and_the_cascade_passes_its_offline_judges_on() -> None:
    quiet = judge_spec("lexical").build()
    assert capabilities(quiet).notice is None
    degraded = LearnedJudge(use_embedding=False)  # the learned model without its embedding says so
    assert capabilities(degraded).notice == degraded.notice and degraded.notice
    cascade = CascadeJudge(degraded, LLMSpec(provider="ollama", model="llama3").build())
    assert capabilities(cascade).notice == degraded.notice


class _OldStyleJudge:
    """A user's judge from before the capabilities: identity, threshold, cacheability and ``ajudge`` only."""

    identity = JudgeIdentity(kind="users-own", params={"v": 1})
    recommended_threshold = 0.5
    cacheable = False

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        return [Verdict(score=1.0 if i.ground_truth.lower() in i.answer.lower() else 0.0) for i in items]


def test_a_judge_without_the_capabilities_still_runs_through_evaluate() -> None:
    judge = _OldStyleJudge()
    assert capabilities(judge) == Capabilities(calls_llm=False, reads_texts=True, abstains=False, notice=None)
    result = evaluate(SEEDS, judge, cache_mode="off")
    assert result.judge_identity.kind == "users-own" and result.judge_run.counts["ok"] == result.n_interactions
    assert spec_class_of(result.judge_identity) is None  # no registry judge: no flag names it


def test_a_capability_of_the_wrong_type_counts_as_missing() -> None:
    judge = _OldStyleJudge()
    judge.calls_llm = "yes"  # type: ignore[attr-defined]
    judge.notice = 3  # type: ignore[attr-defined]
    assert capabilities(judge) == Capabilities()


def test_a_spec_is_frozen_and_hashable() -> None:
    spec = LLMSpec(**OLLAMA)
    with pytest.raises(Exception):  # noqa: B017  # pydantic's frozen-instance error
        spec.model = "other"  # type: ignore[misc]
    assert {spec: 1}[LLMSpec(**OLLAMA)] == 1  # the endpoint keeps one offline judge per spec
    assert isinstance(LLMSpec(**SERVER).api_key, SecretStr)


def test_the_offline_judges_are_the_cascades_first_stages_and_the_specs_marked_offline() -> None:
    from agentic_core.judges.spec import OFFLINE_JUDGES, SPECS

    # One list (the endpoint's config.judge, the live path, the cascade's first stage) and the flag the CLI and
    # the Run page read must name the same judges.
    marked = tuple(name for name, spec in SPECS.items() if spec.offline)
    assert marked == OFFLINE_JUDGES and "llm" not in marked and "cascade" not in marked
