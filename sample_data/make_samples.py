# ruff: noqa: E501  (the hand-written sample texts are long string literals)
"""Deterministic generator for the sample datasets in ``sample_data/``.

Run from the repository root (or anywhere):

    .venv/bin/python sample_data/make_samples.py            # (re)write the files and validate them
    .venv/bin/python sample_data/make_samples.py --check    # validate the files on disk only

Every random choice goes through ``random.Random`` seeded from a fixed string, so re-running writes
byte-identical files. After writing, every record is validated with
``agentic_core.data.schemas.Conversation.model_validate`` and checked for unknown keys (``model_extra`` must be
empty on every model), and the script prints a short summary of what each file contains.

Files written:
    seed_examples.json          the seeds' own examples (seed 000 notebook dataset, seed 001 conversations)
    travel_agent.jsonl          ~40 multi-turn travel/booking conversations with varied tool failures
    support_bot_attempts.jsonl  30 support tasks x 8 attempts, per-task success probability 0.2 .. 1.0
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
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
                call(
                    "unit_converter", {"value": 18, "from_unit": "celsius", "to_unit": "fahrenheit"}, 64.4, 2
                ),
            ],
            True,
            0.91,
        ),
        # wrong parameter: looked up Kyoto instead of Tokyo, so the reported temperature is wrong
        (
            "It's currently 69.8°F (21°C) and sunny in Tokyo.",
            [
                call("get_weather", {"city": "Kyoto"}, kyoto, 1),
                call(
                    "unit_converter", {"value": 21, "from_unit": "celsius", "to_unit": "fahrenheit"}, 69.8, 2
                ),
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
                        "q1_math",
                        "What is 15 + 27?",
                        ans,
                        "15 + 27 equals 42.",
                        sc,
                        used=[used],
                        expected=[exp],
                        uses_tools=True,
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
                [
                    interaction(
                        "q2_capital",
                        "What is the capital of France?",
                        ans,
                        "The capital of France is Paris.",
                        sc,
                    )
                ],
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
                        "q3_weather",
                        weather_q,
                        ans,
                        weather_gt,
                        sc,
                        used=used,
                        expected=[dict(e) for e in weather_expected],
                        sequence_matters=True,
                        uses_tools=flag,
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
                interaction(
                    "q1_interaction1",
                    "What is 5 + 3?",
                    "The result is 8.",
                    "5 + 3 equals 8",
                    0.95,
                    used=[add_used],
                    expected=[add_exp],
                    uses_tools=True,
                ),
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
            [
                interaction(
                    "q2_interaction1",
                    "What is the capital of France?",
                    "The capital of France is Paris.",
                    "Paris",
                    0.97,
                )
            ],
            task_id="seed001_conversation_002",
            context="Simple Q&A conversation",
        )
    )
    return convs


# ========================================================================================= travel agent

# (origin city, code, destination city, code, currency, currency name, airlines, base fare USD,
#  flight hours, typical spring high °C, hotels [(name, neighbourhood)])
ROUTES: list[dict[str, Any]] = [
    dict(
        o=("New York", "JFK"),
        d=("London", "LHR"),
        cur=("GBP", "British pounds"),
        air=[("BA", "British Airways"), ("VS", "Virgin Atlantic"), ("AA", "American Airlines")],
        fare=520,
        hours=7.0,
        high=14,
        hotels=[
            ("The Marlowe Kensington", "Kensington"),
            ("Bankside Quarter Hotel", "Southwark"),
            ("Hotel Aldgate Row", "Aldgate"),
        ],
    ),
    dict(
        o=("San Francisco", "SFO"),
        d=("Tokyo", "HND"),
        cur=("JPY", "Japanese yen"),
        air=[("JL", "Japan Airlines"), ("NH", "ANA"), ("UA", "United Airlines")],
        fare=980,
        hours=11.2,
        high=19,
        hotels=[
            ("Hotel Sakura Ginza", "Ginza"),
            ("Shibuya Crossing Inn", "Shibuya"),
            ("Asakusa Riverside Hotel", "Asakusa"),
        ],
    ),
    dict(
        o=("Chicago", "ORD"),
        d=("Paris", "CDG"),
        cur=("EUR", "euros"),
        air=[("AF", "Air France"), ("UA", "United Airlines"), ("AA", "American Airlines")],
        fare=610,
        hours=8.3,
        high=17,
        hotels=[
            ("Hôtel Marais Lumière", "Le Marais"),
            ("Hôtel Saint-Germain Opale", "Saint-Germain"),
            ("Montmartre Terrace Hotel", "Montmartre"),
        ],
    ),
    dict(
        o=("Boston", "BOS"),
        d=("Lisbon", "LIS"),
        cur=("EUR", "euros"),
        air=[("TP", "TAP Air Portugal"), ("S4", "Azores Airlines"), ("DL", "Delta")],
        fare=540,
        hours=6.5,
        high=21,
        hotels=[
            ("Alfama Tile House", "Alfama"),
            ("Chiado Grand Hotel", "Chiado"),
            ("Príncipe Real Suites", "Príncipe Real"),
        ],
    ),
    dict(
        o=("Toronto", "YYZ"),
        d=("Mexico City", "MEX"),
        cur=("MXN", "Mexican pesos"),
        air=[("AC", "Air Canada"), ("AM", "Aeroméxico"), ("WS", "WestJet")],
        fare=410,
        hours=4.9,
        high=26,
        hotels=[
            ("Casa Roma Norte", "Roma Norte"),
            ("Hotel Condesa Parque", "Condesa"),
            ("Zócalo Heritage Hotel", "Centro Histórico"),
        ],
    ),
    dict(
        o=("Los Angeles", "LAX"),
        d=("Sydney", "SYD"),
        cur=("AUD", "Australian dollars"),
        air=[("QF", "Qantas"), ("DL", "Delta"), ("UA", "United Airlines")],
        fare=1180,
        hours=15.0,
        high=22,
        hotels=[
            ("Harbourview Suites", "The Rocks"),
            ("Bondi Shore Hotel", "Bondi"),
            ("Surry Hills Loft Hotel", "Surry Hills"),
        ],
    ),
    dict(
        o=("Seattle", "SEA"),
        d=("Reykjavik", "KEF"),
        cur=("ISK", "Icelandic krónur"),
        air=[("FI", "Icelandair"), ("DL", "Delta"), ("FI", "Icelandair")],
        fare=590,
        hours=7.6,
        high=7,
        hotels=[
            ("Hotel Harpa View", "Miðborg"),
            ("Laugavegur Lodge", "Laugavegur"),
            ("Old Harbour Guesthouse", "Old Harbour"),
        ],
    ),
    dict(
        o=("Miami", "MIA"),
        d=("Bogotá", "BOG"),
        cur=("COP", "Colombian pesos"),
        air=[("AV", "Avianca"), ("AA", "American Airlines"), ("AV", "Avianca")],
        fare=330,
        hours=3.8,
        high=19,
        hotels=[
            ("Casa Chapinero", "Chapinero"),
            ("Hotel La Candelaria Real", "La Candelaria"),
            ("Zona T Boutique Hotel", "Zona Rosa"),
        ],
    ),
    dict(
        o=("Denver", "DEN"),
        d=("Amsterdam", "AMS"),
        cur=("EUR", "euros"),
        air=[("KL", "KLM"), ("UA", "United Airlines"), ("DL", "Delta")],
        fare=640,
        hours=9.6,
        high=15,
        hotels=[
            ("Canal House Jordaan", "Jordaan"),
            ("De Pijp Studios", "De Pijp"),
            ("Museumplein Hotel", "Museumkwartier"),
        ],
    ),
    dict(
        o=("Atlanta", "ATL"),
        d=("Rome", "FCO"),
        cur=("EUR", "euros"),
        air=[("DL", "Delta"), ("AZ", "ITA Airways"), ("DL", "Delta")],
        fare=700,
        hours=9.6,
        high=22,
        hotels=[
            ("Hotel Trastevere Sole", "Trastevere"),
            ("Monti Garden Rooms", "Monti"),
            ("Piazza Navona Residence", "Centro Storico"),
        ],
    ),
    dict(
        o=("Washington", "IAD"),
        d=("Zurich", "ZRH"),
        cur=("CHF", "Swiss francs"),
        air=[("LX", "SWISS"), ("UA", "United Airlines"), ("LX", "SWISS")],
        fare=760,
        hours=8.1,
        high=16,
        hotels=[
            ("Hotel Limmatblick", "Altstadt"),
            ("Seefeld Lake Hotel", "Seefeld"),
            ("Zürich West Lofts", "Zürich West"),
        ],
    ),
    dict(
        o=("Houston", "IAH"),
        d=("Singapore", "SIN"),
        cur=("SGD", "Singapore dollars"),
        air=[("SQ", "Singapore Airlines"), ("UA", "United Airlines"), ("SQ", "Singapore Airlines")],
        fare=1240,
        hours=17.5,
        high=32,
        hotels=[
            ("Marina Bay Garden Hotel", "Marina Bay"),
            ("Tiong Bahru Residence", "Tiong Bahru"),
            ("Kampong Glam Boutique", "Kampong Glam"),
        ],
    ),
    dict(
        o=("Dallas", "DFW"),
        d=("Seoul", "ICN"),
        cur=("KRW", "Korean won"),
        air=[("KE", "Korean Air"), ("AA", "American Airlines"), ("KE", "Korean Air")],
        fare=1050,
        hours=14.4,
        high=18,
        hotels=[
            ("Hanok Stay Bukchon", "Bukchon"),
            ("Myeongdong Central Hotel", "Myeongdong"),
            ("Gangnam Skyline Hotel", "Gangnam"),
        ],
    ),
    dict(
        o=("Newark", "EWR"),
        d=("Barcelona", "BCN"),
        cur=("EUR", "euros"),
        air=[("UA", "United Airlines"), ("IB", "Iberia"), ("UA", "United Airlines")],
        fare=560,
        hours=8.0,
        high=20,
        hotels=[
            ("Hotel Gòtic Claustre", "Gothic Quarter"),
            ("Eixample Modern Suites", "Eixample"),
            ("Barceloneta Beach Hotel", "Barceloneta"),
        ],
    ),
    dict(
        o=("Vancouver", "YVR"),
        d=("Auckland", "AKL"),
        cur=("NZD", "New Zealand dollars"),
        air=[("NZ", "Air New Zealand"), ("AC", "Air Canada"), ("NZ", "Air New Zealand")],
        fare=1100,
        hours=14.1,
        high=19,
        hotels=[
            ("Viaduct Harbour Hotel", "Viaduct"),
            ("Ponsonby Villa Suites", "Ponsonby"),
            ("Parnell Heritage Hotel", "Parnell"),
        ],
    ),
    dict(
        o=("Philadelphia", "PHL"),
        d=("Dublin", "DUB"),
        cur=("EUR", "euros"),
        air=[("AA", "American Airlines"), ("EI", "Aer Lingus"), ("EI", "Aer Lingus")],
        fare=580,
        hours=6.8,
        high=13,
        hotels=[
            ("Temple Bar Quay Hotel", "Temple Bar"),
            ("Merrion Square Rooms", "Georgian Quarter"),
            ("Docklands Harbour Hotel", "Docklands"),
        ],
    ),
]

USD_RATES = {
    "GBP": 0.7912,
    "JPY": 149.31,
    "EUR": 0.9187,
    "MXN": 17.052,
    "AUD": 1.5316,
    "ISK": 138.24,
    "COP": 3912.5,
    "CHF": 0.8804,
    "SGD": 1.3417,
    "KRW": 1338.4,
    "NZD": 1.6592,
}
WHOLE_UNIT = {"JPY", "ISK", "COP", "KRW"}  # currencies quoted without decimals

TRAVELERS = [
    "Aiko Tanaka",
    "Marcus Webb",
    "Priya Raman",
    "Daniel Okafor",
    "Sofia Lindqvist",
    "Mateo Álvarez",
    "Hannah Becker",
    "Jamal Carter",
    "Chloé Dubois",
    "Ravi Menon",
    "Olivia Brennan",
    "Kenji Watanabe",
    "Amara Nwosu",
    "Lucas Ferreira",
    "Emily Novak",
    "Tomás Herrera",
    "Grace Liu",
    "Noah Schmidt",
    "Isabella Rossi",
    "Ethan Park",
    "Fatima Haddad",
    "Liam O'Connor",
    "Mei Chen",
    "Samuel Adeyemi",
    "Zoe Martin",
    "Arjun Kapoor",
    "Nina Petrova",
    "Oscar Johansson",
    "Leila Rahimi",
    "Benjamin Cole",
    "Yuki Sato",
    "Camila Reyes",
    "David Goldberg",
    "Ingrid Halvorsen",
    "Kwame Mensah",
    "Rosa Castillo",
    "Victor Nguyen",
    "Elena Popescu",
    "Henry Walsh",
    "Sara Lindgren",
]

COUNTRY = {
    "London": "UK",
    "Tokyo": "Japan",
    "Paris": "France",
    "Lisbon": "Portugal",
    "Mexico City": "Mexico",
    "Sydney": "Australia",
    "Reykjavik": "Iceland",
    "Bogotá": "Colombia",
    "Amsterdam": "Netherlands",
    "Rome": "Italy",
    "Zurich": "Switzerland",
    "Singapore": "SG",
    "Seoul": "South Korea",
    "Barcelona": "Spain",
    "Auckland": "New Zealand",
    "Dublin": "Ireland",
}
ORIGIN_HIGH = {
    "New York": 15,
    "San Francisco": 18,
    "Chicago": 13,
    "Boston": 12,
    "Toronto": 11,
    "Los Angeles": 22,
    "Seattle": 14,
    "Miami": 28,
    "Denver": 16,
    "Atlanta": 23,
    "Washington": 19,
    "Houston": 27,
    "Dallas": 25,
    "Newark": 15,
    "Vancouver": 13,
    "Philadelphia": 16,
}
CONDITIONS_DRY = ["sunny", "partly cloudy", "clear skies", "overcast", "sunny spells with a light breeze"]
CONDITIONS_WET = ["light rain", "scattered showers", "heavy rain", "thunderstorms in the afternoon"]
DEPARTURES = [
    "06:10",
    "07:45",
    "08:30",
    "09:55",
    "11:20",
    "12:40",
    "13:15",
    "14:50",
    "16:05",
    "17:30",
    "18:45",
    "19:20",
    "21:10",
    "22:35",
]
CONF_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def human_date(d: dt.date) -> str:
    return f"{MONTHS[d.month - 1]} {d.day}"


def money(x: float) -> str:
    """$ amounts as people write them: 389 or 524.85 (never 524.8499999)."""
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:,.2f}"


def fmt_converted(x: float, cur: str) -> str:
    return f"{x:,.0f}" if cur in WHOLE_UNIT else f"{x:,.2f}"


def flights_for(route: dict[str, Any], day: dt.date) -> list[dict[str, Any]]:
    """Three flights on one route and day, deterministic in (route, day)."""
    r = rng_for("flights", route["o"][1], route["d"][1], day.isoformat())
    times = sorted(r.sample(DEPARTURES, 3))
    prices: set[int] = set()
    out = []
    for i, t in enumerate(times):
        code, airline = route["air"][r.randrange(len(route["air"]))]
        stops = 1 if (i == 2 and r.random() < 0.5) else 0
        hours = route["hours"] + r.uniform(-0.3, 0.3) + (2.2 if stops else 0.0)
        price = int(route["fare"] * r.uniform(0.78, 1.32))
        while price in prices:
            price += 7
        prices.add(price)
        out.append(
            {
                "flight_id": f"{code}{r.randint(10, 989)}",
                "airline": airline,
                "depart": t,
                "duration": f"{int(hours)}h {int((hours % 1) * 60):02d}m",
                "stops": stops,
                "price_usd": price,
            }
        )
    # flight numbers must be distinct within the result
    seen: set[str] = set()
    for f in out:
        while f["flight_id"] in seen:
            f["flight_id"] = f["flight_id"][:2] + str(int(f["flight_id"][2:]) + 100)
        seen.add(f["flight_id"])
    return out


def weather_for(route: dict[str, Any], city: str, day: dt.date, *, dry: bool | None = None) -> dict[str, Any]:
    r = rng_for("weather", city, day.isoformat())
    wet = r.random() < 0.4 if dry is None else not dry
    cond = r.choice(CONDITIONS_WET if wet else CONDITIONS_DRY)
    high = route["high"] + r.randint(-3, 4) + (day.month - 4) * 2 * (1 if city != "Auckland" else -1)
    low = high - r.randint(6, 10)
    return {
        "condition": cond,
        "high_c": high,
        "low_c": low,
        "precip_chance": r.randint(55, 90) if wet else r.randint(0, 15),
    }


def is_wet(w: dict[str, Any]) -> bool:
    return w["condition"] in CONDITIONS_WET


def hotels_for(route: dict[str, Any], day: dt.date, nights: int) -> list[dict[str, Any]]:
    r = rng_for("hotels", route["d"][1], day.isoformat(), nights)
    ratings = r.sample([4.1, 4.3, 4.4, 4.5, 4.6, 4.7, 4.8], 3)
    out = []
    for (name, hood), rating in zip(route["hotels"], ratings, strict=True):
        base = r.choice([129, 149, 159, 174, 189, 209, 229, 245])
        cents = r.choice([0.0, 0.0, 0.95, 0.5, 0.99])
        out.append(
            {
                "hotel_id": f"H-{r.randint(1000, 9999)}",
                "name": name,
                "neighborhood": hood,
                "price_per_night": base + cents,
                "rating": rating,
            }
        )
    return out


# nightly rates whose total over n nights is not exact in binary floating point (rate * n != round(rate * n, 2))
INEXACT_RATES = {
    n: [
        b + c
        for b in (129, 149, 159, 174, 189, 209, 229, 245)
        for c in (0.95, 0.5, 0.99)
        if (b + c) * n != round((b + c) * n, 2)
    ]
    for n in (3,)
}


def conf_code(r: random.Random) -> str:
    return "".join(r.choice(CONF_CHARS) for _ in range(6))


def mutate_code(code: str, r: random.Random) -> str:
    i = r.randrange(len(code))
    c = r.choice([ch for ch in CONF_CHARS if ch != code[i]])
    return code[:i] + c + code[i + 1 :]


def uses_flag(r: random.Random) -> bool | None:
    """Mostly an explicit True; sometimes absent so the scorer has to infer utilisation."""
    return None if r.random() < 0.2 else True


class Trip:
    """Everything one travel conversation is about; turn builders read it and fill in what they establish."""

    def __init__(self, idx: int, route: dict[str, Any], traveler: str, r: random.Random) -> None:
        self.idx = idx
        self.route = route
        self.name = traveler
        self.first = traveler.split()[0]
        self.r = r
        start = dt.date(2025, 3, 3)
        self.day = start + dt.timedelta(days=r.randrange(0, 116))
        self.date_h = human_date(self.day)
        self.iso = self.day.isoformat()
        self.o_city, self.o_code = route["o"]
        self.d_city, self.d_code = route["d"]
        self.cur, self.cur_name = route["cur"]
        self.flights = flights_for(route, self.day)
        self.cheap = min(self.flights, key=lambda f: f["price_usd"])
        self.conf = conf_code(r)
        self.seat = f"{r.randint(8, 42)}{r.choice('ACDF')}"
        self.nights = r.randint(2, 5)
        self.booked: dict[str, Any] | None = None
        self.hotel: dict[str, Any] | None = None
        self.amount: tuple[str, float] | None = None  # (what, USD amount) for a later conversion
        # what the agent actually told the user (a later recap repeats it, so mistakes carry forward)
        self.said_conf: str | None = self.conf
        self.said_fid: str | None = None
        self.said_hotel: str | None = None
        self.search_wrong = False  # the agent misreported the cheapest flight; the user corrects it next turn
        self.float_total = False  # give the best hotel a nightly rate whose float total is inexact
        self.faults: Counter[str] = Counter()

    def qa(self, turn: int) -> str:
        return f"trv{self.idx:03d}-t{turn}"

    def search_params(self, day: dt.date | None = None) -> dict[str, Any]:
        return {"origin": self.o_code, "destination": self.d_code, "date": (day or self.day).isoformat()}


def turn_search(t: Trip, n: int, fault: str | None, verbose: bool) -> dict[str, Any]:
    r = t.r
    f = t.cheap
    q = r.choice(
        [
            f"I need to get from {t.o_city} to {t.d_city} on {t.date_h}. What's the cheapest flight?",
            f"Can you find me the cheapest flight from {t.o_code} to {t.d_code} on {t.date_h}?",
            f"Look up flights from {t.o_city} to {t.d_city} for {t.date_h}, please. I'd like the lowest fare.",
            f"Hi! I'm planning a trip to {t.d_city}. What's the cheapest way to fly there from {t.o_city} on {t.date_h}?",
        ]
    )
    gt = (
        f"The cheapest flight from {t.o_city} to {t.d_city} on {t.date_h} is {f['flight_id']} "
        f"({f['airline']}), departing at {f['depart']} for ${f['price_usd']}."
    )

    def answer_for(fl: dict[str, Any], flights: list[dict[str, Any]], price: int | None = None) -> str:
        p = fl["price_usd"] if price is None else price
        return r.choice(
            [
                f"I found {len(flights)} flights from {t.o_city} to {t.d_city} on {t.date_h}. The cheapest is "
                f"{fl['airline']} {fl['flight_id']}, departing at {fl['depart']} for ${p}.",
                f"Your cheapest option from {t.o_city} to {t.d_city} on {t.date_h} is {fl['flight_id']} with "
                f"{fl['airline']}: it departs at {fl['depart']} and costs ${p}.",
                f"Lowest fare on {t.date_h}: {fl['airline']} flight {fl['flight_id']} from {t.o_city} to "
                f"{t.d_city}, leaving at {fl['depart']}, for ${p}.",
            ]
        )

    exp = [expect("search_flights", t.search_params(), 1)]
    used = [call("search_flights", t.search_params(), t.flights, 1)]
    flag: bool | None = uses_flag(r)
    correct = True
    if fault is None:
        if verbose:
            stops = " with one stop" if f["stops"] else " nonstop"
            ans = (
                f"I searched every departure from {t.o_city} ({t.o_code}) to {t.d_city} ({t.d_code}) on "
                f"{t.date_h} and found {len(t.flights)} options. Sorted by price, the cheapest is "
                f"{f['airline']} flight {f['flight_id']}, which departs at {f['depart']}, takes "
                f"{f['duration']}{stops}, and costs ${f['price_usd']} in economy. Would you like me to book "
                f"{f['flight_id']}?"
            )
        else:
            ans = answer_for(f, t.flights)
    elif fault == "wrong_date":
        wrong_day = t.day + dt.timedelta(days=r.choice([-1, 1]))
        alt = flights_for(t.route, wrong_day)
        alt_cheap = min(alt, key=lambda x: x["price_usd"])
        used = [call("search_flights", t.search_params(wrong_day), alt, 1)]
        ans = answer_for(alt_cheap, alt)
        correct = alt_cheap["flight_id"] == f["flight_id"] and alt_cheap["price_usd"] == f["price_usd"]
    elif fault == "retry":
        used = [
            call(
                "search_flights",
                t.search_params(),
                {"error": "503 Service Unavailable: fare cache timeout"},
                1,
            ),
            call("search_flights", t.search_params(), t.flights, 2),
        ]
        ans = answer_for(f, t.flights)
    elif fault == "wrong_number":
        ans = answer_for(f, t.flights, price=f["price_usd"] + r.choice([-40, -21, 30, 45, 90]))
        correct = False
    elif fault == "wrong_flight":
        other = sorted(t.flights, key=lambda x: x["price_usd"])[1]
        ans = answer_for(other, t.flights)
        correct = False
    elif fault == "unused":
        flag = False
        guess = int(round(t.route["fare"] * 0.85, -1))
        ans = (
            f"Fares from {t.o_city} to {t.d_city} usually start around ${guess} at that time of year, and "
            f"{t.route['air'][0][1]} has a convenient morning departure on {t.date_h}."
        )
        correct = False
    elif fault == "missing_call":
        used, flag = [], False
        fake = f"{t.route['air'][0][0]}{r.randint(100, 989)}"
        ans = (
            f"There's a {t.route['air'][0][1]} flight, {fake}, leaving {t.o_city} at "
            f"{r.choice(DEPARTURES)} on {t.date_h} for about ${int(t.route['fare'] * 0.9)}."
        )
        correct = False
    else:
        raise ValueError(fault)
    t.amount = ("fare", float(f["price_usd"]))
    t.search_wrong = not correct
    return _finish(t, n, q, ans, gt, used, exp, False, flag, correct, verbose)


def _finish(
    t: Trip,
    n: int,
    q: str,
    ans: str,
    gt: str,
    used: list[dict[str, Any]] | None,
    exp: list[dict[str, Any]] | None,
    seq: bool,
    flag: bool | None,
    correct: bool | str,
    verbose: bool,
) -> dict[str, Any]:
    r = t.r
    if correct == "partial":
        score = r.uniform(0.40, 0.55)
    elif correct:
        score = good_score(r, verbose)
    else:
        score = bad_score(r)
    return interaction(
        t.qa(n), q, ans, gt, score, used=used, expected=exp, sequence_matters=seq, uses_tools=flag
    )


def turn_book(t: Trip, n: int, fault: str | None, verbose: bool) -> dict[str, Any]:
    r = t.r
    f = t.cheap
    fid = f["flight_id"]
    q = r.choice(
        [
            f"Please book {fid} on {t.date_h} for {t.name}.",
            f"Great, go ahead and book {fid}. The passenger is {t.name}.",
            f"Book me on {fid} on {t.date_h}, please. Name on the ticket: {t.name}.",
            f"{fid} works for me. Can you reserve it for {t.name}?",
        ]
    )
    if t.search_wrong:
        q = r.choice(
            [
                f"That doesn't match the airline's site: the cheapest on {t.date_h} is {fid} at {f['depart']} for "
                f"${f['price_usd']}. Please book {fid} for {t.name}.",
                f"Hmm, I'm seeing {fid} at ${f['price_usd']} on {t.date_h}. Book that one instead, passenger {t.name}.",
            ]
        )
        t.search_wrong = False
    gt = f"{fid} on {t.date_h} is booked for {t.name}. Your confirmation code is {t.conf}."
    result = {
        "status": "confirmed",
        "confirmation": t.conf,
        "flight_id": fid,
        "passenger": t.name,
        "seat": t.seat,
    }
    ignore_passenger = fault != "passenger_format" and r.random() < 0.45
    optional_search = r.random() < 0.35
    rules = {"passenger": {"rule": "ignore"}} if ignore_passenger else None
    exp = []
    if optional_search:
        exp.append(expect("search_flights", t.search_params(), 1, optional=True))
    exp.append(expect("book_flight", {"flight_id": fid, "passenger": t.name}, len(exp) + 1, rules=rules))
    passenger = t.name
    if ignore_passenger and r.random() < 0.6:
        last, first = t.name.split()[-1], t.name.split()[0]
        passenger = r.choice([f"{last.upper()}/{first.upper()}", f"Mx. {t.name}", t.name.upper()])
    used = []
    if optional_search and r.random() < 0.5:
        used.append(call("search_flights", t.search_params(), t.flights, 1))
    used.append(call("book_flight", {"flight_id": fid, "passenger": passenger}, result, len(used) + 1))
    flag: bool | None = uses_flag(r)
    correct: bool = True
    good = [
        f"Done! {t.name} is booked on {fid} on {t.date_h}. Confirmation code: {t.conf}.",
        f"You're all set: {fid} on {t.date_h} is booked for {t.name}, confirmation code {t.conf}.",
        f"Booking confirmed for {t.name} on {fid} ({t.date_h}). Your confirmation code is {t.conf}, and "
        f"I've reserved seat {t.seat}.",
    ]
    if fault is None:
        if verbose:
            ans = (
                f"Great news, {t.first}! I've completed the reservation: {t.name} is booked on {f['airline']} "
                f"flight {fid}, departing {t.o_city} at {f['depart']} on {t.date_h}. Your confirmation code "
                f"is {t.conf} and your seat is {t.seat}. You'll receive the e-ticket by email shortly, and "
                f"online check-in opens 24 hours before departure."
            )
        else:
            ans = r.choice(good)
    elif fault == "negated":
        ans = (
            f"{fid} on {t.date_h} is not booked for {t.name} yet; the reservation is still pending "
            f"and I'll let you know once it goes through."
        )
        t.said_conf = None
        correct = False
    elif fault == "wrong_conf":
        t.said_conf = mutate_code(t.conf, r)
        ans = f"You're all set: {fid} on {t.date_h} is booked for {t.name}, confirmation code {t.said_conf}."
        correct = False
    elif fault == "passenger_format":
        last, first = t.name.split()[-1], t.name.split()[0]
        used[-1]["parameters"]["passenger"] = (
            f"{last.upper()}/{first.upper()} MR" if r.random() < 0.5 else f"{last}, {first}"
        )
        ans = r.choice(good)
    elif fault == "missing_call":
        used, flag = [], False
        t.said_conf = conf_code(r)
        ans = f"Done! {t.name} is booked on {fid} on {t.date_h}. Confirmation code: {t.said_conf}."
        correct = False
    else:
        raise ValueError(fault)
    t.booked = f
    t.said_fid = t.said_fid or fid
    t.amount = ("fare", float(f["price_usd"]))
    return _finish(t, n, q, ans, gt, used, exp, False, flag, correct, verbose)


def _weather_sentences(t: Trip, w: dict[str, Any], umbrella: bool) -> list[str]:
    c, hi, lo = w["condition"], w["high_c"], w["low_c"]
    tail = f" Bring an umbrella: there's a {w['precip_chance']}% chance of rain." if umbrella else ""
    return [
        f"The forecast for {t.d_city} on {t.date_h} is {c}, with a high of {hi}°C and a low of {lo}°C.{tail}",
        f"Expect {c} in {t.d_city} on {t.date_h}: highs around {hi}°C and lows near {lo}°C.{tail}",
        f"{t.d_city} on {t.date_h}: {c}, {hi}°C during the day and {lo}°C at night.{tail}",
    ]


def turn_weather(t: Trip, n: int, fault: str | None, verbose: bool) -> dict[str, Any]:
    r = t.r
    w = weather_for(t.route, t.d_city, t.day)
    wet = is_wet(w)
    qs = [
        f"What's the weather going to be like in {t.d_city} on {t.date_h}?",
        f"What's the forecast for {t.d_city} on {t.date_h}? Trying to figure out what to pack.",
    ]
    if wet:
        qs.append(f"Will I need an umbrella in {t.d_city} on {t.date_h}?")
    q = r.choice(qs)
    umbrella = wet and "umbrella" in q
    gt = (
        f"On {t.date_h}, {t.d_city} can expect {w['condition']} with a high of {w['high_c']}°C and a low of "
        f"{w['low_c']}°C."
    )
    if umbrella:
        gt += f" Pack an umbrella: the chance of rain is {w['precip_chance']}%."
    text_rule = fault != "city_format" and r.random() < 0.35
    rules = {"city": {"rule": "text"}} if text_rule else None
    exp = [expect("get_weather", {"city": t.d_city, "date": t.iso}, 1, rules=rules)]
    city_used = t.d_city
    if text_rule and r.random() < 0.6:
        city_used = r.choice([t.d_city.lower(), t.d_city.upper(), f" {t.d_city} "])
    used = [call("get_weather", {"city": city_used, "date": t.iso}, w, 1)]
    flag: bool | None = uses_flag(r)
    correct: bool = True
    if fault is None:
        if verbose:
            f_hi = round(w["high_c"] * 9 / 5 + 32)
            advice = (
                f"Pack an umbrella and a waterproof jacket: the chance of rain is {w['precip_chance']}%."
                if wet
                else "Light layers should be enough, with a jacket for the evening."
            )
            ans = (
                f"I checked the forecast for {t.d_city} on {t.date_h}. It looks like {w['condition']}, with a "
                f"daytime high of {w['high_c']}°C (about {f_hi}°F) and an overnight low of {w['low_c']}°C. "
                f"{advice}"
            )
        else:
            ans = r.choice(_weather_sentences(t, w, umbrella))
    elif fault == "wrong_date":
        wrong_day = t.day + dt.timedelta(days=r.choice([-1, 1]))
        w2 = weather_for(t.route, t.d_city, wrong_day)
        if w2["condition"] == w["condition"] and w2["high_c"] == w["high_c"]:
            w2 = dict(w2, high_c=w2["high_c"] + 3)
        used = [call("get_weather", {"city": t.d_city, "date": wrong_day.isoformat()}, w2, 1)]
        ans = r.choice(_weather_sentences(t, w2, umbrella and is_wet(w2)))
        correct = False
    elif fault == "missing_call":
        used, flag = [], False
        fake = r.choice([c for c in CONDITIONS_DRY + CONDITIONS_WET if c != w["condition"]])
        ans = (
            f"It should be {fake} in {t.d_city} on {t.date_h}, around {w['high_c'] + r.choice([-5, 4, 6])}°C."
        )
        correct = False
    elif fault == "unused_absent":
        flag = None
        ans = (
            f"{t.d_city} in {MONTHS[t.day.month - 1]} is usually pleasant, so I'd pack light layers and a "
            f"jacket for the evenings."
        )
        correct = False
    elif fault == "extra_call":
        w0 = weather_for(dict(t.route, high=ORIGIN_HIGH.get(t.o_city, 18)), t.o_city, t.day)
        used.append(call("get_weather", {"city": t.o_city, "date": t.iso}, w0, 2))
        ans = (
            r.choice(_weather_sentences(t, w, umbrella))
            + f" (When you leave {t.o_city} it will be {w0['condition']}, {w0['high_c']}°C.)"
        )
    elif fault == "city_format":
        used[0]["parameters"]["city"] = f"{t.d_city}, {COUNTRY[t.d_city]}"
        ans = r.choice(_weather_sentences(t, w, umbrella))
    else:
        raise ValueError(fault)
    return _finish(t, n, q, ans, gt, used, exp, False, flag, correct, verbose)


def turn_convert(t: Trip, n: int, fault: str | None, verbose: bool) -> dict[str, Any]:
    r = t.r
    assert t.amount is not None
    what, amount = t.amount
    amount_raw = amount
    if what == "hotel total":
        amount = round(amount, 2)
    if float(amount).is_integer():
        amount = amount_raw = int(amount)  # whole-dollar fares are written as 493, not 493.0
    amt_s = money(amount)
    rate = USD_RATES[t.cur]
    conv = round(amount * rate, 2)
    conv_s = fmt_converted(conv, t.cur)
    q = r.choice(
        [
            f"How much is the ${amt_s} {what} in {t.cur_name}?",
            f"What does ${amt_s} come to in {t.cur}?",
            f"Can you convert the ${amt_s} {what} to {t.cur_name} for me?",
        ]
    )
    if t.search_wrong:
        q = f"The airline's site actually shows ${amt_s} for {t.cheap['flight_id']}. What is that in {t.cur_name}?"
        t.search_wrong = False
    gt = f"${amt_s} is about {conv_s} {t.cur_name}."
    tolerance = what == "hotel total" or r.random() < 0.4
    rules = {"amount": {"rule": "tolerance", "abs_tol": 0.01}} if tolerance else None
    exp = [expect("convert_currency", {"amount": amount, "from": "USD", "to": t.cur}, 1, rules=rules)]
    # with a tolerance rule the agent sometimes passes the unrounded float (e.g. 524.8499999999999)
    used_amount = amount_raw if tolerance and amount_raw != amount else amount
    result = {"amount": used_amount, "from": "USD", "to": t.cur, "rate": rate, "converted": conv}
    used = [call("convert_currency", {"amount": used_amount, "from": "USD", "to": t.cur}, result, 1)]
    flag: bool | None = True
    correct: bool = True

    def say(c_s: str, a_s: str = amt_s) -> str:
        return r.choice(
            [
                f"At today's rate of {rate}, ${a_s} is about {c_s} {t.cur_name}.",
                f"That works out to roughly {c_s} {t.cur_name} (${a_s} at {rate} {t.cur} per dollar).",
                f"${a_s} comes to about {c_s} {t.cur_name}.",
            ]
        )

    if fault is None:
        if verbose:
            ans = (
                f"Using the current exchange rate of 1 USD = {rate} {t.cur}, your {what} of ${amt_s} converts to "
                f"approximately {conv_s} {t.cur_name}. Keep in mind that your card issuer may apply its own "
                f"rate plus a foreign transaction fee."
            )
        else:
            ans = say(conv_s)
    elif fault == "wrong_amount":
        if what == "hotel total" and t.hotel is not None:
            wrong = float(t.hotel["price_per_night"])  # forgot to multiply by the nights
        else:
            wrong = float(sorted(f["price_usd"] for f in t.flights)[1])
        wconv = round(wrong * rate, 2)
        used = [
            call(
                "convert_currency",
                {"amount": wrong, "from": "USD", "to": t.cur},
                {"amount": wrong, "from": "USD", "to": t.cur, "rate": rate, "converted": wconv},
                1,
            )
        ]
        ans = say(fmt_converted(wconv, t.cur))
        correct = False
    elif fault == "missing_call":
        used, flag = [], False
        stale = rate * r.choice([0.93, 1.06])
        ans = f"${amt_s} is roughly {fmt_converted(round(amount * stale, 2), t.cur)} {t.cur_name}."
        correct = False
    elif fault == "swapped":
        back = round(amount / rate, 2)
        used = [
            call(
                "convert_currency",
                {"amount": amount, "from": t.cur, "to": "USD"},
                {"amount": amount, "from": t.cur, "to": "USD", "rate": round(1 / rate, 6), "converted": back},
                1,
            )
        ]
        ans = say(fmt_converted(back, t.cur))
        correct = False
    elif fault == "unused":
        flag = False
        ans = (
            f"${amt_s} is roughly {fmt_converted(round(amount * rate * 1.08, -1 if rate > 5 else 0), t.cur)} "
            f"{t.cur_name}, give or take."
        )
        correct = False
    else:
        raise ValueError(fault)
    return _finish(t, n, q, ans, gt, used, exp, False, flag, correct, verbose)


def turn_hotel(t: Trip, n: int, fault: str | None, verbose: bool) -> dict[str, Any]:
    r = t.r
    nights = t.nights
    hotels = hotels_for(t.route, t.day, nights)
    best = max(hotels, key=lambda h: h["rating"])
    if t.float_total and fault is None:
        # e.g. 174.95 * 3 = 524.8499999999999: the agent later passes that float to convert_currency
        best["price_per_night"] = r.choice(INEXACT_RATES[nights])
    ppn = best["price_per_night"]
    total_raw = ppn * nights
    total = round(total_raw, 2)
    q = r.choice(
        [
            f"I also need a hotel in {t.d_city} for {nights} nights from {t.date_h}. What's the best-rated option?",
            f"Can you find me a well-reviewed hotel in {t.d_city}? Checking in {t.date_h}, staying {nights} nights.",
            f"Look for hotels in {t.d_city}, check-in {t.date_h}, {nights} nights. I care most about ratings.",
        ]
    )
    gt = (
        f"The best-rated option is {best['name']} in {best['neighborhood']} (rated {best['rating']}), at "
        f"${money(ppn)} per night, or ${money(total)} for {nights} nights."
    )
    text_rule = r.random() < 0.3
    rules = {"city": {"rule": "text"}} if text_rule else None
    params = {"city": t.d_city, "checkin": t.iso, "nights": nights}
    exp = [expect("hotel_search", dict(params), 1, rules=rules)]
    used_params = dict(params)
    if text_rule and r.random() < 0.6:
        used_params["city"] = t.d_city.lower()
    used = [call("hotel_search", used_params, hotels, 1)]
    flag: bool | None = uses_flag(r)
    correct: bool = True

    def say(h: dict[str, Any], tot: float, nn: int) -> str:
        p = money(h["price_per_night"])
        return r.choice(
            [
                f"{h['name']} in {h['neighborhood']} has the highest rating ({h['rating']}). It's ${p} a night, so "
                f"${money(tot)} for your {nn} nights.",
                f"Top pick: {h['name']} in {h['neighborhood']}, rated {h['rating']}. {nn} nights at ${p} per night "
                f"comes to ${money(tot)}.",
                f"I'd go with {h['name']} in {h['neighborhood']}: rated {h['rating']}, ${p} per night, "
                f"${money(tot)} in total for {nn} nights.",
            ]
        )

    if fault is None:
        if verbose:
            ans = (
                f"I found {len(hotels)} hotels in {t.d_city} with availability from {t.date_h} for {nights} "
                f"nights. The best-rated is {best['name']} in {best['neighborhood']}, with a guest rating of "
                f"{best['rating']} out of 5. The nightly rate is ${money(ppn)}, which makes ${money(total)} for "
                f"the full {nights}-night stay before local taxes."
            )
        else:
            ans = say(best, total, nights)
    elif fault == "wrong_nights":
        wn = nights + r.choice([-1, 1])
        alt = hotels_for(t.route, t.day, wn)
        alt_best = max(alt, key=lambda h: h["rating"])
        used = [call("hotel_search", {"city": t.d_city, "checkin": t.iso, "nights": wn}, alt, 1)]
        ans = say(alt_best, round(alt_best["price_per_night"] * wn, 2), nights)
        t.said_hotel = alt_best["name"]
        correct = False
    elif fault == "wrong_total":
        ans = say(best, round(ppn * (nights - 1), 2), nights)
        correct = False
    elif fault == "missing_call":
        used, flag = [], False
        t.said_hotel = f"{t.d_city} Grand Central Hotel"
        ans = f"I'd recommend the {t.said_hotel}, rated 4.9, at about ${int(ppn) + 40} per night."
        correct = False
    elif fault == "retry":
        used = [
            call("hotel_search", used_params, {"error": "429 Too Many Requests", "retry_after_s": 2}, 1),
            call("hotel_search", used_params, hotels, 2),
        ]
        ans = say(best, total, nights)
    else:
        raise ValueError(fault)
    t.hotel = best
    t.said_hotel = t.said_hotel or best["name"]
    t.amount = ("hotel total", total_raw)
    return _finish(t, n, q, ans, gt, used, exp, False, flag, correct, verbose)


def turn_weather_book(t: Trip, n: int, fault: str | None, verbose: bool) -> dict[str, Any]:
    """One request needing two calls in order: check the weather, then book (tool_sequence_matters)."""
    r = t.r
    w = weather_for(t.route, t.d_city, t.day, dry=True)
    f = t.cheap
    fid = f["flight_id"]
    q = r.choice(
        [
            f"If it's going to be dry in {t.d_city} on {t.date_h}, go ahead and book {fid} for {t.name}.",
            f"Check the weather in {t.d_city} for {t.date_h} first. If it looks dry, book {fid}; passenger {t.name}.",
        ]
    )
    gt = (
        f"{t.d_city} looks dry on {t.date_h} ({w['condition']}, high of {w['high_c']}°C), so I booked {fid} for "
        f"{t.name}. Confirmation code: {t.conf}."
    )
    result = {
        "status": "confirmed",
        "confirmation": t.conf,
        "flight_id": fid,
        "passenger": t.name,
        "seat": t.seat,
    }
    wcall = call("get_weather", {"city": t.d_city, "date": t.iso}, w, 1)
    bcall = call("book_flight", {"flight_id": fid, "passenger": t.name}, result, 2)
    exp = [
        expect("get_weather", {"city": t.d_city, "date": t.iso}, 1),
        expect("book_flight", {"flight_id": fid, "passenger": t.name}, 2),
    ]
    used = [wcall, bcall]
    flag: bool | None = True
    correct: bool | str = True
    good = [
        f"It should be dry in {t.d_city} on {t.date_h} ({w['condition']}, around {w['high_c']}°C), so I've booked "
        f"{fid} for {t.name}. Your confirmation code is {t.conf}.",
        f"The forecast for {t.d_city} on {t.date_h} is {w['condition']} with a high of {w['high_c']}°C, which is "
        f"dry, so {t.name} is now booked on {fid}. Confirmation code: {t.conf}.",
    ]
    if fault is None:
        ans = r.choice(good)
    elif fault == "wrong_order":
        used = [bcall, wcall]  # booked first, checked the weather afterwards
        ans = r.choice(good)
    elif fault == "missing_weather":
        used = [bcall]
        ans = f"I've booked {fid} for {t.name}. Your confirmation code is {t.conf}."
        correct = "partial"
    elif fault == "negated":
        ans = (
            f"It looks dry in {t.d_city} on {t.date_h} ({w['condition']}, {w['high_c']}°C), but {fid} is not "
            f"booked for {t.name}; the booking did not go through."
        )
        t.said_conf = None
        correct = False
    else:
        raise ValueError(fault)
    t.booked = f
    t.said_fid = fid
    t.amount = ("fare", float(f["price_usd"]))
    return _finish(t, n, q, ans, gt, used, exp, True, flag, correct, verbose)


def turn_search_book(t: Trip, n: int, fault: str | None, verbose: bool) -> dict[str, Any]:
    """Search, then book the earliest nonstop: two calls whose order matters."""
    r = t.r
    nonstop = [f for f in t.flights if f["stops"] == 0]
    f = min(nonstop, key=lambda x: x["depart"])
    fid = f["flight_id"]
    q = r.choice(
        [
            f"Find the earliest nonstop from {t.o_city} to {t.d_city} on {t.date_h} and book it for {t.name}.",
            f"Book {t.name} on the first nonstop flight from {t.o_code} to {t.d_code} on {t.date_h}, whatever it costs.",
        ]
    )
    gt = (
        f"I booked the earliest nonstop, {f['airline']} {fid} departing {t.o_city} at {f['depart']} on "
        f"{t.date_h}, for {t.name}. Confirmation code: {t.conf}."
    )
    result = {
        "status": "confirmed",
        "confirmation": t.conf,
        "flight_id": fid,
        "passenger": t.name,
        "seat": t.seat,
    }
    scall = call("search_flights", t.search_params(), t.flights, 1)
    bcall = call("book_flight", {"flight_id": fid, "passenger": t.name}, result, 2)
    exp = [
        expect("search_flights", t.search_params(), 1),
        expect("book_flight", {"flight_id": fid, "passenger": t.name}, 2),
    ]
    used = [scall, bcall]
    flag: bool | None = uses_flag(r)
    correct: bool = True

    def say(fl: dict[str, Any], code: str) -> str:
        return r.choice(
            [
                f"Booked! {t.name} is on {fl['airline']} {fl['flight_id']}, the earliest nonstop from {t.o_city}, "
                f"departing at {fl['depart']} on {t.date_h}. Confirmation code: {code}.",
                f"The earliest nonstop on {t.date_h} is {fl['airline']} {fl['flight_id']} at {fl['depart']} from "
                f"{t.o_city}; I've booked it for {t.name} (confirmation {code}).",
            ]
        )

    if fault is None:
        ans = say(f, t.conf)
    elif fault == "wrong_order":
        used = [bcall, scall]  # booked a remembered flight number, then searched to double-check
        ans = say(f, t.conf)
    elif fault == "wrong_flight":
        cheap = t.cheap if t.cheap is not f else sorted(t.flights, key=lambda x: x["price_usd"])[1]
        wres = dict(result, flight_id=cheap["flight_id"])
        used = [scall, call("book_flight", {"flight_id": cheap["flight_id"], "passenger": t.name}, wres, 2)]
        ans = say(cheap, t.conf)
        t.said_fid = cheap["flight_id"]
        correct = False
    elif fault == "retry":
        used = [call("search_flights", t.search_params(), {"error": "504 Gateway Timeout"}, 1), scall, bcall]
        ans = say(f, t.conf)
    else:
        raise ValueError(fault)
    t.booked = f
    t.said_fid = t.said_fid or fid
    t.amount = ("fare", float(f["price_usd"]))
    return _finish(t, n, q, ans, gt, used, exp, True, flag, correct, verbose)


def turn_summary(t: Trip, n: int, fault: str | None, verbose: bool) -> dict[str, Any]:
    """A no-tool turn: recap what was established earlier (as the agent told it, so mistakes carry forward)."""
    r = t.r
    assert t.booked is not None
    fid = t.booked["flight_id"]
    q = r.choice(
        [
            "Thanks! Can you give me a quick recap of everything?",
            "Perfect. Could you summarise my itinerary before I go?",
            "Can you recap the plan so I can forward it to my partner?",
        ]
    )
    hotel_gt = f", and stays {t.nights} nights at {t.hotel['name']} from {t.date_h}" if t.hotel else ""
    gt = (
        f"Recap: {t.name} flies {fid} from {t.o_city} to {t.d_city} on {t.date_h} (confirmation "
        f"{t.conf}){hotel_gt}."
    )

    def say(day_h: str, nights: int) -> str:
        said_fid = t.said_fid or fid
        code = f"confirmation {t.said_conf}" if t.said_conf else "booking still pending"
        hotel = f" You're staying {nights} nights at {t.said_hotel} from {day_h}." if t.hotel else ""
        return r.choice(
            [
                f"Here's your trip: {t.name} on {said_fid} from {t.o_city} to {t.d_city} on {day_h}, {code}.{hotel}",
                f"Summary: flight {said_fid}, {t.o_city} to {t.d_city}, {day_h}, for {t.name} ({code}).{hotel}",
            ]
        )

    used: list[dict[str, Any]] | None = None
    exp: list[dict[str, Any]] | None = None
    flag: bool | None = None
    carried = (
        t.said_conf == t.conf
        and (t.said_fid or fid) == fid
        and (t.hotel is None or t.said_hotel == t.hotel["name"])
    )
    correct = carried
    if fault is None:
        ans = say(t.date_h, t.nights)
    elif fault == "wrong_fact":
        if t.hotel and r.random() < 0.5:
            ans = say(t.date_h, t.nights + 1)
        else:
            ans = say(human_date(t.day + dt.timedelta(days=1)), t.nights)
        correct = False
    elif fault == "extra_call":
        # nothing to look up, but the agent re-ran the search "to double-check"
        used, exp, flag = [call("search_flights", t.search_params(), t.flights, 1)], [], False
        ans = say(t.date_h, t.nights)
    else:
        raise ValueError(fault)
    return _finish(t, n, q, ans, gt, used, exp, False, flag, correct, verbose)


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
        context = (
            f"Traveler: {trip.name}. Home airport: {trip.o_code} ({trip.o_city}). "
            f"Channel: {tr.choice(['web chat', 'mobile app', 'WhatsApp'])}."
        )
        convs.append(conversation(f"trv-{idx:03d}", "travel-agent-v2.3", turns, context=context))
    return convs, coverage


# ========================================================================================= support bot

IGNORE = {"rule": "ignore"}
REFUSALS = [
    "I'm sorry, I can't help with that.",
    "I'm sorry, but I can't help with that request. Please contact our support team.",
    "I'm not able to assist with that here. Please reach out to customer service.",
    "Sorry, I can't access that information.",
]
PREFIXES = ["", "", "Thanks for reaching out! ", "Happy to help. ", "I've checked this for you. "]
SUFFIXES = [
    "",
    "",
    " Is there anything else I can help with?",
    " Let me know if you have any other questions.",
    " Happy to help further if needed.",
]


def T(
    q: str,
    gt: str,
    good: list[str],
    bad: list[str],
    tools: list[dict[str, Any]] | None = None,
    seq: bool = False,
    param_fault: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One support turn: query, ground truth, correct paraphrases, wrong answers, expected tools."""
    return {
        "q": q,
        "gt": gt,
        "good": good,
        "bad": bad,
        "tools": tools or [],
        "seq": seq,
        "param_fault": param_fault,
    }


def tool(
    name: str,
    params: dict[str, Any],
    result: Any,
    *,
    optional: bool = False,
    rules: dict[str, Any] | None = None,
    variants: dict[str, list[Any]] | None = None,
) -> dict[str, Any]:
    """An expected call with the environment's result; ``variants`` lists values the agent may pass instead
    (only for parameters whose rule accepts them, e.g. a free-text summary under an ignore rule)."""
    return {
        "name": name,
        "params": params,
        "result": result,
        "optional": optional,
        "rules": rules or {},
        "variants": variants or {},
    }


def policy(topic: str, text: str, **kw: Any) -> dict[str, Any]:
    return tool("get_policy", {"topic": topic}, {"text": text}, **kw)


SUPPORT_TASKS: list[dict[str, Any]] = [
    dict(
        id="order_status_shipped",
        p=0.95,
        ctx="Customer: Laura Chen, order A10-4417 (wireless earbuds).",
        turns=[
            T(
                "Hi, where is my order A10-4417? It's been a few days since I placed it.",
                "Order A10-4417 shipped on May 2 via UPS and is expected to arrive on May 6.",
                [
                    "Your order A10-4417 left our warehouse on May 2 with UPS, and delivery is expected on May 6.",
                    "It's on its way! A10-4417 shipped via UPS on May 2 and the estimated delivery date is May 6.",
                    "Order A10-4417 was handed to UPS on May 2 and should reach you by May 6.",
                ],
                [
                    "Order A10-4417 shipped on May 2 via UPS and should arrive on May 9.",
                    "Order A10-4417 has not shipped yet; it is still being packed at our warehouse.",
                    "Your order shipped via FedEx on May 4 and should arrive on May 8.",
                ],
                [
                    tool(
                        "lookup_order",
                        {"order_id": "A10-4417"},
                        {
                            "status": "shipped",
                            "carrier": "UPS",
                            "tracking": "1Z999AA10123456784",
                            "shipped_on": "2025-05-02",
                            "eta": "2025-05-06",
                        },
                    )
                ],
            ),
        ],
    ),
    dict(
        id="return_window",
        p=0.9,
        ctx="Customer: Omar Siddiqui, guest checkout.",
        turns=[
            T(
                "How long do I have to return something I bought?",
                "You can return unused items in their original packaging within 30 days of delivery; the refund reaches "
                "your original payment method within 5-7 business days.",
                [
                    "You have 30 days from delivery to return unused items in the original packaging. Once we receive the "
                    "return, the refund goes back to your original payment method within 5-7 business days.",
                    "Returns are accepted within 30 days of delivery as long as the item is unused and in its original "
                    "packaging, and refunds are processed to the original payment method in 5-7 business days.",
                    "The return window is 30 days after delivery for unused items in original packaging; expect the refund "
                    "on your original payment method within 5-7 business days.",
                ],
                [
                    "You can return unused items within 14 days of delivery; refunds take 5-7 business days.",
                    "You have 30 days to return items, but refunds are issued as store credit only.",
                    "Returns are accepted within 60 days of purchase, even for used items.",
                ],
                [
                    policy(
                        "returns",
                        "Unused items in original packaging may be returned within 30 days of delivery. "
                        "Refunds are issued to the original payment method within 5-7 business days of receiving the "
                        "return.",
                    )
                ],
                param_fault={
                    "param": "topic",
                    "value": "refund",
                    "result": {"error": "unknown_topic", "topic": "refund"},
                },
            ),
        ],
    ),
    dict(
        id="password_reset",
        p=0.85,
        ctx="Customer: Julien Moreau (julien.moreau@example.com).",
        turns=[
            T(
                "I forgot my password. My email is julien.moreau@example.com. Can you send me a reset link?",
                "I've sent a password reset link to julien.moreau@example.com; the link expires in 30 minutes.",
                [
                    "Done: a reset link is on its way to julien.moreau@example.com. It expires in 30 minutes, so use it soon.",
                    "A password reset link has been sent to julien.moreau@example.com and will stay valid for 30 minutes.",
                    "I've emailed a reset link to julien.moreau@example.com. Please open it within 30 minutes.",
                ],
                [
                    "I've sent a password reset link to julien.moreau@example.com; the link expires in 24 hours.",
                    "Password resets have to be done from the login page, so I have sent nothing.",
                    "I've sent a reset link to julien.moreau@example.org; it expires in 30 minutes.",
                ],
                [
                    tool(
                        "send_reset_link",
                        {"email": "julien.moreau@example.com"},
                        {"sent": True, "email": "julien.moreau@example.com", "expires_minutes": 30},
                    )
                ],
                param_fault={
                    "param": "email",
                    "value": "julien.moreau@exmaple.com",
                    "result": {"sent": True, "email": "julien.moreau@exmaple.com", "expires_minutes": 30},
                    "answer": "I've sent a reset link to julien.moreau@exmaple.com; it expires in 30 minutes.",
                },
            ),
            T(
                "I still don't see the email. What should I do?",
                "Please check your spam or junk folder. If the email still hasn't arrived after 10 minutes, I can send a "
                "new link.",
                [
                    "Please look in your spam or junk folder, since reset emails sometimes land there. If it still hasn't "
                    "arrived after 10 minutes, tell me and I'll send a new link.",
                    "Check the spam/junk folder first. If the email hasn't arrived within 10 minutes, I can send you a new "
                    "reset link.",
                    "It may have been filtered into spam or junk. Give it 10 minutes; if it still hasn't arrived, I'll send a "
                    "new link.",
                ],
                [
                    "Reset emails can take up to 24 hours to arrive, so please wait until tomorrow.",
                    "Your account has been locked, so no emails can be sent. Please call us instead.",
                    "The link was sent by text message, so check your phone rather than your email.",
                ],
            ),
        ],
    ),
    dict(
        id="delayed_order_fee",
        p=0.5,
        ctx="Customer: Greta Holm, order B22-9051 (standing desk).",
        turns=[
            T(
                "My order B22-9051 was supposed to arrive yesterday. What's going on?",
                "Order B22-9051 is delayed by a weather disruption at FedEx's Memphis hub; the new delivery estimate is "
                "May 14.",
                [
                    "Thanks for your patience. FedEx reports a weather disruption at its Memphis hub, so order B22-9051 is "
                    "now expected on May 14.",
                    "Order B22-9051 is running late because of weather at the FedEx Memphis hub. The updated delivery date "
                    "is May 14.",
                    "I checked B22-9051: it's delayed by a weather disruption at FedEx's Memphis hub, with a new estimated "
                    "delivery of May 14.",
                ],
                [
                    "Order B22-9051 was delivered on May 9 and left at your front door.",
                    "Order B22-9051 is delayed; the new delivery estimate is May 19.",
                    "Your order is delayed because the desk is out of stock; it will ship on May 14.",
                ],
                [
                    tool(
                        "lookup_order",
                        {"order_id": "B22-9051"},
                        {
                            "status": "delayed",
                            "carrier": "FedEx",
                            "original_eta": "2025-05-09",
                            "eta": "2025-05-14",
                            "reason": "weather disruption at Memphis hub",
                            "shipping_fee": 7.99,
                        },
                    )
                ],
            ),
            T(
                "Can I at least get the shipping fee back?",
                "Yes. Because B22-9051 will arrive more than 3 business days late, your $7.99 shipping fee will be "
                "refunded automatically.",
                [
                    "Yes: orders that arrive more than 3 business days late get the shipping fee refunded automatically, so "
                    "the $7.99 you paid on B22-9051 will come back to you.",
                    "Yes, you will. B22-9051 is more than 3 business days late, which means the $7.99 shipping fee is refunded "
                    "automatically.",
                    "Yes, the $7.99 shipping fee on B22-9051 will be refunded automatically, since delivery is more than 3 "
                    "business days past the original estimate.",
                ],
                [
                    "Shipping fees are non-refundable, so the $7.99 can't be returned.",
                    "Yes, you'll get a $5.00 credit toward your next order instead.",
                    "Only deliveries more than 7 business days late qualify, so this order does not.",
                ],
                [
                    policy(
                        "late_delivery",
                        "If an order arrives more than 3 business days after its original estimate, "
                        "the shipping fee is refunded automatically.",
                    )
                ],
                param_fault={
                    "param": "topic",
                    "value": "refunds",
                    "result": {"error": "unknown_topic", "topic": "refunds"},
                },
            ),
        ],
    ),
    dict(
        id="damaged_item_ticket",
        p=0.6,
        ctx="Customer: Tobias Wirth, order C31-7720 (Vortex 900 blender).",
        turns=[
            T(
                "My blender from order C31-7720 arrived with a cracked jar. Can you help?",
                "I've opened ticket {ticket} for the cracked jar on order C31-7720; our team will reply within 24 hours.",
                [
                    "Ticket {ticket} is now open for the cracked jar on C31-7720, and our team will get back to you within "
                    "24 hours.",
                    "I logged the damage on order C31-7720 as ticket {ticket}. Expect a reply from our team within 24 hours.",
                    "I've created ticket {ticket} about the cracked blender jar from C31-7720; someone will respond within "
                    "24 hours.",
                ],
                [
                    "I've opened ticket {ticket} for the cracked jar on order C31-7720; our team will reply within 5 "
                    "business days.",
                    "Order C31-7720 was marked as delivered in good condition, so a damage claim is not possible.",
                    "Please take the blender back to the store where you bought it for an exchange.",
                ],
                [
                    tool(
                        "lookup_order",
                        {"order_id": "C31-7720"},
                        {
                            "status": "delivered",
                            "delivered_on": "2025-05-03",
                            "items": ["Vortex 900 blender"],
                        },
                    ),
                    tool(
                        "create_ticket",
                        {
                            "category": "damaged_item",
                            "order_id": "C31-7720",
                            "summary": "Blender jar arrived cracked",
                        },
                        {"ticket_id": "{ticket}", "priority": "high", "sla_hours": 24},
                        rules={"summary": IGNORE},
                        variants={
                            "summary": [
                                "Cracked jar on delivery",
                                "Customer reports Vortex 900 jar cracked",
                                "Damaged on arrival: cracked blender jar",
                            ]
                        },
                    ),
                ],
                seq=True,
            ),
            T(
                "Do I need to send the broken blender back?",
                "You don't need to send it back; just attach a photo of the damage to ticket {ticket}.",
                [
                    "You don't need to return it. Please attach a photo of the cracked jar to ticket {ticket} and we'll take "
                    "it from there.",
                    "Items under $100 don't need to be sent back, so you can keep it. Just add a photo of the damage to "
                    "ticket {ticket}.",
                    "You don't have to ship it back; uploading a photo of the damage to ticket {ticket} is enough.",
                ],
                [
                    "Yes, please ship the blender back within 14 days using the prepaid label.",
                    "You need to return it to a store before we can process ticket {ticket}.",
                    "Yes, send it back first; we only review photos after the item arrives.",
                ],
                [
                    policy(
                        "damaged_items",
                        "Damaged items worth under $100 do not need to be returned; attach a photo of "
                        "the damage to the support ticket.",
                    )
                ],
            ),
        ],
    ),
    dict(
        id="cancel_subscription",
        p=0.75,
        ctx="Customer: Nadia Kowalski, Plus member, billing period ends June 30.",
        turns=[
            T(
                "How do I cancel my Plus membership? Will I lose access right away?",
                "You can cancel anytime under Account > Subscriptions, and you keep Plus access until the end of your "
                "current billing period on June 30.",
                [
                    "Cancel whenever you like from Account > Subscriptions. Your Plus benefits stay active until the end of "
                    "the current billing period on June 30.",
                    "Go to Account > Subscriptions to cancel. You keep access until your billing period ends on June 30.",
                    "You can cancel anytime in Account > Subscriptions, and Plus keeps working until June 30, the end of this "
                    "billing period.",
                ],
                [
                    "You can cancel under Account > Subscriptions, but your access ends immediately.",
                    "Plus memberships can only be cancelled by phone during the annual renewal window.",
                    "Cancel under Account > Subscriptions; access continues until July 31.",
                ],
                [
                    policy(
                        "subscription_cancellation",
                        "Members can cancel anytime under Account > Subscriptions. Access "
                        "continues until the end of the current billing period; partial months are not refunded.",
                    ),
                    tool(
                        "lookup_order",
                        {"order_id": "SUB-88213"},
                        {"type": "subscription", "plan": "Plus", "period_end": "2025-06-30"},
                        optional=True,
                    ),
                ],
            ),
        ],
    ),
    dict(
        id="warranty_water_damage",
        p=0.45,
        ctx="Customer: Ben Adeyemi, Pulse ANC headphones bought 2024-09-14.",
        turns=[
            T(
                "My headphones stopped working after I got caught in the rain. Is that covered by the 2-year warranty?",
                "No. The 2-year warranty covers manufacturing defects only, and water damage is not covered.",
                [
                    "No, the 2-year warranty only covers manufacturing defects, so water damage from the rain is not covered.",
                    "No. Water damage isn't covered: the 2-year warranty applies to manufacturing defects only.",
                    "No. I checked the policy: the 2-year limited warranty covers manufacturing defects, but liquid and "
                    "water damage are not covered.",
                ],
                [
                    "Yes, water damage is covered under the 2-year warranty; I can start a replacement.",
                    "Water damage is covered for the first 12 months, so you're still eligible.",
                    "The warranty covers everything for 2 years, including accidents and rain damage.",
                ],
                [
                    policy(
                        "warranty",
                        "The 2-year limited warranty covers manufacturing defects. It does not cover "
                        "accidental damage, water or liquid damage, or normal wear.",
                    )
                ],
                param_fault={
                    "param": "topic",
                    "value": "returns",
                    "result": {
                        "topic": "returns",
                        "text": "Unused items in original packaging may be returned "
                        "within 30 days of delivery.",
                    },
                },
            ),
        ],
    ),
    dict(
        id="change_address",
        p=0.55,
        ctx="Customer: Eleanor Price, order D48-1136 (bookshelf).",
        turns=[
            T(
                "Can I still change the delivery address on order D48-1136?",
                "Yes, order D48-1136 is still processing, so the delivery address can still be changed.",
                [
                    "Yes. D48-1136 is still in processing, so there's time to change the delivery address.",
                    "Yes, you can: order D48-1136 is still processing and the address can still be updated.",
                    "Yes. Order D48-1136 is still processing, so the delivery address can be changed.",
                ],
                [
                    "Order D48-1136 has already shipped, so the address can no longer be changed.",
                    "No, addresses can't be changed once an order is placed.",
                    "Order D48-1136 is out for delivery today, so it's too late to change it.",
                ],
                [
                    tool(
                        "lookup_order",
                        {"order_id": "D48-1136"},
                        {"status": "processing", "ship_by": "2025-05-08"},
                    )
                ],
            ),
            T(
                "Great, please change it to 221 Baker Street, London NW1 6XE.",
                "Done: the address change to 221 Baker Street, London NW1 6XE is logged as ticket {ticket} and will be "
                "applied within 2 hours.",
                [
                    "I've logged the change to 221 Baker Street, London NW1 6XE as ticket {ticket}; it will be applied within "
                    "2 hours.",
                    "Your new delivery address, 221 Baker Street, London NW1 6XE, is recorded under ticket {ticket} and takes "
                    "effect within 2 hours.",
                    "Ticket {ticket} updates the address to 221 Baker Street, London NW1 6XE. The change goes through within "
                    "2 hours.",
                ],
                [
                    "Done: the address is now 221 Baker Street, London NW1 6XF (ticket {ticket}).",
                    "I've logged the change as ticket {ticket}; it will be applied within 48 hours.",
                    "I've logged ticket {ticket}, but this order will still ship to the old address.",
                ],
                [
                    tool(
                        "create_ticket",
                        {
                            "category": "address_change",
                            "order_id": "D48-1136",
                            "summary": "New address: 221 Baker Street, London NW1 6XE",
                        },
                        {"ticket_id": "{ticket}", "priority": "high", "sla_hours": 2},
                        rules={"summary": {"rule": "text"}},
                        variants={
                            "summary": [
                                "new address: 221 baker street, london nw1 6xe",
                                "New address:  221 Baker Street, London NW1 6XE.",
                            ]
                        },
                    )
                ],
            ),
        ],
    ),
    dict(
        id="shipping_to_canada",
        p=0.8,
        ctx="Customer: Pierre Gagnon, Montréal.",
        turns=[
            T(
                "How much does it cost to ship an order to Canada, and how long does it take?",
                "Shipping to Canada is a flat $24.95 and takes 6-10 business days.",
                [
                    "It's a flat $24.95 to ship to Canada, and delivery takes 6-10 business days.",
                    "Orders to Canada ship for a flat rate of $24.95 and arrive in 6-10 business days; duties are prepaid at "
                    "checkout.",
                    "For Canada we charge a flat $24.95, with delivery in 6-10 business days.",
                ],
                [
                    "Shipping to Canada is a flat $19.95 and takes 6-10 business days.",
                    "Shipping to Canada is free on all orders and arrives in 2-3 business days.",
                    "We do not ship to Canada at the moment.",
                ],
                [
                    policy(
                        "international_shipping",
                        "Canada: flat rate $24.95, delivered in 6-10 business days. Duties are "
                        "prepaid at checkout.",
                    )
                ],
            ),
        ],
    ),
    dict(
        id="split_shipment",
        p=0.35,
        ctx="Customer: Hiroshi Nakamura, order E55-2290 (2 packages).",
        turns=[
            T(
                "Order E55-2290 says delivered but I only got one box. Where's the rest?",
                "Order E55-2290 shipped in two packages: the first was delivered on May 3, and the second is in transit "
                "with USPS, arriving by May 8.",
                [
                    "E55-2290 was split into two packages. The first was delivered on May 3; the second is still in transit "
                    "with USPS and should arrive by May 8.",
                    "Your order shipped in two packages. One arrived on May 3, and the other is on its way with USPS, due by "
                    "May 8.",
                    "Order E55-2290 came in two boxes: box one was delivered on May 3 and box two is in transit with USPS, "
                    "expected by May 8.",
                ],
                [
                    "Both packages of order E55-2290 were delivered on May 3; please check with your neighbors.",
                    "The second package of E55-2290 is in transit with USPS and should arrive by May 12.",
                    "Order E55-2290 only had one package, so everything has been delivered.",
                ],
                [
                    tool(
                        "lookup_order",
                        {"order_id": "E55-2290"},
                        {
                            "status": "partially_delivered",
                            "packages": [
                                {"package": 1, "status": "delivered", "date": "2025-05-03"},
                                {
                                    "package": 2,
                                    "status": "in_transit",
                                    "carrier": "USPS",
                                    "eta": "2025-05-08",
                                },
                            ],
                        },
                    )
                ],
            ),
        ],
    ),
    dict(
        id="price_match",
        p=0.7,
        ctx="Customer: Rachel Stein, order N04-7781 (55-inch TV) placed 2025-04-29.",
        turns=[
            T(
                "I bought a TV from you last week and now it's $80 cheaper at Best Buy. Do you price match?",
                "Yes. We match Best Buy's lower price within 14 days of purchase; submit the link through the Price Match "
                "form and we'll refund the $80 difference.",
                [
                    "Yes, Best Buy is one of the retailers we match. You're within 14 days of purchase, so send the link "
                    "through the Price Match form and we'll refund the $80 difference.",
                    "Yes, we do. Price matches with Best Buy are honored within 14 days of purchase; use the Price Match form and "
                    "the $80 difference comes back to you.",
                    "Yes: submit the Best Buy link via the Price Match form. Since it's within 14 days of purchase, you'll get "
                    "the $80 difference refunded.",
                ],
                [
                    "Price matching only applies within 7 days of purchase, so this order no longer qualifies.",
                    "We do not price match other retailers.",
                    "Yes, we match within 14 days, and you'll receive a $40 gift card for the difference.",
                ],
                [
                    policy(
                        "price_match",
                        "We match a lower advertised price from approved competitors (including Best Buy, "
                        "Target and Walmart) within 14 days of purchase. Submit a link through the Price Match form.",
                    )
                ],
            ),
        ],
    ),
    dict(
        id="lost_package_replacement",
        p=0.3,
        ctx="Customer: Maya Thompson, order F60-3308 (running shoes).",
        turns=[
            T(
                "Tracking for F60-3308 says delivered, but there's nothing at my door.",
                "UPS marked order F60-3308 as delivered on May 1 and left at the front door.",
                [
                    "According to UPS, F60-3308 was delivered on May 1 and left at the front door.",
                    "UPS shows order F60-3308 as delivered on May 1, with the note that it was left at the front door.",
                    "The carrier, UPS, recorded F60-3308 as delivered on May 1 and left at your front door.",
                ],
                [
                    "Order F60-3308 is still in transit and should arrive on May 5.",
                    "UPS delivered F60-3308 on April 28 to the building's mailroom.",
                    "F60-3308 was returned to sender on May 1 because of an address problem.",
                ],
                [
                    tool(
                        "lookup_order",
                        {"order_id": "F60-3308"},
                        {
                            "status": "delivered",
                            "carrier": "UPS",
                            "delivered_on": "2025-05-01",
                            "proof": "left at front door",
                        },
                    )
                ],
            ),
            T(
                "Well, it's not here. What happens now?",
                "If the package still can't be found 48 hours after the delivery scan, we'll reship the order or give you "
                "a full refund.",
                [
                    "Give it 48 hours from the delivery scan, since packages sometimes turn up late. If it still can't be "
                    "found after that, we'll reship the order or issue a full refund.",
                    "If it still can't be found 48 hours after the delivery scan, you can choose between a reshipment and a "
                    "full refund.",
                    "Our policy is to wait 48 hours after the delivery scan; if the package still can't be found, we reship it "
                    "or refund you in full.",
                ],
                [
                    "You'll need to file a claim with UPS directly; we can't reship or refund delivered orders.",
                    "We can reship after 14 days if the package still can't be found.",
                    "If it still can't be found after 14 days, we'll give you a 50% refund.",
                ],
                [
                    policy(
                        "lost_package",
                        "If a package marked delivered cannot be found after 48 hours, we reship the items "
                        "or issue a full refund.",
                    )
                ],
            ),
            T(
                "It's been three days now. Please sort it out, I'd like a replacement.",
                "I've opened ticket {ticket}, and a replacement for order F60-3308 will ship within 2 business days.",
                [
                    "Ticket {ticket} is open and a replacement for F60-3308 will ship within 2 business days.",
                    "I've opened ticket {ticket}; the replacement for order F60-3308 ships within 2 business days.",
                    "Done: ticket {ticket} covers the missing package, and a replacement of order F60-3308 will ship within 2 "
                    "business days.",
                ],
                [
                    "I've opened ticket {ticket}; a replacement will ship within 10 business days.",
                    "I've issued a full refund for F60-3308 instead of a replacement.",
                    "A replacement can only be sent once UPS finishes its investigation, which takes 3 weeks.",
                ],
                [
                    tool(
                        "create_ticket",
                        {
                            "category": "lost_package",
                            "order_id": "F60-3308",
                            "summary": "Package marked delivered but not received; customer wants reshipment",
                        },
                        {"ticket_id": "{ticket}", "action": "reship", "ships_within_business_days": 2},
                        rules={"summary": IGNORE},
                        variants={
                            "summary": ["Not received, reship", "Lost package F60-3308, send replacement"]
                        },
                    )
                ],
            ),
        ],
    ),
    dict(
        id="account_locked",
        p=0.85,
        ctx="Customer: Amara Okafor (amara.okafor@example.com).",
        turns=[
            T(
                "I'm locked out of my account after too many login attempts.",
                "Your account unlocks automatically 30 minutes after the lockout, or you can reset your password to unlock "
                "it immediately.",
                [
                    "The lock lifts on its own after 30 minutes. If you'd prefer to skip the wait, resetting your password "
                    "unlocks the account immediately.",
                    "Accounts unlock automatically 30 minutes after a lockout, and a password reset unlocks yours immediately.",
                    "You can wait 30 minutes for the automatic unlock, or reset your password to get back in immediately.",
                ],
                [
                    "Your account stays locked for 24 hours and can't be unlocked sooner.",
                    "Locked accounts have to be verified by phone before they can be unlocked.",
                    "It unlocks after 3 hours, or you can reset your password.",
                ],
                [
                    policy(
                        "account_lockout",
                        "Accounts lock for 30 minutes after 5 failed sign-in attempts. Resetting the "
                        "password unlocks the account immediately.",
                    )
                ],
            ),
            T(
                "I'll reset it. Send the link to amara.okafor@example.com please.",
                "A reset link has been sent to amara.okafor@example.com; it expires in 30 minutes.",
                [
                    "Sent! Check amara.okafor@example.com for the reset link; it expires in 30 minutes.",
                    "I've sent the password reset link to amara.okafor@example.com. It stays valid for 30 minutes.",
                    "The reset link is on its way to amara.okafor@example.com and will expire in 30 minutes.",
                ],
                [
                    "A reset link has been sent to amara.okafor@example.com; it expires in 2 hours.",
                    "I've sent the link to amara.okafor@example.net; it expires in 30 minutes.",
                    "I've sent a 6-digit code to your phone instead.",
                ],
                [
                    tool(
                        "send_reset_link",
                        {"email": "amara.okafor@example.com"},
                        {"sent": True, "email": "amara.okafor@example.com", "expires_minutes": 30},
                    )
                ],
                param_fault={
                    "param": "email",
                    "value": "amara.okafor@example.con",
                    "result": {"error": "invalid_email_domain", "email": "amara.okafor@example.con"},
                    "answer": "That email address doesn't seem to be valid. Could you double-check it?",
                },
            ),
        ],
    ),
    dict(
        id="size_exchange",
        p=1.0,
        ctx="Customer: Felix Braun, order P19-2034 (rain jacket, size M).",
        turns=[
            T(
                "The jacket I ordered is too small. Can I exchange it for a larger size?",
                "Yes, size exchanges are free within 30 days of delivery, limited to one free exchange per item.",
                [
                    "Yes! Size exchanges are free within 30 days of delivery, with one free exchange per item.",
                    "Yes, you can swap it for a larger size for free, as long as it's within 30 days of delivery (one free "
                    "exchange per item).",
                    "Yes. We offer one free size exchange per item within 30 days of delivery.",
                ],
                [
                    "Size exchanges cost $9.95 and must be requested within 30 days.",
                    "Exchanges are only possible within 7 days of delivery.",
                    "Outerwear is final sale and can't be exchanged.",
                ],
                [
                    policy(
                        "exchanges",
                        "Size exchanges are free within 30 days of delivery, limited to one free exchange per "
                        "item.",
                    )
                ],
            ),
        ],
    ),
    dict(
        id="cancel_shipped_order",
        p=0.4,
        ctx="Customer: Diego Morales, order G71-5520 (espresso machine).",
        turns=[
            T(
                "I want to cancel order G71-5520.",
                "Order G71-5520 already shipped on May 5, so it can't be cancelled, but you can return it within 30 days "
                "of delivery.",
                [
                    "G71-5520 shipped on May 5, so it can't be cancelled anymore. You can still return it within 30 days of "
                    "delivery.",
                    "That order already left our warehouse on May 5, which means it can't be cancelled; a return within 30 days "
                    "of delivery is the way to go.",
                    "Order G71-5520 can't be cancelled because it shipped on May 5, but you're free to return it within 30 days "
                    "of delivery.",
                ],
                [
                    "Done: order G71-5520 has been cancelled and you'll be refunded in 3-5 days.",
                    "Order G71-5520 shipped on May 5 and can't be returned.",
                    "Order G71-5520 is still processing, so I've cancelled it for you.",
                ],
                [
                    tool(
                        "lookup_order",
                        {"order_id": "G71-5520"},
                        {"status": "shipped", "shipped_on": "2025-05-05", "carrier": "UPS"},
                    )
                ],
            ),
            T(
                "OK. How do I start the return?",
                "Go to Orders > G71-5520 > Return items, print the prepaid UPS label, and drop the package at any UPS "
                "location.",
                [
                    "Open Orders > G71-5520 > Return items, print the prepaid UPS label, and drop the box at any UPS location.",
                    "Start it under Orders > G71-5520 > Return items. You'll get a prepaid UPS label to print; then drop the "
                    "package off at any UPS location.",
                    "From Orders > G71-5520, choose Return items, print the prepaid UPS label and leave the package at any UPS "
                    "location.",
                ],
                [
                    "Email the order number to returns@ and mail the package back at your own cost.",
                    "Go to Orders > G71-5520 > Return items and drop the package at any FedEx location.",
                    "Returns have to be started by phone; call us at 1-800 during business hours.",
                ],
                [
                    policy(
                        "returns",
                        "Unused items in original packaging may be returned within 30 days of delivery. Start at "
                        "Orders > Return items; print the prepaid UPS label and drop the package at any UPS location.",
                    )
                ],
            ),
        ],
    ),
    dict(
        id="support_hours",
        p=0.9,
        ctx="Customer: anonymous visitor.",
        turns=[
            T(
                "When can I reach a human? Is there phone support on weekends?",
                "Live chat is staffed 8am-10pm ET every day, but phone support is only available Monday to Friday, "
                "9am-6pm ET, so not on weekends.",
                [
                    "Live chat has agents 8am-10pm ET, 7 days a week. Phone support runs Monday to Friday, 9am-6pm ET, so it "
                    "is not available on weekends.",
                    "On weekends, use live chat (8am-10pm ET every day); the phone line is not open then, only Monday to "
                    "Friday, 9am-6pm ET.",
                    "You can chat with an agent 8am-10pm ET any day. Phone support is Monday to Friday, 9am-6pm ET, and not on "
                    "weekends.",
                ],
                [
                    "Phone support is open 24/7, including weekends.",
                    "Live chat is staffed 9am-5pm ET on weekdays only.",
                    "Phone support is available Saturdays 10am-2pm ET.",
                ],
                [
                    policy(
                        "support_hours",
                        "Live chat: 8am-10pm ET, 7 days a week. Phone: Monday-Friday, 9am-6pm ET.",
                    )
                ],
            ),
        ],
    ),
    dict(
        id="promo_code_minimum",
        p=0.5,
        ctx="Customer: Chloe Martin, cart total $42.00.",
        turns=[
            T(
                "The code SPRING20 isn't working at checkout.",
                "SPRING20 gives 20% off orders of $50 or more, is not valid on sale items, and expires May 31.",
                [
                    "SPRING20 takes 20% off orders of $50 or more. It's not valid on sale items and it expires May 31.",
                    "That code needs a cart of at least $50, is not valid on sale items, and runs until May 31. It gives 20% "
                    "off.",
                    "SPRING20 is 20% off with a $50 minimum; it's not valid on sale items and expires on May 31.",
                ],
                [
                    "SPRING20 expired on April 30, so it can't be used anymore.",
                    "SPRING20 gives 20% off any order with no minimum; try clearing your browser cache.",
                    "SPRING20 gives 10% off orders of $75 or more.",
                ],
                [
                    policy(
                        "promo_codes",
                        "SPRING20: 20% off orders of $50 or more. Not valid on sale items. Expires May 31.",
                    )
                ],
            ),
            T(
                "My cart is $42 and nothing's on sale.",
                "Your $42 cart is below the $50 minimum for SPRING20; add $8 more in full-price items and the code will "
                "work.",
                [
                    "That's the issue: $42 is below the $50 minimum. Add $8 more of full-price items and SPRING20 will apply.",
                    "SPRING20 needs $50, and your cart is $42, so you're $8 short. Add $8 more and the code will work.",
                    "Your cart is $8 under the $50 minimum for SPRING20. Add $8 more in full-price items and it will apply.",
                ],
                [
                    "Your $42 cart qualifies; the code should work after you refresh the page.",
                    "You need to add $18 more to reach the minimum for SPRING20.",
                    "SPRING20 can't be used on carts under $100.",
                ],
            ),
        ],
    ),
    dict(
        id="refund_status",
        p=0.65,
        ctx="Customer: Kevin O'Brien, order H83-0047 (headphones, returned).",
        turns=[
            T(
                "I returned headphones on order H83-0047. Has my refund gone through?",
                "Yes, a refund of $129.00 was issued on May 5 to your Visa ending in 4421; it can take 5-7 business days to "
                "appear.",
                [
                    "Yes, it has: $129.00 was refunded on May 5 to your Visa ending in 4421. Allow 5-7 business days for it to show "
                    "up.",
                    "Yes. We issued a $129.00 refund on May 5 to the Visa ending in 4421; your bank may take 5-7 business days "
                    "to post it.",
                    "Yes, your refund of $129.00 went out on May 5 to Visa ending 4421 and should appear within 5-7 business days.",
                ],
                [
                    "Your return hasn't been received yet, so no refund has been issued.",
                    "A refund of $119.00 was issued on May 5 to your Visa ending in 4421.",
                    "Yes, $129.00 was refunded to your PayPal account on May 2.",
                ],
                [
                    tool(
                        "lookup_order",
                        {"order_id": "H83-0047"},
                        {
                            "status": "refunded",
                            "refund": {
                                "amount": 129.0,
                                "issued_on": "2025-05-05",
                                "method": "Visa ending 4421",
                                "bank_processing_days": "5-7",
                            },
                        },
                    )
                ],
            ),
        ],
    ),
    dict(
        id="duplicate_charge",
        p=0.25,
        ctx="Customer: Lena Fischer, order J90-6612 (cookware set).",
        turns=[
            T(
                "I was charged twice for order J90-6612!",
                "You were charged once for order J90-6612; the second $56.40 is a temporary authorization hold that will "
                "drop off within 3 business days.",
                [
                    "Only one charge went through for J90-6612. The second $56.40 is a temporary authorization hold and will "
                    "drop off within 3 business days.",
                    "The second $56.40 is a temporary authorization hold rather than a real charge; you were charged once for "
                    "order J90-6612, and the hold drops off within 3 business days.",
                    "I see one actual charge of $56.40 on J90-6612; the other $56.40 is a temporary authorization hold that "
                    "drops off within 3 business days.",
                ],
                [
                    "You were charged twice for order J90-6612; I've refunded the extra $56.40.",
                    "The second $56.40 is an authorization hold that will drop off within 14 business days.",
                    "Both $56.40 charges are correct because the order shipped in two parts.",
                ],
                [
                    tool(
                        "lookup_order",
                        {"order_id": "J90-6612"},
                        {
                            "status": "shipped",
                            "payments": [
                                {"amount": 56.4, "type": "capture"},
                                {
                                    "amount": 56.4,
                                    "type": "authorization_hold",
                                    "releases_within_business_days": 3,
                                },
                            ],
                        },
                    )
                ],
            ),
            T(
                "I'd still like someone to look into it.",
                "I've escalated it to our billing team as ticket {ticket}; they'll respond within 48 hours.",
                [
                    "Of course. I've escalated this to billing as ticket {ticket}, and they'll respond within 48 hours.",
                    "Billing will review it: ticket {ticket} is open and you'll hear back within 48 hours.",
                    "I've opened ticket {ticket} with our billing team; expect a response within 48 hours.",
                ],
                [
                    "I've escalated it as ticket {ticket}; billing responds within 10 business days.",
                    "There's nothing to escalate, since the hold will drop off on its own.",
                    "I've opened ticket {ticket} with the shipping team; they'll call you tomorrow.",
                ],
                [
                    tool(
                        "create_ticket",
                        {
                            "category": "billing",
                            "order_id": "J90-6612",
                            "summary": "Customer disputes duplicate charge (authorization hold)",
                        },
                        {"ticket_id": "{ticket}", "team": "billing", "sla_hours": 48},
                        rules={
                            "summary": IGNORE,
                            "category": {"rule": "any_of", "values": ["billing", "payment_dispute"]},
                        },
                        variants={
                            "summary": ["Possible double charge J90-6612"],
                            "category": ["payment_dispute"],
                        },
                    )
                ],
            ),
        ],
    ),
    dict(
        id="loyalty_points",
        p=1.0,
        ctx="Customer: Sam Patel, Rewards member.",
        turns=[
            T(
                "How many points do I need for a $5 reward?",
                "You need 500 points for a $5 reward; you earn 1 point for every $1 spent.",
                [
                    "A $5 reward takes 500 points, and you earn 1 point per $1 you spend.",
                    "500 points gets you a $5 reward. Points accrue at 1 point for every $1 spent.",
                    "You'll need 500 points for $5 off; each $1 you spend earns 1 point.",
                ],
                [
                    "You need 1,000 points for a $5 reward.",
                    "A $5 reward takes 500 points, and you earn 2 points per $1 spent.",
                    "Rewards start at $10 for 1,000 points.",
                ],
                [
                    policy(
                        "loyalty_points",
                        "Members earn 1 point per $1 spent. 500 points can be redeemed for a $5 reward. "
                        "Points expire after 12 months.",
                    )
                ],
            ),
        ],
    ),
    dict(
        id="preorder_ship_date",
        p=0.7,
        ctx="Customer: Jordan Ellis, pre-order K12-3345 (Nimbus X console).",
        turns=[
            T(
                "When will my pre-order K12-3345 ship?",
                "Pre-order K12-3345 ships on June 10 so it arrives around the June 12 release date.",
                [
                    "K12-3345 is scheduled to ship on June 10, timed to arrive around the June 12 release date.",
                    "Your Nimbus X pre-order (K12-3345) ships on June 10, so it should land around release day, June 12.",
                    "It ships June 10, so pre-order K12-3345 should arrive around the June 12 release date.",
                ],
                [
                    "Pre-order K12-3345 ships on June 12, the release date, and arrives about a week later.",
                    "K12-3345 has already shipped and should arrive on May 30.",
                    "Pre-order K12-3345 ships on July 10 because of a supply delay.",
                ],
                [
                    tool(
                        "lookup_order",
                        {"order_id": "K12-3345"},
                        {
                            "status": "preorder",
                            "item": "Nimbus X console",
                            "release_date": "2025-06-12",
                            "ships_on": "2025-06-10",
                        },
                    )
                ],
            ),
        ],
    ),
    dict(
        id="student_discount",
        p=0.6,
        ctx="Customer: Aisha Bello, university student.",
        turns=[
            T(
                "Do you offer a student discount? Can I use it together with my SPRING20 code?",
                "Yes, students get 15% off after verifying a school email through UNiDAYS, but it can't be combined with "
                "SPRING20 or other promo codes.",
                [
                    "Yes, we do: verify your school email through UNiDAYS for 15% off. It can't be combined with SPRING20 or any "
                    "other promo code, though.",
                    "Yes. Students get 15% off once verified with UNiDAYS using a school email. It can't be combined with "
                    "SPRING20 or other promo codes.",
                    "Yes, 15% off for students via UNiDAYS verification with your school email; it can't be combined with "
                    "SPRING20 or other promo codes.",
                ],
                [
                    "Yes, students get 15% off through UNiDAYS, and you can stack it with SPRING20.",
                    "Students get 10% off with a valid student ID at checkout.",
                    "We don't offer a student discount.",
                ],
                [
                    policy(
                        "student_discount",
                        "Students get 15% off after verifying with a school email through UNiDAYS. "
                        "Cannot be combined with other promo codes.",
                    )
                ],
            ),
        ],
    ),
    dict(
        id="po_box_shipping",
        p=0.55,
        ctx="Customer: Martin Ruiz, PO Box 4471, Tucson AZ.",
        turns=[
            T(
                "Can you ship to a PO box? I need it fast.",
                "Yes, we ship to PO boxes with Standard shipping via USPS (5-7 business days), but Express shipping is not "
                "available for PO boxes.",
                [
                    "Yes, we can ship to your PO box with Standard shipping via USPS, which takes 5-7 business days. Express "
                    "shipping is not available for PO boxes.",
                    "Yes, PO boxes are fine for Standard shipping (USPS, 5-7 business days), but Express is not available for "
                    "PO boxes.",
                    "Yes, via USPS Standard shipping in 5-7 business days; Express shipping is not available to PO boxes, so "
                    "use a street address if you need it faster.",
                ],
                [
                    "Yes, and Express shipping to PO boxes arrives in 1-2 business days.",
                    "We can't ship to PO boxes at all.",
                    "Standard shipping to PO boxes takes 10-14 business days via FedEx.",
                ],
                [
                    policy(
                        "po_boxes",
                        "PO boxes receive Standard shipping via USPS (5-7 business days). Express shipping is "
                        "not available for PO boxes.",
                    )
                ],
            ),
        ],
    ),
    dict(
        id="missing_item_charger",
        p=0.45,
        ctx="Customer: Ingrid Solberg, order L27-8890 (Aero 14 laptop bundle).",
        turns=[
            T(
                "Order L27-8890 arrived without the charger that was supposed to be in the box.",
                "Order L27-8890 should have included the 65W USB-C charger; I've opened ticket {ticket} and a replacement "
                "will ship within 2 business days.",
                [
                    "You're right: L27-8890 should have included the 65W USB-C charger. I've opened ticket {ticket}, and a "
                    "replacement ships within 2 business days.",
                    "The 65W USB-C charger is listed on order L27-8890. Ticket {ticket} is open and the replacement will ship "
                    "within 2 business days.",
                    "I've confirmed the 65W USB-C charger was part of L27-8890 and opened ticket {ticket}; expect the "
                    "replacement to ship within 2 business days.",
                ],
                [
                    "Order L27-8890 didn't include a charger; chargers are sold separately.",
                    "I've opened ticket {ticket}; a replacement 45W charger will ship within 2 business days.",
                    "I've opened ticket {ticket}, and the replacement will ship within 10 business days.",
                ],
                [
                    tool(
                        "lookup_order",
                        {"order_id": "L27-8890"},
                        {
                            "status": "delivered",
                            "items": ["Aero 14 laptop", "65W USB-C charger", "Laptop sleeve"],
                        },
                    ),
                    tool(
                        "create_ticket",
                        {
                            "category": "missing_item",
                            "order_id": "L27-8890",
                            "summary": "65W USB-C charger missing from box",
                        },
                        {"ticket_id": "{ticket}", "action": "reship_item", "ships_within_business_days": 2},
                        rules={
                            "summary": IGNORE,
                            "category": {"rule": "any_of", "values": ["missing_item", "incomplete_order"]},
                        },
                        variants={
                            "summary": ["Charger missing", "Missing 65W charger in L27-8890"],
                            "category": ["incomplete_order"],
                        },
                    ),
                ],
                seq=True,
            ),
            T(
                "Will I be charged for the replacement charger?",
                "No, the replacement charger ships free of charge; you won't be billed for it.",
                [
                    "No, you won't be charged. The replacement ships free of charge.",
                    "No charge at all: the replacement charger ships free, and you won't be billed.",
                    "No, you won't be billed for it; the replacement charger is sent free of charge.",
                ],
                [
                    "Yes, the replacement charger costs $39.99 plus shipping.",
                    "You'll be charged $39.99 now and refunded once we confirm it was missing.",
                    "Only the shipping, $6.99, will be charged.",
                ],
            ),
        ],
    ),
    dict(
        id="two_factor_setup",
        p=0.9,
        ctx="Customer: Victor Lindqvist, security-conscious.",
        turns=[
            T(
                "How do I turn on two-factor authentication?",
                "Go to Settings > Security > Two-step verification, choose Authenticator app, scan the QR code, and enter "
                "the 6-digit code it shows.",
                [
                    "Open Settings > Security > Two-step verification and pick Authenticator app. Scan the QR code with your "
                    "app, then type in the 6-digit code it displays.",
                    "It's under Settings > Security > Two-step verification: choose Authenticator app, scan the QR code, and "
                    "confirm with the 6-digit code.",
                    "Head to Settings > Security > Two-step verification, select Authenticator app, scan the QR code and enter "
                    "the 6-digit code from the app.",
                ],
                [
                    "Go to Settings > Privacy > Login alerts and enable SMS codes.",
                    "Two-factor authentication is only available for business accounts.",
                    "Go to Settings > Security, scan the QR code and enter the 4-digit PIN we email you.",
                ],
                [
                    policy(
                        "two_factor",
                        "Go to Settings > Security > Two-step verification, choose Authenticator app, scan "
                        "the QR code and enter the 6-digit code.",
                    )
                ],
            ),
        ],
    ),
    dict(
        id="bulk_discount",
        p=0.3,
        ctx="Customer: Harbor & Co. procurement (B2B account).",
        turns=[
            T(
                "We need 60 units of the ErgoDesk chair for our office. Is there a bulk discount?",
                "Yes, an order of 60 units qualifies for the 15% bulk discount, which applies to 50 or more units of the "
                "same item.",
                [
                    "Yes: at 60 units you're above the 50-unit threshold, so you get the 15% bulk discount.",
                    "Yes, 60 ErgoDesk chairs qualifies for our top tier, 15% off, which applies to 50 or more units of the same "
                    "item.",
                    "Yes, you'd get 15% off. Orders of 50 or more units of one item get the 15% bulk discount, and 60 units "
                    "qualifies.",
                ],
                [
                    "Yes, 60 units qualifies for the 10% bulk discount.",
                    "Bulk discounts start at 100 units, so 60 chairs wouldn't qualify.",
                    "Yes, 60 units gets 20% off.",
                ],
                [
                    policy(
                        "bulk_orders",
                        "Bulk discounts: 10% off 20-49 units, 15% off 50 or more units of the same item.",
                    )
                ],
            ),
        ],
    ),
    dict(
        id="payment_methods",
        p=0.8,
        ctx="Customer: Yara Haddad, first purchase.",
        turns=[
            T(
                "What payment methods do you take? Can I pay in installments?",
                "We accept Visa, Mastercard, American Express, PayPal and Apple Pay, and you can pay in installments with "
                "Klarna on orders over $35.",
                [
                    "You can pay with Visa, Mastercard, American Express, PayPal or Apple Pay. For installments, Klarna is "
                    "available on orders over $35.",
                    "We take Visa, Mastercard, American Express, PayPal and Apple Pay; Klarna installments are offered on "
                    "orders over $35.",
                    "Visa, Mastercard, American Express, PayPal and Apple Pay are all accepted, and orders over $35 can be "
                    "split into installments with Klarna.",
                ],
                [
                    "We accept Visa and Mastercard only; installments are not available.",
                    "We accept all major cards and PayPal, and Klarna installments are available on orders over $100.",
                    "You can pay in installments with Afterpay on any order.",
                ],
                [
                    policy(
                        "payment_methods",
                        "Accepted: Visa, Mastercard, American Express, PayPal, Apple Pay. Klarna "
                        "installments available on orders over $35.",
                    )
                ],
            ),
        ],
    ),
    dict(
        id="out_for_delivery_window",
        p=0.75,
        ctx="Customer: Owen Gallagher, order M33-1042 (monitor).",
        turns=[
            T(
                "Any update on order M33-1042?",
                "Order M33-1042 is out for delivery with DHL today, May 7.",
                [
                    "Good timing: M33-1042 is out for delivery with DHL today, May 7.",
                    "Your order M33-1042 is on the DHL truck and out for delivery today, May 7.",
                    "M33-1042 is out for delivery today (May 7) with DHL.",
                ],
                [
                    "Order M33-1042 is still at the DHL depot and will go out on May 9.",
                    "M33-1042 was delivered yesterday, May 6.",
                    "Order M33-1042 is out for delivery with UPS today, May 7.",
                ],
                [
                    tool(
                        "lookup_order",
                        {"order_id": "M33-1042"},
                        {
                            "status": "out_for_delivery",
                            "carrier": "DHL",
                            "date": "2025-05-07",
                            "delivery_window": "2pm-6pm",
                        },
                    )
                ],
            ),
            T(
                "Roughly what time will it get here?",
                "DHL's delivery window for M33-1042 is 2pm-6pm today.",
                [
                    "DHL expects to deliver M33-1042 between 2pm-6pm today.",
                    "The delivery window is 2pm-6pm today for M33-1042.",
                    "Expect it between 2pm-6pm today; that's DHL's window for M33-1042.",
                ],
                [
                    "DHL's delivery window for M33-1042 is 8am-12pm today.",
                    "DHL doesn't provide time windows, so it could be any time before 9pm.",
                    "It should arrive by 10am tomorrow.",
                ],
                [
                    tool(
                        "lookup_order",
                        {"order_id": "M33-1042"},
                        {
                            "status": "out_for_delivery",
                            "carrier": "DHL",
                            "date": "2025-05-07",
                            "delivery_window": "2pm-6pm",
                        },
                        optional=True,
                    )
                ],
            ),
        ],
    ),
    dict(
        id="account_deletion",
        p=0.2,
        ctx="Customer: Sophie Laurent (EU resident), GDPR request.",
        turns=[
            T(
                "I want you to delete all my data. What happens to it?",
                "We delete your account data within 30 days of a verified request, but order and invoice records are kept "
                "for 7 years as required by tax law.",
                [
                    "Your account data is deleted within 30 days of a verified request. Order and invoice records are the "
                    "exception: tax law requires us to keep them for 7 years.",
                    "Once the request is verified, account data is erased within 30 days, while order and invoice records are "
                    "kept for 7 years under tax law.",
                    "We erase your account data within 30 days of verifying the request, but order and invoice records stay "
                    "for 7 years as required by tax law.",
                ],
                [
                    "All of your data, including order history, is deleted within 24 hours.",
                    "We delete account data within 90 days; invoices are kept for 10 years.",
                    "We can't delete data for accounts that have placed orders.",
                ],
                [
                    policy(
                        "account_deletion",
                        "Account data is deleted within 30 days of a verified request. Order and "
                        "invoice records are retained for 7 years to meet tax law.",
                    )
                ],
            ),
            T(
                "Fine, please go ahead with the deletion.",
                "Your deletion request is logged as ticket {ticket}; you'll receive a confirmation email once it's "
                "completed, within 30 days.",
                [
                    "Done: your deletion request is ticket {ticket}. You'll get a confirmation email when it's completed, "
                    "within 30 days.",
                    "I've logged the request as ticket {ticket}; expect a confirmation email once it's completed within 30 "
                    "days.",
                    "Your request is in as ticket {ticket}, and a confirmation email will follow once it's completed, within "
                    "30 days.",
                ],
                [
                    "Your account has been deleted immediately.",
                    "Your deletion request is logged as ticket {ticket}; it will be completed within 90 days.",
                    "Please email privacy@ with a copy of your ID before anything can be deleted.",
                ],
                [
                    tool(
                        "create_ticket",
                        {"category": "privacy_request", "summary": "Account deletion request (GDPR)"},
                        {"ticket_id": "{ticket}", "team": "privacy", "sla_days": 30},
                        rules={"summary": IGNORE},
                        variants={"summary": ["GDPR erasure", "Delete all customer data"]},
                    )
                ],
            ),
        ],
    ),
    dict(
        id="restocking_fee",
        p=0.4,
        ctx="Customer: Ahmed Karim, order Q58-6120 (Aero 14 laptop), delivered 10 days ago.",
        turns=[
            T(
                "I opened a laptop I bought 10 days ago and want to return it. Is there a fee?",
                "You can still return it because you're within the 15-day electronics window, but opened laptops carry a "
                "15% restocking fee.",
                [
                    "Yes, you're within the 15-day return window for electronics, so it can come back, but since it's been "
                    "opened there's a 15% restocking fee.",
                    "You can return it (electronics have a 15-day window), but opened laptops carry a 15% restocking fee.",
                    "It's returnable because you're inside the 15-day electronics window; because it's opened, a 15% "
                    "restocking fee applies.",
                ],
                [
                    "There's no fee; you can return it within 30 days.",
                    "You're past the 7-day window for electronics, so it can't be returned.",
                    "You can return it, but there's a 25% restocking fee on opened laptops.",
                ],
                [
                    policy(
                        "returns_electronics",
                        "Electronics may be returned within 15 days of delivery. Opened electronics "
                        "carry a 15% restocking fee; unopened items have no fee.",
                    )
                ],
                param_fault={
                    "param": "topic",
                    "value": "returns",
                    "result": {
                        "topic": "returns",
                        "text": "Unused items in original packaging may be returned "
                        "within 30 days of delivery.",
                    },
                    "answer": "There's no fee; you can return it within 30 days.",
                },
            ),
        ],
    ),
]
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
            "answer": f"I couldn't find an order with the number {wrong}. Could you double-check it?",
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


# ============================================================================================ IO + checks


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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="only validate the files already on disk")
    args = ap.parse_args(argv)
    if not args.check:
        write_json(SEED_FILE, build_seed_examples())
        travel, coverage = build_travel()
        write_jsonl(TRAVEL_FILE, travel)
        support, stats, per_task = build_support()
        write_jsonl(SUPPORT_FILE, support)
        print("travel_agent faults injected (turn:fault -> count):")
        for key, cnt in sorted(coverage.items()):
            print(f"  {key:32s} {cnt}")
        print("support_bot_attempts interaction outcomes:")
        for key, cnt in sorted(stats.items()):
            print(f"  {key:45s} {cnt}")
        print("support_bot_attempts per task (task_id, p, correct of 8):")
        for task_id, p, c in per_task:
            print(f"  {task_id:32s} p={p:.2f}  {c}/{N_ATTEMPTS}")
    for path in (SEED_FILE, TRAVEL_FILE, SUPPORT_FILE):
        models = validate_file(path)
        print(summarize(path, models))
    print("all records validate (Conversation.model_validate) with no unknown keys")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
