"""Replies that are not judgements: a copy of the rubric's placeholders, or one reply for every item.

A small model may answer with the very template the rubric shows (``{"score": 0.5, "reasoning":
"<short explanation>"}``): the reply parses, but it judges nothing. Such a reply leaves its item
unscored with the cause ``invalid_reply`` (its score is noise: never mixed into pass@k), and once
most of the first :data:`WATCH_REPLIES` replies are copies, the run says that the model does not
follow the rubric, naming the smallest model that did in our tests.

A model giving the same score with the same words to each of its first :data:`WATCH_REPLIES` items
(distinct items: the runner judges each once) is flagged by a run-level warning only, and its
verdicts stay scored: on uniform data (every answer exact) one short reasoning can be a real verdict
for each item, so unscoring them could discard right judgements; the warning asks for a check
against labels (``calibrate``).
"""

from __future__ import annotations

import re

from agentic_core.common.text_normal import squeeze
from agentic_core.judges.llm.prompt import REASK_PROMPT, SYSTEM_PROMPT, USER_TEMPLATE

PLACEHOLDERS: tuple[str, ...] = tuple(
    sorted(set(re.findall(r"<[^<>{}]*\s[^<>{}]*>", SYSTEM_PROMPT + USER_TEMPLATE + REASK_PROMPT)))
)
"""The rubric's placeholders (``<short explanation>``, ...): angle brackets around words, as the prompts write
them where the model's own text belongs (the fence tags, one word each, are not placeholders)."""

WATCH_REPLIES = 5
"""The first replies the run-level warnings look at."""

SMALLEST_THAT_FOLLOWED = (
    "in our tests the smallest model that followed the rubric was Qwen2.5-Coder-1.5B-Instruct (it scored 12 of 12 "
    "items), while Gemma 3 270M copied the placeholder into every reply: use a model of 1.5B parameters or more "
    "(docs/judges.md, 'A local judge on a CPU')"
)
"""What we know of model sizes (the issue's test on llama.cpp); docs/judges.md says the same."""

_FOLDED = tuple((p, squeeze(p).lower(), squeeze(p[1:-1]).lower()) for p in PLACEHOLDERS)


def copied_placeholder(reasoning: str) -> str | None:
    """The rubric placeholder a reply's reasoning copies (whole, or its words alone), or ``None``."""
    text = squeeze(reasoning).lower()
    for placeholder, folded, words in _FOLDED:
        if folded in text or text.strip(" .<>\"'") == words:
            return placeholder
    return None


class RubricWatch:
    """Counts the first replies of a judge and words the run-level warnings (at most once each)."""

    def __init__(self) -> None:
        self.seen = 0
        self.copies = 0
        self.placeholder: str | None = None
        self.notes: list[str] = []
        self._replies: list[tuple[float, str]] = []
        self._said: set[str] = set()

    def reply(self, score: float, reasoning: str) -> str | None:
        """Record one readable reply; the placeholder it copies (its item is then unscored), or ``None``."""
        copied = copied_placeholder(reasoning)
        if self.seen < WATCH_REPLIES:
            self.seen += 1
            if copied is not None:
                self.copies += 1
                self.placeholder = self.placeholder or copied
            else:
                self._replies.append((score, squeeze(reasoning).lower()))
            if self.seen == WATCH_REPLIES:
                self.check()
        return copied

    def check(self) -> None:
        """Add the warnings the replies seen so far call for (also at the end of a run with fewer replies)."""
        if self.copies and 2 * self.copies > self.seen and "copies" not in self._said:
            self._said.add("copies")
            self.notes.append(
                f"the model does not follow the rubric: {self.copies} of its first {self.seen} replies copy the "
                f"rubric's placeholder {self.placeholder!r} instead of judging, so those items are unscored "
                f"(invalid reply); {SMALLEST_THAT_FOLLOWED}"
            )
        same = len(self._replies) == WATCH_REPLIES and len(set(self._replies)) == 1
        if same and "same" not in self._said:
            self._said.add("same")
            # The reply's words are not quoted: a warning is not masked of secrets a server may echo.
            self.notes.append(
                f"the model may not follow the rubric: it gave the same reply (score {self._replies[0][0]:g}, same "
                f"words) to each of its first {WATCH_REPLIES} items; the scores are kept, but check them against human "
                f"labels (calibrate) before trusting them; {SMALLEST_THAT_FOLLOWED}"
            )
