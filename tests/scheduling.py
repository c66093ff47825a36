"""The order test files start in under ``--dist loadfile``: the long ones first, so the two workers finish together.

xdist hands out whole files, by default in decreasing number of tests. The longest files have the fewest tests
(a real-browser file is one or two tests of 20-100 s), so they came last and one worker ran the final minute or two
alone. Started first, they overlap each other and the many short files fill the gaps at the end (longest
processing time first). test.sh passes ``--no-loadscope-reorder`` so xdist keeps this order; tests/conftest.py
applies it to every run (without xdist the order of the files does not matter: each file's tests keep theirs).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

LONG_FILES = frozenset(
    {
        # 15 s or more of one worker's time on 2 cores (pytest --durations), with few tests each: by their
        # number of tests they would come last. Only the order depends on this list: a file missing from it, or
        # one listed that no longer exists, changes nothing else.
        "tests/analysis/test_aggregate.py",
        "tests/cli/test_evaluate_history.py",
        "tests/cli/test_evaluate_hostile_judge.py",
        "tests/engines/test_ray_engine.py",
        "tests/judges/test_llm_cancellation.py",
        "tests/pages/test_compare_links_page.py",
        "tests/pages/test_review_page.py",
        "tests/pages/test_uncertainty_page.py",
        "tests/stats/test_compare.py",
        "tests/stats/test_coverage.py",
        "tests/test_evaluate.py",
        "tests/test_faces_load_light.py",
        "tests/test_linear_shapes.py",
        "tests/test_notebook.py",
    }
)


class _Item(Protocol):
    nodeid: str

    def get_closest_marker(self, name: str) -> object | None: ...


T = TypeVar("T", bound=_Item)


def file_of(item: _Item) -> str:
    """The file part of a test id: xdist's unit of work under ``--dist loadfile``."""
    return item.nodeid.split("::", 1)[0]


def heavy_files_first(items: Sequence[T]) -> list[T]:
    """``items`` regrouped by file: files with a ``browser`` test, then with a ``slow`` test or in
    :data:`LONG_FILES`, then the rest; by decreasing number of tests within each (xdist's own order). Ties and
    each file's own tests keep their order."""
    files: dict[str, list[T]] = {}
    for item in items:
        files.setdefault(file_of(item), []).append(item)

    def rank(tests: list[T]) -> tuple[int, int]:
        if any(t.get_closest_marker("browser") for t in tests):
            return (0, -len(tests))
        if file_of(tests[0]) in LONG_FILES or any(t.get_closest_marker("slow") for t in tests):
            return (1, -len(tests))
        return (2, -len(tests))

    return [item for tests in sorted(files.values(), key=rank) for item in tests]
