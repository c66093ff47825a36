"""The travel agent's stay turns: weather, currency conversion, hotels, and weather-then-book."""

from __future__ import annotations

import datetime as dt
from typing import Any

from .common import call, expect, uses_flag
from .travel_world import (
    CONDITIONS_DRY,
    CONDITIONS_WET,
    COUNTRY,
    INEXACT_RATES,
    MONTHS,
    ORIGIN_HIGH,
    USD_RATES,
    Trip,
    finish,
    fmt_converted,
    hotels_for,
    is_wet,
    money,
    weather_for,
)


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
    return finish(t, n, q, ans, gt, used, exp, False, flag, correct, verbose)


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
    return finish(t, n, q, ans, gt, used, exp, False, flag, correct, verbose)


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
    return finish(t, n, q, ans, gt, used, exp, False, flag, correct, verbose)


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
    return finish(t, n, q, ans, gt, used, exp, True, flag, correct, verbose)


