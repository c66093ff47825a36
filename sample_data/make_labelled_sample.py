"""Write ``labelled_support.jsonl``: support answers with a person's verdict, for judge calibration.

28 support questions, each answered twice by the agent (two attempts, one conversation each: 56
interactions). Every interaction carries the grader's ``score`` (the ``dataset`` judge reads it) and
a person's verdict: ``human_label`` (0/1) on most, ``human_score`` (0..1) on a few, as a team mixing
thumbs up/down with graded reviews would have.

People and judges disagree on realistic cases, on purpose: a right answer in other words or units
("two weeks" for "14 days"), a wrong answer that repeats the reference but flips a negation or one
number, a right answer padded with a wrong extra, a partly right answer that a grader scores high.
The Calibration page and ``python -m agentic_core calibrate`` show those cases.

Deterministic (no randomness): re-running writes byte-identical files. ``--check`` validates the
file on disk without writing.

    .venv/bin/python sample_data/make_labelled_sample.py [--check]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "labelled_support.jsonl"
AGENT = "helpdesk-v5"

# (task, query, ground truth, [(answer, grader score, human verdict)] x 2). A verdict is 0/1
# (human_label) or a float (human_score). Comments mark where people and judges part ways.
Case = tuple[str, str, str, list[tuple[str, float, int | float]]]
CASES: list[Case] = [
    (
        "refund_window",
        "How long do I have to return my headphones?",
        "You can return them within 30 days of delivery for a full refund.",
        [
            ("You have 30 days from delivery to return them for a full refund.", 0.95, 1),
            ("Returns are accepted within 14 days of delivery.", 0.1, 0),
        ],
    ),
    (
        "refund_time",
        "When will I get my refund?",
        "Refunds reach your card within 14 days of us receiving the return.",
        [
            # A right answer in other units: people accept it, a text judge may not.
            ("Once the parcel is back with us, expect the money on your card in about two weeks.", 0.85, 1),
            ("Refunds reach your card within 14 days of us receiving the return.", 0.98, 1),
        ],
    ),
    (
        "order_status",
        "Where is my order B22-1050?",
        "Order B22-1050 shipped on June 3 with DHL and should arrive on June 6.",
        [
            ("Order B22-1050 left on June 3 with DHL; delivery is expected on June 6.", 0.95, 1),
            ("Order B22-1050 shipped on June 3 with DHL and should arrive on June 9.", 0.2, 0),
        ],
    ),
    (
        "warranty_water",
        "Does the warranty cover water damage?",
        "No, the warranty does not cover water damage.",
        [
            ("No. Water damage is not covered by the warranty.", 0.95, 1),
            # A flipped negation: the words match the reference, the meaning does not.
            ("Yes, the warranty does cover water damage.", 0.1, 0),
        ],
    ),
    (
        "store_hours",
        "What time does the Leeds store open on Sundays?",
        "The Leeds store opens at 10 am on Sundays.",
        [
            ("On Sundays the Leeds store opens at 10 am.", 0.95, 1),
            ("The Leeds store opens at 9 am on Sundays.", 0.1, 0),
        ],
    ),
    (
        "shipping_cost",
        "How much is express shipping?",
        "Express shipping costs 9.99 EUR and arrives in 1-2 business days.",
        [
            ("Express shipping is 9.99 EUR, delivered in 1-2 business days.", 0.95, 1),
            ("Express shipping costs 9.99 EUR.", 0.6, 0.5),  # half an answer: a graded review
        ],
    ),
    (
        "password_reset",
        "How do I reset my password?",
        "Click 'Forgot password' on the sign-in page and follow the link we email you.",
        [
            ("Use 'Forgot password' on the sign-in page, then open the link in the email we send.", 0.9, 1),
            ("Contact support by phone and we will reset it for you.", 0.1, 0),
        ],
    ),
    (
        "cancel_subscription",
        "Can I cancel my subscription at any time?",
        "Yes, you can cancel at any time; you keep access until the end of the billing period.",
        [
            ("Yes, cancel whenever you like; access continues until the billing period ends.", 0.9, 1),
            # Right, padded with a wrong extra (there is no fee): people fail it.
            (
                "Yes, you can cancel at any time and keep access until the end of the billing period; a 15 EUR "
                "cancellation fee applies.",
                0.8,
                0,
            ),
        ],
    ),
    (
        "gift_card",
        "Do gift cards expire?",
        "Gift cards are valid for 3 years from the date of purchase.",
        [
            ("They stay valid for 3 years after purchase.", 0.9, 1),
            ("Gift cards never expire.", 0.05, 0),
        ],
    ),
    (
        "price_match",
        "Do you price match other shops?",
        "Yes, we match the price of UK retailers within 7 days of your purchase.",
        [
            ("Yes: if a UK retailer is cheaper within 7 days of your purchase, we match it.", 0.9, 1),
            ("We do not offer price matching.", 0.05, 0),
        ],
    ),
    (
        "loyalty_points",
        "How many points do I earn per pound?",
        "You earn 2 points for every pound you spend.",
        [
            ("Every pound you spend earns you 2 points.", 0.95, 1),
            ("You earn 1 point for every pound you spend.", 0.15, 0),
        ],
    ),
    (
        "damaged_item",
        "My blender arrived broken, what do I do?",
        "Send us a photo of the damage through the order page and we will ship a replacement free of charge.",
        [
            ("Sorry about that! Upload a photo of the damage on the order page and we'll send a new one free.", 0.9, 1),
            ("Please return it to the store where you bought it.", 0.1, 0),
        ],
    ),
    (
        "international",
        "Do you ship to Canada?",
        "Yes, we ship to Canada; delivery takes 7-10 business days.",
        [
            ("Yes, Canada is covered, with delivery in 7-10 business days.", 0.9, 1),
            ("Sorry, we only ship within the EU and the UK.", 0.05, 0),
        ],
    ),
    (
        "student_discount",
        "Is there a student discount?",
        "Yes, students get 10% off with a verified UNiDAYS account.",
        [
            # Right in other words ("a tenth"): a text judge may miss the number.
            ("Yes: verify your student status with UNiDAYS and a tenth comes off the price.", 0.85, 1),
            ("Yes, students get 20% off with a verified UNiDAYS account.", 0.2, 0),
        ],
    ),
    (
        "change_address",
        "Can I change the delivery address after ordering?",
        "You can change the address until the order ships, from the order page.",
        [
            ("Yes, as long as it has not shipped yet: edit it on the order page.", 0.85, 1),
            ("You can change the address after the order ships, from the order page.", 0.3, 0),
        ],
    ),
    (
        "payment_methods",
        "Can I pay with PayPal?",
        "Yes, we accept PayPal, Visa, Mastercard and Apple Pay.",
        [
            ("Yes, PayPal works, as do Visa, Mastercard and Apple Pay.", 0.95, 1),
            ("No, we only accept card payments.", 0.05, 0),
        ],
    ),
    (
        "battery_life",
        "How long does the X2 speaker's battery last?",
        "The X2 speaker's battery lasts up to 12 hours on a full charge.",
        [
            ("Up to 12 hours on a full charge.", 0.9, 1),
            # The grader scored a near miss high; the person did not accept it.
            ("Around 10 hours on a full charge.", 0.7, 0),
        ],
    ),
    (
        "invoice",
        "Where can I download my invoice?",
        "Invoices are under Account > Orders; open the order and click 'Download invoice'.",
        [
            ("Go to Account > Orders, open the order, and click 'Download invoice'.", 0.95, 1),
            ("We email invoices only on request.", 0.1, 0),
        ],
    ),
    (
        "size_exchange",
        "Can I exchange shoes for a different size?",
        "Yes, size exchanges are free within 30 days; start one from the order page.",
        [
            ("Yes, free within 30 days. Start the exchange on the order page.", 0.9, 1),
            ("Yes, size exchanges cost 5 EUR within 30 days.", 0.2, 0),
        ],
    ),
    (
        "delivery_saturday",
        "Do you deliver on Saturdays?",
        "Yes, Saturday delivery is available for an extra 4.99 EUR.",
        [
            ("Saturday delivery is possible for 4.99 EUR extra.", 0.9, 1),
            ("We do not deliver on Saturdays.", 0.05, 0),
        ],
    ),
    (
        "account_delete",
        "How do I delete my account?",
        "Go to Account > Privacy and choose 'Delete account'; it is removed within 30 days.",
        [
            ("Under Account > Privacy pick 'Delete account'. It is gone within 30 days.", 0.9, 1),
            ("Accounts cannot be deleted, only deactivated.", 0.05, 0),
        ],
    ),
    (
        "preorder",
        "When will the preordered console ship?",
        "Preorders of the console ship on the release day, November 14.",
        [
            ("They ship on release day, November 14.", 0.9, 1),
            ("Preorders ship one week after the release day.", 0.1, 0),
        ],
    ),
    (
        "coupon_stack",
        "Can I use two discount codes on one order?",
        "No, only one discount code can be used per order.",
        [
            ("Only one discount code per order, sorry.", 0.9, 1),
            # A flipped negation again, close to the reference's words.
            ("Yes, two discount codes can be used per order.", 0.1, 0),
        ],
    ),
    (
        "tracking_missing",
        "My tracking number doesn't work.",
        "Tracking numbers become active within 24 hours of shipping; try again tomorrow.",
        [
            ("Tracking usually starts working within a day of shipping, so please check again tomorrow.", 0.85, 1),
            ("Your parcel is lost; we will refund you.", 0.05, 0),
        ],
    ),
    (
        "assembly",
        "Do you assemble furniture on delivery?",
        "Yes, assembly is available for 39 EUR per item when you book delivery.",
        [
            ("Yes, you can add assembly at 39 EUR per item while booking the delivery.", 0.9, 1),
            ("Yes, assembly is free with every delivery.", 0.15, 0),
        ],
    ),
    (
        "newsletter",
        "How do I stop the marketing emails?",
        "Click 'Unsubscribe' at the bottom of any marketing email, or turn them off under Account > Emails.",
        [
            ("Use the unsubscribe link at the end of any of them, or switch them off in Account > Emails.", 0.9, 1),
            ("Reply STOP to any marketing email.", 0.2, 0),
        ],
    ),
    (
        "warranty_length",
        "How long is the laptop warranty?",
        "The laptop has a 2-year manufacturer warranty.",
        [
            # The same fact in other words: "24 months".
            ("It comes with a 24-month warranty from the manufacturer.", 0.85, 1),
            ("The laptop has a 1-year manufacturer warranty.", 0.15, 0),
        ],
    ),
    (
        "click_collect",
        "Is click and collect free?",
        "Yes, click and collect is free on all orders; the order is ready within 2 hours.",
        [
            ("Yes, free on every order, and ready to pick up within 2 hours.", 0.9, 1),
            ("Click and collect is free on orders over 20 EUR.", 0.3, 0.25),
        ],
    ),
]


def records() -> list[dict[str, object]]:
    """The conversations: one per answer, two attempts per task."""
    out: list[dict[str, object]] = []
    for n, (task, query, truth, answers) in enumerate(CASES, start=1):
        for attempt, (answer, score, verdict) in enumerate(answers, start=1):
            turn: dict[str, object] = {
                "qa_id": f"lab{n:02d}-q",
                "query": query,
                "assistant": answer,
                "ground_truth_assistant": truth,
                "score": score,
            }
            if isinstance(verdict, float):
                turn["human_score"] = verdict
            else:
                turn["human_label"] = verdict
            out.append(
                {
                    "session_id": f"lab{n:02d}-a{attempt}",
                    "assistant_id": AGENT,
                    "task_id": f"lab_{task}",
                    "conversation": [turn],
                }
            )
    return out


def check(lines: list[str]) -> None:
    """Every record validates, with no unknown key, and carries a human verdict."""
    sys.path.insert(0, str(HERE.parent))
    from agentic_core.data.schemas import Conversation

    for number, line in enumerate(lines, start=1):
        conv = Conversation.model_validate_json(line)
        assert not conv.model_extra, f"line {number}: unknown keys {conv.model_extra}"
        for turn in conv.conversation:
            assert not turn.model_extra, f"line {number}: unknown keys {turn.model_extra}"
            assert turn.human_label is not None or turn.human_score is not None, f"line {number}: no verdict"


def main(argv: list[str]) -> int:
    """Write (or with ``--check`` only validate) the file; print a one-line summary."""
    if argv == ["--check"]:
        lines = OUT.read_text(encoding="utf-8").splitlines()
    else:
        lines = [json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in records()]
        OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    check(lines)
    print(f"{OUT.name}: {len(lines)} conversations, {len(lines)} interactions, {len(CASES)} tasks", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
