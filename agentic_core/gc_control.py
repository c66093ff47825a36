"""Pausing Python's cyclic garbage collector around bursts of allocation (one helper for all).

Loading, judging and tool scoring create hundreds of thousands of small containers that form no
reference cycles; the collector would rescan every live object of the dataset again and again
meanwhile (measured: about half the time of tool scoring and more than half of loading).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused(pause: bool = True, *, promote: bool = False) -> Iterator[None]:
    """Pause the cyclic garbage collector inside the block.

    Args:
        pause: ``False`` makes this a no-op (callers that only sometimes pause, e.g. not during
            long LLM runs, whose asyncio machinery does create cyclic garbage).
        promote: On exit, move the objects created meanwhile straight to the oldest generation
            (``freeze`` + ``unfreeze``, two list splices): long-lived data such as a loaded
            dataset would otherwise be traversed by the next young collection, and again when
            promoted. Skipped when the caller has frozen objects of its own (``unfreeze`` would
            release them).

    The collector is re-enabled on exit only if it was enabled on entry.
    """
    was_enabled = gc.isenabled()
    if pause:
        gc.disable()
    try:
        yield
    finally:
        if pause:
            if promote and gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            if was_enabled:
                gc.enable()
