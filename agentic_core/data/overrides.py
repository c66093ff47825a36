"""Human overrides: a person's verdict on an interaction, which replaces the judge's.

Made in the Explorer (or given in a run file), stored with the run, and used by every aggregate
and export: an overridden interaction counts as correct or incorrect as the person said, whatever
its judge score (an unscored one becomes scored), and the exports say so.
"""

from __future__ import annotations

import time

from pydantic import BaseModel, ConfigDict, Field


class Override(BaseModel):
    """A person's verdict on one interaction.

    Attributes:
        row: The interaction's row in the run (conversation order, then position).
        correct: Whether the interaction counts as correct.
        note: Why (shown in the Explorer and the exports).
        created_at: When it was made (seconds since the epoch).
    """

    model_config = ConfigDict(frozen=True)

    row: int = Field(ge=0)
    correct: bool
    note: str = ""
    created_at: float = Field(default_factory=time.time)
