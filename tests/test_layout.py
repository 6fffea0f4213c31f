"""The engine's layout (issue 12): one concept per module, no import circle among fsm/ modules
(counting imports under TYPE_CHECKING and inside functions), no class of the engine's parts over
about 300 lines, and the parts typed against protocols, never importing the engine."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import pytest
from test_no_kind_names import PARTS

FSM = Path(__file__).resolve().parents[1] / "fsm"


def imports(path: Path) -> set[str]:
    """The fsm modules a module imports anywhere in it (module level, TYPE_CHECKING, functions)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            out |= {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("fsm."):
            out.add((node.module or "").split(".")[1])
    return out


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


def graph(paths: Iterable[Path]) -> dict[str, set[str]]:
    return {p.stem: imports(p) for p in paths}


def test_no_import_circle_among_fsm_modules() -> None:
    assert circle(graph(FSM.glob("*.py"))) == []


def test_the_circle_search_finds_one_hidden_under_type_checking(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("from .b import x\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import y\n")
    assert circle(graph(tmp_path.glob("*.py"))) == ["a", "b", "a"]


@pytest.mark.parametrize("name", PARTS)
def test_the_engines_parts_have_no_class_over_about_300_lines(name: str) -> None:
    tree = ast.parse((FSM / name).read_text(encoding="utf-8"))
    sizes = {c.name: (c.end_lineno or c.lineno) - c.lineno + 1 for c in ast.walk(tree) if isinstance(c, ast.ClassDef)}
    assert {c: n for c, n in sizes.items() if n > 300} == {}


@pytest.mark.parametrize("name", [p for p in PARTS if p != "engine.py"])
def test_the_parts_depend_on_protocols_not_on_the_engine(name: str) -> None:
    assert "engine" not in imports(FSM / name)


def test_the_readme_layout_names_every_part() -> None:
    readme = (FSM.parent / "README.md").read_text(encoding="utf-8")
    layout = readme[readme.index("## Layout") :].split("\n## ", 1)[0]
    assert [p for p in PARTS if f"`fsm/{p}`" not in layout] == []
