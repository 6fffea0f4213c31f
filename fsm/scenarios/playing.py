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

from fsm.engine.game import Game, LogEntry
from fsm.errors import BadInput, RuleViolation
from fsm.i18n import _, language, using
from fsm.rules.catalogue import CLAUSES
from fsm.rules.variants import Variants
from fsm.scenarios.building import build_game
from fsm.scenarios.checking import Failure, check
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


def load(
    path: str | Path,
    variants: Variants | None = None,
    rules: Ruleset | None = None,
    overrides: Mapping[str, Any] | None = None,
    lang: str | None = None,
) -> tuple[Game, Mapping[str, Any]]:
    """Read a scenario and set up its game; bad files raise :class:`BadInput` with file:line."""
    p = Path(path)
    data = read_yaml(p)
    if not isinstance(data, Mapping):
        message = _("a scenario is a mapping with players, units, moves, expect ..., got {value}")
        raise BadInput(message.format(value=as_named(data)), f"{p}:1")
    where = Where(str(p))
    check_keys(data, TOP_KEYS, where, _("the scenario"))
    for key in ("title", "title_ja", "notes", "notes_ja"):
        if key in data and not isinstance(data[key], str):
            raise BadInput(
                _("{key} must be text, got {value}").format(key=key, value=as_named(data[key])), where(data, key)
            )
    clause_ids(data.get("clauses"), where, data, "clauses")
    try:
        return build_game(data, rules, str(p), variants, overrides, lang), data
    except BadInput as err:
        if err.where.startswith(str(p)) or err.where == "--variant":
            raise
        # raised below the scenario reader (e.g. Game.begin): say which file
        raise BadInput(err.message, f"{p}" + (f" ({err.where})" if err.where else "")) from None


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
    game, data = load(path, variants, rules, overrides, lang)
    where = Where(str(path))
    result = Result(str(path), prose(data, "title", lang) or Path(path).stem, game)
    result.notes = prose(data, "notes", lang)
    result.clauses = clause_ids(data.get("clauses"), where, data, "clauses")
    result.steps.append(("(set-up)", list(game.log)))
    moves = list_of(data.get("moves"), where, data, "moves")
    for n, entry in enumerate(moves):
        if upto is not None and n >= upto:
            break
        at = where(moves, n)
        if isinstance(entry, Mapping):
            if not _refused(game, entry, at, where, result):
                return result
            continue
        if not isinstance(entry, str):
            raise BadInput(_("a move is text such as 'A: pass', got {value}").format(value=as_named(entry)), at)
        try:
            logged = game.apply(entry)
        except BadInput as err:
            raise BadInput(err.message, at) from None
        except RuleViolation as err:
            illegal = _("move {move!r} is illegal here: {reason} ({clause})")
            message = illegal.format(move=entry, reason=err.message, clause=err.clause)
            result.failures.append(Failure(at, message, stopped=True))
            return result
        result.steps.append((entry, logged))
    if upto is None and expectations:
        result.failures += check(game, table_of(data.get("expect"), where, data, "expect"), where, result.checked)
        if result.unverified and not result.failures:
            result.failures.append(_over_claim(result.unverified, where(data, "clauses")))
    return result


def _over_claim(unverified: list[str], at: str) -> Failure:
    ids = ", ".join(unverified)
    return Failure(
        at,
        f"lists {ids}, but no expectation verifies {'it' if len(unverified) == 1 else 'them'}; "
        f"add a steps: line such as '{unverified[0]}: words of its log line', an outcome or refused-move "
        "clause:, or drop it from clauses:",
    )


def _refused(game: Game, entry: Mapping[str, Any], at: str, where: Where, result: Result) -> bool:
    """Check one ``{refused: MOVE, clause: ID}`` entry; False if the scenario cannot go on."""
    f = Fields(entry, where, _("a refused move"), {"refused", "clause"})
    text = f.text("refused")
    if not text:
        raise BadInput(_("a mapping in moves must be {{refused: MOVE, clause: CLAUSE}}").format(), at)
    want = f.text("clause")
    if want is not None and want not in CLAUSES:
        raise BadInput(not_a_clause(want), f.at("clause"))
    verdict = game.why_not(text)
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
        result.checked.add(want)
    line = LogEntry(_("refused: {reason}").format(reason=verdict.message), verdict.clause, move=text)
    result.steps.append((f"refused {text}", [line]))
    return True
