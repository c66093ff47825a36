"""The supported LLM providers as data: names, integration packages, key variables, suggested models; and
the rules on what a provider needs (a model name, a base URL, a key: where it is read from).

Kept apart from :mod:`agentic_core.judges.llm.providers` (which builds the chat models and imports
langchain-core) so that the command line's options, the dashboard's menus and the endpoint's allow-list
can name the providers without loading LangChain.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass

from pydantic import SecretStr

from agentic_core.common.secrets import secret_text
from agentic_core.errors import JudgeConfigError


@dataclass(frozen=True)
class ProviderSpec:
    """One supported provider.

    Attributes:
        name: The name users pick (``groq``, ``openai-compatible``, ...).
        label: Human name for menus.
        package: The pip package that provides the LangChain integration.
        version: The version we pin in install hints.
        module: Module to import the chat model class from (fixed here, never user input).
        class_name: The chat model class in ``module``.
        key_env: Environment variable read for the API key by default (``None``: no key).
        key_required: Whether a missing key is an error (else a placeholder is sent).
        base_url_required: Whether a base URL must be given.
        suggested_model: A model name to start from in menus (empty: the server decides).
    """

    name: str
    label: str
    package: str
    version: str
    module: str
    class_name: str
    key_env: str | None
    key_required: bool
    base_url_required: bool = False
    suggested_model: str = ""

    @property
    def install_command(self) -> str:
        """The exact command that installs this provider's integration."""
        return f"pip install {self.package}=={self.version}"

    @property
    def install_hint(self) -> str:
        """The fix of a missing or broken integration package."""
        return f"install it with `{self.install_command}` (in the workbench's environment), then run again"


PROVIDERS: dict[str, ProviderSpec] = {
    spec.name: spec
    for spec in (
        ProviderSpec("groq", "Groq", "langchain-groq", "1.1.3", "langchain_groq", "ChatGroq", "GROQ_API_KEY", True,
                     suggested_model="llama-3.3-70b-versatile"),
        ProviderSpec("openai", "OpenAI", "langchain-openai", "1.7.3", "langchain_openai", "ChatOpenAI",
                     "OPENAI_API_KEY", True, suggested_model="gpt-4o-mini"),
        # Not OPENAI_API_KEY: falling back to it would send a user's OpenAI key to whatever server the
        # base URL names.
        ProviderSpec("openai-compatible", "OpenAI-compatible server (vLLM, llama.cpp, LM Studio, ...)",
                     "langchain-openai", "1.7.3", "langchain_openai", "ChatOpenAI", "OPENAI_COMPATIBLE_API_KEY",
                     False, base_url_required=True),
        ProviderSpec("anthropic", "Anthropic", "langchain-anthropic", "1.7.10", "langchain_anthropic",
                     "ChatAnthropic", "ANTHROPIC_API_KEY", True, suggested_model="claude-3-5-haiku-latest"),
        ProviderSpec("google", "Google Gemini", "langchain-google-genai", "4.4.2", "langchain_google_genai",
                     "ChatGoogleGenerativeAI", "GOOGLE_API_KEY", True, suggested_model="gemini-2.0-flash"),
        ProviderSpec("ollama", "Ollama", "langchain-ollama", "1.1.0", "langchain_ollama", "ChatOllama", None, False,
                     suggested_model="llama3.1"),
    )
}


def get_provider(name: str) -> ProviderSpec:
    """The spec of provider ``name``.

    Raises:
        JudgeConfigError: unknown provider (the message lists the known ones).
    """
    spec = PROVIDERS.get(str(name).strip().lower())
    if spec is None:
        raise JudgeConfigError(
            "provider", f"must be one of {', '.join(PROVIDERS)}", name, "pick one of the listed providers"
        )
    return spec


NO_KEY_PLACEHOLDER = "not-needed"
"""Sent as the key to OpenAI-compatible servers that need none (the client insists on one)."""


def resolve_api_key(
    spec: ProviderSpec, api_key: str | SecretStr | None = None, api_key_env: str | None = None
) -> SecretStr | None:
    """Find the key: the argument, else ``api_key_env``, else the provider's default variable.

    A variable the user *named* must hold a key, whatever the provider: for providers whose key
    is optional the fallback would otherwise be a placeholder key, and the only sign of the
    typo would be a wall of 401s after the run had started.

    Args:
        spec: The provider.
        api_key: The key itself (from a password field); wins over every variable.
        api_key_env: The variable the user named to hold the key (``--api-key-env``); an empty
            name counts as none.

    Returns:
        The key; a placeholder for providers whose key is optional when none was given and no
        variable was named; ``None`` for providers that take no key (Ollama).

    Raises:
        JudgeConfigError: the named variable is unset or empty, or a required key is missing;
            the message names the variable to set (never a key).
    """
    api_key = secret_text(api_key)
    named = (api_key_env or "").strip() or None
    if api_key is not None and api_key.strip():
        return None if spec.key_env is None else SecretStr(api_key.strip())
    if named is not None:
        value = os.environ.get(named, "").strip()
        if not value:
            # Checked before the provider's own rules: a misspelt name must not fall back to a
            # placeholder (optional keys) or be ignored (providers without keys).
            raise JudgeConfigError(
                f"environment variable {named}",
                f"was named to hold the {spec.label} API key, but it is not set or empty",
                fix=f"run `export {named}=<your key>` before starting, or fix the variable name",
                show=False,
            )
        return None if spec.key_env is None else SecretStr(value)
    if spec.key_env is None:
        return None
    value = os.environ.get(spec.key_env, "").strip()
    if value:
        return SecretStr(value)
    if not spec.key_required:
        return SecretStr(NO_KEY_PLACEHOLDER)
    raise JudgeConfigError(
        f"{spec.label} API key",
        f"is required but no key was given and the environment variable {spec.key_env} is not set",
        fix=f"run `export {spec.key_env}=<your key>` before starting, or enter the key in the key field",
        show=False,
    )


def check_installed(spec: ProviderSpec) -> None:
    """Raise :class:`~agentic_core.errors.JudgeConfigError` naming the pip command unless the provider's package is
    installed (found on the path, not imported: importing LangChain's integrations takes a second or more)."""
    if importlib.util.find_spec(spec.module) is None:
        raise JudgeConfigError(
            f"provider {spec.name}",
            f"needs the Python package {spec.package}, which is not installed",
            fix=spec.install_hint,
            show=False,
        )


def check_model_name(spec: ProviderSpec, model: object) -> None:
    """Raise :class:`~agentic_core.errors.JudgeConfigError` unless ``model`` names a model (not empty)."""
    if not str(model or "").strip():
        example = f", such as {spec.suggested_model}" if spec.suggested_model else " (the name the server serves)"
        raise JudgeConfigError(
            "model", f"must be a model name of the {spec.label} provider", model, f"name the model{example}"
        )


def check_base_url(spec: ProviderSpec, base_url: str | None) -> str | None:
    """The base URL, stripped (``None`` when empty).

    Raises:
        JudgeConfigError: required by the provider and missing, or not an http(s) URL.
    """
    url = (base_url or "").strip() or None
    if url is None:
        if spec.base_url_required:
            raise JudgeConfigError(
                "base_url",
                f"is required for provider {spec.name}",
                base_url,
                "give the server's OpenAI-style URL, such as http://127.0.0.1:8000/v1",
            )
        return None
    if not url.startswith(("http://", "https://")):
        raise JudgeConfigError(
            "base_url", "must start with http:// or https://", url, "such as http://127.0.0.1:8000/v1"
        )
    return url
