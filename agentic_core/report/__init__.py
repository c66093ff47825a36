"""Result tables (pandas) and exports.

- :mod:`~agentic_core.report.exports`: the export files (CSVs, JSON summary, settings) and the
  tables they hold; the README's ``report.write_exports`` lives here.
- :mod:`~agentic_core.report.explorer`: the Explorer's conversation list, search and drill-down.
- :mod:`~agentic_core.report.tool_tables`: per tool name, failing calls, the expected-vs-used diff.
- :mod:`~agentic_core.report.preview`: the Data page's preview of loaded conversations.

This face is what callers outside use (eager: pandas only).
"""

from agentic_core.report.compare_answers import (
    ASSISTANT_A_PARAM,
    ASSISTANT_B_PARAM,
    ATTEMPT_A_PARAM,
    ATTEMPT_B_PARAM,
    PAIR_FILTERS,
    PAIR_PARAMS,
    PAIR_SHOW_PARAM,
    PAIR_TASK_PARAM,
    AnswerAttempt,
    PairView,
    TurnPair,
    attempts_caption,
    both_wrong,
    filter_counts,
    pair_query,
    paired_tasks,
    pick_attempt,
    read_pair_link,
    side_attempts,
    turn_pairs,
)
from agentic_core.report.compare_links import (
    COMPARE_PARAMS,
    RUN_A_PARAM,
    RUN_B_PARAM,
    linked_assistants,
    linked_pair,
    linked_source,
    same_verdicts,
)
from agentic_core.report.explorer import (
    InteractionDetail,
    SearchIndex,
    conversation_detail,
    conversation_index,
    explorer_table,
)
from agentic_core.report.explorer_filters import (
    CONVERSATION_PARAM,
    EXPLORER_PAGE_ROWS,
    PAGE_PARAMS,
    STATUSES,
    TOOL_DIMENSIONS,
    ExplorerFilters,
    FilterIndex,
    conversation_param,
    filter_mask,
    filters_from_query,
    filters_to_query,
    highlight,
    resolve_conversation,
)
from agentic_core.report.explorer_rows import (
    ConversationFacts,
    conversation_facts,
    conversations_by_status,
    interaction_rows,
    position_of,
    proposed_verdict,
)
from agentic_core.report.exports import (
    EXPORT_FILES,
    conversation_records,
    conversations_table,
    curve_point_dict,
    export_bytes,
    export_zip,
    interactions_table,
    run_metadata,
    summary,
    tasks_table,
    write_exports,
)
from agentic_core.report.preview import VIEW_MAX_CHARS, VIEW_MAX_DEPTH, conversations_preview, record_view
from agentic_core.report.side_diff import side_by_side_html
from agentic_core.report.span_tree import SPAN_PAGE, SpanNode, SpanTree, span_tree
from agentic_core.report.span_tree_html import span_tree_html, tree_summary
from agentic_core.report.thread import thread_html
from agentic_core.report.tool_tables import (
    FAILING_PAGE_ROWS,
    failing_tool_calls,
    filter_failing_calls,
    interaction_tool_names,
    table_page,
    tool_breakdown,
)

__all__ = [
    "ASSISTANT_A_PARAM", "ASSISTANT_B_PARAM", "ATTEMPT_A_PARAM", "ATTEMPT_B_PARAM", "COMPARE_PARAMS",
    "CONVERSATION_PARAM", "EXPLORER_PAGE_ROWS", "EXPORT_FILES", "FAILING_PAGE_ROWS", "PAGE_PARAMS", "PAIR_FILTERS",
    "PAIR_PARAMS", "PAIR_SHOW_PARAM", "PAIR_TASK_PARAM", "RUN_A_PARAM", "RUN_B_PARAM", "SPAN_PAGE", "STATUSES",
    "TOOL_DIMENSIONS", "VIEW_MAX_CHARS", "VIEW_MAX_DEPTH", "AnswerAttempt", "ConversationFacts", "ExplorerFilters",
    "FilterIndex", "InteractionDetail", "PairView", "SearchIndex", "SpanNode", "SpanTree", "TurnPair",
    "attempts_caption", "both_wrong", "conversation_detail", "conversation_facts", "conversation_index",
    "conversation_param", "conversation_records", "conversations_by_status", "conversations_preview",
    "conversations_table", "curve_point_dict", "explorer_table", "export_bytes", "export_zip", "failing_tool_calls",
    "filter_counts", "filter_failing_calls", "filter_mask", "filters_from_query", "filters_to_query", "highlight",
    "interaction_rows", "interaction_tool_names", "interactions_table", "linked_assistants", "linked_pair",
    "linked_source", "pair_query", "paired_tasks", "pick_attempt", "position_of", "proposed_verdict", "read_pair_link",
    "record_view", "resolve_conversation", "run_metadata", "same_verdicts", "side_attempts", "side_by_side_html",
    "span_tree", "span_tree_html", "summary", "table_page", "tasks_table", "thread_html", "tool_breakdown",
    "tree_summary", "turn_pairs", "write_exports",
]  # fmt: skip
