"""Loaders: the only code that reads data files; this face is what callers outside use.

Eager: loading conversations needs no optional package.
"""

from agentic_core.io.importers.defaults import FORMAT_NEEDS, FormatDefaults, format_defaults
from agentic_core.io.importers.formats import DEFAULT_FORMAT, FORMAT_CHOICES, FORMAT_LABELS, formats_in_words
from agentic_core.io.load_report import LoadReport
from agentic_core.io.loader import load_paths, load_records
from agentic_core.io.samples import DEFAULT_SAMPLE, SAMPLES, load_sample
from agentic_core.io.uploads import load_uploads, max_upload_mb

__all__ = [
    "DEFAULT_FORMAT", "DEFAULT_SAMPLE", "FORMAT_CHOICES", "FORMAT_LABELS", "FORMAT_NEEDS", "SAMPLES", "FormatDefaults",
    "LoadReport", "format_defaults", "formats_in_words", "load_paths", "load_records", "load_sample", "load_uploads",
    "max_upload_mb",
]  # fmt: skip
