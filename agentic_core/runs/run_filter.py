"""Finding and grouping stored runs by their tags, note and metadata: one rule for every face.

:class:`RunFilter` is what History's filters, ``runs list --tag/--meta/--search`` and Compare's pickers
keep; :class:`RunGrouping` is what History's trend and Compare group by (a line, or a side, per tag or
per value of one metadata key). Both read only a run's description, so they work on any history,
however old (a run stored before tags existed has none).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from agentic_core.runs.payload import RunMeta


class Tagged(Protocol):
    """Anything with a run's tags and metadata (a run's description, a trend point)."""

    @property
    def tags(self) -> Sequence[str]: ...

    @property
    def metadata(self) -> Mapping[str, str]: ...


T = TypeVar("T", bound=Tagged)


class RunFilter(BaseModel):
    """Which runs to show: every condition must hold.

    Attributes:
        tags: Tags the run must all carry.
        metadata: Key -> value the run's metadata must all hold (exact, case-sensitive).
        text: Words that must each appear, ignoring case, in the run's name, note, tags, data name, id
            or metadata values.
    """

    model_config = ConfigDict(frozen=True)

    tags: tuple[str, ...] = ()
    metadata: dict[str, str] = Field(default_factory=dict)
    text: str = ""

    def __bool__(self) -> bool:
        return bool(self.tags or self.metadata or self.text.strip())

    def matches(self, meta: RunMeta) -> bool:
        """Whether one run passes."""
        if not set(self.tags) <= set(meta.tags):
            return False
        if any(meta.metadata.get(k) != v for k, v in self.metadata.items()):
            return False
        words = self.text.casefold().split()
        if not words:
            return True
        haystack = "\n".join([meta.name, meta.note, meta.data_name, meta.id, *meta.tags, *meta.metadata.values()])
        haystack = haystack.casefold()
        return all(word in haystack for word in words)

    def apply(self, metas: Iterable[RunMeta]) -> list[RunMeta]:
        """The runs that pass, in their order."""
        return [m for m in metas if self.matches(m)]


def known_tags(metas: Iterable[Tagged]) -> list[str]:
    """Every tag the runs carry, sorted (what a tag filter offers)."""
    return sorted({t for m in metas for t in m.tags}, key=str.casefold)


def known_metadata(metas: Iterable[Tagged]) -> dict[str, list[str]]:
    """Every metadata key the runs carry, with its values, both sorted (what a key=value filter offers)."""
    values: dict[str, set[str]] = {}
    for meta in metas:
        for key, value in meta.metadata.items():
            values.setdefault(key, set()).add(value)
    return {key: sorted(values[key], key=str.casefold) for key in sorted(values, key=str.casefold)}


class RunGrouping(BaseModel):
    """Group runs per tag, or per value of one metadata key.

    Per tag, a run with two tags is in both groups and a run without any in the ``None`` group; per
    metadata key, a run without the key is in the ``None`` group.

    Attributes:
        by: ``tag`` or ``metadata``.
        key: The metadata key (``model``), for ``by="metadata"``.
    """

    model_config = ConfigDict(frozen=True)

    by: Literal["tag", "metadata"]
    key: str | None = None

    @property
    def label(self) -> str:
        """``tag`` or ``metadata: model``, for a picker (:meth:`from_label` reads it back)."""
        return "tag" if self.by == "tag" else f"metadata: {self.key}"

    @classmethod
    def from_label(cls, label: str) -> RunGrouping:
        """The grouping a :attr:`label` names."""
        return cls(by="tag") if label == "tag" else cls(by="metadata", key=label.removeprefix("metadata: "))

    def none_label(self) -> str:
        """What the ``None`` group is called: ``(no tag)``, ``(no model)``."""
        return "(no tag)" if self.by == "tag" else f"(no {self.key})"

    def values_of(self, item: Tagged) -> list[str | None]:
        """The groups one run belongs to."""
        if self.by == "tag":
            return list(item.tags) or [None]
        return [item.metadata.get(self.key or "")]

    def split(self, items: Iterable[T]) -> dict[str | None, list[T]]:
        """The items per group, groups sorted by name (``None`` last), items in their order within each."""
        groups: dict[str | None, list[T]] = {}
        for item in items:
            for value in self.values_of(item):
                groups.setdefault(value, []).append(item)
        return dict(sorted(groups.items(), key=lambda kv: (kv[0] is None, (kv[0] or "").casefold())))


def groupings(metas: Iterable[Tagged]) -> list[RunGrouping]:
    """The groupings the runs allow: per tag if any carries one, then per each metadata key they carry."""
    metas = list(metas)
    tags = [RunGrouping(by="tag")] if any(m.tags for m in metas) else []
    return tags + [RunGrouping(by="metadata", key=key) for key in known_metadata(metas)]
