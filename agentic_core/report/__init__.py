"""Result tables (pandas) and exports.

- :mod:`~agentic_core.report.exports`: the export files (CSVs, JSON summary, settings) and the
  tables they hold; the README's ``report.write_exports`` lives here.
- :mod:`~agentic_core.report.explorer`: the Explorer's conversation list, search and drill-down.
- :mod:`~agentic_core.report.tool_tables`: per tool name, failing calls, the expected-vs-used diff.
- :mod:`~agentic_core.report.preview`: the Data page's preview of loaded conversations.
"""

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

__all__ = [
    "EXPORT_FILES",
    "conversation_records",
    "conversations_table",
    "curve_point_dict",
    "export_bytes",
    "export_zip",
    "interactions_table",
    "run_metadata",
    "summary",
    "tasks_table",
    "write_exports",
]
