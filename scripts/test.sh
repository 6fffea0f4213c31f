#!/usr/bin/env bash
# Install everything, then run every check: lint, format, layers, types, and the whole pytest
# suite (unit, property, scenarios, notebooks, browser). Extra arguments go to
# pytest, e.g. `scripts/test.sh -m "not browser" -x`.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh test

if [[ -x /usr/bin/chromium ]]; then
  export FSM_CHROMIUM=/usr/bin/chromium
elif command -v chromium >/dev/null 2>&1; then
  FSM_CHROMIUM="$(command -v chromium)"
  export FSM_CHROMIUM
fi

status=0

echo "== ruff check"
.venv/bin/ruff check . || status=1

echo "== ruff format --check"
.venv/bin/ruff format --check . || status=1

echo "== lint-imports (the layers import only downwards: pyproject.toml [tool.importlinter])"
.venv/bin/lint-imports --no-cache || status=1

echo "== mypy"
.venv/bin/mypy || status=1

echo "== node --test (the step-through's front end: fsm/notebook/front/)"
node --test tests/js/ || status=1

echo "== pytest"
.venv/bin/python -m pytest "$@" || status=1

if ((status)); then
  echo "FAILED: see the output above." >&2
fi
echo "The command line: .venv/bin/fsm --help (or 'source .venv/bin/activate', then fsm ...)."
exit "$status"
