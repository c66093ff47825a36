"""Seed 001's ``connector`` to a judge, without importing anything the request names.

The reference Lambda imported whatever ``class_path`` a caller sent (``os.system`` included).
Here ``class_path`` is looked up, as an exact string, in a table built from the provider
registry (:data:`agentic_core.judges.llm.providers.PROVIDERS`); the class itself is then imported
by the registry from its own fixed module name. Anything else is a 422 naming ``class_path``
and the allowed values, before any import.

``params`` are filtered to what the judge passes to the chat model's constructor (model, key,
temperature, base URL, timeout, retries, under the names the class itself knows too); every
other parameter is reported as ignored and never passed: a parameter such as ``callbacks`` or
``http_client`` must not reach a constructor from the network.

Keys: taken from ``params.api_key`` (or the class's own name for it) for this request only.
The server's environment keys are used only when the operator allowed it, and never for a
request that names its own ``base_url`` (the key would go to a server the caller chose).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import SecretStr

from agentic_core.errors import JudgeConfigError, SettingsError
from agentic_core.judges.llm.options import LLM_OPTIONS
from agentic_core.judges.spec import DEFAULT_JUDGE, OFFLINE_JUDGES, CascadeSpec, JudgeSpecBase, LLMSpec, judge_spec
from agentic_core.service.config import ServiceConfig
from agentic_core.service.objects import json_object

if TYPE_CHECKING:
    from agentic_core.judges.base import Judge
    from agentic_core.judges.llm.options import StructuredMode
    from agentic_core.service.models import RunConfig

SEED_KEY_ENV = "LLM_API_KEY"
"""Seed 001's fallback key variable (used only with ``allow_env_keys``)."""

CASCADE = CascadeSpec.judge_name()
"""``config.judge`` for the cascade: the offline default judge, then the connector's LLM for the uncertain."""

# The parameters the judge passes on, and each provider class's own names for them (pinned
# versions in PROVIDERS; checked against the installed ChatOpenAI / ChatGroq constructors).
_PARAMS = ("model", "api_key", "temperature", "base_url", "timeout", "max_retries")
_ALIASES: dict[str, dict[str, str]] = {
    "ChatOpenAI": {
        "model_name": "model",
        "openai_api_key": "api_key",
        "openai_api_base": "base_url",
        "request_timeout": "timeout",
    },
    "ChatGroq": {
        "model_name": "model",
        "groq_api_key": "api_key",
        "groq_api_base": "base_url",
        "request_timeout": "timeout",
    },
    "ChatAnthropic": {
        "model_name": "model",
        "anthropic_api_key": "api_key",
        "anthropic_api_url": "base_url",
        "default_request_timeout": "timeout",
    },
    "ChatGoogleGenerativeAI": {"google_api_key": "api_key"},
    "ChatOllama": {},
}
_MAX_TEMPERATURE = 2.0
_MAX_JUDGE_RETRIES = 10


@dataclass(frozen=True)
class ConnectorJudge:
    """A judge built for one request, and what the caller should be told about it.

    Attributes:
        judge: The judge.
        source: How it was chosen, in words (``"offline default judge (no connector)"``).
        is_default: Whether it is the offline default judge.
        class_path: The connector's class path, when there was one.
        warnings: Parameters ignored and other notes (never a key).
        secrets: The request's keys, for masking any text that leaves the service.
        spec: The judge's spec, validated once (the connector's LLM options; the cascade's two stages).
    """

    judge: Judge
    source: str
    is_default: bool
    class_path: str | None = None
    warnings: list[str] = field(default_factory=list)
    secrets: tuple[SecretStr, ...] = ()
    spec: JudgeSpecBase | None = None


@functools.cache
def allowed_class_paths() -> dict[str, str]:
    """Every accepted ``class_path`` and the provider it selects (the seed's table and short paths)."""
    from agentic_core.judges.llm.provider_table import PROVIDERS

    paths: dict[str, str] = {}
    for spec in PROVIDERS.values():
        for path in (f"{spec.module}.chat_models.{spec.class_name}", f"{spec.module}.{spec.class_name}"):
            # openai and openai-compatible share ChatOpenAI: the first (openai) owns the path.
            paths.setdefault(path, spec.name)
    return paths


def _provider_of(class_path: object) -> str:
    """The provider a class path selects; a 422 for anything not in the table (nothing imported)."""
    allowed = allowed_class_paths()
    provider = allowed.get(class_path.strip()) if isinstance(class_path, str) else None
    if provider is None:
        raise JudgeConfigError(
            "connector.class_path",
            f"must be one of the supported chat model classes: {', '.join(allowed)}",
            class_path if isinstance(class_path, str) else type(class_path).__name__,
            "use one of the listed class paths (or omit the connector for the offline default judge)",
        )
    return provider


def _param_number(place: str, value: Any, low: float, high: float, fix: str, *, integer: bool = False) -> float:
    kind = int if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kind) or not low <= value <= high:
        what = "a whole number" if integer else "a number"
        raise JudgeConfigError(place, f"must be {what} in [{low:g}, {high:g}]", value, fix)
    return value


def _param_text(place: str, value: Any, fix: str, *, secret: bool = False) -> str:
    if not isinstance(value, str) or not value.strip():
        # A key's value is never shown, not even a wrong one.
        raise JudgeConfigError(place, "must be a non-empty string", None if secret else value, fix, show=not secret)
    return value.strip()


def _canonical_params(class_name: str, params: Any) -> tuple[dict[str, Any], dict[str, str], list[str]]:
    """The judge's parameters under their canonical names, where each came from, and the ignored names."""
    fix = 'write "params": {"model": "..."}'
    params = json_object(params, JudgeConfigError, "connector.params", "must be an object", fix)
    aliases = _ALIASES.get(class_name, {})
    values: dict[str, Any] = {}
    given_as: dict[str, str] = {}
    ignored: list[str] = []
    for key, value in params.items():
        name = key if key in _PARAMS else aliases.get(key)
        if name is None or (name == "api_key" and class_name == "ChatOllama"):
            ignored.append(str(key))
            continue
        if name in values:
            raise JudgeConfigError(
                f"connector.params.{key}",
                f"gives the {name} a second time (also given as {given_as[name]})",
                fix=f"keep one of {given_as[name]} and {key}",
                show=False,
            )
        values[name] = value
        given_as[name] = str(key)
    return values, given_as, ignored


def _resolve_key(
    provider: str, values: dict[str, Any], given_as: dict[str, str], base_url: str | None, config: ServiceConfig
) -> tuple[str, str | None, str | None]:
    """The provider to build, the key to send and the environment variable to read it from."""
    from agentic_core.judges.llm.provider_table import NO_KEY_PLACEHOLDER, PROVIDERS

    if "api_key" in values:
        key = _param_text(
            f"connector.params.{given_as['api_key']}", values["api_key"], "give the provider's API key", secret=True
        )
        if provider == "openai" and base_url is not None:
            provider = "openai-compatible"
        return provider, key, None
    spec = PROVIDERS[provider]
    if spec.key_env is None:  # Ollama: no key at all
        return provider, None, None
    if base_url is not None:
        # The caller chose the server: never send it a key of ours.
        if provider == "openai":
            return "openai-compatible", NO_KEY_PLACEHOLDER, None
        raise JudgeConfigError(
            "connector.params.api_key",
            f"is required for {spec.class_name} with a base_url of the request's own",
            fix='add "api_key" to connector.params (used for this request only: never logged, stored or echoed)',
            show=False,
        )
    if config.allow_env_keys:
        named = SEED_KEY_ENV if os.environ.get(SEED_KEY_ENV, "").strip() else None
        return provider, None, named
    raise JudgeConfigError(
        "connector.params.api_key",
        f"is required for {spec.class_name}: this server does not lend its own keys",
        fix='add "api_key" to connector.params (used for this request only: never logged, stored or echoed)',
        show=False,
    )


def _check_call_budget(options: dict[str, Any], given_as: dict[str, str], config: ServiceConfig) -> None:
    """One judge call with all its attempts must fit the server's cap (a request cannot buy 600 s x 11).

    Raises:
        JudgeConfigError: at the timeout (or max_retries) the request gave, naming the cap.
    """
    from agentic_core.judges.llm.options import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_S

    timeout = float(options.get("timeout_s", DEFAULT_TIMEOUT_S))
    attempts = int(options.get("max_retries", DEFAULT_MAX_RETRIES)) + 1
    if timeout * attempts <= config.max_judge_call_s:
        return
    name = given_as.get("timeout") or given_as.get("max_retries") or "timeout"
    cap = config.max_judge_call_s
    retries = int(cap // timeout) - 1
    lower = f"at most {retries} retries with timeout {timeout:g} s" if retries >= 0 else f"a timeout <= {cap:g} s"
    raise JudgeConfigError(
        f"connector.params.{name}",
        f"timeout x attempts (max_retries + 1) must be at most this server's cap of {cap:g} s per judge call",
        f"{timeout:g} s x {attempts} attempts = {timeout * attempts:g} s",
        f"lower the timeout or max_retries ({lower}), or ask the operator to raise the cap",
    )


def connector_judge(
    connector: dict[str, Any],
    config: ServiceConfig,
    use_structured_output: StructuredMode | None,
    concurrency: int | None,
    max_tokens: int | None = None,
) -> ConnectorJudge:
    """The LLM judge a seed-001 ``connector`` asks for: its spec, validated once, and the judge built from it.

    Args:
        connector: ``{"class_path": ..., "params": {...}}`` (already checked to be an object
            with those keys only).
        config: The service settings (whether environment keys may be used).
        use_structured_output: The request's ``config.use_structured_output`` (``None``: auto; a format
            name pins it).
        concurrency: The request's ``config.concurrency`` (``None``: the judge's default).
        max_tokens: The request's ``config.max_tokens``, the reply budget (``None``: the judge's default).

    Raises:
        JudgeConfigError: a class path off the list (before any import), a bad parameter value,
            a missing key, or a provider package that is not installed; located at
            ``connector...``, never with a key in the message.
    """
    from agentic_core.judges.llm.provider_table import PROVIDERS

    if "class_path" not in connector:
        raise JudgeConfigError(
            "connector.class_path",
            "is required",
            fix=f"give one of {', '.join(allowed_class_paths())}, or omit the connector for the offline judge",
            show=False,
        )
    provider = _provider_of(connector["class_path"])
    class_name = PROVIDERS[provider].class_name
    values, given_as, ignored = _canonical_params(class_name, connector.get("params", {}))
    if "model" not in values:
        raise JudgeConfigError(
            "connector.params.model", "is required", fix="name the provider's model, such as gpt-4o-mini", show=False
        )
    model = _param_text(f"connector.params.{given_as['model']}", values["model"], "name the model, such as gpt-4o-mini")
    base_url = None
    if "base_url" in values:
        base_url = _param_text(
            f"connector.params.{given_as['base_url']}", values["base_url"], "such as http://127.0.0.1:8000/v1"
        )
    provider, key, key_env = _resolve_key(provider, values, given_as, base_url, config)
    options: dict[str, Any] = {}
    if "temperature" in values:
        options["temperature"] = _param_number(
            f"connector.params.{given_as['temperature']}", values["temperature"], 0.0, _MAX_TEMPERATURE, "such as 0.0"
        )
    if "timeout" in values:
        timeout = LLM_OPTIONS["timeout_s"]
        options["timeout_s"] = float(
            _param_number(
                f"connector.params.{given_as['timeout']}",
                values["timeout"],
                timeout.minimum,
                timeout.maximum,
                "a number of seconds, such as 60",
            )
        )
    if "max_retries" in values:
        options["max_retries"] = int(
            _param_number(
                f"connector.params.{given_as['max_retries']}",
                values["max_retries"],
                0,
                _MAX_JUDGE_RETRIES,
                "such as 4",
                integer=True,
            )
        )
    _check_call_budget(options, given_as, config)
    if "timeout_s" not in options:
        # The timeout adapts to the server (from 60 s): never past what this server's cap leaves each attempt.
        from agentic_core.judges.llm.options import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_S

        attempts = int(options.get("max_retries", DEFAULT_MAX_RETRIES)) + 1
        options["timeout_ceiling_s"] = max(DEFAULT_TIMEOUT_S, config.max_judge_call_s / attempts)
    if concurrency is not None:
        limits = LLM_OPTIONS["concurrency"]
        options["concurrency"] = int(
            _param_number("config.concurrency", concurrency, limits.minimum, limits.maximum, "such as 8", integer=True)
        )
    if max_tokens is not None:
        limits = LLM_OPTIONS["max_tokens"]
        options["max_tokens"] = int(
            _param_number("config.max_tokens", max_tokens, limits.minimum, limits.maximum, "such as 512", integer=True)
        )
    spec = LLMSpec(
        provider=provider,
        model=model,
        api_key=key,
        api_key_env=key_env,
        base_url=base_url,
        use_structured_output="auto" if use_structured_output is None else use_structured_output,
        **options,
    )
    warnings = []
    if ignored:
        warnings.append(
            f"connector.params: {', '.join(sorted(ignored))} ignored (never passed to {class_name}); the endpoint "
            f"passes only {', '.join(_PARAMS)}"
            + (f" (also named {', '.join(_ALIASES[class_name])})" if _ALIASES.get(class_name) else "")
        )
    return ConnectorJudge(
        judge=spec.build(),
        spec=spec,
        source=f"connector {connector['class_path'].strip()} ({provider} provider)",
        is_default=False,
        class_path=connector["class_path"].strip(),
        warnings=warnings,
        secrets=() if key is None else (SecretStr(key),),
    )


@functools.cache
def offline_judge(spec: JudgeSpecBase) -> Judge:
    """An offline judge by spec, built once per process and shared by requests.

    Offline judges hold no secret and no per-request state; building the hybrid judge loads
    the embedding model (about half a second), which a request should not pay each time.
    """
    return spec.build()


def default_judge(name: str | None) -> ConnectorJudge:
    """The judge for a request without a connector: ``config.judge`` or the default (hybrid).

    Args:
        name: ``config.judge`` (an offline judge's registry name), or ``None`` for the default.

    Returns:
        The shared offline judge and how it was chosen (``is_default`` when it is the default).

    Raises:
        JudgeConfigError: ``config.judge`` names no offline judge (the message lists them).
    """
    if name is None:
        default = judge_spec(DEFAULT_JUDGE)
        return ConnectorJudge(offline_judge(default), "offline default judge (no connector)", True, spec=default)
    if name not in OFFLINE_JUDGES:
        raise JudgeConfigError(
            "config.judge",
            f"must be one of the offline judges {', '.join(OFFLINE_JUDGES)} (an LLM judge comes from connector), or "
            f"{CASCADE} with a connector",
            name,
            f"pick one of the listed judges, or send a connector for an LLM judge (with config.judge {CASCADE}: "
            "the LLM judges only what the offline judge is uncertain of)",
        )
    spec = judge_spec(name)
    source = f"offline {name} judge (config.judge, no connector)"
    return ConnectorJudge(offline_judge(spec), source, name == DEFAULT_JUDGE, spec=spec)


def cascade_judge(llm: ConnectorJudge) -> ConnectorJudge:
    """The cascade of the shared offline default judge and a request's LLM judge (its connector).

    The key rules are the LLM judge's (the connector's): the cascade adds no key of its own.

    Args:
        llm: The connector's judge, built by :func:`connector_judge`.
    """
    from agentic_core.judges.cascade import CascadeJudge

    spec = CascadeSpec(llm=llm.spec)  # the offline stage: the default judge, shared between requests
    return ConnectorJudge(
        judge=CascadeJudge(offline_judge(spec.offline_judge), llm.judge),
        spec=spec,
        source=f"cascade: offline {spec.offline_judge.judge} judge, then {llm.source} for the uncertain",
        is_default=False,
        class_path=llm.class_path,
        warnings=llm.warnings,
        secrets=llm.secrets,
    )


def request_judge(connector: dict[str, Any] | None, run_config: RunConfig, config: ServiceConfig) -> ConnectorJudge:
    """The request's judge: the connector's LLM, an offline judge (``config.judge``), or the cascade of both.

    Args:
        connector: The request's connector (already checked to be an object), or ``None``.
        run_config: The request's ``config`` (``judge``, ``use_structured_output``, ``concurrency``).
        config: The service settings.

    Raises:
        SettingsError: ``config.judge`` with a connector (other than ``cascade``), or ``cascade``
            without one.
        JudgeConfigError: the connector or the offline judge's name is refused.
    """
    name = run_config.judge
    if name == CASCADE:
        if connector is None:
            raise SettingsError(
                "config.judge",
                "cascade needs a connector: the LLM judge that judges what the offline judge is uncertain of",
                name,
                "add a connector (class_path and params, as for the LLM judge), or choose an offline judge",
            )
        return cascade_judge(
            connector_judge(
                connector, config, run_config.use_structured_output, run_config.concurrency, run_config.max_tokens
            )
        )
    if connector is None:
        return default_judge(name)
    if name is not None:
        raise SettingsError(
            "config.judge",
            "cannot be combined with a connector (except cascade)",
            name,
            'send either a connector (LLM judge) or config.judge (offline judge), or config.judge "cascade" '
            "with a connector",
        )
    return connector_judge(
        connector, config, run_config.use_structured_output, run_config.concurrency, run_config.max_tokens
    )


def nothing_scored_fix(chosen: ConnectorJudge, failed: bool) -> tuple[int, str]:
    """The status and the fix of a request whose judge scored no interaction.

    A model behind a connector that failed everywhere is a gateway failure (502: its model, key or
    base_url); without a connector no model, key or base_url exists, so the offline judge's
    failure is about the data it was given (422, and the first reason names what is wrong).

    Args:
        chosen: The request's judge (``class_path`` set when a connector was sent).
        failed: Whether the judge failed on some interaction (otherwise it abstained on all).
    """
    if chosen.class_path is not None:  # an LLM judge, alone or in the cascade
        if failed:
            return 502, "check the connector's model, key and base_url"
        return 422, "use a connector model that gives verdicts, or set config.unscored_as_incorrect"
    if failed:
        offline = ", ".join(OFFLINE_JUDGES)
        return 422, (
            f"the {chosen.source} could not judge this data: fix what the first reason names, choose another "
            f"offline judge with config.judge ({offline}), or send a connector for an LLM judge"
        )
    return 422, (
        "send a connector with config.judge 'cascade' (its LLM judges what the offline judge is unsure of) "
        "or an LLM judge, or set config.unscored_as_incorrect"
    )
