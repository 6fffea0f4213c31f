"""Compile the explorer's hot path with Cython (``fsm/native.py`` says what, and how it is loaded).

    .venv/bin/python scripts/native.py [TREE]     # TREE: a checkout of fsm (default: this one)

Only the modules whose compiled file is missing for their source as it reads now are compiled,
so a second run is quick; older compiled files of those modules are removed.  Without Cython or a
C compiler it says so and leaves fsm as plain Python (which runs the same, slower): exit 0, so
that ``scripts/setup.sh`` goes on.  ``--strict`` makes that an error (exit 1).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", type=Path, default=REPO, help="the checkout to compile (default: this one)")
    parser.add_argument("--strict", action="store_true", help="fail (exit 1) when it cannot compile")
    args = parser.parse_args(argv)
    tree = args.tree.resolve()
    sys.path.insert(0, str(tree))
    os.environ["FSM_PURE"] = "1"  # read the tree's own list and digests, loading nothing compiled
    from fsm import native

    stale = [(n, native.source_path(n, tree)) for n in native.HOT if not native.compiled_path(n, tree).is_file()]
    if not stale:
        print(f"[native] the hot path is compiled and current ({len(native.HOT)} modules)")
        return 0
    print(f"[native] compiling {len(stale)} of {len(native.HOT)} modules with Cython (up to a few minutes)", flush=True)
    with tempfile.TemporaryDirectory(prefix="fsm-native-") as tmp:
        try:
            built = _compile(tree, stale, native.directives, Path(tmp))
        except Exception as err:  # Cython missing, no compiler, no Python headers: plain Python it is
            print(f"[native] could not compile ({type(err).__name__}: {err})", file=sys.stderr)
            print(
                "[native] fsm runs as plain Python: the same rules, explored about 1.4x slower. To compile, "
                "install a C compiler and Python's headers (Debian: gcc python3-dev) and Cython "
                "(pip install -e '.[native]'), then run this again.",
                file=sys.stderr,
            )
            return 1 if args.strict else 0
        for (name, src), lib in zip(stale, built, strict=True):
            for old in src.parent.glob(f"{src.stem}.*{native.SUFFIX}"):
                old.unlink()  # an older source's compiled file: never loaded again
            shutil.copyfile(lib, native.compiled_path(name, tree))
    print(f"[native] done: {len(stale)} module{'s' if len(stale) > 1 else ''} compiled")
    return 0


def _compile(
    tree: Path, modules: list[tuple[str, Path]], directives: Callable[[str], dict[str, Any]], tmp: Path
) -> list[Path]:
    """Cython, then the C compiler, inside ``tmp``; the built files, in the order given."""
    from importlib.machinery import EXTENSION_SUFFIXES

    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    jobs = os.cpu_count() or 1
    here = os.getcwd()
    os.chdir(tree)  # Cython names each module from its path in the tree
    try:
        # -w: the C that Cython writes warns by the hundred, about nothing a reader of fsm can act on
        extensions = [Extension(name, [str(src.relative_to(tree))], extra_compile_args=["-w"]) for name, src in modules]
        groups: dict[str, list[Extension]] = {}  # cythonize takes one set of settings a call
        for e in extensions:
            groups.setdefault(repr(directives(e.name)), []).append(e)
        compiled = [
            c
            for group in groups.values()
            for c in cythonize(
                group,
                compiler_directives=directives(group[0].name),
                build_dir=str(tmp / "c"),
                nthreads=jobs,
                quiet=True,
            )
        ]
        dist = Distribution({"ext_modules": compiled})
        dist.verbose = False  # type: ignore[attr-defined]  # one line per module is setuptools' log
        command = dist.get_command_obj("build_ext")
        command.build_lib, command.build_temp, command.parallel = str(tmp / "lib"), str(tmp / "o"), jobs
        dist.run_command("build_ext")
    finally:
        os.chdir(here)
    return [
        (tmp / "lib").joinpath(*name.split(".")[:-1], name.split(".")[-1] + EXTENSION_SUFFIXES[0])
        for name, _ in modules
    ]


if __name__ == "__main__":
    sys.exit(main())
