"""The seed-001 request format: ``{"datasets": [...], "connector": ..., "config": ...}``.

Only ``datasets`` is loaded. Every other key is noted as ignored (judge, thresholds and k are
chosen in the app or on the command line), and a credential found there (a request usually
carries the connector's API key) is reported by its path only: its value is never read into a
message or stored. Format detection, which routes a request object here, is in
:mod:`agentic_core.io.parse`.
"""

from __future__ import annotations

from typing import Any

from agentic_core.common.secrets import is_secret_key
from agentic_core.io.line_numbers import LazyLines
from agentic_core.io.load_report import Issue, file_error
from agentic_core.io.parsed import Parsed, empty_issue
from agentic_core.io.render import json_type, safe_value


def _secret_paths(value: Any, path: str, depth: int = 0) -> list[str]:
    """Paths of credential-looking keys (values are never read or shown)."""
    found: list[str] = []
    if depth > 6:
        return found
    if isinstance(value, dict):
        for key, child in value.items():
            child_path = f"{path}.{key}" if path else str(key)
            if is_secret_key(key) and child not in (None, ""):
                found.append(child_path)
            else:
                found.extend(_secret_paths(child, child_path, depth + 1))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            found.extend(_secret_paths(child, f"{path}[{i}]", depth + 1))
    return found


def from_request(file: str, doc: dict[str, Any], data: bytes) -> Parsed:
    """A seed-001 request: take ``datasets``; note (never echo) everything else.

    Args:
        file: The file name (for messages).
        doc: The parsed request object.
        data: The bytes ``doc`` was parsed from (for record line numbers), if any.

    Returns:
        The records of ``datasets`` and the notes about the other keys.
    """
    parsed = Parsed("request")
    others = sorted(str(k) for k in doc if k != "datasets")
    if others:
        names = ", ".join(repr(k) for k in others)
        parsed.issues.append(
            Issue(
                "info",
                file,
                None,
                "",
                f"request keys {names} are ignored; only 'datasets' is loaded",
                None,
                "choose the judge, thresholds and k in the app or on the command line",
            )
        )
    for path in _secret_paths({k: v for k, v in doc.items() if k != "datasets"}, ""):
        # The path is shown, the value never is.
        parsed.issues.append(
            Issue(
                "warning",
                file,
                None,
                path,
                "this data file contains a credential; it was ignored and not stored",
                None,
                "remove it from the file (give API keys in the app's password field or an environment "
                "variable), and revoke it if the file has been shared",
            )
        )
    datasets = doc.get("datasets")
    if "datasets" not in doc:
        parsed.kind = "invalid"
        parsed.issues.append(
            file_error(
                file,
                "a request object needs a 'datasets' list of conversations",
                'add "datasets": [ ...conversations... ]',
                path="datasets",
            )
        )
    elif not isinstance(datasets, list):
        parsed.kind = "invalid"
        parsed.issues.append(
            file_error(
                file,
                f"must be a list (JSON array) of conversations, not {json_type(datasets)}",
                'write "datasets": [ {...}, {...} ]',
                path="datasets",
                value=safe_value(datasets),
            )
        )
    else:
        parsed.records = datasets
        parsed.line_of = LazyLines(data, b'"datasets"', len(datasets))
        if not datasets:
            parsed.issues.append(empty_issue(file, "datasets"))
    return parsed
