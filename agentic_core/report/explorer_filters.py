"""The Explorer's filters, its severity order, its URL parameters and the answer-vs-truth word diff.

Pure and vectorised (one boolean mask per conversation), so a filter change stays fast at 100k
interactions. :class:`FilterIndex` holds what does not depend on the settings (tool names,
human verdicts, unscored reasons), built once per run; :func:`filter_mask` combines the filters
with the current aggregate; :func:`severity_order` is the "failing first" sort.
"""

from __future__ import annotations

import difflib
import html
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np
import pandas as pd

from agentic_core.analysis.aggregate import Aggregate
from agentic_core.analysis.calibration import run_verdicts
from agentic_core.common.frame_columns import STATUSES, ConversationCols, ExplorerCols, InteractionCols, ResultCols
from agentic_core.common.markdown_text import md_code
from agentic_core.result import EvaluationResult

TOOL_DIMENSIONS = ("selection", "parameters", "sequence", "utilization", "overall")
"""Tool dimensions the Explorer filters on (``overall`` = the weighted score under the current weights)."""

EXPLORER_PAGE_ROWS = 1000
"""Conversations the Explorer's table sends to the browser per page (every one stays reachable page by page)."""

# URL parameter -> ExplorerFilters field. Lists are comma-separated.
URL_PARAMS: dict[str, str] = {
    "status": "statuses",
    "q": "search",
    "task": "tasks",
    "assistant": "assistants",
    "tool": "tools",
    "tool_dim": "tool_dimension",
    "tool_below": "tool_below",
    "score_min": "score_min",
    "score_max": "score_max",
    "reason": "unscored_reason",
    "disagree": "disagreement",
}
CONVERSATION_PARAM = "conversation"
PAGE_PARAMS = (*URL_PARAMS, CONVERSATION_PARAM)
"""Every parameter the Explorer keeps in its URL (besides the shared settings and ``run``)."""


@dataclass(frozen=True)
class ExplorerFilters:
    """What the Explorer keeps; every filter is optional and they combine with AND.

    Attributes:
        statuses: Conversation statuses to keep.
        search: Literal, case-insensitive text (session id, assistant id, a query or an answer).
        tasks / assistants / tools: Keep conversations with one of these (tools: expected or used).
        tool_dimension / tool_below: Keep conversations with an interaction whose tool dimension
            is scored and strictly below ``tool_below``.
        score_min / score_max: Keep conversations with a judge score in ``[score_min, score_max]``.
        unscored_reason: Keep conversations with an unscored interaction whose error contains this text
            (``uncertain`` finds the judge's abstentions).
        disagreement: Keep conversations where a human verdict (label, grade or override) differs
            from the judge's (score vs the answer threshold).
    """

    statuses: tuple[str, ...] = STATUSES
    search: str = ""
    tasks: tuple[str, ...] = ()
    assistants: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()
    tool_dimension: str = "overall"
    tool_below: float | None = None
    score_min: float = 0.0
    score_max: float = 1.0
    unscored_reason: str = ""
    disagreement: bool = False


DEFAULT_FILTERS = ExplorerFilters()


@dataclass
class FilterIndex:
    """Settings-independent facts per run for the filters, built once (:meth:`build`)."""

    n_conversations: int
    conv_index: np.ndarray
    task_keys: np.ndarray
    assistant_ids: np.ndarray
    tool_conversations: dict[str, np.ndarray] = field(default_factory=dict)
    human: np.ndarray = field(default_factory=lambda: np.zeros(0))
    reasons: pd.Series = field(default_factory=lambda: pd.Series(dtype=object))

    @classmethod
    def build(cls, result: EvaluationResult) -> FilterIndex:
        n = result.n_conversations
        tools: dict[str, list[int]] = {}
        per_conversation: dict[int, set[str]] = {}
        expected_names, used_names = result.tool_call_names()
        for row, expected, used in zip(result.conv_index.tolist(), expected_names, used_names, strict=True):
            if expected or used:
                names = per_conversation.setdefault(row, set())
                names.update(expected)
                names.update(used)
        for row in sorted(per_conversation):
            for name in per_conversation[row] - {""}:
                tools.setdefault(name, []).append(row)
        inter = result.interactions
        unscored = inter[ResultCols.SCORE].isna().to_numpy()
        errors = inter[ResultCols.JUDGE_ERROR].where(unscored, None)
        # An abstention is found by the reason "uncertain" even when its judge's error does not
        # start with the word (the contract says it should; a third-party judge may not).
        uncertain = (inter[ResultCols.JUDGE_STATUS] == "uncertain").to_numpy(dtype=bool) & unscored
        if uncertain.any():
            tagged = "uncertain: " + errors.fillna("").astype(str)
            errors = errors.where(~uncertain | errors.fillna("").str.lower().str.startswith("uncertain"), tagged)
        human, _ = run_verdicts(result) if n else (np.zeros(0), [])
        return cls(
            n_conversations=n,
            conv_index=np.asarray(result.conv_index, dtype=np.int64),
            task_keys=np.asarray(result.task_key_per_conversation(), dtype=object),
            assistant_ids=np.asarray(result.assistant_ids(), dtype=object),
            tool_conversations={k: np.asarray(v, dtype=np.int64) for k, v in sorted(tools.items())},
            human=np.asarray(human, dtype=np.float64),
            reasons=errors.fillna("").astype(str).str.lower(),
        )

    @property
    def tool_names(self) -> list[str]:
        return list(self.tool_conversations)

    def any_per_conversation(self, hits: np.ndarray) -> np.ndarray:
        """Per conversation: does any of its interactions hit."""
        mask = np.zeros(self.n_conversations, dtype=bool)
        mask[self.conv_index[np.asarray(hits, dtype=bool)]] = True
        return mask


def tool_dimension_values(result: EvaluationResult, agg: Aggregate, dimension: str) -> np.ndarray:
    """Per interaction, the tool dimension's value (NaN where tools do not apply)."""
    inter = result.interactions
    applicable = inter[ResultCols.TOOL_APPLICABLE].to_numpy(dtype=bool)
    if dimension == "overall":
        values = agg.interactions[InteractionCols.TOOL_OVERALL].to_numpy(dtype=np.float64)
    elif dimension == "selection" and agg.settings.ignore_extra_tools:
        values = inter[ResultCols.TOOL_SELECTION_IGNORE_EXTRA].to_numpy(dtype=np.float64)
    elif dimension in TOOL_DIMENSIONS:
        values = inter[f"tool_{dimension}"].to_numpy(dtype=np.float64)
    else:
        raise ValueError(f"unknown tool dimension {dimension!r}")
    return np.where(applicable, values, np.nan)


def filter_mask(
    result: EvaluationResult,
    agg: Aggregate,
    index: FilterIndex,
    filters: ExplorerFilters,
    search_mask: np.ndarray | None = None,
) -> np.ndarray:
    """Conversations that pass every filter (the search comes in as ``search_mask``, see ``SearchIndex``)."""
    n = index.n_conversations
    keep = np.ones(n, dtype=bool)
    if search_mask is not None:
        keep &= np.asarray(search_mask, dtype=bool)
    if tuple(filters.statuses) != STATUSES:
        keep &= agg.conversations[ConversationCols.STATUS].isin(list(filters.statuses)).to_numpy()
    if filters.tasks:
        keep &= np.isin(index.task_keys, list(filters.tasks))
    if filters.assistants:
        keep &= np.isin(index.assistant_ids, list(filters.assistants))
    if filters.tools:
        tool_mask = np.zeros(n, dtype=bool)
        for name in filters.tools:
            tool_mask[index.tool_conversations.get(name, np.zeros(0, dtype=np.int64))] = True
        keep &= tool_mask
    if filters.tool_below is not None:
        values = tool_dimension_values(result, agg, filters.tool_dimension)
        with np.errstate(invalid="ignore"):
            keep &= index.any_per_conversation(values < filters.tool_below)
    if filters.score_min > 0.0 or filters.score_max < 1.0:
        # The score under the settings' abstention band (the judge's own unless the band is set): the filter
        # shows what the Overview counts.
        score = agg.interactions[InteractionCols.SCORE].to_numpy(dtype=np.float64)
        with np.errstate(invalid="ignore"):
            inside = (score >= filters.score_min - 1e-9) & (score <= filters.score_max + 1e-9)
        keep &= index.any_per_conversation(inside)
    if filters.unscored_reason.strip():
        needle = filters.unscored_reason.strip().lower()
        keep &= index.any_per_conversation(unscored_reasons(agg, index).str.contains(needle, regex=False).to_numpy())
    if filters.disagreement:
        keep &= index.any_per_conversation(disagreements(result, agg, index))
    return keep


BAND_REASON = "uncertain: its probability is inside the abstention band in force"
"""The reason of an interaction the judge scored that the band in force re-decides as uncertain."""


def unscored_reasons(agg: Aggregate, index: FilterIndex) -> pd.Series:
    """Per interaction, why it is unscored under the settings' abstention band (lower case; ``""`` when scored).

    The band re-decides every interaction that carries a probability: one the judge abstained on is scored
    when the band in force decides it (its reason goes), and one the judge scored is uncertain when the band
    puts its probability inside (:data:`BAND_REASON`). Other interactions keep the judge's own reason.
    """
    unscored = agg.interactions[InteractionCols.UNSCORED].to_numpy(dtype=bool)
    uncertain = agg.interactions[InteractionCols.UNCERTAIN].to_numpy(dtype=bool)
    reasons = index.reasons.to_numpy(dtype=object).copy()
    reasons[uncertain & (index.reasons.to_numpy() == "")] = BAND_REASON
    reasons[~unscored] = ""
    return pd.Series(reasons, index=index.reasons.index, dtype=object).astype(str)


def disagreements(result: EvaluationResult, agg: Aggregate, index: FilterIndex) -> np.ndarray:
    """Per interaction: a human verdict exists and differs from the judge's (score vs threshold)."""
    human = index.human
    judge = agg.interactions[InteractionCols.PASSES_THRESHOLD].to_numpy(dtype=bool)
    # Scored by the judge under the settings' abstention band (its own verdicts unless the band is set).
    scored = ~np.isnan(agg.interactions[InteractionCols.SCORE].to_numpy(dtype=np.float64))
    has = ~np.isnan(human)
    return has & scored & ((human >= 0.5) != judge)


SEVERITY_KEY = (
    "status rank",
    "wrong interactions (desc)",
    "lowest score (asc, none last)",
    "unscored (desc)",
    "tool failures (desc)",
    "row",
)
"""The "failing first" order: status (incorrect, unscored, correct), then the most interactions wrong,
the lowest judge score, the most unscored interactions, the most tool failures, then the row."""


def severity_order(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` (the explorer table's columns) sorted by :data:`SEVERITY_KEY`, index reset."""
    if table.empty:
        return table.reset_index(drop=True)
    col = ExplorerCols
    rank = table[col.STATUS].map({s: i for i, s in enumerate(STATUSES)}).to_numpy(dtype=np.int64)
    unscored = table[col.UNSCORED].to_numpy(dtype=np.int64)
    wrong = (table[col.INTERACTIONS] - table[col.CORRECT]).to_numpy(dtype=np.int64) - unscored
    score = table[col.MIN_SCORE].to_numpy(dtype=np.float64)
    score = np.where(np.isnan(score), np.inf, score)
    tool_fail = (table[col.TOOL_SCORED] - table[col.TOOL_CORRECT]).to_numpy(dtype=np.int64)
    order = np.lexsort((table[col.ROW].to_numpy(), -tool_fail, -unscored, score, -wrong, rank))
    return table.iloc[order].reset_index(drop=True)


# -- the URL ------------------------------------------------------------------------------------


def _unit_interval(text: str, name: str) -> float:
    try:
        value = float(text.strip().rstrip("%")) / (100 if text.strip().endswith("%") else 1)
    except ValueError:
        raise ValueError(f"`{name}` must be a number between 0 and 1") from None
    if not (math.isfinite(value) and 0.0 <= value <= 1.0):
        raise ValueError(f"`{name}` must be between 0 and 1")
    return value


def filters_from_query(
    query: Mapping[str, str], choices: Mapping[str, list[str]] | None = None
) -> tuple[ExplorerFilters, list[str]]:
    """The filters a link asks for, and one message per value that could not be used (default kept).

    Args:
        query: The URL's parameters.
        choices: Accepted values for ``status``, ``task``, ``assistant``, ``tool`` (unknown ones are said).
    """
    choices = {"status": list(STATUSES), **(choices or {})}
    values: dict[str, Any] = {}
    messages: list[str] = []
    for param, name in URL_PARAMS.items():
        if param not in query:
            continue
        text = str(query[param])
        try:
            if name in ("statuses", "tasks", "assistants", "tools"):
                items = tuple(x.strip() for x in text.split(",") if x.strip())
                accepted = choices.get(param)
                if accepted is not None:
                    unknown = [x for x in items if x not in accepted]
                    if unknown:
                        shown = md_code(", ".join(accepted[:12])) + (" …" if len(accepted) > 12 else "")
                        raise ValueError(f"{', '.join(map(md_code, unknown))} not in this run (it has: {shown})")
                values[name] = items
            elif name == "tool_dimension":
                if text not in TOOL_DIMENSIONS:
                    raise ValueError(f"must be one of {', '.join(TOOL_DIMENSIONS)}")
                values[name] = text
            elif name in ("tool_below", "score_min", "score_max"):
                values[name] = _unit_interval(text, param)
            elif name == "disagreement":
                if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError("must be true or false")
                values[name] = text.lower() in ("true", "1", "yes")
            else:
                values[name] = text
        except ValueError as exc:
            messages.append(f"The link's {md_code(f'{param}={text}')} was ignored: {exc}.")
    filters = replace(DEFAULT_FILTERS, **values)
    if filters.score_min > filters.score_max:
        messages.append(
            f"The link's score range {filters.score_min:g}–{filters.score_max:g} is empty: the full range is used."
        )
        filters = replace(filters, score_min=0.0, score_max=1.0)
    return filters, messages


def filters_to_query(filters: ExplorerFilters) -> dict[str, str]:
    """The URL parameters of ``filters``: only those that differ from the defaults."""
    out: dict[str, str] = {}
    by_name = {name: param for param, name in URL_PARAMS.items()}
    for f in fields(ExplorerFilters):
        value = getattr(filters, f.name)
        if value == getattr(DEFAULT_FILTERS, f.name):
            continue
        if f.name == "tool_dimension" and filters.tool_below is None:
            continue
        param = by_name[f.name]
        if isinstance(value, tuple):
            out[param] = ",".join(value)
        elif isinstance(value, bool):
            out[param] = "true" if value else "false"
        elif isinstance(value, float):
            out[param] = f"{value:g}"
        else:
            out[param] = str(value)
    return out


def conversation_param(session_ids: pd.Series, row: int) -> str:
    """How the URL names conversation ``row``: its session id when unique in the run, else ``#row``."""
    sid = str(session_ids.iat[row])
    return sid if int((session_ids == sid).sum()) == 1 else f"#{row}"


def resolve_conversation(session_ids: pd.Series, text: str) -> int | None:
    """The row a URL's ``conversation=`` names (a session id, its first conversation; or ``#row``), or ``None``."""
    text = text.strip()
    if re.fullmatch(r"#\d+", text):
        row = int(text[1:])
        return row if row < len(session_ids) else None
    hits = np.flatnonzero((session_ids.astype(str) == text).to_numpy())
    return int(hits[0]) if len(hits) else None


# -- highlighting and the word diff -------------------------------------------------------------


def highlight(text: str, term: str) -> str:
    """``text`` as escaped HTML with every case-insensitive match of ``term`` in ``<mark>`` (newlines kept)."""
    term = term.strip()
    if not term:
        return html.escape(text)
    parts = re.split(f"({re.escape(term)})", text, flags=re.IGNORECASE)
    return "".join(f"<mark>{html.escape(p)}</mark>" if i % 2 else html.escape(p) for i, p in enumerate(parts))


_TOKEN = re.compile(r"\s+|[^\s\w]|\w+", re.UNICODE)
_MONTHS = frozenset(
    [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    ]
)


def tokens(text: str) -> list[str]:
    """Words, single punctuation marks and whitespace runs; joined back they give ``text``."""
    return _TOKEN.findall(text)


def _salient_flags(toks: list[str]) -> list[bool]:
    """Per token: a number, a name or a date, the tokens whose difference matters most.

    Numbers hold a digit; month and weekday names count; a capitalised word counts as a name unless it
    starts a sentence (the text's first word, or after ``.``, ``!``, ``?``).
    """
    flags = []
    sentence_start = True
    for token in toks:
        if token.isspace():
            flags.append(False)
            continue
        flag = any(ch.isdigit() for ch in token) or token.lower() in _MONTHS
        flag = flag or (token[:1].isupper() and not sentence_start)
        flags.append(flag)
        sentence_start = token in (".", "!", "?")
    return flags


@dataclass(frozen=True)
class DiffPart:
    """One piece of the word diff: ``op`` is ``equal``, ``removed`` (truth only) or ``added`` (answer only)."""

    op: str
    text: str
    salient: bool = False


def word_diff(answer: str, truth: str) -> list[DiffPart]:
    """Word-level diff turning the ground truth into the answer (difflib on tokens, case-insensitive match).

    ``salient`` marks changed pieces that hold a number, a name or a date.
    """
    a, b = tokens(truth), tokens(answer)
    flag_a, flag_b = _salient_flags(a), _salient_flags(b)
    matcher = difflib.SequenceMatcher(None, [t.lower() for t in a], [t.lower() for t in b], autojunk=False)
    parts: list[DiffPart] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            parts.append(DiffPart("equal", "".join(b[j1:j2])))
            continue
        if i2 > i1:
            removed = a[i1:i2]
            parts.append(DiffPart("removed", "".join(removed), any(flag_a[i1:i2])))
        if j2 > j1:
            added = b[j1:j2]
            parts.append(DiffPart("added", "".join(added), any(flag_b[j1:j2])))
    return parts


def diff_html(parts: list[DiffPart]) -> str:
    """The diff as escaped HTML: removed in ``<del>``, added in ``<ins>``, salient changes in bold."""
    out: list[str] = []
    previous = "equal"
    for part in parts:
        if part.op == "equal":
            out.append(html.escape(part.text))
            previous = "equal"
            continue
        # Whitespace stays outside the marks (a boxed mark would swallow it), and a removed piece followed
        # by the added one that replaces it gets a space between them so the words do not run together.
        core = part.text.strip()
        lead = part.text[: len(part.text) - len(part.text.lstrip())]
        trail = part.text[len(part.text.rstrip()) :]
        if previous != "equal" and not lead:
            lead = " "
        tag = "del" if part.op == "removed" else "ins"
        text = html.escape(core)
        body = f"<b>{text}</b>" if part.salient else text
        out.append(f'{html.escape(lead)}<{tag} class="{"salient" if part.salient else "plain"}">{body}</{tag}>'
                   f"{html.escape(trail)}")
        previous = part.op
    return "".join(out)
