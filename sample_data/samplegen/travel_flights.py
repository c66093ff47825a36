"""The travel agent's flight turns: search, book, search-and-book, and the trip recap."""

from __future__ import annotations

import datetime as dt
from typing import Any

from .common import call, checked, expect, uses_flag
from .travel_world import (
    DEPARTURES,
    TURN_TEXTS,
    Trip,
    conf_code,
    finish,
    flights_for,
    human_date,
    mutate_code,
    pick,
)

# the keys each section of texts/travel_turns.json has, every one read below
SECTION_KEYS = {
    "search": {"queries", "truth", "answers", "verbose", "nonstop", "one_stop", "unused", "missing_call"},
    "book": {"queries", "corrected_queries", "truth", "answers", "verbose", "negated", "wrong_conf", "missing_call"},
    "search_book": {"queries", "truth", "answers"},
    "summary": {"queries", "truth", "truth_hotel", "code", "no_code", "hotel", "answers"},
}
SEARCH, BOOK, SEARCH_BOOK, SUMMARY = (
    checked(TURN_TEXTS[k], keys, f"texts/travel_turns.json, {k}") for k, keys in SECTION_KEYS.items()
)


def turn_search(t: Trip, n: int, fault: str | None, verbose: bool) -> dict[str, Any]:
    r = t.r
    f = t.cheap
    q = pick(r, SEARCH["queries"], t=t)
    gt = SEARCH["truth"].format(t=t, f=f)

    def answer_for(fl: dict[str, Any], flights: list[dict[str, Any]], price: int | None = None) -> str:
        p = fl["price_usd"] if price is None else price
        return pick(r, SEARCH["answers"], t=t, f=fl, count=len(flights), price=p)

    exp = [expect("search_flights", t.search_params(), 1)]
    used = [call("search_flights", t.search_params(), t.flights, 1)]
    flag: bool | None = uses_flag(r)
    correct = True
    if fault is None:
        if verbose:
            stops = SEARCH["one_stop"] if f["stops"] else SEARCH["nonstop"]
            ans = SEARCH["verbose"].format(t=t, f=f, count=len(t.flights), stops=stops)
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
        ans = SEARCH["unused"].format(t=t, guess=guess, airline=t.route["air"][0][1])
        correct = False
    elif fault == "missing_call":
        used, flag = [], False
        fake = f"{t.route['air'][0][0]}{r.randint(100, 989)}"
        depart = r.choice(DEPARTURES)
        ans = SEARCH["missing_call"].format(
            t=t, airline=t.route["air"][0][1], fake=fake, depart=depart, price=int(t.route["fare"] * 0.9)
        )
        correct = False
    else:
        raise ValueError(fault)
    t.amount = ("fare", float(f["price_usd"]))
    t.search_wrong = not correct
    return finish(t, n, q, ans, gt, used, exp, False, flag, correct, verbose)


def turn_book(t: Trip, n: int, fault: str | None, verbose: bool) -> dict[str, Any]:
    r = t.r
    f = t.cheap
    fid = f["flight_id"]
    q = pick(r, BOOK["queries"], t=t, fid=fid)
    if t.search_wrong:
        q = pick(r, BOOK["corrected_queries"], t=t, f=f, fid=fid)
        t.search_wrong = False
    gt = BOOK["truth"].format(t=t, fid=fid)
    result = t.booking(fid)
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
    if fault is None:
        ans = BOOK["verbose"].format(t=t, f=f, fid=fid) if verbose else pick(r, BOOK["answers"], t=t, fid=fid)
    elif fault == "negated":
        ans = BOOK["negated"].format(t=t, fid=fid)
        t.said_conf = None
        correct = False
    elif fault == "wrong_conf":
        t.said_conf = mutate_code(t.conf, r)
        ans = BOOK["wrong_conf"].format(t=t, fid=fid)
        correct = False
    elif fault == "passenger_format":
        last, first = t.name.split()[-1], t.name.split()[0]
        used[-1]["parameters"]["passenger"] = (
            f"{last.upper()}/{first.upper()} MR" if r.random() < 0.5 else f"{last}, {first}"
        )
        ans = pick(r, BOOK["answers"], t=t, fid=fid)
    elif fault == "missing_call":
        used, flag = [], False
        t.said_conf = conf_code(r)
        ans = BOOK["missing_call"].format(t=t, fid=fid)
        correct = False
    else:
        raise ValueError(fault)
    t.booked_flight(f)
    return finish(t, n, q, ans, gt, used, exp, False, flag, correct, verbose)


def turn_search_book(t: Trip, n: int, fault: str | None, verbose: bool) -> dict[str, Any]:
    """Search, then book the earliest nonstop: two calls whose order matters."""
    r = t.r
    nonstop = [f for f in t.flights if f["stops"] == 0]
    f = min(nonstop, key=lambda x: x["depart"])
    fid = f["flight_id"]
    q = pick(r, SEARCH_BOOK["queries"], t=t)
    gt = SEARCH_BOOK["truth"].format(t=t, f=f, fid=fid)
    result = t.booking(fid)
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
        return pick(r, SEARCH_BOOK["answers"], t=t, f=fl, code=code)

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
    t.booked_flight(f)
    return finish(t, n, q, ans, gt, used, exp, True, flag, correct, verbose)


def turn_summary(t: Trip, n: int, fault: str | None, verbose: bool) -> dict[str, Any]:
    """A no-tool turn: recap what was established earlier (as the agent told it, so mistakes carry forward)."""
    r = t.r
    assert t.booked is not None
    fid = t.booked["flight_id"]
    q = pick(r, SUMMARY["queries"])
    hotel_gt = SUMMARY["truth_hotel"].format(t=t) if t.hotel else ""
    gt = SUMMARY["truth"].format(t=t, fid=fid, hotel=hotel_gt)

    def say(day_h: str, nights: int) -> str:
        said_fid = t.said_fid or fid
        code = SUMMARY["code"].format(t=t) if t.said_conf else SUMMARY["no_code"]
        hotel = SUMMARY["hotel"].format(t=t, nights=nights, day=day_h) if t.hotel else ""
        return pick(r, SUMMARY["answers"], t=t, fid=said_fid, day=day_h, code=code, hotel=hotel)

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
    return finish(t, n, q, ans, gt, used, exp, False, flag, correct, verbose)

