"""Move generation: every move the player to act might make now, before legality judges them.

:func:`candidates` lists concrete moves (each target spelled out); :meth:`fsm.engine.game.Game.legal_moves`
keeps those :mod:`fsm.engine.legality` allows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

from fsm.engine.seat import Seat
from fsm.machines.chain import priority
from fsm.rules.timing import use_as
from fsm.spec import paying
from fsm.table.model import Ability, Unit
from fsm.table.moves import Move

#: Whether a card or an ability with these timings could be declared now (:func:`timing_fits`).
Fits = Callable[[tuple[str, ...]], bool]


#: Candidate moves made once (``_move(...)``, as ``Move(...)``): every table explored lists its
#: candidates again, mostly the same moves, and a frozen Move costs a call per field to build; a
#: shared one also keeps its text.  Safe to share: a Move never changes, and legal_moves() vets
#: moves by the table they were judged on (:meth:`fsm.engine.game.Game.legal_moves`).
_move = lru_cache(maxsize=4096)(Move)


def candidates(seat: Seat, fits: Fits | None = None) -> Iterator[Move]:
    """Every move the player to act might make now.  With ``fits`` (:func:`timing_fits`), the uses
    and activations whose timings cannot fit here are left out: the rules would refuse every one of
    them (:func:`fsm.engine.declaring.use_problem` asks the timing of every declaration)."""
    t = seat.table
    actor = seat.actor()
    if actor is None:
        return
    yield _move("pass", actor)
    own_units = [u for u in t.units.values() if u.owner == actor]
    targets = all_targets(seat)
    if seat.flow.at("quick_summon") and priority(t) is None:  # an open window takes counters
        for u in own_units:
            if u.zone == "hand":
                yield _move("summon", actor, unit=u.id)
        for c in t.cards.values():
            if c.owner != actor:
                continue
            if c.type == "equip" and c.zone == "hand":
                for u in own_units:
                    yield _move("equip", actor, card=c.id, unit=u.id)
            if c.zone == "equipped":
                yield _move("unequip", actor, card=c.id)
            if c.quick_summon and c.zone == "hand":
                yield _move("reveal", actor, card=c.id)
        return
    if seat.flow.at("formation"):
        for u in own_units:
            yield _move("front", actor, unit=u.id)
        return
    if seat.flow.at("main_phase") and priority(t) is None:
        for u in own_units:
            for g in t.geos:
                yield _move("advance", actor, unit=u.id, target=g)
    if seat.flow.at("normal_timing") and priority(t) is None:
        for u in own_units:
            for other in t.units.values():
                if other.owner != actor:
                    yield _move("attack", actor, unit=u.id, target=other.id)
    for u in own_units:
        for ab in u.abilities:
            if fits is not None and not fits(
                ab.timings or seat.rules.kind(ab.kind, sync=ab.sync is not None).default_timings
            ):
                continue
            choices = price_choices(seat, u, ab)
            for tg in target_choices(ab.target, targets):
                for chosen in choices:
                    yield _move("activate", actor, ability=ab.name, unit=u.id, target=tg, paying=chosen)
    for c in t.cards.values():
        if c.owner == actor and c.type == "skill" and c.zone in ("hand", "revealed"):
            if fits is not None and not fits(c.timings):
                continue
            for u in own_units:
                for tg in target_choices(c.target, targets):
                    yield _move("use", actor, card=c.id, unit=u.id, target=tg)


def timing_fits(seat: Seat, player: str) -> Fits:
    """Whether ``player`` could use a card or an ability with given timings here, as
    :func:`fsm.engine.declaring.use_problem` asks it (the same point and timings in force), each
    answer worked out once.  For judging many candidates of one table, where nothing changes."""
    known: dict[tuple[str, ...], bool] = {}
    here: list[Any] = []  # the point and the timings in force, worked out on first use

    def fits(timings: tuple[str, ...]) -> bool:
        answer = known.get(timings)
        if answer is None:
            if not here:
                point = seat.point(player)
                here.extend((point, seat.board.timings_at(point)))
            point, in_force = here
            # a timing not in force here is left to the full check (which words its error)
            unknown = any(k not in in_force for k in timings)
            answer = known[timings] = unknown or use_as(timings, point, in_force) is not None
        return answer

    return fits


def price_choices(seat: Seat, u: Unit, ab: Ability) -> list[tuple[str, ...]]:
    """Each way to pay the ability's 代償 parts (COST-3); none to name where there is one way or none."""
    spec = seat.rules.kind(ab.kind, sync=ab.sync is not None)
    parts = paying.parts_of(spec, ab)
    options = paying.options(seat, parts, u) if parts and u.on_field else []
    return options if len(options) > 1 else [()]


def all_targets(seat: Seat) -> dict[str, list[str]]:
    """What each target kind may name on this table (fsm.engine.declaring.TARGETED)."""
    t = seat.table
    return {
        "unit": [u.id for u in t.units.values() if u.on_field],
        "player": list(t.players),
        "geo": list(t.geos),
        "equip": [c.id for c in t.cards.values() if c.zone == "equipped"],
    }


def target_choices(kind: str, targets: dict[str, list[str]]) -> list[str | None]:
    if kind in targets:
        return list(targets[kind])
    return [None]
