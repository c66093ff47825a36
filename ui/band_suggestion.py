"""The Calibration page's abstention band picked from labelled answers, as the threshold is picked above it.

Rendering only: the suggestion, its guard and its bootstrap range come from
:mod:`agentic_core.analysis.band_advice`; "use it" sets the band of every page (the sidebar's band slider).
"""

from __future__ import annotations

import streamlit as st

from agentic_core.analysis import MIN_PER_VERDICT, TARGET_ACCURACY, BandAdvice, run_band_advice
from ui.calibration_view import CalibrationSource
from ui.controls import set_value
from ui.format import md_text
from ui.memo import session_memo

TARGET_KEY = "calibration_band_target"
TARGETS = [0.8, 0.85, 0.9, 0.95, 0.97, 0.99]
"""The accuracies wanted on the verdicts given that the page offers."""
NOTICE_KEY = "_calibration_notice"


def source_band_advice(source: CalibrationSource, threshold: float, target: float) -> BandAdvice | None:
    """:func:`~agentic_core.analysis.run_band_advice` of the page's source, memoised per session."""
    return session_memo(
        "_band_advice",
        (source.signature, round(threshold, 6), target, source.active),
        lambda: run_band_advice(source.result, threshold, target, labels_of_this_run=source.active),
        size=4,
    )


def band_section(source: CalibrationSource, threshold: float, current: tuple[float, float] | None) -> None:
    """The band suggested from the source's labels, its range and guard, and the button that applies it.

    Args:
        source: What the page calibrates.
        threshold: The answer threshold (the band is centred on it).
        current: The band in force on the active run (``None``: the judge's fitted band or none).
    """
    st.subheader("Abstention band from labels")
    if TARGET_KEY not in st.session_state:
        st.session_state[TARGET_KEY] = TARGET_ACCURACY
    target = float(
        st.select_slider(
            "Accuracy wanted on the verdicts given",
            TARGETS,
            format_func=lambda x: f"{x:.0%}",
            key=TARGET_KEY,
            help="The band suggested abstains on as few labelled answers as possible while the verdicts it gives "
            "agree with people at least this often.",
        )
    )
    advice = source_band_advice(source, threshold, target)
    if advice is None:
        st.caption(
            f"{md_text(source.judge_label)} gives no probability, so it has no abstention band to pick: judge with "
            "the learned judge to pick one."
        )
        return
    suggestion = advice.suggestion
    with st.container(border=True, key="calibration_band"):
        st.markdown(md_text(suggestion.sentence))
        if advice.uncertainty:
            st.caption(md_text(advice.uncertainty))
        st.caption(
            f"*Use it* is offered when the labels belong to the active run and hold at least {MIN_PER_VERDICT} "
            f"answers marked correct and {MIN_PER_VERDICT} marked incorrect."
        )
        band = suggestion.band
        already = band is not None and current is not None and band == current
        if not advice.allowed and not already:
            st.info(md_text(advice.reason), icon=":material/info:")
        label = "Use it" if band is None else f"Use it: set the band to {band[0]:g} to {band[1]:g}"
        if st.button(
            label,
            key="calibration_use_band",
            type="primary",
            disabled=band is None or already or not advice.allowed,
            icon=":material/tune:",
        ):
            assert band is not None  # the button is disabled without one
            set_value("band", band)
            st.session_state[NOTICE_KEY] = f"The abstention band is now {band[0]:g} to {band[1]:g} on every page."
            st.rerun()
