"""How the suite itself runs (test.sh, xdist workers): what keeps ``bash test.sh`` within its time on 2 cores."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.scheduling import file_of, heavy_files_first

ROOT = Path(__file__).resolve().parents[1]

_BLAS_THREADS = """
import json
import tests.conftest  # what an xdist worker loads first
from threadpoolctl import threadpool_info
print(json.dumps([pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]))
"""


def _blas_threads(worker: str | None) -> list[int]:
    limits = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "PYTEST_XDIST_WORKER")
    env = {k: v for k, v in os.environ.items() if k not in limits}
    if worker is not None:
        env["PYTEST_XDIST_WORKER"] = worker
    command = [sys.executable, "-c", _BLAS_THREADS]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True)
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


def test_an_xdist_worker_runs_numpy_on_one_blas_thread() -> None:
    # Two workers on two cores: a BLAS thread per core in each worker would be four busy threads on two cores.
    threads = _blas_threads("gw0")
    assert threads and set(threads) == {1}, threads
    if (os.cpu_count() or 1) > 1:  # outside xdist the library keeps its own default (one thread per core)
        assert max(_blas_threads(None)) > 1


class _Test:
    def __init__(self, nodeid: str, *markers: str) -> None:
        self.nodeid, self.markers = nodeid, markers

    def get_closest_marker(self, name: str) -> object | None:
        return name if name in self.markers else None


def test_long_files_start_first_and_each_file_keeps_its_tests_in_order() -> None:
    items = [
        _Test("tests/a/test_many.py::t1"),
        _Test("tests/a/test_many.py::t2"),
        _Test("tests/a/test_many.py::t3"),
        _Test("tests/b/test_one.py::only"),
        _Test("tests/test_linear_shapes.py::t1"),  # listed in LONG_FILES
        _Test("tests/e2e/test_page.py::first", "browser"),
        _Test("tests/c/test_two.py::x"),
        _Test("tests/c/test_two.py::y", "slow"),
        _Test("tests/e2e/test_page.py::second", "browser"),
    ]
    ordered = [t.nodeid for t in heavy_files_first(items)]
    assert ordered == [
        "tests/e2e/test_page.py::first",
        "tests/e2e/test_page.py::second",
        "tests/c/test_two.py::x",
        "tests/c/test_two.py::y",
        "tests/test_linear_shapes.py::t1",
        "tests/a/test_many.py::t1",
        "tests/a/test_many.py::t2",
        "tests/a/test_many.py::t3",
        "tests/b/test_one.py::only",
    ]


def test_the_suite_is_collected_long_files_first_and_test_sh_keeps_that_order(request: pytest.FixtureRequest) -> None:
    # The collection this very run made: the browser files, then the long ones, each file's tests together.
    files = list(dict.fromkeys(file_of(item) for item in request.session.items))
    assert files == list(dict.fromkeys(file_of(item) for item in heavy_files_first(request.session.items)))
    assert "--no-loadscope-reorder" in (ROOT / "test.sh").read_text(encoding="utf-8")
    browser = [f for f in files if f.startswith("tests/e2e/")]
    if browser and len(files) > len(browser):
        assert set(files[: len(browser)]) == set(browser), files[: len(browser) + 1]


def test_test_sh_runs_pytest_with_bytecode_caches() -> None:
    # Each worker imports every test module, and pytest rewrites their asserts: ~12 s of CPU per worker and run
    # that a cache folder keeps (pytest writes it only where Python may write bytecode).
    commands = [line.strip() for line in (ROOT / "test.sh").read_text(encoding="utf-8").splitlines()]
    unset = commands.index("unset PYTHONDONTWRITEBYTECODE")
    pytest_run = next(i for i, line in enumerate(commands) if line.startswith(".venv/bin/python -m pytest"))
    assert unset < pytest_run
