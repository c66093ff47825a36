"""The CI gate (docs/compare.md): fail a build when a run is below its bounds or worse than its baseline.

Two checks, each returning the failures as sentences that name the metric, its value and the bound:

- :func:`below_bounds` (``evaluate --fail-under success_rate=0.8,pass_pow_k=0.5``): a metric's point
  estimate (or, with ``lower=True``, its interval's lower bound) is below its bound. An undefined metric
  fails too: nothing shows it reaches the bound. pass@K / pass^K on data that does not measure them (one
  attempt per task: :attr:`~agentic_core.analysis.aggregate.Aggregate.k_evidence`) cannot be gated at all:
  that is a :class:`~agentic_core.errors.SettingsError` (exit 2 on the command line), never a pass.
- :func:`worse_than_baseline` (``compare A B --fail-if-worse success_rate,pass_pow_k``): B is worse than A
  on a metric at family-wise confidence 0.95. Each metric's P(B > A) is the p-value of the one-sided
  test "B is not worse" (frequentist mode: the paired t), and Holm's (1979) step-down over the metrics
  checked keeps the chance that a re-run of the same agent fails on *any* of them at 1 - 0.95: with
  one metric P(B worse than A) = 1 - P(B > A) must reach 0.95, with m metrics the most doubtful one
  must reach 1 - 0.05 / m, the next 1 - 0.05 / (m - 1), and so on. Tested one by one at 0.95 each, a
  re-run failed several metrics' gate more often than 5% (``benchmarks/bench_gate.py``). A metric on
  which the sides do not differ (the same verdicts) cannot fail. Holm holds whatever the dependence
  between the metrics; the metrics pass@1 and pass^1 are the success rate and count once. A pass@k /
  pass^k the paired tasks do not measure is a :class:`~agentic_core.errors.SettingsError` too.
- :func:`below_bounds` needs no such correction: with ``lower=True`` the run passes only when *every*
  lower bound reaches its bound (an intersection-union test, Berger 1982), so the chance of passing
  while some metric is truly below its bound is at most one interval's miss rate; point estimates
  state no error rate at all.

Metric names: ``success_rate``, ``pass_at_k`` and ``pass_pow_k`` (at the run's K; ``pass_pow_k@3`` for
another k in a comparison), and the tool metrics ``tool_selection``, ``tool_parameters``,
``tool_sequence``, ``tool_utilization``, ``tool_overall``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agentic_core.analysis.aggregate import Aggregate
from agentic_core.analysis.compare_runs import SAME_VERDICTS_TEXT, TOOL_METRICS, RunComparison
from agentic_core.common.frame_columns import PASS_METRICS, StatCols
from agentic_core.common.wording import plural
from agentic_core.errors import SettingsError
from agentic_core.stats.compare import MetricComparison

GATE_METRICS = (*PASS_METRICS, *TOOL_METRICS)
"""Every metric name a gate accepts."""
WORSE_CONFIDENCE = 0.95
"""``--fail-if-worse``'s family-wise confidence: a re-run of the same agent fails it at most 1 - this of the time."""


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


def holm_rejections(p_values: Sequence[float], alpha: float) -> list[bool]:
    """Holm's (1979) step-down: which hypotheses are rejected, the family-wise error held at ``alpha``.

    The smallest p-value is compared with alpha / m, the next with alpha / (m - 1), ..., stopping at
    the first that is not below its bound; every hypothesis before it is rejected. Valid whatever the
    dependence between the tests.

    Args:
        p_values: One p-value per hypothesis (NaN counts as 1).
        alpha: The family-wise error rate in (0, 1).

    Returns:
        Per hypothesis, in the given order, whether it is rejected.
    """
    p = np.nan_to_num(np.asarray(p_values, dtype=np.float64), nan=1.0)
    rejected = [False] * p.size
    for step, j in enumerate(np.argsort(p, kind="stable").tolist()):
        if p[j] > alpha / (p.size - step):
            break
        rejected[j] = True
    return rejected


def _family(
    comparison: RunComparison, metrics: list[tuple[str, int | None]]
) -> list[tuple[str, int | None, MetricComparison]]:
    """The checked metrics found in the comparison, once each: ``(name, k, row)``, in the order named.

    pass@1 and pass^1 are the success rate (the curve defines them so), so they count once under the
    first name given. A metric the comparison does not have, or whose delta is undefined, is no test.

    Raises:
        SettingsError: pass@k / pass^k at a k the paired tasks do not measure (too few attempts per task).
    """
    rows = {(m.metric, m.k): m for m in comparison.metrics}
    evidence = comparison.k_evidence
    family: dict[tuple[str, int | None], tuple[str, int | None, MetricComparison]] = {}
    for name, k in metrics:
        key = (name, comparison.k if name in PASS_METRICS[1:] and k is None else k)
        if name in PASS_METRICS[1:] and (key[1] or 1) > evidence.measured_up_to:
            why = evidence.sentence if key[1] == comparison.k else (
                f"pass@{key[1]} and pass^{key[1]} are not measured: the paired tasks' attempts measure k up to "
                f"{evidence.measured_up_to}"
            )
            raise _not_measured("--fail-if-worse", _shown(name, key[1]), why)
        row = rows.get(key)
        if row is None or row.delta is None:
            continue
        same = (StatCols.SUCCESS_RATE, None) if name == StatCols.SUCCESS_RATE or key[1] == 1 else key
        family.setdefault(same, (name, key[1], row))
    return list(family.values())


def _p_not_worse(row: MetricComparison) -> float:
    """The p-value of "B is not worse than A" on one metric: P(B > A), 1 where none is given (no difference)."""
    return 1.0 if row.p_b_better is None else row.p_b_better


def worse_than_baseline(
    comparison: RunComparison, metrics: list[tuple[str, int | None]], confidence: float = WORSE_CONFIDENCE
) -> list[str]:
    """The named metrics on which B is worse than A at family-wise ``confidence`` (Holm), one sentence each.

    ``(name, None)`` for pass@k / pass^k means the comparison's K. A metric the comparison does not have
    (a tool metric that applies to neither run) is skipped; one without a probability (no difference, or
    too few tasks) cannot fail but still counts in the family.
    """
    family = _family(comparison, metrics)
    alpha = 1.0 - confidence
    p_values = [_p_not_worse(row) for _, _, row in family]
    rejected = holm_rejections(p_values, alpha)
    order = np.argsort(np.asarray(p_values), kind="stable").tolist()
    failures = []
    for step, j in enumerate(order):
        if not rejected[j]:
            break
        name, k, row = family[j]
        assert row.delta is not None and row.b is not None and row.a is not None
        remaining = len(family) - step
        said = f"the bound {confidence:g}"
        if len(family) > 1:
            said = (
                f"the bound {1.0 - alpha / remaining:.4g} (Holm: 1 - {alpha:.2g} / {remaining}; "
                f"{plural(len(family), 'metric')} checked at family-wise confidence {confidence:g})"
            )
        ci = "" if row.delta_ci is None else f" [{row.delta_ci[0]:+.3f}, {row.delta_ci[1]:+.3f}]"
        failures.append(
            f"{_shown(name, k)}: {comparison.b_label} {row.b:.3f} vs {comparison.a_label} {row.a:.3f}, "
            f"delta {row.delta:+.3f}{ci}; P(B worse than A) = {1.0 - p_values[j]:.3f} is at least {said}"
        )
    return failures


def gate_passed(
    comparison: RunComparison, metrics: list[tuple[str, int | None]], confidence: float = WORSE_CONFIDENCE
) -> str:
    """The line a passing ``--fail-if-worse`` gate prints: what it checked, or that the verdicts are the same."""
    if comparison.same_verdicts:
        return f"B cannot be worse than A: {SAME_VERDICTS_TEXT}"
    checked = plural(len(_family(comparison, metrics)), "metric")
    return f"B is not shown worse than A on the {checked} checked (Holm, family-wise confidence {confidence:g})"
