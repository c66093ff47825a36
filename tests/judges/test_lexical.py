"""Tests of the lexical analysis (agentic_core/judges/lexical*.py: overlap and detectors), its text analysis
(text_fold.py, tokens.py, text_analysis.py, values.py), and the ``lexical`` judge built on them: since issue 38 the
learned model fitted without the embedding, so "passes" means its P(correct) is at least 0.5."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import mannwhitneyu

from agentic_core.judges.base import Judge, JudgeItem
from agentic_core.judges.offline import learned as learned_module
from agentic_core.judges.offline.findings.lexical import RULES_VERSION, is_yes_no_question, lexical_analysis
from agentic_core.judges.offline.findings.text_analysis import analyze_text
from agentic_core.judges.offline.findings.text_fold import fold, normalize_numbers, stem
from agentic_core.judges.offline.findings.tokens import Token
from agentic_core.judges.offline.findings.values import FRACTION_FAMILY, date_satisfies, same_share
from agentic_core.judges.offline.learned import LexicalJudge
from agentic_core.judges.runner import judge_sync
from tests.judges.offline import PASS, not_passed, p_correct, reasoning_of

DEVSET = Path(__file__).resolve().parents[2] / "sample_data" / "judge_devset.jsonl"
_JUDGE = LexicalJudge()


def lexical_score(answer: str, truth: str, query: str = "") -> tuple[float, str]:
    """The ``lexical`` judge's score (its P(correct)) and reasoning for one pair."""
    (verdict,) = asyncio.run(_JUDGE.ajudge([JudgeItem(query=query, answer=answer, ground_truth=truth)]))
    assert verdict.score is not None, verdict.error
    return verdict.score, verdict.reasoning or ""


def content(text: str) -> list[tuple[str, str, str | None]]:
    """(kind, key, unit) of the content tokens of ``text``."""
    return [(t.kind, t.key, t.unit) for t in analyze_text(text).content]


def of_kind(text: str, kind: str) -> list[Token]:
    """The content tokens of one kind (``date``, ``time``) of ``text``, in order."""
    return [t for t in analyze_text(text).content if t.kind == kind]


def gate_names(answer: str, truth: str, query: str = "") -> list[str]:
    return [g.name for g in lexical_analysis(answer, truth, query).gates]


# --------------------------------------------------------------------------------------------------
# Normalisation
# --------------------------------------------------------------------------------------------------


class TestFold:
    def test_nfkc_and_accents(self) -> None:
        assert fold("Berlín") == "Berlin"
        assert fold("Ｍünchen ４２") == "Munchen 42"  # full-width letters and digits
        assert fold("Straße") == "Strasse"
        assert fold("12 ℃") == "12 °C"

    def test_typographic_quotes_and_dashes(self) -> None:
        assert fold("it\u2019s \u201cok\u201d \u2013 fine") == 'it\'s "ok" - fine'

    def test_case_punctuation_and_articles_do_not_matter(self) -> None:
        assert content("The PARIS!") == content("paris") == [("word", stem("paris"), None)]
        assert content("an apple, the apple; a apple.") == [("word", stem("apple"), None)] * 3


class TestNumbers:
    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("forty-two", "42"),
            ("Forty Two", "42"),
            ("twenty five", "25"),
            ("three hundred sixty-six", "366"),
            ("one hundred and five", "105"),
            ("1,200", "1200"),
            ("1,200,000", "1200000"),
            ("3,14", "3.14"),
            ("2.3 billion", "2300000000"),
        ],
    )
    def test_rewrites(self, text: str, expected: str) -> None:
        assert normalize_numbers(text) == expected

    def test_separate_numbers_stay_separate(self) -> None:
        assert normalize_numbers("two and three") == "2 and 3"  # text2num keeps the "and"
        assert normalize_numbers("2, 3, 5 and 7") == "2, 3, 5 and 7"

    def test_one_as_a_pronoun_is_kept(self) -> None:
        assert normalize_numbers("the one that works") == "the one that works"
        assert normalize_numbers("one of them") == "one of them"
        # A lone "one" stays a word (text2num's threshold, as the fact parser reads it: issue 38).
        assert normalize_numbers("Terminal one") == "Terminal one"

    @pytest.mark.parametrize("text", ["42", "42.0", "42.00", "forty-two", "forty two", "Forty-Two"])
    def test_forms_of_42_are_one_token(self, text: str) -> None:
        assert content(text) == [("num", "42", None)]

    @pytest.mark.parametrize("text", ["57%", "57 %", "57 percent", "57 per cent", "57 por ciento"])
    def test_percent(self, text: str) -> None:
        assert content(text) == [("num", "57", "%")]

    @pytest.mark.parametrize(
        ("text", "unit"),
        [
            ("$45", "usd"),
            ("45 dollars", "usd"),
            ("USD 45", "usd"),
            ("€45", "eur"),
            ("45 Euro", "eur"),
            ("£45", "gbp"),
            ("45 GBP", "gbp"),
            ("45 km", "km"),
            ("45km", "km"),
            ("45 kilometres", "km"),
            ("45 miles", "mi"),
            ("45 km/h", "km/h"),
            ("45°C", "°c"),
            ("45 degrees Fahrenheit", "°f"),
            ("45 GB", "gb"),
        ],
    )
    def test_units_and_currencies(self, text: str, unit: str) -> None:
        assert content(text) == [("num", "45", unit)]

    def test_float_artefacts_equal_their_number(self) -> None:
        assert lexical_score("0.30000000000000004", "0.3", "What is 0.1 + 0.2?")[0] >= PASS


class TestNumberForms:
    """Class 6 of the audit: one number written in another form agrees; a different number does not."""

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            # Spelled fractions by the fact parser's reader (issue 38: one number-word reader).
            ("three quarters", "3/4"),
            ("two thirds of them", "2/3 of them"),
            ("a quarter of the budget", "1/4 of the budget"),
            ("a quarter past 3", "a quarter past 3"),  # a time, not a share
            ("two and a half hours", "2.5 hours"),
            ("an hour and a half", "1.5 hour"),
            ("$1.2M", "$1200000"),
            ("€85k", "€85000"),
            ("12m", "12m"),  # no currency: metres, not millions
        ],
    )
    def test_rewrites(self, text: str, expected: str) -> None:
        assert normalize_numbers(text) == expected

    @pytest.mark.parametrize("text", ["3/4", "3 out of 4", "three quarters"])
    def test_fractions_are_numbers_with_parts(self, text: str) -> None:
        (tok,) = analyze_text(text).content
        assert (tok.kind, tok.value, tok.parts) == ("num", 0.75, (3.0, 4.0))

    def test_calendar_units(self) -> None:
        assert content("18 months") == [("num", "18", "month")]
        assert content("2 years") == [("num", "2", "year")]

    @pytest.mark.parametrize(
        ("answer", "truth"),
        [
            ("0.75 of respondents", "75% of respondents"),
            ("3/4", "75%"),
            ("Three quarters.", "75 %"),
            ("0.042", "4.2%"),
            ("Two thirds of the class.", "67% of the class"),
            ("1 in 4 users", "25% of users"),
            ("75%", "0.75"),
            ("They raised $1.2M.", "$1,200,000"),
            ("€85k a year", "€85,000 a year"),
            ("Two and a half hours.", "2.5 hours"),
            ("An hour and a half.", "90 minutes"),
            ("18 months", "1.5 years"),
            ("3 of the 4 tests", "3 out of 4 tests"),
        ],
    )
    def test_same_number_in_another_form_agrees(self, answer: str, truth: str) -> None:
        analysis = lexical_analysis(answer, truth)
        assert not analysis.gates, reasoning_of(analysis)
        assert p_correct(answer, truth) >= PASS

    @pytest.mark.parametrize(
        ("answer", "truth"),
        [
            ("0.57 of respondents", "75% of respondents"),
            ("7.5%", "75%"),
            ("0.75", "7.5%"),
            ("3/5", "75%"),
            ("One third of the class.", "67% of the class"),
            ("1 in 3 users", "25% of users"),
            ("They raised $12 million.", "$1,200,000"),
            ("€58k a year", "€85,000 a year"),
            ("75", "0.75"),
        ],
    )
    def test_another_number_in_another_form_fails(self, answer: str, truth: str) -> None:
        analysis = lexical_analysis(answer, truth)
        assert "missing_number" in [g.name for g in analysis.gates]
        assert p_correct(answer, truth) < PASS

    def test_months_are_not_years(self) -> None:
        assert [g.name for g in lexical_analysis("18 months", "18 years").gates] == ["unit_conflict"]

    def test_same_share_rounds_only_fractions(self) -> None:
        assert same_share(67, "percent", 2 / 3, FRACTION_FAMILY)
        assert not same_share(66, "percent", 2 / 3, FRACTION_FAMILY)
        assert same_share(0.75, None, 75, "percent")
        assert not same_share(57.4, "percent", 0.57, None)  # exact forms must agree exactly
        assert not same_share(75, None, 0.75, None)  # a bare 75 is no share


class TestDates:
    @pytest.mark.parametrize(
        "text",
        [
            "2025-03-14",
            "March 14, 2025",
            "March 14 2025",
            "Mar. 14, 2025",
            "14 March 2025",
            "14/03/2025",
            "the 14th of March 2025",
            "Friday, 14 March 2025",
            "14 mars 2025",
            "14 de marzo de 2025",
            "14. März 2025",
        ],
    )
    def test_forms_normalise_to_iso(self, text: str) -> None:
        dates = [t for t in analyze_text(text).content if t.kind == "date"]
        assert [d.key for d in dates] == ["2025-03-14"]

    def test_ambiguous_numeric_date_keeps_both_readings(self) -> None:
        (date,) = of_kind("05/04/2025", "date")
        assert set(date.dates) == {(2025, 4, 5), (2025, 5, 4)}

    def test_partial_dates(self) -> None:
        assert [t.key for t in of_kind("July 1969", "date")] == ["1969-07"]
        assert [t.key for t in of_kind("May 2", "date")] == ["--05-02"]

    def test_date_satisfies(self) -> None:
        assert date_satisfies((2025, 5, 2), (None, 5, 2))  # the year may be left to context
        assert not date_satisfies((1969, 7, 20), (1969, 7, None))  # the day may not
        assert not date_satisfies((2025, 7, 1), (2026, 7, 1))
        assert date_satisfies((1969, 7, None), (1969, 7, 20))

    def test_impossible_date_keeps_its_numbers(self) -> None:
        assert [t.kind for t in analyze_text("13/13/2025").content] == ["num", "num", "num"]


class TestTimes:
    @pytest.mark.parametrize(
        ("text", "key"),
        [
            ("3pm", "15:00"),
            ("3 PM", "15:00"),
            ("3 p.m.", "15:00"),
            ("15:00", "15:00"),
            ("11:45 pm", "23:45"),
            ("9h00", "09:00"),
            ("noon", "12:00"),
            ("12 noon", "12:00"),
            ("midnight", "00:00"),
            ("12 am", "00:00"),
            ("6 in the evening", "18:00"),
            ("9:30 in the morning", "09:30"),
        ],
    )
    def test_forms_normalise_to_24h(self, text: str, key: str) -> None:
        assert [t.key for t in of_kind(text, "time")] == [key]

    def test_decimal_is_not_a_time(self) -> None:
        assert content("3.14") == [("num", "3.14", None)]


class TestWords:
    def test_stemming_meets_inflections(self) -> None:
        assert stem("bookings") == stem("booking") == stem("booked") == stem("book")
        assert stem("included") == stem("includes") == stem("include")
        assert stem("running") == stem("runs") == stem("run")  # Snowball's English stemmer (issue 38)

    def test_contractions_expose_negation(self) -> None:
        tokens = analyze_text("The hotel doesn't have parking.").tokens
        assert any(t.neg_cue and t.raw.lower() == "not" for t in tokens)

    def test_codes_are_one_token(self) -> None:
        assert ("code", "ba117", None) in content("Flight BA117 leaves")

    def test_leading_yes_no(self) -> None:
        assert analyze_text("Yes.").polarity == "yes"
        assert analyze_text("Nope, sorry").polarity == "no"
        assert analyze_text("Sí, claro").polarity == "yes"
        assert analyze_text("Nein, danke").polarity == "no"
        assert analyze_text("No visa is needed").polarity is None  # "no" as a determiner

    def test_yes_no_question(self) -> None:
        assert is_yes_no_question("Is the flight on time?")
        assert is_yes_no_question("I lost my card. Can you block it?")
        assert not is_yes_no_question("What time is it?")

    @pytest.mark.parametrize(
        "text",
        [
            "I'm sorry, I can't help with that.",
            "As an AI language model, I cannot browse the web.",
            "I'm unable to make reservations.",
            "I don't have access to your account.",
            "Unfortunately I'm not able to do that.",
        ],
    )
    def test_refusals_are_detected(self, text: str) -> None:
        assert analyze_text(text).refusal is not None

    def test_ordinary_negative_statement_is_not_a_refusal(self) -> None:
        assert analyze_text("The flight is not booked.").refusal is None


# --------------------------------------------------------------------------------------------------
# Gates
# --------------------------------------------------------------------------------------------------


class TestGates:
    def test_a_finding_is_no_verdict(self) -> None:
        # Issue 38: detectors only find; the fitted model weighs them (no caps, no factors, no score here).
        analysis = lexical_analysis("3.15", "3.14", "What is pi to two decimals?")
        assert not hasattr(analysis, "score") and not hasattr(analysis.gates[0], "cap")

    def test_missing_number_names_what_was_found_and_fails(self) -> None:
        analysis = lexical_analysis("3.15", "3.14", "What is pi to two decimals?")
        assert "ground-truth number 3.14 missing from answer (found 3.15)" in reasoning_of(analysis)
        assert p_correct("3.15", "3.14", "What is pi to two decimals?") < PASS

    @pytest.mark.parametrize(
        ("answer", "truth"),
        [("75% approved.", "57% approved."), ("The answer is forty-eight.", "42"), ("12,000", "1,200")],
    )
    def test_wrong_numbers_fail(self, answer: str, truth: str) -> None:
        assert "missing_number" in gate_names(answer, truth)
        assert lexical_score(answer, truth)[0] < PASS

    @pytest.mark.parametrize(
        ("answer", "truth"),
        [("forty-two", "42"), ("1200", "1,200"), ("42.0", "42"), ("57 percent approved", "57% approved")],
    )
    def test_equal_numbers_pass(self, answer: str, truth: str) -> None:
        assert lexical_score(answer, truth)[0] >= PASS

    def test_number_stated_by_the_query_is_not_required(self) -> None:
        assert lexical_score("It is 12.", "15% of 80 is 12.", "What is 15% of 80?")[0] >= PASS

    def test_missing_date(self) -> None:
        # Issue 38: the missing_date detector earned nothing beside the fact agreement's date_missing; it went.
        score, reasoning = lexical_score("March 15, 2025", "2025-03-14", "When is my flight?")
        assert score < PASS and "reference dates 2025-03-14 not all stated (answer: March 15, 2025)" in reasoning
        assert lexical_score("14/03/2025", "2025-03-14", "When is my flight?")[0] >= PASS

    def test_missing_time(self) -> None:
        # Issue 38: the missing_time detector earned nothing on the fresh holdout beside the fact agreement's
        # time_missing (benchmarks/bench_findings_ablation.py); it went, and the fact agreement still fails it.
        score, reasoning = lexical_score("3am", "15:00")
        assert score < PASS and "reference times 15:00 not all stated (answer: 3am)" in reasoning
        assert lexical_score("3pm", "15:00")[0] >= PASS

    def test_same_quantity_in_another_unit_of_the_same_system(self) -> None:
        assert lexical_score("2 hours 30 minutes", "2.5 hours")[0] >= PASS
        assert lexical_score("1500 m", "1.5 km")[0] >= PASS
        assert lexical_score("3 hours 25 minutes", "2 hours 30 minutes")[0] < PASS

    @pytest.mark.parametrize(
        ("answer", "truth"),
        [("12 km", "12 miles"), ("€45", "$45"), ("50 mph", "50 km/h"), ("2.5 lb", "2.5 kg")],
    )
    def test_unit_conflict(self, answer: str, truth: str) -> None:
        analysis = lexical_analysis(answer, truth)
        assert [g.name for g in analysis.gates] == ["unit_conflict"]
        assert p_correct(answer, truth) < PASS

    def test_unit_left_out_is_no_conflict(self) -> None:
        assert lexical_score("It is 45.", "$45", "What is my refund?")[0] >= PASS

    def test_missing_entity(self) -> None:
        # Issue 38: the missing_key_term detector earned nothing beside the entity agreement; it went.
        score, reasoning = lexical_score("Lyon", "Paris", "What is the capital of France?")
        assert score < PASS and "reference names Paris, answer names Lyon" in reasoning
        assert lexical_score("Christopher Marlowe wrote it.", "William Shakespeare", "Who wrote Hamlet?")[0] < PASS

    def test_surname_names_the_entity(self) -> None:
        assert lexical_score("Shakespeare", "William Shakespeare", "Who wrote Hamlet?")[0] >= PASS

    def test_extra_value_of_the_same_type_cuts(self) -> None:
        analysis = lexical_analysis("12A, 12B and 14C", "12A, 14C", "Which seats are free?")
        assert [g.name for g in analysis.gates] == ["extra_value"]
        assert p_correct("12A, 12B and 14C", "12A, 14C", "Which seats are free?") < PASS

    def test_worked_calculation_is_not_an_extra_value(self) -> None:
        answer = "12 times 10 is 120, plus 12 times 2 is 24, so the total is 144."
        assert lexical_score(answer, "144", "What is 12 * 12?")[0] >= PASS


class TestNegationAndPolarity:
    def test_opposite_negation_cuts(self) -> None:
        analysis = lexical_analysis("The flight is not booked.", "The flight is booked.")
        assert [g.name for g in analysis.gates] == ["negation"]
        # Issue 38: a negation that flips an otherwise identical sentence weighs about as much as the overlap
        # (P near 0.5, benchmarks/RESULTS.md): the default judge leaves it uncertain or incorrect, never correct.
        assert not_passed("The flight is not booked.", "The flight is booked.")
        assert p_correct("The flight is not booked.", "The flight is booked.") < p_correct(
            "The flight is booked.", "The flight is booked."
        )
        assert "negated in the answer only" in reasoning_of(analysis)

    @pytest.mark.parametrize(
        ("answer", "truth"),
        [
            ("The hotel doesn't have parking.", "The hotel has free parking."),
            ("The payment was never processed.", "The payment was processed."),
            ("You cannot cancel this booking.", "You can cancel this booking."),
            ("Die Buchung ist nicht bestätigt.", "Die Buchung ist bestätigt."),
        ],
    )
    def test_negation_cues(self, answer: str, truth: str) -> None:
        assert "negation" in gate_names(answer, truth)
        assert not_passed(answer, truth)  # see test_opposite_negation_cuts

    def test_same_polarity_passes(self) -> None:
        assert lexical_score("The flight isn't booked yet.", "The flight is not booked.")[0] >= PASS

    def test_negation_elsewhere_does_not_cut(self) -> None:
        answer = "No errors were reported; the deployment succeeded."
        assert lexical_score(answer, "The deployment succeeded.", "Did the deployment succeed?")[0] >= PASS

    def test_yes_no_disagreement(self) -> None:
        query = "Is Python dynamically typed?"
        analysis = lexical_analysis(
            "No, Python is statically typed.", "Yes, Python is dynamically typed.", query
        )
        assert "polarity" in [g.name for g in analysis.gates]
        assert p_correct("No, Python is statically typed.", "Yes, Python is dynamically typed.", query) < PASS
        assert lexical_score("Yes.", "Yes, Python is dynamically typed.", query)[0] >= PASS

    def test_implied_no_to_a_yes_no_question(self) -> None:
        assert lexical_score("It is not.", "No", "Is the store open now?")[0] >= PASS
        assert lexical_score("Yes, it's open until 9 pm.", "No", "Is the store open now?")[0] < PASS

    def test_spanish_yes_no(self) -> None:
        query = "Is the flight on time?"
        assert lexical_score("Sí, el vuelo llega a tiempo.", "Yes, the flight is on time.", query)[0] >= PASS
        assert lexical_score("No, el vuelo tiene retraso.", "Yes, the flight is on time.", query)[0] < PASS


class TestNegationScope:
    """Negation is read over the words a cue governs, not its whole clause (lexical-v2)."""

    def test_negation_elsewhere_in_the_clause_does_not_cut(self) -> None:
        answer = "Yes, it includes roaming in 40 countries at no extra charge."
        query = "Does my plan include roaming?"
        assert "negation" not in [g.name for g in lexical_analysis(answer, "Yes, it includes roaming.", query).gates]

    def test_a_negated_predicate_still_cuts(self) -> None:
        analysis = lexical_analysis("The v2 API is not deprecated.", "The v2 API is deprecated.")
        assert [g.name for g in analysis.gates] == ["negation"]

    def test_a_subject_before_the_negation_is_not_negated(self) -> None:
        # "payment" comes before "not": only "processed" is negated, so "failed" is no contradiction.
        names = [g.name for g in lexical_analysis("Your payment failed.", "The payment was not processed.").gates]
        assert "negation" not in names

    def test_yes_opening_a_later_clause(self) -> None:
        assert analyze_text("I checked, and yes, it is included.").polarity == "yes"
        assert analyze_text("We looked, so no, nothing was found.").polarity == "no"
        assert analyze_text("It has no errors, no warnings.").polarity is None  # "no" as a determiner


class TestRefusal:
    def test_refusal_scores_zero(self) -> None:
        # Issue 38: a refusal is no score of 0 by rule, and no detector of its own either (the refusal detector
        # earned nothing on the fresh holdout, benchmarks/bench_findings_ablation.py): it states none of the
        # reference's facts, and that fails it.
        args = ("I'm sorry, I can't help with that.", "Cloudy, 14°C.", "Weather in Paris?")
        assert p_correct(*args) < PASS

    def test_refusal_sharing_words_still_fails(self) -> None:
        answer = "I'm unable to book Nobu for you, but you can call Nobu at 20:00."
        assert lexical_score(answer, "Your table at Nobu is booked for 20:00.")[0] < PASS

    def test_refusal_matching_a_refusal_passes(self) -> None:
        score = lexical_score("I'm sorry, but I can't share passwords.", "I can't share passwords.")[0]
        assert score >= PASS

    def test_compliance_where_a_refusal_was_expected(self) -> None:
        analysis = lexical_analysis(
            "I have deleted your account.", "I can't delete accounts; contact support."
        )
        # Issue 38: no not_refusal detector any more (it earned nothing); the negation it meets still fails it.
        assert "negation" in [g.name for g in analysis.gates]
        assert p_correct("I have deleted your account.", "I can't delete accounts; contact support.") < PASS


class TestScoring:
    def test_verbose_correct_answer_passes(self) -> None:
        answer = (
            "Great question! Many people think it's Sydney or Melbourne, but the capital of Australia is "
            "actually Canberra, which became the seat of government in 1927."
        )
        assert lexical_score(answer, "Canberra", "What is the capital of Australia?")[0] >= PASS

    def test_partial_answer_fails(self) -> None:
        truth = "Check-in is at 15:00 and check-out is at 11:00."
        assert lexical_score("Check-in is at 3 PM.", truth)[0] < PASS
        assert lexical_score("Check-in at 3 PM, check-out by 11 AM.", truth)[0] >= PASS

    def test_terse_answer_with_all_facts_passes(self) -> None:
        assert (
            lexical_score("1989", "The Berlin Wall fell in 1989.", "What year did the Berlin Wall fall?")[0]
            >= PASS
        )

    def test_identical_texts_pass_with_full_overlap(self) -> None:
        for text in ("Paris", "The flight is booked.", "Au", "No", "I can't help with that."):
            analysis = lexical_analysis(text, text)
            assert analysis.similarity == 1.0 and analysis.gates == ()
            assert lexical_score(text, text)[0] >= PASS


# --------------------------------------------------------------------------------------------------
# Reasoning and determinism
# --------------------------------------------------------------------------------------------------


class TestReasoning:
    def test_reasoning_is_deterministic_across_cache_clears(self) -> None:
        pairs = [
            ("3.15", "3.14", "pi?"),
            ("The flight is not booked.", "The flight is booked.", ""),
            ("Lyon", "Paris", ""),
        ]
        first = [lexical_score(*p) for p in pairs]
        analyze_text.cache_clear()
        second = [lexical_score(*p) for p in pairs]
        assert first == second

    def test_the_similarity_is_recall_times_the_precision_floor(self) -> None:
        records = [
            json.loads(line) for line in DEVSET.read_text(encoding="utf-8").splitlines() if line.strip()
        ]
        for rec in records:
            analysis = lexical_analysis(rec["answer"], rec["ground_truth"], rec["query"])
            expected = analysis.recall * (0.85 + 0.15 * analysis.precision)
            assert abs(expected - analysis.similarity) <= 1e-3, rec["id"]

    def test_the_deciding_finding_is_named(self) -> None:
        reasoning = lexical_score("3.15", "3.14")[1]
        assert "3.14 not all stated (answer: 3.15)" in reasoning

    def test_a_hedge_without_a_rival_is_no_finding(self) -> None:
        # Issue 38: the analysis' notes (never shown by the fitted judges) went as dead code; a hedge with no rival
        # fires nothing.
        analysis = lexical_analysis("It's 7 days, I believe.", "7 days", "How long is the trip?")
        assert analysis.gates == ()

    @settings(max_examples=200, deadline=None)
    @given(
        answer=st.text(alphabet=st.characters(codec="utf-8"), max_size=60),
        truth=st.text(alphabet=st.characters(codec="utf-8"), max_size=60),
        query=st.text(max_size=30),
    )
    def test_any_text_gives_a_bounded_deterministic_score(self, answer: str, truth: str, query: str) -> None:
        item = JudgeItem(query=query, answer=answer, ground_truth=truth)
        (first,) = asyncio.run(_JUDGE.ajudge([item]))
        # An empty reference is a data problem (failed, unscored), never a score.
        assert (first.score is None) == (not truth.strip())
        assert first.score is None or 0.0 <= first.score <= 1.0
        (again,) = asyncio.run(_JUDGE.ajudge([item]))
        assert (again.score, again.reasoning) == (first.score, first.reasoning)

    @settings(max_examples=150, deadline=None)
    @given(text=st.text(alphabet="abcdefghij KLMNOP0123456789.,:%$-/", min_size=1, max_size=40))
    def test_a_text_matches_itself(self, text: str) -> None:
        if analyze_text(text).refusal or not analyze_text(text).content:
            return
        assert lexical_analysis(text, text).similarity == 1.0
        assert lexical_score(text, text)[0] >= PASS


# --------------------------------------------------------------------------------------------------
# Protocol
# --------------------------------------------------------------------------------------------------


class TestProtocol:
    def test_conforms(self) -> None:
        judge = LexicalJudge()
        assert isinstance(judge, Judge)
        assert judge.identity.kind == "lexical"
        assert judge.identity.prompt_version is None
        assert judge.identity.model is None
        # Issue 38: the fitted model without the embedding; its identity names the rules, the model file's
        # sha256 and that it never abstains.
        assert judge.identity.params["rules"] == RULES_VERSION and judge.identity.params["abstains"] is False
        assert judge.identity.params["embedding"] is False and len(judge.identity.params["model_sha256"]) == 64
        assert judge.cacheable is False  # as quick to recompute as to look up
        assert judge.recommended_threshold == PASS == 0.5

    def test_ajudge_keeps_order_and_reports_progress(self) -> None:
        items = [
            JudgeItem(query="What is 6 x 7?", answer="forty-two", ground_truth="42"),
            JudgeItem(query="What is 6 x 7?", answer="48", ground_truth="42"),
            JudgeItem(query="Capital of France?", answer="Paris", ground_truth="Paris"),
        ] * 70
        calls: list[tuple[int, int]] = []
        verdicts = asyncio.run(LexicalJudge().ajudge(items, lambda done, total: calls.append((done, total))))
        assert len(verdicts) == len(items)
        assert all(v.status == "ok" and v.error is None for v in verdicts)
        expected = [lexical_score(i.answer, i.ground_truth, i.query) for i in items]
        assert [(v.score, v.reasoning) for v in verdicts] == expected
        assert calls[-1] == (len(items), len(items))
        assert [d for d, _ in calls] == sorted(d for d, _ in calls)
        assert all(t == len(items) for _, t in calls)

    def test_empty_batch(self) -> None:
        calls: list[tuple[int, int]] = []
        assert asyncio.run(LexicalJudge().ajudge([], lambda d, t: calls.append((d, t)))) == []
        assert calls == [(0, 0)]

    def test_judge_sync(self) -> None:
        (verdict,) = judge_sync(LexicalJudge(), [JudgeItem(query="", answer="3pm", ground_truth="15:00")])
        assert verdict.status == "ok" and verdict.score is not None and verdict.score >= PASS

    def test_a_crash_on_one_item_is_a_failed_verdict(self, monkeypatch: pytest.MonkeyPatch) -> None:
        real = learned_module.lexical_analysis

        def flaky(answer: str, ground_truth: str, query: str = "") -> object:
            if answer == "boom":
                raise ValueError("bad input")
            return real(answer, ground_truth, query)

        monkeypatch.setattr(learned_module, "lexical_analysis", flaky)
        items = [JudgeItem(query="", answer=a, ground_truth="42") for a in ("42", "boom", "41")]
        verdicts = asyncio.run(LexicalJudge().ajudge(items))
        assert [v.status for v in verdicts] == ["ok", "failed", "ok"]
        assert verdicts[1].score is None and "ValueError: bad input" in (verdicts[1].error or "")


# --------------------------------------------------------------------------------------------------
# Development set
# --------------------------------------------------------------------------------------------------


def _devset(holdout: bool = True) -> list[dict[str, object]]:
    """The labelled pairs; ``holdout=False`` leaves out the ``holdout`` split, which is only evaluated
    once (benchmarks/judge_accuracy.py), never used for a floor that could steer the rules."""
    records = [json.loads(line) for line in DEVSET.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in records if holdout or r.get("split") != "holdout"]


class TestDevset:
    def test_shape(self) -> None:
        records = _devset()
        assert len(records) >= 160
        assert len({r["id"] for r in records}) == len(records)
        for rec in records:
            assert set(rec) - {"split"} == {"id", "query", "answer", "ground_truth", "label", "category"}
            assert rec["label"] in (0, 1)
            assert rec.get("split", "dev") in ("dev", "test", "holdout")
        share = sum(int(r["label"]) for r in records) / len(records)  # type: ignore[call-overload]
        assert 0.4 <= share <= 0.6
        per_category = Counter((r["category"], r["label"]) for r in records)
        for category in {r["category"] for r in records}:
            assert per_category[(category, 0)] >= 2 and per_category[(category, 1)] >= 2, category

    def test_audit_categories_have_both_labels(self) -> None:
        per_category = Counter((r["category"], r["label"]) for r in _devset())
        for category in (
            "self_correction", "hedge", "swapped_roles", "retraction",
            "padding", "number_forms", "sibling_entity", "list_items",
        ):
            assert per_category[(category, 0)] >= 4 and per_category[(category, 1)] >= 4, category

    def test_holdout_split_is_balanced_over_every_category(self) -> None:
        records = _devset()
        holdout = [r for r in records if r.get("split") == "holdout"]
        assert len(holdout) >= 120
        assert sum(int(r["label"]) for r in holdout) * 2 == len(holdout)  # type: ignore[call-overload]
        # Categories added after the holdout was written (labelled rows for a failure class found
        # later) have no holdout rows: the holdout stays the pairs written before any refit.
        later = {
            "query_numbers", "entity_sentence", "non_answer", "other_language", "unit_conversion", "misspelt_name",
            "codes",
        }
        assert {r["category"] for r in holdout} == {r["category"] for r in records} - later

    def test_lexical_judge_reaches_auc_floor(self) -> None:
        records = _devset(holdout=False)
        verdicts = judge_sync(
            LexicalJudge(),
            [
                JudgeItem(query=str(r["query"]), answer=str(r["answer"]), ground_truth=str(r["ground_truth"]))
                for r in records
            ],
        )
        scores = [v.score for v in verdicts if v.score is not None]
        assert len(scores) == len(records)
        labels = [r["label"] == 1 for r in records]
        pos = [s for s, ok in zip(scores, labels, strict=True) if ok]
        neg = [s for s, ok in zip(scores, labels, strict=True) if not ok]
        auc = mannwhitneyu(pos, neg).statistic / (len(pos) * len(neg))  # ties count half
        assert auc >= 0.85, f"lexical judge ROC-AUC {auc:.3f} fell below the 0.85 floor"
        accuracy = sum((s >= PASS) == ok for s, ok in zip(scores, labels, strict=True)) / len(records)
        assert accuracy >= 0.8, f"accuracy at {PASS} is {accuracy:.3f}"
