"""One typed spec per judge: its options are its fields, ``spec.build()`` returns the judge.

As in pydantic_evals, where an evaluator's fields are its configuration, each judge the registry names has
a frozen pydantic model here, and :data:`JudgeSpec` is their union, told apart by the ``judge`` field (the
registry name: ``learned``, ``hybrid``, ``lexical``, ``embedding``, ``dataset``, ``llm``, ``cascade``). The
registry (:data:`SPECS`, :data:`agentic_core.judges.registry.JUDGES`) is read off that union.

A spec is validated once, when it is made: an unknown name, an option the judge does not take, an unknown
provider, a limit out of range, a cascade whose offline judge is not offline, or an LLM key that is nowhere
to be found raise :class:`~agentic_core.errors.JudgeConfigError` naming the option, the rule, the value and
the fix (pydantic's own type errors are turned into one). Every face (the CLI, the endpoint, the Run page,
:func:`~agentic_core.evaluate.evaluate`, Ray's workers) makes one and passes it down; :func:`judge_spec`
turns the public inputs (a name and keyword options) into one.

The LLM judge's key is a :class:`~pydantic.SecretStr`: ``repr``, ``str``, ``model_dump()`` and
``model_dump_json()`` never show it. The one dump that does is :meth:`JudgeSpecBase.worker_dump`, which
hands a spec to a Ray worker (:mod:`agentic_core.engines.worker_judge`); the worker rebuilds it with
:func:`spec_from_dump`.

This module imports no judge: ``build()`` imports its judge's module when called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    SerializationInfo,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_serializer,
    field_validator,
    model_validator,
)

from agentic_core.common.secrets import secret_text
from agentic_core.errors import JudgeConfigError
from agentic_core.judges.llm.options import (
    DEFAULT_CONCURRENCY,
    DEFAULT_MAX_RETRIES,
    DEFAULT_MAX_TOKENS,
    LLM_OPTIONS,
    ReplyFormat,
    check_limit,
    structured_mode,
)
from agentic_core.judges.llm.provider_table import (
    PROVIDERS,
    ProviderSpec,
    check_base_url,
    check_installed,
    check_model_name,
    get_provider,
    resolve_api_key,
)

if TYPE_CHECKING:
    from agentic_core.judges.base import Judge, JudgeIdentity
    from agentic_core.judges.llm.judge import LLMJudge

DEFAULT_JUDGE = "learned"
_REVEAL = "reveal_secrets_for_a_worker"
"""The serialisation context key under which :meth:`JudgeSpecBase.worker_dump` asks for the key in clear."""


class JudgeSpecBase(BaseModel):
    """What every judge spec is: frozen, no option but its own, validated into one kind of error.

    Attributes:
        judge: The registry name (the union's discriminator).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    judge: str
    title: ClassVar[str]
    """The judge's name on the Run page."""
    description: ClassVar[str]
    """What it does, in a sentence or two (the Run page, ``--help``)."""
    offline: ClassVar[bool] = True
    """No key, no network: the judges offered without the LLM options (the endpoint's ``config.judge``, the
    live path, the cascade's first stage)."""

    @model_validator(mode="wrap")
    @classmethod
    def _one_kind_of_error(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        # The rules below raise JudgeConfigError themselves (pydantic lets it through); its own type and
        # unknown-option errors become one here, so a caller catches a single family.
        try:
            return handler(data)
        except ValidationError as exc:
            raise _judge_config_error(cls, exc) from None

    @classmethod
    def judge_name(cls) -> str:
        """The registry name this spec class builds."""
        return str(cls.model_fields["judge"].default)

    def build(self) -> Judge:
        """A new judge of this spec.

        Raises:
            JudgeConfigError: what only building can find (a missing package, a model that will not load).
        """
        raise NotImplementedError

    def worker_dump(self) -> dict[str, Any]:
        """The spec as JSON-ready data for a Ray worker, which rebuilds it with :func:`spec_from_dump`.

        The only dump holding the LLM judge's key in clear (resolved from its variable on this machine, so
        a worker needs none of its own): it goes to the workers and nowhere else.
        """
        return self.model_dump(mode="json", context={_REVEAL: True})


def _judge_config_error(spec: type[JudgeSpecBase], exc: ValidationError) -> JudgeConfigError:
    """Pydantic's first error as the project's: the option, the rule, the value (never a key) and the fix."""
    error = exc.errors(include_url=False)[0]
    place = ".".join(str(part) for part in error["loc"]) or "judge"
    options = ", ".join(name for name in spec.model_fields if name != "judge")
    fix = f"the {spec.judge_name()} judge takes " + (f"these options: {options}" if options else "no option")
    if error["type"] == "extra_forbidden":
        return JudgeConfigError(place, f"is not an option of the {spec.judge_name()} judge", fix=fix, show=False)
    message = str(error["msg"])
    rule = "is required" if error["type"] == "missing" else f"must be {message.removeprefix('Input should be ')}"
    # Nothing to show for a missing option; a key's value is never shown, not even a wrong one.
    hidden = "api_key" in error["loc"] or error["type"] == "missing"
    return JudgeConfigError(place, rule, None if hidden else error.get("input"), fix, show=not hidden)


class LearnedSpec(JudgeSpecBase):
    """The ``learned`` judge (the default): a fitted model that abstains where it is unsure. No options."""

    judge: Literal["learned"] = "learned"
    title: ClassVar[str] = "Learned (offline, default)"
    description: ClassVar[str] = (
        "A model fitted on labelled pairs weighs embedding and word similarity, the facts the answer and the "
        "reference state (numbers, dates, times, amounts with units) and what the detectors find (negation, "
        "swapped roles, a hedge, ...); says 'uncertain' (unscored) when it is not sure. No key, no network."
    )

    def build(self) -> Judge:
        """A :class:`~agentic_core.judges.offline.learned.LearnedJudge`."""
        from agentic_core.judges.offline.learned import LearnedJudge

        return LearnedJudge()


class HybridSpec(JudgeSpecBase):
    """The ``hybrid`` judge: the learned model with the embedding, never abstaining. No options."""

    judge: Literal["hybrid"] = "hybrid"
    title: ClassVar[str] = "Hybrid (offline)"
    description: ClassVar[str] = (
        "The learned judge's model (with the MiniLM embedding) scoring every answer with its probability: "
        "never 'uncertain'. No key, no network."
    )

    def build(self) -> Judge:
        """A :class:`~agentic_core.judges.offline.learned.HybridJudge`."""
        from agentic_core.judges.offline.learned import HybridJudge

        return HybridJudge()


class LexicalSpec(JudgeSpecBase):
    """The ``lexical`` judge: the learned model without the embedding, never abstaining. No options."""

    judge: Literal["lexical"] = "lexical"
    title: ClassVar[str] = "Lexical (offline)"
    description: ClassVar[str] = (
        "The learned judge's model without the embedding (word overlap, facts, detectors) scoring every "
        "answer with its probability: never 'uncertain', no model to load. Hundreds of pairs per second."
    )

    def build(self) -> Judge:
        """A :class:`~agentic_core.judges.offline.learned.LexicalJudge`."""
        from agentic_core.judges.offline.learned import LexicalJudge

        return LexicalJudge()


class EmbeddingSpec(JudgeSpecBase):
    """The ``embedding`` judge: the cosine similarity of MiniLM sentence embeddings. No options."""

    judge: Literal["embedding"] = "embedding"
    title: ClassVar[str] = "Embedding similarity (offline)"
    description: ClassVar[str] = (
        "Cosine similarity of all-MiniLM-L6-v2 sentence embeddings (the seeds' design). Weak alone on "
        "numbers and negation; offered for comparison."
    )

    def build(self) -> Judge:
        """An :class:`~agentic_core.judges.offline.embedding.EmbeddingJudge`."""
        from agentic_core.judges.offline.embedding import EmbeddingJudge

        return EmbeddingJudge()


class DatasetSpec(JudgeSpecBase):
    """The ``dataset`` judge: each interaction's own ``score``. No options."""

    judge: Literal["dataset"] = "dataset"
    title: ClassVar[str] = "Dataset scores"
    description: ClassVar[str] = "Each interaction's own 'score' field (an environment reward or a human grade)."

    def build(self) -> Judge:
        """A :class:`~agentic_core.judges.dataset.DatasetJudge`."""
        from agentic_core.judges.dataset import DatasetJudge

        return DatasetJudge()


class LLMSpec(JudgeSpecBase):
    """The ``llm`` judge: a chat model grading each answer with the rubric (absorbs the former ``LLMSettings``).

    Attributes:
        provider: A key of :data:`~agentic_core.judges.llm.provider_table.PROVIDERS` (any case; kept lowered).
        model: The provider's model name (kept without surrounding spaces).
        base_url: The server's URL (required for ``openai-compatible``; kept without surrounding spaces), or
            ``None`` for the provider's default.
        api_key: The key itself, or ``None`` to read it from ``api_key_env`` or the provider's variable. A
            :class:`~pydantic.SecretStr`: never shown (see the module docstring).
        api_key_env: The environment variable the user named to hold the key (``--api-key-env``).
        concurrency: LLM calls in flight at once (the Run page's and ``--concurrency``'s words are the help
            of :data:`~agentic_core.judges.llm.options.LLM_OPTIONS`, as for the three below).
        rps: Most requests per second, or ``None`` for no limit.
        timeout_s: Seconds per call, or ``None`` (the default): 60 s, adapting to the server's latency.
        max_tokens: Most tokens a judge reply may use (``None``: the server's own budget).
        max_retries: Retries of a call after a retryable error.
        temperature: Sampling temperature (0: reproducible judging).
        use_structured_output: The reply format: ``auto`` (negotiated), ``json_schema``, ``json_object`` or
            ``text`` (``True`` / ``False`` are read as json_schema / text).
        timeout_ceiling_s: The longest per-call timeout an adapting one reaches (the endpoint lowers it).
        adaptive_timeout: Whether the timeout adapts (default: only when ``timeout_s`` is ``None``).
    """

    judge: Literal["llm"] = "llm"
    title: ClassVar[str] = "LLM judge"
    description: ClassVar[str] = (
        "A chat model grades each answer against the ground truth with a strict rubric "
        "(Groq, OpenAI, Anthropic, Google, Ollama or any OpenAI-compatible server)."
    )
    offline: ClassVar[bool] = False

    provider: str
    model: str
    base_url: str | None = Field(default=None, validate_default=True)  # some providers need one
    api_key: SecretStr | None = None
    api_key_env: str | None = None
    concurrency: int = DEFAULT_CONCURRENCY
    rps: float | None = None
    timeout_s: float | None = None
    max_tokens: int | None = DEFAULT_MAX_TOKENS
    max_retries: int = DEFAULT_MAX_RETRIES
    temperature: float = 0.0
    use_structured_output: ReplyFormat = "auto"
    timeout_ceiling_s: float = LLM_OPTIONS["timeout_s"].maximum
    adaptive_timeout: bool | None = None

    @field_validator("concurrency", "max_retries", "max_tokens", "timeout_s", "timeout_ceiling_s", "rps", mode="before")
    @classmethod
    def _limit(cls, value: Any, info: ValidationInfo) -> Any:
        check_limit(str(info.field_name), value)  # each limit's one rule (None: unset, where it may be)
        return value

    @field_validator("use_structured_output", mode="before")
    @classmethod
    def _reply_format(cls, value: Any) -> ReplyFormat:
        return structured_mode(value)

    @field_validator("provider", mode="before")
    @classmethod
    def _provider(cls, value: Any) -> str:
        return get_provider(value).name

    @field_validator("model", "base_url", mode="before")
    @classmethod
    def _what_the_provider_needs(cls, value: Any, info: ValidationInfo) -> Any:
        if "provider" not in info.data or not (value is None or isinstance(value, str)):
            return value  # no provider: pydantic's "provider: is required" says so; not text: its type error
        provider = get_provider(info.data["provider"])  # a refused one stopped validation above
        if info.field_name == "base_url":
            return check_base_url(provider, value)  # stripped; None when empty
        check_model_name(provider, value)  # refuses None and blanks
        return str(value).strip()  # kept as the chat model is asked for it and the identity records it

    @model_validator(mode="after")
    def _package_and_key_found(self) -> LLMSpec:
        check_installed(self.provider_entry)  # first: without the package, no key helps
        self.key()  # a key nowhere to be found fails here
        return self

    @field_serializer("api_key")
    def _key(self, key: SecretStr | None, info: SerializationInfo) -> SecretStr | str | None:
        if not (info.context or {}).get(_REVEAL):
            return key  # shown as '**********'
        return secret_text(self.key())

    @property
    def provider_entry(self) -> ProviderSpec:
        """The provider's row of :data:`~agentic_core.judges.llm.provider_table.PROVIDERS`."""
        return PROVIDERS[self.provider]  # a name the table knows: validated when the spec was made

    def key(self) -> SecretStr | None:
        """The key to send, found now: the one given, else ``api_key_env``'s, else the provider's variable's.

        Returns:
            The key; a placeholder where the provider's key is optional and none was given; ``None`` for a
            provider that takes none (Ollama).

        Raises:
            JudgeConfigError: the key is nowhere to be found (naming the variable to set, never a key).
        """
        return resolve_api_key(self.provider_entry, self.api_key, self.api_key_env)

    def build(self) -> LLMJudge:
        """An :class:`~agentic_core.judges.llm.judge.LLMJudge` of this spec over the provider's chat model.

        Raises:
            JudgeConfigError: the provider's package fails to import, or its chat model refuses the options.
        """
        from agentic_core.judges.llm.judge import LLMJudge
        from agentic_core.judges.llm.providers import build_chat_model

        return LLMJudge(self, build_chat_model(self))


OfflineSpec = Annotated[
    LearnedSpec | HybridSpec | LexicalSpec | EmbeddingSpec | DatasetSpec, Field(discriminator="judge")
]
"""The specs of the judges that need no key and no network."""
OFFLINE_JUDGES: tuple[str, ...] = tuple(cls.judge_name() for cls in get_args(get_args(OfflineSpec)[0]))
"""The offline judges' names, in the order interfaces list them (the endpoint's ``config.judge``, the live path,
the cascade's first stage)."""


class CascadeSpec(JudgeSpecBase):
    """The ``cascade``: the offline judge decides what it is sure of, the LLM judge the rest.

    Also made from today's flat options: ``offline`` as a name beside the LLM judge's options
    (``judge_spec("cascade", offline="lexical", provider="groq", model=...)``).

    Attributes:
        offline: The offline judge's spec (or name); default the ``learned`` judge, which abstains.
        llm: The LLM judge's spec.
    """

    judge: Literal["cascade"] = "cascade"
    title: ClassVar[str] = "Cascade: offline judge, then LLM for the uncertain"
    description: ClassVar[str] = (
        "The offline judge decides what it is sure of; the LLM judge judges only the interactions it is "
        "uncertain of (same provider options as the LLM judge). Fewer LLM calls; the run says how many went "
        "to the LLM."
    )
    offline: ClassVar[bool] = False
    model_config = ConfigDict(populate_by_name=True)

    offline_judge: OfflineSpec = Field(default_factory=LearnedSpec, alias="offline")
    llm: LLMSpec

    @model_validator(mode="before")
    @classmethod
    def _flat(cls, data: Any) -> Any:
        # Today's keywords: the LLM judge's options beside ``offline``, gathered into ``llm`` here.
        if isinstance(data, dict) and "llm" not in data:
            own = {k: v for k, v in data.items() if k in ("judge", "offline", "offline_judge")}
            return {**own, "llm": {k: v for k, v in data.items() if k not in own}}
        return data

    @field_validator("offline_judge", mode="before")
    @classmethod
    def _offline_judge(cls, value: Any) -> Any:
        name = value
        if isinstance(value, JudgeSpecBase):
            name = value.judge
        elif isinstance(value, dict):
            name = value.get("judge")
        if name not in OFFLINE_JUDGES:
            shown = name if isinstance(name, str) else type(value).__name__
            fix = f"use {DEFAULT_JUDGE}"
            rule = f"must be one of the offline judges {', '.join(OFFLINE_JUDGES)}"
            raise JudgeConfigError("offline", rule, shown, fix)
        return {"judge": name} if isinstance(value, str) else value

    def build(self) -> Judge:
        """A :class:`~agentic_core.judges.cascade.CascadeJudge` of the two stages."""
        from agentic_core.judges.cascade import CascadeJudge

        llm = self.llm.build()  # first: a missing package fails before the offline model is loaded
        return CascadeJudge(self.offline_judge.build(), llm)


JudgeSpec = Annotated[
    LearnedSpec | HybridSpec | LexicalSpec | EmbeddingSpec | DatasetSpec | LLMSpec | CascadeSpec,
    Field(discriminator="judge"),
]
"""Any judge's spec; a name in the ``judge`` field picks the class."""
SPECS: dict[str, type[JudgeSpecBase]] = {cls.judge_name(): cls for cls in get_args(get_args(JudgeSpec)[0])}
"""The spec class of every judge, by registry name, in the order interfaces list them."""
_ADAPTER: TypeAdapter[JudgeSpecBase] = TypeAdapter(JudgeSpec)


def judge_spec(judge: str | JudgeSpecBase | None = None, **options: Any) -> JudgeSpecBase:
    """The spec of a judge named with its options (the public inputs: ``evaluate(data, "llm", provider=...)``, a
    ``--judge`` name, the endpoint's ``config.judge``), or a spec as it is.

    Args:
        judge: A registry name (``None``: :data:`DEFAULT_JUDGE`) or a spec.
        **options: The judge's options (the fields of its spec); none with a spec.

    Raises:
        JudgeConfigError: an unknown name, an option the judge does not take, a value its rules refuse, or
            options beside a spec.
    """
    if isinstance(judge, JudgeSpecBase):
        if options:
            raise JudgeConfigError(
                "judge options", f"must be fields of the {judge.judge} spec when the judge is a spec", sorted(options),
                f"write {type(judge).__name__}(..., {next(iter(options))}=...)",
            )  # fmt: skip
        return judge
    name = DEFAULT_JUDGE if judge is None else judge
    spec = SPECS.get(name) if isinstance(name, str) else None
    if spec is None:
        raise JudgeConfigError("judge", f"must be one of {', '.join(SPECS)}", name, "pick a judge from that list")
    return spec.model_validate({**options, "judge": name})


def spec_from_dump(dump: dict[str, Any]) -> JudgeSpecBase:
    """The spec :meth:`JudgeSpecBase.worker_dump` wrote, validated again (on a Ray worker).

    Raises:
        JudgeConfigError: the dump names no judge of :data:`SPECS`, or its options are refused.
    """
    try:
        return _ADAPTER.validate_python(dump)
    except ValidationError as exc:
        raise _judge_config_error(JudgeSpecBase, exc) from None


def spec_class_of(identity: JudgeIdentity) -> type[JudgeSpecBase] | None:
    """The spec class of the judge that recorded ``identity`` (its ``kind`` is the registry name), or ``None``
    for a judge of the caller's own.

    For a run without its judge at hand (reopened from the history, judged on another machine): what kind of
    judge made it is read from the spec classes, never by comparing names.
    """
    return SPECS.get(identity.kind)
