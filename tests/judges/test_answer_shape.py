"""Answers that do not stand by their facts: self-corrections, hedges, retractions and buried negations
(agentic_core/judges/offline/findings/answer_shape.py and claim_gates.py, through the lexical judge).

Each class has should-fail cases (the detector fires, and the fitted model puts the answer below its cut) and
should-pass neighbours (same shape, right final claim: no detector, at or above the cut). The sentences
here are written for these tests; the devset's own cases are scored by the benchmark.
"""

from __future__ import annotations

import pytest

from agentic_core.judges.offline.findings.answer_shape import alternative_groups, find_correction, hedge_cue
from agentic_core.judges.offline.findings.lexical import lexical_analysis
from agentic_core.judges.offline.findings.text_analysis import analyze_text
from tests.judges.offline import PASS, p_correct, reasoning_of


def gate_names(answer: str, truth: str, query: str = "") -> list[str]:
    return [g.name for g in lexical_analysis(answer, truth, query).gates]


# --------------------------------------------------------------------------------------------------
# Markers
# --------------------------------------------------------------------------------------------------


class TestFindCorrection:
    @pytest.mark.parametrize(
        ("answer", "marker", "after"),
        [
            ("It's 12. Wait, no, 15.", "Wait, no", "15."),
            ("Room 204. Correction: room 240.", "Correction", "room 240."),
            ("The fee is $10, or rather $12.", "or rather", "$12."),
            ("She arrives Monday. I mean Tuesday.", "I mean", "Tuesday."),
            ("Platform 4 - sorry, I misread, platform 6.", "sorry, I misread", "platform 6."),
            ("Approved. Hmm, make that rejected.", "make that", "rejected."),
        ],
    )
    def test_markers_split_the_final_claim(self, answer: str, marker: str, after: str) -> None:
        found = find_correction(answer)
        assert found is not None
        assert found.marker == marker
        assert found.after == after
        assert not found.withdraws

    @pytest.mark.parametrize(
        "answer",
        [
            "The ticket is valid. Scratch that, it expired.",
            "Delivered. Please disregard that - it is still in the depot.",
            "It worked. I take that back.",
        ],
    )
    def test_withdrawals(self, answer: str) -> None:
        found = find_correction(answer)
        assert found is not None and found.withdraws

    @pytest.mark.parametrize(
        "answer",
        [
            "Unplug it, wait ten seconds, then plug it back in.",  # "wait" is the instruction
            "Expect a 20-minute wait at the counter.",
            "Actually, the capital is Canberra.",  # nothing before the marker to correct
            "What I mean is that the price includes tax.",  # not where a clause starts
            "The correction factor is 1.2.",
        ],
    )
    def test_no_correction(self, answer: str) -> None:
        assert find_correction(answer) is None


class TestHedgeShape:
    def test_cues(self) -> None:
        assert hedge_cue(analyze_text("I think it's 7.")) == "think"
        assert hedge_cue(analyze_text("It could be 7.")) == "could"
        assert hedge_cue(analyze_text("Many people think it's Sydney.")) is None
        assert hedge_cue(analyze_text("The server could not find the page.")) is None
        assert hedge_cue(analyze_text("It is due on May 3.")) is None
        assert hedge_cue(analyze_text("About 100 °C.")) is None  # an approximation, not a guess

    def test_groups_need_an_or(self) -> None:
        (group,) = alternative_groups(analyze_text("Perhaps 6, 7 or 8."))
        assert [[t.raw for t in item] for item in group] == [["6"], ["7"], ["8"]]
        assert alternative_groups(analyze_text("Seats 6, 7 and 8.")) == []

    def test_rejected_candidates_are_left_out(self) -> None:
        assert alternative_groups(analyze_text("It is 7, not 6 or 8.")) == []

    def test_names_with_numbers_are_one_item(self) -> None:
        (group,) = alternative_groups(analyze_text("Either Gate 5 or Gate 9."))
        assert [" ".join(t.raw for t in item) for item in group] == ["Gate 5", "Gate 9"]


# --------------------------------------------------------------------------------------------------
# Class 1: self-correction that ends on a wrong value
# --------------------------------------------------------------------------------------------------


class TestSelfCorrection:
    @pytest.mark.parametrize(
        ("answer", "truth", "query"),
        [
            ("Your seat is 14C. Wait, no, 15C.", "Seat 14C", "What is my seat?"),
            ("It weighs 12 kg. Sorry, my mistake: 21 kg.", "12 kg", "How heavy is the parcel?"),
            ("The appointment is on 4 June. I mean 6 June.", "4 June", "When is my appointment?"),
            ("Check-in opens at 14:00, or rather 16:00.", "Check-in opens at 14:00.", "When does check-in open?"),
            ("The author is Jane Austen. Oh wait, it's Charlotte Bronte.", "Jane Austen", "Who wrote Emma?"),
            ("Forty guests. Actually, no - thirty.", "40 guests", "How many guests?"),
        ],
    )
    def test_final_wrong_value_fails(self, answer: str, truth: str, query: str) -> None:
        analysis = lexical_analysis(answer, truth, query)
        assert "self_correction" in [g.name for g in analysis.gates]
        assert p_correct(answer, truth, query) < PASS
        assert "[self_correction]" in reasoning_of(analysis)

    @pytest.mark.parametrize(
        ("answer", "truth", "query"),
        [
            ("Your seat is 15C. Wait, no, 14C.", "Seat 14C", "What is my seat?"),
            ("It weighs 21 kg. Sorry, my mistake: 12 kg.", "12 kg", "How heavy is the parcel?"),
            ("The appointment is on 6 June. I mean 4 June.", "4 June", "When is my appointment?"),
            ("Charlotte Bronte. Oh wait, no, it's Jane Austen.", "Jane Austen", "Who wrote Emma?"),
        ],
    )
    def test_final_right_value_passes(self, answer: str, truth: str, query: str) -> None:
        analysis = lexical_analysis(answer, truth, query)
        assert p_correct(answer, truth, query) >= PASS
        assert not {"self_correction", "extra_value"} & {g.name for g in analysis.gates}

    def test_an_actually_that_adds_is_no_correction(self) -> None:
        answer = "Ottawa. Actually, it became the capital in 1857 under Queen Victoria."
        analysis = lexical_analysis(answer, "Ottawa", "What is the capital of Canada?")
        assert analysis.gates == () and p_correct(answer, "Ottawa", "What is the capital of Canada?") >= PASS

    def test_an_update_that_adds_a_value_is_no_correction(self) -> None:
        answer = "Your flight leaves at 9:00. Update: boarding starts at 8:30."
        assert p_correct(answer, "The flight leaves at 9:00.", "When does my flight leave?") >= PASS


# --------------------------------------------------------------------------------------------------
# Class 2: a hedge listing several candidates
# --------------------------------------------------------------------------------------------------


class TestHedge:
    @pytest.mark.parametrize(
        ("answer", "truth", "query"),
        [
            ("Maybe 6, 7 or 8.", "7", "How many days is the trip?"),
            ("It's probably in 2017 or 2018.", "It opened in 2018.", "When did the museum open?"),
            ("Either Gate 5 or Gate 9, check the board.", "Gate 9", "Which gate?"),
            ("I think the meeting is at 10:00 or 11:00.", "The meeting is at 11:00.", "When is the meeting?"),
            ("It might be Lisbon or Porto.", "Lisbon", "Where is the conference?"),
        ],
    )
    def test_several_candidates_fail(self, answer: str, truth: str, query: str) -> None:
        analysis = lexical_analysis(answer, truth, query)
        assert "hedge" in [g.name for g in analysis.gates]
        assert p_correct(answer, truth, query) < PASS

    @pytest.mark.parametrize(
        ("answer", "truth", "query"),
        [
            ("It's 7 days, I believe.", "7", "How many days is the trip?"),
            ("Gate 9 (not Gate 5, that one is closed).", "Gate 9", "Which gate?"),
            ("The meeting is at 11:00, or 11 am if you prefer.", "The meeting is at 11:00.", "When is the meeting?"),
            ("The warranty runs 3 years, or 36 months.", "3 years", "How long is the warranty?"),
            ("Lisbon, or Lisboa as the locals write it.", "Lisbon", "Where is the conference?"),
        ],
    )
    def test_one_candidate_passes(self, answer: str, truth: str, query: str) -> None:
        analysis = lexical_analysis(answer, truth, query)
        assert "hedge" not in [g.name for g in analysis.gates]
        assert p_correct(answer, truth, query) >= PASS

    def test_a_truth_that_hedges_is_matched(self) -> None:
        assert "hedge" not in gate_names("Take 1 or 2 tablets.", "1 or 2 tablets", "How many tablets?")


# --------------------------------------------------------------------------------------------------
# Class 4: a retraction
# --------------------------------------------------------------------------------------------------


class TestRetraction:
    @pytest.mark.parametrize(
        ("answer", "truth", "query"),
        [
            (
                "Order shipped. Correction: the order has not shipped.",
                "Yes, the order has shipped.",
                "Has my order shipped?",
            ),
            (
                "The voucher is valid. Scratch that, it has expired.",
                "Yes, the voucher is valid.",
                "Is my voucher valid?",
            ),
            (
                "Your account is verified. I take that back - verification is still pending.",
                "Your account is verified.",
                "Is my account verified?",
            ),
            (
                "Yes, pets are allowed. Wait, no, they aren't allowed in this building.",
                "Yes, pets are allowed.",
                "Are pets allowed?",
            ),
            (
                "The transfer completed. Update: the bank did not complete the transfer.",
                "The transfer completed.",
                "Did the transfer complete?",
            ),
            (
                "Deposit returned. Actually, no deposit was returned.",
                "Your deposit was returned.",
                "Was my deposit returned?",
            ),
        ],
    )
    def test_withdrawn_or_negated_claim_fails(self, answer: str, truth: str, query: str) -> None:
        analysis = lexical_analysis(answer, truth, query)
        assert "retraction" in [g.name for g in analysis.gates]
        assert p_correct(answer, truth, query) < PASS
        assert "[retraction]" in reasoning_of(analysis)

    @pytest.mark.parametrize(
        ("answer", "truth", "query"),
        [
            (
                "The order has not shipped yet. Correction: the order shipped this morning.",
                "Yes, the order has shipped.",
                "Has my order shipped?",
            ),
            (
                "Yes, the voucher is valid; it does not expire until June.",
                "Yes, the voucher is valid.",
                "Is my voucher valid?",
            ),
            (
                "Pets are not allowed. Sorry, I misread the policy: pets are allowed.",
                "Yes, pets are allowed.",
                "Are pets allowed?",
            ),
        ],
    )
    def test_corrected_to_the_truth_passes(self, answer: str, truth: str, query: str) -> None:
        analysis = lexical_analysis(answer, truth, query)
        assert not {"retraction", "polarity", "negation"} & {g.name for g in analysis.gates}
        assert p_correct(answer, truth, query) >= PASS


# --------------------------------------------------------------------------------------------------
# Class 5 (part): a negation buried in padding that repeats the question
# --------------------------------------------------------------------------------------------------


class TestBuriedNegation:
    QUERY = "Is the museum open on Sunday?"
    TRUTH = "Yes, the museum is open on Sunday."

    def test_padding_around_a_no_fails(self) -> None:
        answer = (
            "The museum is a city landmark, the museum shop sells guides, and many visitors ask whether "
            "the museum is open on Sunday. This Sunday, however, the museum is not open because of a private event."
        )
        analysis = lexical_analysis(answer, self.TRUTH, self.QUERY)
        assert "buried_negation" in [g.name for g in analysis.gates]
        assert p_correct(answer, self.TRUTH, self.QUERY) < PASS

    @pytest.mark.parametrize(
        "answer",
        [
            "The museum is a city landmark, the museum shop sells guides, and yes, the museum is open on Sunday "
            "from 10:00; the cafe is not open on Sunday.",
            "Good news: the museum is open on Sunday. It is not open on public holidays, though.",
        ],
    )
    def test_padding_around_a_yes_passes(self, answer: str) -> None:
        analysis = lexical_analysis(answer, self.TRUTH, self.QUERY)
        assert "buried_negation" not in [g.name for g in analysis.gates]
