"""Puzzles proved: can the solver reach the goal *whatever the other player answers*?

An AND-OR search over the lines of play from the puzzle's table.  Where the solver decides, one
good move is enough (OR); where the other player decides, every answer must still lose to the
solver (AND).  The goal is checked at every table (:mod:`fsm.scenarios.goals`); a line whose play has
ended (:class:`fsm.explore.report.Judge`) without it is lost, and so is one where the solver has
made ``puzzle.moves`` moves other than a pass (a pass is not counted: it gives up the chance to act,
and the game goes on without it) and the goal still does not hold.

Each table's value is remembered by its digest (:class:`fsm.explore.questions.Fingerprint`): the
fewest solver moves that force the goal from there, or that it cannot be forced within so many.
The solver's move at each won table is the strategy; the other player's strongest answer at each of
its tables (one that refutes, else one that makes the solver need the most moves) drives the
step-through's puzzle mode.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Any

from fsm.engine.game import Game
from fsm.errors import BadInput
from fsm.explore.questions import DEFAULT_BUDGET, Fingerprint, successors
from fsm.explore.search import playing
from fsm.i18n import _
from fsm.scenarios.goals import Puzzle
from fsm.table.model import Table
from fsm.table.moves import parse

#: Solver moves allowed when a puzzle states none: more than any line of play here has.
UNLIMITED = 1_000


class Cut(Exception):
    """The budget of tables ran out."""


class Solver:
    """The memo of one puzzle's search: each table's value for the solver, the strategy, the answers."""

    def __init__(self, game: Game, puzzle: Puzzle, budget: int | None) -> None:
        self.game, self.puzzle, self.budget = game, puzzle, budget
        self.root = game.table.copy()
        self.digest = Fingerprint(game, self.root)
        self.judge = self.digest.judge
        self.won: dict[int, int] = {}  # digest → fewest solver moves that force the goal from there
        self.lost: dict[int, int] = {}  # digest → with this many solver moves the goal cannot be forced
        self.strategy: dict[int, str] = {}  # digest → the solver's move that forces it in won[digest]
        self.answers: dict[int, str] = {}  # digest → the other player's strongest answer
        self.line: set[int] = set()  # the digests of the line being searched (a table met again on it is lost)
        self.tables = 0

    def value(self, table: Table, left: int) -> int | None:
        """The fewest solver moves (at most ``left``) that force the goal from ``table``, or None."""
        game = self.game
        game.table = table
        if self.puzzle.goal.holds(game):
            return 0
        if self.judge.ended(table):
            return None
        d = self.digest(table)
        won, lost = self.won.get(d), self.lost.get(d)
        if won is not None and won <= left:
            return won
        if (lost is not None and lost >= left) or d in self.line:
            return None
        self.tables += 1
        if self.budget is not None and self.tables > self.budget:
            raise Cut
        game.table = table
        solver = game.actor() == self.puzzle.player
        self.line.add(d)
        try:
            found = self._solver(d, table, left) if solver else self._other(d, table, left)
        finally:
            self.line.discard(d)
        if found is None:
            self.lost[d] = max(left, self.lost.get(d, -1))
        else:
            self.won[d] = found
        return found

    def _solver(self, d: int, table: Table, left: int) -> int | None:
        best: int | None = None
        for move, child in list(successors(self.game, table)):
            cost = 0 if move.verb == "pass" else 1
            limit = left - cost if best is None else min(left, best - 1) - cost
            if limit < 0:
                continue
            v = self.value(child, limit)
            if v is not None and (best is None or v + cost < best):
                best = v + cost
                self.strategy[d] = str(move)
                if best == 0:
                    break
        return best

    def _other(self, d: int, table: Table, left: int) -> int | None:
        worst, strongest = -1, None
        for move, child in list(successors(self.game, table)):
            v = self.value(child, left)
            if v is None:
                self.answers[d] = str(move)
                return None
            if v > worst:
                worst, strongest = v, str(move)
        if strongest is None:  # nobody can move, yet play has not ended: no way on to the goal
            return None
        self.answers[d] = strongest
        return worst


@dataclass
class Proof:
    """Whether a puzzle is solvable: True (a strategy forces the goal), False (the search was complete
    and none does: ``refutation`` is the other player's line against the solver's best tries), None
    (the budget cut the search: ``stopped_by``)."""

    solvable: bool | None
    moves: int | None = None  # solver moves the strategy needs at worst
    refutation: list[str] = field(default_factory=list)  # the line against the solver's first try (not a pass)
    refutations: dict[str, list[str]] = field(default_factory=dict)  # each first move → the line against it
    stopped_by: str | None = None
    tables: int = 0
    seconds: float = 0.0
    solver: Solver | None = field(default=None, repr=False)

    @property
    def strategy(self) -> dict[int, str]:
        """The solver's move at each table of the search it wins from (by the table's digest)."""
        return self.solver.strategy if self.solver else {}

    def move_for(self, game: Game, left: int | None = None) -> str | None:
        """The solver's winning move at the game's table (a hint); None if the goal cannot be forced
        from there (within ``left`` more solver moves: default, the puzzle's)."""
        return self._look_up(game, left, self.strategy)

    def answer_for(self, game: Game, left: int | None = None) -> str | None:
        """The other player's strongest answer at the game's table: one after which the solver cannot
        force the goal if there is one, else one that makes the solver need the most moves."""
        return self._look_up(game, left, self.solver.answers if self.solver else {})

    def _look_up(self, game: Game, left: int | None, moves: dict[int, str]) -> str | None:
        s = self.solver
        if s is None:
            return None
        d = s.digest(game.table)
        if d not in moves:  # a table the proof did not reach (the learner went another way): search it
            saved = game.snapshot()
            try:
                with playing(game):
                    s.value(game.table.copy(), _limit(s.puzzle) if left is None else left)
            except Cut:
                return None
            finally:
                game.restore(saved)
        return moves.get(d)

    def as_dict(self) -> dict[str, Any]:
        return {
            "solvable": self.solvable, "moves": self.moves, "refutation": self.refutation,
            "refutations": self.refutations,
            "stopped_by": self.stopped_by, "tables": self.tables, "seconds": round(self.seconds, 4),
        }  # fmt: skip


def _limit(puzzle: Puzzle) -> int:
    return UNLIMITED if puzzle.moves is None else puzzle.moves


def check_start(game: Game, puzzle: Puzzle) -> None:
    """A puzzle starts with the solver to move, with a move to make: else :class:`BadInput` at its ``player:``."""
    actor = game.actor()
    if actor != puzzle.player or not game.legal_moves():
        who = actor or _("nobody")
        message = _("the solver {player} has no move at the puzzle's start ({who} is to move at {where})")
        raise BadInput(message.format(player=puzzle.player, who=who, where=game.flow_name()), puzzle.at)
    puzzle.goal.validate(game)


def solve(game: Game, puzzle: Puzzle, *, budget: int | None = DEFAULT_BUDGET) -> Proof:
    """Prove the puzzle from the game's table (the game is left as found)."""
    check_start(game, puzzle)
    began = time.perf_counter()
    saved = game.snapshot()
    solver = Solver(game, puzzle, budget)
    proof = Proof(None, solver=solver)
    try:
        with playing(game):
            found = solver.value(solver.root, _limit(puzzle))
        proof.solvable, proof.moves = found is not None, found
        if found is None:
            proof.refutations = refutations(solver)
            tries = [m for m in proof.refutations if not m.endswith(": pass")] or list(proof.refutations)
            proof.refutation = proof.refutations[tries[0]] if tries else []
    except Cut:
        proof.stopped_by = "budget"
    finally:
        game.restore(saved)
    proof.tables, proof.seconds = solver.tables, time.perf_counter() - began
    return proof


def refutations(solver: Solver) -> dict[str, list[str]]:
    """Each of the solver's moves at the start, and the line by which the other player defeats it."""
    game = solver.game
    saved = game.snapshot()
    with playing(game):
        steps = list(successors(game, solver.root))
    game.restore(saved)
    return {str(m): [str(m), *principal_line(solver, child)] for m, child in steps}


def principal_line(solver: Solver, table: Table, limit: int = 60) -> list[str]:
    """A line the search found: the solver's strategy move (or, where it has none, its first move),
    the other player's strongest answer, until the goal holds or play ends."""
    game, line = solver.game, list[str]()
    saved = game.snapshot()
    with playing(game):
        while len(line) < limit:
            game.table = table
            if solver.puzzle.goal.holds(game) or solver.judge.ended(table):
                break
            d = solver.digest(table)
            mine = game.actor() == solver.puzzle.player
            move = (solver.strategy if mine else solver.answers).get(d)
            steps = dict((str(m), t) for m, t in successors(game, table))
            if not steps:
                break
            if move not in steps:  # a lost table: the solver's first move that is not a pass
                move = next((m for m in steps if not m.endswith(": pass")), next(iter(steps)))
            line.append(move)
            table = steps[move]
    game.restore(saved)
    return line


@dataclass
class Refutation:
    """What the other player can do against a proposed line of the solver's moves."""

    refuted: bool
    line: list[str]  # the moves played: the proposal and the answers
    answers: list[str] = field(default_factory=list)  # the other player's moves in the line
    why: list[str] = field(default_factory=list)  # what of the goal did not hold, or the refused move

    @property
    def answer(self) -> str | None:
        """The answer that makes the goal fail: the other player's first move in the line that is not a pass."""
        return next((m for m in self.answers if not m.endswith(": pass")), self.answers[0] if self.answers else None)


def refute(game: Game, puzzle: Puzzle, proposal: list[str]) -> Refutation:
    """Try a proposed line (the solver's moves, in order): the other player looks for answers after
    which the goal fails.  When the proposal runs out, the solver passes."""
    check_start(game, puzzle)
    players = list(game.table.players)
    for text in proposal:
        if parse(text, players).player != puzzle.player:  # not a move: BadInput, from the move reader
            message = _("--try lists the solver's moves ({player}: ...), got {move!r}")
            raise BadInput(message.format(player=puzzle.player, move=text), "--try")
    saved = game.snapshot()
    fingerprint = Fingerprint(game, game.table)
    memo: dict[tuple[int, int], Refutation | None] = {}

    def attempt(table: Table, i: int, depth: int) -> Refutation | None:
        """None if the proposal reaches the goal from here whatever is answered; else how it fails."""
        game.table = table
        if puzzle.goal.holds(game):
            return None
        if fingerprint.judge.ended(table) or depth > 400:
            return Refutation(True, [], why=puzzle.goal.failures(game))
        key = (fingerprint(table), i)
        if key in memo:
            return memo[key]
        steps = list(successors(game, table))
        game.table = table
        found: Refutation | None
        if game.actor() == puzzle.player:
            text = proposal[i] if i < len(proposal) else "pass"
            chosen = _matching(game, steps, f"{puzzle.player}: {text}" if text == "pass" else text)
            if isinstance(chosen, str):
                found = Refutation(True, [], why=[chosen])
            else:
                step = attempt(chosen[1], i + (i < len(proposal)), depth + 1)  # the passes after it: not counted
                found = None if step is None else dataclasses.replace(step, line=[str(chosen[0]), *step.line])
        else:
            found = None
            for move, child in steps:
                step = attempt(child, i, depth + 1)
                if step is not None:
                    found = Refutation(True, [str(move), *step.line], [str(move), *step.answers], step.why)
                    break
            if not steps:
                found = Refutation(True, [], why=puzzle.goal.failures(game))
        memo[key] = found
        return found

    try:
        with playing(game):
            result = attempt(game.table, 0, 0)
    finally:
        game.restore(saved)
    return result or Refutation(False, list(proposal))


def _matching(game: Game, steps: list[tuple[Any, Table]], text: str) -> tuple[Any, Table] | str:
    """The step whose move is ``text``; else why the rules refuse it here."""
    for move, child in steps:
        if str(move) == text:
            return move, child
    wanted = str(parse(text, list(game.table.players)))  # the move reader's own spelling of it
    for move, child in steps:
        if str(move) == wanted:
            return move, child
    return f"{text}: {game.why_not(text)}"


def strategy_tree(proof: Proof, game: Game, limit: int = 40) -> list[tuple[int, str]]:
    """The winning strategy as an indented tree of (depth, move): the solver's move where it decides,
    every answer where the other player does, until the goal holds; each table once, at most ``limit`` rows."""
    s = proof.solver
    if s is None or not proof.solvable:
        return []
    rows: list[tuple[int, str]] = []
    shown: set[int] = set()
    saved = game.snapshot()

    def walk(table: Table, depth: int) -> None:
        game.table = table
        if len(rows) >= limit or s.puzzle.goal.holds(game) or s.judge.ended(table):
            return
        d = s.digest(table)
        if d in shown:
            return
        shown.add(d)
        mine = game.actor() == s.puzzle.player
        steps = [(m, t) for m, t in successors(game, table) if not mine or str(m) == s.strategy.get(d)]
        for move, child in steps:
            rows.append((depth, str(move)))
            walk(child, depth + (len(steps) > 1))  # indented where the other player's answers branch

    try:
        with playing(game):
            walk(s.root, 0)
    finally:
        game.restore(saved)
    return rows
