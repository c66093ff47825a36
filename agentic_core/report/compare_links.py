"""Which two stored runs the Compare page pairs: from its link, else B the active run and A the one before it.

A link names both runs (``?run_a=<id>&run_b=<id>``), so a reopened link shows the same comparison;
a link naming a run that is not in the history says so and falls back to the defaults. Without a
link, B is the newest run of the active run's data (else the newest run) and A the previous run *of
the same data* (the same conversations as evaluated, else the same data name): comparing two
unrelated runs pairs no task.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from agentic_core.analysis.compare_runs import RunComparison
from agentic_core.report.compare_answers import ASSISTANT_A_PARAM, ASSISTANT_B_PARAM, PAIR_PARAMS
from agentic_core.runs import RunMeta

RUN_A_PARAM = "run_a"
RUN_B_PARAM = "run_b"
COMPARE_PARAMS = (RUN_A_PARAM, RUN_B_PARAM, ASSISTANT_A_PARAM, ASSISTANT_B_PARAM, *PAIR_PARAMS)
"""The Compare page's own URL parameters (besides the shared settings and ``run``): the two runs or the two
assistants, and the side-by-side view (:mod:`agentic_core.report.compare_answers`)."""


def default_pair(stored: Sequence[RunMeta], active_id: str | None) -> tuple[str, str]:
    """``(A, B)`` ids: B the newest run of the active run's data (else the newest), A the run before it of that data.

    Args:
        stored: The stored runs (at least two), in any order.
        active_id: The active run's id in the history, if it is stored.

    Returns:
        The two ids; A falls back to the newest other run of the same data name, then to the newest other run.
    """
    newest = sorted(stored, key=lambda m: m.created_at, reverse=True)
    by_id = {m.id: m for m in newest}
    b = newest[0]
    if active_id in by_id:  # the newest run of the active run's data (the active one, or a later re-run)
        active = by_id[active_id]
        b = next(m for m in newest if m.data_fingerprint == active.data_fingerprint)
    others = [m for m in newest if m.id != b.id]
    earlier = [m for m in others if m.created_at <= b.created_at]
    for pool in (earlier, others):
        for same in (lambda m: m.data_fingerprint == b.data_fingerprint, lambda m: m.data_name == b.data_name):
            found = next((m for m in pool if same(m)), None)
            if found is not None:
                return found.id, b.id
    return (earlier or others)[0].id, b.id


def linked_pair(
    query: Mapping[str, str], stored: Sequence[RunMeta], active_id: str | None
) -> tuple[str, str, list[str]]:
    """``(A, B, messages)``: the link's runs where the history holds them, the defaults otherwise.

    Args:
        query: The URL's parameters.
        stored: The stored runs (at least two).
        active_id: The active run's id in the history, if it is stored.

    Returns:
        The two ids and one message per linked run that is not in the history.
    """
    a, b = default_pair(stored, active_id)
    ids = {m.id for m in stored}
    messages = []
    chosen = {"A": a, "B": b}
    for side, param in (("A", RUN_A_PARAM), ("B", RUN_B_PARAM)):
        wanted = query.get(param)
        if not wanted:
            continue
        if wanted in ids:
            chosen[side] = wanted
        else:
            messages.append(
                f"The link's run {side} `{wanted}` is not in this history (deleted, or made elsewhere), so {side} is "
                f"`{chosen[side]}`. Import the run's file on the **History** page to compare it."
            )
    return chosen["A"], chosen["B"], messages


def linked_source(query: Mapping[str, str], default: str) -> str:
    """What a link compares: ``runs`` when it names a run, ``assistants`` when it names an assistant, else
    ``default``."""
    if query.get(RUN_A_PARAM) or query.get(RUN_B_PARAM):
        return "runs"
    if query.get(ASSISTANT_A_PARAM) or query.get(ASSISTANT_B_PARAM):
        return "assistants"
    return default


def linked_assistants(query: Mapping[str, str], assistants: Sequence[str]) -> tuple[str, str, list[str]]:
    """``(A, B, messages)``: the link's assistants where the run has them, else the run's first two.

    Args:
        query: The URL's parameters.
        assistants: The run's assistants (at least two), in the data's order.

    Returns:
        The two assistants and one message per linked assistant that is not in the run.
    """
    chosen = {"A": assistants[0], "B": assistants[1]}
    messages = []
    for side, param in (("A", ASSISTANT_A_PARAM), ("B", ASSISTANT_B_PARAM)):
        wanted = query.get(param)
        if not wanted:
            continue
        if wanted in assistants:
            chosen[side] = wanted
        else:
            messages.append(
                f"The link's assistant {side} `{wanted}` is not in this run, so {side} is `{chosen[side]}`. Load the "
                "data it was judged on to compare it."
            )
    return chosen["A"], chosen["B"], messages


def same_verdicts(cmp: RunComparison) -> bool:
    """Whether both sides have the same attempts and the same correct ones on every task (nothing unpaired).

    The rule is :attr:`RunComparison.same_verdicts` (one home for the CLI, ``compare --json``, the page and
    the gate); kept here for the callers of this face.
    """
    return cmp.same_verdicts
