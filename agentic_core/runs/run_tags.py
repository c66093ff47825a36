"""A run's tags, note and metadata: what names an experiment, validated and bounded in one place.

A run carries a set of short **tags** (``baseline``, ``prompt-v2``), a free-text **note** and free
**metadata** (string key -> string value; suggested keys: :data:`SUGGESTED_KEYS`). Every face sets them
through :meth:`RunTags.checked` (``evaluate --tag/--note/--meta``, ``runs tag``, the endpoint's
``metadata``, the Run and History pages, the run file importer) or :func:`tags_from_resource` (an
OTLP resource's attributes, for live runs), so the rules below are the same everywhere.

Rules (:data:`LIMITS`): at most 20 tags of 1-40 characters (letters, digits and ``_ - . : / @ + # =``:
no spaces or commas, so a tag is one word on a command line and in a search); a note of at most 2,000
characters; at most 20 metadata keys, each a letter then letters, digits, ``_ . -`` (at most 40), each
value one line of at most 200 characters. Tags are a set (duplicates removed, sorted).

Never a secret: a key that looks like a credential's (``api_key``, ``token``, ``password``: the same
rule that masks such keys everywhere, :func:`~agentic_core.common.secrets.is_secret_key`) is refused, and
so is any tag, note or value holding a secret the process knows (a registered key, a credential
environment variable's value) or shaped like a provider's key (``sk-...``, ``ghp_...``, ``AKIA...``). The
refusal never repeats the value. Refusing rather than masking: a masked value would be stored as
``***`` and look like data.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from agentic_core.common.secrets import is_secret_key, looks_like_credential, mask_known
from agentic_core.errors import SettingsError

MAX_TAGS = 20
MAX_TAG_CHARS = 40
MAX_NOTE_CHARS = 2000
MAX_METADATA_KEYS = 20
MAX_KEY_CHARS = 40
MAX_VALUE_CHARS = 200
LIMITS = {
    "tags": MAX_TAGS, "tag characters": MAX_TAG_CHARS, "note characters": MAX_NOTE_CHARS,
    "metadata keys": MAX_METADATA_KEYS, "key characters": MAX_KEY_CHARS, "value characters": MAX_VALUE_CHARS,
}  # fmt: skip
"""Every bound, by name (the docs and tests read them here)."""

SUGGESTED_KEYS = ("agent_version", "model", "prompt_hash", "git_commit")
"""Metadata keys worth setting on every run (any other key is allowed)."""

_TAG = re.compile(r"^[\w.:/@+#=-]+$")
_KEY = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]*$")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # tab and newlines are allowed in a note
_LINE_BREAK = re.compile(r"[\r\n\t]")


@dataclass(frozen=True)
class TagPlaces:
    """How a face names each field in its errors: ``{i}`` is a tag's index (from 0), ``{n}`` its number (from 1),
    ``{key}`` a metadata key."""

    tag: str = "tag {n}"
    note: str = "note"
    key: str = "metadata key {key!r}"

    @classmethod
    def under(cls, place: str) -> TagPlaces:
        """The plain names inside ``place`` (a run file's name): ``FILE: tag 2``, ``FILE: note``."""
        escaped = place.replace("{", "{{").replace("}", "}}")  # a file name is text, not a format
        return cls(f"{escaped}: {cls.tag}", f"{escaped}: {cls.note}", f"{escaped}: {cls.key}")


DEFAULT_PLACES = TagPlaces()
"""Plain names (``tag 0``, ``note``, ``metadata key 'model'``): the store's and the pages'."""
CLI_PLACES = TagPlaces(tag="--tag", note="--note", key="--meta {key}")
"""The command line's names (``evaluate``, ``runs tag``)."""


def _no_secret(text: str, place: str, what: str) -> None:
    if looks_like_credential(text) or mask_known(text) != text:
        raise SettingsError(
            place, f"must not hold a credential (this {what} looks like a key or holds one this process knows)",
            fix="leave keys out of tags, notes and metadata: name where the key is kept instead", show=False,
        )  # fmt: skip


def check_tag(tag: Any, place: str) -> str:
    """One tag, stripped, or the rule it breaks.

    Raises:
        SettingsError: not a string, empty, too long, a character outside the allowed ones, or a secret.
    """
    if not isinstance(tag, str):
        raise SettingsError(place, "must be a string", tag, 'write tags as strings, such as "baseline"')
    text = tag.strip()
    if not text:
        raise SettingsError(place, "must not be empty", tag, "give the tag a word, or leave it out")
    if len(text) > MAX_TAG_CHARS:
        raise SettingsError(place, f"must be at most {MAX_TAG_CHARS} characters", text, "shorten the tag")
    if not _TAG.match(text):
        raise SettingsError(
            place, "must be one word of letters, digits and _ - . : / @ + # = (no spaces or commas)", text,
            "join words with - or _ (prompt-v2), or give several tags",
        )  # fmt: skip
    _no_secret(text, place, "tag")
    return text


def check_note(note: Any, place: str) -> str:
    """A note, stripped, or the rule it breaks.

    Raises:
        SettingsError: not a string, too long, control characters, or a secret.
    """
    if not isinstance(note, str):
        raise SettingsError(place, "must be a string", note, "write the note as text")
    text = note.strip()
    if len(text) > MAX_NOTE_CHARS:
        raise SettingsError(
            place, f"must be at most {MAX_NOTE_CHARS:,} characters", f"{len(text):,} characters",
            "shorten the note (link to a longer document instead)",
        )  # fmt: skip
    if _CONTROL.search(text):
        raise SettingsError(place, "must not hold control characters", text, "remove them")
    _no_secret(text, place, "note")
    return text


def check_key(key: Any, place: str) -> str:
    """A metadata key, or the rule it breaks (a credential-looking key is refused).

    Raises:
        SettingsError: not a string, empty, too long, a character outside the allowed ones, or a credential's name.
    """
    if not isinstance(key, str) or not key:
        raise SettingsError(place, "must be a non-empty string", key, f"use a name such as {SUGGESTED_KEYS[0]}")
    if len(key) > MAX_KEY_CHARS or not _KEY.match(key):
        raise SettingsError(
            place, f"must be a letter then letters, digits, _ . or - (at most {MAX_KEY_CHARS} characters)", key,
            f"use a name such as {', '.join(SUGGESTED_KEYS)}",
        )  # fmt: skip
    if is_secret_key(key):
        raise SettingsError(
            place, "must not name a credential (api_key, token, secret, password, ...): metadata never holds keys",
            key, "leave credentials out of a run's metadata",
        )  # fmt: skip
    return key


def check_value(value: Any, place: str) -> str:
    """A metadata value, stripped, or the rule it breaks.

    Raises:
        SettingsError: not a string, empty, longer than one line or the bound, or a secret.
    """
    if not isinstance(value, str):
        raise SettingsError(place, "must be a string", value, 'write the value in quotes, such as "1.4.2"')
    text = value.strip()
    if not text:
        raise SettingsError(place, "must not be empty", value, "give a value, or leave the key out")
    if len(text) > MAX_VALUE_CHARS:
        raise SettingsError(place, f"must be at most {MAX_VALUE_CHARS} characters", text, "shorten the value")
    if _LINE_BREAK.search(text) or _CONTROL.search(text):
        raise SettingsError(place, "must be one line (no line breaks, tabs or control characters)", text,
                            "keep it on one line; longer text belongs in the note")  # fmt: skip
    _no_secret(text, place, "value")
    return text


class RunTags(BaseModel):
    """A run's tags, note and metadata (see the module's rules).

    Built with :meth:`checked` (validated, normalised); a bare ``RunTags(...)`` trusts its input, as the
    store does when it reads what it wrote.

    Attributes:
        tags: The tags, sorted, no duplicates.
        note: Free text (empty when none).
        metadata: String key -> string value, keys sorted.
    """

    model_config = ConfigDict(frozen=True)

    tags: tuple[str, ...] = ()
    note: str = ""
    metadata: dict[str, str] = Field(default_factory=dict)

    @classmethod
    def checked(
        cls,
        tags: Iterable[Any] = (),
        note: Any = "",
        metadata: Mapping[Any, Any] | None = None,
        places: TagPlaces = DEFAULT_PLACES,
    ) -> RunTags:
        """Validated, normalised tags, note and metadata.

        Args:
            tags: The tags (duplicates removed; sorted).
            note: The note.
            metadata: Key -> value.
            places: How the face names each field in its errors.

        Raises:
            SettingsError: the first rule broken, naming the field, the rule, the value (never a
                secret) and the fix.
        """
        clean = sorted({check_tag(t, places.tag.format(i=i, n=i + 1)) for i, t in enumerate(tags)}, key=str.casefold)
        if len(clean) > MAX_TAGS:
            raise SettingsError(
                places.tag.format(i=MAX_TAGS, n=MAX_TAGS + 1), f"is one tag too many: at most {MAX_TAGS} tags",
                len(clean), "keep the tags that name the experiment; put the rest in the note",
            )  # fmt: skip
        meta = dict(metadata or {})
        if len(meta) > MAX_METADATA_KEYS:
            raise SettingsError(places.key.format(key=list(meta)[MAX_METADATA_KEYS]),
                                f"is one key too many: at most {MAX_METADATA_KEYS} metadata keys", len(meta),
                                "keep the keys you filter or group on; put the rest in the note")  # fmt: skip
        values = {
            check_key(k, places.key.format(key=k)): check_value(v, places.key.format(key=k)) for k, v in meta.items()
        }
        text = check_note(note, places.note.format())
        return cls(tags=tuple(clean), note=text, metadata=dict(sorted(values.items())))

    @classmethod
    def from_request(cls, value: Any, place: str = "metadata") -> RunTags:
        """The endpoint's ``metadata`` object: ``tags`` (a list), ``note`` (text), any other key a metadata value.

        Raises:
            SettingsError: not an object, or a rule broken (located at ``metadata.tags[2]``, ``metadata.model``).
        """
        if not isinstance(value, dict):
            raise SettingsError(place, "must be an object", value,
                                'write "metadata": {"tags": ["nightly"], "note": "...", "model": "..."}')
        tags = value.get("tags", [])
        if not isinstance(tags, list):
            raise SettingsError(f"{place}.tags", "must be a list of strings", tags, 'write "tags": ["nightly"]')
        places = TagPlaces(tag=f"{place}.tags[{{i}}]", note=f"{place}.note", key=f"{place}.{{key}}")
        rest = {k: v for k, v in value.items() if k not in ("tags", "note")}
        return cls.checked(tags, value.get("note", ""), rest, places)

    def request_form(self) -> dict[str, Any]:
        """The endpoint's form: ``tags``, ``note`` and the metadata keys side by side (what ``from_request`` reads)."""
        return {"tags": list(self.tags), "note": self.note, **self.metadata}

    def fields(self) -> dict[str, Any]:
        """The three fields as a run's description holds them (``RunMeta.tags``, ``note``, ``metadata``)."""
        return {"tags": list(self.tags), "note": self.note, "metadata": dict(self.metadata)}

    def __bool__(self) -> bool:
        return bool(self.tags or self.note or self.metadata)


def parse_meta_pairs(pairs: Iterable[str], place: str = "--meta") -> dict[str, str]:
    """``KEY=VALUE`` texts (``--meta``, or the lines of a form; blank ones skipped) as a mapping.

    ``place`` may hold ``{n}``, the text's number from 1 (``"metadata line {n}"``); keys and values are
    checked by :meth:`RunTags.checked`, not here.

    Raises:
        SettingsError: a text without ``=``, or a key given twice.
    """
    out: dict[str, str] = {}
    for i, pair in enumerate(pairs):
        if not pair.strip():
            continue
        key, eq, value = pair.partition("=")
        key = key.strip()
        where = place.format(n=i + 1)
        if not eq:
            raise SettingsError(where, "must be KEY=VALUE", pair, "write it as model=gpt-4o-mini")
        if key in out:
            raise SettingsError(where, f"sets {key!r} twice", pair, "give each key once")
        out[key] = value
    return out


class TagEdit(BaseModel):
    """A change to a run's tags: tags added and removed, the note replaced, metadata keys set and removed.

    Attributes:
        add: Tags to add.
        remove: Tags to remove (one the run does not have changes nothing).
        note: The new note (``None``: unchanged; ``""`` clears it).
        set_metadata: Keys to set (replacing their values).
        unset: Metadata keys to remove.
    """

    add: list[str] = Field(default_factory=list)
    remove: list[str] = Field(default_factory=list)
    note: str | None = None
    set_metadata: dict[str, str] = Field(default_factory=dict)
    unset: list[str] = Field(default_factory=list)

    def apply(self, current: RunTags, places: TagPlaces = CLI_PLACES) -> RunTags:
        """The run's tags after this change, validated as a whole.

        Raises:
            SettingsError: a rule broken by the result (a bad tag, one tag too many, ...).
        """
        removed = {t.strip() for t in self.remove}
        tags = [t for t in (*current.tags, *self.add) if not isinstance(t, str) or t.strip() not in removed]
        metadata = {k: v for k, v in current.metadata.items() if k not in self.unset}
        metadata.update(self.set_metadata)
        note = current.note if self.note is None else self.note
        return RunTags.checked(tags, note, metadata, places)


# -- live runs: an OTLP resource's attributes -------------------------------------------------------

RESOURCE_TAGS = "agentic.run.tags"
"""OTLP resource attribute: the run's tags, a string array or one comma-separated string."""
RESOURCE_NOTE = "agentic.run.note"
"""OTLP resource attribute: the run's note."""
RESOURCE_META_PREFIX = "agentic.run.meta."
"""OTLP resource attributes ``agentic.run.meta.KEY``: metadata ``KEY`` (``agentic.run.meta.model``)."""
SERVICE_VERSION = "service.version"
"""OpenTelemetry's own resource attribute for the agent's version: metadata ``agent_version`` unless given."""


class ResourceTags(NamedTuple):
    """What an OTLP resource says about its run: the tags it carries and every attribute refused, with why."""

    tags: RunTags
    problems: list[SettingsError]


def tags_from_resource(attributes: Mapping[str, Any]) -> ResourceTags:
    """A live run's tags, note and metadata from an OTLP resource's attributes (already decoded to plain values).

    Reads :data:`RESOURCE_TAGS`, :data:`RESOURCE_NOTE` and :data:`RESOURCE_META_PREFIX` ``KEY``; OpenTelemetry's
    ``service.version`` becomes ``agent_version`` when that key is not given. Numbers and booleans are written
    as text. A resource is not a request that can be refused: an attribute that breaks a rule is left out and
    returned in ``problems`` (its place is the attribute's name), never dropped silently; the rest is kept.

    Args:
        attributes: The resource's attributes (``Span.resource`` of :mod:`agentic_core.io.otel_spans`).

    Returns:
        The tags and the problems (empty when every attribute was valid).
    """
    problems: list[SettingsError] = []

    def kept(check: Any, value: Any, place: str) -> Any:
        try:
            return check(value, place)
        except SettingsError as exc:
            problems.append(exc)
            return None

    raw_tags = attributes.get(RESOURCE_TAGS, [])
    if isinstance(raw_tags, str):  # one string: "baseline,prompt-v2" (attributes of some SDKs cannot be arrays)
        raw_tags = [t for t in raw_tags.split(",") if t.strip()]
    items = raw_tags if isinstance(raw_tags, list) else [raw_tags]
    tags = [t for i, item in enumerate(items) if (t := kept(check_tag, item, f"{RESOURCE_TAGS}[{i}]"))]
    if len(set(tags)) > MAX_TAGS:
        problems.append(SettingsError(RESOURCE_TAGS, f"holds more than {MAX_TAGS} tags: the first {MAX_TAGS} kept",
                                      len(set(tags)), "send fewer tags"))  # fmt: skip
        tags = sorted(set(tags), key=str.casefold)[:MAX_TAGS]
    note = kept(check_note, attributes.get(RESOURCE_NOTE, ""), RESOURCE_NOTE) or ""
    metadata: dict[str, str] = {}
    given = [(name[len(RESOURCE_META_PREFIX):], name, v) for name, v in attributes.items()
             if name.startswith(RESOURCE_META_PREFIX)]  # fmt: skip
    if SERVICE_VERSION in attributes and not any(key == "agent_version" for key, _, _ in given):
        given.append(("agent_version", SERVICE_VERSION, attributes[SERVICE_VERSION]))
    for key, name, value in given:
        # Numbers and booleans as text (a version sent as 2 or 1.4); anything else is checked as it came.
        text = value
        if isinstance(value, bool):
            text = str(value).lower()
        elif isinstance(value, int | float):
            text = str(value)
        if len(metadata) == MAX_METADATA_KEYS:
            problems.append(SettingsError(name, f"is past the {MAX_METADATA_KEYS} metadata keys a run holds: left out",
                                          key, "send fewer agentic.run.meta.* attributes"))  # fmt: skip
            continue
        if kept(check_key, key, name) is not None and (clean := kept(check_value, text, name)) is not None:
            metadata[key] = clean
    return ResourceTags(RunTags.checked(tags, note, metadata), problems)
