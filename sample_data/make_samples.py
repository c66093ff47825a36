"""Deterministic generator for the sample datasets in ``sample_data/``.

Run from the repository root (or anywhere):

    .venv/bin/python sample_data/make_samples.py            # (re)write the files and validate them
    .venv/bin/python sample_data/make_samples.py --check    # validate the files on disk only

Every random choice goes through ``random.Random`` seeded from a fixed string, so re-running writes
byte-identical files. After writing, every record is validated with
``agentic_core.schemas.Conversation.model_validate`` and checked for unknown keys (``model_extra`` must be
empty on every model), and the script prints a short summary of what each file contains.

Files written:
    seed_examples.json          the seeds' own examples (seed 000 notebook dataset, seed 001 conversations)
    travel_agent.jsonl          ~40 multi-turn travel/booking conversations with varied tool failures
    support_bot_attempts.jsonl  30 support tasks x 8 attempts, per-task success probability 0.2 .. 1.0
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SEED = "agentic-workbench-samples-v1"

SEED_FILE = HERE / "seed_examples.json"
TRAVEL_FILE = HERE / "travel_agent.jsonl"
SUPPORT_FILE = HERE / "support_bot_attempts.jsonl"


def rng_for(*parts: object) -> random.Random:
    """A generator seeded from a string: stable across runs and Python versions (str seeds use SHA-512)."""
    return random.Random("|".join([SEED, *map(str, parts)]))


# --------------------------------------------------------------------------------------------- builders


def call(name: str, params: dict[str, Any], result: Any, step: int) -> dict[str, Any]:
    """A tool call the agent made."""
    return {"tool_name": name, "parameters": params, "result": result, "step": step}


def expect(
    name: str,
    params: dict[str, Any],
    step: int,
    *,
    optional: bool = False,
    rules: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A tool call the agent should make; ``optional`` / ``parameter_rules`` only written when used."""
    out: dict[str, Any] = {"tool_name": name, "parameters": params, "step": step}
    if optional:
        out["optional"] = True
    if rules:
        out["parameter_rules"] = rules
    return out


def renumber(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give used calls consecutive steps 1..n in list order."""
    for i, c in enumerate(calls, start=1):
        c["step"] = i
    return calls


def interaction(
    qa_id: str,
    query: str,
    answer: str,
    ground_truth: str,
    score: float,
    *,
    used: list[dict[str, Any]] | None = None,
    expected: list[dict[str, Any]] | None = None,
    sequence_matters: bool = False,
    uses_tools: bool | None = None,
) -> dict[str, Any]:
    """One interaction in the seed format (+ our ``score``).

    ``used``/``expected`` both None: a plain Q&A turn without any agentic block.
    ``uses_tools`` None: the ``final_answer_uses_tools`` flag is left out (the scorer infers it).
    """
    out: dict[str, Any] = {
        "qa_id": qa_id,
        "query": query,
        "assistant": answer,
        "ground_truth_assistant": ground_truth,
    }
    if used is not None or expected is not None:
        agentic: dict[str, Any] = {"tools_used": renumber(list(used or []))}
        if uses_tools is not None:
            agentic["final_answer_uses_tools"] = uses_tools
        out["agentic"] = agentic
        out["ground_truth_agentic"] = {
            "expected_tools": list(expected or []),
            "tool_sequence_matters": sequence_matters,
        }
    out["score"] = round(score, 2)
    return out


def conversation(
    session_id: str,
    assistant_id: str,
    turns: list[dict[str, Any]],
    *,
    task_id: str | None = None,
    context: str | None = None,
    language: str = "english",
) -> dict[str, Any]:
    out: dict[str, Any] = {"session_id": session_id, "assistant_id": assistant_id, "language": language}
    if context is not None:
        out["context"] = context
    if task_id is not None:
        out["task_id"] = task_id
    out["conversation"] = turns
    return out


def good_score(rng: random.Random, verbose: bool = False) -> float:
    return rng.uniform(0.80, 0.95) if verbose else rng.uniform(0.86, 1.0)


def bad_score(rng: random.Random) -> float:
    return rng.uniform(0.05, 0.45)


def refusal_score(rng: random.Random) -> float:
    return rng.uniform(0.0, 0.06)


# ========================================================================================= seed examples


def build_seed_examples() -> list[dict[str, Any]]:
    """Seed 000's notebook dataset (3 questions x K=3 responses) and seed 001's two conversations."""
    convs: list[dict[str, Any]] = []

    def calc_call(op: str, a: float, b: float, res: float) -> tuple[dict[str, Any], dict[str, Any]]:
        p = {"operation": op, "a": a, "b": b}
        return call("calculator", dict(p), res, 1), expect("calculator", dict(p), 1)

    # ---- q1_math: all three responses correct (pass@3 = pass^3 = 1)
    math_answers = [
        ("Using the calculator, I found that 15 + 27 = 42.", 0.92),
        ("15 + 27 = 42.", 0.88),
        ("The sum of 15 and 27 is 42.", 0.90),
    ]
    # ---- q2_capital: plain knowledge question, no tools, all correct
    capital_answers = [
        ("The capital of France is Paris.", 0.97),
        ("Paris is the capital of France, and also its largest city.", 0.93),
        ("France's capital city is Paris.", 0.95),
    ]
    # ---- q3_weather: two tools in order; only response 1 is right (pass@3 = 1, pass^3 = 0)
    weather_q = "What's the temperature in Tokyo right now, in Fahrenheit?"
    weather_gt = "It is currently 64.4°F (18°C) and partly cloudy in Tokyo."
    weather_expected = [
        expect("get_weather", {"city": "Tokyo"}, 1),
        expect("unit_converter", {"value": 18, "from_unit": "celsius", "to_unit": "fahrenheit"}, 2),
    ]
    tokyo = {"city": "Tokyo", "temperature_c": 18, "condition": "partly cloudy"}
    kyoto = {"city": "Kyoto", "temperature_c": 21, "condition": "sunny"}
    weather_variants = [
        # correct
        (
            "Tokyo is partly cloudy right now at 18°C, which is 64.4°F.",
            [
                call("get_weather", {"city": "Tokyo"}, tokyo, 1),
                call("unit_converter", {"value": 18, "from_unit": "celsius", "to_unit": "fahrenheit"}, 64.4, 2),
            ],
            True,
            0.91,
        ),
        # wrong parameter: looked up Kyoto instead of Tokyo, so the reported temperature is wrong
        (
            "It's currently 69.8°F (21°C) and sunny in Tokyo.",
            [
                call("get_weather", {"city": "Kyoto"}, kyoto, 1),
                call("unit_converter", {"value": 21, "from_unit": "celsius", "to_unit": "fahrenheit"}, 69.8, 2),
            ],
            True,
            0.18,
        ),
        # missing call: skipped the converter and converted in its head, wrongly
        (
            "It's 18°C in Tokyo right now, which is about 60°F, with partly cloudy skies.",
            [call("get_weather", {"city": "Tokyo"}, tokyo, 1)],
            True,
            0.35,
        ),
    ]

    n = 0
    for r in range(3):
        n += 1
        used, exp = calc_call("add", 15, 27, 42)
        ans, sc = math_answers[r]
        convs.append(
            conversation(
                f"agentic_eval_session_{n:02d}",
                f"agent_response_{r + 1}",
                [
                    interaction(
                        "q1_math", "What is 15 + 27?", ans, "15 + 27 equals 42.", sc,
                        used=[used], expected=[exp], uses_tools=True,
                    )
                ],
                task_id="q1_math",
                context="Arithmetic with a calculator tool",
            )
        )
    for r in range(3):
        n += 1
        ans, sc = capital_answers[r]
        convs.append(
            conversation(
                f"agentic_eval_session_{n:02d}",
                f"agent_response_{r + 1}",
                [interaction("q2_capital", "What is the capital of France?", ans,
                             "The capital of France is Paris.", sc)],
                task_id="q2_capital",
                context="General knowledge, no tools needed",
            )
        )
    for r in range(3):
        n += 1
        ans, used, flag, sc = weather_variants[r]
        convs.append(
            conversation(
                f"agentic_eval_session_{n:02d}",
                f"agent_response_{r + 1}",
                [
                    interaction(
                        "q3_weather", weather_q, ans, weather_gt, sc,
                        used=used, expected=[dict(e) for e in weather_expected],
                        sequence_matters=True, uses_tools=flag,
                    )
                ],
                task_id="q3_weather",
                context="Weather lookup followed by a unit conversion",
            )
        )

    # ---- seed 001: the Lambda README's two conversations, verbatim, plus scores and task ids
    add_used, add_exp = calc_call("add", 5, 3, 8)
    convs.append(
        conversation(
            "conversation_001",
            "agent_v1",
            [
                interaction("q1_interaction1", "What is 5 + 3?", "The result is 8.", "5 + 3 equals 8", 0.95,
                            used=[add_used], expected=[add_exp], uses_tools=True),
                interaction("q1_interaction2", "What is 10 * 2?", "10 times 2 is 20.", "20", 0.90),
            ],
            task_id="seed001_conversation_001",
            context="Math calculator conversation",
        )
    )
    convs.append(
        conversation(
            "conversation_002",
            "agent_v1",
            [interaction("q2_interaction1", "What is the capital of France?", "The capital of France is Paris.",
                         "Paris", 0.97)],
            task_id="seed001_conversation_002",
            context="Simple Q&A conversation",
        )
    )
    return convs
