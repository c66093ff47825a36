#!/usr/bin/env bash
# Create .venv (if missing) and install the pinned requirements into it. Idempotent and quiet
# when nothing changed: a stamp file records the hash of the requirements installed.
set -euo pipefail
cd "$(dirname "$0")/.."
req="${1:-requirements.txt}"
py="${PYTHON:-python3}"
if ! "$py" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
  echo "error: $("$py" --version 2>&1) found; Python 3.11 or newer is needed (set PYTHON=/path/to/python3.11)" >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv with $("$py" --version)" >&2
  "$py" -m venv .venv
fi
stamp=".venv/.installed-$(cat requirements*.txt | sha256sum | cut -c1-16)-$(basename "$req")"
if [ ! -f "$stamp" ]; then
  echo "setup: installing $req into .venv (first run takes a minute or two)" >&2
  .venv/bin/python -m pip install --quiet --upgrade pip >/dev/null
  .venv/bin/python -m pip install --quiet -r "$req"
  touch "$stamp"
fi
