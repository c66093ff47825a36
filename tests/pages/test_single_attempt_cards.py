"""Single-attempt data: the Overview and Uncertainty cards say pass@K is not measured (issue 25)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.pages.conftest import OpenApp


def metrics(at: AppTest) -> dict[str, tuple[str, str]]:
    return {m.label: (m.value, m.proto.delta) for m in at.metric}


def test_travel_sample_shows_pass_at_1_only(open_app: OpenApp) -> None:
    at = open_app(data="travel")
    shown = metrics(at)
    k = int(next(label for label in shown if label.startswith("pass@"))[len("pass@") :])
    assert k > 1
    assert shown[f"pass@{k}"] == ("not measured", "pass@1 only")
    assert shown[f"pass^{k}"] == ("not measured", "pass@1 only")
    assert shown["Success rate (pass@1)"][0].endswith("%")
    warning = " ".join(w.value for w in at.warning)
    assert "every task has one attempt" in warning and "task_id" in warning
    assert not any("Inconsistent" in m.value for m in at.markdown), "no assessment of unmeasured K"
    assert any(c.value.startswith("No curve: only k = 1 is measured") for c in at.caption)
    # K = 1 is measured: the cards show numbers again.
    at.select_slider(key="k").set_value(1).run()
    assert metrics(at)["pass@1"][0].endswith("%")


def test_uncertainty_on_single_attempt_data(open_app: OpenApp) -> None:
    at = open_app(page="pages/uncertainty.py", data="travel")
    shown = metrics(at)
    assert [v for label, v in shown.items() if label.startswith(("pass@", "pass^"))] == [
        ("not measured", "pass@1 only")
    ] * 2
    assert not any(label.startswith("P(pass^") for label in shown)


def test_repeated_attempts_keep_their_numbers(open_app: OpenApp) -> None:
    at = open_app()
    shown = metrics(at)
    assert all(v[0].endswith("%") for label, v in shown.items() if label.startswith(("pass@", "pass^")))
    assert at.get("plotly_chart")


def test_the_sample_says_it_is_a_sample_and_the_next_step(open_app: OpenApp) -> None:
    at = open_app()
    text = " ".join(m.value for m in at.markdown)
    assert "This is a built-in sample" in text and "upload its conversations" in text
    assert "OpenTelemetry GenAI traces" in text  # every format the loader reads, from its own list (issue 36)
    assert any("upload" in link.proto.label.lower() for link in at.get("page_link"))
    # Method details are in an expander, not boxes on the first screen.
    assert not [i.value for i in at.info if "Wilson" in i.value or "Hesterberg" in i.value or "interval" in i.value]
