#!/usr/bin/env bash
# Install everything, then build the bilingual rulebook site (Sphinx, warnings as errors)
# into docs/site/_build (or the folder given): open docs/site/_build/index.html.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh docs

exec .venv/bin/python docs/site/build.py "$@"
