"""The package faces load eagerly, but never the optional heavy packages behind them.

Importing ``agentic_core`` (which imports every face the dashboard uses) must not import langchain,
onnxruntime, Ray, the providers' SDKs, FastAPI, Streamlit or the OpenTelemetry protos (protobuf): those come
when a judge, the server, a protobuf trace export or the dashboard needs them. Checked in a fresh interpreter,
since this test session has imported them all.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FACES = (
    "agentic_core", "agentic_core.agentic_metrics", "agentic_core.analysis", "agentic_core.common",
    "agentic_core.data", "agentic_core.io", "agentic_core.judges", "agentic_core.report", "agentic_core.runs",
    "agentic_core.settings", "agentic_core.stats", "agentic_core.tools", "agentic_core.glossary",
    "agentic_core.live", "agentic_core.judges.llm",
)  # fmt: skip
HEAVY = (
    "langchain", "langchain_core", "onnxruntime", "ray", "openai", "anthropic", "fastapi", "streamlit", "tokenizers",
    "opentelemetry", "google.protobuf",
    # Most of a second for every process that imports the core (each command, each dashboard server): only the
    # planner's shifted populations and the sign-flip test with many values use them.
    "scipy.stats", "scipy.signal", "scipy.optimize",
)  # fmt: skip


def _loaded_after(code: str) -> dict[str, object]:
    probe = f"import json, sys\n{code}\nprint(json.dumps({{'heavy': sorted(set({HEAVY!r}) & set(sys.modules))}}))"
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    return dict(json.loads(out.stdout.splitlines()[-1]))


def test_importing_every_face_loads_no_heavy_package() -> None:
    loaded = _loaded_after("\n".join(f"import {face}" for face in FACES))
    assert loaded["heavy"] == [], f"a face imports a heavy package eagerly: {loaded['heavy']}; defer it (see judges)"


def test_the_providers_table_comes_through_the_judges_face_without_langchain() -> None:
    # The table is data (judges/llm/provider_table.py): the command line's options and the menus name the providers
    # without loading LangChain; the module that builds the chat models is the same table's user.
    code = (
        "import agentic_core.judges as judges\n"
        "from agentic_core.judges import PROVIDERS\n"
        "import agentic_core.cli.parser as parser\n"
        "parser.build_parser()\n"
        "assert 'groq' in PROVIDERS and 'PROVIDERS' in judges.__all__\n"
        "assert 'langchain_core' not in sys.modules\n"
        "from agentic_core.judges.llm.providers import PROVIDERS as used\n"
        "assert PROVIDERS is used"
    )
    assert "langchain_core" in _loaded_after(code)["heavy"]  # only the chat-model builder brings it
