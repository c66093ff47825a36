"""``support_bot_attempts.jsonl``: support tasks, several attempts each, at a per-task success probability."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .common import (
    bad_score,
    call,
    check_keys,
    conversation,
    expect,
    good_score,
    interaction,
    load_texts,
    refusal_score,
    rng_for,
    uses_flag,
)

TEXTS_KEYS = {"refusals", "prefixes", "suffixes", "order_not_found", "tasks"}
_TEXTS = load_texts("support_tasks.json")
check_keys(_TEXTS, TEXTS_KEYS, "texts/support_tasks.json", required=TEXTS_KEYS)
REFUSALS: list[str] = _TEXTS["refusals"]
PREFIXES: list[str] = _TEXTS["prefixes"]
SUFFIXES: list[str] = _TEXTS["suffixes"]


TASK_KEYS = {"id", "p", "ctx", "turns"}
TURN_KEYS = {"q", "gt", "good", "bad", "tools", "seq", "param_fault"}
TOOL_KEYS = {"name", "params", "result", "optional", "rules", "variants"}
# the wrong value the first tool call gets, its result, and (optional) the answer given instead of a wrong one
PARAM_FAULT_KEYS = {"param", "value", "result", "answer"}


def _task(raw: dict[str, Any]) -> dict[str, Any]:
    """A task as written in the texts file, with every left-out field at its default."""
    where = f"texts/support_tasks.json, task {raw.get('id')!r}"
    check_keys(raw, TASK_KEYS, where)
    for turn in raw["turns"]:
        check_keys(turn, TURN_KEYS, where)
        if "param_fault" in turn:
            fault = turn["param_fault"]
            check_keys(fault, PARAM_FAULT_KEYS, f"{where}, param_fault", required=PARAM_FAULT_KEYS - {"answer"})
            # the wrong value goes into the first tool call, in place of one of its parameters
            first = turn["tools"][0] if turn.get("tools") else {"params": {}}
            check_keys({fault["param"]: None}, set(first["params"]), f"{where}, param_fault's param")
        for tool in turn.get("tools", []):
            tool_where = f"{where}, tool {tool.get('name')!r}"
            check_keys(tool, TOOL_KEYS, tool_where, required={"name", "params", "result"})
            # a rule or a variant names one of the call's parameters: a misspelt one would add a parameter to
            # the calls (a variant) or rule a parameter no call has (a rule)
            check_keys(tool.get("rules", {}), set(tool["params"]), f"{tool_where}, rules")
            check_keys(tool.get("variants", {}), set(tool["params"]), f"{tool_where}, variants")
    turns = [
        {
            "q": t["q"],
            "gt": t["gt"],
            "good": t["good"],
            "bad": t["bad"],
            "tools": [
                {
                    "name": tl["name"],
                    "params": tl["params"],
                    "result": tl["result"],
                    "optional": tl.get("optional", False),
                    "rules": tl.get("rules", {}),
                    "variants": tl.get("variants", {}),
                }
                for tl in t.get("tools", [])
            ],
            "seq": t.get("seq", False),
            "param_fault": t.get("param_fault"),
        }
        for t in raw["turns"]
    ]
    return {"id": raw["id"], "p": raw["p"], "ctx": raw["ctx"], "turns": turns}


# Each task: id, success probability p, context, and turns (query, ground truth, correct paraphrases, wrong answers,
# expected tools with the environment's results; ``variants`` lists values the agent may pass instead).
SUPPORT_TASKS: list[dict[str, Any]] = [_task(t) for t in _TEXTS["tasks"]]
N_ATTEMPTS = 8


def _subst(obj: Any, ticket: str) -> Any:
    """Replace the ``{ticket}`` placeholder everywhere in a (nested) value."""
    if isinstance(obj, str):
        return obj.replace("{ticket}", ticket)
    if isinstance(obj, list):
        return [_subst(x, ticket) for x in obj]
    if isinstance(obj, dict):
        return {k: _subst(v, ticket) for k, v in obj.items()}
    return obj


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    return [value]


def _shows_result(answer: str, results: list[Any]) -> bool:
    """Some short result value (an id, an email, an amount) appears verbatim in the answer."""
    for leaf in _leaves(results):
        if isinstance(leaf, bool) or leaf is None:
            continue
        text = f"{leaf:g}" if isinstance(leaf, float) else str(leaf)
        if 3 <= len(text) <= 40 and text in answer:
            return True
    return False


def _swap_last_two(order_id: str) -> str:
    return order_id[:-2] + order_id[-1] + order_id[-2]


def support_turn(
    task: dict[str, Any],
    k: int,
    turn: dict[str, Any],
    fail: bool,
    ticket: str,
    r: random.Random,
    stats: Counter[str],
) -> dict[str, Any]:
    qa_id = f"{task['num']}-t{k}"
    gt = _subst(turn["gt"], ticket)
    tools = turn["tools"]
    expected = (
        [
            expect(tl["name"], dict(tl["params"]), i + 1, optional=tl["optional"], rules=tl["rules"] or None)
            for i, tl in enumerate(tools)
        ]
        if tools
        else None
    )

    def normal_calls(quirks: bool) -> list[dict[str, Any]]:
        calls = []
        for tl in tools:
            if tl["optional"] and r.random() < 0.5:
                continue
            params = dict(tl["params"])
            for name, values in tl["variants"].items():
                if r.random() < 0.5:
                    params[name] = r.choice(values)
            calls.append(call(tl["name"], params, _subst(tl["result"], ticket), 0))
        if quirks and turn["seq"] and len(calls) >= 2 and r.random() < 0.25:
            calls[0], calls[1] = calls[1], calls[0]
            stats["benign: wrong order (answer right)"] += 1
        if quirks and calls and r.random() < 0.08:
            first = calls[0]
            calls.insert(
                0, call(first["tool_name"], dict(first["parameters"]), {"error": "timeout after 10s"}, 0)
            )
            stats["benign: retry after timeout (extra call)"] += 1
        return calls

    flag: bool | None
    if not fail:
        used = normal_calls(quirks=True) if tools else None
        ans = _subst(r.choice(turn["good"]), ticket)
        flag = None
        if used is not None:
            # leave the flag out only where the answer visibly carries a result value, so inference has evidence
            flag = uses_flag(r) if _shows_result(ans, [c["result"] for c in used]) else True
        verbose = r.random() < 0.2
        if verbose:
            yes_no = gt.split()[0].rstrip(".,:") in ("Yes", "No")
            ans = ("" if yes_no else r.choice(PREFIXES[2:])) + ans + r.choice(SUFFIXES[2:])
        return interaction(
            qa_id,
            turn["q"],
            ans,
            gt,
            good_score(r, verbose),
            used=used,
            expected=expected,
            sequence_matters=turn["seq"],
            uses_tools=flag,
        )

    pf = turn["param_fault"]
    if pf is None and tools and tools[0]["name"] == "lookup_order":
        wrong = _swap_last_two(tools[0]["params"]["order_id"])
        pf = {
            "param": "order_id",
            "value": wrong,
            "result": {"error": "order_not_found", "order_id": wrong},
            "answer": _TEXTS["order_not_found"].format(order_id=wrong),
        }
    if tools:
        kinds = ["wrong_answer", "missing_tool", "unused", "refusal"] + (["wrong_param"] if pf else [])
        weights = [0.35, 0.2, 0.1, 0.2] + ([0.15] if pf else [])
    else:
        kinds, weights = ["wrong_answer", "refusal"], [0.75, 0.25]
    kind = r.choices(kinds, weights)[0]
    stats[f"failure: {kind}"] += 1
    fake_ticket = f"TCK-{r.randint(10000, 39999)}"
    score = bad_score(r)
    if kind == "wrong_answer":
        used, flag = (normal_calls(quirks=False), uses_flag(r)) if tools else (None, None)
        ans = _subst(r.choice(turn["bad"]), ticket)
    elif kind == "missing_tool":
        used, flag = [], False
        ans = _subst(r.choice(turn["bad"]), fake_ticket)
    elif kind == "unused":
        used, flag = normal_calls(quirks=False), False
        ans = _subst(r.choice(turn["bad"]), ticket)
    elif kind == "refusal":
        used, flag = ([], False) if tools else (None, None)
        ans = r.choice(REFUSALS)
        score = refusal_score(r)
    else:  # wrong_param: the first call gets a wrong value; an error result stops the agent
        assert pf is not None
        first = tools[0]
        params = dict(first["params"])
        params[pf["param"]] = pf["value"]
        used = [call(first["name"], params, _subst(pf["result"], ticket), 0)]
        if "error" not in pf["result"]:
            used += [
                call(tl["name"], dict(tl["params"]), _subst(tl["result"], ticket), 0)
                for tl in tools[1:]
                if not tl["optional"]
            ]
        flag = True
        ans = _subst(pf.get("answer") or r.choice(turn["bad"]), ticket)
    return interaction(
        qa_id,
        turn["q"],
        ans,
        gt,
        score,
        used=used,
        expected=expected,
        sequence_matters=turn["seq"],
        uses_tools=flag,
    )


def build_support() -> tuple[list[dict[str, Any]], Counter[str], list[tuple[str, float, int]]]:
    convs = []
    stats: Counter[str] = Counter()
    per_task = []
    for ti, task in enumerate(SUPPORT_TASKS, start=1):
        r = rng_for("support", task["id"])
        task_id = f"sup{ti:02d}_{task['id']}"
        task = dict(task, num=f"sup{ti:02d}")
        n_ok = 0
        for a in range(1, N_ATTEMPTS + 1):
            success = r.random() < task["p"]
            n_ok += success
            fails: set[int] = set()
            if not success:
                fails.add(r.randrange(len(task["turns"])))
                if len(task["turns"]) > 1 and r.random() < 0.2:
                    fails.add(r.randrange(len(task["turns"])))
            ticket = f"TCK-{r.randint(40000, 49999)}"
            turns = [
                support_turn(task, k, turn, k - 1 in fails, ticket, r, stats)
                for k, turn in enumerate(task["turns"], start=1)
            ]
            convs.append(
                conversation(
                    f"sup{ti:02d}-a{a}",
                    "helpdesk-v4",
                    turns,
                    task_id=task_id,
                    context=task["ctx"],
                    language=None,
                )
            )
        per_task.append((task_id, task["p"], n_ok))
    return convs, stats, per_task
