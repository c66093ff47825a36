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

OPENAI_KEYS = {"model", "system", "attempts", "tasks"}
# Every task key but these four is written into each trace as it is.
OPENAI_TASK_KEYS = {"task_id", "trace", "why", "messages", "expected_tool_calls", "reference", "score",
                    "tool_sequence_matters"}
OPENAI_EXPECTED_CALL_KEYS = {"name", "arguments"}


def _pick(value: Any, attempt: int) -> Any:
    """``value`` as attempt ``attempt`` sees it: every ``by_attempt`` choice resolved."""
    if isinstance(value, dict):
        if "by_attempt" in value:
            # a key next to by_attempt would be dropped with the rest of the dict
            check_keys(value, {"by_attempt"}, "texts/import_openai.json, a by_attempt choice")
            return _pick(value["by_attempt"][attempt], attempt)
        return {k: _pick(v, attempt) for k, v in value.items()}
    if isinstance(value, list):
        return [_pick(v, attempt) for v in value]
    return value


# a message's kind is its one key among these; the keys each kind may have
MESSAGE_KEYS = {
    "system": {"system", "only_attempts"},
    "user": {"user", "only_attempts"},
    "calls": {"calls", "only_attempts"},
    "tool": {"tool", "only_attempts"},
    "assistant": {"assistant", "refusal", "only_attempts"},
}


def check_message(spec: dict[str, Any], kinds: dict[str, set[str]], where: str) -> None:
    """Refuse a message without exactly one kind key, or with a key its kind does not read."""
    found = sorted(set(spec) & set(kinds))
    if len(found) != 1:
        raise ValueError(
            f"{where}: a message with keys {sorted(spec)} has {len(found)} of {sorted(kinds)}; it needs exactly "
            f"one (what the message is). Fix it in sample_data/texts/."
        )
    check_keys(spec, kinds[found[0]], f"{where}, a {found[0]!r} message")


def _openai_messages(specs: list[dict[str, Any]], trace: str, system: str) -> list[dict[str, Any]]:
    """Chat messages from their short form; tool calls and results are numbered in order within the trace."""
    messages: list[dict[str, Any]] = []
    calls = results = 0
    for spec in specs:
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


def _check_openai_task(task: dict[str, Any], attempt: int) -> None:
    """Every key of a task as an attempt sees it, of each of its messages (also those left out of this attempt) and
    of its expected calls is one we read."""
    where = f"texts/import_openai.json, task {task.get('task_id')!r}, attempt {attempt}"
    check_keys(task, OPENAI_TASK_KEYS, where)
    for spec in task["messages"]:
        check_message(spec, MESSAGE_KEYS, where)
    # expected_tool_calls is one list for the whole trace, or one list per user turn
    for item in task.get("expected_tool_calls", []):
        for expected in item if isinstance(item, list) else [item]:
            check_keys(expected, OPENAI_EXPECTED_CALL_KEYS, f"{where}, an expected tool call", required={"name"})


def openai_traces() -> list[dict[str, Any]]:
    """4 support tasks x 3 attempts of a retail agent, one trace per line."""
    texts = load_texts("import_openai.json")
    check_keys(texts, OPENAI_KEYS, "texts/import_openai.json", required=OPENAI_KEYS)
    traces = []
    for task in texts["tasks"]:
        for attempt in range(texts["attempts"]):
            seen = _pick(task, attempt)
            _check_openai_task(seen, attempt)
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


RAGAS_SAMPLE_KEYS = {"user_input", "reference", "reference_tool_calls", "reference_topics"}
RAGAS_CALL_KEYS = {"name", "args"}
# a message's kind is its one key among human / tool / ai; the keys each kind may have
RAGAS_MESSAGE_KEYS = {"human": {"human"}, "tool": {"tool"}, "ai": {"ai", "calls"}}


def _check_ragas_sample(sample: dict[str, Any], index: int) -> None:
    where = f"texts/import_ragas.json, sample {index}"
    check_keys(sample, RAGAS_SAMPLE_KEYS, where, required={"user_input"})
    for spec in sample["user_input"]:
        check_message(spec, RAGAS_MESSAGE_KEYS, where)
    for expected in sample.get("reference_tool_calls", []):
        check_keys(expected, RAGAS_CALL_KEYS, f"{where}, a reference tool call", required=RAGAS_CALL_KEYS)


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
    samples = load_texts("import_ragas.json")
    for index, sample in enumerate(samples):
        _check_ragas_sample(sample, index)
    return [{**sample, "user_input": [_ragas_message(m) for m in sample["user_input"]]} for sample in samples]


# --------------------------------------------------------------------------------------------- Inspect AI

INSPECT_KEYS = {"system", "questions"}
QUESTION_KEYS = {"id", "question", "tool", "args", "result", "target", "answers", "wrong_epochs"}
EPOCHS = (1, 2)


def _check_question(q: dict[str, Any]) -> None:
    where = f"texts/import_inspect.json, question {q.get('id')!r}"
    check_keys(q, QUESTION_KEYS, where, required=QUESTION_KEYS - {"wrong_epochs"})
    # one answer per epoch, and wrong epochs among them: anything else would be left out of the log unsaid
    if len(q["answers"]) != len(EPOCHS) or not set(q.get("wrong_epochs", [])) <= set(EPOCHS):
        raise ValueError(
            f"{where}: answers {q['answers']!r} and wrong_epochs {q.get('wrong_epochs', [])!r} must give one "
            f"answer per epoch {list(EPOCHS)} and name only those epochs. Fix it in sample_data/texts/."
        )


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
    check_keys(texts, INSPECT_KEYS, "texts/import_inspect.json", required=INSPECT_KEYS)
    questions = texts["questions"]
    for q in questions:
        _check_question(q)
    samples = [_inspect_sample(q, i, e, texts["system"]) for i, q in enumerate(questions) for e in EPOCHS]
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
            "model": "openai/gpt-4o-mini", "model_args": {},
            "config": {"epochs": len(EPOCHS), "epochs_reducer": ["mean"]},
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
