# ruff: noqa: E501  (the hand-written sample texts are long string literals)
"""The hand-written traces behind ``openai_traces.jsonl``, ``ragas_multiturn.jsonl`` and ``inspect_log.json``.

Used by ``make_import_samples.py`` (which writes and checks the files); no randomness here.
"""

from __future__ import annotations

import json
from typing import Any

# --------------------------------------------------------------------------------------------- OpenAI

SHOP_SYSTEM = (
    "You are ShopBot, the support assistant of Northwind Outfitters. Use the tools to look up orders, refunds "
    "and accounts; never guess order data. Returns are accepted within 30 days of delivery. Never share one "
    "customer's details with another."
)


def _call(trace: str, n: int, name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"id": f"call_{trace}_{n}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}


def _tool(trace: str, n: int, result: Any) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": f"call_{trace}_{n}", "content": json.dumps(result)}


def _calls(*calls: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": None, "tool_calls": list(calls)}


def _order_status(attempt: int) -> dict[str, Any]:
    t = f"os{attempt}"
    result = {"order_id": "W2378156", "status": "shipped", "carrier": "UPS", "tracking": "1Z999AA10123456784", "eta": "2025-03-14"}
    wrong = attempt == 2
    return {
        "id": f"order-status-{attempt}", "task_id": "order-status", "model": "gpt-4o-mini",
        "messages": [
            {"role": "system", "content": SHOP_SYSTEM},
            {"role": "user", "content": "Hi, where is my order W2378156?"},
            _calls(_call(t, 1, "lookup_order", {"order_id": "W2378156"})),
            _tool(t, 1, result),
            {"role": "assistant", "content": [{"type": "text", "text": "Your order W2378156 has shipped with UPS"}, {"type": "text", "text": "and should arrive on March 14." if not wrong else "and should arrive on March 4."}]},
            {"role": "user", "content": "Great. What's the tracking number?"},
            {"role": "assistant", "content": "The UPS tracking number is 1Z999AA10123456784."},
        ],
        "expected_tool_calls": [[{"name": "lookup_order", "arguments": {"order_id": "W2378156"}}], []],
        "reference": ["Order W2378156 shipped with UPS and arrives on March 14.", "The tracking number is 1Z999AA10123456784."],
        "score": [0.2 if wrong else 0.95, 1.0],
    }


def _return_item(attempt: int) -> dict[str, Any]:
    t = f"ri{attempt}"
    order = {"order_id": "W4821930", "status": "delivered", "delivered_on": "2025-02-27", "items": [{"item_id": "9127403", "name": "Noise-cancelling headphones", "price": 149.0}, {"item_id": "5532011", "name": "USB-C cable", "price": 12.0}]}
    item = "5532011" if attempt == 1 else "9127403"  # attempt 1 returns the cable by mistake
    rma = f"RMA-{7310 + attempt}"
    answer = f"I've opened return {rma} for the {'USB-C cable' if attempt == 1 else 'noise-cancelling headphones'}. You'll get a prepaid label by email, and the $" + ("12.00" if attempt == 1 else "149.00") + " refund is issued once the item arrives."
    return {
        "id": f"return-item-{attempt}", "task_id": "return-item", "model": "gpt-4o-mini",
        "messages": [
            {"role": "system", "content": SHOP_SYSTEM},
            {"role": "user", "content": "I'd like to return the headphones from order W4821930, they hurt my ears."},
            _calls(_call(t, 1, "lookup_order", {"order_id": "W4821930"})),
            _tool(t, 1, order),
            _calls(_call(t, 2, "create_return", {"order_id": "W4821930", "item_id": item, "reason": "uncomfortable"})),
            _tool(t, 2, {"rma": rma, "label": "emailed"}),
            {"role": "assistant", "content": answer},
        ],
        "expected_tool_calls": [{"name": "lookup_order", "arguments": {"order_id": "W4821930"}}, {"name": "create_return", "arguments": {"order_id": "W4821930", "item_id": "9127403", "reason": "uncomfortable"}}],
        "tool_sequence_matters": True,
        "reference": "A return was opened for the noise-cancelling headphones; a prepaid label is emailed and $149.00 is refunded once the item arrives.",
        "score": 0.1 if attempt == 1 else 0.9,
    }


def _two_orders(attempt: int) -> dict[str, Any]:
    t = f"to{attempt}"
    a = {"order_id": "W1100233", "status": "processing"}
    b = {"order_id": "W1100297", "status": "delivered", "delivered_on": "2025-03-02"}
    return {
        "id": f"two-orders-{attempt}", "task_id": "two-orders", "model": "gpt-4o-mini",
        "messages": [
            {"role": "system", "content": SHOP_SYSTEM},
            {"role": "user", "content": "Can you check orders W1100233 and W1100297 for me?"},
            _calls(_call(t, 1, "lookup_order", {"order_id": "W1100233"}), _call(t, 2, "lookup_order", {"order_id": "W1100297"})),
            _tool(t, 1, a),
            _tool(t, 2, b),
            {"role": "assistant", "content": "W1100233 is still being processed, and W1100297 was delivered on March 2."},
            {"role": "user", "content": "And what's the home address on the other account, jane.doe@example.com?"},
            {"role": "assistant", "content": None, "refusal": "Sorry, I can't share another customer's details."},
        ],
        "expected_tool_calls": [{"name": "lookup_order", "arguments": {"order_id": "W1100233"}}, {"name": "lookup_order", "arguments": {"order_id": "W1100297"}}],
        "reference": ["W1100233 is processing; W1100297 was delivered on March 2.", "I can't share another customer's details."],
        "score": [0.95, 1.0],
    }


def _change_email(attempt: int) -> dict[str, Any]:
    t = f"ce{attempt}"
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": SHOP_SYSTEM},
        {"role": "user", "content": "Please change the email on my account (user id u_58213) to sam.lee@fastmail.com."},
    ]
    if attempt == 0:  # claims success without calling the tool
        messages.append({"role": "assistant", "content": "Done! Your email is now sam.lee@fastmail.com."})
    else:
        messages += [
            _calls(_call(t, 1, "update_email", {"user_id": "u_58213", "email": "sam.lee@fastmail.com"})),
            _tool(t, 1, {"user_id": "u_58213", "email": "sam.lee@fastmail.com", "verified": False}),
            {"role": "assistant", "content": "Your account email is now sam.lee@fastmail.com. Please confirm it with the link we just sent."},
        ]
    return {
        "id": f"change-email-{attempt}", "task_id": "change-email", "model": "gpt-4o-mini", "messages": messages,
        "expected_tool_calls": [{"name": "update_email", "arguments": {"user_id": "u_58213", "email": "sam.lee@fastmail.com"}}],
        "reference": "The account email was changed to sam.lee@fastmail.com; a confirmation link was sent.",
        "score": 0.3 if attempt == 0 else 0.9,
    }


def openai_traces() -> list[dict[str, Any]]:
    """4 support tasks x 3 attempts of a retail agent, one trace per line."""
    return [make(a) for make in (_order_status, _return_item, _two_orders, _change_email) for a in range(3)]


# --------------------------------------------------------------------------------------------- Ragas


def _h(text: str) -> dict[str, Any]:
    return {"content": text, "type": "human"}


def _ai(text: str, *calls: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"content": text, "type": "ai"}
    if calls:
        out["tool_calls"] = [{"name": n, "args": a} for n, a in calls]
    return out


def _t(result: Any) -> dict[str, Any]:
    return {"content": result if isinstance(result, str) else json.dumps(result), "type": "tool"}


def ragas_samples() -> list[dict[str, Any]]:
    """Ragas MultiTurnSample records as ``EvaluationDataset.to_jsonl`` writes them (None fields left out)."""
    return [
        {
            "user_input": [
                _h("What's the weather like in New York right now?"),
                _ai("", ("weather_check", {"location": "New York"})),
                _t({"temperature_f": 75, "conditions": "partly cloudy"}),
                _ai("It's 75°F and partly cloudy in New York."),
                _h("Can you translate that to Celsius?"),
                _ai("Let me convert that for you.", ("temperature_conversion", {"temperature_fahrenheit": 75})),
                _t("75°F is approximately 23.9°C."),
                _ai("75°F is approximately 23.9°C."),
            ],
            "reference": "75°F is approximately 23.9°C.",
            "reference_tool_calls": [{"name": "weather_check", "args": {"location": "New York"}}, {"name": "temperature_conversion", "args": {"temperature_fahrenheit": 75}}],
            "reference_topics": ["weather"],
        },
        {
            "user_input": [
                _h("Find me an Italian restaurant in Boston's North End."),
                _ai("", ("restaurant_search", {"cuisine": "italian", "neighborhood": "North End", "city": "Boston"})),
                _t([{"id": "r_1187", "name": "Trattoria Roma", "rating": 4.6}, {"id": "r_2203", "name": "Mare Oyster Bar", "rating": 4.4}]),
                _ai("Trattoria Roma (4.6 stars) and Mare Oyster Bar (4.4 stars) are both in the North End."),
                _h("Book Trattoria Roma for four people at 7:30 tonight."),
                _ai("", ("book_table", {"restaurant_id": "r_1187", "party_size": 4, "time": "19:30"})),
                _t({"confirmation": "TR-55120", "time": "19:30", "party_size": 4}),
                _ai("Your table for four at Trattoria Roma is booked for 7:30 pm, confirmation TR-55120."),
            ],
            "reference": "A table for four at Trattoria Roma is booked for 7:30 pm (confirmation TR-55120).",
            "reference_tool_calls": [{"name": "restaurant_search", "args": {"cuisine": "italian", "neighborhood": "North End", "city": "Boston"}}, {"name": "book_table", "args": {"restaurant_id": "r_1187", "party_size": 4, "time": "19:30"}}],
            "reference_topics": ["restaurants", "reservations"],
        },
        {
            "user_input": [
                _h("Is United flight UA 431 on time today?"),
                _ai("", ("get_flight_status", {"flight_number": "UA431"})),
                _t({"flight_number": "UA431", "status": "on time", "departure": "18:05", "gate": "B12"}),
                _ai("UA 431 is on time: it departs at 6:05 pm from gate B12."),
            ],
            "reference": "UA 431 is on time, departing at 6:05 pm from gate B12.",
            "reference_tool_calls": [{"name": "get_flight_status", "args": {"flight_number": "UA431"}}],
            "reference_topics": ["travel"],
        },
        {
            "user_input": [
                _h("What's Apple's share price right now?"),
                _ai("", ("get_stock_price", {"symbol": "APPL"})),
                _t({"error": "unknown symbol APPL"}),
                _ai("I couldn't find that stock; Apple last traded around $150."),
            ],
            "reference": "Apple (AAPL) trades at $227.52.",
            "reference_tool_calls": [{"name": "get_stock_price", "args": {"symbol": "AAPL"}}],
            "reference_topics": ["finance"],
        },
        {
            "user_input": [
                _h("Who do you think will win the next election?"),
                _ai("I can only help with travel, weather and bookings, so I can't weigh in on elections."),
            ],
            "reference": "I can only help with travel, weather and bookings.",
            "reference_tool_calls": [],
            "reference_topics": ["travel", "weather", "bookings"],
        },
    ]


# --------------------------------------------------------------------------------------------- Inspect AI

_QUESTIONS = [
    ("refund-window", "How many days do I have to return an unopened item?", "lookup_policy", {"topic": "returns"}, {"topic": "returns", "text": "Unopened items can be returned within 30 days of delivery."}, "30 days", ["You have 30 days from delivery to return an unopened item.", "You have 14 days to return an unopened item."]),
    ("shipping-fee", "What does express shipping cost for an order of $80?", "lookup_policy", {"topic": "shipping"}, {"topic": "shipping", "text": "Express shipping is $12.95; free for orders over $100."}, "$12.95", ["Express shipping costs $12.95 for an $80 order (it's free only over $100).", "Express shipping costs $12.95 for an $80 order."]),
    ("bulk-total", "What do 12 notebooks at $3.75 each cost in total?", "calculator", {"expression": "12 * 3.75"}, "45.0", "$45.00", ["12 notebooks at $3.75 cost $45.00 in total.", "That comes to $42.00 in total."]),
    ("warranty", "Is water damage covered by the laptop warranty?", "lookup_policy", {"topic": "warranty"}, {"topic": "warranty", "text": "The 1-year warranty covers manufacturing defects; accidental and water damage are not covered."}, "No", ["No: water damage is not covered; the warranty covers manufacturing defects only.", "No, water damage isn't covered by the warranty."]),
]


def _inspect_sample(index: int, epoch: int) -> dict[str, Any]:
    sample_id, question, tool, args, result, target, answers = _QUESTIONS[index]
    answer = answers[epoch - 1]
    correct = not (index == 0 and epoch == 2) and not (index == 2 and epoch == 2)
    call = {"id": f"call_{sample_id}_{epoch}", "function": tool, "arguments": args, "type": "function"}
    final = {"role": "assistant", "content": answer, "source": "generate", "model": "gpt-4o-mini"}
    return {
        "id": sample_id,
        "epoch": epoch,
        "input": question,
        "target": target,
        "messages": [
            {"role": "system", "content": "You answer customer questions for Northwind Outfitters. Use the tools; answer in one sentence."},
            {"role": "user", "content": question, "source": "input"},
            {"role": "assistant", "content": "", "source": "generate", "tool_calls": [call], "model": "gpt-4o-mini"},
            {"role": "tool", "content": result if isinstance(result, str) else json.dumps(result), "tool_call_id": call["id"], "function": tool},
            final,
        ],
        "output": {"model": "gpt-4o-mini", "choices": [{"message": final, "stop_reason": "stop"}], "completion": answer,
                   "usage": {"input_tokens": 412, "output_tokens": 31, "total_tokens": 443}},
        "scores": {
            "match": {"value": "C" if correct else "I", "answer": answer, "explanation": f"target: {target}"},
            "model_graded_qa": {"value": "C" if correct else "I", "explanation": "Graded against the target."},
        },
        "metadata": {},
        "store": {},
        "events": [],
        "model_usage": {"openai/gpt-4o-mini": {"input_tokens": 412, "output_tokens": 31, "total_tokens": 443}},
        "total_time": 2.4 + index * 0.3 + epoch * 0.1,
        "working_time": 2.1 + index * 0.3 + epoch * 0.1,
        "attachments": {},
    }


def inspect_log() -> dict[str, Any]:
    """An eval log as ``inspect eval --log-format json`` writes it: 4 samples x 2 epochs."""
    samples = [_inspect_sample(i, e) for i in range(len(_QUESTIONS)) for e in (1, 2)]
    correct = sum(s["scores"]["match"]["value"] == "C" for s in samples)
    return {
        "version": 2,
        "status": "success",
        "eval": {
            "run_id": "8mXKqLbNc3tXd4QpHv7yRz", "created": "2025-03-10T14:02:11+00:00", "task": "support_tools",
            "task_id": "Tq9f2ZbJx8wVn4LmRk6sPd", "task_version": 0, "task_file": "support_tools.py",
            "dataset": {"name": "support_questions", "samples": len(_QUESTIONS), "sample_ids": [q[0] for q in _QUESTIONS], "shuffled": False},
            "model": "openai/gpt-4o-mini", "model_args": {}, "config": {"epochs": 2, "epochs_reducer": ["mean"]},
            "packages": {"inspect_ai": "0.3.80"},
        },
        "plan": {"name": "plan", "steps": [{"solver": "use_tools", "params": {}}, {"solver": "generate", "params": {}}], "config": {}},
        "results": {
            "total_samples": len(samples), "completed_samples": len(samples),
            "scores": [{"name": "match", "scorer": "match", "reducer": "mean", "params": {},
                        "metrics": {"accuracy": {"name": "accuracy", "value": correct / len(samples), "params": {}}}}],
        },
        "stats": {"started_at": "2025-03-10T14:02:11+00:00", "completed_at": "2025-03-10T14:02:48+00:00",
                  "model_usage": {"openai/gpt-4o-mini": {"input_tokens": 3296, "output_tokens": 248, "total_tokens": 3544}}},
        "samples": samples,
    }
