"""``POST /run`` as a pure function: request body in, HTTP status and JSON document out.

The FastAPI app (:mod:`agentic_core.service.app`) and the Lambda handler
(:mod:`agentic_core.service.aws_lambda`) are thin wrappers around :meth:`Service.run`, so both
answer exactly alike. Nothing here raises: a bad request is a 4xx document naming the place, the
rule, the value and the fix; an unexpected failure is a 500 with a generic message and an id,
its details only in the server log, with the request's keys masked there too.

Order of work: parse, check the envelope and every setting, build the judge (so a typo or a
refused ``class_path`` costs no judging), load the records, then judge once and aggregate once.
"""

from __future__ import annotations

import json
import logging
import time
import traceback
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson
from pydantic import SecretStr, ValidationError

from agentic_core.agentic_metrics.compute import parse_metrics
from agentic_core.agentic_metrics.results import AgenticView
from agentic_core.analysis.nothing_scored import why_nothing_scored
from agentic_core.common.secrets import json_holds_secret, known_secrets, mask_known, mask_values, register_secret
from agentic_core.errors import AgenticError, DataError, RequestError, SettingsError, show_value
from agentic_core.io.load_report import LoadReport
from agentic_core.io.parse import loads_json
from agentic_core.io.unknown_keys import close_match
from agentic_core.judges.verdict_counts import verdict_counts
from agentic_core.runs.run_tags import RunTags
from agentic_core.service.config import ServiceConfig
from agentic_core.service.connector import allowed_class_paths, nothing_scored_fix, request_judge
from agentic_core.service.deadline import judge_within, load_within
from agentic_core.service.labels import request_labels
from agentic_core.service.models import Health, Problem, RunConfig
from agentic_core.service.objects import json_object
from agentic_core.service.response import issue_problem, run_response
from agentic_core.service.run_history import store_answered_run
from agentic_core.version import __version__

log = logging.getLogger("agentic_core.service")

JSON_HEADERS = {"content-type": "application/json", "cache-control": "no-store"}
"""Headers of every answer: JSON, and never cached (answers may quote the caller's data)."""

_MAX_PROBLEMS = 50
_REQUEST_KEYS = ("connector", "datasets", "config", "metadata", "labels")
# The settings of RunConfig that make_settings validates (the rest are the endpoint's own).
_SETTING_KEYS = (
    "tool_threshold",
    "k",
    "estimator",
    "mode",
    "unit",
    "target",
    "ci_level",
    "seed",
    "ignore_extra_tools",
    "require_tool_correctness",
    "unscored_as_incorrect",
    "abstain_band",
)


@dataclass(frozen=True)
class ServiceReply:
    """An answer: HTTP status and JSON document, with the keys to mask when it is serialised."""

    status: int
    body: dict[str, Any]
    secrets: tuple[SecretStr, ...] = field(default=(), repr=False)

    def json_text(self) -> str:
        """The document as JSON text, every secret the process knows masked in its strings.

        The request's keys and every other known key (see :func:`~agentic_core.common.secrets.known_secrets`)
        are masked in the document's string values before it is serialised, never in the serialised
        text: a key such as ``"true"`` would otherwise match the JSON's own syntax.
        """
        secrets = known_secrets(self.secrets)
        text = _dumps(self.body)
        # The walk over every string costs far more than serialising: done only when a secret
        # (or, harmlessly, a key that is also JSON syntax, such as "true") shows in the text.
        if secrets and json_holds_secret(text, secrets):
            text = _dumps(mask_values(self.body, secrets))
        return text

    def json_bytes(self) -> bytes:
        """:meth:`json_text` as UTF-8."""
        return self.json_text().encode("utf-8", "surrogatepass")


def _dumps(body: dict[str, Any]) -> str:
    try:
        return orjson.dumps(body).decode("utf-8")
    except TypeError:  # lone surrogates in a text: the standard library escapes them
        return json.dumps(body, ensure_ascii=True)


class _Refused(Exception):
    """A request answered with a 4xx / 5xx document (several located problems at once)."""

    def __init__(self, status: int, error: str, problems: list[Problem], allowed: list[str] | None = None):
        super().__init__(error)
        self.status = status
        self.error = error
        self.problems = problems
        self.allowed = allowed


def problem_of(exc: AgenticError) -> Problem:
    """A user error as a located problem (place, rule, value, fix and the whole sentence)."""
    value = show_value(exc.value) if exc.show else None
    return Problem(severity="error", place=exc.place, rule=exc.rule, value=value, fix=exc.fix, message=str(exc))


def error_body(status: int, error: str, problems: list[Problem], allowed: list[str] | None = None) -> dict[str, Any]:
    """Seed 001's error document (``success`` false, ``error``) with the located problems."""
    errors = [p.model_dump() for p in problems]
    body: dict[str, Any] = {"success": False, "error": error, "status": status, "errors": errors}
    if allowed is not None:
        body["allowed"] = allowed
    return body


def body_too_large(size: int | None, limit: int) -> RequestError:
    """The 413 error of a body over ``limit`` bytes (``size``: its size, when known)."""
    return RequestError(
        "request body",
        f"is larger than this server's limit of {limit:,} bytes",
        None if size is None else f"{size:,} bytes",
        "send fewer conversations per request (several requests), or ask the operator to raise the limit",
        show=size is not None,
        status=413,
    )


def _parse_body(body: bytes | str, limit: int) -> Any:
    data = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else bytes(body)
    if len(data) > limit:
        raise body_too_large(len(data), limit)
    if not data.strip():
        raise RequestError("request body", "is empty", fix="send seed 001's JSON request object", show=False)
    # NaN / Infinity are read (then refused with their place by the loader); integers stay exact.
    value, error, _ = loads_json(data)
    if isinstance(error, UnicodeDecodeError):
        raise RequestError(
            "request body", f"is not valid UTF-8 (byte {error.start})", fix="send UTF-8 encoded JSON", show=False
        ) from None
    if isinstance(error, json.JSONDecodeError):
        raise RequestError(
            f"request body line {error.lineno}, column {error.colno}",
            f"is not valid JSON: {error.msg}",
            fix='send one JSON object: {"datasets": [...], "config": {...}} (check quotes, commas and brackets)',
            show=False,
        ) from None
    if isinstance(error, RecursionError):
        raise RequestError(
            "request body", "is nested too deeply to read", fix="flatten the data (at most 64 levels)", show=False
        ) from None
    return value


def _config_error(exc: ValidationError, raw: dict[str, Any]) -> AgenticError:
    from agentic_core.settings import PRIORS, make_settings

    err = exc.errors()[0]
    name = str(err["loc"][0]) if err["loc"] else ""
    if err["type"] == "extra_forbidden":
        close = close_match(name, tuple(RunConfig.model_fields))
        hint = f"did you mean {close!r}? " if close else ""
        return SettingsError(
            f"config.{name}",
            "is not a setting of the endpoint",
            name,
            f"{hint}the settings are {', '.join(RunConfig.model_fields)}",
        )
    if name in _SETTING_KEYS or name == "threshold":
        # The settings' own rule words it best ("k must be a whole number >= 1 (got True)").
        try:
            make_settings(**{name: raw[name]})
        except SettingsError as settings_error:
            return settings_error.at(f"config.{settings_error.place}")
    if name == "prior":
        return SettingsError(
            "config.prior",
            f"must be [a, b] (two positive numbers) or one of {', '.join(PRIORS)}",
            raw[name],
            "such as [1, 1] (uniform) or [0.5, 0.5] (Jeffreys)",
        )
    # Union members ("int", "literal['auto']") are pydantic's bookkeeping, not places.
    keys = [str(p) for p in err["loc"][1:] if isinstance(p, int) or name == "tool_weights"]
    place = ".".join(["config", name, *keys])
    return SettingsError(place, err["msg"].lower(), err.get("input"), "see the RunConfig schema at /docs")


def _run_config(doc: dict[str, Any]) -> RunConfig:
    raw = doc.get("config")
    if raw is None:
        return RunConfig()
    raw = json_object(raw, SettingsError, "config", "must be an object", 'write "config": {"k": 3}')
    try:
        return RunConfig.model_validate(raw)
    except ValidationError as exc:
        raise _config_error(exc, raw) from None


def _metrics(config: RunConfig) -> tuple[str, ...]:
    """The agentic metrics ``config.metrics`` asks for (seed 004), errors located there."""
    try:
        return parse_metrics(config.metrics)
    except SettingsError as exc:
        raise exc.at("config.metrics") from None


def aggregate_settings(config: RunConfig, recommended_threshold: float) -> Any:
    """The aggregation settings a request's config asks for (errors located at ``config.<name>``).

    Args:
        config: The request's validated ``config``.
        recommended_threshold: The judge's answer threshold, used when ``config.threshold`` is unset.

    Returns:
        The :class:`agentic_core.settings.AggregateSettings` to aggregate with.

    Raises:
        SettingsError: the settings' own rule, value and fix, with the place ``config.<name>``.
    """
    from agentic_core.settings import make_settings, parse_prior

    values: dict[str, Any] = {name: getattr(config, name) for name in _SETTING_KEYS}
    values["threshold"] = recommended_threshold if config.threshold is None else config.threshold
    if config.tool_weights is not None:
        values["tool_weights"] = config.tool_weights
    try:
        if config.prior is not None:
            text = config.prior if isinstance(config.prior, str) else ",".join(str(p) for p in config.prior)
            values["prior_a"], values["prior_b"] = parse_prior(text)
        return make_settings(**values)
    except SettingsError as exc:
        raise exc.at(f"config.{exc.place}") from None


def _connector(doc: dict[str, Any]) -> dict[str, Any] | None:
    raw = doc.get("connector")
    if raw is None:
        return None
    rule, fix = "must be an object with class_path and params", "omit it for the offline default judge"
    raw = json_object(raw, SettingsError, "connector", rule, fix)
    extra = sorted(str(k) for k in raw if k not in ("class_path", "params"))
    if extra:
        raise SettingsError(
            f"connector.{extra[0]}", "is not a connector field", extra[0], "a connector has class_path and params"
        )
    return raw


def _datasets(doc: dict[str, Any], config: ServiceConfig) -> list[Any]:
    if "datasets" not in doc:
        raise DataError(
            "datasets",
            "is required: a list of seed-format conversations",
            fix='add "datasets": [ {...}, ... ]',
            show=False,
        )
    datasets = doc["datasets"]
    if not isinstance(datasets, list):
        raise DataError(
            "datasets", "must be a list of conversations", type(datasets).__name__, 'write "datasets": [ {...}, ... ]'
        )
    if not datasets:
        raise DataError("datasets", "must hold at least one conversation", [], "add the conversations to evaluate")
    if len(datasets) > config.max_datasets:
        raise DataError(
            "datasets",
            f"must hold at most {config.max_datasets:,} conversations (this server's limit)",
            f"{len(datasets):,} conversations",
            "split them over several requests",
            show=True,
        )
    interactions = sum(
        len(d["conversation"]) for d in datasets if isinstance(d, dict) and isinstance(d.get("conversation"), list)
    )
    if interactions > config.max_interactions:
        raise DataError(
            "datasets",
            f"must hold at most {config.max_interactions:,} interactions (this server's limit)",
            f"{interactions:,} interactions",
            "split them over several requests",
        )
    return datasets


def _secrets_in(doc: Any) -> tuple[SecretStr, ...]:
    """The request's keys (any credential-looking connector parameter), to mask in every answer."""
    from agentic_core.common.secrets import is_secret_key

    connector = doc.get("connector") if isinstance(doc, dict) else None
    params = connector.get("params") if isinstance(connector, dict) else None
    if not isinstance(params, dict):
        return ()
    return tuple(SecretStr(v) for k, v in params.items() if is_secret_key(k) and isinstance(v, str) and v)


class Service:
    """The endpoint: its settings and the judge cache it shares between requests.

    Args:
        config: Limits, cache and key policy (defaults: :class:`ServiceConfig`).
    """

    def __init__(self, config: ServiceConfig | None = None) -> None:
        self.config = config or ServiceConfig()
        self._cache: Any = None

    def _judge_cache(self) -> Any:
        from agentic_core.judges.cache import JudgeCache

        if self.config.cache_mode == "off":
            return None
        if self._cache is None:
            self._cache = JudgeCache(self.config.cache_path)
        return self._cache

    def health(self) -> Health:
        """``GET /health``: alive, the version, the default judge and the accepted class paths."""
        from agentic_core.judges.registry import DEFAULT_JUDGE

        paths = list(allowed_class_paths())
        return Health(status="ok", version=__version__, default_judge=DEFAULT_JUDGE, class_paths=paths)

    def warm_up(self) -> float:
        """Load the offline default judge and answer one tiny request, so no caller pays for it.

        The first request of a process otherwise loads the embedding model and the lazily
        imported evaluation code (about a second). The tiny request bypasses the judge cache.

        Returns:
            The seconds it took.

        Raises:
            RuntimeError: the tiny request was not answered with 200 (a broken installation).
        """
        start = time.perf_counter()
        turn = {"qa_id": "q1", "query": "What is 5 + 3?", "assistant": "8", "ground_truth_assistant": "8"}
        record = {"session_id": "warm-up", "assistant_id": "warm-up", "conversation": [turn]}
        reply = Service(self.config.model_copy(update={"cache_mode": "off"})).run({"datasets": [record]})
        if reply.status != 200:
            raise RuntimeError(f"the endpoint's warm-up request failed: {reply.body.get('error')}")
        return time.perf_counter() - start

    def run(self, body: bytes | str | Mapping[str, Any], deadline: float | None = None) -> ServiceReply:
        """Answer one ``POST /run`` (never raises).

        Args:
            body: The raw request body, or the already parsed request object (a Lambda event
                invoked directly).
            deadline: When the work must stop (loading, tool scoring, judging), on
                :func:`time.monotonic`'s clock (the HTTP server counts from the request's arrival);
                default: ``config.request_deadline_s`` from now.

        Returns:
            200 with seed 001's response and our additions; 400 (not JSON), 413 (too large), 422
            (invalid request, located), 502 (the judge failed on every interaction), 504 (the
            deadline passed while the records were read and their tool use scored, or while
            judging: what was judged is in the judge cache) or 500
            (unexpected, generic message; details in the server log) with ``success`` false.
        """
        start = time.perf_counter()
        if deadline is None:
            deadline = time.monotonic() + self.config.request_deadline_s
        secrets: tuple[SecretStr, ...] = ()
        try:
            doc = dict(body) if isinstance(body, Mapping) else _parse_body(body, self.config.max_body_bytes)
            secrets = _secrets_in(doc)
            # Every key this server sees masks every later answer, even if this request is refused.
            register_secret(*secrets)
            reply = self._evaluate(doc, secrets, deadline)
        except _Refused as exc:
            reply = ServiceReply(exc.status, error_body(exc.status, exc.error, exc.problems, exc.allowed), secrets)
        except AgenticError as exc:
            status = exc.status if isinstance(exc, RequestError) else 422
            allowed = list(allowed_class_paths()) if exc.place == "connector.class_path" else None
            message = mask_known(str(exc), secrets)
            reply = ServiceReply(status, error_body(status, message, [problem_of(exc)], allowed), secrets)
        except Exception as exc:  # the last line of defence: never a traceback to the caller
            incident = uuid.uuid4().hex[:12]
            details = mask_known("".join(traceback.format_exception(exc)), secrets)
            log.error("run %s failed unexpectedly:\n%s", incident, details)
            message = f"internal error (incident {incident}); the details are in the server log"
            reply = ServiceReply(500, error_body(500, message, []), secrets)
        log.info("POST /run -> %d in %.2f s", reply.status, time.perf_counter() - start)
        return reply

    def _evaluate(self, doc: Any, secrets: tuple[SecretStr, ...], deadline: float) -> ServiceReply:
        from agentic_core.evaluate import aggregate, evaluate
        from agentic_core.io.loader import load_records

        rule, fix = "must be a JSON object (seed 001's request)", 'send {"datasets": [...], "config": {...}}'
        doc = json_object(doc, DataError, "request body", rule, fix)
        notes = []
        extra = sorted(str(k) for k in doc if k not in _REQUEST_KEYS)
        if extra:
            notes.append(f"request keys {', '.join(extra)} ignored (a request has {', '.join(_REQUEST_KEYS)})")
        config = _run_config(doc)
        aggregate_settings(config, 0.7)  # every setting checked before any judging
        # The run's tags (checked before judging too); echoed in the answer, and stored with the run (store_runs).
        tags = RunTags.from_request(doc["metadata"]) if doc.get("metadata") is not None else None
        metrics = _metrics(config)
        datasets = _datasets(doc, self.config)
        labels = request_labels(doc, self.config.max_labels)  # None without the key: the answer as before
        connector = _connector(doc)
        chosen = request_judge(connector, config, self.config)
        loaded = load_within(deadline, lambda: load_records(datasets, "datasets"))
        if loaded.errors and not config.skip_invalid:
            raise self._invalid_records(loaded)
        loaded.raise_if_empty()
        cache = self._judge_cache() if chosen.judge.cacheable else None
        mode = self.config.cache_mode if cache is not None else "off"

        def judged(monitor: Any) -> Any:
            return evaluate(loaded, chosen.judge, cache=cache, cache_mode=mode, metrics=metrics, monitor=monitor)

        result = judge_within(deadline, judged, loaded.n_interactions)
        if result.agentic is not None:
            result.agentic.view = AgenticView(
                order=config.tool_call_order, mode=config.topic_mode, variant=config.topic_variant
            )
        counts = verdict_counts(result)
        if counts.judged == 0:
            # Every verdict an abstention is no gateway failure: the data needs a judge that can decide.
            status, fix = nothing_scored_fix(chosen, counts.failed > 0)
            raise _Refused(
                status, mask_known(f"judge: {why_nothing_scored(result)}. Fix: {fix}", secrets + chosen.secrets), []
            )
        agg = aggregate(result, aggregate_settings(config, result.recommended_threshold))
        body = run_response(result, agg, chosen, config, [*notes, *chosen.warnings])
        if labels is not None:  # an added field (issue 37), only when the request carries labels
            result.labels = labels  # read by agg.corrected, computed on first use (never by a judge)
            corrected = agg.corrected
            body["corrected"] = None if corrected is None else corrected.as_json()
        if tags is not None:
            body["metadata"] = tags.request_form()
        if self.config.store_runs:
            body["run_id"] = store_answered_run(result, agg, tags, body["warnings"])
        return ServiceReply(200, body, secrets + chosen.secrets)

    @staticmethod
    def _invalid_records(loaded: LoadReport) -> _Refused:
        errors = loaded.errors
        problems = [issue_problem(i) for i in errors[:_MAX_PROBLEMS]]
        more = f" (the first {_MAX_PROBLEMS} are listed)" if len(errors) > _MAX_PROBLEMS else ""
        error = (
            f"{len(loaded.skipped)} of {loaded.n_records} record(s) invalid{more}; first: {errors[0].message()}. "
            "To evaluate the valid ones anyway, set config.skip_invalid"
        )
        return _Refused(422, error, problems)


def run_request(body: bytes | str | Mapping[str, Any], config: ServiceConfig | None = None) -> ServiceReply:
    """Answer one ``POST /run`` body with a fresh :class:`Service` (see :meth:`Service.run`).

    Args:
        body: The raw request body (JSON text or bytes), or the parsed request object.
        config: Limits, cache and key policy (default: :class:`ServiceConfig`'s defaults).

    Returns:
        The status and document; never raises.
    """
    return Service(config).run(body)


