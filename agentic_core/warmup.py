"""``python -m agentic_core.warmup``: judge the built-in samples once with the default judge.

The verdicts land in the persistent judge cache, so the dashboard opens on evaluated results at
once and later starts make no judge calls. Safe to run repeatedly (cache hits only).
"""

from __future__ import annotations

import sys
import time

from agentic_core.errors import AgenticError
from agentic_core.evaluate import evaluate
from agentic_core.io.samples import SAMPLES, load_sample
from agentic_core.judges.registry import DEFAULT_JUDGE


def main() -> int:
    """Evaluate every built-in sample with the default judge; print one line each on stderr."""
    for name in SAMPLES:
        start = time.perf_counter()
        try:
            result = evaluate(load_sample(name), DEFAULT_JUDGE)
        except AgenticError as exc:
            print(f"warmup: sample '{name}' not evaluated: {exc}", file=sys.stderr)
            continue
        run = result.judge_run
        print(
            f"warmup: {name}: {result.n_interactions} interactions judged by {run.identity.label()} "
            f"in {time.perf_counter() - start:.1f}s ({run.cache_hits} from cache, {run.model_calls} new)",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
