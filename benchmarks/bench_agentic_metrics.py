"""Benchmark of seed 004's agentic metrics, offline paths (docs/agentic-metrics.md; target >= 1,000 conversations/s).

Run: ``.venv/bin/python benchmarks/bench_agentic_metrics.py [--tasks 1000] [--attempts 5]``. Prints conversations
per second for each offline path, computed from scratch (no verdict cache: ``cache_mode="off"``) unless said:

* tool call accuracy (Ragas' definition, both orders);
* topic adherence, offline: refusal phrases plus lexical stems, and plus MiniLM similarity (each distinct query
  and topic embedded once);
* agent goal accuracy with reference, offline: a hybrid run (the default run judge) with the default goal
  judge (lexical), a lexical run, the hybrid goal judge asked for (``goal_judge="hybrid"``, MiniLM-bound) and
  the same again with its verdicts in the cache (a second run of the same data);
* all three together, on a hybrid run with every default (MiniLM topics, lexical goal judge) and lexical only;
* aggregating the stored metrics (what a selector on the page calls).

The data are synthetic but realistic in shape: ``tasks`` distinct tasks of 3 turns each, attempted ``attempts``
times (queries and references repeat across attempts, answers vary), every conversation with two reference
topics, a reference outcome, and two tool calls made and expected. Two of the three queries share no word
with the topics, so the MiniLM path embeds them (each distinct query once per run). Each repeat uses fresh
texts (no memo hits across repeats); the best of ``--repeat`` is reported.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentic_core.agentic_metrics.compute import compute_agentic_metrics
from agentic_core.agentic_metrics.results import AgenticView
from agentic_core.analysis.agentic_summary import summarise_agentic
from agentic_core.data.schemas import Conversation
from agentic_core.judges.cache import JudgeCache
from agentic_core.judges.registry import build_judge

CITIES = ["Paris", "Boston", "Denver", "Rome", "Lisbon", "Tokyo", "Madrid", "Oslo", "Cairo", "Lima"]
OFF = ["Can you recommend a good sci-fi novel?", "Who won the world cup in 2018?", "Write me a poem about the sea."]


def conversations(tasks: int, attempts: int, tag: str) -> list[Conversation]:
    """``tasks * attempts`` conversations; ``tag`` makes every text of this batch new (no memo hits)."""
    out = []
    for t in range(tasks):
        city = CITIES[t % len(CITIES)]
        day = 1 + t % 28
        queries = [
            f"Book me a flight to {city} on May {day} ({tag}{t}).",
            f"How many suitcases can I take on trip {t}{tag}?",  # shares no word with the topics
            OFF[t % 3] if t % 4 == 0 else f"Please confirm reservation {t}{tag} for {city}.",
        ]
        for a in range(attempts):
            refuse = (t + a) % 4 == 0
            answers = [
                f"I found flight {t}{a} to {city} on May {day}.",
                f"You can check two bags on flight {t}{tag}.",
                "I'm sorry, I can only help with travel questions." if refuse
                else f"Your flight {t}{tag} to {city} on May {day} is booked, confirmation {a}{t}.",
            ]
            turns = []
            for n, (q, ans) in enumerate(zip(queries, answers, strict=True)):
                turns.append({
                    "qa_id": f"{t}-{n}", "query": q, "assistant": ans, "ground_truth_assistant": ans,
                    "agentic": {"tools_used": [{"tool_name": "search" if n == 0 else "book",
                                                "parameters": {"city": city, "day": day + (a % 2) * (n == 1)}}]},
                    "ground_truth_agentic": {"expected_tools": [{"tool_name": "search" if n == 0 else "book",
                                                                 "parameters": {"city": city, "day": day}}]},
                })
            out.append(Conversation.model_validate({
                "session_id": f"{tag}{t}-{a}", "assistant_id": "bot", "task_id": f"{tag}{t}",
                "reference_topics": ["flight booking", "baggage"],
                "reference": f"Flight {t}{tag} to {city} on May {day} booked.",
                "conversation": turns,
            }))
    return out


def _rate(label: str, n: int, seconds: float) -> None:
    print(f"{label:<58} {n / seconds:>10,.0f} conversations/s  ({seconds * 1e3:,.0f} ms for {n:,})")


def main() -> None:
    """Time every offline path and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=1000)
    parser.add_argument("--attempts", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n = args.tasks * args.attempts
    lexical, hybrid = build_judge("lexical"), build_judge("hybrid")
    scenarios = [
        ("tool call accuracy (strict + flexible)", dict(metrics="tool_call_accuracy")),
        ("topic adherence, offline lexical", dict(metrics="topic_adherence", prefer_embeddings=False)),
        ("topic adherence, offline MiniLM", dict(metrics="topic_adherence", prefer_embeddings=True)),
        ("goal accuracy, hybrid run, default goal judge (lexical)", dict(metrics="goal_accuracy", judge=hybrid)),
        ("goal accuracy, lexical run", dict(metrics="goal_accuracy", judge=lexical)),
        ("goal accuracy, goal_judge=hybrid (no cache)",
         dict(metrics="goal_accuracy", judge=hybrid, goal_judge="hybrid")),
        ("all three, hybrid run, defaults (MiniLM topics)", dict(metrics="all", judge=hybrid)),
        ("all three, lexical judge, lexical topics", dict(metrics="all", judge=lexical, prefer_embeddings=False)),
    ]
    print(f"{n:,} conversations ({args.tasks:,} tasks x {args.attempts} attempts, 3 turns each), best of "
          f"{args.repeat}")
    compute_agentic_metrics(conversations(5, 1, "warm"), lexical, cache_mode="off")  # imports, model load
    for index, (label, options) in enumerate(scenarios):
        best = float("inf")
        for r in range(args.repeat):
            data = conversations(args.tasks, args.attempts, f"s{index}r{r}x")  # fresh texts per scenario and repeat
            start = time.perf_counter()
            compute_agentic_metrics(data, cache_mode="off", **options)  # type: ignore[arg-type]
            best = min(best, time.perf_counter() - start)
        _rate(label, n, best)
    data = conversations(args.tasks, args.attempts, "cached")
    with JudgeCache(":memory:") as cache:
        compute_agentic_metrics(data, hybrid, metrics="goal_accuracy", cache=cache, goal_judge="hybrid")
        start = time.perf_counter()
        computed = compute_agentic_metrics(data, hybrid, metrics="goal_accuracy", cache=cache, goal_judge="hybrid")
        _rate("goal accuracy, goal_judge=hybrid, verdicts cached", n, time.perf_counter() - start)
    computed = compute_agentic_metrics(data, lexical, cache_mode="off", prefer_embeddings=False)
    ids = [c.session_id for c in data]
    start = time.perf_counter()
    for _ in range(10):
        summarise_agentic(computed, ids, AgenticView(order="flexible", mode="recall", variant="ragas"))
    print(f"{'aggregating the stored metrics (a selector move)':<58} {(time.perf_counter() - start) * 100:>10,.1f} ms")


if __name__ == "__main__":
    main()
