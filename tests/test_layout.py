"""The package's layout (issues 12 and 22): one layer per subpackage, imports only downwards (the
import-linter contracts in pyproject.toml, run by scripts/test.sh and here against a planted
upward import), no import circle among fsm modules (counting imports under TYPE_CHECKING and inside
functions), no module over about 500 lines, no class over about 300, and the
parts typed against protocols, never importing the ``Game`` module."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest
from test_no_kind_names import PARTS

FSM = Path(__file__).resolve().parents[1] / "fsm"
LAYERS = ("rules", "table", "spec", "machines", "engine", "scenarios", "explore", "render", "notebook", "sphinx")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, root: Path = FSM) -> set[str]:
    """The fsm modules (dotted) a module imports anywhere in it (module level, TYPE_CHECKING, functions)."""
    here = module_name(path, root).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            if module.split(".")[0] != root.name:
                continue
            out.add(module)
            out |= {
                f"{module}.{a.name}"
                for a in node.names
                if (root.parent / f"{module}.{a.name}".replace(".", "/")).exists()
            }
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.split(".")[0] == root.name}
    return out - {".".join(here)}


def circle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle of the graph, or [] if there is none."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str]:
        for dep in sorted(graph.get(module, ())):
            if dep in path:
                return [*path[path.index(dep) :], dep]
            if dep not in done:
                found = visit(dep, [*path, dep])
                if found:
                    return found
        done.add(module)
        return []

    for module in sorted(graph):
        found = visit(module, [module])
        if found:
            return found
    return []


def graph(paths: Iterable[Path], root: Path = FSM) -> dict[str, set[str]]:
    # a package's own __init__ is not an edge: importing fsm.x.y runs fsm.x's __init__ first anyway
    modules = {module_name(p, root): imports(p, root) for p in paths if p.name != "__init__.py"}
    return {m: {d for d in deps if d in modules} for m, deps in modules.items()}


def test_no_import_circle_among_fsm_modules() -> None:
    assert circle(graph(FSM.rglob("*.py"))) == []


def test_the_circle_search_finds_one_hidden_under_type_checking(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "a.py").write_text("from .b import x\n", encoding="utf-8")
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import y\n")
    assert circle(graph(pkg.glob("*.py"), pkg)) == ["pkg.a", "pkg.b", "pkg.a"]


def test_every_module_lives_in_a_layer() -> None:
    """Only the entry point and what every layer uses stay at the top (README, Layout)."""
    assert {p.name for p in FSM.glob("*.py")} == {"__init__.py", "__main__.py", "errors.py", "i18n.py", "native.py"}
    assert {p.name for p in FSM.iterdir() if (p / "__init__.py").exists()} == {*LAYERS, "cli"}


def test_no_module_over_about_500_lines() -> None:
    sizes = {str(p.relative_to(FSM)): len(p.read_text(encoding="utf-8").splitlines()) for p in FSM.rglob("*.py")}
    assert {name: n for name, n in sizes.items() if n > 500} == {}


def test_no_class_over_about_300_lines() -> None:
    sizes = {
        f"{p.relative_to(FSM)}:{c.name}": (c.end_lineno or c.lineno) - c.lineno + 1
        for p in FSM.rglob("*.py")
        for c in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        if isinstance(c, ast.ClassDef)
    }
    assert {name: n for name, n in sizes.items() if n > 300} == {}


@pytest.mark.parametrize("name", [p for p in PARTS if p != "engine/game.py"])
def test_the_parts_depend_on_protocols_not_on_the_engine(name: str) -> None:
    assert "fsm.engine.game" not in imports(FSM / name)


def test_the_readme_layout_has_a_row_per_layer() -> None:
    readme = (FSM.parent / "README.md").read_text(encoding="utf-8")
    layout = readme[readme.index("## Layout") :].split("\n## ", 1)[0]
    assert [layer for layer in LAYERS if f"`fsm/{layer}/`" not in layout] == []


def test_the_root_offers_the_public_api() -> None:
    import fsm
    from fsm.engine.game import Game
    from fsm.notebook.step_through import StepThrough
    from fsm.scenarios.playing import load

    assert (fsm.Game, fsm.load, fsm.StepThrough) == (Game, load, StepThrough)
    assert set(fsm.__all__) <= set(dir(fsm))
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        _ = fsm.nothing_here  # type: ignore[attr-defined]


def test_importing_the_engine_loads_no_renderer_and_no_widget() -> None:
    """The engine and the scenarios run where there is no Graphviz and no Jupyter (the browser);
    nor is Dask or rich loaded until an exploration asks for them (issue 26)."""
    code = (
        "import sys, fsm; from fsm import Game, load; load('scenarios/action_fizzles_after_counter.yaml');"
        "import fsm.explore.explorer;"
        "heavy = [m for m in ('graphviz', 'pydot', 'ipywidgets', 'fontTools', 'fsm.render', 'fsm.notebook',"
        " 'dask', 'distributed', 'rich', 'fsm.explore.cluster') if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=FSM.parent, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="import-linter is installed by the test extra")
def test_the_layers_contract_catches_an_import_that_runs_up(tmp_path: Path) -> None:
    """The contracts pass on the tree as it is, and fail, naming the import, once a lower layer imports
    an upper one (here the table imports the engine)."""
    shutil.copytree(FSM, tmp_path / "fsm", ignore=shutil.ignore_patterns("__pycache__", "locale"))
    shutil.copy(FSM.parent / "pyproject.toml", tmp_path)
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}

    def lint() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(LINT_IMPORTS), "--no-cache"], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
        )

    kept = lint()
    assert kept.returncode == 0, kept.stdout
    model = tmp_path / "fsm" / "table" / "model.py"
    model.write_text(model.read_text(encoding="utf-8") + "\nfrom fsm.engine import game  # noqa\n", encoding="utf-8")
    broken = lint()
    assert broken.returncode == 1
    assert "fsm.table.model -> fsm.engine.game" in broken.stdout
