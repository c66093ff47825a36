"""Deterministic generator for the agent-trace samples in ``sample_data/`` (the importers' formats).

Run from the repository root (or anywhere):

    .venv/bin/python sample_data/make_import_samples.py             # (re)write the files and check them
    .venv/bin/python sample_data/make_import_samples.py --check     # check the files on disk only
    .venv/bin/python sample_data/make_import_samples.py --out DIR   # write (or check) in DIR instead

Every choice is fixed or drawn from ``random.Random`` seeded with a fixed string, so re-running writes
byte-identical files. The check loads each file with auto-detection and requires: the right importer
was used, no error, and (tau-bench) the dataset judge at default settings reproduces the published
gpt-4o airline pass^1..4 = 0.420, 0.273, 0.220, 0.200.

The traces' texts are JSON files in ``sample_data/texts/`` (``import_*.json``); the code that builds each format
is in the ``samplegen`` package (``imports.py``, ``tau_bench.py``).

Files written:
    openai_traces.jsonl      OpenAI-style chat traces of a retail support agent (4 tasks x 3 attempts)
    ragas_multiturn.jsonl    Ragas MultiTurnSample records (EvaluationDataset.to_jsonl)
    tau_bench_airline.json   a tau-bench results file: 50 airline tasks x 4 trials, the published
                             gpt-4o run's reward pattern, with realistic trajectories
    inspect_log.json         an Inspect AI eval log (JSON): 4 samples x 2 epochs with tool calls
    otel_traces.json         an OpenTelemetry GenAI trace export (OTLP JSON) of a travel helper: 4 conversations,
                             nested spans with times, tokens and costs, a failed tool call (its span tree)
    otel_references.jsonl    the golden set for otel_traces.json (expected answers and tool calls)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for folder in (ROOT, HERE):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from samplegen.imports import inspect_log, openai_traces, ragas_samples  # noqa: E402  (after the sys.path set-up)
from samplegen.otel import otel_export, otel_references  # noqa: E402
from samplegen.tau_bench import TAU_EXPECTED_PASS_POW, tau_results  # noqa: E402

OPENAI_NAME = "openai_traces.jsonl"
RAGAS_NAME = "ragas_multiturn.jsonl"
TAU_NAME = "tau_bench_airline.json"
INSPECT_NAME = "inspect_log.json"
OTEL_NAME = "otel_traces.json"
OTEL_REFERENCES_NAME = "otel_references.jsonl"
FORMATS = ((OPENAI_NAME, "openai"), (RAGAS_NAME, "ragas"), (TAU_NAME, "tau-bench"), (INSPECT_NAME, "inspect"),
           (OTEL_NAME, "otel"))


def write_all(out: Path) -> None:
    """Write the six files into ``out``.

    tau-bench writes its results with ``json.dump(..., indent=2)``; the sample puts one trial per line
    instead (the same JSON list, a third of the size, and each trial's line is its place in messages).
    """
    out.mkdir(parents=True, exist_ok=True)
    lines = "".join(json.dumps(t, ensure_ascii=False) + "\n" for t in openai_traces())
    (out / OPENAI_NAME).write_text(lines, encoding="utf-8")
    lines = "".join(json.dumps(s, ensure_ascii=False) + "\n" for s in ragas_samples())
    (out / RAGAS_NAME).write_text(lines, encoding="utf-8")
    (out / TAU_NAME).write_text("[\n" + ",\n".join(json.dumps(t) for t in tau_results()) + "\n]\n", encoding="utf-8")
    (out / INSPECT_NAME).write_text(json.dumps(inspect_log(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (out / OTEL_NAME).write_text(json.dumps(otel_export(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    lines = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in otel_references())
    (out / OTEL_REFERENCES_NAME).write_text(lines, encoding="utf-8")


def check(out: Path) -> None:
    """Load every file with auto-detection; fail loudly on an error, the wrong importer or the wrong curve."""
    from agentic_core.evaluate import aggregate, evaluate
    from agentic_core.io.importers import FORMAT_LABELS
    from agentic_core.io.loader import load_paths
    from agentic_core.io.otel_load import load_otel

    for name, fmt in FORMATS:
        path = out / name
        report = load_paths([path])
        assert report.ok, [i.message() for i in report.errors]
        assert report.notes and f"read as {FORMAT_LABELS[fmt]} " in report.notes[0].rule, report.notes
        size = path.stat().st_size / 1024
        print(f"{path.name}: {report.notes[0].rule}; {len(report.warnings)} warning(s); {size:.0f} KB")
    report = load_otel([out / OTEL_NAME], references=out / OTEL_REFERENCES_NAME)
    assert report.ok and not report.warnings, [i.message() for i in report.issues]
    spans = sum(len(c.spans or []) for c in report.conversations)
    assert all(c.conversation[0].ground_truth_assistant for c in report.conversations)
    print(f"{OTEL_NAME} with {OTEL_REFERENCES_NAME}: {len(report.conversations)} conversations, {spans} spans")
    agg = aggregate(evaluate(out / TAU_NAME, "dataset"))
    curve = [round(p.pass_pow_k, 3) for p in agg.curve if p.pass_pow_k is not None]
    assert curve == TAU_EXPECTED_PASS_POW, curve
    print(f"{TAU_NAME} with --judge dataset: pass^1..4 = {curve}")


def main(argv: list[str] | None = None) -> int:
    """Write (unless ``--check``) and check the six files."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only check the files already on disk")
    parser.add_argument("--out", type=Path, default=HERE, help="folder to write (or check) in (default: here)")
    args = parser.parse_args(argv)
    if not args.check:
        write_all(args.out)
    check(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
