"""The LLM judge's wing: a chat model grading answers with a rubric, through LangChain.

This face is light (no LangChain import): the options and the providers' table. The judge is built through
its typed spec (:class:`agentic_core.judges.spec.LLMSpec`); its modules import LangChain when used.
"""

from agentic_core.judges.llm.options import LLM_OPTIONS
from agentic_core.judges.llm.provider_table import PROVIDERS

__all__ = ["LLM_OPTIONS", "PROVIDERS"]
