"""Checking a scenario's ``expect:`` against the game as it ends: outcomes and their clauses, zones,
units, geos, the order of resolution, the flow, the actor, log and ``steps:`` lines."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from fsm.engine.game import Game
from fsm.errors import BadInput, Problems
from fsm.i18n import _, did_you_mean
from fsm.rules.catalogue import CLAUSES
from fsm.rules.skills import fmt
from fsm.scenarios.reading import (
    Fields,
    Where,
    as_named,
    check_keys,
    clause_ids,
    list_of,
    no_geo,
    not_a_clause,
    table_of,
)


@dataclass
class Failure:
    """An expectation that does not hold (or a move that went differently)."""

    where: str
    message: str
    stopped: bool = False  # the moves after this one were not played

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


EXPECT_KEYS = {"outcomes", "zones", "units", "geos", "order", "first", "flow", "actor", "log", "steps"}
UNIT_CHECKS = ("skills", "acted", "marched", "destroyed", "discarded", "party", "zone", "geo")
#: Clauses an expectation verifies by its nature (it compares exactly what the clause defines):
#: a unit's skill symbols, the zone of each thing, the order a chain of two or more resolved in.
EXPECTATION_CLAUSES = {"skills": "SYM-1", "zones": "FLOW-ZONES", "order": "TIM-CTR-3"}


def verified_by(game: Game, unit: str | None, source: str, clause: str) -> set[str]:
    """The clauses a check on ``source`` that held under ``clause`` verifies: that clause, and the
    one saying ``source`` is used like something else when ``clause`` belongs to the procedure it
    borrows: SYNC-2 (a 【同調】 X otherwise follows X's procedure: a 【同調】【行動】 refused under
    ACT-2) or QS-2 (a revealed quick-summon card is used like any other skill card: it resolves
    under SC-7).  ``unit`` is the ability's unit, if known."""
    t = game.table
    card = t.cards.get(source) or t.cards.get(name_index(game).get(source, ""))
    if card is not None:
        skill = game.rules.kind_for("use")
        return {clause, "QS-2"} if card.quick_summon and clause in dict(skill.clauses).values() else {clause}
    units = [t.units[unit]] if unit in t.units else list(t.units.values())
    ability = next((a for u in units for a in u.abilities if a.name == source), None)
    if ability is not None and ability.sync and clause in dict(game.rules.kind(ability.kind).clauses).values():
        return {clause, "SYNC-2"}
    return {clause}


def check(game: Game, expect: Mapping[str, Any], where: Where, checked: set[str] | None = None) -> list[Failure]:
    """Compare the game as it ends with ``expect:``; returns what does not hold.

    Clauses verified along the way (an outcome's clause, a ``steps:`` line's clause, and those of
    :data:`EXPECTATION_CLAUSES`) are added to ``checked``.
    """
    checked = checked if checked is not None else set()
    out: list[Failure] = []
    problems = Problems()  # each key, and each name under it, is read on its own: all problems at once
    with problems.item():
        check_keys(expect, EXPECT_KEYS, where, "expect")
    each: dict[str, Callable[[str, Any, Mapping[str, Any]], list[Failure]]] = {
        "outcomes": lambda name, raw, parent: _check_outcome(game, name, raw, parent, where, checked),
        "zones": lambda name, raw, parent: _check_zone(game, name, raw, parent, where),
        "units": lambda name, raw, parent: _check_unit(game, name, raw, parent, where, checked),
        "geos": lambda name, raw, parent: _check_geo(game, name, raw, parent, where),
    }
    for key, check_one in each.items():  # each name under these keys is read on its own
        with problems.item():
            items = table_of(expect.get(key), where, expect, key)
            before = len(problems.found)
            found: list[Failure] = []
            for name, raw in items.items():
                with problems.item():
                    found += check_one(name, raw, items)
            if key == "zones" and items and not found and len(problems.found) == before:
                checked.add(EXPECTATION_CLAUSES["zones"])
            out += found
    with problems.item():
        out += _check_order(game, expect, where, checked)
    f = Fields(expect, where, "expect", set(expect))
    for key, check_at in (("first", _check_first), ("flow", _check_flow), ("actor", _check_actor)):
        if key in expect:
            with problems.item():
                out += check_at(game, f)
    if "log" in expect:
        with problems.item():
            cited = Counter(e.clause for e in game.log)
            for clause in clause_ids(expect["log"], where, expect, "log"):
                if not cited.get(clause):
                    message = _("no step of the log follows {clause}").format(clause=clause)
                    out.append(Failure(where(expect, "log"), message))
    if "steps" in expect:
        with problems.item():
            out += _check_steps(game, expect, where, checked)
    problems.raise_all()
    return out


def _check_geo(game: Game, name: str, raw: Any, geos: Mapping[str, Any], where: Where) -> list[Failure]:
    t = game.table
    if name not in t.geos:
        raise BadInput(no_geo(name, t.geos) + did_you_mean(name, t.geos), where(geos, name))
    g = Fields(raw, where, _("expected geo {name}").format(name=name), {"holder"}, geos, name)
    holder = g.text("holder")
    if holder == t.geos[name].holder:
        return []
    message = _("{geo} should be held by {want}, but is held by {got}")
    return [Failure(g.at("holder"), message.format(geo=name, want=holder, got=t.geos[name].holder))]


def _check_order(game: Game, expect: Mapping[str, Any], where: Where, checked: set[str]) -> list[Failure]:
    if "order" not in expect:
        return []
    t = game.table
    want_order = [str(x) for x in list_of(expect["order"], where, expect, "order")]
    names = []
    for seq in t.resolution_order:
        o = next(o for o in t.outcomes if o.seq == seq)
        card = t.cards.get(o.source)
        names.append(card.name if card else o.source)
    if names != want_order:
        message = _("resolution order should be {want}, but was {got}").format(want=want_order, got=names)
        return [Failure(where(expect, "order"), message)]
    if len(names) >= 2:
        checked.add(EXPECTATION_CLAUSES["order"])
    return []


def _check_first(game: Game, f: Fields) -> list[Failure]:
    t = game.table
    want = f.text("first", None, t.players)
    got = t.battle.first if t.battle else None
    if got == want:
        return []
    message = _("the first player (先攻) should be {want}, but is {got}").format(want=want, got=got)
    return [Failure(f.at("first"), message)]


def _check_flow(game: Game, f: Fields) -> list[Failure]:
    want = f.text("flow")
    config = [str(v) for v in game.flow.configuration_values]
    if want in config:
        return []
    message = _("the game should be at {want}, but is at {got}").format(want=want, got=" / ".join(config))
    return [Failure(f.at("flow"), message)]


def _check_actor(game: Game, f: Fields) -> list[Failure]:
    want = f.text("actor", None, [*game.table.players, "nobody"])
    got = game.actor() or "nobody"
    if got == want:
        return []
    message = _("{want} should be the one to move now, but it is {got}").format(want=want, got=got)
    return [Failure(f.at("actor"), message)]


def _check_outcome(
    game: Game, source: str, raw: Any, outcomes: Mapping[str, Any], where: Where, checked: set[str]
) -> list[Failure]:
    t = game.table
    names = name_index(game)
    got = [o for o in t.outcomes if o.source in (source, names.get(source))]
    wants = []
    items = raw if isinstance(raw, list) else [raw]
    for i, want in enumerate(items):
        parent, key = (raw, i) if isinstance(raw, list) else (outcomes, source)
        if isinstance(want, Mapping):
            f = Fields(
                want, where, _("the outcome of {source}").format(source=source), {"result", "clause"}, parent, key
            )
            result = f.required("result", ("resolved", "fizzled"))
            clause = f.text("clause")
            if clause is not None and clause not in CLAUSES:
                raise BadInput(not_a_clause(clause) + did_you_mean(clause, CLAUSES), f.at("clause"))
            wants.append((result, clause))
        elif want in ("resolved", "fizzled"):
            wants.append((want, None))
        else:
            raise BadInput(
                _("an outcome is resolved, fizzled or {{result: ..., clause: ...}}, got {value}").format(
                    value=as_named(want)
                ),
                where(parent, key),
            )
    matches = len(got) == len(wants) and all(
        o.result == r and (c is None or o.clause == c) for o, (r, c) in zip(got, wants, strict=True)
    )
    if matches:
        for o, (_r, c) in zip(got, wants, strict=True):
            checked |= verified_by(game, o.unit, source, c) if c else set()
        return []
    shown = [f"{o.result} ({o.clause}{': ' + o.reason if o.reason else ''})" for o in got]
    expected = [f"{r} ({c})" if c else r for r, c in wants]
    message = _("{source}: expected {want}, got {got}").format(
        source=source, want=expected, got=shown or _("no outcome")
    )
    return [Failure(where(outcomes, source), message)]


def _check_zone(game: Game, name: str, want: Any, zones: Mapping[str, Any], where: Where) -> list[Failure]:
    t = game.table
    thing = t.units.get(name) or t.cards.get(name) or t.cards.get(name_index(game).get(name, ""))
    if thing is None:
        known = [*t.units, *t.cards, *name_index(game)]
        raise BadInput(_("no unit or card {name!r}").format(name=name) + did_you_mean(name, known), where(zones, name))
    if not isinstance(want, str):
        message = _("a zone is text such as field or graveyard, got {value}")
        raise BadInput(message.format(value=as_named(want)), where(zones, name))
    if thing.zone == want:
        return []
    message = _("{name} should be in {want}, but is in {got}").format(name=name, want=want, got=thing.zone)
    return [Failure(where(zones, name), message)]


def _check_unit(
    game: Game, uid: str, raw: Any, units: Mapping[str, Any], where: Where, checked: set[str]
) -> list[Failure]:
    t = game.table
    u = t.units.get(uid)
    if u is None:
        message = _("no unit {unit!r}; units: {units}").format(unit=uid, units=", ".join(t.units))
        raise BadInput(message + did_you_mean(uid, t.units), where(units, uid))
    f = Fields(raw, where, _("expected unit {unit}").format(unit=uid), set(UNIT_CHECKS), units, uid)
    out = []
    for key in f.data:
        got: Any
        want: Any
        if key == "skills":
            got, want = fmt(game.available(u)), fmt(f.symbols(key))
        elif key == "acted":  # as the rules count it, a continuous 【自動】 included (AUTO-4)
            got, want = game.acted(u), f.flag(key)
        elif key in ("marched", "destroyed", "discarded"):
            got, want = getattr(u, key), f.flag(key)
        else:  # party, zone, geo
            got, want = getattr(u, key), f.text(key)
        if got != want:
            message = _("{unit}.{key} should be {want!r}, but is {got!r}").format(unit=uid, key=key, want=want, got=got)
            out.append(Failure(f.at(key), message))
        elif key in EXPECTATION_CLAUSES:
            checked.add(EXPECTATION_CLAUSES[key])
    return out


def _check_steps(game: Game, expect: Mapping[str, Any], where: Where, checked: set[str]) -> list[Failure]:
    """``steps:`` — log lines that must appear in this order, each ``"CLAUSE: words of the line"``.

    A line verifies its clause only if it records what the clause decided: the move's own line and
    the lines framing every declaration (``used as a counter under [反撃]``, fsm/engine/narration.py)
    must still be there, but verify nothing."""
    wanted = list_of(expect["steps"], where, expect, "steps")
    log = game.log
    pos = 0
    for i, raw in enumerate(wanted):
        if not isinstance(raw, str) or ":" not in raw:
            message = _("a step is 'CLAUSE: words of the log line', got {value}")
            raise BadInput(message.format(value=as_named(raw)), where(wanted, i))
        clause, _sep, words = (s.strip() for s in raw.partition(":"))
        if clause not in CLAUSES:
            raise BadInput(not_a_clause(clause) + did_you_mean(clause, CLAUSES), where(wanted, i))
        found = next((j for j in range(pos, len(log)) if log[j].clause == clause and words in log[j].text), None)
        if found is None:
            earlier = any(e.clause == clause and words in e.text for e in log[:pos])
            why = _("it comes earlier than the step before it") if earlier else _("no such line in the log")
            return [
                Failure(where(wanted, i), _("expected the log line {step!r} here: {why}").format(step=raw, why=why))
            ]
        if not (log[found].routine or log[found].echo):  # a line every declaration or move writes decides nothing
            checked.add(clause)
        pos = found + 1
    return []


def name_index(game: Game) -> dict[str, str]:
    """Expectations may name cards by ID or by name."""
    return {c.name: c.id for c in game.table.cards.values()}
