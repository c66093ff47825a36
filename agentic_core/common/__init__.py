"""Leaves every layer may use: the pass rule, wording, whole-file writes, secret masking, GC pauses, lazy sequences,
the run's frames' column names, data values in Markdown.

This face is what callers outside the core use; inside it, modules import the leaf they need directly.
Eager: each leaf imports only the standard library, numpy or pydantic.
"""

from agentic_core.common.atomic_file import OutputError, write_atomic
from agentic_core.common.frame_columns import (
    AgenticCols,
    ConversationCols,
    ExplorerCols,
    GroupCols,
    InteractionCols,
    ResultCols,
    ShrinkageCols,
    StatCols,
)
from agentic_core.common.gc_control import gc_paused, release_memory, trim_memory
from agentic_core.common.markdown_text import md_code, md_text
from agentic_core.common.passing import reaches
from agentic_core.common.secrets import mask_known, mask_secrets, redact, register_secret
from agentic_core.common.wording import decimals_apart, plural, sentence_case

__all__ = [
    "AgenticCols", "ConversationCols", "ExplorerCols", "GroupCols", "InteractionCols", "OutputError", "ResultCols",
    "ShrinkageCols", "StatCols", "decimals_apart", "gc_paused", "mask_known", "mask_secrets", "md_code", "md_text",
    "plural", "reaches",
    "redact", "register_secret", "release_memory", "sentence_case", "trim_memory", "write_atomic",
]  # fmt: skip
