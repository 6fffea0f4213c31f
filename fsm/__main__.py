"""``python -m fsm``: the command line; outside the project's venv, a hint instead of a traceback."""

import sys

#: Packages fsm needs that a system Python usually lacks (pyproject.toml's dependencies).
DEPENDENCIES = {"statemachine", "yaml", "pydot", "graphviz", "ipywidgets", "IPython", "jupyterlab"}

HINT = (
    "fsm: Python cannot import {name!r}, which fsm needs: this Python is not the project's. "
    "Run .venv/bin/fsm ... (or 'source .venv/bin/activate', then fsm ...); "
    "./scripts/test.sh or ./scripts/lab.sh makes .venv."
)

try:
    from fsm.cli import main

    code = main()
except ModuleNotFoundError as err:
    if (err.name or "").split(".")[0] not in DEPENDENCIES:
        raise
    print(HINT.format(name=err.name), file=sys.stderr)
    code = 2
raise SystemExit(code)
