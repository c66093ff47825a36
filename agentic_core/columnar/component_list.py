"""Per interaction, its tool components: a read-only sequence that stays pickled until it is read.

A load worker (:mod:`agentic_core.io.load_pieces`) scores tool use and sends a piece's
components back with its columns. Reading them back cost the parent about 13 µs per distinct
component, close to 3 s of the parent's CPU at a million interactions, while the two load
workers needed the same cores; and nothing in ``evaluate`` or ``aggregate`` reads them (both
read the numeric table built with them). So what crosses a process boundary is a list of packs,
each its components pickled together, and a pack is read back (and kept) only when one of its
components is asked for: the Tools page, the Explorer's drill-down, an export.

Behaves like the list it replaces for reading (:class:`~agentic_core.common.read_only_sequence.ReadOnlySequence`):
``len``, indexing (negative too), slices (a list), iteration, ``==`` with any sequence.
"""

from __future__ import annotations

import bisect
import pickle
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from agentic_core.common.read_only_sequence import ReadOnlySequence
from agentic_core.tools import ToolComponents

__all__ = ["ComponentList"]

Component = ToolComponents | None


class ComponentList(ReadOnlySequence[Component]):
    """Tool components in packs, each a list or its pickled bytes (see the module docstring)."""

    __slots__ = ("_ends", "_packs")
    _WHAT = "component"

    def __init__(self, values: Iterable[Component] = ()) -> None:
        self._packs: list[list[Component] | bytes] = []
        self._ends: list[int] = []  # per pack, the number of components up to its end
        self.extend(values)

    def extend(self, values: Iterable[Component]) -> None:
        """Append components: another list's packs as they are (pickled ones stay pickled), else one new pack."""
        if isinstance(values, ComponentList):
            total = len(self)
            for pack, size in list(zip(values._packs, values._sizes(), strict=True)):  # (values may be self)
                total += size
                self._packs.append(pack)
                self._ends.append(total)
            return
        pack = list(values)
        if pack:
            self._packs.append(pack)
            self._ends.append(len(self) + len(pack))

    def take(self, keep: Sequence[bool]) -> ComponentList:
        """The components whose ``keep`` is true, in order."""
        return ComponentList(value for value, kept in zip(self, keep, strict=True) if kept)

    def _sizes(self) -> list[int]:
        return [end - start for start, end in zip([0, *self._ends], self._ends, strict=False)]

    def _pack(self, k: int) -> list[Component]:
        pack = self._packs[k]
        if isinstance(pack, bytes):
            # Our own load worker's (or Ray task's) output, never data from outside: what crossed
            # the pipe was pickled all the same.
            pack = pickle.loads(pack)
            # Kept: read once, then as fast as a list. Two threads reading the same pack at once
            # both decode it; each assignment is whole, so either result stands.
            self._packs[k] = pack
        assert isinstance(pack, list)
        return pack

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def _at(self, index: int) -> Component:
        k = bisect.bisect_right(self._ends, index)
        return self._pack(k)[index - (self._ends[k - 1] if k else 0)]

    def __iter__(self) -> Iterator[Component]:
        for k in range(len(self._packs)):
            yield from self._pack(k)

    def __reduce__(self) -> tuple[Any, ...]:
        # Each pack pickled on its own (bytes that are already pickled pass as they are), so the
        # receiver holds bytes until it reads a pack.
        packs = [p if isinstance(p, bytes) else pickle.dumps(p, protocol=pickle.HIGHEST_PROTOCOL) for p in self._packs]
        return _from_packs, (packs, list(self._ends))

    def __repr__(self) -> str:
        return f"ComponentList(<{len(self)} components in {len(self._packs)} packs>)"


def _from_packs(packs: list[list[Component] | bytes], ends: list[int]) -> ComponentList:
    result = ComponentList()
    result._packs = packs
    result._ends = ends
    return result
