"""Command line: ``python -m agentic_core evaluate PATH [PATH ...] ...``.

A public contract: option names are kept stable. Bad input exits non-zero with the message
on stderr; ``--json`` prints exactly one JSON document on stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from agentic_core.errors import AgenticError, SettingsError
from agentic_core.settings import AggregateSettings, ToolWeights, make_settings

EXIT_OK = 0
EXIT_USER_ERROR = 2
EXIT_STRICT = 3


def _parse_prior(text: str) -> tuple[float, float]:
    named = {"uniform": (1.0, 1.0), "jeffreys": (0.5, 0.5)}
    if text.lower() in named:
        return named[text.lower()]
    parts = text.split(",")
    try:
        a, b = (float(p) for p in parts)
    except ValueError:
        raise SettingsError(
            "--prior",
            "must be A,B (two positive numbers) or 'uniform' / 'jeffreys'",
            text,
            "write e.g. --prior 1,1",
        ) from None
    return a, b


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for tests and documentation)."""
    parser = argparse.ArgumentParser(
        prog="python -m agentic_core",
        description="Evaluate AI-agent conversations: pass@K / pass^K with intervals, tool correctness.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    ev = sub.add_parser("evaluate", help="judge and aggregate one or more dataset files")
    ev.add_argument("paths", nargs="+", metavar="PATH", help="JSON / JSONL files in the seed format")
    j = ev.add_argument_group("judge")
    j.add_argument(
        "--judge",
        default="hybrid",
        choices=["hybrid", "lexical", "embedding", "dataset", "llm"],
        help="answer-correctness judge (default: hybrid, offline)",
    )
    j.add_argument(
        "--provider", help="LLM provider: groq, openai, openai-compatible, anthropic, google, ollama"
    )
    j.add_argument("--model", help="LLM model name")
    j.add_argument("--base-url", help="base URL of an OpenAI-compatible or Ollama server")
    j.add_argument("--api-key-env", help="name of the environment variable holding the API key")
    j.add_argument("--concurrency", type=int, default=8, help="LLM calls in flight (default 8)")
    j.add_argument("--rps", type=float, default=None, help="max LLM requests per second (default: no limit)")
    j.add_argument("--timeout", type=float, default=60.0, help="seconds per LLM call (default 60)")
    j.add_argument("--cache", choices=["use", "refresh", "off"], default="use", help="judge cache mode")
    j.add_argument("--cache-path", help="judge cache file (default: the user cache directory)")
    a = ev.add_argument_group("aggregation")
    a.add_argument("--unit", choices=["auto", "task", "conversation", "interaction"], default="auto")
    a.add_argument("--estimator", choices=["unbiased", "plug-in"], default="unbiased")
    a.add_argument("--mode", choices=["frequentist", "bayesian"], default="bayesian")
    a.add_argument("--k", type=int, default=3, help="curve for k = 1..K (default 3)")
    a.add_argument("--threshold", type=float, default=None, help="answer threshold (default: the judge's)")
    a.add_argument("--tool-threshold", type=float, default=1.0)
    a.add_argument(
        "--tool-weights", default=None, help="selection=..,parameters=..,sequence=..,utilization=.."
    )
    a.add_argument(
        "--ignore-extra-tools", action="store_true", help="extra tool calls do not lower selection"
    )
    a.add_argument(
        "--require-tools", action="store_true", help="an interaction is correct only if its tools are"
    )
    a.add_argument("--prior", default="1,1", help="Beta prior A,B, or uniform / jeffreys (default 1,1)")
    a.add_argument("--ci", type=float, default=0.95, help="interval level (default 0.95)")
    a.add_argument("--seed", type=int, default=0, help="seed for bootstrap / Monte Carlo")
    a.add_argument(
        "--unscored-as-incorrect",
        action="store_true",
        help="count judge failures as incorrect (default: exclude)",
    )
    o = ev.add_argument_group("output")
    o.add_argument("--out", help="directory for CSV / JSON exports")
    o.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    o.add_argument("--strict", action="store_true", help=f"exit {EXIT_STRICT} if any record was invalid")
    o.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    return parser


def _settings(args: argparse.Namespace, recommended: float) -> AggregateSettings:
    a, b = _parse_prior(args.prior)
    values: dict[str, Any] = {
        "threshold": recommended if args.threshold is None else args.threshold,
        "tool_threshold": args.tool_threshold,
        "k": args.k,
        "unit": args.unit,
        "estimator": args.estimator,
        "mode": args.mode,
        "prior_a": a,
        "prior_b": b,
        "ci_level": args.ci,
        "seed": args.seed,
        "unscored_as_incorrect": args.unscored_as_incorrect,
        "ignore_extra_tools": args.ignore_extra_tools,
        "require_tool_correctness": args.require_tools,
    }
    if args.tool_weights:
        values["tool_weights"] = ToolWeights.parse(args.tool_weights)
    return make_settings(**values)


def _judge_options(args: argparse.Namespace) -> dict[str, Any]:
    if args.judge != "llm":
        return {}
    return {
        "provider": args.provider,
        "model": args.model,
        "base_url": args.base_url,
        "api_key_env": args.api_key_env,
        "concurrency": args.concurrency,
        "rps": args.rps,
        "timeout_s": args.timeout,
    }


def _progress(enabled: bool, stream: TextIO) -> tuple[Any, Any]:
    if not enabled:
        return None, None
    from tqdm import tqdm

    bar: Any = None

    def update(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = tqdm(total=total, desc="judging", unit="item", file=stream, leave=False)
        bar.n = done
        bar.refresh()

    def close() -> None:
        if bar is not None:
            bar.close()

    return update, close


def _fmt(x: float | None, digits: int = 3) -> str:
    return "undefined" if x is None else f"{x:.{digits}f}"


def _fmt_ci(ci: Sequence[float] | None) -> str:
    return "" if ci is None else f" [{ci[0]:.3f}, {ci[1]:.3f}]"


def _print_human(doc: dict[str, Any], out: TextIO) -> None:
    head = doc["headline"]
    k = head["k"]
    counts = doc["counts"]
    rate = doc["conversation_success_rate"]
    print(f"judge: {doc['judge_label']}   counts: {doc['judge_counts']}", file=out)
    print(f"unit: {doc['unit_description']}", file=out)
    print(
        f"conversations: {counts['conversations']} ({counts['correct_conversations']} fully correct, "
        f"{counts['unscored_conversations']} unscored and excluded)",
        file=out,
    )
    print(f"conversation success rate: {_fmt(rate['rate'])}{_fmt_ci(rate['ci'])}", file=out)
    print(f"pass@{k} = {_fmt(head['pass_at_k'])}{_fmt_ci(head['pass_at_k_ci'])}", file=out)
    print(f"pass^{k} = {_fmt(head['pass_pow_k'])}{_fmt_ci(head['pass_pow_k_ci'])}", file=out)
    print(f"interpretation: {doc['interpretation'] or 'undefined'}", file=out)
    print("\n k  pass@k                   pass^k                   groups", file=out)
    for p in doc["curve"]:
        at = f"{_fmt(p['pass_at_k'])}{_fmt_ci(p['pass_at_k_ci'])}"
        pw = f"{_fmt(p['pass_pow_k'])}{_fmt_ci(p['pass_pow_k_ci'])}"
        note = f"  ({p['n_excluded']} excluded: {p['excluded_reason']})" if p["n_excluded"] else ""
        print(f"{p['k']:>2}  {at:<24} {pw:<24} {p['n_groups']}{note}", file=out)
    tc = doc["tool_correctness"]
    if tc["scored_interactions"]:
        dims = ", ".join(f"{n} {_fmt(d['mean'], 2)}" for n, d in tc["dimensions"].items())
        print(
            f"\ntool correctness over {tc['scored_interactions']} interactions: {dims}; "
            f"overall {_fmt(tc['overall']['mean'], 2)}; {tc['correct_interactions']} at or above "
            f"{tc['tool_threshold']}",
            file=out,
        )


def run_evaluate(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Run the ``evaluate`` command; returns the exit code."""
    from agentic_core import report
    from agentic_core.evaluate import aggregate, evaluate
    from agentic_core.io.loader import load_paths
    from agentic_core.judges.cache import JudgeCache
    from agentic_core.judges.registry import build_judge

    # Validate the aggregation settings before any judging: a typo must not cost LLM calls.
    _settings(args, 0.7)
    loaded = load_paths(args.paths)
    for issue in loaded.issues:
        print(f"{issue.severity}: {issue.message()}", file=stderr)
    if loaded.skipped:
        print(f"{len(loaded.skipped)} invalid record(s) skipped; evaluating the valid ones.", file=stderr)
    loaded.raise_if_empty()
    judge = build_judge(args.judge, **_judge_options(args))
    cache = None
    if args.cache != "off" and judge.cacheable:
        cache = JudgeCache(Path(args.cache_path) if args.cache_path else None)
    progress, close = _progress(not args.no_progress, stderr)
    try:
        result = evaluate(loaded, judge, cache=cache, cache_mode=args.cache, progress=progress)
    finally:
        if close is not None:
            close()
    for warning in result.judge_run.warnings:
        print(f"warning: {warning}", file=stderr)
    settings = _settings(args, result.recommended_threshold)
    agg = aggregate(result, settings)
    doc = report.summary(result, agg)
    if args.out:
        paths = report.write_exports(result, agg, args.out)
        print(f"exports written: {', '.join(str(p) for p in paths.values())}", file=stderr)
    if args.json:
        json.dump(doc, stdout, ensure_ascii=False)
        stdout.write("\n")
    else:
        _print_human(doc, stdout)
    failed = result.judge_run.counts.get("failed", 0)
    if failed:
        print(
            f"{failed} interaction(s) unscored by the judge "
            f"({'counted as incorrect' if settings.unscored_as_incorrect else 'excluded'}); "
            "see judge_reasoning in the JSON or the interactions CSV.",
            file=stderr,
        )
    if args.strict and loaded.skipped:
        print(f"--strict: {len(loaded.skipped)} invalid record(s).", file=stderr)
        return EXIT_STRICT
    return EXIT_OK


def main(
    argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    """Entry point; returns the process exit code."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    args = build_parser().parse_args(argv)
    try:
        if args.command == "evaluate":
            return run_evaluate(args, stdout, stderr)
    except AgenticError as exc:
        print(f"error: {exc}", file=stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        print("interrupted: judged results so far are kept in the cache", file=stderr)
        return 130
    return EXIT_USER_ERROR


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
