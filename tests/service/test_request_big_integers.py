"""Issue 23: a request body's integers past 64 bits stay exact (orjson alone reads them as floats)."""

from __future__ import annotations

from agentic_core.service.run import _parse_body


def test_request_body_keeps_integers_past_64_bits() -> None:
    big = 2**64 + 1
    body = b'{"datasets": [{"step": %d, "id": 12345678901234567890123456789891}]}' % big
    parsed = _parse_body(body, 10_000)
    assert parsed["datasets"][0]["step"] == big
    assert parsed["datasets"][0]["id"] == 12345678901234567890123456789891
