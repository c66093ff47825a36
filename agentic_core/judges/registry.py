"""Judges by name, for the CLI, the dashboard and the HTTP endpoint: read off the typed specs.

Names map to the spec classes of :mod:`agentic_core.judges.spec` only: no class is ever imported from a
user-supplied path (the reference implementation's endpoint imported any class path a caller sent).
"""

from __future__ import annotations

from typing import Any

from agentic_core.judges.base import Judge
from agentic_core.judges.spec import DEFAULT_JUDGE, SPECS, JudgeSpecBase, judge_spec

__all__ = ["DEFAULT_JUDGE", "JUDGES", "build_judge"]

JUDGES: dict[str, type[JudgeSpecBase]] = SPECS
"""Every judge by name: its spec class, whose ``title``, ``description`` and ``offline`` flag interfaces show
(one table: the specs' own; the judges that take the LLM judge's options are those not ``offline``)."""


def build_judge(name: str, **options: Any) -> Judge:
    """Build the judge registered under ``name``: ``judge_spec(name, **options).build()``.

    Args:
        name: One of :data:`JUDGES`.
        **options: The fields of its spec (:class:`~agentic_core.judges.spec.LLMSpec` for ``llm``; the same
            beside ``offline``, the offline judge's name, for ``cascade``). Offline judges take none.

    Raises:
        JudgeConfigError: unknown name, an option refused, a missing package or key.
    """
    return judge_spec(name, **options).build()
