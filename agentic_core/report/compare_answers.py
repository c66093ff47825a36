"""Two runs, one task: each side's attempts at a task, their answers turn by turn, and the link to that view.

Compare (:mod:`agentic_core.analysis.compare_runs`) says which tasks flipped; this is what a person
reads next, like the side-by-side views of Braintrust and promptfoo: pick a paired task (all of them,
or only those flipped to worse, flipped to better, or wrong on both sides), pick an attempt on each
side when a side made several, and see both answers of each turn with both verdicts and the
reference, compared word by word (:func:`~agentic_core.report.side_diff.side_by_side_html`).

A side *passes* a task when most of its scored attempts are correct (the rule of the flipped tasks);
"both wrong" is a paired task neither side passes. The view's link (``?pair_show=worse&pair_task=...
&attempt_a=1&attempt_b=2``, next to the runs' own ``run_a`` / ``run_b`` or the assistants'
``assistant_a`` / ``assistant_b``) opens that exact view; a value the link cannot use is said, never
dropped silently.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from agentic_core.analysis.aggregate import Aggregate
from agentic_core.analysis.compare_runs import RunComparison, Side, TaskChange
from agentic_core.common.frame_columns import ConversationCols
from agentic_core.common.wording import plural
from agentic_core.report.explorer import InteractionDetail, conversation_detail

PAIR_FILTERS: dict[str, str] = {
    "all": "All paired tasks",
    "worse": "Flipped to worse",
    "better": "Flipped to better",
    "both_wrong": "Both wrong",
}
"""What the side-by-side view lists, by its name in the link."""
PAIR_SHOW_PARAM = "pair_show"
PAIR_TASK_PARAM = "pair_task"
ATTEMPT_A_PARAM = "attempt_a"
ATTEMPT_B_PARAM = "attempt_b"
ASSISTANT_A_PARAM = "assistant_a"
ASSISTANT_B_PARAM = "assistant_b"
PAIR_PARAMS = (PAIR_SHOW_PARAM, PAIR_TASK_PARAM, ATTEMPT_A_PARAM, ATTEMPT_B_PARAM)
"""The side-by-side view's URL parameters."""


def both_wrong(task: TaskChange) -> bool:
    """A paired task neither side passes (on each, at most half of its scored attempts are correct)."""
    return task.change == "same" and 2 * task.a_c <= task.a_n


def paired_tasks(cmp: RunComparison, show: str) -> list[TaskChange]:
    """The paired tasks the view lists under ``show`` (:data:`PAIR_FILTERS`), flipped ones first.

    Raises:
        KeyError: ``show`` is not one of :data:`PAIR_FILTERS` (links are read by :func:`read_pair_link`).
    """
    keep = {
        "all": lambda t: t.change not in ("only_a", "only_b"),
        "worse": lambda t: t.change == "broken",
        "better": lambda t: t.change == "fixed",
        "both_wrong": both_wrong,
    }[show]
    return [t for t in cmp.tasks if keep(t)]


def filter_counts(cmp: RunComparison) -> dict[str, int]:
    """How many tasks each filter lists (for the choices' labels)."""
    return {name: len(paired_tasks(cmp, name)) for name in PAIR_FILTERS}


@dataclass(frozen=True)
class AnswerAttempt:
    """One side's attempt at the task: a conversation of its run.

    Attributes:
        number: Its number among the side's attempts at the task (1-based, in the run's order).
        row: The conversation's row in its run.
        session_id: Its session id.
        status: ``correct``, ``incorrect`` or ``unscored`` under the side's settings.
        correct: Its interactions counted correct.
        total: Its interactions.
    """

    number: int
    row: int
    session_id: str
    status: str
    correct: int
    total: int

    @property
    def label(self) -> str:
        """``#2 · conv-7 · incorrect (1 of 2 turns)``."""
        turns = f" ({self.correct} of {plural(self.total, 'turn')})" if self.total > 1 else ""
        return f"#{self.number} · {self.session_id} · {self.status}{turns}"


def side_attempts(side: Side, agg: Aggregate, task: str) -> list[AnswerAttempt]:
    """The side's attempts at ``task`` (its assistant's only, when it names one), in the run's order.

    Args:
        side: The side.
        agg: The side's run aggregated under the side's settings.
        task: The task key.
    """
    conv = agg.conversations
    cols = ConversationCols
    keep = conv[cols.TASK_KEY].astype(str).to_numpy() == task
    if side.assistant is not None:
        keep &= conv[cols.ASSISTANT_ID].astype(str).to_numpy() == side.assistant
    rows = np.flatnonzero(keep)
    sessions = conv[cols.SESSION_ID].to_numpy()
    statuses = conv[cols.STATUS].to_numpy()
    correct = conv[cols.CORRECT_INTERACTIONS].to_numpy()
    total = conv[cols.TOTAL_INTERACTIONS].to_numpy()
    return [
        AnswerAttempt(number=n, row=int(r), session_id=str(sessions[r]), status=str(statuses[r]),
                      correct=int(correct[r]), total=int(total[r]))
        for n, r in enumerate(rows, start=1)
    ]  # fmt: skip


def attempts_caption(name: str, attempts: Sequence[AnswerAttempt], shown: AnswerAttempt | None) -> str:
    """What one side did on the task and which attempt is shown: ``A made 3 attempts: 1 correct, 2 incorrect;
    showing #2 (conv-7).``"""
    if not attempts:
        return f"{name} made no attempt at this task."
    counts: dict[str, int] = {}
    for attempt in attempts:
        counts[attempt.status] = counts.get(attempt.status, 0) + 1
    made = ", ".join(f"{n} {status}" for status, n in counts.items())
    which = f"; showing #{shown.number} ({shown.session_id})" if shown is not None and len(attempts) > 1 else ""
    return f"{name} made {plural(len(attempts), 'attempt')}: {made}{which}."


@dataclass(frozen=True)
class TurnPair:
    """One turn of the task on both sides (turns are matched by position).

    Attributes:
        position: The turn's number (1-based).
        a: A's interaction (``None``: A's attempt has fewer turns).
        b: B's interaction, likewise.
    """

    position: int
    a: InteractionDetail | None
    b: InteractionDetail | None

    @property
    def query(self) -> str:
        """The user's message (A's; B's when A has no such turn)."""
        first = self.a if self.a is not None else self.b
        return first.query if first is not None else ""

    @property
    def references(self) -> list[str]:
        """The reference answer: one, or both sides' when they differ (runs of different data)."""
        given = [d.ground_truth for d in (self.a, self.b) if d is not None]
        return list(dict.fromkeys(given))


def turn_pairs(a: Side, agg_a: Aggregate, attempt_a: AnswerAttempt | None, b: Side, agg_b: Aggregate,
               attempt_b: AnswerAttempt | None) -> list[TurnPair]:
    """Both attempts' interactions, turn by turn, with their verdicts under each side's settings."""
    left = conversation_detail(a.result, agg_a, attempt_a.row) if attempt_a is not None else []
    right = conversation_detail(b.result, agg_b, attempt_b.row) if attempt_b is not None else []
    return [
        TurnPair(k + 1, left[k] if k < len(left) else None, right[k] if k < len(right) else None)
        for k in range(max(len(left), len(right)))
    ]


@dataclass(frozen=True)
class PairView:
    """Which side-by-side view: the filter, the task, and the attempt shown on each side (1-based numbers)."""

    show: str = "all"
    task: str | None = None
    attempt_a: int = 1
    attempt_b: int = 1


def _attempt_number(text: str | None, side: str, messages: list[str]) -> int:
    if text is None or text == "":
        return 1
    if text.strip().isdigit() and int(text) >= 1:
        return int(text)
    messages.append(f"The link's attempt {side} `{text}` is not an attempt's number (1, 2, ...), so attempt 1 is "
                    "shown.")
    return 1


def read_pair_link(query: Mapping[str, str], cmp: RunComparison) -> tuple[PairView, list[str]]:
    """The view a link asks for, and what it asked for that this comparison cannot show.

    A filter that is not one of :data:`PAIR_FILTERS` falls back to ``all``; a task that is not paired falls
    back to the filter's first; a task the filter does not list is shown under ``all``. Attempt numbers are
    checked against the attempts by :func:`pick_attempt`.

    Args:
        query: The URL's parameters.
        cmp: The comparison shown.

    Returns:
        The view and one message per value that could not be used.
    """
    messages: list[str] = []
    show = query.get(PAIR_SHOW_PARAM) or "all"
    if show not in PAIR_FILTERS:
        messages.append(f"The link's `{PAIR_SHOW_PARAM}={show}` is not a filter (they are: "
                        f"{', '.join(PAIR_FILTERS)}), so every paired task is listed.")
        show = "all"
    task = query.get(PAIR_TASK_PARAM) or None
    if task is not None:
        listed = {t.task for t in paired_tasks(cmp, show)}
        if task not in listed:
            if task in {t.task for t in paired_tasks(cmp, "all")}:
                messages.append(f"The link's task `{task}` is not {PAIR_FILTERS[show].lower()}: every paired task "
                                "is listed, to show it.")
                show = "all"
            else:
                messages.append(f"The link's task `{task}` is not a task both sides attempted, so the first listed "
                                "task is shown.")
                task = None
    view = PairView(show, task, _attempt_number(query.get(ATTEMPT_A_PARAM), "A", messages),
                    _attempt_number(query.get(ATTEMPT_B_PARAM), "B", messages))
    return view, messages


def pick_attempt(number: int, attempts: Sequence[AnswerAttempt], side: str) -> tuple[AnswerAttempt | None, str | None]:
    """Attempt ``number`` of the side, else its first with a message (``None`` when the side made none)."""
    if not attempts:
        return None, None
    if 1 <= number <= len(attempts):
        return attempts[number - 1], None
    return attempts[0], (f"{side} made {plural(len(attempts), 'attempt')} at this task, so attempt {number} of the "
                         "link cannot be shown: attempt 1 is.")


def pair_query(view: PairView) -> dict[str, str]:
    """The link parameters of a view (the filter, the task, both attempts)."""
    out = {PAIR_SHOW_PARAM: view.show, ATTEMPT_A_PARAM: str(view.attempt_a), ATTEMPT_B_PARAM: str(view.attempt_b)}
    if view.task is not None:
        out[PAIR_TASK_PARAM] = view.task
    return out
