#!/usr/bin/env bash
# Install everything this project needs; safe to run again and again.
#
#   scripts/setup.sh lab    system packages for the notebooks + .venv
#   scripts/setup.sh docs   the same (the site needs Graphviz and the Japanese font too)
#   scripts/setup.sh test   the same, plus Chromium for the browser tests
#
# The step-through's front end is bundled by npm (package-lock.json: @viz-js/viz, esbuild) into
# fsm/notebook/static/; `npm ci` runs only when the lock changed, the bundle is rebuilt every time.
#
# The explorer's hot path is compiled by Cython (scripts/native.py, lab and test) into files that
# fsm/native.py loads only while they match their source; only what changed is compiled again.
#
# System packages (Debian/Ubuntu): graphviz, fonts-ipaexfont-gothic, nodejs and npm, for `lab`
# and `test` gcc and python3-dev (to compile), and for `test` chromium and poppler-utils;
# python3/python3-venv when no usable Python 3.11+ venv exists.
# As root they are installed with apt-get; otherwise the exact command is printed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

mode="${1:-test}"
case "$mode" in
  lab | docs | test) ;;
  *)
    echo "usage: $0 lab|docs|test" >&2
    exit 2
    ;;
esac

log() { printf '[setup] %s\n' "$*"; }

# --- find a Python >= 3.11 ----------------------------------------------------
find_python() {
  local cand
  for cand in python3 python3.11 python3.12 python3.13; do
    if command -v "$cand" >/dev/null 2>&1 &&
      "$cand" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      command -v "$cand"
      return 0
    fi
  done
  return 1
}

# --- what is missing ----------------------------------------------------------
missing=()

command -v dot >/dev/null 2>&1 || missing+=(graphviz)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)

# grep without -q reads all input, so fc-list never gets SIGPIPE under pipefail.
if ! { command -v fc-list >/dev/null 2>&1 && fc-list 2>/dev/null | grep -i ipaex >/dev/null; }; then
  missing+=(fonts-ipaexfont-gothic)
fi

if [[ "$mode" == test ]] && ! [[ -x /usr/bin/chromium ]] && ! command -v chromium >/dev/null 2>&1; then
  missing+=(chromium)
fi

# A C compiler and Python's headers: scripts/native.py compiles the explorer's hot path with Cython
# (without them fsm runs as plain Python, exploring about 1.4x slower).  The headers are looked for where
# the Python that makes .venv keeps them.
if [[ "$mode" != docs ]]; then
  command -v gcc >/dev/null 2>&1 || missing+=(gcc)
  base="$(if [[ -x .venv/bin/python ]]; then echo .venv/bin/python; else find_python || true; fi)"
  if [[ -n "$base" ]] && ! "$base" -c 'import os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' 2>/dev/null; then
    missing+=(python3-dev)
  fi
fi

# pdffonts: the test that every font of a diagram's PDF is embedded.
if [[ "$mode" == test ]] && ! command -v pdffonts >/dev/null 2>&1; then
  missing+=(poppler-utils)
fi

PY=""
if [[ ! -x .venv/bin/python ]]; then
  if PY="$(find_python)"; then
    if ! "$PY" -c 'import ensurepip, venv' >/dev/null 2>&1; then
      if [[ "$(basename "$PY")" == python3 ]]; then
        missing+=(python3-venv)
      else
        missing+=("$(basename "$PY")-venv")
      fi
    fi
  elif command -v apt-get >/dev/null 2>&1 && grep -qs 'bookworm\|trixie\|noble\|jammy' /etc/os-release; then
    # Debian 12+ ships Python 3.11+ as python3.
    missing+=(python3 python3-venv)
  else
    echo "error: no Python >= 3.11 found (tried python3, python3.11, python3.12, python3.13)." >&2
    echo "Install Python 3.11 or newer with its venv module, then run this again." >&2
    exit 1
  fi
fi

# --- install system packages ----------------------------------------------------
if ((${#missing[@]})); then
  if [[ "$(id -u)" -eq 0 ]]; then
    log "installing system packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y --no-install-recommends "${missing[@]}"
  else
    echo "error: missing system packages: ${missing[*]}" >&2
    echo "Run this, then run $0 $mode again:" >&2
    echo "" >&2
    echo "    sudo apt-get install -y ${missing[*]}" >&2
    echo "" >&2
    exit 1
  fi
fi

# --- virtual environment ----------------------------------------------------------
if [[ ! -x .venv/bin/python ]]; then
  [[ -n "$PY" ]] || PY="$(find_python)" || {
    echo "error: no Python >= 3.11 found even after installing packages." >&2
    exit 1
  }
  log "creating .venv with $PY ($("$PY" --version 2>&1))"
  rm -rf .venv
  "$PY" -m venv .venv
fi

# Re-install only when pyproject.toml changed or a module this mode needs is not importable.
# The notebooks need the package and JupyterLab; only the tests need the test tools ([test]).
if [[ "$mode" == test ]]; then
  target='.[test]'
  need='("fsm", "statemachine", "graphviz", "yaml", "jupyterlab", "fontTools", "sphinx", "myst_parser", "furo", "jupyterlite_core", "pyodide_lock", "pytest", "playwright", "pdfplumber", "rich", "distributed", "Cython")'
elif [[ "$mode" == docs ]]; then
  target='.[docs]'
  need='("fsm", "statemachine", "graphviz", "yaml", "fontTools", "sphinx", "myst_parser", "furo", "jupyterlite_core", "pyodide_lock", "rich")'
else
  target='.[native]'
  need='("fsm", "statemachine", "graphviz", "yaml", "jupyterlab", "ipykernel", "fontTools", "rich", "Cython")'
fi
stamp=.venv/.fsm-setup-stamp
want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
have="$(cat "$stamp" 2>/dev/null || true)"
if [[ "$want" != "$have" ]] || ! .venv/bin/python -I -c "
import importlib.util as u, sys
sys.exit(any(u.find_spec(m) is None for m in $need))" >/dev/null 2>&1; then
  log "installing the project into .venv (pip install -e '$target')"
  .venv/bin/python -m pip install -q --disable-pip-version-check -e "$target"
  echo "$want" >"$stamp"
else
  log ".venv is up to date"
fi

# --- the explorer's hot path compiled by Cython (fsm/native.py); only what changed is compiled again
if [[ "$mode" != docs ]]; then
  .venv/bin/python scripts/native.py
fi

# --- the step-through's front end (an anywidget module with Graphviz in WebAssembly) ---------
lock="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [[ "$lock" != "$(cat node_modules/.fsm-lock-stamp 2>/dev/null || true)" ]]; then
  log "installing the front end's npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock" >node_modules/.fsm-lock-stamp
fi
npm run --silent build

log "ready ($mode)"
