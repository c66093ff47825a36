"""Keyword arguments read off an object's attributes (parsed options, a sample's fields).

Passing ten options through as ``name=args.name`` wrote each name twice, in every command that did
it; a call here names each once.
"""

from __future__ import annotations

from typing import Any


def keywords_from(source: object, *names: str, **renamed: str) -> dict[str, Any]:
    """Keyword arguments from ``source``'s attributes.

    Args:
        source: The object holding the values (an ``argparse.Namespace``, a model, ...).
        *names: Attributes passed under their own name.
        **renamed: ``keyword="attribute"`` where the callee's name differs from the attribute's.

    Returns:
        ``{name: source.name}`` for each name, then ``{keyword: source.attribute}``.

    Raises:
        AttributeError: ``source`` has no such attribute (a programming error, not a user's).
    """
    return {**{name: getattr(source, name) for name in names}, **{k: getattr(source, a) for k, a in renamed.items()}}
