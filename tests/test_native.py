"""The explorer's hot path compiled by Cython (fsm/native.py, scripts/native.py; issue 26).

The compiled modules are the same source, so the rule tests elsewhere run on them; here: they
are the ones loaded, only while they match their source, and they explore the library exactly as
the source does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import import_module
from importlib.machinery import ExtensionFileLoader
from pathlib import Path

import pytest

from fsm import native

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(bool(os.environ.get("FSM_PURE")), reason="FSM_PURE=1: the suite runs from source")


def test_every_hot_module_runs_compiled_after_setup() -> None:
    for name in native.HOT:
        import_module(name)
    missing = sorted(set(native.HOT) - set(native.loaded()))
    assert not missing, f"run `.venv/bin/python scripts/native.py --strict` (scripts/setup.sh does): {missing}"


def _tree(tmp_path: Path, name: str) -> Path:
    source = native.source_path(name, tmp_path)
    source.parent.mkdir(parents=True)
    source.write_text(native.source_path(name).read_text(encoding="utf-8"), encoding="utf-8")
    return source


def test_the_finder_loads_a_compiled_file_named_for_its_source(tmp_path: Path) -> None:
    _tree(tmp_path, "fsm.engine.game")
    compiled = native.compiled_path("fsm.engine.game", tmp_path)
    compiled.write_bytes(b"")  # where scripts/native.py would put it
    spec = native.Finder(tmp_path).find_spec("fsm.engine.game")
    assert spec is not None and isinstance(spec.loader, ExtensionFileLoader)
    assert spec.origin == str(compiled) and compiled.parent == tmp_path / "fsm" / "engine"  # __file__'s folder


def test_an_edited_source_is_imported_from_source_until_compiled_again(tmp_path: Path) -> None:
    source = _tree(tmp_path, "fsm.engine.game")
    compiled = native.compiled_path("fsm.engine.game", tmp_path)
    compiled.write_bytes(b"")
    source.write_text(source.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert native.Finder(tmp_path).find_spec("fsm.engine.game") is None  # the usual import: the .py
    assert compiled.exists() and native.compiled_path("fsm.engine.game", tmp_path) != compiled


def test_the_finder_leaves_every_other_module_to_the_usual_import(tmp_path: Path) -> None:
    _tree(tmp_path, "fsm.cli.exploring")
    native.compiled_path("fsm.cli.exploring", tmp_path).write_bytes(b"")
    assert native.Finder(tmp_path).find_spec("fsm.cli.exploring") is None
    assert native.Finder(tmp_path).find_spec("fsm.engine.play") is None  # no source there at all


def test_the_settings_are_part_of_the_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _tree(tmp_path, "fsm.table.model")
    before = native.compiled_path("fsm.table.model", tmp_path)
    monkeypatch.setattr(native, "DIRECTIVES", {**native.DIRECTIVES, "language_level": 2})
    assert native.compiled_path("fsm.table.model", tmp_path) != before


def test_only_the_machines_keep_python_signatures() -> None:
    """python-statemachine reads its callbacks' signatures; nothing reads the others'."""
    assert native.directives("fsm.machines.procedures")["binding"] is True
    assert native.directives("fsm.engine.game")["binding"] is False


#: Explores every library file and prints what the report says; run once compiled, once from source.
CHILD = """
import json, sys
from pathlib import Path
from fsm import native
from fsm.explore.explorer import explore
from fsm.explore.position import game_at
repo = Path(sys.argv[1])
out = {"native": native.loaded()}
for path in sorted((repo / "scenarios").glob("*.yaml")) + sorted((repo / "designs").glob("*.yaml")):
    r = explore(game_at(path, "start", {}), max_states=3000)
    endings = sorted((repr(sig), e.tables, list(e.line)) for sig, e in r.endings.items())
    out[path.name] = [r.states, r.moves, r.ended, r.revisits, r.longest_chain, endings, r.dead_ends, r.errors]
print(json.dumps(out, default=str))
"""


def _explored(pure: bool) -> dict[str, object]:
    env = {**os.environ, "FSM_LANG": "en"}
    env.pop("FSM_PURE", None)
    if pure:
        env["FSM_PURE"] = "1"
    run = subprocess.run([sys.executable, "-c", CHILD, str(REPO)], env=env, capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def test_compiled_and_source_explore_the_library_alike() -> None:
    compiled, source = _explored(pure=False), _explored(pure=True)
    assert compiled.pop("native") == list(native.HOT)
    assert source.pop("native") == []
    assert len(compiled) >= 56
    for name in compiled:
        assert compiled[name] == source[name], name
