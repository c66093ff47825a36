"""AppTest of the Overview page: threshold, K and mode driven by key, numbers checked against the core."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from agentic_core.analysis.aggregate import aggregate
from agentic_core.evaluate import evaluate
from agentic_core.io.samples import load_sample
from agentic_core.result import EvaluationResult
from agentic_core.settings import ToolWeights, make_settings
from tests.pages.conftest import OpenApp
from ui.format import ci_text, pct


@pytest.fixture(scope="module")
def support() -> EvaluationResult:
    """The default sample judged by the dataset judge, as the app under test judges it."""
    return evaluate(load_sample("support"), "dataset", cache_mode="off")


def metric(at: AppTest, label: str) -> tuple[str, str]:
    found = [(m.value, m.proto.delta) for m in at.metric if m.label == label]
    assert len(found) == 1, [m.label for m in at.metric]
    return found[0]


def expect_numbers(at: AppTest, result: EvaluationResult, **settings: object) -> None:
    """The KPI cards show exactly the core's numbers for these settings."""
    agg = aggregate(result, make_settings(**settings))
    k = agg.k
    head = agg.headline
    assert metric(at, "Conversations")[0] == f"{agg.counts.conversations:,}"
    assert metric(at, "Success rate (pass@1)") == (pct(agg.success_rate.value), ci_text(agg.success_rate.ci))
    assert metric(at, f"pass@{k}") == (pct(head.pass_at_k), ci_text(head.pass_at_k_ci))
    assert metric(at, f"pass^{k}") == (pct(head.pass_pow_k), ci_text(head.pass_pow_k_ci))


def test_overview_opens_on_the_core_numbers(open_app: OpenApp, support: EvaluationResult) -> None:
    at = open_app()
    assert [t.value for t in at.title] == ["Overview"]
    expect_numbers(at, support, threshold=at.slider(key="threshold").value)
    assert at.get("plotly_chart"), "the pass@k / pass^k chart is drawn"


def test_threshold_k_and_mode_by_key_follow_the_core(open_app: OpenApp, support: EvaluationResult) -> None:
    at = open_app()
    at.slider(key="threshold").set_value(0.5).run()
    at.select_slider(key="k").set_value(5).run()
    at.selectbox(key="mode").set_value("bayesian").run()
    assert not at.exception
    expect_numbers(at, support, threshold=0.5, k=5, mode="bayesian")
    at.radio(key="target").set_value("these-tasks").run()
    expect_numbers(at, support, threshold=0.5, k=5, mode="bayesian", target="these-tasks")
    at.selectbox(key="mode").set_value("frequentist").run()
    at.radio(key="target").set_value("population").run()
    expect_numbers(at, support, threshold=0.5, k=5, mode="frequentist")
    # A stricter threshold can only lower the success rate.
    strict = aggregate(support, make_settings(threshold=0.95, k=5, mode="frequentist"))
    at.slider(key="threshold").set_value(0.95).run()
    expect_numbers(at, support, threshold=0.95, k=5, mode="frequentist")
    loose = aggregate(support, make_settings(threshold=0.5, k=5, mode="frequentist"))
    assert strict.success_rate.value is not None and loose.success_rate.value is not None
    assert strict.success_rate.value <= loose.success_rate.value


def test_the_settings_sentence_names_the_method_and_the_target(open_app: OpenApp) -> None:
    at = open_app()
    text = " ".join(m.value for m in at.markdown)
    assert "Frequentist" in text and "BCa bootstrap over tasks" in text and "task population" in text
    assert "'auto' chose K = 8" in text  # every support task has 8 attempts
    at.selectbox(key="mode").set_value("bayesian").run()
    text = " ".join(m.value for m in at.markdown)
    assert "Bayesian" in text and "hierarchical" in text
    at.radio(key="target").set_value("these-tasks").run()
    text = " ".join(m.value for m in at.markdown)
    assert "these tasks" in text and ("Monte Carlo" in text or "cumulants" in text)


def test_observed_share_is_labelled_observed(open_app: OpenApp, support: EvaluationResult) -> None:
    at = open_app()
    agg = aggregate(support, make_settings(threshold=at.slider(key="threshold").value))
    captions = " ".join(c.value for c in at.caption)
    assert f"Observed: {agg.counts.correct_conversations:,} of {agg.counts.scored_conversations:,}" in captions


def test_all_zero_tool_weights_keep_the_answer_pages(open_app: OpenApp, support: EvaluationResult) -> None:
    # All four tool weights at 0 once blanked Overview, Explorer and Export with a raw error; now
    # tool use is simply not scored and the answer numbers stay.
    at = open_app("pages/tools.py")
    for key in ("w_selection", "w_parameters", "w_sequence", "w_utilization"):
        at.slider(key=key).set_value(0.0).run()
    at.switch_page("pages/overview.py").run()
    assert not at.exception
    assert not at.error, [e.value for e in at.error]
    zero = "selection=0,parameters=0,sequence=0,utilization=0"
    expect_numbers(at, support, tool_weights=ToolWeights.parse(zero))
    if support.n_tool_interactions:
        assert any("Tool use is not scored" in str(m.value) for m in [*at.markdown, *at.caption, *at.info])
    for page in ("pages/explorer.py", "pages/export.py"):
        at.switch_page(page).run()
        assert not at.exception
        assert not at.error, (page, [e.value for e in at.error])
