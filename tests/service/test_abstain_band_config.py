"""The endpoint's ``config.abstain_band`` (issue 41)."""

from __future__ import annotations

import json

import pytest

from agentic_core.service import Service, ServiceConfig
from tests.abstaining import AbstainingJudge, records


@pytest.fixture
def service(monkeypatch: pytest.MonkeyPatch) -> Service:
    judge = AbstainingJudge()  # the offline default abstains (P in 0.40 .. 0.60)
    monkeypatch.setattr("agentic_core.service.connector.offline_judge", lambda name: judge)
    return Service(ServiceConfig(cache_mode="off"))


def _request(**config: object) -> dict[str, object]:
    return {"datasets": records(), "config": config}


def test_the_band_re_decides_the_abstentions(service: Service) -> None:
    default = service.run(_request())
    assert default.status == 200, default.body
    assert default.body["unscored"]["uncertain"] > 0 and default.body["settings"]["abstain_band"] is None
    never = service.run(_request(abstain_band=[0.5, 0.5]))
    assert never.status == 200, never.body
    assert never.body["unscored"]["uncertain"] == never.body["unscored"]["interactions"] == 0
    assert never.body["settings"]["abstain_band"] == [0.5, 0.5]


@pytest.mark.parametrize(("band", "rule"), [([0.9, 0.1], "LOW <= HIGH"), ([0.1], "pair"), ("wide", "pair")])
def test_a_bad_band_is_a_422_located_at_config_abstain_band(service: Service, band: object, rule: str) -> None:
    reply = service.run(_request(abstain_band=band))
    assert reply.status == 422
    assert reply.body["errors"][0]["place"] == "config.abstain_band" and rule in reply.body["errors"][0]["rule"]


def test_the_request_schema_documents_it() -> None:
    from agentic_core.service.models import RunConfig

    schema = json.dumps(RunConfig.model_json_schema())
    assert "abstain_band" in schema and "never abstains" in schema
