"""Per-task terms of the corrected curve: the judge's and the human's task values, and the
Horvitz-Thompson rectifier pieces (docs/statistics.md, "Correcting for the judge").

Columns: the success rate (c/n, every task with an attempt), then pass@k for each k, then pass^k for
each k (tasks with n >= K, as in the judge-only curve). One row per task, in a canonical order (sorted
by the rows' content), so no sum depends on the order of the data.

Task values (exact expectations of the unbiased estimators under independent attempts, see
:mod:`agentic_core.stats.symmetric`):

- judge: Yhat_i from the judge's per-attempt P(correct) p_j: pass^k = e_k(p) / C(n, k),
  pass@k = 1 - e_k(1 - p) / C(n, k), success rate = mean(p);
- human: Y_i, the same functions of the 1/0 labels (task design: only when every attempt of the
  task is labelled).

Horvitz-Thompson pieces (attempts labelled independently, attempt j with probability pi_j; or a task
design with per-task inclusion): for one task and one metric h over k-subsets S of its attempts,

    A_i = sum_{S all labelled} h(Y_S) / pi_S / C(n, k),     E[A_i] = Y_i (the value full labels give)
    B_i = sum_{S all labelled} h(p_S) / pi_S / C(n, k),     E[B_i] = Yhat_i

with pi_S = prod_{j in S} pi_j; pass^k: h = prod, so the sums are e_k(xi Y / pi) and e_k(xi p / pi)
(xi_j = 1 for a labelled attempt); pass@k: h = 1 - prod(1 - .), so e_k(xi / pi) - e_k(xi (1 - Y) / pi).
A uniform sample of m of the M attempts uses the exact pi_S = prod_{r<k} (m - r) / (M - r).
For "these tasks" the unbiased estimate of Var(A_i - lambda B_i) over the labelling is
v_AA - 2 lambda v_AB + lambda^2 v_BB, each from :func:`agentic_core.stats.symmetric.bivariate`:
for two sums e_k(X^a), e_k(X^b) with X_j = xi_j x_j / pi_j, Cov-hat = coefficient of s^k t^k in
prod_j (1 + X^a_j s + X^b_j t + X^a_j X^b_j s t) - prod_j (1 + X^a_j s + X^b_j t + pi_j X^a_j X^b_j s t)
(the first is e_k(X^a) e_k(X^b); the second replaces x^a_j x^b_j by its unbiased xi_j x^a_j x^b_j / pi_j,
so its expectation is e_k(x^a) e_k(x^b) = E[e_k(X^a)] E[e_k(X^b)]).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agentic_core.stats.counts import BoolArray, FloatArray, IntArray
from agentic_core.stats.symmetric import binomial, bivariate, elementary, expected_values


@dataclass(frozen=True)
class Conversations:
    """The validated per-conversation inputs (judge imputed where it gave nothing)."""

    judge: FloatArray
    human: FloatArray
    task: IntArray
    inclusion: FloatArray | None


@dataclass(frozen=True)
class TaskTerms:
    """Per task (rows, canonical order) and per metric column: the values the estimators use.

    Attributes:
        attempts: Attempts per task.
        judge: Yhat, ``(tasks, columns)``; NaN where the column excludes the task.
        human: Y where the task is fully labelled, else NaN.
        labelled: Per task: every attempt labelled (task design) / at least one attempt labelled.
        ht_a: Horvitz-Thompson A (None unless an HT design).
        ht_b: Horvitz-Thompson B.
        ht_weight: HT estimate of 1 (the rectifier's weight of the task), for the variance floor.
        ht_units: Per column: tasks whose rectifier can be non-zero (enough labelled attempts).
        var_aa: "These tasks" HT variance pieces (None unless asked for).
        var_ab: Same.
        var_bb: Same.
        inclusion: Per task inclusion probability (task design with inclusion), else None.
    """

    attempts: IntArray
    judge: FloatArray
    human: FloatArray
    labelled: BoolArray
    ht_a: FloatArray | None = None
    ht_b: FloatArray | None = None
    ht_weight: FloatArray | None = None
    ht_units: IntArray | None = None
    var_aa: FloatArray | None = None
    var_ab: FloatArray | None = None
    var_bb: FloatArray | None = None
    inclusion: FloatArray | None = None


def _ht_pieces(
    xi: FloatArray, inv_pi: FloatArray, y: FloatArray, p: FloatArray, ks: list[int], joint: FloatArray | None
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """A, B and the HT weight per column for tasks of one size (attempt design).

    ``joint`` (uniform fixed-size sample) holds 1 / pi_S per k; otherwise pi_S = prod pi_j.
    """
    n = xi.shape[1]
    k_max = min(max(ks), n)
    scale = xi if joint is not None else xi * inv_pi
    e_one = elementary(scale, k_max)
    e_y = elementary(scale * np.nan_to_num(y), k_max)
    e_ny = elementary(scale * (1.0 - np.nan_to_num(y)), k_max)
    e_p = elementary(scale * p, k_max)
    e_np = elementary(scale * (1.0 - p), k_max)
    rows = xi.shape[0]
    a_cols: list[FloatArray] = []
    b_cols: list[FloatArray] = []
    w_cols: list[FloatArray] = []
    for kind, k in [("rate", 1)] + [("at", k) for k in ks] + [("pow", k) for k in ks]:
        if k > n:
            nan = np.full(rows, np.nan)
            for cols_ in (a_cols, b_cols, w_cols):
                cols_.append(nan)
            continue
        factor = (1.0 if joint is None else joint[k]) / binomial(n, k)
        if kind == "at":
            a = (e_one[:, k] - e_ny[:, k]) * factor
            b = (e_one[:, k] - e_np[:, k]) * factor
        else:
            a = e_y[:, k] * factor
            b = e_p[:, k] * factor
        a_cols.append(a)
        b_cols.append(b)
        w_cols.append(e_one[:, k] * factor)
    return np.column_stack(a_cols), np.column_stack(b_cols), np.column_stack(w_cols)


def _ht_variance(
    xi: FloatArray, pi: FloatArray, y: FloatArray, p: FloatArray, ks: list[int]
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Unbiased per-task estimates of Var(A), Cov(A, B), Var(B) over the labelling (Poisson sampling)."""
    n = xi.shape[1]
    k_max = min(max(ks), n)
    # An unlabelled attempt's factor is 1: the products run over the labelled attempts only, gathered to
    # the front, per group of tasks with the same number of them (no coefficient of a higher degree is non-zero).
    lab = xi > 0
    count = lab.sum(axis=1)
    front = np.argsort(~lab, axis=1, kind="stable")
    y0, rows = np.nan_to_num(y), xi.shape[0]
    cache: dict[tuple[str, str], FloatArray] = {}

    def cov(u: str, v: str) -> FloatArray:
        key = (u, v) if u <= v else (v, u)
        if key not in cache:
            found = np.zeros((rows, k_max + 1))
            for m in np.unique(count[count > 0]):
                sel = np.flatnonzero(count == m)
                idx = front[sel, :m]
                inv = 1.0 / np.take_along_axis(pi[sel], idx, axis=1)
                y_l = np.take_along_axis(y0[sel], idx, axis=1)
                p_l = np.take_along_axis(p[sel], idx, axis=1)
                vec = {"one": inv, "y": inv * y_l, "ny": inv * (1.0 - y_l), "p": inv * p_l, "np": inv * (1.0 - p_l)}
                xa, xb = vec[key[0]], vec[key[1]]
                both = xa * xb
                degree = min(k_max, int(m))
                pi_l = np.take_along_axis(pi[sel], idx, axis=1)
                found[sel, : degree + 1] = bivariate(xa, xb, both, degree) - bivariate(xa, xb, pi_l * both, degree)
            cache[key] = found
        return cache[key]

    # Each metric as a signed combination of e_k sums: pass^k (and the rate): A = e(y), B = e(p);
    # pass@k: A = e(one) - e(ny), B = e(one) - e(np).
    combos = {"pow": ([("y", 1.0)], [("p", 1.0)]), "at": ([("one", 1.0), ("ny", -1.0)], [("one", 1.0), ("np", -1.0)])}
    out: list[list[FloatArray]] = [[], [], []]
    for kind, k in [("pow", 1)] + [("at", k) for k in ks] + [("pow", k) for k in ks]:
        if k > n:
            for col in out:
                col.append(np.full(rows, np.nan))
            continue
        a_terms, b_terms = combos[kind]
        c2 = binomial(n, k) ** 2
        for slot, (left, right) in enumerate(((a_terms, a_terms), (a_terms, b_terms), (b_terms, b_terms))):
            total = np.zeros(rows)
            for u, su in left:
                for v, sv in right:
                    total = total + su * sv * cov(u, v)[:, k]
            out[slot].append(total / c2)
    return np.column_stack(out[0]), np.column_stack(out[1]), np.column_stack(out[2])


def build_terms(
    conv: Conversations,
    ks: list[int],
    design: str,
    task_inclusion: FloatArray | None,
    uniform_attempts: tuple[int, int] | None,
    these_tasks: bool,
) -> TaskTerms:
    """Every task's values, per column, in canonical order.

    Args:
        conv: The conversations.
        ks: The k values (sorted).
        design: ``tasks`` or ``attempts``.
        task_inclusion: Per task code, its inclusion probability (task design, non-uniform), else None.
        uniform_attempts: (m, M) for a uniform attempt sample (exact pi_S), else None.
        these_tasks: Whether to compute the "these tasks" HT variance pieces.
    """
    # Canonical order of attempts inside each task: by task, then content (never by input position).
    order = np.lexsort(
        [conv.judge, np.nan_to_num(conv.human, nan=-1.0)]
        + ([conv.inclusion] if conv.inclusion is not None else [])
        + [conv.task]
    )
    task = conv.task[order]
    judge = conv.judge[order]
    human = conv.human[order]
    incl = conv.inclusion[order] if conv.inclusion is not None else None
    codes, start, size = np.unique(task, return_index=True, return_counts=True)
    cols = 1 + 2 * len(ks)
    t_all = codes.size
    j_val = np.full((t_all, cols), np.nan)
    h_val = np.full((t_all, cols), np.nan)
    labelled = np.zeros(t_all, dtype=bool)
    ht = design == "attempts" or task_inclusion is not None
    a_val = np.full((t_all, cols), np.nan) if ht else None
    b_val = np.full((t_all, cols), np.nan) if ht else None
    w_val = np.full((t_all, cols), np.nan) if ht else None
    var = [np.full((t_all, cols), np.nan) for _ in range(3)] if ht and these_tasks else None
    units = np.zeros((t_all, cols), dtype=np.int64)
    joint = None
    if uniform_attempts is not None:
        m, big_m = uniform_attempts
        joint = np.ones(max(ks) + 1)
        for k in range(1, max(ks) + 1):
            prob = float(np.prod([(m - r) / (big_m - r) for r in range(k)])) if m >= k else 0.0
            joint[k] = 1.0 / prob if prob > 0 else 0.0
    for n in np.unique(size):
        rows = np.flatnonzero(size == n)
        idx = start[rows, None] + np.arange(n)[None, :]
        p = judge[idx]
        y = human[idx]
        j_val[rows] = expected_values(p, ks)
        full: BoolArray = np.asarray(np.isfinite(y).all(axis=1))
        any_label: BoolArray = np.asarray(np.isfinite(y).any(axis=1))
        if full.any():
            h_val[rows[full]] = expected_values(y[full], ks)
        if design == "tasks":
            labelled[rows] = full
            if task_inclusion is not None:
                assert a_val is not None and b_val is not None and w_val is not None
                pi = np.where(full, task_inclusion[codes[rows]], 1.0)
                xi = full.astype(np.float64)
                inv = np.where(full, 1.0 / pi, 0.0)[:, None]
                a_val[rows] = np.where(full[:, None], np.nan_to_num(h_val[rows]) * inv, 0.0)
                b_val[rows] = j_val[rows] * inv * xi[:, None]
                w_val[rows] = np.broadcast_to(inv, (rows.size, cols))
                if var is not None:
                    fpc = (np.where(full, 1.0 - pi, 0.0)[:, None]) * inv * inv
                    hv = np.nan_to_num(h_val[rows])
                    var[0][rows] = hv * hv * fpc
                    var[1][rows] = hv * j_val[rows] * fpc
                    var[2][rows] = j_val[rows] ** 2 * fpc
                units[rows] = full[:, None]
            continue
        labelled[rows] = any_label
        assert a_val is not None and b_val is not None and w_val is not None
        xi = np.isfinite(y).astype(np.float64)
        pi = incl[idx] if incl is not None else np.full(idx.shape, uniform_attempts[0] / uniform_attempts[1])  # type: ignore[index]
        inv_pi = np.where(xi > 0, 1.0 / np.where(xi > 0, pi, 1.0), 0.0)
        a_val[rows], b_val[rows], w_val[rows] = _ht_pieces(xi, inv_pi, y, p, ks, joint)
        n_lab = xi.sum(axis=1)
        need = np.array([1, *ks, *ks])
        units[rows] = (n_lab[:, None] >= need[None, :]) & (need[None, :] <= n)
        if var is not None:
            va, vab, vb = _ht_variance(xi, np.where(xi > 0, pi, 1.0), y, p, ks)
            var[0][rows], var[1][rows], var[2][rows] = va, vab, vb
    # The curve's columns use the tasks with n >= K only (one set of tasks for the whole curve).
    short = size < max(ks)
    curve = np.zeros(cols, dtype=bool)
    curve[1:] = True
    for arr in [j_val, h_val, a_val, b_val, w_val, *(var or [])]:
        if arr is not None:
            arr[np.ix_(short, curve)] = np.nan
    units[np.ix_(short, curve)] = 0
    task_pi = task_inclusion[codes] if task_inclusion is not None else None
    rank = _canonical_rows(j_val, h_val, a_val, b_val, task_pi)
    pick = lambda arr: arr[rank] if arr is not None else None  # noqa: E731
    return TaskTerms(
        attempts=size[rank],
        judge=j_val[rank],
        human=h_val[rank],
        labelled=labelled[rank],
        ht_a=pick(a_val),
        ht_b=pick(b_val),
        ht_weight=pick(w_val),
        ht_units=units[rank].sum(axis=0),
        var_aa=pick(var[0]) if var else None,
        var_ab=pick(var[1]) if var else None,
        var_bb=pick(var[2]) if var else None,
        inclusion=pick(task_pi),
    )


def _canonical_rows(*arrays: FloatArray | None) -> IntArray:
    """Row order by content (lexicographic over every column, NaN as -1): the same for any input order."""
    cols = [np.nan_to_num(a, nan=-1.0).reshape(a.shape[0], -1) for a in arrays if a is not None]
    table = np.concatenate(cols, axis=1)
    return np.lexsort(table.T[::-1])
