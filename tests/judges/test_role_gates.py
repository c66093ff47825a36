"""The right words in the wrong places: swapped roles, padded conflicting values, sibling names and
incomplete lists (agentic_core/judges/offline/findings/fact_roles.py, role_gates.py, list_gates.py, through the lexical
judge).

Each class has should-fail cases and should-pass neighbours; the sentences are written for these tests.
"""

from __future__ import annotations

import pytest

from agentic_core.judges.offline.findings.fact_roles import END, cue_sequence, entity_keys, find_items
from agentic_core.judges.offline.findings.lexical import lexical_analysis
from agentic_core.judges.offline.findings.list_gates import list_items
from agentic_core.judges.offline.findings.text_analysis import analyze_text
from tests.judges.offline import PASS, p_correct, reasoning_of


def gate_names(answer: str, truth: str, query: str = "") -> list[str]:
    return [g.name for g in lexical_analysis(answer, truth, query).gates]


# --------------------------------------------------------------------------------------------------
# Items and cues
# --------------------------------------------------------------------------------------------------


class TestItems:
    def test_entities_need_a_capital_that_does_not_open_a_sentence(self) -> None:
        text = analyze_text("Refund issued to Maria Lopez on 3 May.")
        items = find_items(text, entity_keys(text))
        assert [(i.kind, i.show()) for i in items] == [("entity", "Maria Lopez"), ("date", "--05-03")]

    def test_a_capital_after_a_colon_is_a_name(self) -> None:
        text = analyze_text("Seller: Initech.")
        assert [i.show() for i in find_items(text, entity_keys(text))] == ["Initech"]

    def test_cue_sequence_reads_back_to_the_previous_item(self) -> None:
        text = analyze_text("On Monday Tom lent Ana $40.")
        items = find_items(text, entity_keys(text))
        assert [i.show() for i in items] == ["Monday Tom", "Ana", "$40"]
        monday_tom, ana, amount = items
        assert cue_sequence(text, monday_tom, items) == ["on", END]
        assert cue_sequence(text, ana, items) == ["lent", "<item>"]  # Snowball stems no irregular verb
        assert cue_sequence(text, amount, items) == ["<item>"]


# --------------------------------------------------------------------------------------------------
# Class 3: two values in swapped roles
# --------------------------------------------------------------------------------------------------


class TestSwappedRoles:
    @pytest.mark.parametrize(
        ("answer", "truth", "query"),
        [
            ("Ana lent Tom $40.", "Tom lent Ana $40.", "Who lent money to whom?"),
            ("The ferry sails from Dover to Calais.", "The ferry sails from Calais to Dover.", "Which way?"),
            ("Pick-up is 9 July and drop-off is 2 July.", "Pick-up 2 July, drop-off 9 July.", "Rental dates?"),
            ("The fine is €80 and the fee is €15.", "The fine is €15 and the fee is €80.", "How much is owed?"),
            ("Departure 18:30, arrival 07:10.", "Departure 07:10, arrival 18:30.", "Flight times?"),
            ("Buyer: Initech; seller: Umbrella Ltd.", "Buyer: Umbrella Ltd; seller: Initech.", "Who are the parties?"),
        ],
    )
    def test_swapped_values_fail(self, answer: str, truth: str, query: str) -> None:
        analysis = lexical_analysis(answer, truth, query)
        assert "swapped_roles" in [g.name for g in analysis.gates]
        assert p_correct(answer, truth, query) < PASS
        assert "the other way round" in reasoning_of(analysis)

    @pytest.mark.parametrize(
        ("answer", "truth", "query"),
        [
            ("Ana borrowed $40 from Tom.", "Tom lent Ana $40.", "Who lent money to whom?"),
            ("It leaves Calais and arrives in Dover.", "The ferry sails from Calais to Dover.", "Which way?"),
            (
                "You pick the car up on 2 July and drop it off on 9 July.",
                "Pick-up 2 July, drop-off 9 July.",
                "Rental dates?",
            ),
            (
                "The fine is €15; on top of it comes a fee of €80.",
                "The fine is €15 and the fee is €80.",
                "How much is owed?",
            ),
            ("Departure 07:10, arrival 18:30.", "Departure 07:10, arrival 18:30.", "Flight times?"),
        ],
    )
    def test_same_roles_in_other_words_pass(self, answer: str, truth: str, query: str) -> None:
        analysis = lexical_analysis(answer, truth, query)
        assert "swapped_roles" not in [g.name for g in analysis.gates]
        assert p_correct(answer, truth, query) >= PASS


# --------------------------------------------------------------------------------------------------
# Class 5 (part): padding that repeats the truth around a conflicting value
# --------------------------------------------------------------------------------------------------


class TestConflictingValue:
    QUERY = "What is the annual fee for the gold card?"
    TRUTH = "The annual fee for the gold card is $95."

    def test_padding_around_another_value_fails(self) -> None:
        answer = (
            "Many members ask about the gold card's annual fee. The annual fee for the gold card was $95 "
            "when it launched, and $95 is still quoted on old leaflets, but today the annual fee for the "
            "gold card is $120."
        )
        analysis = lexical_analysis(answer, self.TRUTH, self.QUERY)
        assert "conflicting_value" in [g.name for g in analysis.gates]
        assert p_correct(answer, self.TRUTH, self.QUERY) < PASS
        assert "$120" in reasoning_of(analysis) or "120 usd" in reasoning_of(analysis)

    @pytest.mark.parametrize(
        "answer",
        [
            "The gold card's annual fee is $95; the silver card costs $45 a year.",
            "The annual fee for the gold card is $95. Last year the annual fee for the gold card was $85.",
            "The gold card has an annual fee of $95, and you can add a second gold card for $25.",
        ],
    )
    def test_other_values_in_other_roles_pass(self, answer: str) -> None:
        assert "conflicting_value" not in gate_names(answer, self.TRUTH, self.QUERY)

    def test_a_padded_time_conflict(self) -> None:
        answer = (
            "Breakfast time is popular. Breakfast time is usually at 07:00 in our other hotels, "
            "and breakfast time can change, but here breakfast time is at 08:00."
        )
        assert "conflicting_value" in gate_names(answer, "Breakfast time is at 07:00.", "When is breakfast?")


# --------------------------------------------------------------------------------------------------
# Class 7: a named entity replaced by a sibling
# --------------------------------------------------------------------------------------------------


class TestSiblingEntity:
    @pytest.mark.parametrize(
        ("answer", "truth", "query"),
        [
            ("San Jose", "San Antonio", "Which city?"),
            ("Mount Rainier", "Mount Hood", "Which mountain?"),
            ("Hillary Clinton", "Bill Clinton", "Who was the 42nd US president?"),
            ("Head to Paris Orly.", "Paris Charles de Gaulle", "Which airport?"),
            ("South Dakota", "North Dakota", "Which state is Fargo in?"),
        ],
    )
    def test_sibling_fails(self, answer: str, truth: str, query: str) -> None:
        analysis = lexical_analysis(answer, truth, query)
        assert "sibling_entity" in [g.name for g in analysis.gates]
        assert p_correct(answer, truth, query) < PASS

    def test_a_sibling_after_a_function_word_is_a_missing_entity(self) -> None:
        # "Los" is also a Spanish article, so only "Angeles" is key: no sibling, and since issue 38 no key-term
        # detector either; the entity agreement and the overlap fail it.
        assert "sibling_entity" not in gate_names("Los Alamos", "Los Angeles", "Which city?")
        assert p_correct("Los Alamos", "Los Angeles", "Which city?") < PASS

    @pytest.mark.parametrize(
        ("answer", "truth", "query"),
        [
            ("LA - Los Angeles, California.", "Los Angeles", "Which city?"),
            ("Hood, at 3,429 m.", "Mount Hood", "Which mountain?"),
            ("President Clinton (Bill Clinton), 1993 to 2001.", "Bill Clinton", "Who was the 42nd US president?"),
            ("Charles de Gaulle airport in Paris.", "Paris Charles de Gaulle", "Which airport?"),
            ("Los Angeles, not Los Alamos.", "Los Angeles", "Which city?"),
        ],
    )
    def test_same_entity_passes(self, answer: str, truth: str, query: str) -> None:
        analysis = lexical_analysis(answer, truth, query)
        assert "sibling_entity" not in [g.name for g in analysis.gates]
        assert p_correct(answer, truth, query) >= PASS


# --------------------------------------------------------------------------------------------------
# Class 8: a list with items missing
# --------------------------------------------------------------------------------------------------


class TestListItems:
    def test_list_parsing_trims_lead_in_and_tail(self) -> None:
        items = list_items(analyze_text("The office is open Tuesday, Thursday and Saturday this month."))
        assert [[t.raw for t in item] for item in items] == [["Tuesday"], ["Thursday"], ["Saturday"]]
        assert list_items(analyze_text("The parcel was delivered and signed for.")) == []

    @pytest.mark.parametrize(
        ("answer", "truth", "query"),
        [
            ("Cyan and yellow.", "Cyan, magenta and yellow.", "Which inks are low?"),
            ("Bring a towel and sunscreen.", "Bring a towel, sunscreen, a hat and water.", "What should I bring?"),
            ("Tuesday and Saturday.", "The office is open Tuesday, Thursday and Saturday.", "Which days?"),
            ("Rooms 101 and 103.", "Rooms 101, 102 and 103.", "Which rooms are booked?"),
            ("Lee and Kim.", "Lee, Kim and Patel are on the rota.", "Who is on the rota?"),
        ],
    )
    def test_missing_items_fail(self, answer: str, truth: str, query: str) -> None:
        analysis = lexical_analysis(answer, truth, query)
        assert "missing_list_item" in [g.name for g in analysis.gates]
        assert p_correct(answer, truth, query) < PASS
        assert "[missing_list_item]" in reasoning_of(analysis)

    @pytest.mark.parametrize(
        ("answer", "truth", "query"),
        [
            ("Yellow, cyan, magenta.", "Cyan, magenta and yellow.", "Which inks are low?"),
            (
                "* towel\n* sunscreen\n* hat\n* water",
                "Bring a towel, sunscreen, a hat and water.",
                "What should I bring?",
            ),
            (
                "It opens on Tuesdays, Thursdays and Saturdays.",
                "The office is open Tuesday, Thursday and Saturday.",
                "Which days?",
            ),
            ("101, 102 and 103 are booked.", "Rooms 101, 102 and 103.", "Which rooms are booked?"),
        ],
    )
    def test_complete_lists_pass(self, answer: str, truth: str, query: str) -> None:
        analysis = lexical_analysis(answer, truth, query)
        assert "missing_list_item" not in [g.name for g in analysis.gates]
        assert p_correct(answer, truth, query) >= PASS
