"""The run's frames are built with exactly the columns agentic_core.common.frame_columns declares.

Each declared name is built into its frame and each built column is declared, in the declared order,
so a column added to a frame without a constant (or a constant left behind by a removed column) fails.
"""

from __future__ import annotations

import pytest

from agentic_core import stats
from agentic_core.analysis.aggregate import aggregate
from agentic_core.common.frame_columns import (
    STATUSES,
    AgenticCols,
    Columns,
    ConversationCols,
    ExplorerCols,
    GroupCols,
    InteractionCols,
    ResultCols,
    ShrinkageCols,
    StatCols,
)
from agentic_core.report.explorer import conversation_index, explorer_table
from agentic_core.result import EvaluationResult
from agentic_core.settings import make_settings

DECLARATIONS = [
    StatCols, GroupCols, ShrinkageCols, ResultCols, InteractionCols, ConversationCols, ExplorerCols, AgenticCols,
]


@pytest.mark.parametrize("declaration", DECLARATIONS, ids=lambda d: d.__name__)
def test_no_two_columns_of_a_frame_share_a_name(declaration: type[Columns]) -> None:
    # ALL is collected from the class's constants: two constants with one value would name one column twice.
    assert len(set(declaration.ALL)) == len(declaration.ALL), declaration.ALL
    assert set(declaration.OWN) <= set(declaration.ALL)


def test_the_conversations_statistics_are_the_groups_without_the_counts() -> None:
    assert set(ConversationCols.ALL) - set(ConversationCols.OWN) == set(StatCols.ALL) - {StatCols.N, StatCols.C}


def test_group_table_builds_the_declared_statistics() -> None:
    table = stats.group_table([3, 0, 2], [2, 0, 2], 2, mode="frequentist")
    assert tuple(table.columns) == StatCols.ALL
    bayes = stats.group_table([3, 1], [1, 1], 3, mode="bayesian")
    assert tuple(bayes.columns) == StatCols.ALL


@pytest.mark.parametrize("unit", ["task", "conversation", "interaction"])
@pytest.mark.parametrize("mode", ["frequentist", "bayesian"])
def test_the_aggregate_frames_have_the_declared_columns(travel: EvaluationResult, unit: str, mode: str) -> None:
    agg = aggregate(travel, make_settings(unit=unit, mode=mode, n_samples=200))
    assert tuple(agg.conversations.columns) == ConversationCols.ALL
    assert tuple(agg.interactions.columns) == InteractionCols.ALL
    assert tuple(agg.groups.columns) == GroupCols.ALL
    assert set(agg.conversations[ConversationCols.STATUS]) <= set(STATUSES)


def test_the_judged_frame_has_the_declared_columns(travel: EvaluationResult, seeds: EvaluationResult) -> None:
    for result in (travel, seeds):
        assert tuple(result.interactions.columns) == ResultCols.ALL


def test_the_explorer_tables_have_the_declared_columns(travel: EvaluationResult) -> None:
    agg = aggregate(travel)
    index = conversation_index(travel)
    assert tuple(index.columns) == ExplorerCols.INDEX
    assert tuple(explorer_table(agg, index).columns) == ExplorerCols.ALL
    # What the explorer reads of the conversations frame exists there.
    assert set(ExplorerCols.FROM_CONVERSATIONS.values()) <= set(ConversationCols.ALL)


def test_the_agentic_table_has_the_declared_columns() -> None:
    from agentic_core.agentic_metrics.compute import compute_agentic_metrics
    from agentic_core.analysis.agentic_summary import agentic_table
    from tests.agentic_metrics.helpers import BOOKING, OFF_TOPIC
    from tests.fakes import FakeJudge

    judge = FakeJudge(lambda item: 1.0 if "Golden" in item.answer else 0.0)
    metrics = compute_agentic_metrics([BOOKING, OFF_TOPIC], judge, cache_mode="off", prefer_embeddings=False)
    assert tuple(agentic_table(metrics, ["booking", "science"]).columns) == AgenticCols.ALL
    # Every metric's export columns are the table's, and every metric computed has them.
    assert set(AgenticCols.BY_METRIC) == set(metrics.metrics)
    assert {c for cols in AgenticCols.BY_METRIC.values() for c in cols} <= set(AgenticCols.ALL)


def test_the_per_task_posterior_table_has_the_declared_columns(travel: EvaluationResult) -> None:
    from agentic_core.analysis.uncertainty import posterior_view

    view = posterior_view(aggregate(travel, make_settings(unit="task", n_samples=200)))
    assert view.tasks is not None
    assert int(view.tasks[StatCols.N].gt(0).sum()) >= 2  # the population model's columns are added
    assert tuple(view.tasks.columns) == (*GroupCols.ALL, *ShrinkageCols.ALL)
