"""A read-only sequence that reads like a list: the base of the project's lazy containers.

:class:`~agentic_core.io.conversation_store.ConversationStore` (conversations kept as compressed
JSON) and :class:`~agentic_core.columnar.component_list.ComponentList` (tool components kept pickled) each
replace a list that callers only read. What they share is written here once: indexing with
negative indices and ``IndexError``, slices (a list), ``==`` with any sequence, unhashable. A
subclass says how long it is, how to read one item at a non-negative index, and how to iterate.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import ClassVar, TypeVar, overload

__all__ = ["ReadOnlySequence"]

T = TypeVar("T")


class ReadOnlySequence(Sequence[T]):
    """Reads like a list (see the module docstring); subclasses implement ``__len__``, ``_at`` and ``__iter__``."""

    __slots__ = ()
    _WHAT: ClassVar[str] = "item"
    """What an item is, for the ``IndexError`` message ("conversation index out of range")."""

    @abstractmethod
    def _at(self, index: int) -> T:
        """The item at ``index`` (``0 <= index < len(self)``)."""

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return [self._at(i) for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(f"{self._WHAT} index out of range")
        return self._at(index)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]
