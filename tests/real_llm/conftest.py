"""The opt-in tests against real LLM servers: the ``real_llm`` marker (see test_llama_cpp_server.py)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "real_llm: starts a real LLM server on loopback (opt-in: AGENTIC_REAL_LLM=1; never in default CI)"
    )
