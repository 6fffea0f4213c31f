"""A throw-away JupyterLab server for browser tests: temp config, bound to 127.0.0.1, stopped by its own PID.

The server serves a *copy* of ``notebooks/`` (with ``scenarios/`` linked beside it, so the
notebooks' relative paths still work), so running cells in the browser can never write
outputs into the committed notebooks.  Its settings turn off the news pop-up, autosave and
cell windowing (every cell stays in the page, so the test can find every widget), and start
the notebook's own kernel without asking (no "Select Kernel" dialog).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

#: Launch flags for headless Chromium in a container without network or a desktop.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: The notebook tab in front (an earlier page may leave other tabs open).
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
#: A small laptop's screen; JupyterLab opens with its file browser beside the notebook.
SMALL = {"width": 1366, "height": 768}

#: Saved notebooks stay as committed (no outputs, no widget state), and a committed one opens unchanged
#: (fsm/notebook/lab_contents.py): the same flags as scripts/lab.sh.
SAVE_CLEAN = [
    "--ContentsManager.pre_save_hook=fsm.notebook.clean.pre_save",
    "--ServerApp.contents_manager_class=fsm.notebook.lab_contents.LabContents",
]

#: JupyterLab user settings (plugin id → values) written into the temp settings dir.
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/docmanager-extension:plugin": {"autosave": False},
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none", "autoStartDefaultKernel": True},
}


def chromium_path() -> str | None:
    """Chromium from ``FSM_CHROMIUM`` or the PATH; None if there is none."""
    found = os.environ.get("FSM_CHROMIUM") or shutil.which("chromium")
    return found if found and Path(found).exists() else None


#: How long a kernel counts as still working after its last message (JupyterLab's ``last_activity``).
WORKING = 5.0


def wait_for(what: str, ok: Callable[[], bool], timeout: float, lab: Lab, cap: float = 6.0) -> None:
    """Poll ``ok`` until it holds; fail once it has not held for ``timeout`` seconds of an idle kernel.

    The deadline follows the kernel's progress: while the lab's kernel is busy, or sent a message in
    the last ``WORKING`` seconds, the wait goes on (a loaded machine makes a kernel slower, not wrong),
    up to ``cap`` times ``timeout`` in all.  A kernel that is idle and done, with ``ok`` still false,
    fails after ``timeout`` as before, with the server's log to say why."""
    start = time.monotonic()
    deadline, last = start + timeout, start + timeout * cap
    while True:
        if ok():
            return
        now = time.monotonic()
        if now >= deadline:
            if now < last and lab.kernel_working():
                deadline = now + WORKING
            else:
                idle = "" if now < last else f" (gave up after {now - start:.0f} s of a working kernel)"
                raise AssertionError(f"timed out waiting for {what}{idle}\n--- server log ---\n{lab.log_tail()}")
        time.sleep(0.2)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Lab:
    """A running JupyterLab: where it is, its token, its process and its log file."""

    url: str
    token: str
    process: subprocess.Popen[bytes]
    log: Path
    root: Path

    def page(self, path: str, workspace: str = "") -> str:
        """The notebook's URL; a named ``workspace`` starts empty, so tabs of earlier pages stay closed."""
        if workspace:
            return f"{self.url}/lab/workspaces/{workspace}/tree/{path}?reset&token={self.token}"
        return f"{self.url}/lab/tree/{path}?token={self.token}"

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no server log)"

    def kernels(self) -> list[dict[str, Any]]:
        """The server's running kernels (``/api/kernels``): ``execution_state``, ``last_activity``, ..."""
        with urllib.request.urlopen(f"{self.url}/api/kernels?token={self.token}", timeout=5) as r:  # noqa: S310 - our 127.0.0.1
            kernels: list[dict[str, Any]] = json.load(r)
        return kernels

    def kernels_idle(self) -> bool:
        """Every kernel is idle (and there is one).  A kernel that is still starting can make the
        server answer 500 (jupyter_server reads its ``last_activity`` before it has one): not idle."""
        try:
            kernels = self.kernels()
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False
        return bool(kernels) and all(k["execution_state"] == "idle" for k in kernels)

    def kernel_working(self, within: float = WORKING) -> bool:
        """Some kernel is starting or busy, or has sent a message in the last ``within`` seconds."""
        try:
            kernels = self.kernels()
        except urllib.error.HTTPError:
            return True  # it answers, but a kernel is mid-start (see kernels_idle)
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False  # a server that does not answer is not making progress
        now = datetime.now(UTC)
        return any(
            k["execution_state"] in ("busy", "starting")
            or (now - datetime.fromisoformat(k["last_activity"])).total_seconds() < within
            for k in kernels
        )

    def stop(self) -> None:
        """Stop the server we started, by its own PID: terminate, wait, kill if it will not go."""
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


def _write_settings(settings_dir: Path) -> None:
    for plugin, values in LAB_SETTINGS.items():
        package, _, name = plugin.partition(":")
        target = settings_dir / package / f"{name}.jupyterlab-settings"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(values), encoding="utf-8")


def start_lab(workdir: Path, timeout: float = 90.0, locale: str = "", app: str = "lab") -> Lab:
    """Start JupyterLab on a free port of 127.0.0.1 over a copy of the notebooks; wait until it answers.

    ``app="notebook"`` starts Notebook 7 (the ``notebook`` package) the same way instead.

    ``locale`` (e.g. ``ja_JP``, its language pack installed) is set the way ``scripts/lab.sh --lang ja``
    sets it: as the translation plugin's default in an ``overrides.json`` of our own settings folder.
    """
    root = workdir / "site"
    shutil.copytree(REPO / "notebooks", root / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    (root / "scenarios").symlink_to(REPO / "scenarios", target_is_directory=True)
    for extra in ("designs", "puzzles"):  # other data the notebooks may read by relative path
        if (REPO / extra).is_dir():
            (root / extra).symlink_to(REPO / extra, target_is_directory=True)
    settings = workdir / "lab-settings"
    _write_settings(settings)
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(workdir / "config"),
        "JUPYTER_RUNTIME_DIR": str(workdir / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(settings),
        "JUPYTERLAB_WORKSPACES_DIR": str(workdir / "workspaces"),
        "PYTHONUNBUFFERED": "1",
    }
    port, token = free_port(), secrets.token_hex(16)
    log = workdir / "jupyterlab.log"
    cmd = [
        sys.executable,
        "-m",
        "jupyter",
        app,
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root / 'notebooks'}",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        *SAVE_CLEAN,
    ]
    if locale:
        app_settings = workdir / "app-settings"
        app_settings.mkdir()
        overrides = {"@jupyterlab/translation-extension:plugin": {"locale": locale}}
        (app_settings / "overrides.json").write_text(json.dumps(overrides), encoding="utf-8")
        cmd.append(f"--LabApp.app_settings_dir={app_settings}")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")  # CI containers run as root; the server still binds only 127.0.0.1
    with log.open("wb") as out:
        process = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=root)
    lab = Lab(f"http://127.0.0.1:{port}", token, process, log, root)
    deadline = time.monotonic() + timeout
    status = f"{lab.url}/api/status?token={token}"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with code {process.returncode}:\n{lab.log_tail()}")
        try:
            with urllib.request.urlopen(status, timeout=2) as response:  # noqa: S310 - our own 127.0.0.1 server
                if response.status == 200:
                    return lab
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.25)
    lab.stop()
    raise RuntimeError(f"JupyterLab did not answer within {timeout:.0f} s:\n{lab.log_tail()}")


#: What JupyterLab's menus and status bar say: (the Run menu, Run All Cells, an idle kernel).
UI_WORDS = {"en": ("Run", "Run All Cells", "Idle"), "ja": ("実行", "すべてのセルを実行", "アイドル")}


def run_all(
    browser: Any, lab: Lab, notebook: str, viewport: dict[str, int] | None = None, ui: str = "en", watch: Any = None
) -> Any:
    """Open ``notebook`` in a fresh workspace of a new page, wait for its kernel, and Run All Cells.

    ``watch(page)`` is called before the page loads (e.g. to listen to its websockets)."""
    run, run_all_cells, idle = UI_WORDS[ui]
    page = browser.new_page(viewport=viewport or SMALL)
    page.set_default_timeout(60_000)
    if watch is not None:
        watch(page)
    page.goto(lab.page(notebook, workspace=secrets.token_hex(4)))
    page.wait_for_selector(f"{PANEL} .jp-Cell", timeout=90_000)
    # the kernel must be connected before Run All, or JupyterLab asks which kernel to start
    page.wait_for_selector(f".jp-StatusBar-Widget :text('| {idle}')", timeout=90_000)
    page.locator(f"{PANEL} .jp-Cell").first.click()
    page.locator(".lm-MenuBar-itemLabel", has_text=run).first.click()
    page.locator(".lm-Menu-itemLabel", has_text=run_all_cells).first.click()
    return page


@dataclass
class StaticSite:
    """``python -m http.server`` over a built site on 127.0.0.1, as the README tells readers to serve it."""

    url: str
    process: subprocess.Popen[bytes]

    def stop(self) -> None:
        self.process.terminate()  # our own server, by its PID
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def serve_static(directory: Path, timeout: float = 30.0) -> StaticSite:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(directory)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{url}/index.html", timeout=2):
                return StaticSite(url, process)
        except (urllib.error.URLError, ConnectionError):
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"http.server did not start on {url} for {directory}") from None
            time.sleep(0.2)


class OnlyHere:
    """A ``context.route`` handler: requests to ``url`` go on, any other is aborted and recorded, so a
    test can fail if anything was asked of another host.  ``seen`` is every URL the site served."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.seen: list[str] = []
        self.outside: list[str] = []

    def __call__(self, route: Any) -> None:
        wanted = route.request.url
        if wanted.startswith(f"{self.url}/"):
            self.seen.append(wanted)
            route.continue_()
        else:
            self.outside.append(wanted)
            route.abort()
