"""The teaching notebooks: committed clean, and each runs top to bottom headless.

Every notebook in ``notebooks/`` and ``notebooks/ja/`` is executed with nbclient in the
project's own ``python3`` kernel (the venv's interpreter), with the notebook's own folder as
the working directory (as JupyterLab does) so its relative scenario paths work.  A committed
notebook carries no outputs and names its kernel, so JupyterLab opens it without asking.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = REPO / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb")) + sorted(NOTEBOOK_DIR.glob("ja/*.ipynb"))
TEACHING = ["01_ability_kinds", "02_skill_cards", "03_counter_chain", "04_a_whole_battle", "06_puzzles"]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

pytestmark = pytest.mark.notebooks


def _ids(path: Path) -> str:
    return path.relative_to(NOTEBOOK_DIR).with_suffix("").as_posix()


def _venv_kernel() -> KernelManager:
    """The ``python3`` kernel of this interpreter's environment, never a user-wide one from ~/.local."""
    specs = KernelSpecManager(kernel_dirs=[str(Path(sys.prefix) / "share" / "jupyter" / "kernels")])
    km = KernelManager(kernel_name="python3", kernel_spec_manager=specs)
    assert km.format_kernel_cmd()[0] == sys.executable, km.format_kernel_cmd()
    return km


def test_the_teaching_notebooks_are_there() -> None:
    names = {_ids(p) for p in NOTEBOOKS}
    missing = [f"{lang}{n}" for lang in ("", "ja/") for n in TEACHING if f"{lang}{n}" not in names]
    assert not missing, f"missing notebooks: {missing} in {NOTEBOOK_DIR}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids)
def test_notebook_is_committed_with_cleared_outputs_and_a_kernelspec(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    spec = nb.metadata.get("kernelspec", {})
    assert spec.get("name") == "python3", f"{path.name}: kernelspec name should be python3, is {spec!r}"
    assert spec.get("display_name") == "Python 3 (ipykernel)", f"{path.name}: kernelspec display_name is {spec!r}"
    dirty = [
        i
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "code" and (cell.get("outputs") or cell.get("execution_count") is not None)
    ]
    assert not dirty, f"{path.name}: cells {dirty} have outputs; clear them before committing"
    assert "widgets" not in nb.metadata, f"{path.name}: saved widget state in the metadata; clear it"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids)
def test_notebook_runs_top_to_bottom(path: Path) -> None:
    """Every cell runs without an error; every teaching notebook shows at least one step-through."""
    nb = nbformat.read(path, as_version=4)
    km = _venv_kernel()
    client = NotebookClient(
        nb, km=km, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    try:
        client.execute()  # raises CellExecutionError, with the cell and its traceback, on the first error
    finally:
        if km.has_kernel:  # nbclient leaves a kernel it was handed running; stop ours
            km.shutdown_kernel(now=True)
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    errors = [o for o in outputs if o.get("output_type") == "error"]
    assert not errors, f"{path.name}: {[(e['ename'], e['evalue']) for e in errors]}"
    stderr = [o["text"] for o in outputs if o.get("output_type") == "stream" and o.get("name") == "stderr"]
    assert not any("Traceback" in text for text in stderr), f"{path.name}: traceback on stderr: {stderr}"
    if path.stem in TEACHING:
        widgets = [o for o in outputs if WIDGET_VIEW in o.get("data", {})]
        assert widgets, f"{path.name}: no step-through widget was displayed"
