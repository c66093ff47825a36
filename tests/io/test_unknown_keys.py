"""Tests of agentic_core.io.unknown_keys: unknown keys anywhere in a record are kept, warned about,
and get a "did you mean" or "belongs in" fix."""

from __future__ import annotations

from agentic_core.io.loader import load_bytes
from tests.io.conftest import (
    as_json,
    conversation,
    interaction,
    with_tools,
)


def test_unknown_keys_everywhere_are_warnings_with_suggestions() -> None:
    turn = with_tools(tools_usde=[])
    turn["ground_truth_agentic"]["tool_sequense_matters"] = True
    turn["agentic"]["tools_used"][0]["parmeters"] = {}
    turn["ground_truth_agentic"]["expected_tools"][0]["optinal"] = True
    turn["qa_idd"] = "x"
    record = conversation("u", turn, metadata="hello")
    report = load_bytes("keys.json", as_json([record]))
    assert report.ok and len(report.conversations) == 1
    found = {w.path: w.fix for w in report.warnings}
    assert found == {
        "metadata": (
            "remove it if it is a mistake (the keys here are assistant_id, context, conversation, language, "
            "reference, reference_topics, session_id, spans, task_id, trace); if it is intended, ignore this warning"
        ),
        "conversation[0].qa_idd": "did you mean 'qa_id'? Rename it; an unknown key is kept but never used",
        "conversation[0].agentic.tools_usde": (
            "did you mean 'tools_used'? Rename it; an unknown key is kept but never used"
        ),
        "conversation[0].agentic.tools_used[0].parmeters": (
            "did you mean 'parameters'? Rename it; an unknown key is kept but never used"
        ),
        "conversation[0].ground_truth_agentic.tool_sequense_matters": (
            "did you mean 'tool_sequence_matters'? Rename it; an unknown key is kept but never used"
        ),
        "conversation[0].ground_truth_agentic.expected_tools[0].optinal": (
            "did you mean 'optional'? Rename it; an unknown key is kept but never used"
        ),
    }
    warning = next(w for w in report.warnings if w.path.endswith("tool_sequense_matters"))
    assert warning.rule == "unknown key 'tool_sequense_matters' (kept, but not used)"
    assert warning.session_id == "u"
    # Kept, not dropped: the loaded model still holds the unknown key.
    assert report.conversations[0].model_extra == {"metadata": "hello"}
    assert report.summary() == "1 file, 1 record: 1 loaded, 0 skipped, 6 warnings"


def test_a_key_in_the_wrong_place_says_where_it_belongs() -> None:
    turn = interaction(tools_used=[], agentic={"expected_tools": []})
    report = load_bytes("x.json", as_json([conversation("p", turn)]))
    fixes = {w.path: w.fix for w in report.warnings}
    assert fixes["conversation[0].tools_used"].startswith("'tools_used' belongs in 'agentic'")
    assert fixes["conversation[0].agentic.expected_tools"].startswith(
        "'expected_tools' belongs in 'ground_truth_agentic'"
    )


def test_an_unknown_key_in_telemetry_is_warned_about_in_a_kept_record_as_in_a_skipped_one() -> None:
    # The walk of a validated record follows the schema map: a child model added there (telemetry
    # was) is walked too, so a kept record's unknown keys are found where a skipped record's are.
    fix = "did you mean 'model'? Rename it; an unknown key is kept but never used"
    kept = load_bytes("t.json", as_json([conversation("k", interaction(telemetry={"modle": "gpt-4o"}))]))
    assert kept.ok and len(kept.conversations) == 1
    assert {w.path: w.fix for w in kept.warnings} == {"conversation[0].telemetry.modle": fix}
    bad_turn = interaction(telemetry={"modle": "gpt-4o", "input_tokens": -1})
    skipped = load_bytes("t.json", as_json([conversation("s", bad_turn)]))
    assert not skipped.conversations
    assert {w.path: w.fix for w in skipped.warnings} == {"conversation[0].telemetry.modle": fix}
