"""Judges by name, for the CLI, the dashboard and the HTTP endpoint.

Names map to builders in this module only: no class is ever imported from a user-supplied path
(the reference implementation's endpoint imported any class path a caller sent).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agentic_core.errors import JudgeConfigError
from agentic_core.judges.base import Judge

DEFAULT_JUDGE = "hybrid"


@dataclass(frozen=True)
class JudgeInfo:
    """What the UI shows about a judge before it is built."""

    name: str
    title: str
    description: str
    offline: bool


JUDGES: dict[str, JudgeInfo] = {
    "hybrid": JudgeInfo(
        "hybrid",
        "Hybrid (offline, default)",
        "Lexical gates (numbers, dates, key terms, negation, refusals) plus MiniLM embedding similarity "
        "for paraphrases. No key, no network.",
        True,
    ),
    "lexical": JudgeInfo(
        "lexical",
        "Lexical (offline)",
        "Normalised token overlap with gates for numbers, dates, key terms, negation and refusals. "
        "Thousands of pairs per second.",
        True,
    ),
    "embedding": JudgeInfo(
        "embedding",
        "Embedding similarity (offline)",
        "Cosine similarity of all-MiniLM-L6-v2 sentence embeddings (the seeds' design). Weak alone on "
        "numbers and negation; offered for comparison.",
        True,
    ),
    "dataset": JudgeInfo(
        "dataset",
        "Dataset scores",
        "Each interaction's own 'score' field (an environment reward or a human grade).",
        True,
    ),
    "llm": JudgeInfo(
        "llm",
        "LLM judge",
        "A chat model grades each answer against the ground truth with a strict rubric "
        "(Groq, OpenAI, Anthropic, Google, Ollama or any OpenAI-compatible server).",
        False,
    ),
}


def _dataset(**_: Any) -> Judge:
    from agentic_core.judges.dataset import DatasetJudge

    return DatasetJudge()


def _lexical(**_: Any) -> Judge:
    from agentic_core.judges.lexical import LexicalJudge

    return LexicalJudge()


def _embedding(**_: Any) -> Judge:
    from agentic_core.judges.embedding import EmbeddingJudge

    return EmbeddingJudge()


def _hybrid(**_: Any) -> Judge:
    from agentic_core.judges.hybrid import HybridJudge

    return HybridJudge()


def _llm(**options: Any) -> Judge:
    from agentic_core.judges.providers import build_llm_judge

    return build_llm_judge(**options)


_BUILDERS: dict[str, Callable[..., Judge]] = {
    "dataset": _dataset,
    "lexical": _lexical,
    "embedding": _embedding,
    "hybrid": _hybrid,
    "llm": _llm,
}


def build_judge(name: str, **options: Any) -> Judge:
    """Build the judge registered under ``name``.

    Args:
        name: One of :data:`JUDGES`.
        **options: Judge options (LLM: provider, model, base_url, api_key, api_key_env,
            concurrency, rps, timeout_s). Offline judges take none.

    Raises:
        JudgeConfigError: unknown name, missing package or key.
    """
    builder = _BUILDERS.get(name)
    if builder is None:
        raise JudgeConfigError(
            "judge", f"must be one of {', '.join(JUDGES)}", name, "pick a judge from that list"
        )
    return builder(**options)
