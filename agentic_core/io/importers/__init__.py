"""Importers: real agent-trace formats read into the seed format, detected from the content.

- OpenAI-style chat traces (:mod:`~agentic_core.io.importers.openai_traces`),
- Ragas samples (:mod:`~agentic_core.io.importers.ragas_samples`),
- tau-bench results files (:mod:`~agentic_core.io.importers.tau_bench`),
- Inspect AI eval logs (:mod:`~agentic_core.io.importers.inspect_logs`).

Each maps every original record to one seed-format conversation that then goes through the
loader's normal validation, and reports what it could not map as an issue located in the
original record (file, record, line, JSON path such as ``messages[3].tool_calls[0].function.arguments``):
an error skips the record, a warning means it was mapped with a loss. Nothing is dropped silently.
The format names are in :mod:`~agentic_core.io.importers.formats`; detection in
:mod:`~agentic_core.io.importers.detect`.
"""

from agentic_core.io.importers.dispatch import IMPORTERS, import_parsed
from agentic_core.io.importers.formats import (
    DEFAULT_FORMAT,
    FORMAT_CHOICES,
    FORMAT_LABELS,
    check_format,
    formats_in_words,
)

__all__ = [
    "DEFAULT_FORMAT", "FORMAT_CHOICES", "FORMAT_LABELS", "IMPORTERS", "check_format", "formats_in_words",
    "import_parsed",
]  # fmt: skip
