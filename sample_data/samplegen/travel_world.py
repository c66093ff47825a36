"""The travel agent's world: routes, travellers and the tool results they give, and the ``Trip`` every turn reads."""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from typing import Any

from .common import bad_score, check_keys, checked, good_score, interaction, load_texts, rng_for

WORLD_KEYS = {"routes", "usd_rates", "travelers", "country", "origin_high", "conditions_dry", "conditions_wet",
              "departures"}
ROUTE_KEYS = {"o", "d", "cur", "air", "fare", "hours", "high", "hotels"}
_WORLD = checked(load_texts("travel_world.json"), WORLD_KEYS, "texts/travel_world.json")
# (origin city, code), (destination city, code), (currency, currency name), airlines [(code, name)], base fare
# USD, flight hours, typical spring high °C, hotels [(name, neighbourhood)]
ROUTES: list[dict[str, Any]] = [
    checked(route, ROUTE_KEYS, f"texts/travel_world.json, route {i}") for i, route in enumerate(_WORLD["routes"])
]
# The maps are keyed by the routes' currencies and cities: one entry for each, so a misspelt city or currency is
# refused here rather than read as a default or left unused.
USD_RATES: dict[str, float] = checked(
    _WORLD["usd_rates"], {r["cur"][0] for r in ROUTES}, "texts/travel_world.json, usd_rates (one per currency)"
)
WHOLE_UNIT = {"JPY", "ISK", "COP", "KRW"}  # currencies quoted without decimals
TRAVELERS: list[str] = _WORLD["travelers"]
COUNTRY: dict[str, str] = checked(
    _WORLD["country"], {r["d"][0] for r in ROUTES}, "texts/travel_world.json, country (one per destination)"
)
ORIGIN_HIGH: dict[str, int] = checked(
    _WORLD["origin_high"], {r["o"][0] for r in ROUTES}, "texts/travel_world.json, origin_high (one per origin)"
)
CONDITIONS_DRY: list[str] = _WORLD["conditions_dry"]
CONDITIONS_WET: list[str] = _WORLD["conditions_wet"]
DEPARTURES: list[str] = _WORLD["departures"]
CONF_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
# What the agent and the traveller say: str.format templates (see the file's "_how", which is not read). Each turn
# module checks its own section's keys.
TURN_SECTIONS = {"search", "book", "search_book", "summary", "weather", "convert", "hotel", "weather_book"}
TURN_TEXTS: dict[str, Any] = load_texts("travel_turns.json")
check_keys(
    TURN_TEXTS, TURN_SECTIONS | {"_how", "context", "channels"}, "texts/travel_turns.json",
    required=TURN_SECTIONS | {"context", "channels"},
)
MONTHS = [
    *("January", "February", "March", "April", "May", "June"),
    *("July", "August", "September", "October", "November", "December"),
]


def human_date(d: dt.date) -> str:
    return f"{MONTHS[d.month - 1]} {d.day}"


def pick(r: random.Random, templates: list[str], **names: Any) -> str:
    """One of the phrasings, chosen by ``r`` and filled in with ``names``."""
    return r.choice(templates).format(**names)


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

    def booking(self, fid: str) -> dict[str, Any]:
        """What ``book_flight`` returns for flight ``fid``: the trip's confirmation, passenger and seat."""
        return {"status": "confirmed", "confirmation": self.conf, "flight_id": fid, "passenger": self.name,
                "seat": self.seat}

    def booked_flight(self, f: dict[str, Any]) -> None:
        """Record flight ``f`` as booked: its number as said (unless a wrong one was said) and its fare."""
        self.booked = f
        self.said_fid = self.said_fid or f["flight_id"]
        self.amount = ("fare", float(f["price_usd"]))

    def search_params(self, day: dt.date | None = None) -> dict[str, Any]:
        return {"origin": self.o_code, "destination": self.d_code, "date": (day or self.day).isoformat()}



def finish(
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


