"""The endpoint's own settings: request limits, the judge cache and whether server keys may be used.

Set by ``python -m agentic_core serve`` options, or from environment variables (the Lambda
handler, which has no command line): ``AGENTIC_MAX_BODY_MB``, ``AGENTIC_MAX_DATASETS``,
``AGENTIC_MAX_INTERACTIONS``, ``AGENTIC_SERVICE_CACHE`` (use / refresh / off),
``AGENTIC_CACHE_PATH`` (the judge cache's usual variable) and ``AGENTIC_ALLOW_ENV_KEYS`` (1 / true).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agentic_core.errors import SettingsError
from agentic_core.judges.runner import CacheMode

MIB = 1024 * 1024
DEFAULT_MAX_BODY_MB = 50.0
DEFAULT_MAX_DATASETS = 10_000
DEFAULT_MAX_INTERACTIONS = 100_000

_TRUE = ("1", "true", "yes", "on")


class ServiceConfig(BaseModel):
    """How the endpoint serves requests.

    Attributes:
        max_body_bytes: Largest request body accepted (larger: 413). 50 MiB by default, about
            100k interactions with one tool call each.
        max_datasets: Most conversations in one request (more: 422).
        max_interactions: Most interactions in one request (more: 422); bounds the judge work a
            single request can ask for.
        cache_mode: The judge cache mode (``use``, ``refresh``, ``off``); verdicts are keyed by
            the judge identity and the texts, never by or with a key.
        cache_path: The judge cache file; ``None``: ``AGENTIC_CACHE_PATH`` or the user cache
            folder; ``":memory:"``: kept in this process only.
        allow_env_keys: Let a connector without ``api_key`` use the server's key from the
            environment (the provider's usual variable, or seed 001's ``LLM_API_KEY``). Off by
            default: anyone who can reach the endpoint could otherwise spend the operator's key.
            Never used for a request that names its own ``base_url``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_body_bytes: int = Field(default=int(DEFAULT_MAX_BODY_MB * MIB), ge=1024)
    max_datasets: int = Field(default=DEFAULT_MAX_DATASETS, ge=1)
    max_interactions: int = Field(default=DEFAULT_MAX_INTERACTIONS, ge=1)
    cache_mode: CacheMode = "use"
    cache_path: str | None = None
    allow_env_keys: bool = False

    @classmethod
    def build(cls, **values: object) -> ServiceConfig:
        """Build the settings, translating validation errors for the operator.

        Raises:
            SettingsError: naming the first invalid setting, its rule, value and fix.
        """
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            err = exc.errors()[0]
            name = ".".join(str(p) for p in err["loc"]) or "service settings"
            raise SettingsError(
                name, err["msg"].lower(), err.get("input"), "see `python -m agentic_core serve --help`"
            ) from None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ServiceConfig:
        """The settings from environment variables (see the module docstring); defaults elsewhere.

        Raises:
            SettingsError: a variable holds a value of the wrong kind (named with the variable).
        """
        env = os.environ if environ is None else environ
        values: dict[str, object] = {}
        numbers = (
            ("AGENTIC_MAX_BODY_MB", "max_body_bytes", float),
            ("AGENTIC_MAX_DATASETS", "max_datasets", int),
            ("AGENTIC_MAX_INTERACTIONS", "max_interactions", int),
        )
        for var, name, kind in numbers:
            text = env.get(var, "").strip()
            if not text:
                continue
            try:
                number = kind(text)
            except ValueError:
                raise SettingsError(var, f"must be a {kind.__name__} number", text, f"export {var}=...") from None
            values[name] = int(number * MIB) if name == "max_body_bytes" else number
        mode = env.get("AGENTIC_SERVICE_CACHE", "").strip()
        if mode:
            values["cache_mode"] = mode
        path = env.get("AGENTIC_CACHE_PATH", "").strip()
        if path:
            values["cache_path"] = path
        values["allow_env_keys"] = env.get("AGENTIC_ALLOW_ENV_KEYS", "").strip().lower() in _TRUE
        return cls.build(**values)
