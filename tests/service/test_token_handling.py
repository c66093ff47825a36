"""The bearer token over real HTTP: never in the access log when sent in the URL; non-ASCII tokens sent as UTF-8.

uvicorn in a thread on loopback (``LiveServer``), its access lines caught by a handler attached to the server's
loggers themselves: whether they propagate to the root depends on who configured logging first (uvicorn's own
configuration, which Streamlit's server runs too, turns propagation off for ``uvicorn.access``).
"""

from __future__ import annotations

import io
import logging
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from pydantic import SecretStr

from agentic_core.cli import main
from agentic_core.errors import SettingsError
from agentic_core.service import ServiceConfig
from tests.service.conftest import LiveServer

TOKEN = "tok-URL-LEAK-0123456789abcdef"
JSON = {"content-type": "application/json"}


def _config(tmp_path: Path, token: str) -> ServiceConfig:
    return ServiceConfig(cache_path=str(tmp_path / "c.sqlite3"), token=SecretStr(token))



class _Records(logging.Handler):
    """Every record its loggers handle, whatever the loggers' propagation."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_a_token_in_the_query_string_never_reaches_the_access_log(tmp_path: Path) -> None:
    other = "sk-another-credential-9876543210"
    caught = _Records()
    loggers = [logging.getLogger(name) for name in ("uvicorn.access", "uvicorn.error", "agentic_core")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(caught)
        logger.setLevel(logging.DEBUG)
    try:
        with LiveServer(_config(tmp_path, TOKEN)) as server, httpx.Client(base_url=server.url, timeout=30) as client:
            statuses = [
                client.get(f"/health?token={TOKEN}").status_code,
                client.post(f"/run?access_token={TOKEN}&verbose=1", content=b"{}", headers=JSON).status_code,
                client.post(f"/run?api_key={other}&X-Api-Key={other}", content=b"{}", headers=JSON).status_code,
                client.get(f"/health?%74oken={quote(TOKEN)}").status_code,  # the name percent-encoded
                client.get(f"/health?t={TOKEN}").status_code,  # an innocent name: the server's own token, by value
                client.get(f"/docs/{TOKEN}").status_code,  # in the path
            ]
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.removeHandler(caught)
            logger.setLevel(level)
    assert statuses == [200, 401, 401, 200, 200, 401]
    lines = [r.getMessage() for r in caught.records if r.name == "uvicorn.access"]
    assert len(lines) == 6, lines  # every request was logged: the log was captured at all
    # Every line the server wrote (the test's own client, httpx, logs its URLs: not the server's).
    for text in (r.getMessage() for r in caught.records):
        assert TOKEN not in text and other not in text
    # The lines still say what was asked, with the names of the parameters and the other values kept.
    assert '"GET /health?token=*** HTTP/1.1" 200' in lines[0]
    assert "/run?access_token=***&verbose=1" in lines[1]
    assert "/run?api_key=***&X-Api-Key=***" in lines[2]
    assert "/health?%74oken=***" in lines[3]
    assert "/health?t=***" in lines[4]
    assert "/docs/***" in lines[5]


def test_the_mask_is_installed_once_however_many_apps_are_made(tmp_path: Path) -> None:
    from agentic_core.service.access_log import ACCESS_LOGGER, AccessLogMask
    from agentic_core.service.app import create_app

    create_app(_config(tmp_path, TOKEN))
    create_app(_config(tmp_path, TOKEN + "-second"))
    masks = [f for f in logging.getLogger(ACCESS_LOGGER).filters if isinstance(f, AccessLogMask)]
    assert len(masks) == 1 and {TOKEN, TOKEN + "-second"} <= masks[0].tokens


@pytest.mark.parametrize("token", ["pässwörd-ünïcode-42", "密码-токен-🔑-long-enough"])
def test_a_non_ascii_token_sent_utf8_encoded_is_accepted(tmp_path: Path, token: str) -> None:
    utf8 = b"Bearer " + token.encode("utf-8")
    with LiveServer(_config(tmp_path, token)) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        right = client.post("/run", content=b"{}", headers={**JSON, "authorization": utf8})
        wrong = client.post("/run", content=b"{}", headers={**JSON, "authorization": utf8 + b"x"})
        mojibake = client.post(
            "/run", content=b"{}", headers={**JSON, "authorization": b"Bearer " + token.encode("utf-8")[:-1]}
        )
    # Past the guard: the body {} is then refused for what it lacks (422), not for the token (401).
    assert right.status_code == 422, right.text
    assert right.json()["errors"][0]["place"] == "datasets"
    assert wrong.status_code == 401 and mojibake.status_code == 401


def test_a_latin1_token_sent_latin1_encoded_still_works(tmp_path: Path) -> None:
    # Python's http.client (requests) encodes a str header as Latin-1: what worked before keeps working.
    token = "pässwörd-ünïcode-42"
    with LiveServer(_config(tmp_path, token)) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        latin1 = client.post(
            "/run", content=b"{}", headers={**JSON, "authorization": b"Bearer " + token.encode("latin-1")}
        )
    assert latin1.status_code == 422, latin1.text


@pytest.mark.parametrize(
    ("token", "rule"),
    [
        ("line\nbreak-token", "not hold control characters"),
        (" padded-token ", "not start or end with whitespace"),
        ("bytes-\udcff-not-utf8", "be UTF-8 text"),
    ],
)
def test_a_token_no_client_can_send_is_refused_when_configured(token: str, rule: str) -> None:
    # (An empty token: test_guard.py's test_an_empty_token_is_a_settings_error_that_does_not_show_it.)
    with pytest.raises(SettingsError) as err:
        ServiceConfig.build(token=SecretStr(token))
    assert err.value.place == "token" and f"token: must {rule}" in str(err.value)
    assert token.strip() not in str(err.value).removeprefix("token: ")


def test_serve_refuses_at_start_a_token_variable_that_is_not_utf8(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    served: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.append(app))
    # A variable holding bytes that are not UTF-8 reads as lone surrogates (surrogateescape).
    monkeypatch.setenv("AGENTIC_TEST_TOKEN", "tok-\udcff\udcfe-latin1-bytes")
    stderr = io.StringIO()
    code = main(["serve", "--token-env", "AGENTIC_TEST_TOKEN", "--cache", "off"], stderr=stderr)
    err = stderr.getvalue()
    assert code == 2 and not served
    assert "--token-env" in err and "AGENTIC_TEST_TOKEN" in err and "UTF-8" in err and "token_urlsafe" in err
    assert "latin1-bytes" not in err  # the token itself is never shown


def test_serve_starts_with_a_non_ascii_token(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    served: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.append(app))
    monkeypatch.setenv("AGENTIC_TEST_TOKEN", "密码-токен-long-enough")
    assert main(["serve", "--token-env", "AGENTIC_TEST_TOKEN", "--cache", "off"], stderr=io.StringIO()) == 0
    assert served[0].state.service.config.token.get_secret_value() == "密码-токен-long-enough"
