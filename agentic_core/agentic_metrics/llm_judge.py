"""The LLM judge asked the agentic metrics' questions: same model, retries, rate limit and counters.

:class:`MetricJudge` wraps a configured :class:`~agentic_core.judges.llm.judge.LLMJudge` and a
:class:`~agentic_core.agentic_metrics.llm_prompts.MetricTask`. It is a judge like any other (the
``Judge`` protocol), so the runner deduplicates its items and keeps its verdicts in the verdict cache,
keyed by the task's prompt version and the texts. Every per-item problem is a ``failed`` verdict
(unscored, never 0); a reply holding several different verdicts is asked once more.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from agentic_core.agentic_metrics.llm_prompts import REASK, MetricTask
from agentic_core.judges.base import JudgeItem, ProgressFn, Verdict
from agentic_core.judges.llm.judge import LLMJudge, _CallFailure
from agentic_core.judges.llm.prompt import AmbiguousJudgementError, JudgementParseError, message_text
from agentic_core.judges.llm.replies import message_of, usage_of
from agentic_core.judges.llm.reply_text import clip_reasoning


class MetricJudge:
    """Asks an LLM judge's model one agentic-metric question per item.

    Args:
        base: The configured LLM judge (its model, retries, timeout, rate limit and counters are shared).
        task: The question and how its reply is read.
    """

    recommended_threshold: float = 0.5
    cacheable: bool = True
    calls_llm, reads_texts, abstains, notice = True, True, False, None

    def __init__(self, base: LLMJudge, task: MetricTask) -> None:
        self.base = base
        self.task = task
        self.stats = base.stats
        self.warnings: list[str] = []
        self.identity = base.identity.model_copy(update={"prompt_version": task.version})
        self._system = SystemMessage(content=task.system)
        # Asked in the reply format the base judge negotiated with the server (a schema, JSON mode or text).
        self._schema = task.schema.model_json_schema()

    def messages(self, item: JudgeItem) -> list[BaseMessage]:
        """The exact prompt sent for ``item``."""
        return [self._system, HumanMessage(content=self.task.user(item))]

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        """Ask about every item, at most the base judge's concurrency at a time; same order as ``items``."""
        gate = asyncio.Semaphore(self.base.concurrency)
        done = 0

        async def one(item: JudgeItem) -> Verdict:
            nonlocal done
            async with gate:
                verdict = await self._ask(item)
            done += 1
            if progress is not None:
                progress(done, len(items))
            return verdict

        return list(await asyncio.gather(*(one(item) for item in items)))

    def _read(self, output: Any) -> tuple[float, str, AIMessage | None]:
        message = message_of(output)
        parsed = output.get("parsed") if isinstance(output, dict) and "raw" in output else None
        text = message_text(message.content) if message is not None else message_text(output)
        score, reasoning = self.task.parse(parsed, text)
        return score, reasoning, message

    async def _ask(self, item: JudgeItem) -> Verdict:
        messages = self.messages(item)
        started = time.perf_counter()
        output = await self.base._call(messages, schema=self._schema)
        if isinstance(output, _CallFailure):
            return self._failed(output.error, started)
        try:
            score, reasoning, message = self._read(output)
        except AmbiguousJudgementError as first:
            self.stats.reasks += 1
            previous: list[BaseMessage] = [AIMessage(content=first.raw)] if first.raw.strip() else []
            output = await self.base._call([*messages, *previous, HumanMessage(content=REASK)], schema=self._schema)
            if isinstance(output, _CallFailure):
                return self._failed(f"re-asked after {first.reason}, then the call failed: {output.error}", started)
            try:
                score, reasoning, message = self._read(output)
            except JudgementParseError as exc:
                return self._failed(f"re-asked after {first.reason}, then: {exc}", started, message_of(output))
        except JudgementParseError as exc:
            return self._failed(str(exc), started, message_of(output))
        tokens = usage_of(message)
        # Masked with every known key and clipped, like the rubric judge's reasoning (a server may echo a key).
        return Verdict(score=score, reasoning=clip_reasoning(self.base._scrub(reasoning)),
                       latency_s=time.perf_counter() - started,
                       input_tokens=tokens[0], output_tokens=tokens[1])

    def _failed(self, error: str, started: float, message: AIMessage | None = None) -> Verdict:
        tokens = usage_of(message)
        return Verdict(score=None, status="failed", error=self.base._scrub(error)[:4000],
                       latency_s=time.perf_counter() - started, input_tokens=tokens[0], output_tokens=tokens[1])
