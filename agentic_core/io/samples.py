"""The built-in sample datasets shipped in ``sample_data/`` (installed as ``agentic_core/sample_data``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from agentic_core.common.sample_dir import SAMPLE_DIR
from agentic_core.errors import DataError
from agentic_core.io.loader import LoadReport, load_paths


@dataclass(frozen=True)
class Sample:
    """A built-in dataset: file name, title, and what it shows."""

    name: str
    file: str
    title: str
    description: str

    @property
    def path(self) -> Path:
        """Where the file lives."""
        return SAMPLE_DIR / self.file


SAMPLES: dict[str, Sample] = {
    s.name: s
    for s in (
        Sample(
            "support",
            "support_bot_attempts.jsonl",
            "Support bot: 30 tasks x 8 attempts",
            "Repeated attempts per task (task_id): pass@K vs pass^K per task with credible intervals.",
        ),
        Sample(
            "travel",
            "travel_agent.jsonl",
            "Travel agent: multi-turn with tool calls",
            "Multi-turn booking conversations; some fail on tools (wrong parameter, missing call, order, "
            "result not used).",
        ),
        Sample(
            "seeds",
            "seed_examples.json",
            "Seed examples: calculator, capital of France",
            "The seeds' own examples: K=3 responses per question, plus the endpoint's two conversations.",
        ),
        Sample(
            "labelled",
            "labelled_support.jsonl",
            "Labelled support answers: judge vs people",
            "28 support questions answered twice, each answer with a person's verdict (human_label / "
            "human_score): the Calibration page's sample.",
        ),
    )
}
DEFAULT_SAMPLE = "support"


def load_sample(name: str) -> LoadReport:
    """Load a built-in sample by name.

    Raises:
        DataError: unknown sample name or missing file.
    """
    sample = SAMPLES.get(name)
    if sample is None:
        raise DataError("sample", f"must be one of {', '.join(SAMPLES)}", name, "pick a built-in sample")
    if not sample.path.exists():
        raise DataError(
            str(sample.path),
            "the built-in sample file is missing",
            sample.file,
            "restore sample_data/ from git (a checkout) or reinstall the package (pip install agentic-workbench)",
        )
    return load_paths([sample.path])
