"""Issue 23: memory and time linear in a conversation's length, an interaction's tool calls and an
any_of rule's values (each grew with the square of its size, or worse)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from agentic_core.data.schemas import Agentic, GroundTruthAgentic, ParameterRule
from agentic_core.tools import matching, score_tools, values
from agentic_core.tools.matching import lcs_length

ROOT = Path(__file__).resolve().parent.parent

# One conversation of N interactions evaluated offline in a fresh process; prints the growth of the
# peak resident memory (VmHWM) while loading and evaluating, in MB.
_LONG = """
import sys
from agentic_core.evaluate import evaluate
from agentic_core.io.loader import load_records

def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM"):
            return int(line.split()[1]) / 1024
n = int(sys.argv[1])
turns = [{"qa_id": f"question-{i:06d}", "query": f"What is {i}?", "assistant": f"It is {i}.",
          "ground_truth_assistant": f"{i}."} for i in range(n)]
report = load_records([{"session_id": "s", "assistant_id": "a", "conversation": turns}])
base = hwm()
evaluate(report, "lexical", cache_mode="off")
print(hwm() - base)
"""


def _long_conversation_growth_mb(n: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", _LONG, str(n)], capture_output=True, text=True, env=env, timeout=120, check=True
    )
    return float(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc (Linux)")
def test_one_long_conversation_takes_memory_linear_in_its_length() -> None:
    # The task key (every qa_id of the conversation joined) was copied into every row: 16,000
    # interactions took gigabytes. Evaluating 4x the interactions must take well under 6x the memory.
    small = _long_conversation_growth_mb(3_000)
    large = _long_conversation_growth_mb(12_000)
    assert large < 6 * max(small, 8.0), (small, large)


def _many_calls(n: int) -> tuple[Agentic, GroundTruthAgentic]:
    used = [{"tool_name": "lookup", "parameters": {"id": i, "page": i % 7}, "step": i} for i in range(n)]
    expected = [{"tool_name": "lookup", "parameters": {"id": i + 1, "page": i % 7}, "step": i} for i in range(n)]
    return (
        Agentic.model_validate({"tools_used": used, "final_answer_uses_tools": True}),
        GroundTruthAgentic.model_validate({"expected_tools": expected, "tool_sequence_matters": True}),
    )


def test_comparisons_grow_linearly_with_the_calls_of_one_tool(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every expected call was compared with every used call of the same tool (and each pair's
    # disagreements kept): 2,000 calls took 1.86 GB. Above a bounded group size the pairing is linear.
    counted = [0]
    real = matching.pair_agreement

    def counting(*args: Any) -> Any:
        counted[0] += 1
        return real(*args)

    monkeypatch.setattr(matching, "pair_agreement", counting)

    def comparisons(n: int) -> int:
        counted[0] = 0
        agentic, expected = _many_calls(n)
        components = score_tools(agentic, expected, "")
        assert components is not None and components.n_matched == n
        return counted[0]

    small, large = comparisons(250), comparisons(1_000)
    assert large < 6 * small, (small, large)


def test_a_sequence_of_thousands_of_calls_is_ordered_quickly() -> None:
    rng = random.Random(7)
    a = [rng.choice("abcdefgh") for _ in range(6_000)]
    b = [rng.choice("abcdefgh") for _ in range(6_000)]
    start = time.perf_counter()
    lcs_length(a, b)
    assert time.perf_counter() - start < 0.5  # the table method took seconds


def _lcs_table(a: list[str], b: list[str]) -> int:
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0] * (len(b) + 1)
        for j, y in enumerate(b, start=1):
            cur[j] = prev[j - 1] + 1 if x == y else max(prev[j], cur[j - 1])
        prev = cur
    return prev[-1]


def test_lcs_length_equals_the_table_method() -> None:
    rng = random.Random(3)
    for _ in range(500):
        a = [rng.choice("abcd") for _ in range(rng.randint(0, 40))]
        b = [rng.choice("abcde") for _ in range(rng.randint(0, 40))]
        assert lcs_length(a, b) == _lcs_table(a, b), (a, b)


def test_any_of_lookups_do_not_scan_the_values(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each comparison scanned the whole list: 1,000 values over 200 calls took 25 s.
    counted = [0]
    real = values.structural_equal

    def counting(*args: Any) -> Any:
        counted[0] += 1
        return real(*args)

    monkeypatch.setattr(values, "structural_equal", counting)

    def comparisons(n_values: int) -> int:
        rule = ParameterRule(rule="any_of", values=[f"v{j}" for j in range(n_values)] + [7, {"k": 1}])
        counted[0] = 0
        for j in range(200):
            assert values.in_values(f"v{n_values - 1 - j}", rule)
        assert not values.in_values("absent", rule)
        return counted[0]

    assert comparisons(4_000) <= comparisons(1_000) + 10


@pytest.mark.parametrize(
    ("used", "allowed"),
    [
        (5.0, True),  # 5 == 5.0
        (True, False),  # a bool is not the number 1
        (1, False),
        (float("nan"), False),  # NaN never equals
        ({"k": 1}, True),
        ({"k": 2}, False),
        ([5], False),
        (None, True),
        (2**64 + 1, False),
        ("v1", True),
        ("V1", False),
    ],
)
def test_any_of_lookup_agrees_with_the_structural_comparison(used: Any, allowed: bool) -> None:
    rule = ParameterRule(rule="any_of", values=["v1", 5, {"k": 1}, None, float(2**64), False])
    assert values.in_values(used, rule) is allowed
    scan = any(values.structural_equal(v, used, values.num_exact, values.str_exact) for v in rule.values or [])
    assert scan is allowed
