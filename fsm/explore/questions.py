"""Questions about every line of play: can a goal be reached (:func:`reach`), or does it never
happen (:func:`never`)?  Either way the answer comes with a shortest line (fewest moves).

The walk is breadth first, level by level, so the first table found where the goal holds is one
of the fewest moves from the start.  Each table is visited once (its digest: the rules' fingerprint,
:meth:`fsm.table.model.Table.key`, with what resolved or fizzled and in which order since the
start, since a goal may ask of those); a line is not played past the end of play as the explorer
sees it (:class:`fsm.explore.report.Judge`).  What may cut the search: ``depth`` (moves per line),
the budget (tables) or Ctrl-C; a cut search answers ``found=None`` unless it found the goal, and says
by what it was cut.  ``jobs`` > 1 expands each level's tables in that many processes
(:mod:`fsm.explore.levels`); the answer is the same.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from fsm.engine.game import Game
from fsm.errors import BadInput
from fsm.explore.progress import Ticker
from fsm.explore.report import Judge, Line, moves_of
from fsm.explore.search import playing
from fsm.explore.visited import DigestMap
from fsm.i18n import _
from fsm.scenarios.goals import Goal
from fsm.table.model import Table
from fsm.table.moves import Move

DEFAULT_BUDGET = 200_000


@dataclass
class Answer:
    """What a search for a goal found.

    ``found``: True (a line reaches the goal: ``line``), False (no line does, and every line was
    searched: ``complete``), None (not found, and the search was cut: ``stopped_by`` says by what).
    For :func:`never`, ``found`` is whether the goal *is* reached: True is a violation."""

    question: str  # "reach" or "never"
    found: bool | None
    line: list[str] = field(default_factory=list)
    complete: bool = False
    stopped_by: str | None = None  # "depth", "budget" or "interrupted"
    tables: int = 0  # distinct tables visited
    levels: int = 0  # moves from the start searched in full
    seconds: float = 0.0

    @property
    def holds(self) -> bool | None:
        """For :func:`never`: True only after a complete search found no violation."""
        if self.found:
            return False
        return True if self.complete else None

    def cut_reason(self) -> str:
        reasons = {
            "depth": _("the depth bound ({levels} moves per line) cut lines that went on").format(levels=self.levels),
            "budget": _("the budget of tables ran out after {tables} tables").format(tables=self.tables),
            "interrupted": _("interrupted (Ctrl-C) after {tables} tables").format(tables=self.tables),
        }
        return reasons.get(self.stopped_by or "", "")

    def as_dict(self) -> dict[str, Any]:
        return {
            "question": self.question, "found": self.found, "holds": self.holds if self.question == "never" else None,
            "line": self.line, "moves": len(self.line), "complete": self.complete, "stopped_by": self.stopped_by,
            "tables": self.tables, "levels": self.levels, "seconds": round(self.seconds, 4),
        }  # fmt: skip


def reach(game: Game, goal: Goal, **bounds: Any) -> Answer:
    """A shortest line from the game's table to a table where ``goal`` holds (the game is left as
    found); ``bounds`` as :func:`ask` takes them."""
    return ask("reach", game, goal, **bounds)


def never(game: Game, goal: Goal, **bounds: Any) -> Answer:
    """Whether ``goal`` never holds on any line (``Answer.holds``); a violation comes with a shortest
    line.  The search is :func:`reach`'s: only the verdict reads the other way."""
    return ask("never", game, goal, **bounds)


def ask(
    question: str,
    game: Game,
    goal: Goal,
    *,
    depth: int | None = None,
    budget: int | None = DEFAULT_BUDGET,
    jobs: int = 1,
    progress: Ticker | None = None,
    machines: str = "compiled",
) -> Answer:
    """Search breadth first for a table where ``goal`` holds: at most ``depth`` moves per line, ``budget``
    tables, each level in ``jobs`` processes, ``progress`` told how far it has got."""
    if depth is not None and depth < 0:
        raise BadInput(_("depth must be 0 or more, not {depth}").format(depth=depth))
    if budget is not None and budget < 1:
        raise BadInput(_("the budget must be 1 or more tables, not {count}").format(count=budget))
    if jobs < 1:
        raise BadInput(_("--jobs must be 1 or more, not {jobs}").format(jobs=jobs))
    goal.validate(game)  # a unit, card or key the goal may not name: file:line, before any search
    began = time.perf_counter()
    saved = game.snapshot()
    walk = Walk(game, goal, budget, progress)
    answer = Answer(question, None)
    try:
        with playing(game, machines):
            walk.run(depth, answer, jobs)
    except KeyboardInterrupt:
        answer.found, answer.stopped_by, answer.complete = None, "interrupted", False
    finally:
        game.restore(saved)
    answer.tables, answer.seconds = len(walk.seen), time.perf_counter() - began
    return answer


class Walk:
    """One breadth-first walk from the game's table: the visited digests and the level being expanded."""

    def __init__(self, game: Game, goal: Goal, budget: int | None, progress: Ticker | None) -> None:
        self.game, self.goal, self.budget, self.progress = game, goal, budget, progress
        self.root = game.table.copy()
        self.digest = Fingerprint(game, self.root)
        self.judge = self.digest.judge
        self.seen = DigestMap([self.digest(self.root)])

    def holds(self, t: Table) -> bool:
        self.game.table = t
        return self.goal.holds(self.game)

    def run(self, depth: int | None, answer: Answer, jobs: int) -> None:
        if self.holds(self.root):
            answer.found, answer.complete = True, True
            return
        level: list[tuple[Table, Line]] = [(self.root, None)]
        while level:
            if depth is not None and answer.levels >= depth:
                if any(not self.judge.ended(t) for t, _line in level):
                    answer.stopped_by = "depth"
                else:
                    answer.found, answer.complete = False, True
                return
            following: list[tuple[Table, Line]] = []
            for child, node, hit in self.expand(level, jobs):
                if hit:
                    answer.found, answer.line, answer.complete = True, list(moves_of(node)), True
                    return
                following.append((child, node))
                if self.budget is not None and len(self.seen) >= self.budget:
                    answer.stopped_by = "budget"
                    return
                if self.progress is not None and len(self.seen) % 256 == 0:
                    self.progress.tick(len(self.seen), answer.levels)
            answer.levels += 1
            level = following
        answer.found, answer.complete = False, True

    def expand(self, level: list[tuple[Table, Line]], jobs: int) -> Iterator[tuple[Table, Line, bool]]:
        """The new tables one move from ``level`` (in ``jobs`` processes: :mod:`fsm.explore.levels`)."""
        if jobs == 1:
            for table, line in level:
                yield from self.children(table, line)
        else:
            from fsm.explore.levels import expand_level

            yield from expand_level(self, level, jobs)

    def steps(self, table: Table) -> Iterator[tuple[Move, Table]]:
        """Every legal move at ``table`` and its table, the i-th the i-th legal move (for the workers of ``--jobs``)."""
        return successors(self.game, table, keep_failed=True)

    def children(self, table: Table, line: Line) -> Iterator[tuple[Table, Line, bool]]:
        """Each new table one move from ``table`` (where play goes on, or where the goal holds)."""
        if self.judge.ended(table):
            return
        for move, child in successors(self.game, table):
            if self.seen.add(self.digest(child)):
                yield child, (str(move), line), self.holds(child)


class Fingerprint:
    """The digest of a table reached from ``root``: what the rules can see
    (:meth:`fsm.table.model.Table.key`), and what resolved or fizzled since, in which order
    (a goal may ask of both).  :attr:`judge` says where play ended."""

    def __init__(self, game: Game, root: Table) -> None:
        self.judge = Judge(game, root)
        self.base_order = len(root.resolution_order)

    def __call__(self, t: Table) -> int:
        return hash((t.key(), self.judge.results(t), tuple(t.resolution_order[self.base_order :])))


def successors(game: Game, table: Table, keep_failed: bool = False) -> Iterator[tuple[Move, Table]]:
    """Each legal move at ``table`` and the table it leads to (``table`` itself is not written;
    nothing is logged; a legal move the engine cannot play is left out: `fsm explore` reports those;
    ``keep_failed`` yields it with the unchanged table instead, so that the i-th step is the i-th move)."""
    log_length = len(game.log)
    game.table = table
    for move in game.legal_moves():
        game.table = table.copy()
        try:
            game.apply(move, atomic=False)  # the copy is ours: no undo snapshot needed
        except Exception:  # see above
            if keep_failed:
                yield move, table
            continue
        finally:
            del game.log[log_length:]
        yield move, game.table
