"""Notebooks are saved clean: no outputs, no execution counts, no widget state.

A step-through's output is a live widget: saved, it is only a pointer to a kernel-side
model that is gone once the kernel stops, so a reopened notebook shows "Error displaying
widget: model not found", and git sees hundreds of changed lines.  ``scripts/lab.sh``
starts JupyterLab with this module as the server's pre-save hook::

    jupyter lab --ContentsManager.pre_save_hook=fsm.notebook.clean.pre_save

so what is written to disk is the notebook as committed (the page keeps its live outputs
until it is closed).  ``python -m fsm.notebook.clean FILE...`` cleans files by hand.
"""

from __future__ import annotations

import json
import sys
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

#: Cell metadata JupyterLab adds while a notebook is used; none of it is part of the lesson.
TRANSIENT_CELL_KEYS = ("execution", "scrolled", "collapsed", "jupyter")


def clean(nb: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """The notebook without outputs, execution counts, widget state or kernel version details."""
    meta = nb.setdefault("metadata", {})
    meta.pop("widgets", None)
    if "language_info" in meta:
        meta["language_info"] = {"name": meta["language_info"].get("name", "python")}
    for cell in nb.get("cells", []):
        for key in TRANSIENT_CELL_KEYS:
            cell.get("metadata", {}).pop(key, None)
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    return nb


def pre_save(model: dict[str, Any], **_kwargs: Any) -> None:
    """Jupyter server pre-save hook: clean a notebook in place before it is written."""
    if model.get("type") == "notebook" and isinstance(model.get("content"), MutableMapping):
        clean(model["content"])


def main(argv: list[str] | None = None) -> int:
    paths = argv if argv is not None else sys.argv[1:]
    if not paths:
        print("usage: python -m fsm.notebook.clean NOTEBOOK.ipynb ...", file=sys.stderr)
        return 2
    for name in paths:
        path = Path(name)
        try:
            nb = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            print(f"{path}: cannot read this notebook ({err})", file=sys.stderr)
            return 2
        path.write_text(json.dumps(clean(nb), indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
