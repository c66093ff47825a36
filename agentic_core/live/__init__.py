"""Live traces: OTLP/HTTP exports to ``agentic-eval serve`` judged as their conversations complete.

- :mod:`~agentic_core.live.config`: the settings (idle time, bounds, judge, references, files).
- :mod:`~agentic_core.live.spool`: spans received, kept on the disk until judged.
- :mod:`~agentic_core.live.pending`: which conversations are complete.
- :mod:`~agentic_core.live.judging`: the file importer's grouping and mapping, then ``evaluate``.
- :mod:`~agentic_core.live.live_runs`: one live run per service, judge and UTC day.
- :mod:`~agentic_core.live.ingest`: :class:`LiveIngest`, what the endpoint calls.
"""

from agentic_core.live.config import LiveConfig, live_judges
from agentic_core.live.ingest import Full, LiveIngest

__all__ = ["Full", "LiveConfig", "LiveIngest", "live_judges"]
