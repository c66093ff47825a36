"""The shipped samples are what their generators write today.

Each generator runs into a temporary folder (``--out``), never into the repository, and every file it writes must
equal the shipped one byte for byte: a sample edited by hand, or a text in ``sample_data/texts/`` changed without
regenerating, fails here. The fix the failure names is to run the generator.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

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
    ),
    "make_labelled_sample.py": ("labelled_support.jsonl",),
}
# Shipped data that no sample generator writes, and why.
NOT_GENERATED = {
    "judge_devset.jsonl": "hand-labelled answer/ground-truth pairs for judge calibration",
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


def test_a_changed_text_changes_the_output(tmp_path: Path) -> None:
    # The comparison above catches a text edited without regenerating: a copy of the generator with one
    # support answer changed writes a different file.
    copy = tmp_path / "sample_data"
    shutil.copytree(SAMPLES / "samplegen", copy / "samplegen", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(SAMPLES / "texts", copy / "texts")
    shutil.copy(SAMPLES / "make_samples.py", copy)
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
