"""Compare's pickers of two stored runs, grouped by a tag or a metadata key: A from one group, B from another.

"gpt-4o against claude" is then two picks: group by ``metadata: model``, A's ``gpt-4o``, B's ``claude``; each
side's run picker lists that group's runs, newest first (a side's run outside its group is replaced by the
group's newest). Which runs a group holds is the core's (:class:`agentic_core.runs.RunGrouping`).
"""

from __future__ import annotations

import streamlit as st

from agentic_core.runs import RunGrouping, RunMeta, groupings


def picker_label(meta: RunMeta) -> str:
    """A run as its picker shows it: name, tags, id."""
    tags = f" [{', '.join(meta.tags)}]" if meta.tags else ""
    return f"{meta.name}{tags} ({meta.id})"


def grouped_run_ids(stored: list[RunMeta]) -> tuple[list[str], list[str]]:
    """The ids A's and B's pickers offer: every run, or the runs of the group each side picked (newest first)."""
    ids = [m.id for m in stored]
    labels = [g.label for g in groupings(stored)]
    if not labels:  # no run has a tag or metadata: nothing to group by
        return ids, ids
    label = st.selectbox(
        "Group the runs by", ["", *labels], key="compare_group_by",
        format_func=lambda choice: choice or "nothing (pick from every stored run)",
        help="Group the stored runs by a tag or a metadata key, then pick each side's group: each side's run "
        "picker then lists only its group's runs, newest first.",
    )  # fmt: skip
    if not label:
        return ids, ids
    grouping = RunGrouping.from_label(label)
    groups = list(grouping.split(stored).items())
    names = [grouping.none_label() if value is None else value for value, _ in groups]
    cols = st.columns(2)
    a = cols[0].selectbox(f"A's {grouping.label}", range(len(groups)), format_func=names.__getitem__,
                          key="compare_group_a")  # fmt: skip
    b = cols[1].selectbox(f"B's {grouping.label}", range(len(groups)), index=min(1, len(groups) - 1),
                          format_func=names.__getitem__, key="compare_group_b")  # fmt: skip
    return [m.id for m in groups[a][1]], [m.id for m in groups[b][1]]
