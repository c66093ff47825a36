"""Fact agreement from the parsing libraries (agentic_core.judges.facts): what counts as the same fact."""

from __future__ import annotations

import pytest

from agentic_core.judges.facts import FactAgreement, fact_agreement, text_facts


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
        ("March 14, 2025", "2025-03-14", "date"),  # dateparser
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
