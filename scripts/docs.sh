#!/usr/bin/env bash
# Install everything, then build the bilingual rulebook site (Sphinx, warnings as errors)
# into docs/site/_build (or the folder given), with the browser edition's web/ and the notebooks in
# JupyterLite (lite/): serve it with `python -m http.server -d docs/site/_build`.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh docs

.venv/bin/python docs/site/build.py "$@"
# the notebooks in JupyterLite, from the site's web/ assets: OUT/lite
exec .venv/bin/python docs/site/lite/build_lite.py "$@"
