"""How the history packs a run document (or a part of one) into a row: zlib-compressed JSON.

Its own module: the store (:mod:`agentic_core.runs.store`) and the parts of live runs
(:mod:`agentic_core.runs.parts`) pack alike.
"""

from __future__ import annotations

import zlib
from typing import Any

import orjson
from pydantic import BaseModel

from agentic_core.common.gc_control import gc_paused
from agentic_core.errors import AgenticError


class RunStoreError(AgenticError):
    """The run history cannot be used (an unreadable or newer file, an unknown run)."""


# A run document holds every conversation as dicts: building, packing and reading one creates
# millions of small objects and no reference cycle, so the cyclic collector is paused meanwhile (it
# rescanned them over and over: storing a 100k-interaction run took 16 s with it, 4.5 s without).


def pack_document(document: BaseModel) -> bytes:
    """A run document (or part) as a row's bytes."""
    with gc_paused():
        return zlib.compress(orjson.dumps(document.model_dump(mode="json")), 6)


def unpack_document(blob: bytes, place: str) -> Any:
    """A row's bytes as the JSON value packed (validated by the caller).

    Raises:
        RunStoreError: The bytes are damaged (named by ``place``).
    """
    with gc_paused(promote=True):  # the reopened run is kept: straight to the oldest generation
        try:
            return orjson.loads(zlib.decompress(blob))
        except (zlib.error, orjson.JSONDecodeError) as exc:
            raise RunStoreError(
                place, "is damaged and cannot be read", str(exc), "delete it and evaluate again"
            ) from None
