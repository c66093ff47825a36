"""Which refused requests make the LLM judge step down to another reply format (issue 29, review)."""

from __future__ import annotations

import pytest

from agentic_core.judges.llm.errors import is_format_refused


class HttpError(Exception):
    def __init__(self, status_code: int, message: str) -> None:
        super().__init__(message)
        self.status_code = status_code


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (400, "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model."),
        (500, "[{'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be "
              "'text' or 'json_object'\"}]"),
        (400, "Unsupported response_format json_schema"),
        (400, "tool_choice is not supported by this model"),
    ],
)
def test_an_error_about_the_format_steps_down(status: int, message: str) -> None:
    assert is_format_refused(HttpError(status, message))


@pytest.mark.parametrize(
    ("status", "message"),
    [
        # A long first item, another parameter, a bad key: every format would fail alike.
        (400, "This model's maximum context length is 8192 tokens; your messages resulted in 9000 tokens "
              "(context_length_exceeded)"),
        (422, "temperature: Input should be less than or equal to 2"),
        (400, "API key not valid. Please pass a valid API key."),
        (401, "Incorrect API key provided: response_format"),
        (429, "Rate limit reached"),
    ],
)
def test_an_error_about_anything_else_does_not(status: int, message: str) -> None:
    assert not is_format_refused(HttpError(status, message))
