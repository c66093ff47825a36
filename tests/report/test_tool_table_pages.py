"""The failing-calls table a page at a time (agentic_core.report.tool_tables.table_page)."""

from __future__ import annotations

import pandas as pd

from agentic_core.report.tool_tables import table_page


def test_every_row_is_reachable_page_by_page() -> None:
    view = pd.DataFrame({"row": range(25)})
    pages = [table_page(view, p, 10) for p in (1, 2, 3)]
    assert [len(rows) for rows, _, _ in pages] == [10, 10, 5]
    assert pd.concat([rows for rows, _, _ in pages])["row"].tolist() == list(range(25))
    assert all(n == 3 for _, _, n in pages)
    rows, page, n = table_page(view, 9, 10)  # clamped into range
    assert page == 3 and rows["row"].tolist() == list(range(20, 25))
    rows, page, n = table_page(view.iloc[:0], 0, 10)
    assert rows.empty and (page, n) == (1, 1)
