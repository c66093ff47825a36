"""The CI gate (docs/compare.md): fail a build when a run is below its bounds or worse than its baseline.

Two checks, each returning the failures as sentences that name the metric, its value and the bound:

- :func:`below_bounds` (``evaluate --fail-under success_rate=0.8,pass_pow_k=0.5``): a metric's point
  estimate (or, with ``lower=True``, its interval's lower bound) is below its bound. An undefined metric
  fails too: nothing shows it reaches the bound. pass@K / pass^K on data that does not measure them (one
  attempt per task: :attr:`~agentic_core.analysis.aggregate.Aggregate.k_evidence`) cannot be gated at all:
  that is a :class:`~agentic_core.errors.SettingsError` (exit 2 on the command line), never a pass.
- :func:`worse_than_baseline` (``compare A B --fail-if-worse success_rate,pass_pow_k``): P(B worse than A)
  = 1 - P(B > A) is at least the confidence (0.95). A pass@k / pass^k the paired tasks do not measure is a
  :class:`~agentic_core.errors.SettingsError` too.

Metric names: ``success_rate``, ``pass_at_k`` and ``pass_pow_k`` (at the run's K; ``pass_pow_k@3`` for
another k in a comparison), and the tool metrics ``tool_selection``, ``tool_parameters``,
``tool_sequence``, ``tool_utilization``, ``tool_overall``.
"""

from __future__ import annotations

from agentic_core.analysis.aggregate import Aggregate
from agentic_core.analysis.compare_runs import TOOL_METRICS, RunComparison
from agentic_core.common.frame_columns import PASS_METRICS, StatCols
from agentic_core.errors import SettingsError

GATE_METRICS = (*PASS_METRICS, *TOOL_METRICS)
"""Every metric name a gate accepts."""
WORSE_CONFIDENCE = 0.95
"""``--fail-if-worse`` fails a metric when P(B worse than A) is at least this."""


def _metric_name(text: str, place: str) -> tuple[str, int | None]:
    """``name`` or ``name@k`` -> (name, k), validated."""
    name, _, k_text = text.strip().partition("@")
    if name not in GATE_METRICS:
        raise SettingsError(place, f"names an unknown metric (known: {', '.join(GATE_METRICS)})", name, "fix the name")
    if not k_text:
        return name, None
    if name not in PASS_METRICS[1:] or not k_text.isdigit() or int(k_text) < 1:
        raise SettingsError(place, "takes @k (k >= 1) only after pass_at_k or pass_pow_k", text, "e.g. pass_pow_k@3")
    return name, int(k_text)


def parse_bounds(text: str, place: str = "--fail-under") -> dict[str, float]:
    """``success_rate=0.8,pass_pow_k=0.5`` -> ``{"success_rate": 0.8, "pass_pow_k": 0.5}``.

    Raises:
        SettingsError: an unknown metric, a missing ``=``, or a bound that is not a number in [0, 1].
    """
    bounds: dict[str, float] = {}
    for part in (p for p in text.split(",") if p.strip()):
        name, eq, value = part.partition("=")
        if not eq:
            raise SettingsError(place, "takes METRIC=BOUND pairs separated by commas", part, "e.g. success_rate=0.8")
        metric, k = _metric_name(name, place)
        if k is not None:
            raise SettingsError(place, "checks the run's own K (no @k)", name, f"write {metric}=...")
        try:
            bound = float(value)
        except ValueError:
            bound = float("nan")
        if not 0.0 <= bound <= 1.0:
            raise SettingsError(f"{place} {metric}", "must be a number in [0, 1]", value.strip(), "e.g. 0.8")
        bounds[metric] = bound
    if not bounds:
        raise SettingsError(place, "needs at least one METRIC=BOUND", text, "e.g. success_rate=0.8")
    return bounds


def parse_gate_metrics(text: str, place: str = "--fail-if-worse") -> list[tuple[str, int | None]]:
    """``success_rate,pass_pow_k@3`` (or ``all``) -> ``[("success_rate", None), ("pass_pow_k", 3)]``.

    Raises:
        SettingsError: an unknown metric or nothing named.
    """
    if text.strip().lower() == "all":
        return [(name, None) for name in GATE_METRICS]
    names = [_metric_name(part, place) for part in text.split(",") if part.strip()]
    if not names:
        raise SettingsError(place, "needs at least one metric name (or all)", text, "e.g. success_rate,pass_pow_k")
    return names


def _aggregate_value(agg: Aggregate, metric: str) -> tuple[float | None, tuple[float, float] | None]:
    """A metric's value and interval in an aggregate (the headline K for pass@k / pass^k)."""
    if metric == StatCols.SUCCESS_RATE:
        return agg.success_rate.value, agg.success_rate.ci
    if metric == StatCols.PASS_AT_K:
        return agg.headline.pass_at_k, agg.headline.pass_at_k_ci
    if metric == StatCols.PASS_POW_K:
        return agg.headline.pass_pow_k, agg.headline.pass_pow_k_ci
    name = metric.removeprefix("tool_")
    stat = agg.tool_summary.overall if name == "overall" else agg.tool_summary.dimensions[name]
    return stat.mean, stat.ci


def _shown(metric: str, k: int | None) -> str:
    return metric if k is None else f"{metric} (k = {k})"


def _not_measured(place: str, metric: str, why: str) -> SettingsError:
    """The error of a gate on pass@k / pass^k at a k the data does not measure: it cannot gate, it must not pass."""
    return SettingsError(
        f"{place} {metric}",
        f"cannot gate this run: {why.rstrip('.')}",
        None,
        f"gate success_rate (pass@1) instead of {metric}, or give every task several attempts with the same task_id",
        show=False,
    )


def below_bounds(
    agg: Aggregate, bounds: dict[str, float], lower: bool = False, place: str = "--fail-under"
) -> list[str]:
    """The metrics below their bound, one sentence each (empty when the run passes).

    Args:
        agg: The run's aggregate.
        bounds: Metric -> bound (from :func:`parse_bounds`).
        lower: Check the interval's lower bound instead of the point estimate.
        place: Where the bounds were given, for the error.

    Raises:
        SettingsError: a bound on pass@K / pass^K when the data does not measure them (one attempt per task).
    """
    for metric in bounds:
        if metric in PASS_METRICS[1:] and not agg.k_evidence.measured:
            raise _not_measured(place, metric, agg.k_evidence.sentence)
    failures = []
    for metric, bound in bounds.items():
        value, ci = _aggregate_value(agg, metric)
        k = agg.k if metric in PASS_METRICS[1:] else None
        checked = (None if ci is None else ci[0]) if lower else value
        what = "the lower bound of its interval" if lower else "its value"
        if checked is None:
            failures.append(f"{_shown(metric, k)} is undefined, so it cannot be shown to reach its bound {bound:g}")
        elif checked < bound:
            interval = "" if ci is None else f" [{ci[0]:.3f}, {ci[1]:.3f}]"
            failures.append(
                f"{_shown(metric, k)} = {value:.3f}{interval}: {what} {checked:.3f} is below the bound {bound:g}"
            )
    return failures


def worse_than_baseline(
    comparison: RunComparison, metrics: list[tuple[str, int | None]], confidence: float = WORSE_CONFIDENCE
) -> list[str]:
    """The named metrics on which B is worse than A with probability >= ``confidence``, one sentence each.

    ``(name, None)`` for pass@k / pass^k means the comparison's K. A metric the comparison does not have
    (a tool metric that applies to neither run) is skipped; one without a probability cannot fail.

    Raises:
        SettingsError: pass@k / pass^k at a k the paired tasks do not measure (too few attempts per task).
    """
    rows = {(m.metric, m.k): m for m in comparison.metrics}
    failures = []
    evidence = comparison.k_evidence
    for name, k in metrics:
        key = (name, comparison.k if name in PASS_METRICS[1:] and k is None else k)
        if name in PASS_METRICS[1:] and (key[1] or 1) > evidence.measured_up_to:
            why = evidence.sentence if key[1] == comparison.k else (
                f"pass@{key[1]} and pass^{key[1]} are not measured: the paired tasks' attempts measure k up to "
                f"{evidence.measured_up_to}"
            )
            raise _not_measured("--fail-if-worse", _shown(name, key[1]), why)
        row = rows.get(key)
        if row is None or row.p_b_better is None or row.delta is None:
            continue
        worse = 1.0 - row.p_b_better
        if worse >= confidence:
            ci = "" if row.delta_ci is None else f" [{row.delta_ci[0]:+.3f}, {row.delta_ci[1]:+.3f}]"
            failures.append(
                f"{_shown(name, key[1])}: {comparison.b_label} {row.b:.3f} vs {comparison.a_label} {row.a:.3f}, "
                f"delta {row.delta:+.3f}{ci}; P(B worse than A) = {worse:.3f} is at least the bound {confidence:g}"
            )
    return failures
