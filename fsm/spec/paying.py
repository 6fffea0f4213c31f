"""Paying a 代償's parts on the table: what may pay each part, the choices a move may name,
paying them at declaration and giving them back when the item fizzles (COST-3, COST-5).

A part takes things (cards from the hand, units, equips) of the paying unit's player.  Which of
them pays is the player's choice, named in the move (``... paying 炎の書``); a price with one way
to pay needs no name.  Like the skills a pending skill card holds (SC-4), what a pending
declaration has chosen and not paid yet is *promised*: no second declaration may pay with it.
"""

from __future__ import annotations

from collections.abc import Iterator

from fsm.i18n import _, either, language
from fsm.rules.price_parts import ZONE_WORDS, Part, flat
from fsm.table.model import Ability, ChainItem, Table, Unit
from fsm.table.moves import paying_text
from fsm.table.protocol import Board, Spec

Problem = tuple[str, str]  # (clause, message)


def parts_of(spec: Spec, ab: Ability | None) -> tuple[Part, ...]:
    """The 代償's parts: the kind's own (``[kind] cost``), then the ability's (``cost:``)."""
    if ab is None or spec.price != "pay_cost":
        return ()
    return (*spec.cost, *ab.parts)


def promised(table: Table) -> set[str]:
    """What pending declarations have chosen and not paid yet (paid at resolution)."""
    return {x for i in table.chain if not i.taken for x in i.chosen}


def candidates(board: Board, part: Part, payer: Unit, held: set[str]) -> list[str]:
    """The things of the payer's player that could pay this part now (not promised to another)."""
    t, k = board.table, part.kind
    if k.take == "unit":
        return [
            u.id
            for u in t.units.values()
            if u.owner == payer.owner
            and u.zone == k.source
            and not (k.which == "other" and u.id == payer.id)
            and not (k.which == "self" and u.id != payer.id)
            and (not part.name or part.name in u.name)
            and not (k.to == "acted" and board.acted(u))
            and u.id not in held
        ]
    return [
        c.id
        for c in t.cards.values()
        if c.owner == payer.owner
        and c.zone == k.source
        and (k.take != "equip" or c.type == "equip")
        and (not part.name or part.name in c.name)
        and (not part.type or c.type == part.type)
        and c.id not in held
    ]


def options(board: Board, parts: tuple[Part, ...], payer: Unit) -> list[tuple[str, ...]]:
    """Every way to pay the parts at once, each thing once (in part order; as sets, no repeats)."""
    held = promised(board.table)
    pools = [candidates(board, p, payer, held) for p in flat(parts)]
    seen: set[frozenset[str]] = set()
    out: list[tuple[str, ...]] = []

    def go(i: int, acc: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
        if i == len(pools):
            yield acc
            return
        for x in pools[i]:
            if x not in acc:
                yield from go(i + 1, (*acc, x))

    for option in go(0, ()):
        if frozenset(option) not in seen:
            seen.add(frozenset(option))
            out.append(option)
    return out


def _thing(part: Part) -> str:
    k = part.kind
    if k.take == "unit":
        words = {
            "self": _("this unit"),
            "other": _("other unit on the field") if k.source == "field" else _("other unit in hand"),
            "any": _("unit on the field") if k.source == "field" else _("unit in hand"),
        }
        thing = words[k.which]
        if k.to == "acted":
            thing = _("other unit on the field that is 行動未完了")
    else:
        thing = _("equip on the field") if k.take == "equip" else _("card in hand")
    if part.name:
        thing += _(" whose name contains {name}").format(name=part.name)
    if part.type:
        thing += f" ({part.type})"
    return thing


def shortfall(board: Board, parts: tuple[Part, ...], payer: Unit, ability: str, clause: str) -> Problem | None:
    """None if the parts can be paid now, else what is missing (COST-3), counting what pending
    declarations have promised (as SC-4 counts held skills)."""
    if not parts or options(board, parts, payer):
        return None
    held = promised(board.table)
    for part in parts:
        free = candidates(board, part, payer, held)
        if len(free) >= part.count:
            continue
        text = (
            _("{player} has no {thing} to pay {part}, the 代償 of {ability}")
            if not free
            else _("{player} has only {have} {thing} to pay {part}, the 代償 of {ability}")
        )
        why = text.format(player=payer.owner, thing=_thing(part), part=part.text(), ability=ability, have=len(free))
        kept = [x for x in candidates(board, part, payer, set()) if x in held]
        if kept:
            why += _("; {names} already promised to a pending declaration").format(names=", ".join(kept))
        return (clause, why)
    parts_text = " + ".join(p.text() for p in parts)
    return (
        clause,
        _("{player} cannot pay {parts} at once, each thing once").format(player=payer.owner, parts=parts_text),
    )


SHOWN = 8  # a refusal lists this many choices and counts the rest (legal_moves lists them all)


def named(option: tuple[str, ...]) -> str:
    """A choice as the move writes it, in the chosen language (:func:`fsm.table.moves.paying_text`)."""
    return paying_text(option, language())


def choose(
    board: Board, parts: tuple[Part, ...], payer: Unit, names: tuple[str, ...], ability: str, clause: str
) -> tuple[tuple[str, ...], Problem | None]:
    """The things the move pays with, in part order; or why the move's choice is refused (COST-3).

    Left out, the choice is made only where there is one way to pay."""
    if not parts:
        if names:
            return (), (clause, _("{ability}'s price takes no choice; leave out 'paying'").format(ability=ability))
        return (), None
    opts = options(board, parts, payer)
    if not names:
        if len(opts) == 1:
            return opts[0], None
        listed = "; ".join(f"'{named(o)}'" for o in opts[:SHOWN])
        if len(opts) > SHOWN:
            listed += _(" and {n} more (fsm moves lists them all)").format(n=len(opts) - SHOWN)
        message = _("{ability}'s 代償 ({parts}) can be paid in several ways: name one, {options}")
        return (), (clause, message.format(ability=ability, parts=_parts_text(parts), options=listed))
    if len(set(names)) != len(names):
        return (), (clause, _("paying names the same thing twice: {names}").format(names=", ".join(names)))
    match = next((o for o in opts if set(o) == set(names)), None)
    if match is not None:
        return match, None
    return (), (clause, _why_refused(board, parts, payer, names, ability))


def _parts_text(parts: tuple[Part, ...]) -> str:
    return " + ".join(p.text() for p in parts)


def _why_refused(board: Board, parts: tuple[Part, ...], payer: Unit, names: tuple[str, ...], ability: str) -> str:
    held = promised(board.table)
    for x in names:
        takers = [p for p in parts if x in candidates(board, p, payer, set(names) - {x})]
        if takers:
            continue
        could = [p for p in parts if x in _any_owner(board, p, payer)]
        if x in held:
            return _("{name} is already promised to a pending declaration's 代償").format(name=x)
        if not could:
            message = _("{ability}'s 代償 ({parts}) takes no {name}")
            return message.format(ability=ability, parts=_parts_text(parts), name=x)
        message = _("{name} cannot pay {part}: it is not {player}'s {thing}")
        return message.format(name=x, part=could[0].text(), player=payer.owner, thing=_thing(could[0]))
    count = len(flat(parts))
    message = _("{ability}'s 代償 ({parts}) takes {count} in all, and paying names {given}: {names}")
    return message.format(
        ability=ability, parts=_parts_text(parts), count=count, given=len(names), names=", ".join(names)
    )


def _any_owner(board: Board, part: Part, payer: Unit) -> set[str]:
    """What the part could take if its player held it where the part takes from (for a refusal)."""
    t = board.table
    if part.kind.take == "unit":
        return {u.id for u in t.units.values() if not part.name or part.name in u.name}
    return {
        c.id
        for c in t.cards.values()
        if (part.kind.take != "equip" or c.type == "equip")
        and (not part.name or part.name in c.name)
        and (not part.type or c.type == part.type)
    }


# ---------------------------------------------------------------- paying and giving back
def pay(board: Board, item: ChainItem, parts: tuple[Part, ...], ability: str) -> None:
    """Pay each part with what the move chose, one log line each (COST-3)."""
    taken = []
    for part, x in zip(flat(parts), item.chosen, strict=True):
        k = part.kind
        piece = board.table.units[x] if k.take == "unit" else board.table.cards[x]
        if piece.zone != k.source:  # paid at resolution, and an effect moved it meanwhile
            line = _("{thing} is no longer in the {zone}: that part of the 代償 of {ability} goes unpaid")
            board.note(line.format(thing=piece.name, zone=_zone(k.source), ability=ability), k.clause)
            continue
        source, name = piece.zone, piece.name
        if k.take == "unit":
            u = board.table.units[x]
            taken.append(("unit", x, u.zone, "acted" if u.acted else ""))
            if k.to == "acted":
                u.acted = True
            elif u.on_field:
                board.leave_field(u, k.to, discarded=k.to == "graveyard")
            else:
                u.zone = k.to
        else:
            c = board.table.cards[x]
            taken.append(("card", x, c.zone, c.equipped_to or ""))
            c.zone, c.equipped_to = k.to, None
        line = _("{thing}: {source} → {to}, 代償 of {ability}")
        board.note(line.format(thing=name, source=_zone(source), to=_zone(k.to), ability=ability), k.clause)
    item.taken = tuple(taken)


def refund(board: Board, item: ChainItem) -> None:
    """Variant refund_cost_on_fizzle: every part paid comes back where it was (COST-5)."""
    for what, x, zone, extra in reversed(item.taken):
        if what == "unit":
            u = board.table.units[x]
            u.zone, u.acted = zone, extra == "acted"
            u.destroyed = u.discarded = False
            name = u.name
        else:
            c = board.table.cards[x]
            c.zone, c.equipped_to, name = zone, extra or None, c.name
            if zone == "equipped" and not board.table.units[extra].on_field:
                c.zone, c.equipped_to = "graveyard", None  # its unit is gone: nothing to go back on (EQ-1)
                continue
        line = _("{thing} goes back to the {zone} (variant refund_cost_on_fizzle)")
        board.note(line.format(thing=name, zone=_zone(zone)), "COST-5")
    item.taken = ()


def _zone(zone: str) -> str:
    return either(*ZONE_WORDS[zone])


def self_spoiling(spec: Spec, parts: tuple[Part, ...]) -> tuple[Part, str] | None:
    """A part that takes the paying unit itself at declaration, making the kind's own recheck true
    (it would always fizzle): the loader refuses it, as it refuses such a kind's price."""
    if spec.price_paid != "declare":
        return None
    rechecks = set(spec.fizzle_if)
    for part in parts:
        if part.kind.take != "unit" or part.kind.which != "self":
            continue
        brings = {"acted"} if part.kind.to == "acted" else {"destroyed", "off_field"}
        hit = sorted(brings & rechecks)
        if hit:
            return part, hit[0]
    return None
