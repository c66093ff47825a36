"""The figures read in both themes: no template of their own, contrasting colours, percent labels."""

from __future__ import annotations

import re

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from agentic_core.analysis.tool_summary import DimensionStat, ToolSummary
from ui.charts import (
    AT_COLOR,
    GUIDE_COLOR,
    LABEL_BOX,
    POW_COLOR,
    TOOL_COLORS,
    fit_x_range,
    posterior_figure,
    tool_dimension_figure,
)

LIGHT, DARK = "#ffffff", "#0e1117"  # Streamlit's light and dark backgrounds


def luminance(color: str) -> float:
    """WCAG relative luminance of #rrggbb."""

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(color[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_reference_values() -> None:
    # WCAG 2.x: black on white is 21:1, a colour on itself 1:1.
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#777777") == pytest.approx(1.0)


@pytest.mark.parametrize("color", [AT_COLOR, POW_COLOR, GUIDE_COLOR, *TOOL_COLORS.values()])
def test_every_meaningful_colour_shows_on_both_themes(color: str) -> None:
    # WCAG 1.4.11: graphics need 3:1 against their background. The old overall bar (#333333)
    # had 1.5:1 on the dark theme: nearly invisible.
    assert contrast(color, LIGHT) >= 3.0
    assert contrast(color, DARK) >= 3.0


def summary(overall: float | None) -> ToolSummary:
    stat = DimensionStat(mean=0.8, ci=(0.7, 0.9), n=10, interval_method="t")
    return ToolSummary(
        dimensions={name: stat for name in ("selection", "parameters", "sequence", "utilization")},
        overall=DimensionStat(mean=overall, ci=None if overall is None else (0.6, 0.8), n=10),
        scored_interactions=10,
        correct_interactions=7,
        tool_threshold=0.8,
        weights={"selection": 0.25, "parameters": 0.25, "sequence": 0.25, "utilization": 0.25},
        ignore_extra_tools=False,
    )


def figures() -> list[go.Figure]:
    draws = np.random.default_rng(0).beta(8, 3, 2000)
    post = posterior_figure(draws, (0.5, 0.9), 0.72, "pass@3", target=0.6)
    zoomed = fit_x_range(posterior_figure(draws, (0.5, 0.9), 0.72, "p"), draws)
    return [post, zoomed, tool_dimension_figure(summary(0.7))]


def test_figures_follow_the_streamlit_theme() -> None:
    for fig in figures():
        assert fig.layout.template != pio.templates["plotly_white"]
        for annotation in fig.layout.annotations:
            assert annotation.bgcolor == LABEL_BOX  # never a white box under light theme text


def test_posterior_labels_are_percentages_like_the_cards() -> None:
    draws = np.random.default_rng(1).beta(5, 5, 1000)
    fig = posterior_figure(draws, (0.312, 0.688), 0.5, "p", target=0.45)
    texts = [a.text for a in fig.layout.annotations]
    assert texts == ["interval [31.2%, 68.8%]", "mean 50.0%", "target 45%"]
    assert not any(re.search(r"\b0\.\d{3}\b", t) for t in texts)
    assert fig.layout.xaxis.tickformat == ".0%"


def test_tool_bars_keep_labels_clear_of_error_bars() -> None:
    fig = tool_dimension_figure(summary(0.7))
    bar = fig.data[0]
    assert list(bar.x) == ["selection", "parameters", "sequence", "utilization", "overall"]
    assert bar.insidetextanchor == "start" and bar.textposition == "inside"
    assert list(bar.marker.color) == [TOOL_COLORS[name] for name in bar.x]
    # No overall score (all weights 0): no overall bar rather than a bar at 0.
    assert "overall" not in list(tool_dimension_figure(summary(None)).data[0].x)


def test_a_chart_built_under_dark_uses_the_dark_template_and_readable_labels() -> None:
    from ui.charts import BACKGROUNDS, CHART_TEMPLATES, TEXT_COLORS, apply_chart_theme

    for fig in figures():
        apply_chart_theme(fig, "dark")
        template = fig.layout.template
        assert template == CHART_TEMPLATES["dark"]
        assert template.layout.paper_bgcolor == BACKGROUNDS["dark"] == DARK
        # Axis labels, ticks and titles: WCAG's 4.5:1 for text on the chart's own background.
        assert contrast(template.layout.font.color, template.layout.paper_bgcolor) >= 4.5
        assert template.layout.font.color == TEXT_COLORS["dark"]
        # The dark template is Plotly's plotly_dark underneath (its dark grid, not the white one).
        assert template.layout.xaxis.gridcolor == pio.templates["plotly_dark"].layout.xaxis.gridcolor


def test_light_charts_get_the_light_template_and_auto_stays_with_streamlit() -> None:
    from ui.charts import CHART_TEMPLATES, apply_chart_theme

    light = apply_chart_theme(tool_dimension_figure(summary(0.7)), "light")
    assert light.layout.template == CHART_TEMPLATES["light"]
    assert contrast(light.layout.template.layout.font.color, LIGHT) >= 4.5
    auto = apply_chart_theme(tool_dimension_figure(summary(0.7)), "auto")
    assert auto.layout.template == tool_dimension_figure(summary(0.7)).layout.template  # untouched


def test_posterior_labels_sit_on_three_rows() -> None:
    import numpy as np

    from ui.charts import posterior_figure

    fig = posterior_figure(np.linspace(0.3, 0.5, 200), (0.31, 0.49), 0.32, "p", target=0.33)
    spots = {a.text.split(" ")[0]: (a.y, a.yanchor, a.yshift or 0) for a in fig.layout.annotations}
    assert set(spots) == {"interval", "mean", "target"}
    assert len(set(spots.values())) == 3, spots  # no two labels at the same height
