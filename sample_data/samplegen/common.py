"""What every sample generator shares: seeded randomness, the seed-format builders, reading the texts, writing
and validating the files."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

SEED = "agentic-workbench-samples-v1"
# The hand-written texts (sentences, templates, lists) the generators read: data, not code.
TEXTS_DIR = Path(__file__).resolve().parents[1] / "texts"


def load_texts(name: str) -> Any:
    """One JSON file of ``sample_data/texts/``, as written there."""
    return json.loads((TEXTS_DIR / name).read_text(encoding="utf-8"))


def check_keys(spec: dict[str, Any], known: set[str], where: str, *, required: set[str] | None = None) -> None:
    """Refuse a key the generator would not read (a misspelt ``why`` or ``optional`` would be dropped silently).

    Args:
        spec: One record (or sub-record) of a texts file, as loaded.
        known: Every key the code reading ``spec`` reads.
        where: The file and record, for the message.
        required: Keys that must be there too; a misspelt one then fails here, with the file named, not later as
            a bare ``KeyError`` (or, read with a default, not at all).

    Raises:
        ValueError: A key not in ``known``, or one of ``required`` missing.
    """
    unknown = sorted(set(spec) - known)
    if unknown:
        raise ValueError(
            f"{where}: unknown key(s) {unknown}; the generator reads only {sorted(known)}. "
            f"Fix the spelling in sample_data/texts/, or teach the generator the new key."
        )
    missing = sorted((required or set()) - set(spec))
    if missing:
        raise ValueError(
            f"{where}: missing key(s) {missing}; the generator needs {sorted(required or set())}. "
            f"Add them in sample_data/texts/."
        )


def checked(spec: dict[str, Any], keys: set[str], where: str) -> dict[str, Any]:
    """``spec`` after checking it holds exactly ``keys`` (a texts section whose every key is read)."""
    check_keys(spec, keys, where, required=keys)
    return spec


def seeded(seed: str, *parts: object) -> random.Random:
    """A generator seeded from a string: stable across runs and Python versions (str seeds use SHA-512)."""
    return random.Random("|".join([seed, *map(str, parts)]))


def rng_for(*parts: object) -> random.Random:
    """The conversation samples' generator for ``parts`` (``make_samples.py``)."""
    return seeded(SEED, *parts)


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


def uses_flag(r: random.Random) -> bool | None:
    """Mostly an explicit True; sometimes absent so the scorer has to infer utilisation."""
    return None if r.random() < 0.2 else True


def conversation(
    session_id: str,
    assistant_id: str,
    turns: list[dict[str, Any]],
    *,
    task_id: str | None = None,
    context: str | None = None,
    language: str | None = "english",
) -> dict[str, Any]:
    out: dict[str, Any] = {"session_id": session_id, "assistant_id": assistant_id}
    if language is not None:
        out["language"] = language
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


def write_json(path: Path, records: list[dict[str, Any]]) -> None:
    path.write_text(
        json.dumps(records, ensure_ascii=False, indent=2, allow_nan=False) + "\n", encoding="utf-8"
    )


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> None:
    lines = [json.dumps(rec, ensure_ascii=False, separators=(",", ":"), allow_nan=False) for rec in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_records(path: Path) -> list[dict[str, Any]]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    data = json.loads(text)
    assert isinstance(data, list)
    return data


def _unknown_keys(model: Any, where: str) -> list[str]:
    """Every key that the schema does not know, anywhere in a validated model tree."""
    from pydantic import BaseModel

    found: list[str] = []
    if isinstance(model, BaseModel):
        for key in model.model_extra or {}:
            found.append(f"{where}.{key}")
        for name in type(model).model_fields:
            found += _unknown_keys(getattr(model, name), f"{where}.{name}")
    elif isinstance(model, list):
        for i, item in enumerate(model):
            found += _unknown_keys(item, f"{where}[{i}]")
    elif isinstance(model, dict):
        for k, v in model.items():
            if isinstance(v, BaseModel | list | dict):
                found += _unknown_keys(v, f"{where}.{k}")
    return found


def validate_file(path: Path) -> list[Any]:
    """Validate every record; raise on the first invalid one or any unknown key."""
    from agentic_core.data.schemas import Conversation, Interaction

    models = []
    for i, rec in enumerate(read_records(path)):
        conv = Conversation.model_validate(rec)
        extra = _unknown_keys(conv, f"{path.name}[{i}]")
        if extra:
            raise SystemExit(f"unknown keys: {extra}")
        for j, it in enumerate(conv.conversation):
            assert isinstance(it, Interaction)
            if it.score is None:
                raise SystemExit(f"{path.name}[{i}].conversation[{j}] has no score")
        models.append(conv)
    return models


def _comb(n: int, k: int) -> float:
    from math import comb

    return float(comb(n, k))


def summarize(path: Path, models: list[Any], threshold: float = 0.7) -> str:
    n_int = sum(len(c.conversation) for c in models)
    tasks: dict[str, list[bool]] = {}
    for c in models:
        tasks.setdefault(c.task_key(), []).append(all(i.score >= threshold for i in c.conversation))
    n_ok = sum(sum(v) for v in tasks.values())
    with_tools = sum(1 for c in models for i in c.conversation if i.ground_truth_agentic is not None)
    lines = [
        f"{path.name}: {path.stat().st_size / 1024:.0f} KB, {len(models)} conversations, {n_int} interactions "
        f"({with_tools} with tool blocks), {len(tasks)} task keys; {n_ok}/{len(models)} conversations have every "
        f"interaction score >= {threshold}"
    ]
    multi = {k: v for k, v in tasks.items() if len(v) >= 2}
    if multi:
        for kk in (1, 3, 8):
            ok = [(len(v), sum(v)) for v in multi.values() if len(v) >= kk]
            if not ok:
                continue
            at = sum(1 - _comb(n - c, kk) / _comb(n, kk) for n, c in ok) / len(ok)
            pw = sum(_comb(c, kk) / _comb(n, kk) for n, c in ok) / len(ok)
            lines.append(
                f"  unit=task, unbiased, k={kk}: pass@k={at:.3f}  pass^k={pw:.3f}  over {len(ok)} tasks"
            )
    return "\n".join(lines)
