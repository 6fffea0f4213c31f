"""The notebooks in JupyterLite, offline: ``python docs/site/lite/build_lite.py [OUT]``.

Builds ``OUT/lite`` (default ``docs/site/_build/lite``) beside the site, from what
``docs/site/web_assets.py`` put in ``OUT/web``: pyodide's core from its npm package and the wheels of
``fsm`` and its pure-python dependencies.  The npm package has the interpreter and the standard
library only, so the kernel's own packages (micropip, IPython, comm, ipywidgets, anywidget, ...)
come from PyPI as pure-python wheels, pinned in ``wheels.txt`` and kept in ``build/lite-cache``.

``jupyter lite build`` (jupyterlite-core) then makes the site; its pyodide-lock addon
(jupyterlite-pyodide-kernel, with pyodide-lock and uv) solves those wheels into the site's
``pyodide-lock.json``.  The lock it starts from is the npm one with every package taken out (none
of their files is in the npm package), so the solve uses local wheels only and no package points
at a CDN.  anywidget's and ipywidgets' front ends come in as federated labextensions from this
environment; the step-through's ES module is in the fsm wheel.  Exit status: 0 built, 1 not.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NoReturn
from urllib.parse import urlparse

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
CACHE = ROOT / "build" / "lite-cache"  # downloaded wheels: a rebuild needs no network
WORK = ROOT / "build" / "lite-src"  # the lite_dir jupyter lite builds from (made anew each time)

#: What fsm's wheel asks for that the browser neither has nor needs: the ``dot`` renderer's and
#: the SVG fonts' Python sides (the page lays drawings out with @viz-js/viz), the terminal's
#: progress line, the server and Babel (the wheel carries compiled catalogues).
EXCLUDES = ["graphviz", "fonttools", "rich", "jupyterlab", "babel"]
#: fsm asks for the desktop ipykernel; JupyterLite's kernel ships its own stand-in.
OVERRIDES = ["ipykernel==6.9.2"]
#: Loaded with the kernel, so the notebooks' first cell finds them (with their dependencies).
PREFETCH = ["fsm-timing-rules", "ipywidgets", "anywidget"]
#: The notebooks and the files their cells open, by their paths in the repository.
CONTENTS = ["notebooks", "scenarios", "designs"]


def fail(message: str) -> NoReturn:
    raise SystemExit(f"lite: {message}")


def _run(args: list[str], cwd: Path = ROOT) -> None:
    # uv would try to download a CPython 3.14 to build with; nothing is built (--no-build)
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never"}
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        fail(f"{' '.join(map(str, args[:4]))} ... failed:\n{done.stdout[-4000:]}{done.stderr[-4000:]}")


def pins(path: Path = HERE / "wheels.txt") -> list[tuple[str, str]]:
    """``name==version`` lines of ``wheels.txt`` (comments and blank lines skipped)."""
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, version = line.partition("==")
        if not sep or not name or not version:
            fail(f"{path}:{number}: {line!r} is not name==version")
        out.append((name.strip(), version.strip()))
    return out


def _wheel_of(cache: Path, name: str, version: str) -> Path | None:
    stem = f"{name.replace('-', '_')}-{version}-".lower()
    found = [p for p in cache.glob("*.whl") if p.name.lower().startswith(stem)]
    return found[0] if found else None


def kernel_wheels(cache: Path = CACHE) -> list[Path]:
    """The pinned wheels of ``wheels.txt``, downloaded once into ``cache``; each must be pure."""
    cache.mkdir(parents=True, exist_ok=True)
    wheels = []
    for name, version in pins():
        wheel = _wheel_of(cache, name, version)
        if wheel is None:
            only = ["--only-binary=:all:", "--platform", "any", "--python-version", "3.14", "--implementation", "py"]
            pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", "download", "--no-deps"]
            _run([*pip, *only, "-d", str(cache), f"{name}=={version}"])
            wheel = _wheel_of(cache, name, version)
        if wheel is None or not wheel.name.endswith("-none-any.whl"):
            fail(f"no pure-python wheel of {name}=={version} in {cache}")
        wheels.append(wheel)
    return wheels


def web_wheels(web: Path) -> list[Path]:
    """fsm's wheel and its dependencies', as ``web_assets.py`` listed them in ``wheels/index.json``;
    fsm's whole (``web_assets.WHOLE``): the "try it" copy leaves out the widget's front end."""
    sys.path.insert(0, str(HERE.parent))
    from web_assets import WHOLE

    index = web / "wheels" / "index.json"
    if not index.is_file():
        fail(f"{index} is missing: build the web assets first (python docs/site/web_assets.py)")
    names = json.loads(index.read_text(encoding="utf-8"))["wheels"]
    return [WHOLE / name if (WHOLE / name).is_file() else web / "wheels" / name for name in names]


def kernel_stand_ins() -> list[Path]:
    """The stand-in wheels JupyterLite's kernel ships (ipykernel, widgetsnbextension 4), which the
    addon leaves out of its solve unless named."""
    from jupyter_core.paths import jupyter_path

    for share in jupyter_path("labextensions"):
        pypi = Path(share) / "@jupyterlite" / "pyodide-kernel-extension" / "static" / "pypi"
        if pypi.is_dir():
            return sorted([*pypi.glob("ipykernel-*.whl"), *pypi.glob("widgetsnbextension-4.*.whl")])
    fail("jupyterlite-pyodide-kernel's labextension is not installed: pip install -e '.[docs]'")


def stage(web: Path, wheels: list[Path]) -> Path:
    """The lite_dir: pyodide (its lock emptied), the wheels, the notebooks and their files, config."""
    shutil.rmtree(WORK, ignore_errors=True)
    pyodide = WORK / "static" / "pyodide"
    if not (web / "pyodide" / "pyodide.mjs").is_file():
        fail(f"{web / 'pyodide'} is missing: build the web assets first (python docs/site/web_assets.py)")
    shutil.copytree(web / "pyodide", pyodide)
    lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    lock["packages"] = {}  # none of their files is in the npm package: the solve adds what is used
    # pyodide-lock 0.1.2 (the newest for Python 3.11) wants the version the 314 lock no longer names
    version = json.loads((pyodide / "package.json").read_text(encoding="utf-8"))["version"]
    lock["info"].setdefault("version", version)
    (pyodide / "pyodide-lock.json").write_text(json.dumps(lock, indent=1), encoding="utf-8")
    local = WORK / "wheels"
    local.mkdir()
    for wheel in wheels:
        shutil.copy2(wheel, local / wheel.name)
    for part in CONTENTS:
        shutil.copytree(ROOT / part, WORK / "files" / part, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    shutil.copy2(HERE / "overrides.json", WORK / "overrides.json")  # JupyterLab settings of the site
    (WORK / "overrides.txt").write_text("\n".join(OVERRIDES) + "\n", encoding="utf-8")
    config = {
        "LiteBuildConfig": {"contents": ["files"], "no_sourcemaps": True},
        "PyodideLockAddon": {
            "enabled": True,
            "wheels": ["wheels"],
            "excludes_extra": EXCLUDES,
            "prefetch_extra": PREFETCH,
            # the solve: these files only, never an index (PyPI or a CDN)
            "pyodide_lock_uv_options": {
                "extra_uv_args": [
                    "--no-index",
                    f"--find-links={local.as_posix()}",
                    f"--overrides={(WORK / 'overrides.txt').as_posix()}",
                ]
            },
        },
    }
    (WORK / "jupyter_lite_config.json").write_text(json.dumps(config, indent=1), encoding="utf-8")
    return WORK


def check_offline(site: Path) -> None:
    """Every package of the built lock is a file of the site, and what it depends on is there."""
    lock_path = site / "static" / "pyodide-lock" / "pyodide-lock.json"
    packages = json.loads(lock_path.read_text(encoding="utf-8"))["packages"]
    base = site / "static" / "pyodide"  # pyodide reads file names relative to its own folder
    problems = []
    for name, package in packages.items():
        url = urlparse(package["file_name"])
        if url.scheme or url.netloc:
            problems.append(f"{name}: {package['file_name']} is not on this site")
        elif not (base / url.path).resolve().is_file():
            problems.append(f"{name}: {base / url.path} is missing")
        problems += [f"{name} needs {dep}, not in the lock" for dep in package["depends"] if dep not in packages]
    for name in PREFETCH:
        if name not in packages:
            problems.append(f"{name} is not in the lock")
    if problems:
        fail(f"{lock_path}:\n  " + "\n  ".join(problems))


def build_lite(out: Path) -> Path:
    web = out / "web"
    wheels = [*web_wheels(web), *kernel_wheels(), *kernel_stand_ins()]
    lite_dir = stage(web, wheels)
    site = out / "lite"
    shutil.rmtree(site, ignore_errors=True)
    jupyter = [sys.executable, "-m", "jupyter", "lite", "build"]
    _run([*jupyter, "--lite-dir", str(lite_dir), "--output-dir", str(site)], cwd=lite_dir)
    check_offline(site)
    return site


if __name__ == "__main__":
    where = build_lite(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "site" / "_build")
    print(f"lite: built {where} (serve {where.parent} and open lite/lab/index.html)")
