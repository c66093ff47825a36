"""``tau_bench_airline.json``: a tau-bench results file, 50 airline tasks x 4 trials, with the published gpt-4o
run's reward pattern and realistic trajectories. The messages are templates in ``texts/import_tau_bench.json``."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from .common import check_keys, checked, load_texts, seeded

IMPORT_SEED = "agentic-workbench-import-samples-v1"
KINDS = ("cancel", "baggage", "cabin", "certificate", "total")
# ``why_policy`` says why the policy reads as it does and is not written out
TEXTS_KEYS = {"why_policy", "policy", "first_names", "last_names", "airports", "instructions", "openers", "paid",
              "confirm", "user_yes", "done", "wrong_done", "transfer_summary", "transferred"}
TEXTS = load_texts("import_tau_bench.json")
check_keys(TEXTS, TEXTS_KEYS, "texts/import_tau_bench.json", required=TEXTS_KEYS - {"why_policy"})
# one instruction and one opener per task kind; a "done" line for each kind that ends in an action
checked(TEXTS["instructions"], set(KINDS), "texts/import_tau_bench.json, instructions")
checked(TEXTS["openers"], set(KINDS), "texts/import_tau_bench.json, openers")
checked(TEXTS["done"], set(KINDS) - {"total"}, "texts/import_tau_bench.json, done")
FIRST: list[str] = TEXTS["first_names"]
LAST: list[str] = TEXTS["last_names"]
AIRPORTS: list[list[str]] = TEXTS["airports"]

# Successes out of 4 trials per task in the published gpt-4o airline run (tests/data/tau_airline_shape.jsonl):
# 14 tasks never solved, 12 once, 10 twice, 4 three times, 10 always -> pass^1..4 = 0.420, 0.273, 0.220, 0.200.
TAU_PATTERN = ["0000"] * 14 + ["1000"] * 12 + ["1100"] * 10 + ["1110"] * 4 + ["1111"] * 10
TAU_EXPECTED_PASS_POW = [0.420, 0.273, 0.220, 0.200]


def rng_for(*parts: object) -> random.Random:
    """The import samples' generator for ``parts`` (``make_import_samples.py``)."""
    return seeded(IMPORT_SEED, *parts)


def call_id(*parts: object) -> str:
    """A stable id in OpenAI's ``call_...`` shape."""
    return "call_" + hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:24]


def _actions(kind: str, facts: dict[str, Any]) -> list[dict[str, Any]]:
    """The task's ground-truth actions (none for a question about the total)."""
    res, card = facts["reservation"], facts["card"]
    if kind == "cancel":
        return [{"name": "cancel_reservation", "kwargs": {"reservation_id": res}}]
    if kind == "baggage":
        kwargs = {"reservation_id": res, "total_baggages": 3, "nonfree_baggages": 0, "payment_id": card}
        return [{"name": "update_reservation_baggages", "kwargs": kwargs}]
    if kind == "cabin":
        flights = [{"flight_number": facts["flight"], "date": facts["date"]}]
        kwargs = {"reservation_id": res, "cabin": "business", "flights": flights, "payment_id": card}
        return [{"name": "update_reservation_flights", "kwargs": kwargs}]
    if kind == "certificate":
        return [{"name": "send_certificate", "kwargs": {"user_id": facts["user"], "amount": 50}}]
    return []


def tau_task(task_id: int) -> dict[str, Any]:
    """One airline task: its user, scenario, ground-truth actions and the facts its trajectories use."""
    rng = rng_for("tau-task", task_id)
    first, last = FIRST[task_id % 10], LAST[(task_id * 3 + 1) % 10]
    user = f"{first}_{last}_{rng.randint(1000, 9999)}"
    reservation = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
    origin, destination = AIRPORTS[task_id % len(AIRPORTS)]
    card = f"credit_card_{rng.randint(1000000, 9999999)}"
    kind = KINDS[task_id % 5]
    facts = {"user": user, "reservation": reservation, "origin": origin, "destination": destination, "card": card,
             "kind": kind, "name": f"{first.title()} {last.title()}",
             "date": f"2024-05-{rng.randint(10, 28):02d}", "flight": f"HAT{rng.randint(10, 299):03d}",
             "price": rng.randint(180, 900)}
    actions = _actions(kind, facts)
    instruction = TEXTS["instructions"][kind].format(**facts)
    outputs = [str(facts["price"])] if kind == "total" else []
    return {"id": task_id, "facts": facts,
            "task": {"user_id": user, "actions": actions, "instruction": instruction, "outputs": outputs}}


def _assistant_call(trial_key: str, step: int, name: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    function = {"arguments": json.dumps(kwargs), "name": name}
    return {"content": None, "role": "assistant",
            "tool_calls": [{"function": function, "id": call_id(trial_key, step), "type": "function"}]}


def _say(text: str) -> dict[str, Any]:
    return {"content": text, "role": "assistant", "tool_calls": None}


def _wrong(kind: str, action: dict[str, Any], facts: dict[str, Any]) -> dict[str, Any]:
    """The action's arguments with one mistake (a wrong amount, a charge for free bags, the wrong card...)."""
    wrong = dict(action["kwargs"])
    if kind == "cancel":
        wrong["reservation_id"] = facts["reservation"][::-1]
    elif kind == "baggage":
        wrong["nonfree_baggages"] = 2
    elif kind == "cabin":
        wrong["payment_id"] = "gift_card_" + facts["card"][-7:]
    else:
        wrong["amount"] = 150
    return wrong


def tau_trajectory(task: dict[str, Any], trial: int, solved: bool) -> list[dict[str, Any]]:
    """A tool-calling agent's trajectory (first tool call per message, as tau-bench's agent keeps it)."""
    f, key = task["facts"], f"tau-{task['id']}-{trial}"
    user, res, kind = f["user"], f["reservation"], f["kind"]
    words = {**f, "card_last4": f["card"][-4:]}
    traj: list[dict[str, Any]] = [{"role": "system", "content": TEXTS["policy"]}]
    traj.append({"role": "user", "content": TEXTS["openers"][kind].format(**words)})
    step = 0

    def tool(name: str, kwargs: dict[str, Any], result: Any) -> None:
        nonlocal step
        step += 1
        message = _assistant_call(key, step, name, kwargs)
        traj.append(message)
        traj.append({"role": "tool", "tool_call_id": message["tool_calls"][0]["id"], "name": name,
                     "content": result if isinstance(result, str) else json.dumps(result)})

    membership = {"baggage": "gold", "certificate": "silver"}.get(kind, "regular")
    first_name, last_name = f["name"].split()
    tool("get_user_details", {"user_id": user}, {
        "name": {"first_name": first_name, "last_name": last_name}, "membership": membership,
        "payment_methods": {f["card"]: {"source": "credit_card", "last_four": f["card"][-4:]}},
        "reservations": [res]})
    if kind != "certificate":
        tool("get_reservation_details", {"reservation_id": res}, {
            "reservation_id": res, "origin": f["origin"], "destination": f["destination"], "cabin": "economy",
            "flights": [{"flight_number": f["flight"], "date": f["date"], "price": f["price"]}],
            "total_baggages": 1, "nonfree_baggages": 0, "insurance": "no", "created_at": "2024-05-01T10:12:00"})
    action = task["task"]["actions"][0] if task["task"]["actions"] else None
    mistake = rng_for("tau-mistake", task["id"], trial).random()
    if kind == "total":
        traj.append(_say(TEXTS["paid"].format(**{**words, "price": f["price"] if solved else f["price"] + 35})))
    elif solved and action is not None:
        target = res if kind != "certificate" else user
        traj.append(_say(TEXTS["confirm"].format(action=action["name"], target=target)))
        traj.append({"role": "user", "content": TEXTS["user_yes"]})
        tool(action["name"], action["kwargs"], {"status": "ok", **action["kwargs"]})
        traj.append(_say(TEXTS["done"][kind].format(**words)))
    elif mistake < 0.5 and action is not None:
        wrong = _wrong(kind, action, f)
        tool(action["name"], wrong, {"status": "ok", **wrong})
        traj.append(_say(TEXTS["wrong_done"]))
    else:
        # Refused or transferred although the policy allowed the request.
        tool("transfer_to_human_agents", {"summary": TEXTS["transfer_summary"].format(**words)}, "Transfer successful")
        traj.append(_say(TEXTS["transferred"]))
    traj.append({"role": "user", "content": "###STOP###"})
    return traj


def tau_results() -> list[dict[str, Any]]:
    """The results file: trials in tau-bench's order (every task's trial 0, then trial 1, ...)."""
    order = list(range(50))
    rng_for("tau-pattern").shuffle(order)  # which task got which outcome pattern
    patterns = {task: TAU_PATTERN[i] for i, task in enumerate(order)}
    tasks = [tau_task(t) for t in range(50)]
    results = []
    for trial in range(4):
        for task in tasks:
            solved = patterns[task["id"]][trial] == "1"
            reward = 1.0 if solved else 0.0
            actions = task["task"]["actions"]
            digest = hashlib.sha256(f"{task['id']}|{trial}|{solved}".encode()).hexdigest()[:32]
            user_cost = round(rng_for("cost", task["id"], trial).uniform(0.004, 0.03), 5)
            reward_info = {"reward": reward, "info": {"r_actions": reward, "gt_data_hash": digest}, "actions": actions}
            results.append({
                "task_id": task["id"],
                "reward": reward,
                "info": {"task": task["task"], "source": "user", "user_cost": user_cost, "reward_info": reward_info},
                "traj": tau_trajectory(task, trial, solved),
                "trial": trial,
            })
    return results
