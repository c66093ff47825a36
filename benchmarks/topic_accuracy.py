"""How the offline topic classifier's threshold was chosen, and its accuracy (topic adherence, seed 004).

Run: ``.venv/bin/python benchmarks/topic_accuracy.py``. Reads ``sample_data/topic_devset.jsonl`` (112 hand-labelled
queries, eight topic sets split four dev / four test), prints the dev and test accuracy of the MiniLM cosine
with ``"a question about <topic>"`` at each candidate threshold (chosen on dev only), then the accuracy of the
classifier as shipped (a shared stem first, MiniLM for the rest) and of the lexical fallback alone.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentic_core.agentic_metrics.topic_offline import TOPIC_TEMPLATE, classify_queries
from agentic_core.judges.offline.embedding import _default_encoder

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    """Print the threshold sweep and the shipped classifier's accuracy."""
    rows = [json.loads(line) for line in (ROOT / "sample_data" / "topic_devset.jsonl").read_text().splitlines()]
    labels = np.array([r["on_topic"] for r in rows])
    dev = np.array([r["split"] == "dev" for r in rows])
    encoder = _default_encoder()
    queries = encoder.encode([r["query"] for r in rows])
    best = np.array([
        float((encoder.encode([TOPIC_TEMPLATE.format(t) for t in r["topics"]]) @ q).max())
        for r, q in zip(rows, queries, strict=True)
    ])
    for threshold in np.arange(0.05, 0.40, 0.025):
        on = best >= threshold - 1e-9
        print(f"MiniLM cosine >= {threshold:.3f}: dev accuracy {np.mean(on[dev] == labels[dev]):.3f}, "
              f"test {np.mean(on[~dev] == labels[~dev]):.3f}")
    pairs = [(r["query"], "Sure.", tuple(r["topics"])) for r in rows]
    for backend in ("minilm", "lexical"):
        got = np.array([q.on_topic for q in classify_queries(pairs, backend)])
        print(f"shipped classifier ({backend}): dev accuracy {np.mean(got[dev] == labels[dev]):.3f}, "
              f"test {np.mean(got[~dev] == labels[~dev]):.3f}")


if __name__ == "__main__":
    main()
