"""Draw ahead: while the reader looks at a position, the positions each legal move leads to
(and every link step of their replay) are drawn in a background thread, in one ``dot`` run,
so a click usually finds its diagrams already drawn.

The moves are played on a copy of the table (a separate :class:`~fsm.engine.game.Game`), never on
the reader's game; a move that fails there is simply not drawn ahead.  ``FSM_DRAW_AHEAD=0``
in the kernel's environment turns it off.
"""

from __future__ import annotations

import os
import threading
import time

from fsm.engine.game import Game
from fsm.render import live_view
from fsm.render.labels import Lang
from fsm.rules.variants import Variants
from fsm.spec.ruleset import Ruleset
from fsm.table.model import Table


def views_ahead(game: Game, lang: Lang = "both") -> list[live_view.View]:
    """Every view the step-through would draw after each legal move, not drawn yet."""
    table = game.snapshot().table
    wanted: dict[live_view.View, None] = {}
    for move in game.legal_moves():
        trial = Game(table.copy(), game.rules, game.variants, game.lang)
        try:
            entries = trial.apply(move, atomic=False)
        except Exception:  # noqa: BLE001, S112 - drawing ahead is a guess; the real click reports any problem
            continue
        for entry in entries:
            if entry.trace is not None:
                wanted.update(dict.fromkeys(live_view.views(trial, entry.trace, lang).values()))
    return [v for v in wanted if not live_view.is_drawn(v)]


class DrawAhead:
    """One background worker for every step-through: it draws ahead of the newest position it
    was given (an older one not started yet is dropped: the reader has moved on)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._job: tuple[Table, Ruleset, Variants, Lang] | None = None
        self._busy = False
        self._thread: threading.Thread | None = None

    def start(self, game: Game, lang: Lang) -> None:
        """Draw ahead of where ``game`` stands (its table is copied; the game itself is never touched)."""
        if os.environ.get("FSM_DRAW_AHEAD") == "0":  # off, e.g. to measure clicks without it
            return
        with self._cond:
            self._job = (game.snapshot().table, game.rules, game.variants, lang)
            self._cond.notify()
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, daemon=True, name="fsm-draw-ahead")
                self._thread.start()

    def _loop(self) -> None:
        while True:
            with self._cond:
                while self._job is None:
                    self._cond.wait()
                (table, rules, variants, lang), self._job = self._job, None
                self._busy = True
            try:
                time.sleep(PAUSE)  # the click that asked is still sending its redraw: let it go first
                views = views_ahead(Game(table, rules, variants), lang)
                if views:
                    live_view.render(views)
            except Exception:  # noqa: BLE001, S110 - a failed guess costs nothing: the click draws for itself
                pass
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def wait(self, timeout: float | None = None) -> bool:
        """For tests and benchmarks: wait until nothing is left to draw ahead."""
        with self._cond:
            return self._cond.wait_for(lambda: self._job is None and not self._busy, timeout)


#: Seconds the worker waits before drawing, so a click's own messages reach the page first.
PAUSE = 0.03

#: The worker every step-through shares.
WORKER = DrawAhead()
