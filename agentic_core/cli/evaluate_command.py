"""``python -m agentic_core evaluate``: load, judge, aggregate, print and export."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from agentic_core.agentic_metrics.compute import parse_metrics
from agentic_core.analysis.corrected_words import conversations_counted
from agentic_core.analysis.given_labels import with_given_labels
from agentic_core.analysis.nothing_scored import why_llm_scored_nothing, why_nothing_scored
from agentic_core.cli.engine_options import engine_keywords
from agentic_core.cli.format_options import FormatDefaultsDocument, apply_format_defaults, chosen
from agentic_core.cli.gate_options import fail_under_exit
from agentic_core.cli.headline_text import corrected_lines, pass_k_lines
from agentic_core.cli.label_options import labels_from_args
from agentic_core.cli.metric_options import print_agentic, view_from_args
from agentic_core.cli.parser import EXIT_NOT_STORED, EXIT_NOTHING_SCORED, EXIT_OK, EXIT_STRICT, EXIT_USER_ERROR
from agentic_core.cli.tag_options import tags_from_args
from agentic_core.errors import AgenticError, SettingsError
from agentic_core.judges.cascade import CascadeCounts, result_cascade_counts
from agentic_core.judges.llm.options import LLM_OPTIONS
from agentic_core.judges.verdict_counts import verdict_counts
from agentic_core.report.documents import SummaryDocument
from agentic_core.settings import AggregateSettings, ToolWeights, band_from_text, make_settings, parse_k, parse_prior

if TYPE_CHECKING:
    from agentic_core.analysis.aggregate import Aggregate
    from agentic_core.io.load_report import LoadReport
    from agentic_core.judges.spec import JudgeSpecBase
    from agentic_core.result import EvaluationResult
    from agentic_core.runs import RunTags

_SETTING_OPTIONS = (
    "tool_threshold",
    "unit",
    "target",
    "estimator",
    "mode",
    "ci_level",
    "seed",
    "unscored_as_incorrect",
    "ignore_extra_tools",
    "require_tool_correctness",
)


def settings_from_args(args: argparse.Namespace, recommended: float) -> AggregateSettings:
    """The aggregation settings the options ask for (``recommended``: the judge's threshold)."""
    a, b = parse_prior(args.prior)
    values: dict[str, Any] = {name: getattr(args, name) for name in _SETTING_OPTIONS}
    values.update(unit=chosen(args, "unit"), ignore_extra_tools=chosen(args, "ignore_extra_tools"))
    values.update(
        k=parse_k(args.k),
        threshold=recommended if args.threshold is None else args.threshold,
        prior_a=a,
        prior_b=b,
    )
    if args.tool_weights is not None:
        values["tool_weights"] = ToolWeights.parse(args.tool_weights)
    band = getattr(args, "abstain_band", None)  # commands without the option keep the judge's band
    if band is not None:
        values["abstain_band"] = band_from_text(band)
    return make_settings(**values)


def _judge_spec_of(args: argparse.Namespace) -> JudgeSpecBase:
    """The spec of the judge the options name, validated once (the LLM options for the judges that take them).

    Raises:
        JudgeConfigError: an option refused (an unknown provider, a missing key, ...).
    """
    from agentic_core.judges.spec import SPECS, judge_spec

    name = chosen(args, "judge")
    if SPECS[name].offline:  # the LLM flags have defaults; an offline judge takes none of them
        return judge_spec(name)
    return judge_spec(
        name,
        provider=args.provider,
        model=args.model,
        base_url=args.base_url,
        api_key_env=args.api_key_env,
        use_structured_output=getattr(args, "structured_output", "auto"),
        **{option: getattr(args, option) for option in LLM_OPTIONS},
    )


BAR_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}]"
"""The progress bar: share, bar, count and times; no items-per-second figure."""


def _is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty()) if callable(isatty) else False


def _progress(enabled: bool, stream: TextIO) -> tuple[Any, Any]:
    if not enabled:
        return None, None
    from tqdm import tqdm

    bar: Any = None

    def update(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            # No rate: answers read from the cache arrive all at once, and done / elapsed then showed
            # tens of millions of items a second. Created at the first count, so "0%" is drawn once.
            # A terminal redraws the bar in place and clears it at the end; any other stream (a pipe, a CI log)
            # keeps the last state and ends it with a newline, else the next message would share its line.
            bar = tqdm(
                total=total, desc="judging", unit="item", file=stream, leave=not _is_terminal(stream),
                bar_format=BAR_FORMAT,
            )  # fmt: skip
            if done == 0:
                return
        if done != bar.n:
            bar.n = done
            bar.refresh()

    def close() -> None:
        if bar is not None:
            bar.close()

    return update, close


class EvaluateDocument(SummaryDocument, total=False):
    """``evaluate --json``: the JSON summary and the fields this command adds to it."""

    engine: str
    """Where the per-record work ran (``local`` or ``ray``)."""
    cascade: dict[str, Any] | None
    """Who decided, for the cascade judge (null for the others)."""
    uncertain: int
    """Interactions the judge abstains on under the abstention band (unscored, never 0 or 1); with the judge's own
    band (the default) the same as ``judge_counts``' uncertain."""
    unscored_causes: dict[str, int]
    """Unscored interactions by cause (every cause of :class:`~agentic_core.judges.causes.UnscoredCause`)."""
    unscored_summary: str
    """The same in words, with what to do (``""`` when every interaction was scored)."""
    llm_calls: dict[str, Any] | None
    """What an LLM judge's calls showed (timeout, first reply, the server; null for other judges)."""
    run_id: str | None
    """The run's id in the history (null when it was not stored)."""
    run_not_stored: str
    """Why ``run_id`` is null, when storing failed."""
    corrected: dict[str, Any] | None
    """The headline corrected for the judge's errors with human labels
    (:meth:`~agentic_core.analysis.corrected_reading.CorrectedReading.as_json`); null without any label."""
    conversations_counted: str | None
    """``on N of M conversations`` when the judge-only headline leaves conversations out; null when it counts all."""
    format_defaults: FormatDefaultsDocument | None
    """The options the data's format set because they were not given, and those given that it would have set
    otherwise (null when the format states nothing, or the command line gave what it states)."""


def _counts_only(doc: dict[str, Any]) -> dict[str, Any]:
    """The stored counts of a ``cascade`` object (without its derived total and share)."""
    return {k: v for k, v in doc.items() if k in CascadeCounts.model_fields}


def _metric_text(x: float | None, digits: int = 3) -> str:
    return "undefined" if x is None else f"{x:.{digits}f}"


def _interval_text(ci: Sequence[float] | None) -> str:
    return "" if ci is None else f" [{ci[0]:.3f}, {ci[1]:.3f}]"


def print_human(doc: EvaluateDocument, out: TextIO) -> None:
    """The summary document as a few lines of text and a table of the curve."""
    head = doc["headline"]
    k = head["k"]
    counts = doc["counts"]
    rate = doc["conversation_success_rate"]
    print(f"judge: {doc['judge_label']}   counts: {doc['judge_counts']}", file=out)
    if doc.get("uncertain"):
        print(f"verdicts: {verdict_counts(doc['judge_counts']).words()}", file=out)
    if cascade := doc.get("cascade"):
        print(f"cascade: {CascadeCounts(**_counts_only(cascade)).summary()}", file=out)
    band = doc["settings"].get("abstain_band")
    if band is not None:  # the verdicts line above is the judge's own band's
        print(f"abstention band: {band[0]:g} to {band[1]:g} (set): {doc.get('uncertain', 0)} uncertain (unscored)",
              file=out)
    print(f"unit: {doc['unit_description']}", file=out)
    print(f"K: {doc['k_reason']}", file=out)
    print(f"statistics: {doc['statistics']['description']}", file=out)
    print(
        f"conversations: {counts['conversations']} ({counts['correct_conversations']} fully correct, "
        f"{counts['unscored_conversations']} unscored and excluded)",
        file=out,
    )
    observed = "" if rate["observed"] is None else f"  (observed: {_metric_text(rate['observed'])})"
    counted = f" {doc['conversations_counted']}" if doc.get("conversations_counted") else ""  # none left out silently
    print(f"success rate (pass@1): {_metric_text(rate['rate'])}{_interval_text(rate['ci'])}{counted}{observed}",
          file=out)  # fmt: skip
    evidence = doc["k_evidence"]
    measured = evidence["measured"]  # else no number for pass@K, why and what would measure it
    for line in pass_k_lines(doc, lambda x, ci: f"{_metric_text(x)}{_interval_text(ci)}"):
        print(line, file=out)
    bounds = doc["unscored_bounds"]
    if bounds is not None:
        for label, values in (("all incorrect", bounds["as_incorrect"]), ("all correct", bounds["as_correct"])):
            at_k = f", pass@{k} {_metric_text(values['pass_at_k'])}, pass^{k} {_metric_text(values['pass_pow_k'])}"
            print(
                f"  with the {bounds['unscored_interactions']} unscored interaction(s) counted {label}: success "
                f"{_metric_text(values['success_rate'])}{at_k if measured else ''}",
                file=out,
            )
    for note in head["notes"]:
        if note != evidence["sentence"]:  # already said above
            print(f"note: {note}", file=out)
    print("\n k  pass@k                   pass^k                   groups", file=out)
    up_to = evidence["measured_up_to"]
    for p in doc["curve"][:up_to]:
        at = f"{_metric_text(p['pass_at_k'])}{_interval_text(p['pass_at_k_ci'])}"
        pw = f"{_metric_text(p['pass_pow_k'])}{_interval_text(p['pass_pow_k_ci'])}"
        print(f"{p['k']:>2}  {at:<24} {pw:<24} {p['n_groups']}", file=out)
    if k > up_to:
        print(f"{up_to + 1:>2}..{k}: not measured (too few attempts per task; see pass@{k} above)", file=out)
    if head["n_excluded"]:
        print(f"{head['n_excluded']} group(s) {head['excluded_reason']}", file=out)
    tc = doc["tool_correctness"]
    if tc["scored_interactions"]:
        dims = ", ".join(f"{n} {_metric_text(d['mean'], 2)}" for n, d in tc["dimensions"].items())
        print(
            f"\ntool correctness over {tc['scored_interactions']} interactions: {dims}; "
            f"overall {_metric_text(tc['overall']['mean'], 2)}; {tc['correct_interactions']} at or above "
            f"{tc['tool_threshold']}",
            file=out,
        )


def judge_loaded(loaded: LoadReport, args: argparse.Namespace, stderr: TextIO, **extra: Any) -> EvaluationResult:
    """Judge loaded data with the judge, cache and progress bar the command-line options name.

    Shared by ``evaluate``, ``compare`` and ``calibrate``; ``extra`` goes to :func:`evaluate` (``metrics``,
    ``goal_judge``).
    """
    from agentic_core.evaluate import evaluate
    from agentic_core.judges.cache import JudgeCache

    spec = _judge_spec_of(args)
    judge = spec.build()
    cache = None
    if args.cache != "off" and judge.cacheable:
        cache = JudgeCache(Path(args.cache_path) if args.cache_path else None)
    keywords = engine_keywords(args)
    target = spec if keywords["engine"] == "ray" else judge  # Ray's workers rebuild the judge from its spec
    progress, close = _progress(not args.no_progress, stderr)
    try:
        return evaluate(loaded, target, cache=cache, cache_mode=args.cache, progress=progress, **keywords, **extra)
    finally:
        if close is not None:
            close()


def write_run_file(
    result: EvaluationResult,
    paths: list[str],
    settings: AggregateSettings,
    out: str,
    run_id: str | None,
    tags: RunTags | None = None,
) -> Path:
    """Write the run file (``run.agentic-run.json.gz``) into ``out``: the dashboard's History page imports it.

    So a run evaluated elsewhere (a server, a Ray cluster) can be explored on a laptop, with its
    verdicts and settings: no judge is called again.

    Raises:
        OutputError: the file cannot be written (no partial file is left).
    """
    from agentic_core.cli.runs_command import data_name_of
    from agentic_core.common.atomic_file import write_atomic
    from agentic_core.runs.payload import new_payload
    from agentic_core.runs.run_file import RUN_FILE_SUFFIX, run_file_bytes

    payload = new_payload(
        result, data_name_of(paths), run_id=run_id, settings=settings.model_dump(mode="json"), tags=tags
    )
    return write_atomic(Path(out) / f"run{RUN_FILE_SUFFIX}", run_file_bytes(payload))


def run_evaluate(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Run the ``evaluate`` command; returns the exit code."""
    from agentic_core import report
    from agentic_core.evaluate import aggregate
    from agentic_core.io.otel_load import load_otel

    # Validate the aggregation settings before any judging: a typo must not cost LLM calls.
    settings_from_args(args, 0.7)
    metrics = parse_metrics(args.metrics)
    tags = tags_from_args(args)  # checked before judging too: a bad --tag or --meta costs no judge call
    labels = labels_from_args(args, stderr)  # a bad --labels file too
    if tags and args.no_save and not args.out:
        print("note: --tag, --note and --meta are kept with the stored run or --out's run file; with --no-save and "
              "no --out they are not kept", file=stderr)  # fmt: skip
    loaded = load_otel(args.paths, references=getattr(args, "references", None), format=args.format)
    for issue in loaded.issues:
        print(f"{issue.severity}: {issue.message()}", file=stderr)
    if loaded.skipped:
        print(f"{len(loaded.skipped)} invalid record(s) skipped; evaluating the valid ones.", file=stderr)
    loaded.raise_if_empty()
    format_applied = apply_format_defaults(args, loaded, stderr)  # before judging: it may choose the judge
    result = judge_loaded(loaded, args, stderr, metrics=metrics, goal_judge=args.goal_judge)
    with_given_labels(result, labels)  # stored with the run; the corrected reading uses them
    for warning in result.judge_run.warnings + (result.agentic.warnings if result.agentic else []):
        print(f"warning: {warning}", file=stderr)
    if result.agentic is not None:
        result.agentic.view = view_from_args(args)
    settings = settings_from_args(args, result.recommended_threshold)
    agg = aggregate(result, settings)
    # Per-conversation records only where they are printed: the text report does not show them, and
    # building them took 11 s of a 26 s run at 100k interactions (--out writes its own).
    doc = EvaluateDocument(**report.summary(result, agg, include_conversations=bool(args.json)))
    doc["engine"] = engine_keywords(args)["engine"]  # an added field: where the per-record work ran
    doc["format_defaults"] = format_applied  # an added field: what the data's format chose
    cascade = result_cascade_counts(result)
    # An added field: who decided (null for judges other than the cascade).
    doc["cascade"] = None if cascade is None else cascade.as_json()
    # An added field: interactions the judge abstains on under the abstention band (unscored, never 0 or 1; with
    # the judge's own band, the default, the same as judge_counts' uncertain).
    doc["uncertain"] = agg.counts.uncertain_interactions
    counts = verdict_counts(result)
    # Added fields (issue 40): the unscored interactions by cause, in words, and the LLM calls' account.
    calls = result.judge_run.llm_calls
    doc["unscored_causes"] = counts.causes
    doc["unscored_summary"] = counts.unscored_words(calls)
    doc["llm_calls"] = None if calls is None else calls.model_dump(mode="json")
    # Added fields (issue 37): the headline corrected with human labels (null without), and the conversations the
    # judge-only headline rests on.
    corrected = agg.corrected
    doc["corrected"] = None if corrected is None else corrected.as_json()
    doc["conversations_counted"] = conversations_counted(agg)
    not_stored: AgenticError | None = None
    if not args.no_save:  # the run history (python -m agentic_core runs ...); its id is an added field
        from agentic_core.cli.runs_command import store_evaluation

        doc["run_id"], not_stored = store_evaluation(result, args.paths, settings, stderr, tags)
        if not_stored is not None:
            doc["run_not_stored"] = str(not_stored)  # an added field: --json readers see why run_id is null
    # Results come first: a history or --out that cannot be written is reported after them, never instead.
    out_error: AgenticError | None = None
    if args.out:
        try:
            paths = report.write_exports(result, agg, args.out)
            paths["run"] = write_run_file(result, args.paths, settings, args.out, doc.get("run_id"), tags)
            print(f"exports written: {', '.join(str(p) for p in paths.values())}", file=stderr)
        except AgenticError as exc:
            out_error = exc
    if args.json:
        json.dump(doc, stdout, ensure_ascii=False)
        stdout.write("\n")
    else:
        print_human(doc, stdout)
        for line in corrected_lines(corrected, agg):
            print(line, file=stdout)
        print_agentic(doc, stdout)
    code = _outcome(result, loaded, settings, agg, args, stderr)
    if not_stored is not None:
        print(f"error: the results above were printed, but the run could not be stored in the history: "
              f"{not_stored}", file=stderr)
    if out_error is not None:
        print(f"error: {out_error}", file=stderr)
        return EXIT_USER_ERROR  # a requested file is missing: outranks every other outcome
    if code == EXIT_OK and not_stored is not None:
        return EXIT_NOT_STORED  # the lowest rank: 5, 3 and the gate's 4 say more about the run itself
    return code


def _outcome(
    result: EvaluationResult,
    loaded: LoadReport,
    settings: AggregateSettings,
    agg: Aggregate,
    args: argparse.Namespace,
    stderr: TextIO,
) -> int:
    """The evaluation's own exit code (nothing scored, --strict, the gate), its reasons said on stderr."""
    counts = verdict_counts(result)
    failed = counts.failed
    counted = "counted as incorrect" if settings.unscored_as_incorrect else "excluded"
    # Scored under the settings: the abstention band may decide what the judge abstained on, or abstain on more.
    scored = agg.counts.interactions - agg.counts.unscored_interactions
    uncertain = agg.counts.uncertain_interactions
    if scored == 0 and counts.judged and settings.abstain_band is not None:
        low, high = settings.abstain_band
        print(
            f"error: nothing could be scored: the abstention band {low:g},{high:g} abstains on every interaction "
            f"the judge gave a probability ({counts.words()} with the judge's own band). Fix: narrow --abstain-band "
            "or leave it out.",
            file=stderr,
        )
        return EXIT_NOTHING_SCORED
    if scored == 0 and result.agentic is not None and result.agentic.tool_metrics_only():
        # Tool metrics need no answer judge: samples without reference answers are still evaluated.
        print(
            f"note: no answer was scored: the judge {why_nothing_scored(result)}. Only tool metrics were asked "
            f"for (--metrics {','.join(result.agentic.metrics)}), and they need no answer judge.",
            file=stderr,
        )
    elif scored == 0:
        fix = (
            "Fix the judge's configuration or choose another judge."
            if failed
            else "Fix: use --judge cascade (an LLM judges what the offline judge is unsure of) or --judge llm, "
            "or --unscored-as-incorrect."
        )
        print(f"error: nothing could be scored: the judge {why_nothing_scored(result)}. {fix}", file=stderr)
        return EXIT_NOTHING_SCORED
    elif failed:
        causes = counts.cause_parts(result.judge_run.llm_calls, uncertain=False)
        print(
            f"{failed} interaction(s) unscored by the judge ({counted})"
            + (f": {'; '.join(causes)}" if causes else "")
            + "; see judge_reasoning in the JSON or judge_error in the interactions CSV.",
            file=stderr,
        )
    if (llm_failed := why_llm_scored_nothing(result)) is not None:
        print(f"warning: {llm_failed}", file=stderr)
    if uncertain:
        print(
            f"{uncertain} interaction(s) uncertain: the judge abstained, so they are unscored ({counted}), "
            "never 0 or 1; the unscored bounds show the worst and best case (Explorer: reason 'uncertain').",
            file=stderr,
        )
    if args.strict and loaded.errors:
        files = sum(1 for issue in loaded.errors if issue.record is None)
        print(
            f"--strict: {len(loaded.skipped)} invalid record(s) and {files} file(s) that could not be read.",
            file=stderr,
        )
        return EXIT_STRICT
    try:
        return fail_under_exit(args, agg, stderr) or EXIT_OK
    except SettingsError as exc:  # a bound this run cannot be checked against (pass@K not measured): never a pass
        print(f"error: {exc}", file=stderr)
        return EXIT_USER_ERROR
