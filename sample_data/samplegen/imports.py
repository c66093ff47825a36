"""The hand-written traces in the importers' formats: ``openai_traces.jsonl``, ``ragas_multiturn.jsonl`` and
``inspect_log.json``. The texts are in ``texts/import_openai.json``, ``import_ragas.json`` and ``import_inspect.json``;
no randomness here.

In the OpenAI texts, a value ``{"by_attempt": [a, b, c]}`` is ``a`` in attempt 0, ``b`` in attempt 1 and so on, and a
message with ``only_attempts`` is left out of the other attempts. A ``why`` says what a task shows.
"""

from __future__ import annotations

import json
from typing import Any

from .common import check_keys, load_texts

# --------------------------------------------------------------------------------------------- OpenAI


def _pick(value: Any, attempt: int) -> Any:
    """``value`` as attempt ``attempt`` sees it: every ``by_attempt`` choice resolved."""
    if isinstance(value, dict):
        if set(value) == {"by_attempt"}:
            return _pick(value["by_attempt"][attempt], attempt)
        return {k: _pick(v, attempt) for k, v in value.items()}
    if isinstance(value, list):
        return [_pick(v, attempt) for v in value]
    return value


MESSAGE_KEYS = {"system", "user", "calls", "tool", "assistant", "refusal", "only_attempts"}


def _openai_messages(specs: list[dict[str, Any]], trace: str, system: str) -> list[dict[str, Any]]:
    """Chat messages from their short form; tool calls and results are numbered in order within the trace."""
    messages: list[dict[str, Any]] = []
    calls = results = 0
    for spec in specs:
        check_keys(spec, MESSAGE_KEYS, f"texts/import_openai.json, trace {trace}")
        if "system" in spec:
            messages.append({"role": "system", "content": system})
        elif "user" in spec:
            messages.append({"role": "user", "content": spec["user"]})
        elif "calls" in spec:
            made = []
            for name, args in spec["calls"]:
                calls += 1
                function = {"name": name, "arguments": json.dumps(args)}
                made.append({"id": f"call_{trace}_{calls}", "type": "function", "function": function})
            messages.append({"role": "assistant", "content": None, "tool_calls": made})
        elif "tool" in spec:
            results += 1
            call_id = f"call_{trace}_{results}"
            messages.append({"role": "tool", "tool_call_id": call_id, "content": json.dumps(spec["tool"])})
        else:
            content = spec["assistant"]
            if isinstance(content, list):
                content = [{"type": "text", "text": part} for part in content]
            message = {"role": "assistant", "content": content}
            if "refusal" in spec:
                message["refusal"] = spec["refusal"]
            messages.append(message)
    return messages


def openai_traces() -> list[dict[str, Any]]:
    """4 support tasks x 3 attempts of a retail agent, one trace per line."""
    texts = load_texts("import_openai.json")
    traces = []
    for task in texts["tasks"]:
        for attempt in range(texts["attempts"]):
            seen = _pick(task, attempt)
            specs = [m for m in seen["messages"] if attempt in m.get("only_attempts", [attempt])]
            trace = {
                "id": f"{task['task_id']}-{attempt}",
                "task_id": task["task_id"],
                "model": texts["model"],
                "messages": _openai_messages(specs, f"{task['trace']}{attempt}", texts["system"]),
            }
            trace.update((k, v) for k, v in seen.items() if k not in ("task_id", "trace", "why", "messages"))
            traces.append(trace)
    return traces


# --------------------------------------------------------------------------------------------- Ragas


def _ragas_message(spec: dict[str, Any]) -> dict[str, Any]:
    if "human" in spec:
        return {"content": spec["human"], "type": "human"}
    if "tool" in spec:
        result = spec["tool"]
        return {"content": result if isinstance(result, str) else json.dumps(result), "type": "tool"}
    out: dict[str, Any] = {"content": spec["ai"], "type": "ai"}
    if spec.get("calls"):
        out["tool_calls"] = [{"name": n, "args": a} for n, a in spec["calls"]]
    return out


def ragas_samples() -> list[dict[str, Any]]:
    """Ragas MultiTurnSample records as ``EvaluationDataset.to_jsonl`` writes them (None fields left out)."""
    return [
        {**sample, "user_input": [_ragas_message(m) for m in sample["user_input"]]}
        for sample in load_texts("import_ragas.json")
    ]


# --------------------------------------------------------------------------------------------- Inspect AI


def _inspect_sample(q: dict[str, Any], index: int, epoch: int, system: str) -> dict[str, Any]:
    answer = q["answers"][epoch - 1]
    correct = epoch not in q.get("wrong_epochs", [])
    tool, result, target = q["tool"], q["result"], q["target"]
    call = {"id": f"call_{q['id']}_{epoch}", "function": tool, "arguments": q["args"], "type": "function"}
    final = {"role": "assistant", "content": answer, "source": "generate", "model": "gpt-4o-mini"}
    usage = {"input_tokens": 412, "output_tokens": 31, "total_tokens": 443}
    return {
        "id": q["id"],
        "epoch": epoch,
        "input": q["question"],
        "target": target,
        "messages": [
            {"role": "system", "content": system},
            {"role": "user", "content": q["question"], "source": "input"},
            {"role": "assistant", "content": "", "source": "generate", "tool_calls": [call], "model": "gpt-4o-mini"},
            {"role": "tool", "content": result if isinstance(result, str) else json.dumps(result),
             "tool_call_id": call["id"], "function": tool},
            final,
        ],
        "output": {"model": "gpt-4o-mini", "choices": [{"message": final, "stop_reason": "stop"}], "completion": answer,
                   "usage": dict(usage)},
        "scores": {
            "match": {"value": "C" if correct else "I", "answer": answer, "explanation": f"target: {target}"},
            "model_graded_qa": {"value": "C" if correct else "I", "explanation": "Graded against the target."},
        },
        "metadata": {},
        "store": {},
        "events": [],
        "model_usage": {"openai/gpt-4o-mini": dict(usage)},
        "total_time": 2.4 + index * 0.3 + epoch * 0.1,
        "working_time": 2.1 + index * 0.3 + epoch * 0.1,
        "attachments": {},
    }


def inspect_log() -> dict[str, Any]:
    """An eval log as ``inspect eval --log-format json`` writes it: 4 samples x 2 epochs."""
    texts = load_texts("import_inspect.json")
    questions = texts["questions"]
    samples = [_inspect_sample(q, i, e, texts["system"]) for i, q in enumerate(questions) for e in (1, 2)]
    correct = sum(s["scores"]["match"]["value"] == "C" for s in samples)
    accuracy = {"name": "accuracy", "value": correct / len(samples), "params": {}}
    usage = {"input_tokens": 3296, "output_tokens": 248, "total_tokens": 3544}
    return {
        "version": 2,
        "status": "success",
        "eval": {
            "run_id": "8mXKqLbNc3tXd4QpHv7yRz", "created": "2025-03-10T14:02:11+00:00", "task": "support_tools",
            "task_id": "Tq9f2ZbJx8wVn4LmRk6sPd", "task_version": 0, "task_file": "support_tools.py",
            "dataset": {"name": "support_questions", "samples": len(questions),
                        "sample_ids": [q["id"] for q in questions], "shuffled": False},
            "model": "openai/gpt-4o-mini", "model_args": {}, "config": {"epochs": 2, "epochs_reducer": ["mean"]},
            "packages": {"inspect_ai": "0.3.80"},
        },
        "plan": {"name": "plan", "steps": [{"solver": "use_tools", "params": {}}, {"solver": "generate", "params": {}}],
                 "config": {}},
        "results": {
            "total_samples": len(samples), "completed_samples": len(samples),
            "scores": [{"name": "match", "scorer": "match", "reducer": "mean", "params": {},
                        "metrics": {"accuracy": accuracy}}],
        },
        "stats": {"started_at": "2025-03-10T14:02:11+00:00", "completed_at": "2025-03-10T14:02:48+00:00",
                  "model_usage": {"openai/gpt-4o-mini": usage}},
        "samples": samples,
    }
