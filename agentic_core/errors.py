"""The one exception family for errors meant for users.

Every message names four things, so a user can act on it without reading code:
the *place* (file, record, JSON path, setting or argument), the *rule* that was broken,
the *value* that broke it, and the *fix*. Pages show ``str(error)`` with ``st.error``;
the CLI prints it on stderr and exits non-zero.
"""

from __future__ import annotations

from typing import Any

_MAX_VALUE_CHARS = 120


def show_value(value: Any) -> str:
    """Render a value for an error message: repr, shortened so a huge blob stays readable."""
    text = repr(value)
    if len(text) > _MAX_VALUE_CHARS:
        text = text[: _MAX_VALUE_CHARS - 3] + "..."
    return text


class AgenticError(Exception):
    """Base class of every error meant for a user.

    Args:
        place: Where the problem is (``"data.json record 3, conversation[0].score"``,
            ``"--k"``, ``"tool_weights.selection"``).
        rule: The rule that was broken, phrased as the requirement
            (``"must be a number in [0, 1]"``).
        value: The offending value; omitted from the message when ``None`` and
            ``show_value`` is false.
        fix: What the user should do.
        show: Whether to print ``value`` even when it is ``None``.
    """

    def __init__(
        self,
        place: str,
        rule: str,
        value: Any = None,
        fix: str = "",
        *,
        show: bool = True,
    ) -> None:
        self.place = place
        self.rule = rule
        self.value = value
        self.fix = fix
        self.show = show
        parts = [f"{place}: {rule}"]
        if show:
            parts[0] += f" (got {show_value(value)})"
        if fix:
            parts.append(f"Fix: {fix}")
        super().__init__(". ".join(parts))

    def at(self, place: str) -> AgenticError:
        """The same error (same class, rule, value and fix) with another place.

        Interfaces use it to name a setting in their own words (``--k``, "setting 'K'").
        """
        return type(self)(place, self.rule, self.value, self.fix, show=self.show)


class DataError(AgenticError):
    """Input data could not be loaded or validated."""


class SettingsError(AgenticError):
    """A setting (threshold, weights, k, prior, interval level, ...) is invalid."""


class UndefinedEstimateError(AgenticError):
    """A statistic is undefined for the given counts (for example k > n, or n = 0).

    Raised by the scalar functions ``pass_at_k`` / ``pass_pow_k``; vectorised code reports
    such groups as excluded with this reason instead of raising.
    """


class JudgeConfigError(AgenticError):
    """A judge cannot be built: unknown name, missing package, missing API key, ..."""


class CacheError(AgenticError):
    """The judge cache cannot be used (unwritable location, ...)."""


class RequestError(AgenticError):
    """A request to the HTTP endpoint cannot be served as sent (not JSON, too large, ...).

    Args:
        place: Where the problem is (``"request body"``, ``"datasets"``).
        rule: The rule that was broken.
        value: The offending value (never a credential).
        fix: What the caller should do.
        show: Whether to print ``value`` even when it is ``None``.
        status: The HTTP status the endpoint answers with (400 malformed, 413 too large, ...).
    """

    def __init__(
        self, place: str, rule: str, value: Any = None, fix: str = "", *, show: bool = True, status: int = 400
    ) -> None:
        super().__init__(place, rule, value, fix, show=show)
        self.status = status

    def at(self, place: str) -> AgenticError:
        """The same error at another place, keeping its HTTP status."""
        return RequestError(place, self.rule, self.value, self.fix, show=self.show, status=self.status)
