"""The column names of the run's tables, declared once.

:class:`~agentic_core.result.EvaluationResult` and :class:`~agentic_core.analysis.aggregate.Aggregate`
hold pandas frames; their columns used to exist only in docstrings and as string literals in every
module that read them. Each class here names one frame's columns, in the order the frame is built;
its ``ALL`` lists them (collected from the class, so a constant cannot be left out of it), and
tests/common/test_frame_columns.py checks that the built frames have exactly those.

The values are public: export files (CSV headers) and ``--json`` documents carry several of them,
so a value here never changes; a new column is added.

A leaf (no project imports): ``stats`` builds the per-group table, ``evaluate`` the judged frame,
``analysis`` the aggregate's frames, and ``report``, ``service``, ``ui`` and ``pages`` read them.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final


class Columns:
    """A frame's column names: every upper-case text attribute of a subclass, in the order written.

    A subclass lists columns that come before its own with ``first=`` and after them with ``then=``
    (class keywords); ``OWN`` holds its own, ``ALL`` the frame's whole row of columns.
    """

    OWN: ClassVar[tuple[str, ...]] = ()
    ALL: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, *, first: tuple[str, ...] = (), then: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.OWN = tuple(value for name, value in vars(cls).items() if name.isupper() and isinstance(value, str))
        cls.ALL = (*first, *cls.OWN, *then)


class StatCols(Columns):
    """Per-group statistics (:func:`agentic_core.stats.group_table`): attempts, correct, the rates at K.

    Used by :class:`GroupCols` (one row per group of the unit of trial) and :class:`ConversationCols`
    (the same numbers per conversation, over its interactions).
    """

    N: Final = "n"
    C: Final = "c"
    OBSERVED_SUCCESS_RATE: Final = "observed_success_rate"
    SUCCESS_RATE: Final = "success_rate"
    SUCCESS_RATE_CI_LOW: Final = "success_rate_ci_low"
    SUCCESS_RATE_CI_HIGH: Final = "success_rate_ci_high"
    PASS_AT_K: Final = "pass_at_k"
    PASS_AT_K_CI_LOW: Final = "pass_at_k_ci_low"
    PASS_AT_K_CI_HIGH: Final = "pass_at_k_ci_high"
    PASS_POW_K: Final = "pass_pow_k"
    PASS_POW_K_CI_LOW: Final = "pass_pow_k_ci_low"
    PASS_POW_K_CI_HIGH: Final = "pass_pow_k_ci_high"
    DEFINED: Final = "defined"
    """Whether the row's statistics have values (n == 0, or n < k under ``unbiased``, have none)."""


PASS_METRICS: Final = (StatCols.SUCCESS_RATE, StatCols.PASS_AT_K, StatCols.PASS_POW_K)
"""The three pass metrics, by the name their columns, JSON fields and command-line metric names carry."""
AT_K: Final = StatCols.ALL[StatCols.ALL.index(StatCols.PASS_AT_K) : StatCols.ALL.index(StatCols.DEFINED)]
"""pass@K and pass^K with their bounds: the per-group statistics that need K attempts (the others need one)."""


class GroupCols(StatCols, then=StatCols.ALL):
    """``Aggregate.groups``: one row per group of the unit of trial (task, all conversations, conversation).

    The group's key, then its :class:`StatCols` (inherited here, so ``GroupCols.N`` reads as it should).
    """

    GROUP: Final = "group"
    """The group's key: the task key, ``all conversations``, or the session id."""


class ShrinkageCols(Columns):
    """The per-task posterior table's population-model columns (``PosteriorView.tasks``, two or more scored tasks).

    Each task's success probability under the hierarchical model (pulled towards the population), with
    its interval; NaN for a task without a scored attempt. They follow the table's :class:`GroupCols`.
    """

    SHRUNK_P: Final = "shrunk_p"
    SHRUNK_P_LOW: Final = "shrunk_p_low"
    SHRUNK_P_HIGH: Final = "shrunk_p_high"


class ResultCols(Columns):
    """``EvaluationResult.interactions``: one row per interaction, as loaded and judged (settings-free)."""

    CONV: Final = "conv"
    """The conversation's row (0-based, input order)."""
    POSITION: Final = "position"
    SESSION_ID: Final = "session_id"
    ASSISTANT_ID: Final = "assistant_id"
    TASK_KEY: Final = "task_key"
    QA_ID: Final = "qa_id"
    QUERY: Final = "query"
    ANSWER: Final = "answer"
    GROUND_TRUTH: Final = "ground_truth"
    SCORE: Final = "score"
    """The judge's score; NaN = unscored (a judge failure, or an abstention)."""
    JUDGE_STATUS: Final = "judge_status"
    JUDGE_REASONING: Final = "judge_reasoning"
    JUDGE_ERROR: Final = "judge_error"
    JUDGE_PROBABILITY: Final = "judge_probability"
    TOOL_APPLICABLE: Final = "tool_applicable"
    TOOL_SELECTION: Final = "tool_selection"
    TOOL_SELECTION_IGNORE_EXTRA: Final = "tool_selection_ignore_extra"
    TOOL_PARAMETERS: Final = "tool_parameters"
    TOOL_SEQUENCE: Final = "tool_sequence"
    TOOL_UTILIZATION: Final = "tool_utilization"

    VERDICT: ClassVar[tuple[str, ...]] = (SCORE, JUDGE_STATUS, JUDGE_REASONING, JUDGE_ERROR, JUDGE_PROBABILITY)
    """The columns one verdict per interaction fills (another run of the same data replaces these)."""
    TOOL_COMPONENTS: ClassVar[tuple[str, ...]] = (
        TOOL_SELECTION, TOOL_SELECTION_IGNORE_EXTRA, TOOL_PARAMETERS, TOOL_SEQUENCE, TOOL_UTILIZATION,
    )  # fmt: skip
    """The weight-independent tool component columns (``tool_`` + the component's name)."""


class InteractionCols(Columns):
    """``Aggregate.interactions``: one row per interaction under the settings (what the rates count)."""

    CONV: Final = ResultCols.CONV
    POSITION: Final = ResultCols.POSITION
    SCORE: Final = ResultCols.SCORE
    UNSCORED: Final = "unscored"
    PASSES_THRESHOLD: Final = "passes_threshold"
    """The answer's score reaches the threshold (the judge's verdict, before tools and overrides)."""
    CORRECT: Final = "correct"
    """What the rates count: passes, and tool use correct when required; a person's override wins."""
    TOOL_OVERALL: Final = "tool_overall"
    TOOL_CORRECT: Final = "tool_correct"
    OVERRIDDEN: Final = "overridden"
    JUDGE_PROBABILITY: Final = ResultCols.JUDGE_PROBABILITY
    """The judge's P(correct), NaN when it gives none (what the abstention band reads)."""
    UNCERTAIN: Final = "uncertain"
    """The judge abstains on it under the settings' abstention band: unscored, carrying its probability."""


PER_CONVERSATION: Final = tuple(c for c in StatCols.ALL if c not in (StatCols.N, StatCols.C))
"""The per-conversation statistics: :class:`StatCols` without ``n`` and ``c``, which the counts hold."""


class ConversationCols(Columns, then=PER_CONVERSATION):
    """``Aggregate.conversations``: one row per conversation (seed-003 counts, status, per-conversation pass@K).

    Its own columns (``OWN``), then the per-conversation statistics (:data:`PER_CONVERSATION`).
    """

    CONVERSATION: Final = "conversation"
    """The conversation's row (seed-000 data gives every attempt the same session id)."""
    SESSION_ID: Final = ResultCols.SESSION_ID
    ASSISTANT_ID: Final = ResultCols.ASSISTANT_ID
    TASK_KEY: Final = ResultCols.TASK_KEY
    TOTAL_INTERACTIONS: Final = "total_interactions"
    CORRECT_INTERACTIONS: Final = "correct_interactions"
    UNSCORED_INTERACTIONS: Final = "unscored_interactions"
    IS_FULLY_CORRECT: Final = "is_fully_correct"
    STATUS: Final = "status"
    """``correct``, ``incorrect`` or ``unscored`` (:data:`STATUSES`)."""
    TOOL_INTERACTIONS: Final = "tool_interactions"
    TOOL_CORRECT_INTERACTIONS: Final = "tool_correct_interactions"
    MIN_SCORE: Final = "min_score"


class ExplorerCols(Columns):
    """The explorer's conversation table (:func:`agentic_core.report.explorer.explorer_table`)."""

    ROW: Final = "row"
    STATUS: Final = ConversationCols.STATUS
    SESSION_ID: Final = ResultCols.SESSION_ID
    ASSISTANT_ID: Final = ResultCols.ASSISTANT_ID
    TASK_KEY: Final = ResultCols.TASK_KEY
    INTERACTIONS: Final = "interactions"
    CORRECT: Final = "correct"
    UNSCORED: Final = "unscored"
    MIN_SCORE: Final = ConversationCols.MIN_SCORE
    TOOL_CORRECT: Final = "tool_correct"
    TOOL_SCORED: Final = "tool_scored"
    FIRST_QUERY: Final = "first_query"

    INDEX: ClassVar[tuple[str, ...]] = (ROW, SESSION_ID, ASSISTANT_ID, TASK_KEY, FIRST_QUERY)
    """The settings-free columns (:func:`agentic_core.report.explorer.conversation_index`, built once per run)."""
    FROM_CONVERSATIONS: ClassVar[dict[str, str]] = {
        STATUS: ConversationCols.STATUS,
        INTERACTIONS: ConversationCols.TOTAL_INTERACTIONS,
        CORRECT: ConversationCols.CORRECT_INTERACTIONS,
        UNSCORED: ConversationCols.UNSCORED_INTERACTIONS,
        MIN_SCORE: ConversationCols.MIN_SCORE,
        TOOL_CORRECT: ConversationCols.TOOL_CORRECT_INTERACTIONS,
        TOOL_SCORED: ConversationCols.TOOL_INTERACTIONS,
    }
    """The columns read from ``Aggregate.conversations`` under the current settings: name here -> name there."""


class AgenticCols(Columns):
    """Seed 004's agentic metrics per conversation (:func:`agentic_core.analysis.agentic_summary.agentic_table`).

    A metric's value column carries the metric's name (``tool_call_accuracy``, ``topic_adherence``,
    ``goal_accuracy``); NaN = unscored.
    """

    CONV: Final = ResultCols.CONV
    SESSION_ID: Final = ResultCols.SESSION_ID
    TOOL_CALL_ACCURACY: Final = "tool_call_accuracy"
    TOOL_CALL_NOTES: Final = "tool_call_notes"
    TOPIC_ADHERENCE: Final = "topic_adherence"
    TOPIC_TP: Final = "topic_tp"
    TOPIC_FP: Final = "topic_fp"
    TOPIC_FN: Final = "topic_fn"
    TOPIC_TN: Final = "topic_tn"
    TOPIC_APPROXIMATE: Final = "topic_approximate"
    GOAL_ACCURACY: Final = "goal_accuracy"
    """1 achieved, 0 not, NaN unscored."""
    GOAL_GRADED: Final = "goal_graded"
    GOAL_WITH_REFERENCE: Final = "goal_with_reference"
    GOAL_EVIDENCE: Final = "goal_evidence"
    UNSCORED_REASON: Final = "unscored_reason"

    TOPIC_COUNTS: ClassVar[dict[str, str]] = {"tp": TOPIC_TP, "fp": TOPIC_FP, "fn": TOPIC_FN, "tn": TOPIC_TN}
    """The topic classification's four counts: count name -> column."""
    BY_METRIC: ClassVar[dict[str, tuple[str, ...]]] = {
        TOOL_CALL_ACCURACY: (TOOL_CALL_ACCURACY,),
        TOPIC_ADHERENCE: (TOPIC_ADHERENCE, TOPIC_TP, TOPIC_FP, TOPIC_FN, TOPIC_TN, TOPIC_APPROXIMATE),
        GOAL_ACCURACY: (GOAL_ACCURACY, GOAL_GRADED, GOAL_WITH_REFERENCE, GOAL_EVIDENCE),
    }
    """Each metric's columns in the conversations export, in the export's order (metric name -> columns)."""


CORRECT: Final = "correct"
INCORRECT: Final = "incorrect"
UNSCORED: Final = "unscored"
STATUSES: Final = (INCORRECT, UNSCORED, CORRECT)
"""A conversation's statuses (``ConversationCols.STATUS``), failing first (the explorer's order)."""
