"""The search under the explorer: walking every line from a table, counting what it finds.

:class:`Search` plays every legal move through the engine's public surface
(``legal_moves`` / ``apply``), remembers each visited table by a 64-bit digest of
:meth:`fsm.table.model.Table.key` together with what has resolved or fizzled since the start, and
fills a :class:`Report`.  It walks depth first: memory holds the visited digests
(:mod:`fsm.explore.visited`, about 17 bytes each) and one table per move of the current line.
With a depth bound each digest also keeps the fewest moves it was reached in, and a table
reached again in fewer is explored again from there, so every line is cut at the same
depth and the tables, moves and endings are those of a breadth-first walk, which held a
whole level of tables (:meth:`Search.breadth_first`, kept to measure against).
:class:`Judge` says whether play has ended at a table and how (see :mod:`fsm.explore.explorer`)."""

from __future__ import annotations

import hashlib
import marshal
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from fsm.engine.game import Game
from fsm.errors import BadInput
from fsm.explore.progress import Ticker, resident_bytes
from fsm.explore.report import CUT_EXAMPLES, ENDED, Judge, Line, Node, Report, moves_of
from fsm.explore.visited import Claims, DigestMap, Visits
from fsm.i18n import _, language, using
from fsm.machines.compiled import compiled_machines
from fsm.table.model import Table

#: How the machines run while exploring: from their compiled tables (the default, fsm.machines.compiled),
#: or through python-statemachine itself.  Both give the same reports (tests/test_compiled.py).
MACHINES = ("compiled", "statecharts")


class Search:
    """One exploration from ``start``: the visited digests, the counts, and the two ways to
    walk the lines.  ``record`` keeps :class:`fsm.explore.visited.Visits` per digest (``visits``);
    ``stable`` digests with BLAKE2 instead of ``hash()``, so that processes that do not share
    this one's string hashing agree on them; ``claims`` (:class:`fsm.explore.visited.Claims`) leaves a
    table another worker process has claimed to that worker."""

    MEMORY_EVERY = 256  # tables expanded between two looks at the process's memory

    def __init__(
        self,
        game: Game,
        judge: Judge,
        report: Report,
        start: Table,
        line: Line = None,
        *,
        dedup: bool = True,
        max_states: int | None = None,
        max_memory: int | None = None,
        record: bool = False,
        stable: bool = False,
        machines: str = "compiled",
        claims: Claims | None = None,
        progress: Ticker | None = None,
    ) -> None:
        if machines not in MACHINES:
            message = _("--machines must be one of {allowed}, not {value!r}")
            raise BadInput(message.format(allowed=", ".join(MACHINES), value=machines))
        self.game, self.judge, self.report, self.start, self.line = game, judge, report, start, line
        self.machines, self.claims, self.progress = machines, claims, progress
        self.dedup, self.max_states, self.max_memory, self.stable = dedup, max_states, max_memory, stable
        self.log_length = len(game.log)
        self.visits: Visits | None = Visits() if record else None
        self.start_digest = self.digest(start)
        self.seen = DigestMap([self.start_digest])
        self.expanded = 0
        # with a depth bound: digest → fewest moves it was reached in (ENDED once play ended there)
        self.depths: DigestMap | None = None
        self.bound = 0
        self.cut_examples: dict[int, Line] = {}
        self.texts: dict[str, str] = {}

    def digest(self, t: Table) -> int:
        if self.stable:
            return stable_digest((t.key(), self.judge.results(t)))
        return hash((t.key(), self.judge.results(t)))

    def run(self, depth: int | None, breadth_first: bool = False) -> None:
        """Walk every line from the start (depth first, unless ``breadth_first`` with a bound)
        and fill the report."""
        try:
            with playing(self.game, self.machines):
                self._walk(depth, breadth_first)
        except KeyboardInterrupt:  # Ctrl-C: what was seen so far is the report, marked as cut by it
            self.report.stopped_by, self.report.truncated = "interrupted", True
            self.report.cut = max(self.report.cut, 1)

    def _walk(self, depth: int | None, breadth_first: bool) -> None:
        report, start = self.report, self.start
        report.states = 1
        report.longest_chain = len(start.chain)
        self.visited(start, self.line, self.start_digest)
        if self.judge.ended(start):
            return
        if depth is not None and not breadth_first:
            self.bounded_depth_first(depth)
            return
        pending = self.depth_first() if depth is None else self.breadth_first(depth)
        report.cut = len(pending)
        report.cut_lines = [moves_of(line) for _, line, _d in pending[:CUT_EXAMPLES]]

    def visited(self, t: Table, line: Line, digest: int) -> None:
        """A new table: its chain, and its ending if play ended there."""
        report = self.report
        if len(t.chain) > report.longest_chain:
            report.longest_chain = len(t.chain)
            report.longest_chain_line = moves_of(line)
        ended = self.judge.ended(t)
        signature = _record_ending(report, self.judge, t, line) if ended else None
        if self.visits is not None:
            self.visits.reached(digest, signature)

    def breadth_first(self, depth: int) -> list[Node]:
        """Level by level; returns the tables left unexpanded (cut)."""
        frontier: list[Node] = [(self.start, self.line, self.start_digest)]
        for _level in range(depth):
            following: list[Node] = []
            for n, node in enumerate(frontier):
                if self.must_stop(_level):
                    return following + frontier[n:]  # never expanded: counted with the lines cut
                following += list(self.children(*node))
            frontier = following
            if not frontier:
                break
        return frontier

    def depth_first(self) -> list[Node]:
        """One line at a time: a stack of tables whose moves are being tried, each child made
        only when its turn comes, so memory holds one table per move of the current line."""
        stack: list[tuple[Node, Iterator[Node]]] = []
        node: Node = (self.start, self.line, self.start_digest)
        while True:
            if self.must_stop(len(stack)):  # the tables whose moves were not all tried are the lines cut
                return [n for n, _ in reversed(stack)] + [node]
            stack.append((node, self.children(*node)))
            while stack:
                child = next(stack[-1][1], None)
                if child is not None:
                    node = child
                    break
                stack.pop()
            else:
                return []

    def bounded_depth_first(self, depth: int) -> None:
        """Depth first, no line longer than ``depth`` moves, with the results of breadth first.

        A table is first reached along some line, not always a shortest one; reached again in
        fewer moves, it is explored again from there (its moves, errors and dead end were
        counted the first time it was explored, and are not again).  What is left at the bound
        is what the bound cut.  Memory: the digests with their depths, and the current line."""
        self.bound = depth
        self.depths = DigestMap(values="i")
        self.depths[self.start_digest] = 0
        if depth == 0:
            self.report.cut, self.report.cut_lines = 1, [moves_of(self.line)]
            return
        stack: list[tuple[int, Iterator[tuple[Node, bool]]]] = []
        node: Node = (self.start, self.line, self.start_digest)
        level, again = 0, False
        while True:
            if self.must_stop(level):  # the tables whose moves were not all tried are cut too
                self._count_cut(len(stack) + 1)
                return
            stack.append((level, self._children(*node, level + 1, again)))
            while stack:
                child = next(stack[-1][1], None)
                if child is not None:
                    (node, again), level = child, stack[-1][0] + 1
                    break
                stack.pop()
            else:
                self._count_cut(0)
                return

    def _count_cut(self, unfinished: int) -> None:
        depths = self.depths
        assert depths is not None
        # counted as they come: a list of the digests at the bound would be most of the memory
        self.report.cut = sum(1 for _d, n in depths.items() if n == self.bound) + unfinished
        lines = [line for d, line in self.cut_examples.items() if depths.get(d) == self.bound]
        self.report.cut_lines = [moves_of(line) for line in lines[:CUT_EXAMPLES]]

    def must_stop(self, depth: int | None = None) -> bool:
        report = self.report
        if self.progress is not None and self.expanded % self.MEMORY_EVERY == 0:
            self.progress.tick(report.states, depth)
        if self.max_states is not None and report.states >= self.max_states:
            report.stopped_by = "budget"
        elif (
            self.max_memory is not None
            and self.expanded % self.MEMORY_EVERY == 0
            and resident_bytes() >= self.max_memory
        ):
            report.stopped_by = "memory"
        self.expanded += 1
        report.truncated = report.stopped_by is not None
        return report.truncated

    def children(self, table: Table, line: Line, digest: int) -> Iterator[Node]:
        """Play every legal move from ``table``; yields the new tables where play goes on."""
        for child, _again in self._children(table, line, digest):
            yield child

    def _children(
        self, table: Table, line: Line, digest: int, level: int = 0, again: bool = False
    ) -> Iterator[tuple[Node, bool]]:
        """:meth:`children`, and with a depth bound (``level``: the children's moves from the
        start) also a known table reached in fewer moves than before; ``again``: ``table`` was
        explored before, so its moves are not counted twice.  Each child comes with whether it
        was explored before."""
        game, report, depths, visits = self.game, self.report, self.depths, self.visits
        game.table = table
        report.expanded += 1
        legal = game.legal_moves()
        if visits is not None:
            visits.moves[digest] = len(legal)
        if not legal:
            if not again:
                where = game.flow_name()  # by its rule terms, in the report's language
                report.dead_ends.append((where, moves_of(line)))
                if visits is not None:
                    visits.dead_ends[digest] = report.dead_ends[-1]
            return
        last = legal[-1]
        for move in legal:
            # The last move is played on ``table`` itself: nothing reads a table once its moves
            # are all tried (a line cut there is counted, and told by its moves), so one copy
            # a table is saved, and the move writes in place what the table alone holds.
            game.table = table.copy() if move is not last else table
            report.moves += not again
            try:
                game.apply(move, atomic=False)  # we hold a table of our own: no undo snapshot needed
            except Exception as err:  # a legal move the engine cannot play: report, go on
                if not again:
                    report.errors.append((f"{type(err).__name__}: {err}", (*moves_of(line), str(move))))
                    if visits is not None:
                        visits.errors.setdefault(digest, []).append(report.errors[-1])
                continue
            finally:
                del game.log[self.log_length :]
            child = game.table
            text = str(move)
            node: Line = (self.texts.setdefault(text, text), line)  # lines share each move's text
            if depths is not None and self.dedup:
                key = self.digest(child)
                known = depths.get(key)
                if known is not None:
                    report.revisits += not again
                    if known > level:  # fewer moves than before: what follows may now fit the bound
                        depths[key] = level
                        if level < self.bound:
                            yield (child, node, key), known < self.bound
                    continue
                depths[key] = level
            elif self.dedup:
                key = self.digest(child)
                if not self.seen.add(key) or (self.claims is not None and not self.claims.claim(key)):
                    report.revisits += 1  # seen here, or another worker's to explore
                    continue
            elif depths is not None:  # a tree search: every line is its own, counted at the bound
                key = report.states
                depths[key] = level
            else:
                key = report.states
            report.states += 1
            self.visited(child, node, key)
            if self.judge.ended(child):
                if depths is not None:
                    depths[key] = ENDED
            elif depths is None or level < self.bound:
                yield (child, node, key), False
            elif len(self.cut_examples) < CUT_EXAMPLES * 4:
                self.cut_examples[key] = node


def stable_digest(value: Any) -> int:
    """A signed 64-bit digest of ``value`` (tuples of strings, numbers, None and booleans, as keys
    are) that every process computes alike: ``hash()`` of a string differs between processes (its
    seed is random).  The bytes are marshal's version 0, which writes such values the same in
    every process (later versions mark the strings one process interned or shares), and costs
    less than wording them with ``repr``; anything marshal does not take is digested by its text."""
    try:
        data = marshal.dumps(value, 0)
    except ValueError:
        data = repr(value).encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little", signed=True)


@contextmanager
def playing(game: Game, machines: str = "compiled") -> Iterator[None]:
    """How a search plays moves: nothing narrated (each move's log would be thrown away; what
    a step settles on the table is settled all the same), the language settled once for the
    whole walk, and the machines run as ``machines`` says (:data:`MACHINES`)."""
    compiled = compiled_machines(game) if machines == "compiled" else nullcontext()
    narration = game.narration
    quiet, narration.quiet = narration.quiet, True
    try:
        with using(language(game.lang)), compiled:
            yield
    finally:
        narration.quiet = quiet


def _record_ending(report: Report, judge: Judge, t: Table, line: Line) -> tuple[Any, ...]:
    """Count an end table under its ending; returns the ending's signature."""
    report.ended += 1
    ending = judge.ending(t)
    known = report.endings.get(ending.signature)
    if known is None:
        ending.line = moves_of(line)
        known = report.endings[ending.signature] = ending
    elif _length(line) < len(known.line):  # depth first finds a longer line first sometimes
        known.line = moves_of(line)
    known.tables += 1
    return ending.signature


def _length(line: Line) -> int:
    n = 0
    while line is not None:
        n, line = n + 1, line[1]
    return n
