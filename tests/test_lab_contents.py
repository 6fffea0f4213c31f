"""A committed notebook is served with the kernel's own language_info (fsm/notebook/lab_contents.py),
so JupyterLab finds nothing to change when the kernel starts; saving strips it again (clean.py)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from fsm.notebook.clean import clean
from fsm.notebook.lab_contents import LabContents, fill, kernel_language_info

REPO = Path(__file__).resolve().parents[1]


def test_a_cleaned_notebook_is_served_with_the_kernels_language_info_and_saved_without_it(tmp_path: Path) -> None:
    committed = json.loads((REPO / "notebooks" / "01_ability_kinds.ipynb").read_text(encoding="utf-8"))
    assert committed["metadata"]["language_info"] == {"name": "python"}
    (tmp_path / "n.ipynb").write_text(json.dumps(committed), encoding="utf-8")
    served = asyncio.run(LabContents(root_dir=str(tmp_path)).get("n.ipynb"))
    info = served["content"]["metadata"]["language_info"]
    assert info == kernel_language_info() and info["version"] and info["codemirror_mode"]
    assert clean(served["content"])["metadata"]["language_info"] == {"name": "python"}


def test_a_notebook_of_another_language_or_with_full_details_is_left_as_it_is() -> None:
    info = kernel_language_info()
    other = {"metadata": {"language_info": {"name": "julia"}}}
    fill(other, info)
    assert other["metadata"]["language_info"] == {"name": "julia"}
    detailed = {"metadata": {"language_info": {"name": "python", "version": "3.0"}}}
    fill(detailed, info)
    assert detailed["metadata"]["language_info"] == {"name": "python", "version": "3.0"}
    fill({"metadata": None}, info)  # malformed metadata: nothing to fill, no error
