"""Generate a large synthetic dataset in the seed format (for benchmarks only).

``python benchmarks/make_large.py OUT.jsonl --conversations 20000 --interactions 5``

Tasks repeat (``task_id``) with 10 attempts each; every interaction carries a ``score`` (so the
``dataset`` judge can run without a model) and one tool call with its expectation; about one
in five interactions has a tool mistake. Deterministic for a given seed.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import orjson


def make_records(n_conversations: int, interactions: int, seed: int = 0) -> list[dict]:
    """Build the records (plain dicts) of a synthetic dataset."""
    rng = random.Random(seed)
    attempts = 10
    n_tasks = max(1, n_conversations // attempts)
    task_p = [rng.uniform(0.5, 1.0) for _ in range(n_tasks)]
    records = []
    for ci in range(n_conversations):
        task = ci % n_tasks
        turns = []
        for ii in range(interactions):
            a, b = rng.randint(1, 999), rng.randint(1, 999)
            ok = rng.random() < task_p[task] ** (1 / interactions)
            used_b = b if rng.random() > 0.2 else b + 1
            turns.append(
                {
                    "qa_id": f"t{task}_q{ii}",
                    "query": f"What is {a} + {b}?",
                    "assistant": f"The sum of {a} and {b} is {a + b if ok else a + b + 1}.",
                    "ground_truth_assistant": f"{a} + {b} = {a + b}",
                    "score": round(rng.uniform(0.75, 1.0) if ok else rng.uniform(0.0, 0.6), 3),
                    "agentic": {
                        "tools_used": [
                            {
                                "tool_name": "calculator",
                                "parameters": {"op": "add", "a": a, "b": used_b},
                                "result": a + used_b,
                                "step": 1,
                            }
                        ],
                        "final_answer_uses_tools": True,
                    },
                    "ground_truth_agentic": {
                        "expected_tools": [
                            {
                                "tool_name": "calculator",
                                "parameters": {"op": "add", "a": a, "b": b},
                                "step": 1,
                            }
                        ],
                        "tool_sequence_matters": False,
                    },
                }
            )
        records.append(
            {
                "session_id": f"s{ci:06d}",
                "assistant_id": "bench-agent",
                "task_id": f"task{task:05d}",
                "conversation": turns,
            }
        )
    return records


def write_jsonl(path: Path, records: list[dict]) -> None:
    """Write records as JSONL."""
    with path.open("wb") as fh:
        for rec in records:
            fh.write(orjson.dumps(rec))
            fh.write(b"\n")


def main() -> None:
    """CLI entry."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--conversations", type=int, default=20_000)
    parser.add_argument("--interactions", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    write_jsonl(args.out, make_records(args.conversations, args.interactions, args.seed))
    print(f"wrote {args.out} ({args.conversations} conversations x {args.interactions} interactions)")


if __name__ == "__main__":
    main()
