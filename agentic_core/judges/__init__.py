"""Judges: the protocol, the typed specs, the registry and the implementations: what callers outside use."""

from agentic_core.judges.base import Capabilities, Judge, JudgeItem, Verdict, capabilities
from agentic_core.judges.cache import default_cache_path
from agentic_core.judges.cascade import result_cascade_counts
from agentic_core.judges.llm import LLM_OPTIONS, PROVIDERS
from agentic_core.judges.monitor import STATUS_CODES, RunCancelled, RunMonitor, RunSnapshot, duration_words
from agentic_core.judges.planning import RunPlan, expected_unscored_share, plan_run
from agentic_core.judges.registry import DEFAULT_JUDGE, JUDGES, build_judge
from agentic_core.judges.runner import CACHE_MODE_HELP, CACHE_MODES, CacheMode, JudgeRun
from agentic_core.judges.spec import (
    CascadeSpec,
    DatasetSpec,
    EmbeddingSpec,
    HybridSpec,
    JudgeSpec,
    JudgeSpecBase,
    LearnedSpec,
    LexicalSpec,
    LLMSpec,
    judge_spec,
    spec_class_of,
)
from agentic_core.judges.verdict_counts import VerdictCounts, item_words, verdict_counts

__all__ = [
    "CACHE_MODES", "CACHE_MODE_HELP", "DEFAULT_JUDGE", "JUDGES", "LLM_OPTIONS", "PROVIDERS",
    "STATUS_CODES", "CacheMode", "Capabilities", "CascadeSpec", "DatasetSpec", "EmbeddingSpec", "HybridSpec", "Judge",
    "JudgeItem", "JudgeRun", "JudgeSpec", "JudgeSpecBase", "LLMSpec", "LearnedSpec", "LexicalSpec", "RunCancelled",
    "RunMonitor", "RunPlan", "RunSnapshot", "Verdict", "VerdictCounts", "build_judge", "capabilities",
    "default_cache_path", "duration_words", "expected_unscored_share", "item_words", "judge_spec", "plan_run",
    "result_cascade_counts", "spec_class_of", "verdict_counts",
]  # fmt: skip
