"""The explorer's hot path compiled by Cython, used only while it matches its source (issue 26).

``scripts/native.py`` (run by ``scripts/setup.sh``) compiles each module of :data:`HOT` into a
file beside its source, named for the source's digest::

    fsm/engine/game.py  →  fsm/engine/game.3f9c0a51d2e8b7a4.cpython-311-x86_64-linux-gnu.so

Python's own import never looks for such a name.  :class:`Finder`, put first on
``sys.meta_path`` when ``fsm`` is imported, loads it, and only while the source still has that
digest: an edited module is imported from its ``.py`` until it is compiled again, so nothing
stale ever runs, and a tree that was never compiled (a wheel, the browser edition) is plain
Python.  The compiled modules are the same source, so they play the same rules;
``tests/test_native.py`` checks that they are the ones loaded and that they explore the library
exactly as the source does.

``FSM_PURE=1`` in the environment imports everything from source (for a profiler, a debugger,
or to compare).
"""

from __future__ import annotations

import hashlib
import os
import sys
from importlib.abc import MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["HOT", "Finder", "compiled_path", "directives", "install", "loaded", "source_path"]

ROOT = Path(__file__).resolve().parent.parent

#: What exploring runs on every move: the rules' values, the table, the specs, the machines,
#: the engine and the search.  The renderers, the notebooks and the command line stay source.
HOT = (
    "fsm.i18n",
    "fsm.rules.price_parts",
    "fsm.rules.skills",
    "fsm.rules.timing",
    "fsm.rules.variants",
    "fsm.rules.vocab",
    "fsm.table.model",
    "fsm.table.moves",
    "fsm.table.sharing",
    "fsm.spec.board",
    "fsm.spec.effects",
    "fsm.spec.kinds",
    "fsm.spec.paying",
    "fsm.spec.prices",
    "fsm.spec.recheck",
    "fsm.spec.resolutions",
    "fsm.spec.ruleset",
    "fsm.machines.battle",
    "fsm.machines.chain",
    "fsm.machines.compiled",
    "fsm.machines.procedures",
    "fsm.machines.steps",
    "fsm.engine.candidates",
    "fsm.engine.declaring",
    "fsm.engine.game",
    "fsm.engine.legality",
    "fsm.engine.narration",
    "fsm.engine.play",
    "fsm.engine.resolving",
    "fsm.explore.report",
    "fsm.explore.search",
    "fsm.explore.visited",
)

#: Cython's settings.  Type annotations are not read as C types (the code is plain Python and
#: stays so: ``-> str`` may return a ``str`` subclass).  The settings are part of each file's name:
#: other settings, other files.
DIRECTIVES: dict[str, Any] = {"language_level": 3, "annotation_typing": False}

#: Modules whose functions python-statemachine calls as callbacks: it reads their signatures, so
#: they stay Python-like functions (Cython's ``binding``).  Elsewhere nothing reads a signature,
#: and a plain C function is cheaper to call.
INTROSPECTED = ("fsm.machines.",)


def directives(name: str) -> dict[str, Any]:
    """Cython's settings for module ``name``."""
    return {**DIRECTIVES, "binding": name.startswith(INTROSPECTED)}


SUFFIX = EXTENSION_SUFFIXES[0]  # this interpreter's own, e.g. .cpython-311-x86_64-linux-gnu.so


def source_path(name: str, root: Path = ROOT) -> Path:
    return root.joinpath(*name.split(".")).with_suffix(".py")


def compiled_path(name: str, root: Path = ROOT) -> Path:
    """Where the compiled form of module ``name``, as its source reads now, lies."""
    source = source_path(name, root)
    settings = repr(sorted(directives(name).items())).encode()
    digest = hashlib.blake2b(source.read_bytes() + b"\0" + settings, digest_size=8)
    return source.with_name(f"{source.stem}.{digest.hexdigest()}{SUFFIX}")


class Finder(MetaPathFinder):
    """Finds the compiled form of a :data:`HOT` module when it matches the module's source."""

    def __init__(self, root: Path = ROOT) -> None:
        self.root = root

    def find_spec(self, fullname: str, path: Any = None, target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in _HOT:
            return None
        try:
            native = compiled_path(fullname, self.root)
        except OSError:  # no source here (a zip, a stripped install): the usual import decides
            return None
        if not native.is_file():
            return None
        return spec_from_file_location(fullname, native, loader=ExtensionFileLoader(fullname, str(native)))


_HOT = frozenset(HOT)


def install() -> None:
    """Put :class:`Finder` first on ``sys.meta_path`` (once), unless ``FSM_PURE`` is set."""
    if os.environ.get("FSM_PURE") or any(isinstance(f, Finder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, Finder())


def loaded() -> list[str]:
    """The :data:`HOT` modules imported so far that run compiled."""
    return [name for name in HOT if (m := sys.modules.get(name)) is not None and _is_native(m)]


def _is_native(module: ModuleType) -> bool:
    return isinstance(getattr(module, "__loader__", None), ExtensionFileLoader)
