"""Write tests/golden/judge_identities.json: the identity and cache key each judge spec built on main.

The LLM judge used to be built from keyword options (``build_llm_judge(provider, model, **options)``), checked
again by the builders; it is now built from its validated ``LLMSpec`` only. Cache keys must not move with
that, so tests/judges/test_spec.py compares today's identities with these, computed on the checkout before
the change (main at 2147898: after the offline refit, before the LLM judge moved to its spec) through the public
``build_judge(name, **options)``, which built the LLM judge
through the keyword path there. Run on purpose only, against that checkout:

    git worktree add /tmp/once-main 2147898
    cd /tmp/once-main && PYTHONPATH=/tmp/once-main /work/main/.venv/bin/python \
        /path/to/tests/golden/make_judge_identities.py > /path/to/tests/golden/judge_identities.json
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from agentic_core.judges.registry import build_judge

SECRET = "sk-test-SECRET123"  # tests/judges/conftest.py's fake key: the identity must never hold it
SERVER = {"provider": "openai-compatible", "model": "m-7", "base_url": "http://user:pw@127.0.0.1:9/v1",
          "api_key": SECRET, "concurrency": 3, "timeout_s": 30.0, "max_tokens": 99, "use_structured_output": "text"}

CASES: list[tuple[str, dict[str, Any]]] = [
    ("learned", {}),
    ("hybrid", {}),
    ("lexical", {}),
    ("embedding", {}),
    ("dataset", {}),
    ("llm", {"provider": "ollama", "model": "llama3"}),
    ("llm", SERVER),
    ("llm", {"provider": "groq", "model": "llama-3.3-70b-versatile", "api_key": SECRET, "temperature": 0.3,
             "use_structured_output": "json_object", "rps": 2.0, "max_retries": 0}),
    ("llm", {"provider": "openai", "model": "gpt-4o-mini", "api_key": SECRET, "use_structured_output": True,
             "base_url": "https://api.example.com/v1/", "max_tokens": None, "adaptive_timeout": True}),
    ("llm", {"provider": "groq", "model": "m", "api_key": SECRET, "timeout_s": 10.0, "timeout_ceiling_s": 120.0,
             "use_structured_output": False, "concurrency": 1}),
    ("llm", {"provider": "OpenAI-Compatible", "model": "  local model  ", "base_url": "  http://127.0.0.1:8000/v1  "}),
    ("llm", {"provider": "ollama", "model": "gemma3:270m", "base_url": "http://127.0.0.1:11434", "temperature": 1.0}),
    ("cascade", {"provider": "ollama", "model": "llama3"}),
    ("cascade", {"offline": "lexical", **SERVER}),
]


def main() -> None:
    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    rows = []
    for name, options in CASES:
        identity = build_judge(name, **options).identity
        rows.append({"judge": name, "options": options, "identity": identity.model_dump(mode="json"),
                     "fingerprint": identity.fingerprint()})
    doc = {"made_by": "tests/golden/make_judge_identities.py (see its docstring)", "commit": commit, "cases": rows}
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
