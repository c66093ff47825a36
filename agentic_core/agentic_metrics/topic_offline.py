"""Offline topic classification (approximate): refusal phrases and query-to-topic similarity.

Per user query:

* **answered** unless the agent's reply is blank or holds a refusal phrase, as the offline judges read
  it (:func:`agentic_core.judges.offline.findings.text_analysis.find_refusal`, the ``refusal`` of ``analyze_text``);
* **on topic** when the query shares a content stem with one of the reference topics (no false positive on
  the labelled set below), else, with the embedding packages, when the MiniLM cosine of the query with
  ``"a question about <topic>"`` reaches :data:`MINILM_ON_TOPIC` (only those queries are embedded, each
  distinct text once); without the packages, a query sharing no stem is off topic.

Threshold and accuracy, measured on ``sample_data/topic_devset.jsonl`` (112 hand-labelled queries over
eight topic sets; threshold chosen on the four *dev* sets, then the four *test* sets looked at once):
MiniLM at 0.125 (after the stem check), accurate on both halves; the lexical fallback is much weaker:
queries rarely repeat their topic's word, so it misses most on-topic queries (``benchmarks/topic_accuracy.py``;
figures in benchmarks/RESULTS.md). Either way the result is labelled approximate.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agentic_core.agentic_metrics.results import QueryTopic
from agentic_core.common.passing import reaches
from agentic_core.judges.offline.findings.text_analysis import analyze_text, find_refusal

MINILM_ON_TOPIC = 0.125
"""A query is on topic when its MiniLM cosine with ``a question about <topic>`` reaches this."""
TOPIC_TEMPLATE = "a question about {}"
LEXICAL_ON_TOPIC = 0.01
"""Lexical fallback: any share of the topic's stems found in the query counts."""

QueryPair = tuple[str, str, tuple[str, ...]]
"""One user query, the agent's reply and the conversation's reference topics."""


def refusal_of(reply: str) -> str | None:
    """The refusal phrase of a reply (``"no reply"`` for a blank one), or ``None`` when it answers."""
    if not reply.strip():
        return "no reply"
    return find_refusal(reply)


def _lexical_similarity(query: str, topic: str) -> float:
    topic_stems = analyze_text(topic).stems
    if not topic_stems:
        return 0.0
    return len(topic_stems & analyze_text(query).stems) / len(topic_stems)


def _minilm_similarities(pairs: Sequence[QueryPair]) -> list[list[float]]:
    from agentic_core.judges.offline.embedding import _default_encoder

    queries = sorted({q for q, _, _ in pairs})
    topics = sorted({t for _, _, ts in pairs for t in ts})
    encoder = _default_encoder()
    vectors = encoder.encode([*queries, *(TOPIC_TEMPLATE.format(t) for t in topics)])
    q_row = {q: i for i, q in enumerate(queries)}
    t_row = {t: len(queries) + i for i, t in enumerate(topics)}
    out = []
    for q, _, ts in pairs:
        rows = np.fromiter((t_row[t] for t in ts), dtype=np.int64, count=len(ts))
        out.append([float(x) for x in vectors[rows] @ vectors[q_row[q]]])
    return out


def similarity_backend(prefer_embeddings: bool = True) -> str:
    """``minilm`` when the embedding packages are installed (and preferred), else ``lexical``."""
    if not prefer_embeddings:
        return "lexical"
    from agentic_core.judges.offline.minilm_files import embedding_available

    return "minilm" if embedding_available()[0] else "lexical"


def classify_queries(pairs: Sequence[QueryPair], backend: str = "lexical") -> list[QueryTopic]:
    """Classify each query offline (see the module docstring); each distinct text is embedded once.

    Args:
        pairs: ``(query, reply, topics)`` per user query; ``topics`` must not be empty.
        backend: ``minilm`` or ``lexical`` (see :func:`similarity_backend`).

    Returns:
        One classification per pair, in order.
    """
    sims = [[_lexical_similarity(q, t) for t in ts] for q, _, ts in pairs]
    best_at = [max(range(len(row)), key=row.__getitem__) for row in sims]
    best = np.fromiter((row[b] for row, b in zip(sims, best_at, strict=True)), float, len(sims))
    lexical_on = reaches(best, LEXICAL_ON_TOPIC)
    how = ["lexical"] * len(pairs)
    thresholds = np.full(len(pairs), LEXICAL_ON_TOPIC)
    if backend == "minilm":
        # A shared stem is enough (no false positive on the labelled set); embed only the rest.
        rest = [i for i in range(len(pairs)) if not lexical_on[i]]
        for i, row in zip(rest, _minilm_similarities([pairs[i] for i in rest]) if rest else [], strict=True):
            sims[i] = row
            best_at[i] = max(range(len(row)), key=row.__getitem__)
            best[i] = row[best_at[i]]
            how[i], thresholds[i] = "minilm", MINILM_ON_TOPIC
    embedded = thresholds == MINILM_ON_TOPIC
    on_topic_all = np.where(embedded, reaches(best, MINILM_ON_TOPIC), reaches(best, LEXICAL_ON_TOPIC))
    out = []
    for i, ((_, reply, topics), row, top) in enumerate(zip(pairs, sims, best_at, strict=True)):
        on_topic = bool(on_topic_all[i])
        refusal = refusal_of(reply)
        said = "refused" if refusal else "answered"
        why = f"{said} ({refusal!r})" if refusal else said
        reasoning = (
            f"{why}; closest topic {topics[top]!r} at {how[i]} similarity {row[top]:.3f} "
            f"({'on' if on_topic else 'off'} topic at {thresholds[i]:g}); approximate"
        )
        best_topic, similarity = topics[top], row[top]
        out.append(
            QueryTopic(answered=refusal is None, on_topic=on_topic, topic=best_topic, similarity=similarity,
                       reasoning=reasoning)
        )
    return out
