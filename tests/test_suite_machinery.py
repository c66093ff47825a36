"""How the suite itself runs (test.sh, xdist workers): what keeps ``bash test.sh`` within its time on 2 cores."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

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
