"""What a long exploration shows while it works: tables, tables a second, depth, memory, time.

Nothing for the first :data:`QUIET_FOR` seconds (a short run prints only its report); then, on
a terminal, one live line (``rich``) on stderr; in a notebook, rich's live widget; anywhere
else (a log, a pipe, CI), one plain line every :data:`LOG_EVERY` seconds.  ``fsm ... --quiet``
makes a :class:`Progress` that shows nothing; from Python, pass one to the explorer (in a
notebook it makes one by itself, :func:`in_a_notebook`).  The search calls :meth:`Progress.tick` every few
hundred tables, so the clock is read rarely; ``rich`` is imported only once something is shown.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Protocol, TextIO

from fsm.i18n import _

#: Seconds of silence before anything is shown.
QUIET_FOR = 2.0
#: Seconds between two log lines when not on a terminal.
LOG_EVERY = 5.0
#: Seconds between two redraws of the live line.
REDRAW_EVERY = 0.25


class Ticker(Protocol):
    """What a search tells as it goes: the tables it has visited, the depth of its line."""

    def tick(self, tables: int, depth: int | None = None) -> None: ...


class Tally:
    """A worker process's ticker: adds its new tables to a count shared with the process that
    shows the progress, and stops the worker's search (as Ctrl-C would) once that process has
    set ``stop`` (both ``multiprocessing.Value``)."""

    def __init__(self, shared: Any, stop: Any) -> None:
        self.shared, self.stop, self.told = shared, stop, 0

    def new_task(self) -> None:
        """A worker takes task after task, and each task's search counts from 0 again."""
        self.told = 0

    def tick(self, tables: int, depth: int | None = None) -> None:
        with self.shared.get_lock():
            self.shared.value += tables - self.told
        self.told = tables
        if self.stop.value:
            raise KeyboardInterrupt  # the search keeps what it found, marked as interrupted


class Progress:
    """One exploration's progress line.  ``mode``: ``"auto"`` (live on a terminal or in a
    notebook, else log lines), ``"live"``, ``"log"`` or ``"off"``."""

    def __init__(self, mode: str = "auto", stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.mode = _mode(self.stream) if mode == "auto" else mode
        self.began = time.monotonic()
        self.last = float("-inf")  # the first line comes as soon as the quiet time is over
        self._live: Any = None
        self._text: Any = None
        self.shown = False

    def tick(self, tables: int, depth: int | None = None) -> None:
        """The count of tables so far (and the current line's depth, if known)."""
        if self.mode == "off":
            return
        now = time.monotonic()
        elapsed = now - self.began
        if elapsed < QUIET_FOR or now - self.last < (LOG_EVERY if self.mode == "log" else REDRAW_EVERY):
            return
        self.last = now
        text = line(tables, elapsed, depth)
        if self.mode == "log":
            print("fsm: " + text, file=self.stream, flush=True)
        else:
            self._show(text)
        self.shown = True

    def _show(self, text: str) -> None:
        if self._live is None:
            from rich.console import Console
            from rich.live import Live
            from rich.text import Text

            self._text = Text
            console = Console(file=self.stream, force_terminal=self.mode == "live" or None)
            self._live = Live(Text(text), console=console, refresh_per_second=4, transient=True)
            self._live.start()
        else:
            self._live.update(self._text(text))

    def close(self) -> None:
        """Take the live line away (the report follows)."""
        if self._live is not None:
            self._live.stop()
            self._live = None
        self.began, self.last = time.monotonic(), float("-inf")  # a next exploration (a comparison's other side)


def in_a_notebook() -> Progress | None:
    """A progress widget when running in a Jupyter kernel (what the API does by default there), else None."""
    return Progress("live") if _in_notebook() else None


def line(tables: int, elapsed: float, depth: int | None = None) -> str:
    """``"12,345 tables · 3,100/s · depth 14 · 61 MB · 4.0 s"`` (the memory: this process's)."""
    parts = [
        _("{count:,} tables").format(count=tables),
        _("{rate:,.0f}/s").format(rate=tables / elapsed if elapsed else 0.0),
    ]
    if depth is not None:
        parts.append(_("depth {depth}").format(depth=depth))
    parts += [f"{resident_bytes() / 2**20:,.0f} MB", f"{elapsed:,.1f} s"]
    return " · ".join(parts)


def _mode(stream: TextIO) -> str:
    if _in_notebook():
        return "live"
    isatty = getattr(stream, "isatty", None)
    return "live" if isatty is not None and isatty() else "log"


def _in_notebook() -> bool:
    shell = sys.modules.get("IPython")
    get = getattr(shell, "get_ipython", None)
    return get is not None and type(get()).__name__ == "ZMQInteractiveShell"


def resident_bytes() -> int:
    """The process's resident memory now (Linux), else its peak so far."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
