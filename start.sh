#!/usr/bin/env bash
# Quick start: set everything up and open the dashboard on a built-in sample, already evaluated
# by the offline default judge (no API key, no network).
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup_env.sh requirements.txt
# Judge the built-in samples once with the offline default judge; the persistent judge cache
# makes the dashboard's first page instant and every later start free.
.venv/bin/python -m agentic_core.warmup
# ui.launch prepares the first-run results in the server process, then serves app.py.
exec .venv/bin/python -m ui.launch --server.headless "${HEADLESS:-true}" \
  --server.address "${ADDRESS:-127.0.0.1}" --server.port "${PORT:-8501}" --browser.gatherUsageStats false "$@"
