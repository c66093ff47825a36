"""The supported LLM providers as data: names, integration packages, key variables, suggested models.

Kept apart from :mod:`agentic_core.judges.llm.providers` (which builds the chat models and imports
langchain-core) so that the command line's options, the dashboard's menus and the endpoint's allow-list
can name the providers without loading LangChain.
"""

from __future__ import annotations

from dataclasses import dataclass

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
