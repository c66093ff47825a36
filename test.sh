#!/usr/bin/env bash
# Quick start: set everything up and run the whole test suite (lint, types, tests incl. the
# real-browser test when Debian's Chromium is present; installed here when we are root). pytest also builds the
# docs (`mkdocs build --strict`, tests/test_docs.py) and the wheel, installed and run from a fresh venv
# (tests/test_package.py).
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "setup: installing Debian's chromium for the real-browser test" >&2
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
bash scripts/setup_env.sh requirements-dev.txt
.venv/bin/ruff check .
# mypy's fingerprint of the tree it is about to check, exported once it passed: tests/test_typecheck.py then does
# not run the same check a second time (a plain pytest run, or a file edited since, still runs it).
mypy_stamp="$(.venv/bin/python -m tests.typecheck_stamp)"
.venv/bin/mypy
export AGENTIC_MYPY_PASSED="$mypy_stamp"
# Bytecode caches on for the tests, even where PYTHONDONTWRITEBYTECODE is set (into the __pycache__ folders git
# ignores): without them each worker rewrites the asserts of all ~300 test modules again (12 s of CPU) and every
# process a test starts (CLI, servers, the dashboard) compiles the product again.
unset PYTHONDONTWRITEBYTECODE
set +e
# Two or more workers (one per core), a test file per worker at a time: files that share a module-level setup keep
# it, and the suite takes about half the time on the 2-core machines CI runs on. PYTEST_WORKERS=0 runs it serially.
# The long files start first (tests/scheduling.py), in the order the collection gives: xdist must not re-sort it.
.venv/bin/python -m pytest -n "${PYTEST_WORKERS:-auto}" --dist loadfile --no-loadscope-reorder "$@"
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
  echo "error: pytest collected no tests; that is a failure, not a pass" >&2
  exit 1
fi
exit "$rc"
