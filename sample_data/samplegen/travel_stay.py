"""The travel agent's stay turns: weather, currency conversion, hotels, and weather-then-book."""

from __future__ import annotations

import datetime as dt
from typing import Any

from .common import call, checked, expect, uses_flag
from .travel_world import (
    CONDITIONS_DRY,
    CONDITIONS_WET,
    COUNTRY,
    INEXACT_RATES,
    MONTHS,
    ORIGIN_HIGH,
    TURN_TEXTS,
    USD_RATES,
    Trip,
    finish,
    fmt_converted,
    hotels_for,
    is_wet,
    money,
    pick,
    weather_for,
)

# the keys each section of texts/travel_turns.json has, every one read below
SECTION_KEYS = {
    "weather": {"queries", "wet_query", "truth", "truth_umbrella", "umbrella", "answers", "verbose", "advice_wet",
                "advice_dry", "missing_call", "unused_absent", "extra_call"},
    "convert": {"queries", "corrected_query", "truth", "answers", "verbose", "missing_call", "unused"},
    "hotel": {"queries", "truth", "answers", "verbose", "made_up_hotel", "missing_call"},
    "weather_book": {"queries", "truth", "answers", "missing_weather", "negated"},
}
WEATHER, CONVERT, HOTEL, WEATHER_BOOK = (
    checked(TURN_TEXTS[k], keys, f"texts/travel_turns.json, {k}") for k, keys in SECTION_KEYS.items()
)


def _forecast(t: Trip, w: dict[str, Any], umbrella: bool) -> str:
    """One phrasing of the forecast ``w`` (with the umbrella advice when the traveller asked about one)."""
    tail = WEATHER["umbrella"].format(w=w) if umbrella else ""
    return pick(t.r, WEATHER["answers"], t=t, w=w, tail=tail)


def turn_weather(t: Trip, n: int, fault: str | None, verbose: bool) -> dict[str, Any]:
    r = t.r
    w = weather_for(t.route, t.d_city, t.day)
    wet = is_wet(w)
    qs = WEATHER["queries"] + ([WEATHER["wet_query"]] if wet else [])
    q = pick(r, qs, t=t)
    umbrella = wet and "umbrella" in q
    gt = WEATHER["truth"].format(t=t, w=w)
    if umbrella:
        gt += WEATHER["truth_umbrella"].format(w=w)
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
            advice = WEATHER["advice_wet"].format(w=w) if wet else WEATHER["advice_dry"]
            ans = WEATHER["verbose"].format(t=t, w=w, high_f=f_hi, advice=advice)
        else:
            ans = _forecast(t, w, umbrella)
    elif fault == "wrong_date":
        wrong_day = t.day + dt.timedelta(days=r.choice([-1, 1]))
        w2 = weather_for(t.route, t.d_city, wrong_day)
        if w2["condition"] == w["condition"] and w2["high_c"] == w["high_c"]:
            w2 = dict(w2, high_c=w2["high_c"] + 3)
        used = [call("get_weather", {"city": t.d_city, "date": wrong_day.isoformat()}, w2, 1)]
        ans = _forecast(t, w2, umbrella and is_wet(w2))
        correct = False
    elif fault == "missing_call":
        used, flag = [], False
        fake = r.choice([c for c in CONDITIONS_DRY + CONDITIONS_WET if c != w["condition"]])
        ans = WEATHER["missing_call"].format(t=t, fake=fake, high=w["high_c"] + r.choice([-5, 4, 6]))
        correct = False
    elif fault == "unused_absent":
        flag = None
        ans = WEATHER["unused_absent"].format(t=t, month=MONTHS[t.day.month - 1])
        correct = False
    elif fault == "extra_call":
        w0 = weather_for(dict(t.route, high=ORIGIN_HIGH[t.o_city]), t.o_city, t.day)
        used.append(call("get_weather", {"city": t.o_city, "date": t.iso}, w0, 2))
        ans = _forecast(t, w, umbrella) + WEATHER["extra_call"].format(t=t, w=w0)
    elif fault == "city_format":
        used[0]["parameters"]["city"] = f"{t.d_city}, {COUNTRY[t.d_city]}"
        ans = _forecast(t, w, umbrella)
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
    q = pick(r, CONVERT["queries"], t=t, amount=amt_s, what=what)
    if t.search_wrong:
        q = CONVERT["corrected_query"].format(t=t, amount=amt_s)
        t.search_wrong = False
    gt = CONVERT["truth"].format(t=t, amount=amt_s, converted=conv_s)
    tolerance = what == "hotel total" or r.random() < 0.4
    rules = {"amount": {"rule": "tolerance", "abs_tol": 0.01}} if tolerance else None
    exp = [expect("convert_currency", {"amount": amount, "from": "USD", "to": t.cur}, 1, rules=rules)]
    # with a tolerance rule the agent sometimes passes the unrounded float (e.g. 524.8499999999999)
    used_amount = amount_raw if tolerance and amount_raw != amount else amount
    result = {"amount": used_amount, "from": "USD", "to": t.cur, "rate": rate, "converted": conv}
    used = [call("convert_currency", {"amount": used_amount, "from": "USD", "to": t.cur}, result, 1)]
    flag: bool | None = True
    correct: bool = True

    def say(c_s: str) -> str:
        return pick(r, CONVERT["answers"], t=t, rate=rate, amount=amt_s, converted=c_s)

    if fault is None:
        if verbose:
            ans = CONVERT["verbose"].format(t=t, rate=rate, what=what, amount=amt_s, converted=conv_s)
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
        guess = fmt_converted(round(amount * stale, 2), t.cur)
        ans = CONVERT["missing_call"].format(t=t, amount=amt_s, converted=guess)
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
        guess = fmt_converted(round(amount * rate * 1.08, -1 if rate > 5 else 0), t.cur)
        ans = CONVERT["unused"].format(t=t, amount=amt_s, converted=guess)
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
    q = pick(r, HOTEL["queries"], t=t, nights=nights)
    gt = HOTEL["truth"].format(h=best, price=money(ppn), total=money(total), nights=nights)
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
        return pick(r, HOTEL["answers"], h=h, price=money(h["price_per_night"]), total=money(tot), nights=nn)

    if fault is None:
        if verbose:
            names = {"price": money(ppn), "total": money(total), "nights": nights, "count": len(hotels)}
            ans = HOTEL["verbose"].format(t=t, h=best, **names)
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
        t.said_hotel = HOTEL["made_up_hotel"].format(t=t)
        ans = HOTEL["missing_call"].format(t=t, price=int(ppn) + 40)
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
    q = pick(r, WEATHER_BOOK["queries"], t=t, fid=fid)
    gt = WEATHER_BOOK["truth"].format(t=t, w=w, fid=fid)
    result = t.booking(fid)
    wcall = call("get_weather", {"city": t.d_city, "date": t.iso}, w, 1)
    bcall = call("book_flight", {"flight_id": fid, "passenger": t.name}, result, 2)
    exp = [
        expect("get_weather", {"city": t.d_city, "date": t.iso}, 1),
        expect("book_flight", {"flight_id": fid, "passenger": t.name}, 2),
    ]
    used = [wcall, bcall]
    flag: bool | None = True
    correct: bool | str = True
    if fault is None:
        ans = pick(r, WEATHER_BOOK["answers"], t=t, w=w, fid=fid)
    elif fault == "wrong_order":
        used = [bcall, wcall]  # booked first, checked the weather afterwards
        ans = pick(r, WEATHER_BOOK["answers"], t=t, w=w, fid=fid)
    elif fault == "missing_weather":
        used = [bcall]
        ans = WEATHER_BOOK["missing_weather"].format(t=t, fid=fid)
        correct = "partial"
    elif fault == "negated":
        ans = WEATHER_BOOK["negated"].format(t=t, w=w, fid=fid)
        t.said_conf = None
        correct = False
    else:
        raise ValueError(fault)
    t.booked = f
    t.said_fid = fid
    t.amount = ("fare", float(f["price_usd"]))
    return finish(t, n, q, ans, gt, used, exp, True, flag, correct, verbose)


