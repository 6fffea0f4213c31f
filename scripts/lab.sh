#!/usr/bin/env bash
# Install everything, then open the teaching notebooks in JupyterLab.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh lab
echo "The command line: .venv/bin/fsm --help (or 'source .venv/bin/activate', then fsm ...)."

echo "Starting JupyterLab on 127.0.0.1; open the http://127.0.0.1:8888/lab?token=... URL printed below."
extra=()
# JupyterLab will not start as root without --allow-root (containers, CI); it still listens on 127.0.0.1 only.
if [[ "$(id -u)" -eq 0 ]]; then extra+=(--allow-root); fi
# Saving writes the notebook as committed (no outputs, no widget state): see fsm/notebook_clean.py.
exec .venv/bin/jupyter lab --ip=127.0.0.1 --notebook-dir=notebooks \
  --ContentsManager.pre_save_hook=fsm.notebook_clean.pre_save ${extra[@]+"${extra[@]}"} "$@"
