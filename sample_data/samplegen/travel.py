"""``travel_agent.jsonl``: multi-turn travel conversations, each failure mode injected at least once."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

from .common import conversation, rng_for
from .travel_flights import turn_book, turn_search, turn_search_book, turn_summary
from .travel_stay import turn_convert, turn_hotel, turn_weather, turn_weather_book
from .travel_world import ROUTES, TRAVELERS, TURN_TEXTS, Trip

TURNS = {
    "search": (
        turn_search,
        ["wrong_date", "retry", "wrong_number", "wrong_flight", "unused", "missing_call"],
    ),
    "book": (turn_book, ["negated", "wrong_conf", "passenger_format", "missing_call"]),
    "weather": (turn_weather, ["wrong_date", "missing_call", "unused_absent", "extra_call", "city_format"]),
    "convert": (turn_convert, ["wrong_amount", "missing_call", "swapped", "unused"]),
    "hotel": (turn_hotel, ["wrong_nights", "wrong_total", "missing_call", "retry"]),
    "weather_book": (turn_weather_book, ["wrong_order", "missing_weather", "negated"]),
    "search_book": (turn_search_book, ["wrong_order", "wrong_flight", "retry"]),
    "summary": (turn_summary, ["wrong_fact", "extra_call"]),
}
FLOWS = [
    ["search", "book", "weather"],
    ["search", "convert"],
    ["hotel", "convert", "weather"],
    ["search", "book", "hotel", "summary"],
    ["weather_book", "convert"],
    ["search", "book"],
    ["search_book", "weather", "hotel"],
    ["weather_book", "hotel", "summary"],
    ["search", "book", "summary"],
    ["hotel", "convert"],
]
N_TRAVEL = 40


# Failure modes that must each appear at least once (every (turn kind, fault) pair), plus a few repeats.
EXTRA_FAULTS = [
    ("search", "wrong_date"),
    ("book", "negated"),
    ("weather_book", "wrong_order"),
    ("search", "wrong_number"),
    ("convert", "missing_call"),
    ("weather", "unused_absent"),
]
N_FAULTY = 22  # conversations that get at least one fault; the others are clean (possibly verbose) runs


def travel_fault_plan(r: random.Random) -> list[dict[int, str]]:
    """Which turn of which conversation gets which fault: deterministic, covering every failure mode."""
    flows = [FLOWS[i % len(FLOWS)] for i in range(N_TRAVEL)]
    order = list(range(N_TRAVEL))
    r.shuffle(order)
    faulty = set(order[:N_FAULTY])
    plan: list[dict[int, str]] = [{} for _ in range(N_TRAVEL)]
    wanted = [(kind, f) for kind, (_, faults) in TURNS.items() for f in faults] + EXTRA_FAULTS
    for kind, fault in wanted:
        slots = [(i, n) for i in order for n, k in enumerate(flows[i]) if k == kind and n not in plan[i]]
        # prefer conversations meant to fail, then the ones with the fewest faults so far
        slots.sort(key=lambda s: (s[0] not in faulty, len(plan[s[0]]), order.index(s[0])))
        if not slots:
            raise RuntimeError(f"no free turn for {kind}:{fault}")
        i, n = slots[0]
        plan[i][n] = fault
    for i in faulty:
        if not plan[i]:
            n = r.randrange(len(flows[i]))
            plan[i][n] = r.choice(TURNS[flows[i][n]][1])
    return plan


def build_travel() -> tuple[list[dict[str, Any]], Counter[str]]:
    r = rng_for("travel")
    routes = [ROUTES[i % len(ROUTES)] for i in range(N_TRAVEL)]
    r.shuffle(routes)
    plan = travel_fault_plan(r)
    convs = []
    coverage: Counter[str] = Counter()
    for i in range(N_TRAVEL):
        idx = i + 1
        flow = FLOWS[i % len(FLOWS)]
        tr = rng_for("travel-conv", idx)
        trip = Trip(idx, routes[i], TRAVELERS[i], tr)
        hotel_then_convert = ("hotel", "convert") in set(itertools.pairwise(flow))
        trip.float_total = hotel_then_convert
        if trip.float_total:
            trip.nights = 3  # only 3-night totals of x.95 rates are inexact floats
        turns = []
        for n, kind in enumerate(flow, start=1):
            fn, _ = TURNS[kind]
            fault = plan[i].get(n - 1)
            verbose = fault is None and tr.random() < 0.2
            coverage[f"{kind}:{fault}" if fault else ("clean:verbose" if verbose else "clean")] += 1
            turns.append(fn(trip, n, fault, verbose))
        coverage["conversations with a fault" if plan[i] else "conversations without a fault"] += 1
        context = TURN_TEXTS["context"].format(t=trip, channel=tr.choice(TURN_TEXTS["channels"]))
        convs.append(conversation(f"trv-{idx:03d}", "travel-agent-v2.3", turns, context=context))
    return convs, coverage

