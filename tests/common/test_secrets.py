"""The process-wide registry of secrets, and masking a JSON document's values (not its text)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from urllib.parse import quote_plus

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import SecretStr

from agentic_core.common import secrets
from agentic_core.common.secrets import (
    MASK,
    MAX_REGISTERED_SECRETS,
    environment_secrets,
    is_query_secret,
    known_secrets,
    mask_known,
    mask_request_target,
    mask_values,
    register_secret,
)


@pytest.fixture(autouse=True)
def _fresh_registry() -> Iterator[None]:
    secrets.forget_secrets()
    yield
    secrets.forget_secrets()


def test_registered_keys_are_masked_everywhere_afterwards() -> None:
    register_secret(SecretStr("sk-first-caller-key-1"), "sk-second-caller-key-2", None, "")
    text = "A sent sk-first-caller-key-1, B sent sk-second-caller-key-2."
    assert mask_known(text) == f"A sent {MASK}, B sent {MASK}."


def test_short_keys_are_not_registered_for_everyone_but_mask_their_own_text() -> None:
    # "true" as a key must not turn the word into stars in every other caller's results.
    register_secret("true")
    assert "true" not in known_secrets()
    assert mask_known("it is true") == "it is true"
    assert mask_known("it is true", ["true"]) == f"it is {MASK}"


def test_environment_keys_are_read_at_use_time_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ACME_API_KEY", "acme-0123456789")
    monkeypatch.setenv("CI_JOB_TOKEN", "tok-abcdefghijk")
    monkeypatch.setenv("TOKENIZERS_PARALLELISM", "false-but-long")  # not a credential's name
    found = environment_secrets()
    assert "acme-0123456789" in found and "tok-abcdefghijk" in found
    assert "false-but-long" not in found
    assert mask_known("acme-0123456789 / tok-abcdefghijk") == f"{MASK} / {MASK}"


def test_a_longer_key_holding_a_shorter_one_is_masked_whole() -> None:
    register_secret("abcdefgh", "abcdefgh-and-more")
    assert mask_known("x abcdefgh-and-more y") == f"x {MASK} y"


def test_the_registry_is_bounded_oldest_forgotten_first() -> None:
    register_secret(*(f"key-number-{i:06d}" for i in range(MAX_REGISTERED_SECRETS + 5)))
    known = set(known_secrets())
    assert "key-number-000000" not in known
    assert f"key-number-{MAX_REGISTERED_SECRETS + 4:06d}" in known


def test_mask_values_keeps_the_document_valid_whatever_the_key() -> None:
    body = {"success": True, "n": 3, "items": [{"reasoning": "true story"}, None, False], "true": "x"}
    masked = mask_values(body, ["true"])
    assert masked == {"success": True, "n": 3, "items": [{"reasoning": f"{MASK} story"}, None, False], "true": "x"}
    assert body["items"][0] == {"reasoning": "true story"}  # the input is not changed
    json.dumps(masked)


def test_mask_values_walks_any_depth_without_recursion() -> None:
    deep: object = "key-0123456789"
    for _ in range(100_000):
        deep = [deep]
    masked = mask_values(deep, ["key-0123456789"])
    for _ in range(100_000):
        assert isinstance(masked, list)
        masked = masked[0]
    assert masked == MASK


@pytest.mark.parametrize("key", ['key"with\\quotes', "clé-secrète-ünïcode", "tab\there-key", "astral-\U0001f600-key"])
def test_a_secret_that_json_escapes_is_still_found_and_masked(key: str) -> None:
    from agentic_core.service.run import ServiceReply

    body = {"success": True, "reasoning": f"the judge said {key} twice: {key}"}
    for text in (json.dumps(body), json.dumps(body, ensure_ascii=False)):
        assert secrets.json_holds_secret(text, [key])
    answer = ServiceReply(200, body, (SecretStr(key),)).json_text()
    assert json.loads(answer)["reasoning"] == f"the judge said {MASK} twice: {MASK}"
    assert not secrets.json_holds_secret(json.dumps({"reasoning": "nothing here"}), [key])


# -- request targets in log lines ------------------------------------------------------------------

_CREDENTIAL_NAMES = ["token", "access_token", "api_key", "apikey", "X-Api-Key", "key", "sig", "password", "auth"]


@given(
    name=st.sampled_from(_CREDENTIAL_NAMES),
    value=st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=30),
)
def test_a_credential_parameters_value_is_masked_whatever_it_holds(name: str, value: str) -> None:
    target = f"/run?page=2&{name}={quote_plus(value)}&verbose=1"
    # The expected line written out independently: the other parameters as sent, the value masked.
    assert mask_request_target(target) == f"/run?page=2&{name}={MASK}&verbose=1"


@pytest.mark.parametrize(
    ("target", "shown"),
    [
        ("/health", "/health"),
        ("/run?page=2&verbose=true&monkey=1", "/run?page=2&verbose=true&monkey=1"),  # nothing credential-looking
        ("/run?%74oken=abc", f"/run?%74oken={MASK}"),  # the name percent-encoded
        ("/run?token", "/run?token"),  # a name without a value: nothing to hide
        ("/run?q=tok-SERVER-secret-1", f"/run?q={MASK}"),  # the known secret, by value
        ("/docs/tok-SERVER-secret-1", f"/docs/{MASK}"),  # in the path
        ("/docs/tok%2DSERVER%2Dsecret%2D1", "/docs/tok%2DSERVER%2Dsecret%2D1"),  # quote() never writes %2D
        ("/docs/a%20b%2Fc-SERVER", f"/docs/{MASK}"),  # percent-encoded as a path writes it
    ],
)
def test_request_targets(target: str, shown: str) -> None:
    assert mask_request_target(target, [SecretStr("tok-SERVER-secret-1"), "a b/c-SERVER"]) == shown


def test_query_secret_names() -> None:
    assert all(is_query_secret(n) for n in _CREDENTIAL_NAMES)
    assert not any(is_query_secret(n) for n in ("page", "keyword", "monkey", "signal", "passage", "q"))
