"""The Run page's LLM settings form: provider, model, base URL, key and limits, read into one typed value.

The widgets (and their keys, which the page tests address) live here; what the values mean is
:func:`ui.views.run_view.llm_settings`. The API key is typed into a password field, so Streamlit
keeps it in the session as that widget's own value (``st.session_state["llm_api_key"]``, which
:mod:`ui.run_job` reads to mask the key out of error messages). From there it goes only into the
returned :class:`~agentic_core.judges.LLMSpec` (a SecretStr): it is never copied into the
app's settings store (:mod:`ui.settings_store`), the URL, the run history or the logs (whose error
lines are masked with ``mask_secrets``).
"""

from __future__ import annotations

import os
from typing import Any

import streamlit as st

from agentic_core.judges import LLM_OPTIONS, PROVIDERS, LLMSpec
from ui.views import key_caption, llm_settings

PERSIST: dict[str, Any] = {"persist_state": "session"}
LIMIT_KEYS = {
    "concurrency": "llm_concurrency", "rps": "llm_rps", "timeout_s": "llm_timeout", "max_tokens": "llm_max_tokens"
}
"""The number fields' widget keys, by option name."""
LIMIT_STEPS = {"concurrency": 1, "rps": 0.5, "timeout_s": 5.0, "max_tokens": 64}


def _suggest_model() -> None:
    st.session_state["llm_model"] = PROVIDERS[st.session_state.get("llm_provider", "groq")].suggested_model


def llm_form() -> LLMSpec:
    """Render the LLM settings; return the LLM judge's spec, validated (the key included, as a SecretStr).

    Raises:
        JudgeConfigError: a value the spec refuses (raised after every widget is drawn).
    """
    names = list(PROVIDERS)
    if "llm_model" not in st.session_state:
        st.session_state["llm_model"] = PROVIDERS[names[0]].suggested_model
    cols = st.columns(2)
    provider = cols[0].selectbox(
        "Provider", names, format_func=lambda p: PROVIDERS[p].label, key="llm_provider", on_change=_suggest_model,
        **PERSIST,
    )
    spec = PROVIDERS[provider]
    model = cols[1].text_input(
        "Model",
        key="llm_model",
        placeholder="the model name your server serves" if not spec.suggested_model else None,
        help="The provider's model name.",
        **PERSIST,
    )
    base_url = st.text_input(
        "Base URL" + (" (required)" if spec.base_url_required else " (optional)"),
        key="llm_base_url",
        placeholder="http://127.0.0.1:8000/v1" if provider != "ollama" else "http://127.0.0.1:11434",
        help="The server's URL: required for an OpenAI-compatible server (vLLM, llama.cpp, LM Studio, ...); "
        "optional otherwise.",
        **PERSIST,
    )
    api_key: str | None = None
    if spec.key_env is not None:
        api_key = st.text_input(
            "API key",
            type="password",
            key="llm_api_key",
            help=f"Leave empty to use the environment variable {spec.key_env}. The key is used for this run "
            "only: never stored in the run, the cache, exports or logs.",
        )
        env_set = bool(os.environ.get(spec.key_env, "").strip())
        st.caption(key_caption(spec.label, spec.key_env, spec.key_required, bool(api_key), env_set))
    else:
        st.caption(f"{spec.label} needs no API key.")
    limits: dict[str, float | None] = {}
    for col, option in zip(st.columns(len(LLM_OPTIONS)), LLM_OPTIONS.values(), strict=True):
        whole = isinstance(option.default, int)
        limits[option.name] = col.number_input(
            option.label,
            min_value=int(option.minimum) if whole else float(option.minimum),
            max_value=int(option.maximum) if whole else float(option.maximum),
            # A page's number field needs a number: 0 stands for "no limit" where the default is None; an
            # option that adapts (the timeout) starts empty, which is "not set".
            value=None if option.adapts else 0.0 if option.default is None else option.default,
            placeholder=f"{option.default:g}, adapting" if option.adapts and option.default is not None else None,
            step=LIMIT_STEPS[option.name],
            key=LIMIT_KEYS[option.name],
            help=option.help + (" 0 = no limit." if option.default is None else "")
            + (" Leave it empty to let it adapt." if option.adapts else ""),
            **PERSIST,
        )
    return llm_settings(provider, model, base_url, api_key, limits)
