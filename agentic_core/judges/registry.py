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

DEFAULT_JUDGE = "learned"


@dataclass(frozen=True)
class JudgeInfo:
    """What the UI shows about a judge before it is built."""

    name: str
    title: str
    description: str
    offline: bool


JUDGES: dict[str, JudgeInfo] = {
    "learned": JudgeInfo(
        "learned",
        "Learned (offline, default)",
        "A model fitted on labelled pairs weighs embedding and word similarity, the facts the answer and the "
        "reference state (numbers, dates, times, amounts with units) and what the detectors find (negation, "
        "swapped roles, a hedge, ...); says 'uncertain' (unscored) when it is not sure. No key, no network.",
        True,
    ),
    "hybrid": JudgeInfo(
        "hybrid",
        "Hybrid (offline)",
        "The learned judge's model (with the MiniLM embedding) scoring every answer with its probability: "
        "never 'uncertain'. No key, no network.",
        True,
    ),
    "lexical": JudgeInfo(
        "lexical",
        "Lexical (offline)",
        "The learned judge's model without the embedding (word overlap, facts, detectors) scoring every "
        "answer with its probability: never 'uncertain', no model to load. Hundreds of pairs per second.",
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
    "cascade": JudgeInfo(
        "cascade",
        "Cascade: offline judge, then LLM for the uncertain",
        "The offline judge decides what it is sure of; the LLM judge judges only the interactions it is "
        "uncertain of (same provider options as the LLM judge). Fewer LLM calls; the run says how many went "
        "to the LLM.",
        False,
    ),
}

LLM_OPTION_JUDGES = ("llm", "cascade")
"""The judges built with the LLM judge's options (provider, model, key, base URL, limits)."""


def _dataset(**_: Any) -> Judge:
    from agentic_core.judges.dataset import DatasetJudge

    return DatasetJudge()


def _lexical(**_: Any) -> Judge:
    from agentic_core.judges.offline.learned import LexicalJudge

    return LexicalJudge()


def _embedding(**_: Any) -> Judge:
    from agentic_core.judges.offline.embedding import EmbeddingJudge

    return EmbeddingJudge()


def _hybrid(**_: Any) -> Judge:
    from agentic_core.judges.offline.learned import HybridJudge

    return HybridJudge()


def _learned(**_: Any) -> Judge:
    from agentic_core.judges.offline.learned import LearnedJudge

    return LearnedJudge()


def _llm(**options: Any) -> Judge:
    from agentic_core.judges.llm.providers import build_llm_judge

    return build_llm_judge(**options)


def _cascade(*, offline: str | None = None, **options: Any) -> Judge:
    from agentic_core.judges.cascade import CascadeJudge

    name = offline or DEFAULT_JUDGE
    usable = [n for n, info in JUDGES.items() if info.offline]
    if name not in usable:
        raise JudgeConfigError(
            "offline", f"must be one of the offline judges {', '.join(usable)}", name, f"use {DEFAULT_JUDGE}"
        )
    # The LLM first: a missing key or package fails before the offline model is loaded.
    llm = _llm(**options)
    return CascadeJudge(build_judge(name), llm)


_BUILDERS: dict[str, Callable[..., Judge]] = {
    "dataset": _dataset,
    "lexical": _lexical,
    "embedding": _embedding,
    "hybrid": _hybrid,
    "learned": _learned,
    "llm": _llm,
    "cascade": _cascade,
}


def build_judge(name: str, **options: Any) -> Judge:
    """Build the judge registered under ``name``.

    Args:
        name: One of :data:`JUDGES`.
        **options: Judge options (LLM and cascade: provider, model, base_url, api_key, api_key_env,
            concurrency, rps, timeout_s; cascade also ``offline``, the offline judge's name,
            default :data:`DEFAULT_JUDGE`). Offline judges take none.

    Raises:
        JudgeConfigError: unknown name, missing package or key.
    """
    builder = _BUILDERS.get(name)
    if builder is None:
        raise JudgeConfigError(
            "judge", f"must be one of {', '.join(JUDGES)}", name, "pick a judge from that list"
        )
    return builder(**options)
