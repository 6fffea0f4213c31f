"""Goals and puzzles: a goal is an ``expect:`` block asked of any table, a puzzle a scenario's
``puzzle:`` block (who solves it, the goal, at most how many of the solver's moves, a hint).

A goal is checked by :func:`fsm.scenarios.checking.check`, the very code that checks a scenario's
``expect:``, so it has no words of its own.  It comes from a goal file (the block on its own,
``schemas/goal.schema.json``) or by name from the scenario's ``goals:``.  ``log:`` and ``steps:``
are refused in a goal: a search plays its lines unnarrated, and a table has no log to ask.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from fsm.engine.game import Game
from fsm.errors import BadInput, Problems
from fsm.i18n import _, did_you_mean, language
from fsm.scenarios.checking import EXPECT_KEYS, check, name_index
from fsm.scenarios.reading import Fields, Where, as_named, read_yaml, table_of

#: What a goal may ask: the ``expect:`` words that read a table (not its narration).
GOAL_KEYS = EXPECT_KEYS - {"log", "steps"}
PUZZLE_BLOCK_KEYS = {"player", "goal", "moves", "hint", "hint_ja"}


@dataclass(frozen=True)
class Goal:
    """An ``expect:`` block to ask of tables, and where it was written (for file:line)."""

    expect: Mapping[str, Any]
    where: Where
    name: str  # the goal file, or "FILE (goals: NAME)", or "FILE (puzzle: goal)"

    def failures(self, game: Game) -> list[str]:
        return [str(f) for f in check(game, self.expect, self.where)]

    def holds(self, game: Game) -> bool:
        if not self._outcomes_may_hold(game):
            return False
        return not check(game, self.expect, self.where)

    @cached_property
    def _results(self) -> dict[str, list[str]] | None:
        """Each ``outcomes:`` source and the results it asks for, in order; None if any is not plainly
        written (then :func:`check` alone judges, and says what is wrong)."""
        out: dict[str, list[str]] = {}
        raw = self.expect.get("outcomes") or {}
        if not isinstance(raw, Mapping):
            return None
        for source, want in raw.items():
            items = want if isinstance(want, list) else [want]
            results = [w.get("result") if isinstance(w, Mapping) else w for w in items]
            if not all(r in ("resolved", "fizzled") for r in results):
                return None
            out[source] = [str(r) for r in results]
        return out

    def _outcomes_may_hold(self, game: Game) -> bool:
        """A quick look at the results alone, so that a search need not run the whole check on the
        many tables where they differ; where they agree, :func:`check` decides (clauses and the rest)."""
        wanted = self._results
        if not wanted:
            return True
        t, names = game.table, name_index(game)  # a card by its name or ID, as check() reads it
        for source, results in wanted.items():
            ids = (source, names.get(source))
            if [o.result for o in t.outcomes if o.source in ids] != results:
                return False
        return True

    def validate(self, game: Game) -> None:
        """Raise :class:`BadInput` (file:line) for a key, unit, card or geo the goal may not name,
        by checking it once on ``game``, and for an outcome of nothing that can be declared."""
        self.failures(game)
        t = game.table
        sources = {*t.cards, *(c.name for c in t.cards.values()), *(o.source for o in t.outcomes)}
        sources |= {a.name for u in t.units.values() for a in u.abilities}
        sources |= {k.move for k in game.rules.kinds.values() if k.move}  # an attack is its own source
        sources.add("speed")  # the speed dice (docs/scenarios.md, `expect`)
        outcomes = self.expect.get("outcomes")
        problems = Problems()
        for name in outcomes if isinstance(outcomes, Mapping) else ():
            if name not in sources:
                with problems.item():
                    message = _("no card or ability {name!r} in this file, so it has no outcome")
                    raise BadInput(message.format(name=name) + did_you_mean(name, sources), self.where(outcomes, name))
        problems.raise_all()


def goal_holds(game: Game, goal: Goal) -> bool:
    """Whether every expectation of ``goal`` holds at the game's table."""
    return goal.holds(game)


def goal_failures(game: Game, goal: Goal) -> list[str]:
    """What of ``goal`` does not hold at the game's table, one ``FILE:LINE: why`` each."""
    return goal.failures(game)


def goal_of(raw: Any, where: Where, name: str, parent: Any = None, key: str | None = None) -> Goal:
    """A goal from an ``expect:``-shaped block; unknown and table-less keys are refused with file:line."""
    block = table_of(raw, where, parent, key)
    problems = Problems()
    for k in block:
        with problems.item():
            if k in ("log", "steps"):
                message = _("a goal is asked of tables, which have no log: {key} may not be in a goal (use {keys})")
                raise BadInput(message.format(key=k, keys=", ".join(sorted(GOAL_KEYS))), where(block, k))
            if k not in GOAL_KEYS:
                message = _("unknown key {key!r} in the goal; allowed: {allowed}")
                allowed = ", ".join(sorted(GOAL_KEYS))
                raise BadInput(message.format(key=k, allowed=allowed) + did_you_mean(k, GOAL_KEYS), where(block, k))
    problems.raise_all()
    return Goal(block, where, name)


def load_goal(spec: str, scenario: str | Path, data: Mapping[str, Any]) -> Goal:
    """``spec`` names a goal file, or a goal under the scenario's ``goals:``."""
    goals = table_of(data.get("goals"), Where(str(scenario)), data, "goals")
    if spec in goals:
        return goal_of(goals[spec], Where(str(scenario)), f"{scenario} (goals: {spec})", goals, spec)
    path = Path(spec)
    if not path.is_file():
        names = ", ".join(goals) or _("none")
        message = _("{goal!r} is neither a goal file nor a goal of {file}'s goals: ({names})")
        raise BadInput(message.format(goal=spec, file=scenario, names=names) + did_you_mean(spec, goals), spec)
    raw = read_yaml(path)
    if not isinstance(raw, Mapping):
        message = _("a goal file is an expect: block (outcomes, zones, units ...), got {value}")
        raise BadInput(message.format(value=as_named(raw)), f"{path}:1")
    return goal_of(raw, Where(str(path)), str(path))


@dataclass(frozen=True)
class Puzzle:
    """A scenario's ``puzzle:``: ``player`` must reach ``goal`` in at most ``moves`` of its own moves
    (every move it makes counts, a pass too), whatever the other player answers."""

    player: str
    goal: Goal
    moves: int | None
    hint: str
    hint_ja: str
    title: str
    title_ja: str
    notes: str
    notes_ja: str
    path: str
    at: str  # file:line of the puzzle: block's player (for "the solver has no move")

    def hint_text(self, lang: str | None = None) -> str:
        return (self.hint_ja if language(lang) == "ja" else "") or self.hint

    def title_text(self, lang: str | None = None) -> str:
        return (self.title_ja if language(lang) == "ja" else "") or self.title

    def notes_text(self, lang: str | None = None) -> str:
        return (self.notes_ja if language(lang) == "ja" else "") or self.notes


def read_puzzle(path: str | Path, data: Mapping[str, Any], players: list[str]) -> Puzzle:
    """The ``puzzle:`` block of a scenario file; every problem with file:line."""
    where = Where(str(path))
    if "puzzle" not in data:
        raise BadInput(_("no puzzle: block in this file (a puzzle needs player and goal)"), f"{path}:1")
    f = Fields(data["puzzle"], where, "puzzle", PUZZLE_BLOCK_KEYS, data, "puzzle")
    player = f.required("player", players)
    raw_goal = f.get("goal")
    if raw_goal is None:
        raise BadInput(_("puzzle needs goal (an expect: block, or the name of one under goals:)"), where(f.data))
    if isinstance(raw_goal, str):
        goals = table_of(data.get("goals"), where, data, "goals")
        if raw_goal not in goals:
            message = _("no goal {goal!r} under goals:; goals: {names}")
            names = ", ".join(goals) or _("none")
            raise BadInput(message.format(goal=raw_goal, names=names) + did_you_mean(raw_goal, goals), f.at("goal"))
        goal = goal_of(goals[raw_goal], where, f"{path} (goals: {raw_goal})", goals, raw_goal)
    else:
        goal = goal_of(raw_goal, where, f"{path} (puzzle: goal)", f.data, "goal")
    moves = f.number("moves", 0, minimum=1) if "moves" in f.data else None
    texts = {k: f.text(k) or "" for k in ("hint", "hint_ja")}
    prose = {}
    for k in ("title", "title_ja", "notes", "notes_ja"):
        value = data.get(k, "")
        prose[k] = value if isinstance(value, str) else ""
    return Puzzle(player, goal, moves, **texts, **prose, path=str(path), at=f.at("player"))


def load_puzzle(path: str | Path, lang: str | None = None) -> tuple[Game, Puzzle]:
    """A puzzle file's game where its ``moves:`` leave it (the puzzle's start) and its ``puzzle:``."""
    from fsm.scenarios.playing import play

    game = play(path, expectations=False, lang=lang).game
    data = read_yaml(Path(path))
    return game, read_puzzle(path, data, list(game.table.players))
