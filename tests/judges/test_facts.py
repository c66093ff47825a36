"""Fact agreement from the parsing libraries (agentic_core.judges.offline.facts): what counts as the same fact."""

from __future__ import annotations

import pytest

from agentic_core.judges.offline.fact_agreement import FactAgreement, fact_agreement
from agentic_core.judges.offline.facts import text_facts


def agree(answer: str, truth: str, query: str = "q") -> FactAgreement:
    return fact_agreement(query, answer, truth)


@pytest.mark.parametrize(
    ("answer", "truth", "kind"),
    [
        ("The trail is 5 km long.", "5000 m", "amount"),  # pint: units normalised
        ("About two and a half hours.", "2.5 hours", "amount"),
        ("The flight takes 2 hours 30 minutes.", "2.5 h", "amount"),
        ("Water boils at 212 degrees Fahrenheit.", "212°F", "amount"),
        ("$2.3 billion", "2.3 billion US dollars", "amount"),
        ("A leap year has three hundred sixty-six days.", "366", "number"),  # text2num
        ("Three quarters of the budget.", "75%", "number"),
        ("0.30000000000000004", "0.3", "number"),
        ("March 14, 2025", "2025-03-14", "date"),
        ("Chega a 14 de março de 2025.", "2025-03-14", "date"),  # Portuguese, as the tokenizer's other languages
        ("It landed on 20 July 1969.", "July 1969", "date"),  # the month the reference states
        ("It starts at 4:30 PM.", "16:30", "time"),
        ("Check-out is by 11 a.m.", "11:00", "time"),
    ],
)
def test_the_same_fact_written_two_ways_agrees(answer: str, truth: str, kind: str) -> None:
    assert text_facts(truth).keys[kind], f"{truth!r} states no {kind}"  # the fact was read at all
    result = agree(answer, truth)
    assert result.missing[kind] == 0.0 and result.conflict[kind] == 0.0, result.words


@pytest.mark.parametrize(
    ("answer", "truth", "kind"),
    [
        ("The trail is 5 m long.", "5 km", "amount"),
        ("It costs €20.", "$20", "amount"),
        ("50", "50%", "number"),
        ("The meeting is on 2025-03-15.", "March 14, 2025", "date"),
        ("It landed in June 1969.", "20 July 1969", "date"),
        ("3am", "15:00", "time"),
        ("It's two years, or 24 months.", "4 years", "amount"),  # "or" separates two amounts
    ],
)
def test_another_fact_of_the_kind_is_missing_and_conflicting(answer: str, truth: str, kind: str) -> None:
    result = agree(answer, truth)
    assert result.missing[kind] == 1.0 and result.conflict[kind] == 1.0
    assert kind in result.words[kind]  # the reasoning says what was expected and what was said


def test_a_number_only_the_question_states_is_no_evidence() -> None:
    # The example: the reference repeats the question's number, the answer states another.
    result = agree("The answer is 902.", "102.", "What is 102?")
    assert result.missing["number"] == 1.0 and result.conflict["number"] == 1.0
    assert "902" in result.words["number"]


def test_repeating_the_question_is_no_conflict_and_no_match() -> None:
    query = "When does flight 455 land?"
    right = agree("Flight 455 lands at 14:30.", "It lands at 14:30.", query)
    assert right.conflict == {"number": 0.0, "date": 0.0, "time": 0.0, "amount": 0.0}
    # The reference's own fact is the one expected, not the question's number.
    wrong = agree("Flight 455 lands soon.", "Flight 455 lands at 14:30.", query)
    assert wrong.missing["time"] == 1.0 and wrong.missing["number"] == 0.0


def test_a_share_of_the_facts_missing() -> None:
    result = agree("From 12 °C to 30 °C.", "Min 12°C, max 24°C.")
    assert result.missing["amount"] == pytest.approx(0.5)


@pytest.mark.parametrize(
    "text",
    [
        "Carry-on bags may weigh up to 7 kg.",  # "may" is not May
        "2,512 users signed up this week.",  # no date relative to today
        "75% approved.",  # not the year 1975
    ],
)
def test_words_the_date_parser_would_misread_are_no_date(text: str) -> None:
    assert not text_facts(text).keys["date"]


def test_ordinary_words_are_not_units_and_codes_not_numbers() -> None:
    facts = text_facts("Order 4521 has shipped; seats 14A and 14B.")
    assert facts.keys["amount"] == frozenset()  # "has" is not hectares
    assert facts.keys["number"] == frozenset({4521.0})  # 14A is a seat, not 14


# Issue 24 review: each case below failed before the fix it names.


@pytest.mark.parametrize(
    ("answer", "truth"),
    [
        # An ISO timestamp keeps its date ("\b" never matched before the "T"), and its time.
        ("It starts on 14 March 2025 at 23:30 UTC.", "2025-03-14T23:30:00Z"),
        # A time inside a date's words: cut by position, the date's day is no leftover number.
        ("It leaves on 12 Dec. Boarding closes at 14:30.", "It leaves on 12 Dec at 14:30."),
    ],
)
def test_a_time_inside_a_date_leaves_no_numbers_behind(answer: str, truth: str) -> None:
    facts = text_facts(truth)
    assert facts.keys["date"] and facts.keys["time"] and not facts.keys["number"], facts
    result = agree(answer, truth)
    assert not any(result.missing.values()) and not any(result.conflict.values()), result.words


@pytest.mark.parametrize(("answer", "truth"), [("5 µg", "50 µg"), ("5 mg", "5.4 mg"), ("5 ng", "6 ng")])
def test_small_amounts_keep_their_significant_figures(answer: str, truth: str) -> None:
    result = agree(answer, truth)
    assert result.missing["amount"] == 1.0 and result.conflict["amount"] == 1.0


def test_two_temperature_scales_are_two_readings() -> None:
    facts = text_facts("38 °C, 100 °F")
    assert len(facts.keys["amount"]) == 2 and facts.words["amount"] == ("38 °C", "100 °F")  # as written
    assert all(kelvin < 320 for _, kelvin in facts.keys["amount"])  # not summed to 622 K
    # One reading, in two scales: 100 °F is 37.8 °C, near (issue 38: "the same" is now within 1e-6, "near" 2%).
    both = agree("It was 38 °C.", "38 °C, 100 °F")
    assert both.missing["amount"] == both.near["amount"] == 0.5 and both.conflict["amount"] == 0.0


def test_feet_and_inches_are_one_amount_and_in_elsewhere_is_a_word() -> None:
    assert agree("He is 5 ft 11 in tall.", "71 inches").missing["amount"] == 0.0
    assert not text_facts("He is 5 ft 11 in tall.").keys["number"]  # the 11 is part of the height
    facts = text_facts("It opened 5 in 2010.")
    assert not facts.keys["amount"] and facts.keys["number"] == frozenset({5.0, 2010.0})


@pytest.mark.parametrize("said", ["25C", "25 C", "77F"])
def test_a_bare_c_or_f_after_a_number_is_degrees(said: str) -> None:
    assert agree(f"It is {said} outside.", "25 °C").missing["amount"] == 0.0
    (key,) = text_facts(said).keys["amount"]
    assert key[0] == "[temperature]"


@pytest.mark.parametrize(
    "text",
    ["1" * 320 + " and a half", "1" * 320 + " thirds", "1" * 5000, "9" * 400 + ".5 km", "$" + "9" * 400 + " billion"],
    ids=["and-a-half", "thirds", "5000-digits", "km", "billion"],
)
def test_long_digit_runs_are_no_fact_and_raise_nothing(text: str) -> None:
    facts = text_facts(text)
    values = [v for v in facts.keys["number"]] + [v for _, v in facts.keys["amount"]]
    assert all(abs(v) < 1e40 for v in values), facts  # finite, and never the 300-digit run itself


def test_a_long_number_on_both_sides_is_no_disagreement() -> None:
    same = "9" * 400
    result = agree(same, same)
    assert not any(result.missing.values()) and not any(result.conflict.values())


def test_an_infinite_value_agrees_with_nothing() -> None:
    from agentic_core.judges.offline.fact_agreement import _same

    assert not _same("number", float("inf"), 3.0) and not _same("amount", ("[length]", float("inf")), ("[length]", 1.0))


@pytest.mark.parametrize("text", ["No one came.", "One of them left.", "One thing matters."])
def test_one_as_a_pronoun_is_no_number(text: str) -> None:
    assert not text_facts(text).keys["number"]


def test_number_words_from_two_up_and_one_in_fractions_still_read() -> None:
    assert text_facts("twenty one people and three dogs").keys["number"] == frozenset({21.0, 3.0})
    one_third = agree("One third of the class passed.", "33%")  # read, and near (0.333 and 0.33)
    assert one_third.missing["number"] == one_third.near["number"] == 1.0 and not one_third.conflict["number"]


@pytest.mark.parametrize(
    "text",
    ["1" * 10_000, "1" * 10_000 + "x", "$" + "1" * 10_000 + " million", "Jan 5 " * 2_000, "12/03/2025 " * 1_000],
    ids=["digits", "code", "money", "month-dates", "numeric-dates"],
)
def test_any_input_is_read_in_linear_time(text: str) -> None:
    import time

    from agentic_core.judges.offline import facts

    facts.text_facts.cache_clear()
    start = time.perf_counter()
    facts.text_facts(text)
    assert time.perf_counter() - start < 1.5  # took 2-10 s before the digit caps and one linear scanner


def test_the_judge_identity_names_the_fact_parser() -> None:
    from agentic_core.judges.offline.facts import FACTS_VERSION, library_versions
    from agentic_core.judges.offline.learned import LearnedJudge

    params = LearnedJudge(use_embedding=False).identity.params
    assert params["facts"] == FACTS_VERSION
    assert params["fact_libraries"] == library_versions()
    assert all(f"{name} " in params["fact_libraries"] and "?" not in params["fact_libraries"] for name in ("pint",))


def test_a_date_states_its_day_and_year_as_numbers() -> None:
    # A date's own numbers still match the other side's bare 10.
    assert text_facts("It departs at 06:10 on June 10, 2025.").written >= {10.0, 2025.0}
    assert agree("It departs at 06:10 on June 10.", "Booked for the 10th, flight 10.").missing["number"] == 0.0


# Issue 38: the conversions, clock words, shares and precision the hand-written number checks used to cover.


@pytest.mark.parametrize(
    ("answer", "truth", "kind"),
    [
        ("Bake it at 392 °F.", "200 °C", "amount"),  # a temperature in the other scale (pint)
        ("It includes 1,000 GB.", "1 TB", "amount"),
        ("The contract runs for half a year.", "6 months", "amount"),
        ("It lasts an hour and a half.", "90 minutes", "amount"),
        ("It runs at 10 m/s.", "36 km/h", "amount"),
        ("It closes at 6 in the evening.", "18:00", "time"),
        ("Be there by quarter to 9.", "8:45", "time"),
        ("9 out of 10 tests passed.", "90% of tests passed.", "number"),
        ("1 in 4 users enabled it.", "25%", "number"),
    ],
)
def test_a_converted_or_spelled_out_fact_is_the_same_fact(answer: str, truth: str, kind: str) -> None:
    assert text_facts(truth).keys[kind], f"{truth!r} states no {kind}"
    result = agree(answer, truth)
    assert result.missing[kind] == 0.0 and result.conflict[kind] == 0.0, result.words


def test_a_speed_in_another_unit_is_another_speed() -> None:
    result = agree("The limit is 50 mph.", "50 km/h")
    assert result.missing["amount"] == 1.0 and result.conflict["amount"] == 1.0


def test_a_rounded_number_is_near_not_the_same() -> None:
    rounded = agree("Roughly 2.5 thousand signed up.", "2,512 signed up.")
    assert rounded.missing["number"] == 1.0 and rounded.near["number"] == 1.0 and not rounded.conflict["number"]
    far = agree("Roughly 3 thousand signed up.", "2,512 signed up.")
    assert far.near["number"] == 0.0 and far.conflict["number"] == 1.0


def test_an_answer_must_state_the_day_the_reference_states_but_may_leave_out_its_year() -> None:
    assert agree("It landed in July 1969.", "20 July 1969").missing["date"] == 1.0
    assert agree("You have until April 15.", "April 15, 2026").missing["date"] == 0.0


def test_another_value_beside_the_reference_one_is_an_extra() -> None:
    result = agree("The fee was $20 last year; it is $35 now.", "The fee is $20.")
    assert result.missing["amount"] == 0.0 and result.extra["amount"] == 1.0 and "$35" in result.words["amount"]
    assert agree("The fee is $20.", "$20").extra["amount"] == 0.0


def test_a_number_the_question_states_is_expected_only_against_another_number() -> None:
    query = "Was a refund issued for order 5512?"
    assert agree("Yes, it was.", "Yes, a refund was issued for order 5512.", query).missing["number"] == 0.0
    assert agree("Order 6120 got a refund.", "Yes, a refund was issued for order 5512.", query).missing["number"] == 1.0


def test_a_ratio_needs_a_part_no_larger_than_the_whole() -> None:
    assert text_facts("Open 24/7.").keys["number"] == frozenset({24.0, 7.0})
    assert text_facts("It opened 5 in 2010.").keys["number"] == frozenset({5.0, 2010.0})


def test_money_is_never_near_and_temperatures_are_near_by_the_degree() -> None:
    # Issue 38: a price a little off is another price; 2% of an absolute temperature would be 6 K.
    price = agree("The fare is $1,175.", "$1,196")
    assert price.near["amount"] == 0.0 and price.conflict["amount"] == 1.0
    assert agree("The fare is $1,196.", "$1,196").extra["amount"] == 0.0
    warm = agree("Highs of 22 °C.", "24 °C")
    assert warm.near["amount"] == 0.0 and warm.conflict["amount"] == 1.0
    assert agree("About 100 °F.", "38 °C").near["amount"] == 1.0  # 310.9 K and 311.2 K
