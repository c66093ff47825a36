#!/usr/bin/env bash
# Create .venv (if missing) and install the pinned requirements into it. Idempotent and quiet
# when nothing changed: a stamp file records the hash of the requirements installed.
set -euo pipefail
cd "$(dirname "$0")/.."
req="${1:-requirements.txt}"
# Python 3.11+: Streamlit 1.67 and onnxruntime 1.31 publish no builds for older versions.
ok() { "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' >/dev/null 2>&1; }
py="${PYTHON:-}"
if [ -z "$py" ]; then
  for candidate in python3 python3.13 python3.12 python3.11; do
    if command -v "$candidate" >/dev/null 2>&1 && ok "$candidate"; then py="$candidate"; break; fi
  done
fi
if [ -z "$py" ] || ! ok "$py"; then
  echo "error: Python 3.11 or newer is needed (found: $(python3 --version 2>&1)). Install it, or set" \
       "PYTHON=/path/to/python3.11 and run this again." >&2
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
