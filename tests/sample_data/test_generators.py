"""The shipped samples are what their generators write today.

Each generator runs into a temporary folder (``--out``), never into the repository, and every file it writes must
equal the shipped one byte for byte: a sample edited by hand, or a text in ``sample_data/texts/`` changed without
regenerating, fails here. The fix the failure names is to run the generator.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_data"
# generator script -> the shipped files it writes
GENERATORS = {
    "make_samples.py": ("seed_examples.json", "travel_agent.jsonl", "support_bot_attempts.jsonl"),
    "make_import_samples.py": (
        "openai_traces.jsonl",
        "ragas_multiturn.jsonl",
        "tau_bench_airline.json",
        "inspect_log.json",
        "otel_traces.json",
        "otel_references.jsonl",
    ),
    "make_labelled_sample.py": ("labelled_support.jsonl",),
}
# Shipped data that no sample generator writes, and why.
NOT_GENERATED = {
    "judge_devset.jsonl": "hand-labelled answer/ground-truth pairs for judge calibration",
    "judge_holdout_v2.jsonl": "hand-written labelled pairs: the offline judge's fresh holdout, never fitted on",
    "topic_devset.jsonl": "hand-labelled on/off-topic queries",
    "verdicts.jsonl": "the default judge's verdict pack, written by agentic_core.judges.packs",
    "seed001_request.json": "seed 001's endpoint request body, as its README gives it",
}


def _run(script: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # The generators validate what they write with agentic_core: found from a copy outside the checkout too.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run(
        [sys.executable, str(script), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize("script", sorted(GENERATORS))
def test_generator_rewrites_the_shipped_files_byte_for_byte(script: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = _run(SAMPLES / script, "--out", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    written = sorted(p.name for p in out.iterdir())
    assert written == sorted(GENERATORS[script]), f"{script} wrote {written}, expected {sorted(GENERATORS[script])}"
    for name in written:
        assert (out / name).read_bytes() == (SAMPLES / name).read_bytes(), (
            f"sample_data/{name} is not what {script} writes: run `.venv/bin/python sample_data/{script}` "
            f"and commit the result (or undo the hand edit)"
        )


def test_every_shipped_sample_has_a_generator_or_a_reason() -> None:
    shipped = {p.name for p in SAMPLES.iterdir() if p.suffix in (".json", ".jsonl")}
    generated = {name for names in GENERATORS.values() for name in names}
    assert generated & set(NOT_GENERATED) == set()
    assert shipped == generated | set(NOT_GENERATED), (
        f"sample_data/ holds {sorted(shipped - generated - set(NOT_GENERATED))} that no generator writes: "
        f"add its generator to GENERATORS or the reason to NOT_GENERATED"
    )


def _copy_generators(tmp_path: Path) -> Path:
    """The generators and their texts copied under ``tmp_path``, to run with edited texts."""
    copy = tmp_path / "sample_data"
    shutil.copytree(SAMPLES / "samplegen", copy / "samplegen", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(SAMPLES / "texts", copy / "texts")
    for script in GENERATORS:
        shutil.copy(SAMPLES / script, copy)
    return copy


def test_a_changed_text_changes_the_output(tmp_path: Path) -> None:
    # The comparison above catches a text edited without regenerating: a copy of the generator with one
    # support answer changed writes a different file.
    copy = _copy_generators(tmp_path)
    texts = copy / "texts" / "support_tasks.json"
    original = texts.read_text(encoding="utf-8")
    edited = original.replace('"id": "order_status_shipped"', '"id": "order_status_sent"', 1)
    assert edited != original
    texts.write_text(edited, encoding="utf-8")
    done = _run(copy / "make_samples.py", "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    changed = (tmp_path / "out" / "support_bot_attempts.jsonl").read_bytes()
    assert changed != (SAMPLES / "support_bot_attempts.jsonl").read_bytes()
    assert b"order_status_sent" in changed


def test_a_misspelt_key_in_a_text_file_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # A key the generator does not read would be dropped without a word: a misspelt "optional" on an expected
    # tool call would quietly make it required.
    monkeypatch.syspath_prepend(str(SAMPLES))
    from samplegen.common import check_keys

    check_keys({"name": "lookup_order", "optional": True}, {"name", "optional"}, "texts/support_tasks.json")
    with pytest.raises(ValueError, match=r"support_tasks\.json.*unknown key\(s\) \['optinal'\].*Fix the spelling"):
        check_keys({"name": "lookup_order", "optinal": True}, {"name", "optional"}, "texts/support_tasks.json")


# (texts file, the generator that reads it, a key that may be left out, its misspelling, the key holding the record)
MISSPELT = [
    ("import_inspect.json", "make_import_samples.py", "wrong_epochs", "wrong_epoch", None),
    ("import_openai.json", "make_import_samples.py", "tool_sequence_matters", "tool_sequence_mattres", None),
    ("import_openai.json", "make_import_samples.py", "only_attempts", "only_attempt", None),
    ("import_ragas.json", "make_import_samples.py", "calls", "call", None),
    ("import_tau_bench.json", "make_import_samples.py", "why_policy", "why_polciy", None),
    ("labelled_cases.json", "make_labelled_sample.py", "why", "wyh", None),
    ("seed_examples.json", "make_samples.py", "seed001_why", "seed001_wyh", None),
    ("seed_examples.json", "make_samples.py", "uses_tools", "use_tools", None),
    ("support_tasks.json", "make_samples.py", "answer", "answr", "param_fault"),
    ("support_tasks.json", "make_samples.py", "optional", "optinal", None),
    # a variant names a parameter of its call: a misspelt one used to add a parameter to the agent's calls
    ("support_tasks.json", "make_samples.py", "summary", "sumary", "variants"),
    ("travel_turns.json", "make_samples.py", "_how", "_hwo", None),
    # origin_high is read per origin city: a misspelt city used to fall back to a default temperature
    ("travel_world.json", "make_samples.py", "Boston", "Bostn", "origin_high"),
]


def _rename_first(value: Any, old: str, new: str, parent: str | None, under: str | None = None) -> bool:
    """Rename the first key ``old`` (in a dict held under the key ``parent``, if given) to ``new``, in place."""
    if isinstance(value, dict):
        if old in value and (parent is None or under == parent):
            value.update({(new if k == old else k): value.pop(k) for k in list(value)})
            return True
        return any(_rename_first(v, old, new, parent, k) for k, v in value.items())
    if isinstance(value, list):
        return any(_rename_first(v, old, new, parent, under) for v in value)
    return False


@pytest.mark.parametrize(("texts", "script", "key", "misspelt", "parent"), MISSPELT)
def test_a_misspelt_optional_key_in_each_texts_file_is_refused(
    texts: str, script: str, key: str, misspelt: str, parent: str | None, tmp_path: Path
) -> None:
    # An optional key the generator does not recognise would be dropped without a word (a misspelt wrong_epochs
    # makes every epoch correct); the generator must stop and name the file and the key instead.
    copy = _copy_generators(tmp_path)
    path = copy / "texts" / texts
    data = json.loads(path.read_text(encoding="utf-8"))
    assert _rename_first(data, key, misspelt, parent), f"{texts} no longer has a {key!r} to misspell"
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    out = tmp_path / "out"
    done = _run(copy / script, "--out", str(out), cwd=tmp_path)
    assert done.returncode != 0, f"{script} accepted {misspelt!r} in texts/{texts}"
    assert f"texts/{texts}" in done.stderr and f"unknown key(s) ['{misspelt}']" in done.stderr, done.stderr[-3000:]
