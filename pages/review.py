"""Review queue: label, one at a time, the items a seeded draw picked, so the headline is corrected for the judge.

Which items, in which order and how many come from the core (:func:`agentic_core.analysis.label_queue`); each
label is stored with the run in the history the moment it is given (:mod:`ui.labels`), and the corrected headline
is re-aggregated from the labels (never re-judged). Keys: Y right, N wrong, S skip.
"""

from __future__ import annotations

import logging

import streamlit as st

from agentic_core import AgenticError
from agentic_core.analysis import (
    QUEUE_DESIGNS,
    LabelQueue,
    QueueItem,
    export_queue,
    import_queue_file,
    label_gain,
    label_queue,
    queue_label,
    queue_size,
)
from agentic_core.report import conversation_detail, thread_html
from ui.corrected_view import corrected_headline
from ui.explorer_detail import render_interaction
from ui.format import md_text
from ui.labels import give_labels, labelled_results_page
from ui.memo import session_memo
from ui.span_tree_view import span_tree_section

log = logging.getLogger(__name__)
MEMO_KEY = "_review_memo"
SKIPPED_KEY = "_review_skipped"
NOTICE_KEY = "_review_notice"
IMPORTED_KEY = "_review_imported"


def _notice(kind: str, text: str) -> None:
    st.session_state[NOTICE_KEY] = (kind, text)


def _give(item: QueueItem, queue: LabelQueue, value: int) -> None:
    problem = give_labels(run, [queue_label(queue, item, value)])
    if problem:
        _notice("error", problem)
    else:
        _notice("success", f"Labelled {'right' if value else 'wrong'}: {item.session_id} · {item.qa_id or ''}")
    st.rerun()


run, settings, agg = labelled_results_page()
st.title("Review queue")
st.caption(
    f"{md_text(run.data_name)} — judged by {md_text(run.judge_label)}. Label what a seeded draw picked: right, "
    "wrong or skip, one item at a time. Each label is stored with the run at once, and corrects the headline for "
    "the judge's errors (it never changes a verdict: for that, use the Explorer's *Your verdict*)."
)
notice = st.session_state.pop(NOTICE_KEY, None)
if notice:
    (st.error if notice[0] == "error" else st.success)(notice[1])

left, mid, right = st.columns(3)
design = left.radio(
    "Which items first",
    list(QUEUE_DESIGNS),
    format_func=QUEUE_DESIGNS.get,
    key="review_design",
    help="Random tasks: a seeded random sample of tasks, every attempt queued (unbiased even if you stop early). "
    "Uncertain first: tasks the judge could not decide are more likely drawn; each label carries its task's "
    "probability and the estimate weights by its inverse (unbiased once the whole queue is labelled).",
)
seed = int(mid.number_input("Seed", 0, 2**31 - 1, int(settings.seed), 1, key="review_seed",
                            help="The same seed gives the same queue on every reload."))  # fmt: skip
half_width = float(
    right.number_input(
        "Target half-width",
        0.01,
        0.5,
        0.05,
        0.01,
        format="%.2f",
        key="review_half_width",
        help="How precise the corrected success rate should be: the queue holds the tasks the label planner asks for.",
    )
)

all_labels = run.result.labels
outside = sum(lab.source != "queue" for lab in all_labels)
size_key = (run.data_name, run.created_at, settings.model_dump_json(), half_width, outside)
try:
    size = session_memo(MEMO_KEY, ("size", *size_key), lambda: queue_size(run.result, agg, half_width=half_width))
    if not size.measured:
        a, b = st.columns(2)
        sens = a.number_input("Judge sensitivity (stated)", 0.5, 1.0, size.sensitivity, 0.01, key="review_sens",
                              help="No label outside the queue measures the judge yet: the queue's size is planned "
                              "with this share of right answers the judge passes.")  # fmt: skip
        spec = b.number_input("Judge specificity (stated)", 0.5, 1.0, size.specificity, 0.01, key="review_spec",
                              help="The share of wrong answers the judge fails.")  # fmt: skip
        stated = (float(sens), float(spec))
        size = session_memo(MEMO_KEY, ("size", *size_key, stated), lambda: queue_size(
            run.result, agg, half_width=half_width, sensitivity=stated[0], specificity=stated[1]))  # fmt: skip
    queue = label_queue(run.result, agg, design=design, seed=seed, size=size)
except AgenticError as exc:
    st.error(md_text(exc))
    st.stop()

st.info(queue.design_sentence(), icon=":material/casino:")
st.caption(f"Queue size: {md_text(size.reason)}.")
done = queue.n_labelled
st.progress(done / max(len(queue.items), 1), text=f"**{queue.progress()}**")
corrected_headline(agg, key="review", point_to_queue=False)
st.caption(label_gain(agg.corrected, size).sentence)

skipped: set[tuple[str, str, str]] = st.session_state.setdefault(SKIPPED_KEY, set())
waiting = [item for item in queue.pending if item.key not in skipped]
with st.container(key="review_item"):
    if not queue.pending:
        st.success("Every item of the queue is labelled. Ask for a narrower half-width to queue more tasks.")
    elif not waiting:
        st.info(f"You skipped the {len(queue.pending):,} item(s) left.")
        if st.button("Show the skipped items again", key="review_unskip"):
            skipped.clear()
            st.rerun()
    else:
        item = waiting[0]
        st.subheader(f"Item {item.position + 1:,} of {len(queue.items):,}: task {md_text(item.task)}")
        keys = st.container(horizontal=True, key="review_buttons")
        if keys.button("Right", key="review_right", shortcut="Y", icon=":material/check:", type="primary"):
            _give(item, queue, 1)
        if keys.button("Wrong", key="review_wrong", shortcut="N", icon=":material/close:"):
            _give(item, queue, 0)
        if keys.button("Skip", key="review_skip", shortcut="S", icon=":material/skip_next:"):
            skipped.add(item.key)
            st.rerun()
        st.caption("Keys: **Y** right, **N** wrong, **S** skip. Right means the answer is correct for the question.")
        try:
            details = conversation_detail(run.result, agg, item.conversation)
        except AgenticError as exc:
            st.error(md_text(exc))
            st.stop()
        start = int(run.result.conversation_bounds()[0][item.conversation])
        turn = item.row - start
        st.caption(f"Conversation {md_text(item.session_id)}, turn {turn + 1} of {len(details)}.")
        if 0 <= turn < len(details):
            render_interaction(details[turn], turn, run.result.overrides.get(item.row))
        conversation = run.result.conversations[item.conversation]
        statuses = [d.status for d in details]
        if conversation.trace:
            with st.expander(f"Whole trace: {len(conversation.trace):,} messages", expanded=True):
                st.html(thread_html(conversation.trace, statuses))
        span_tree_section(run.run_id, item.conversation, conversation.spans or [], statuses)

st.subheader("Label elsewhere: export the queue, import it back")
fmt = st.radio("Format", ["csv", "jsonl"], horizontal=True, key="review_format")
st.download_button(
    f"Download the queue ({fmt.upper()})",
    data=export_queue(run.result, agg, queue, fmt),  # type: ignore[arg-type]
    file_name=f"review-queue.{fmt}",
    key="review_export",
    icon=":material/download:",
)
st.caption("Fill the `label` column (1 right, 0 wrong; empty rows are skipped) and import the file back.")
upload = st.file_uploader("Import labels", type=["csv", "jsonl", "json"], key="review_import")
if upload is not None and st.session_state.get(IMPORTED_KEY) != upload.file_id:
    st.session_state[IMPORTED_KEY] = upload.file_id
    try:
        read = import_queue_file(upload.getvalue(), upload.name)
    except AgenticError as exc:
        st.error(md_text(exc))
    else:
        problem = give_labels(run, read.labels)
        if problem:
            _notice("error", problem)
        else:
            blank = f"; {read.blank:,} row(s) without a label skipped" if read.blank else ""
            _notice("success", f"Imported {len(read.labels):,} label(s) from {upload.name}{blank}.")
        st.rerun()
