"""The loaded conversations, kept compact: a read-only sequence that validates a record when it is read.

A large file once cost about 7 GB of memory at a million interactions because every record was
kept as a tree of pydantic models for the whole session. The loader now keeps each valid record as
its JSON text (the line of a JSON Lines file, else ``orjson``'s; exact for what orjson parsed),
LZ4-compressed in blocks of 64, plus the columns evaluation reads
(:class:`~agentic_core.columnar.columns.InteractionColumns`, built while streaming); a
:class:`Conversation` is validated again only when something asks for it (the Explorer's
drill-down reads one; a small cache keeps the last few). Validation is deterministic, so the model
read back equals the one the loader validated.

Records that JSON text could not reproduce exactly (parsed by the standard library: ``NaN``,
``Infinity``, integers past 64 bits; records handed over in memory) are kept as models.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
import pyarrow as pa
from pydantic import TypeAdapter

from agentic_core.columnar.columns import ColumnBuilder, InteractionColumns
from agentic_core.common.gc_control import gc_paused
from agentic_core.common.read_only_sequence import ReadOnlySequence
from agentic_core.data.schemas import Conversation

__all__ = ["ConversationStore", "StoreParts"]

_ONE: TypeAdapter[Conversation] = TypeAdapter(Conversation)
_MANY: TypeAdapter[list[Conversation]] = TypeAdapter(list[Conversation])
_CACHE_SIZE = 64
_BLOCK = 64
"""Records compressed together (LZ4, about 6x on JSON): reading one decompresses ~64 records' text."""
_CODEC = pa.Codec("lz4")


@dataclass
class StoreParts:
    """What a :class:`ConversationStore` holds, as plain data (a load worker sends its piece's back).

    Attributes:
        blocks: The compressed blocks: ``(compressed, size)``.
        where: Per conversation, ``(block, offset, length)`` of its JSON text, or ``None`` (kept as a model).
        models: The conversations kept as models, by position.
        columns: Their columns.
    """

    blocks: list[tuple[bytes, int]]
    where: list[tuple[int, int, int] | None]
    models: dict[int, Conversation]
    columns: InteractionColumns


class ConversationStore(ReadOnlySequence[Conversation]):
    """A read-only sequence of conversations held as compressed JSON (or models), with their columns.

    Behaves like the list it replaces for reading (:class:`~agentic_core.common.read_only_sequence.ReadOnlySequence`):
    ``len``, indexing (negative too), slices (a list), iteration, ``==`` with any sequence of conversations.
    """

    __slots__ = (
        "_blocks", "_builder", "_cache", "_columns", "_last", "_models", "_pending", "_where",
    )
    _WHAT = "conversation"

    def __init__(self, conversations: Sequence[Conversation] = ()) -> None:
        # Per conversation: (block, offset, length) into a compressed block, or -1 (kept as a model).
        self._where: list[tuple[int, int, int] | None] = []
        self._blocks: list[tuple[bytes, int]] = []  # (compressed, size)
        self._pending: list[tuple[int, bytes]] = []  # texts of the block being filled
        self._models: dict[int, Conversation] = {}
        self._builder = ColumnBuilder()
        self._columns: InteractionColumns | None = None
        self._cache: OrderedDict[int, Conversation] = OrderedDict()
        self._last: tuple[int, bytes] | None = None  # the last block decompressed
        for conv in conversations:
            self.append(conv)

    def append(self, conv: Conversation, raw: Any = None) -> None:
        """Add a validated conversation; ``raw`` is the record it was validated from, when exact as JSON
        (its JSON text, or the parsed record to serialise).

        Only the loader adds; everyone else reads.
        """
        text: bytes | None = raw if isinstance(raw, bytes) else None
        if raw is not None and text is None:
            try:
                text = orjson.dumps(raw)
            except TypeError:  # an integer past 64 bits, a non-JSON value: keep the model
                text = None
        if text is None and not isinstance(conv, Conversation):
            # A twin (agentic_core.io.record_twins) is not a model (no model_dump, no place for
            # unknown keys): the loader hands one over only with the record's exact JSON text.
            raise TypeError(f"a {type(conv).__name__} can be kept only with its JSON text")
        index = len(self._where)
        if text is None:
            self._models[index] = conv
            self._where.append(None)
        else:
            self._pending.append((index, text))
            self._where.append(None)
            if len(self._pending) >= _BLOCK:
                self._seal()
        self._columns = None
        self._builder.add(conv)

    def parts(self) -> StoreParts:
        """Everything this store holds, as plain data (see :meth:`extend`)."""
        columns = self.columns  # seals the last block
        return StoreParts(list(self._blocks), list(self._where), dict(self._models), columns)

    def extend(self, parts: StoreParts, keep: Sequence[bool] | None = None) -> None:
        """Append another store's conversations (a load worker's piece), without validating them again.

        Args:
            parts: What the other store holds (:meth:`parts`).
            keep: Per conversation of ``parts``, whether to append it (all when ``None``).
        """
        self._seal()
        base = len(self._blocks)
        self._blocks.extend(parts.blocks)
        where = self._where
        for position, spot in enumerate(parts.where):
            if keep is not None and not keep[position]:
                continue
            if spot is None:
                self._models[len(where)] = parts.models[position]
                where.append(None)
            else:
                where.append((spot[0] + base, spot[1], spot[2]))
        self._columns = None
        self._builder.add_columns(parts.columns, keep)

    def _seal(self) -> None:
        """Compress the pending texts into one block."""
        if not self._pending:
            return
        block = len(self._blocks)
        offset = 0
        for index, text in self._pending:
            self._where[index] = (block, offset, len(text))
            offset += len(text)
        joined = b"".join(text for _, text in self._pending)
        self._blocks.append((_CODEC.compress(joined, asbytes=True), len(joined)))
        self._pending = []

    def _text(self, where: tuple[int, int, int]) -> bytes:
        block, offset, length = where
        last = self._last
        if last is None or last[0] != block:
            compressed, size = self._blocks[block]
            last = self._last = (block, _CODEC.decompress(compressed, size, asbytes=True))
        return last[1][offset : offset + length]

    @property
    def columns(self) -> InteractionColumns:
        """The columns of every conversation (built once, after the last append)."""
        if self._columns is None:
            self._seal()
            self._columns = self._builder.build()
        return self._columns

    @property
    def n_interactions(self) -> int:
        """Number of interactions in all conversations (no validation needed)."""
        return int(self.columns.sizes.sum())

    def __len__(self) -> int:
        return len(self._where)

    def _at(self, index: int) -> Conversation:
        model = self._models.get(index)
        if model is not None:
            return model
        cached = self._cache.get(index)
        if cached is not None:
            return cached
        self._seal()
        where = self._where[index]
        assert where is not None  # every conversation is a model or sealed text
        conv = _ONE.validate_python(orjson.loads(self._text(where)), strict=True)
        # The most recently read first out last (sessions may read from several threads: no
        # reordering, and a lost race only drops a cache entry).
        self._cache[index] = conv
        while len(self._cache) > _CACHE_SIZE:
            try:
                self._cache.popitem(last=False)
            except KeyError:
                break
        return conv

    def __iter__(self) -> Iterator[Conversation]:
        self._seal()
        step = 16 * _BLOCK
        for start in range(0, len(self._where), step):
            stop = min(start + step, len(self._where))
            texts = [self._text(w) for w in self._where[start:stop] if w is not None]
            with gc_paused():  # a burst of acyclic objects (see agentic_core.common.gc_control)
                block = _MANY.validate_python([orjson.loads(t) for t in texts], strict=True) if texts else []
            models = iter(block)
            for index in range(start, stop):
                model = self._models.get(index)
                yield model if model is not None else next(models)

    def __repr__(self) -> str:
        return f"ConversationStore(<{len(self)} conversations>)"
