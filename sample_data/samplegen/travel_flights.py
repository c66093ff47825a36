"""The travel agent's flight turns: search, book, search-and-book, and the trip recap."""

from __future__ import annotations

import datetime as dt
from typing import Any

from .common import call, expect, uses_flag
from .travel_world import DEPARTURES, Trip, conf_code, finish, flights_for, human_date, mutate_code


def turn_search(t: Trip, n: int, fault: str | None, verbose: bool) -> dict[str, Any]:
    r = t.r
    f = t.cheap
    q = r.choice(
        [
            f"I need to get from {t.o_city} to {t.d_city} on {t.date_h}. What's the cheapest flight?",
            f"Can you find me the cheapest flight from {t.o_code} to {t.d_code} on {t.date_h}?",
            f"Look up flights from {t.o_city} to {t.d_city} for {t.date_h}, please. I'd like the lowest fare.",
            f"Hi! I'm planning a trip to {t.d_city}. What's the cheapest way to fly there from {t.o_city} "
            f"on {t.date_h}?",
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
    return finish(t, n, q, ans, gt, used, exp, False, flag, correct, verbose)


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
    return finish(t, n, q, ans, gt, used, exp, False, flag, correct, verbose)


def turn_search_book(t: Trip, n: int, fault: str | None, verbose: bool) -> dict[str, Any]:
    """Search, then book the earliest nonstop: two calls whose order matters."""
    r = t.r
    nonstop = [f for f in t.flights if f["stops"] == 0]
    f = min(nonstop, key=lambda x: x["depart"])
    fid = f["flight_id"]
    q = r.choice(
        [
            f"Find the earliest nonstop from {t.o_city} to {t.d_city} on {t.date_h} and book it for {t.name}.",
            f"Book {t.name} on the first nonstop flight from {t.o_code} to {t.d_code} on {t.date_h}, "
            "whatever it costs.",
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
    return finish(t, n, q, ans, gt, used, exp, True, flag, correct, verbose)


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
    return finish(t, n, q, ans, gt, used, exp, False, flag, correct, verbose)

