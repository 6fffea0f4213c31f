"""Everything a browser needs to run ``fsm`` from a static host: ``python docs/site/web_assets.py [OUT]``.

``build.py`` runs it after the two Sphinx builds, into ``_build/web`` (not committed):

* ``pyodide/`` -- the interpreter and standard library, copied from the npm package ``pyodide``
  (``npm ci``; package.json pins the version JupyterLite's kernel pins);
* ``wheels/`` -- the project's own wheel, built now and trimmed of what the page never reads
  (:data:`TRIM`, :data:`TRIM_SUFFIXES`), and the pure-python wheels ``import fsm`` and a
  step-through need, at the pinned versions below (``pip download``, kept in ``build/web-cache``);
  PyYAML's pure-python ``yaml/`` package repacked as a ``py3-none-any`` wheel of the same name and
  version (its sdist does not build offline here; it runs without its C part); ``wheels/index.json``
  lists them, with pyodide's version and the build's id (:func:`build_id`), which key the memory
  snapshot a visitor's browser keeps (``front/snapshot.js``), so a new build never restores an old
  one;
* ``scenarios/`` -- the scenario library, which the "try it" of each page opens;
* ``try.js``, ``worker.js``, ``viz.js``, ``step.css`` -- the page's front end, its Web Worker, and
  Graphviz in WebAssembly (``@viz-js/viz``), which the page starts in a Worker of its own, bundled by
  esbuild (``scripts/build_front.mjs --web``).

Left out on purpose: Graphviz and fontTools (the page draws with ``@viz-js/viz``; no SVG is made in
Python), Sphinx, ipywidgets and anywidget (the worker drives a :class:`fsm.notebook.channel.Channel`),
and Babel (the wheel carries the compiled ``.mo`` catalogues, so ``fsm.i18n`` never compiles one).
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CACHE = ROOT / "build" / "web-cache"  # downloaded wheels, so a rebuild needs no network
#: fsm's wheel whole, as built: JupyterLite's notebooks need what the "try it" leaves out (the
#: widget's bundled front end), so lite/build_lite.py takes it from here.
WHOLE = ROOT / "build" / "web-whole"

#: The pure-python wheels the worker installs: what ``import fsm`` and a step-through import.
PINS = {
    "python-statemachine": "3.2.2",
    "pydot": "4.0.1",  # fsm.render.dot builds DOT text with it (python-statemachine[diagrams])
    "pyparsing": "3.3.3",  # pydot's
}
PYYAML = "6.0.4"
#: What the worker never reads of the project's wheel: the notebook's bundled front end (the site
#: serves its own), the ``.po`` sources of the ``.mo`` catalogues, the Sphinx extension.  Each file
#: left out is one less to download, unpack and keep in the snapshot.
TRIM = ("fsm/notebook/static/", "fsm/sphinx/")
TRIM_SUFFIXES = (".po", ".so")  # .so: this machine's compiled hot path (fsm/native.py), never pyodide's
#: Files of the npm package the browser never asks for.
PYODIDE_SKIP = ("*.map", "*.d.ts", "console*.html", "README.md")


def _run(args: list[str]) -> None:
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"web assets: {' '.join(args[:4])} ... failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")


def copy_pyodide(out: Path) -> Path:
    source = ROOT / "node_modules" / "pyodide"
    if not (source / "pyodide.mjs").is_file():
        raise SystemExit(f"web assets: {source} is missing: run `npm ci` (scripts/setup.sh does)")
    target = out / "pyodide"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(*PYODIDE_SKIP))
    return target


def _pip(*args: str) -> list[str]:
    return [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", *args]


def pinned_wheels(cache: Path = CACHE) -> list[Path]:
    """The pinned pure-python wheels, downloaded once into ``cache``."""
    cache.mkdir(parents=True, exist_ok=True)
    wheels = []
    for name, version in PINS.items():
        stem = f"{name.replace('-', '_')}-{version}-"
        found = [p for p in cache.glob("*.whl") if p.name.lower().startswith(stem.lower())]
        if not found:
            only = ["--only-binary=:all:", "--platform", "any", "--python-version", "3.14", "--implementation", "py"]
            _run(_pip("download", "--no-deps", *only, "-d", str(cache), f"{name}=={version}"))
            found = [p for p in cache.glob("*.whl") if p.name.lower().startswith(stem.lower())]
        if not found or not found[0].name.endswith("-py3-none-any.whl"):
            raise SystemExit(f"web assets: no pure-python wheel of {name}=={version} in {cache}")
        wheels.append(found[0])
    return wheels


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def pure_pyyaml(cache: Path = CACHE) -> Path:
    """PyYAML's ``yaml/`` package without its C extension, as ``pyyaml-VERSION-py3-none-any.whl``:
    a wheel of PyYAML's own name, so an installer that reads the project's requirements finds it."""
    target = cache / f"pyyaml-{PYYAML}-py3-none-any.whl"
    if target.is_file():
        return target
    platform = ["--platform", "manylinux2014_x86_64", "--python-version", "3.11", "--only-binary=:all:"]
    binary = cache / "pyyaml-binary"
    _run(_pip("download", "--no-deps", *platform, "-d", str(binary), f"pyyaml=={PYYAML}"))
    source = next(binary.glob(f"pyyaml-{PYYAML}-*.whl"))
    info = f"pyyaml-{PYYAML}.dist-info"
    keep = (f"{info}/METADATA", f"{info}/licenses/")
    with zipfile.ZipFile(source) as whl:
        files = {
            name: whl.read(name)
            for name in whl.namelist()
            if (name.startswith("yaml/") and name.endswith(".py")) or (name.startswith(keep) and name[-1] != "/")
        }
    files[f"{info}/top_level.txt"] = b"yaml\n"
    wheel = "Wheel-Version: 1.0\nGenerator: fsm web_assets\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files[f"{info}/WHEEL"] = wheel.encode()
    record = [_record_line(n, d) for n, d in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    partial = target.with_suffix(".part")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in files.items():
            out.writestr(name, data)
    partial.replace(target)
    return target


def own_wheel(out: Path) -> Path:
    """The project's wheel, built now from this checkout (its ``.mo`` catalogues compiled in)."""
    for old in out.glob("fsm_timing_rules-*.whl"):
        old.unlink()
    _run(_pip("wheel", "--no-deps", "-w", str(out), str(ROOT)))
    return next(out.glob("fsm_timing_rules-*.whl"))


def trim_wheel(wheel: Path, folder: Path) -> Path:
    """A copy of ``wheel`` in ``folder`` without the files :data:`TRIM` and :data:`TRIM_SUFFIXES`
    name (its RECORD rewritten to match)."""
    with zipfile.ZipFile(wheel) as whl:
        files = {n: whl.read(n) for n in whl.namelist() if not n.startswith(TRIM) and not n.endswith(TRIM_SUFFIXES)}
    record = next(n for n in files if n.endswith(".dist-info/RECORD"))
    lines = [_record_line(n, d) for n, d in files.items() if n != record] + [f"{record},,"]
    files[record] = ("\n".join(lines) + "\n").encode()
    target = folder / wheel.name
    partial = target.with_suffix(".part")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in files.items():
            out.writestr(name, data)
    partial.replace(target)
    return target


def build_id(out: Path, wheels: list[str]) -> str:
    """A digest of what the worker's Python state is made of: pyodide's version, the wheels, the worker."""
    digest = hashlib.sha256()
    version = json.loads((out / "pyodide" / "package.json").read_text(encoding="utf-8"))["version"]
    parts = [(out / "wheels" / name) for name in wheels] + [out / "worker.js"]
    for part in [version.encode(), *(p.name.encode() + p.read_bytes() for p in parts)]:
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()[:20]


def build_web_assets(out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    copy_pyodide(out)
    wheels = out / "wheels"
    shutil.rmtree(wheels, ignore_errors=True)
    wheels.mkdir()
    WHOLE.mkdir(parents=True, exist_ok=True)
    own = trim_wheel(own_wheel(WHOLE), wheels)
    for whl in [*pinned_wheels(), pure_pyyaml()]:
        shutil.copy2(whl, wheels / whl.name)
    names = [own.name, *sorted(p.name for p in wheels.glob("*.whl") if p != own)]
    scenarios = out / "scenarios"
    shutil.rmtree(scenarios, ignore_errors=True)
    shutil.copytree(ROOT / "scenarios", scenarios, ignore=shutil.ignore_patterns("*.md"))
    _run(["node", "scripts/build_front.mjs", "--web", str(out)])
    version = json.loads((out / "pyodide" / "package.json").read_text(encoding="utf-8"))["version"]
    index = {"wheels": names, "pyodide": version, "build": build_id(out, names)}
    (wheels / "index.json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    return out


if __name__ == "__main__":
    where = build_web_assets(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "_build" / "web")
    print(f"web assets: built {where}")
