"""Judges: the protocol, the registry and the implementations; this face is what callers outside use."""

from agentic_core.judges.base import Judge, JudgeItem, Verdict
from agentic_core.judges.cache import default_cache_path
from agentic_core.judges.cascade import result_cascade_counts
from agentic_core.judges.llm import LLM_OPTIONS, PROVIDERS, LLMSettings
from agentic_core.judges.monitor import STATUS_CODES, RunCancelled, RunMonitor, RunSnapshot, duration_words
from agentic_core.judges.planning import RunPlan, expected_unscored_share, plan_run
from agentic_core.judges.registry import DEFAULT_JUDGE, JUDGES, LLM_OPTION_JUDGES, build_judge
from agentic_core.judges.runner import CACHE_MODE_HELP, CACHE_MODES, CacheMode, JudgeRun
from agentic_core.judges.verdict_counts import VerdictCounts, item_words, verdict_counts

__all__ = [
    "CACHE_MODES", "CACHE_MODE_HELP", "DEFAULT_JUDGE", "JUDGES", "LLM_OPTIONS", "LLM_OPTION_JUDGES", "PROVIDERS",
    "STATUS_CODES", "CacheMode", "Judge", "JudgeItem", "JudgeRun", "LLMSettings", "RunCancelled", "RunMonitor",
    "RunPlan", "RunSnapshot", "Verdict", "VerdictCounts", "build_judge", "default_cache_path", "duration_words",
    "expected_unscored_share", "item_words", "plan_run", "result_cascade_counts", "verdict_counts",
]  # fmt: skip
