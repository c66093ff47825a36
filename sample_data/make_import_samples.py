# ruff: noqa: E501  (the hand-written sample texts are long string literals)
"""Deterministic generator for the agent-trace samples in ``sample_data/`` (the importers' formats).

Run from the repository root (or anywhere):

    .venv/bin/python sample_data/make_import_samples.py           # (re)write the files and check them
    .venv/bin/python sample_data/make_import_samples.py --check   # check the files on disk only

Every choice is fixed or drawn from ``random.Random`` seeded with a fixed string, so re-running writes
byte-identical files. The check loads each file with auto-detection and requires: the right importer
was used, no error, and (tau-bench) the dataset judge at default settings reproduces the published
gpt-4o airline pass^1..4 = 0.420, 0.273, 0.220, 0.200.

Files written:
    openai_traces.jsonl      OpenAI-style chat traces of a retail support agent (4 tasks x 3 attempts)
    ragas_multiturn.jsonl    Ragas MultiTurnSample records (EvaluationDataset.to_jsonl)
    tau_bench_airline.json   a tau-bench results file: 50 airline tasks x 4 trials, the published
                             gpt-4o run's reward pattern, with realistic trajectories
    inspect_log.json         an Inspect AI eval log (JSON): 4 samples x 2 epochs with tool calls
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for folder in (ROOT, HERE):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from import_samples_text import inspect_log, openai_traces, ragas_samples  # noqa: E402  (after the sys.path set-up)

SEED = "agentic-workbench-import-samples-v1"
OPENAI_FILE = HERE / "openai_traces.jsonl"
RAGAS_FILE = HERE / "ragas_multiturn.jsonl"
TAU_FILE = HERE / "tau_bench_airline.json"
INSPECT_FILE = HERE / "inspect_log.json"

# Successes out of 4 trials per task in the published gpt-4o airline run (tests/data/tau_airline_shape.jsonl):
# 14 tasks never solved, 12 once, 10 twice, 4 three times, 10 always -> pass^1..4 = 0.420, 0.273, 0.220, 0.200.
TAU_PATTERN = ["0000"] * 14 + ["1000"] * 12 + ["1100"] * 10 + ["1110"] * 4 + ["1111"] * 10
TAU_EXPECTED_PASS_POW = [0.420, 0.273, 0.220, 0.200]

# tau-bench's system message is the whole airline policy (about 10,000 characters, repeated in every trial);
# the sample keeps its opening lines only, so that the file stays small.
POLICY = (
    "# Airline Agent Policy\nYou can help users book, modify, or cancel flight reservations. Before taking "
    "any action that updates the booking database, list the action details and obtain explicit user "
    "confirmation (yes). [... policy abridged in this sample ...]"
)

FIRST = ["mia", "omar", "sofia", "liam", "yusuf", "chen", "amara", "lucas", "ivan", "noor"]
LAST = ["li", "rossi", "khan", "garcia", "kim", "silva", "nowak", "ahmed", "moreau", "tanaka"]
AIRPORTS = [("JFK", "SEA"), ("ORD", "MIA"), ("LAX", "BOS"), ("ATL", "DEN"), ("SFO", "PHX"), ("EWR", "LAS")]


def rng_for(*parts: object) -> random.Random:
    """A generator seeded from a string: stable across runs and Python versions."""
    return random.Random("|".join([SEED, *map(str, parts)]))


def call_id(*parts: object) -> str:
    """A stable id in OpenAI's ``call_...`` shape."""
    return "call_" + hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:24]


# --------------------------------------------------------------------------------------------- tau-bench


def tau_task(task_id: int) -> dict[str, Any]:
    """One airline task: its user, scenario, ground-truth actions and the facts its trajectories use."""
    rng = rng_for("tau-task", task_id)
    user = f"{FIRST[task_id % 10]}_{LAST[(task_id * 3 + 1) % 10]}_{rng.randint(1000, 9999)}"
    reservation = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
    origin, destination = AIRPORTS[task_id % len(AIRPORTS)]
    card = f"credit_card_{rng.randint(1000000, 9999999)}"
    kind = ("cancel", "baggage", "cabin", "certificate", "total")[task_id % 5]
    facts = {"user": user, "reservation": reservation, "origin": origin, "destination": destination, "card": card,
             "kind": kind, "name": f"{FIRST[task_id % 10].title()} {LAST[(task_id * 3 + 1) % 10].title()}",
             "date": f"2024-05-{rng.randint(10, 28):02d}", "flight": f"HAT{rng.randint(10, 299):03d}",
             "price": rng.randint(180, 900)}
    if kind == "cancel":
        actions = [{"name": "cancel_reservation", "kwargs": {"reservation_id": reservation}}]
        instruction = f"You are {user}. You want to cancel reservation {reservation}; you booked it yesterday."
    elif kind == "baggage":
        actions = [{"name": "update_reservation_baggages", "kwargs": {"reservation_id": reservation, "total_baggages": 3, "nonfree_baggages": 0, "payment_id": card}}]
        instruction = f"You are {user}, a gold member. Add 2 checked bags to reservation {reservation} (you have 1); pay with your credit card if needed."
    elif kind == "cabin":
        actions = [{"name": "update_reservation_flights", "kwargs": {"reservation_id": reservation, "cabin": "business", "flights": [{"flight_number": facts["flight"], "date": facts["date"]}], "payment_id": card}}]
        instruction = f"You are {user}. Upgrade reservation {reservation} to business class, same flight; pay with your credit card."
    elif kind == "certificate":
        actions = [{"name": "send_certificate", "kwargs": {"user_id": user, "amount": 50}}]
        instruction = f"You are {user}, a silver member. Your flight {facts['flight']} was delayed; complain and ask for compensation."
    else:
        actions = []
        instruction = f"You are {user}. Ask how much you paid in total for reservation {reservation}."
    outputs = [str(facts["price"])] if kind == "total" else []
    return {"id": task_id, "facts": facts,
            "task": {"user_id": user, "actions": actions, "instruction": instruction, "outputs": outputs}}


def _assistant_call(trial_key: str, step: int, name: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    return {"content": None, "role": "assistant", "tool_calls": [{"function": {"arguments": json.dumps(kwargs), "name": name},
                            "id": call_id(trial_key, step), "type": "function"}]}


def _say(text: str) -> dict[str, Any]:
    return {"content": text, "role": "assistant", "tool_calls": None}


def tau_trajectory(task: dict[str, Any], trial: int, solved: bool) -> list[dict[str, Any]]:
    """A tool-calling agent's trajectory (first tool call per message, as tau-bench's agent keeps it)."""
    f, key = task["facts"], f"tau-{task['id']}-{trial}"
    user, res, kind = f["user"], f["reservation"], f["kind"]
    traj: list[dict[str, Any]] = [{"role": "system", "content": POLICY}]
    openers = {
        "cancel": f"Hi, I'd like to cancel my reservation {res}. My user id is {user}.",
        "baggage": f"Hello! I need to add two checked bags to my booking {res}. User id {user}.",
        "cabin": f"Hi there, can I upgrade reservation {res} to business? I'm {user}.",
        "certificate": f"My flight {f['flight']} was delayed by four hours and I missed a meeting. I'm {user}.",
        "total": f"Hi, how much did I pay in total for reservation {res}? I'm {user}.",
    }
    traj.append({"role": "user", "content": openers[kind]})
    step = 0

    def tool(name: str, kwargs: dict[str, Any], result: Any) -> None:
        nonlocal step
        step += 1
        message = _assistant_call(key, step, name, kwargs)
        traj.append(message)
        traj.append({"role": "tool", "tool_call_id": message["tool_calls"][0]["id"], "name": name,
                     "content": result if isinstance(result, str) else json.dumps(result)})

    membership = {"baggage": "gold", "certificate": "silver"}.get(kind, "regular")
    tool("get_user_details", {"user_id": user}, {"name": {"first_name": f["name"].split()[0], "last_name": f["name"].split()[1]},
         "membership": membership, "payment_methods": {f["card"]: {"source": "credit_card", "last_four": f["card"][-4:]}},
         "reservations": [res]})
    if kind != "certificate":
        tool("get_reservation_details", {"reservation_id": res}, {"reservation_id": res, "origin": f["origin"], "destination": f["destination"],
             "cabin": "economy", "flights": [{"flight_number": f["flight"], "date": f["date"], "price": f["price"]}],
             "total_baggages": 1, "nonfree_baggages": 0, "insurance": "no", "created_at": "2024-05-01T10:12:00"})
    action = task["task"]["actions"][0] if task["task"]["actions"] else None
    mistake = rng_for("tau-mistake", task["id"], trial).random()
    if kind == "total":
        price = f["price"] if solved else f["price"] + 35
        traj.append(_say(f"You paid ${price} in total for reservation {res} ({f['origin']} to {f['destination']} on {f['date']})."))
    elif solved and action is not None:
        traj.append(_say(f"To confirm: I will run {action['name']} for reservation {res if kind != 'certificate' else user}. Shall I proceed (yes/no)?"))
        traj.append({"role": "user", "content": "Yes, please go ahead."})
        tool(action["name"], action["kwargs"], {"status": "ok", **action["kwargs"]})
        done = {"cancel": f"Reservation {res} is cancelled; the refund goes to your original payment method within 5-7 business days.",
                "baggage": f"Done: reservation {res} now has 3 checked bags, all free with your gold membership.",
                "cabin": f"Reservation {res} is now in business class; the fare difference was charged to your card ending {f['card'][-4:]}.",
                "certificate": "I'm sorry about the delay. I have sent you a $50 travel certificate."}
        traj.append(_say(done[kind]))
    elif mistake < 0.5 and action is not None:
        # Acted without the right arguments (a wrong amount, a charge for free bags, the wrong card...).
        wrong = dict(action["kwargs"])
        if kind == "cancel":
            wrong["reservation_id"] = res[::-1]
        elif kind == "baggage":
            wrong["nonfree_baggages"] = 2
        elif kind == "cabin":
            wrong["payment_id"] = "gift_card_" + f["card"][-7:]
        else:
            wrong["amount"] = 150
        tool(action["name"], wrong, {"status": "ok", **wrong})
        traj.append(_say("All done! Is there anything else I can help you with?"))
    else:
        # Refused or transferred although the policy allowed the request.
        tool("transfer_to_human_agents", {"summary": f"User {user} asks about {res}; cannot be handled."}, "Transfer successful")
        traj.append(_say("I have transferred you to a human agent who will help you further."))
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
            results.append({
                "task_id": task["id"],
                "reward": reward,
                "info": {"task": task["task"], "source": "user", "user_cost": round(rng_for("cost", task["id"], trial).uniform(0.004, 0.03), 5),
                         "reward_info": {"reward": reward, "info": {"r_actions": reward, "gt_data_hash": digest}, "actions": actions}},
                "traj": tau_trajectory(task, trial, solved),
                "trial": trial,
            })
    return results


# --------------------------------------------------------------------------------------------- write / check


def write_all() -> None:
    """Write the four files.

    tau-bench writes its results with ``json.dump(..., indent=2)``; the sample puts one trial per line
    instead (the same JSON list, a third of the size, and each trial's line is its place in messages).
    """
    OPENAI_FILE.write_text("".join(json.dumps(t, ensure_ascii=False) + "\n" for t in openai_traces()), encoding="utf-8")
    RAGAS_FILE.write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in ragas_samples()), encoding="utf-8")
    TAU_FILE.write_text("[\n" + ",\n".join(json.dumps(t) for t in tau_results()) + "\n]\n", encoding="utf-8")
    INSPECT_FILE.write_text(json.dumps(inspect_log(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def check() -> None:
    """Load every file with auto-detection; fail loudly on an error, the wrong importer or the wrong curve."""
    from agentic_core.evaluate import aggregate, evaluate
    from agentic_core.io.importers import FORMAT_LABELS
    from agentic_core.io.loader import load_paths

    for path, fmt in ((OPENAI_FILE, "openai"), (RAGAS_FILE, "ragas"), (TAU_FILE, "tau-bench"), (INSPECT_FILE, "inspect")):
        report = load_paths([path])
        assert report.ok, [i.message() for i in report.errors]
        assert report.notes and f"read as {FORMAT_LABELS[fmt]} " in report.notes[0].rule, report.notes
        print(f"{path.name}: {report.notes[0].rule}; {len(report.warnings)} warning(s); {path.stat().st_size / 1024:.0f} KB")
    agg = aggregate(evaluate(TAU_FILE, "dataset"))
    curve = [round(p.pass_pow_k, 3) for p in agg.curve if p.pass_pow_k is not None]
    assert curve == TAU_EXPECTED_PASS_POW, curve
    print(f"tau_bench_airline.json with --judge dataset: pass^1..4 = {curve}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only check the files already on disk")
    args = parser.parse_args(argv)
    if not args.check:
        write_all()
    check()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
