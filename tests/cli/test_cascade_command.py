"""``evaluate --judge cascade``: the LLM options, the ``cascade`` object of ``--json``, the summary line.

The offline judge is the fake abstaining judge (registered as the default for the test); the LLM
is the loopback OpenAI-compatible stand-in: no network.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from agentic_core.cli import main
from tests.cascade_fakes import cascade_dataset, use_abstaining_default
from tests.fakes import OpenAIStandIn


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _data(tmp_path: Path) -> Path:
    path = tmp_path / "cascade.json"
    path.write_text(json.dumps(cascade_dataset(n_sure=4, n_unsure=2)))
    return path


def _cascade(server: OpenAIStandIn, data: Path, *extra: str) -> tuple[int, str, str]:
    return _run(
        "evaluate", str(data), "--judge", "cascade", "--provider", "openai-compatible", "--model", "judge-7",
        "--base-url", server.base_url, "--cache", "off", "--no-progress", "--no-save", *extra,
    )


def test_json_says_how_many_went_to_the_llm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    offline = use_abstaining_default(monkeypatch)
    data = _data(tmp_path)
    with OpenAIStandIn() as server:
        code, out, err = _cascade(server, data, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert len(offline.judged) == 6 and server.requests == 2  # the LLM was asked about the 2 abstentions only
    cascade = doc["cascade"]
    assert (cascade["decided_offline"], cascade["sent_to_llm"], cascade["llm_failed"]) == (4, 2, 0)
    assert cascade["total"] == 6 and cascade["llm_share"] == round(2 / 6, 6)
    assert doc["judge"]["kind"] == "cascade" and set(server.models) == {"judge-7"}


def test_an_llm_that_fails_leaves_the_uncertain_unscored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_abstaining_default(monkeypatch)
    monkeypatch.setenv("CASCADE_TEST_KEY", "sk-cascade-0123456789")
    with OpenAIStandIn(status=401) as server:
        code, out, err = _cascade(server, _data(tmp_path), "--json", "--api-key-env", "CASCADE_TEST_KEY")
    assert code == 0, err  # the offline judge scored 4: the run is not "nothing scored"
    doc = json.loads(out)
    assert doc["cascade"]["sent_to_llm"] == 2 and doc["cascade"]["llm_failed"] == 2
    assert doc["judge_counts"]["failed"] == 2
    assert "2 interaction(s) unscored by the judge" in err and "sk-cascade-0123456789" not in out + err


def test_the_summary_line_names_the_llm_share(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_abstaining_default(monkeypatch)
    with OpenAIStandIn() as server:
        code, out, err = _cascade(server, _data(tmp_path))
    assert code == 0, err
    assert "cascade: 2 of 6 interaction(s) went to the LLM judge (33.3%); 4 decided by the offline judge" in out


def test_other_judges_have_a_null_cascade_object() -> None:
    root = Path(__file__).resolve().parents[2]
    code, out, err = _run("evaluate", str(root / "sample_data" / "seed_examples.json"), "--judge", "lexical",
                          "--json", "--no-progress", "--no-save", "--cache", "off")
    assert code == 0, err
    assert json.loads(out)["cascade"] is None


def test_the_reproduce_command_names_the_cascade_and_its_llm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from agentic_core import aggregate, evaluate, make_settings
    from agentic_core.cli.reproduce import cli_command

    use_abstaining_default(monkeypatch)
    with OpenAIStandIn() as server:
        result = evaluate(_data(tmp_path), "cascade", provider="openai-compatible", model="judge-7",
                          base_url=server.base_url, cache_mode="off")
    command = cli_command(result, aggregate(result, make_settings()))
    assert "--judge cascade --provider openai-compatible --model judge-7" in command
