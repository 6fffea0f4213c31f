"""Scenario files: a table, the moves to play, and what the rules should make of them.

A scenario is YAML (see ``docs/scenarios.md`` for the full format)::

    title: A 【行動】 fizzles because a counter made its unit act first
    clauses: [ACT-6, TIM-CTR-2, TIM-CTR-3]
    notes: 足止め makes 岩の巨人 行動完了 before 岩砕き resolves, so 岩砕き fizzles.
    seed: 1
    players: [A, B]
    geos: {荒野: {holder: B, limit: 10}}
    units:
      岩の巨人: {owner: A, skills: 土, geo: 荒野,
                abilities: [{name: 岩砕き, kind: action, timing: 通常, effect: destroy}]}
      水の精:   {owner: B, skills: 水, geo: 荒野}
    cards:
      足止め: {owner: B, condition: 水, timing: 反撃, effect: exhaust}
    start: {at: normal_timing, battle: {advancing: A, geo: 荒野, turn: A}}
    moves:
      - "A: activate 岩砕き of 岩の巨人 on 水の精"
      - "B: use 足止め by 水の精 on 岩の巨人"
      - {refused: "B: pass", clause: TIM-CTR-2}
      - "A: pass"
      - "B: pass"
    expect:
      outcomes: {岩砕き: {result: fizzled, clause: ACT-6}, 足止め: resolved}
      zones: {足止め: graveyard, 水の精: field}
      units: {岩の巨人: {acted: true}}
      order: [足止め, 岩砕き]

Everything malformed is reported as ``FILE:LINE: what is wrong`` (:class:`BadInput`, exit
code 2 on the command line); an expectation that does not hold, a move the rules refuse, or
a ``clauses:`` entry that no expectation verifies, is a :class:`Failure` (exit code 1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fsm.engine.game import Game, LogEntry, Verdict
from fsm.errors import BadInput, Problems, RuleViolation
from fsm.i18n import _, did_you_mean, language, more_problems, using
from fsm.rules.catalogue import CLAUSES
from fsm.rules.variants import Variants
from fsm.scenarios.building import build_game
from fsm.scenarios.checking import EXPECT_KEYS, Failure, check, verified_by
from fsm.scenarios.reading import (
    Fields,
    Where,
    as_named,
    check_keys,
    clause_ids,
    list_of,
    not_a_clause,
    read_yaml,
    table_of,
)
from fsm.spec.ruleset import Ruleset
from fsm.table.moves import parse as parse_move


@dataclass
class Result:
    """What playing a scenario gave: the game as it ends, each step's log, and the failures."""

    path: str
    title: str
    game: Game
    failures: list[Failure] = field(default_factory=list)
    steps: list[tuple[str, list[LogEntry]]] = field(default_factory=list)
    checked: set[str] = field(default_factory=set)  # clauses an expectation named and found to hold
    notes: str = ""
    clauses: list[str] = field(default_factory=list)  # the scenario's own `clauses:`

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def unverified(self) -> list[str]:
        """The clauses the file lists but no expectation names: listing a clause is a claim that the
        file checks it (an outcome's clause, a refused move's clause or a ``steps:`` line), not
        merely that some log line, such as the move's own, carried its ID."""
        return [c for c in self.clauses if c not in self.checked]


TOP_KEYS = {"title", "title_ja", "clauses", "notes", "notes_ja", "seed", "players", "geos", "units", "cards",
            "start", "moves", "expect", "variants", "rules"}  # fmt: skip
#: What a puzzle file adds (fsm.scenarios.goals reads them; schemas/puzzle.schema.json).
PUZZLE_TOP_KEYS = {"puzzle", "goals"}


def load(
    path: str | Path,
    variants: Variants | None = None,
    rules: Ruleset | None = None,
    overrides: Mapping[str, Any] | None = None,
    lang: str | None = None,
) -> tuple[Game, Mapping[str, Any]]:
    """Read a scenario and set up its game; bad files raise :class:`BadInput` with file:line, every
    problem of the file at once (up to :data:`fsm.errors.LIMIT`), its moves' own words included."""
    game, data, _moves = _set_up(Path(path), variants, rules, overrides, lang)
    return game, data


def _set_up(
    p: Path,
    variants: Variants | None,
    rules: Ruleset | None,
    overrides: Mapping[str, Any] | None,
    lang: str | None,
) -> tuple[Game, Mapping[str, Any], list[Any]]:
    """The game, the file and its ``moves:``; any problem of the set-up raises them all, together
    with those of the moves' own words (a move error hides no set-up error, nor the reverse)."""
    game, data, problems = _load(p, variants, rules, overrides, lang)
    where = Where(str(p))
    moves: list[Any] = []
    with problems.item():
        moves = list_of(data.get("moves"), where, data, "moves")
    if game is None or problems:
        _read_moves(moves, 0, where, problems)
        _raise(problems, p)
    assert game is not None  # built, or a problem was raised
    return game, data, moves


def _load(
    p: Path,
    variants: Variants | None,
    rules: Ruleset | None,
    overrides: Mapping[str, Any] | None,
    lang: str | None,
) -> tuple[Game | None, Mapping[str, Any], Problems]:
    """The game as far as the file sets it up (None if it could not be) and the problems found on the way."""
    data = read_yaml(p)
    if not isinstance(data, Mapping):
        message = _("a scenario is a mapping with players, units, moves, expect ..., got {value}")
        raise BadInput(message.format(value=as_named(data)), f"{p}:1")
    where = Where(str(p))
    problems = Problems()
    with problems.item():
        check_keys(data, TOP_KEYS | PUZZLE_TOP_KEYS, where, _("the scenario"))
    for key in ("title", "title_ja", "notes", "notes_ja"):
        if key in data and not isinstance(data[key], str):
            message = _("{key} must be text, got {value}").format(key=key, value=as_named(data[key]))
            problems.add(BadInput(message, where(data, key)))
    with problems.item():
        clause_ids(data.get("clauses"), where, data, "clauses")
    game = None
    try:
        game = build_game(data, rules, str(p), variants, overrides, lang)
    except BadInput as err:
        # raised below the scenario reader (e.g. Game.begin): say which file
        problems.add(err.relocated(lambda e: _in_file(e, p)))
    return game, data, problems


def _in_file(err: BadInput, p: Path) -> str:
    if err.where.startswith(str(p)) or err.where == "--variant":
        return err.where
    return f"{p}" + (f" ({err.where})" if err.where else "")


def _raise(problems: Problems, path: str | Path) -> None:
    problems.raise_all(lambda n: more_problems(n, str(path)))


def play(
    path: str | Path,
    variants: Variants | None = None,
    rules: Ruleset | None = None,
    upto: int | None = None,
    overrides: Mapping[str, Any] | None = None,
    expectations: bool = True,
    lang: str | None = None,
) -> Result:
    """Play a scenario's moves and check its expectations.

    ``upto`` stops after that many entries of ``moves:`` (and skips the expectations);
    ``expectations=False`` plays every move but checks nothing (``fsm moves``).
    ``lang`` (default: the language chosen, docs/i18n.md) is the narration's language.  A file's
    ``steps:`` and ``log:`` lines quote the English log, so the checks are made on an English
    game and the moves are played again to narrate them in another language.
    """
    spoken = language(lang)
    if spoken == "en" or not expectations:
        with using(lang):
            return _play(path, variants, rules, upto, overrides, expectations, spoken)
    result = _play(path, variants, rules, upto, overrides, expectations, "en")
    with using(spoken):  # the lines the reader adds (a refused move) in the narration's language too
        narrated = _play(path, variants, rules, upto, overrides, False, spoken)
    result.steps, result.title, result.notes = narrated.steps, narrated.title, narrated.notes
    # a move the rules refused is told in the narration's language (the English run only checked it)
    told = {f.where: f for f in narrated.failures if f.stopped}
    result.failures = [told.get(f.where, f) if f.stopped else f for f in result.failures]
    if not result.failures:  # the same play, its log in the narration's language (a step-through's)
        result.game = narrated.game
    return result


def prose(data: Mapping[str, Any], key: str, lang: str | None) -> str:
    """The file's ``title`` or ``notes`` in ``lang``: ``title_ja`` in Japanese when it has one."""
    text = data.get(f"{key}_ja") if language(lang) == "ja" else None
    return str(text or data.get(key, ""))


def _play(
    path: str | Path,
    variants: Variants | None,
    rules: Ruleset | None,
    upto: int | None,
    overrides: Mapping[str, Any] | None,
    expectations: bool,
    lang: str,
) -> Result:
    p = Path(path)
    where = Where(str(p))
    game, data, moves = _set_up(p, variants, rules, overrides, lang)
    problems = Problems()
    result = Result(str(path), prose(data, "title", lang) or p.stem, game)
    result.notes = prose(data, "notes", lang)
    result.clauses = clause_ids(data.get("clauses"), where, data, "clauses")
    result.steps.append(("(set-up)", list(game.log)))
    for n, entry in enumerate(moves):
        if upto is not None and n >= upto:
            break
        try:
            if not _move(game, entry, where(moves, n), where, result):
                return result
        except BadInput as err:  # the game cannot go on from a move that is not one: read the rest
            problems.add(err)
            _read_moves(moves, n + 1, where, problems)
            with problems.item():
                check_keys(table_of(data.get("expect"), where, data, "expect"), EXPECT_KEYS, where, "expect")
            _raise(problems, p)
    if upto is None and expectations:
        result.failures += check(game, table_of(data.get("expect"), where, data, "expect"), where, result.checked)
        if result.unverified and not result.failures:
            result.failures.append(_over_claim(result.unverified, where(data, "clauses")))
    return result


def _move(game: Game, entry: Any, at: str, where: Where, result: Result) -> bool:
    """Play one entry of ``moves:``; False if the scenario cannot go on (a failure is recorded)."""
    if isinstance(entry, Mapping):
        return _refused(game, entry, at, where, result)
    entry = _entry_text(entry, at, where)
    try:
        logged = game.apply(entry)
    except BadInput:
        raise BadInput(_told(game, entry).message, at) from None
    except RuleViolation:
        told = _told(game, entry)
        illegal = _("move {move!r} is illegal here: {reason} ({clause})")
        message = illegal.format(move=entry, reason=told.message, clause=told.clause)
        result.failures.append(Failure(at, message, stopped=True))
        return False
    result.steps.append((entry, logged))
    return True


def _told(game: Game, text: str) -> Verdict:
    """Why ``text`` is refused here, in the reader's language: a game checked against the English log
    narrates in English, but what the reader is told is in theirs (a refused move changed nothing)."""
    narrating, game.lang = game.lang, None
    try:
        return game.why_not(text)
    finally:
        game.lang = narrating


def _read_moves(moves: list[Any], start: int, where: Where, problems: Problems) -> None:
    """The words of each move from ``start`` on, where no game can play them (the set-up is broken,
    or an earlier move was not one): its verb and shape (fsm/table/moves.py), not its names."""
    for n in range(start, len(moves)):
        entry, at = moves[n], where(moves, n)
        with problems.item():
            try:
                parse_move(_entry_text(entry, at, where))
            except BadInput as err:
                raise BadInput(err.message, err.where if err.where.startswith(where.path) else at) from None


def _entry_text(entry: Any, at: str, where: Where) -> str:
    """The move an entry of ``moves:`` names (a refused one's too); anything else is :class:`BadInput`."""
    if isinstance(entry, Mapping):
        return _refused_entry(entry, at, where)[0]
    if not isinstance(entry, str):
        raise BadInput(_("a move is text such as 'A: pass', got {value}").format(value=as_named(entry)), at)
    return entry


def _over_claim(unverified: list[str], at: str) -> Failure:
    ids = ", ".join(unverified)
    return Failure(
        at,
        f"lists {ids}, but no expectation verifies {'it' if len(unverified) == 1 else 'them'}; "
        f"add a steps: line such as '{unverified[0]}: words of its log line', an outcome or refused-move "
        "clause:, or drop it from clauses: (the move's own line and the lines every declaration writes, "
        "such as 'used as a counter under [反撃]', verify nothing)",
    )


def _refused(game: Game, entry: Mapping[str, Any], at: str, where: Where, result: Result) -> bool:
    """Check one ``{refused: MOVE, clause: ID}`` entry; False if the scenario cannot go on."""
    text, want = _refused_entry(entry, at, where)
    verdict = _told(game, text)
    if verdict.legal:
        refused = _("expected {move!r} to be refused, but it is legal here").format(move=text)
        result.failures.append(Failure(at, refused, stopped=True))
        return False
    if not verdict.clause:  # not a rules question: a typo in the move
        raise BadInput(verdict.message, at)
    if want and verdict.clause != want:
        result.failures.append(
            Failure(
                at,
                _("{move!r} was refused under {clause}, expected {expected}: {reason}").format(
                    move=text, clause=verdict.clause, expected=want, reason=verdict.message
                ),
            )
        )
    elif want:
        move = parse_move(text)
        result.checked |= verified_by(game, move.unit, move.ability or move.card or "", want)
    line = LogEntry(_("refused: {reason}").format(reason=verdict.message), verdict.clause, move=text)
    result.steps.append((f"refused {text}", [line]))
    return True


def _refused_entry(entry: Mapping[str, Any], at: str, where: Where) -> tuple[str, str | None]:
    """The move and the clause of a ``{refused: MOVE, clause: ID}`` entry."""
    f = Fields(entry, where, _("a refused move"), {"refused", "clause"})
    text = f.text("refused")
    if not text:
        raise BadInput(_("a mapping in moves must be {{refused: MOVE, clause: CLAUSE}}").format(), at)
    want = f.text("clause")
    if want is not None and want not in CLAUSES:
        raise BadInput(not_a_clause(want) + did_you_mean(want, CLAUSES), f.at("clause"))
    return text, want
