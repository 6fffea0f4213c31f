"""The recheck (再確認): the conditions under which a declared item fizzles (不発).

After the counter window closes, each item is checked again before it resolves (ACT-6, COST-5,
SD-6, SC-6, SYNC-1).  A kind lists the conditions it is checked for (``fizzle_if`` in
``fsm/rules/data/kinds.toml``); each word there is one :class:`Recheck` registered here, with

* the name of the guard it becomes on the compiled procedure (true while the item may still
  resolve), and what that guard says, in Japanese and English;
* how the reason reads when it fails;
* its own clause where it has one (the 【同調】 partner check follows SYNC-1 whatever the kind),
  else the kind's recheck clause;
* the test itself.

The compiled procedure's guards *are* these tests (:func:`fsm.machines.procedures.procedure_class`):
nothing else decides whether an item resolves or fizzles.  A designer's new condition is one
more ``@recheck(...)`` function; see docs/designer.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from fsm.rules.price_parts import flat
from fsm.rules.skills import can_pay
from fsm.spec.paying import parts_of
from fsm.table.model import ChainItem, Unit
from fsm.table.protocol import Board

#: The test of a condition: true when the item fizzles for this reason.
Test = Callable[[Board, ChainItem, Unit], bool]


@dataclass(frozen=True)
class Recheck:
    key: str  # the word in a kind's fizzle_if
    guard: str  # the guard on the compiled procedure: true while the item may still resolve
    holds: tuple[str, str]  # what the guard says, (ja, en)
    fails: tuple[str, str]  # how the reason reads when it fails, (ja, en)
    clause: str  # its own clause, or "" for the kind's recheck clause
    test: Test

    def fizzles(self, board: Board, item: ChainItem) -> bool:
        """Does the item fizzle for this reason?  An item whose unit is gone from the table
        altogether is not rechecked by unit conditions (nothing left to ask).  A recheck only
        reads: the parts it looks at are not copied for the move (``SharedDict.look``)."""
        unit = board.table.units.look(item.unit or "")
        return unit is not None and self.test(board, item, unit)


RECHECKS: dict[str, Recheck] = {}


def recheck(
    key: str, guard: str, holds: tuple[str, str], fails: tuple[str, str], clause: str = ""
) -> Callable[[Test], Test]:
    """Register a recheck condition under its ``fizzle_if`` word."""

    def register(test: Test) -> Test:
        RECHECKS[key] = Recheck(key, guard, holds, fails, clause, test)
        return test

    return register


def failing(board: Board, item: ChainItem, keys: Iterable[str]) -> list[str]:
    """The conditions the item fails now, in the kind's order: what a fizzle line reports."""
    return [k for k in keys if RECHECKS[k].fizzles(board, item)]


def by_guard() -> dict[str, Recheck]:
    return {r.guard: r for r in RECHECKS.values()}


@recheck(
    "acted",
    "unit_not_acted",
    ("ユニットが行動未完了", "unit still 行動未完了"),
    ("ユニットが行動完了", "unit already 行動完了"),
)
def _acted(board: Board, item: ChainItem, unit: Unit) -> bool:
    return board.acted(unit)  # ACT-6: a 【行動】's unit must still be 行動未完了


@recheck(
    "destroyed",
    "unit_not_destroyed",
    ("ユニットが撃破/破棄されていない", "unit not 撃破/破棄"),
    ("ユニットが撃破/破棄", "unit 撃破/破棄"),
)
def _destroyed(board: Board, item: ChainItem, unit: Unit) -> bool:
    return unit.destroyed or unit.discarded


@recheck(
    "off_field",
    "unit_on_field",
    ("ユニットが場に存在", "unit still on the field"),
    ("ユニットが場に不在", "unit no longer on the field"),
)
def _off_field(board: Board, item: ChainItem, unit: Unit) -> bool:
    return not unit.on_field


@recheck(
    "condition_unmet",
    "condition_still_met",
    ("条件を満たせる", "condition can still be met"),
    ("条件を満たせない", "condition can no longer be met"),
)
def _condition_unmet(board: Board, item: ChainItem, unit: Unit) -> bool:
    # SC-6: the card's condition, on top of what the unit's equips hold (EQ-1)
    card = board.table.cards.look(item.source)
    return not can_pay(board.available(unit), [card.condition.needs, *board.equip_holds(unit)])


@recheck(
    "target_gone",
    "target_still_there",
    ("対象が戦闘中", "target still in the battle"),
    ("対象が不在", "target no longer in the battle"),
)
def _target_gone(board: Board, item: ChainItem, unit: Unit) -> bool:
    target = board.table.units.look(item.target or "")
    return target is not None and not board.in_battle(target)


@recheck(
    "partner_left",
    "partner_in_party",
    ("同調相手が同じパーティー", "【同調】 partner in the same party"),
    ("同調相手が不在", "【同調】 partner left the party"),
    clause="SYNC-1",
)
def _partner_left(board: Board, item: ChainItem, unit: Unit) -> bool:
    ability = board.ability_of(item)
    return bool(ability and ability.sync and not board.partner(unit, ability.sync))


@recheck(
    "part_gone",
    "promised_parts_there",
    ("約束した代償がある", "promised 代償 still there"),
    ("約束した代償がない", "a promised part of its 代償 is gone"),
    clause="COST-5",
)
def _part_gone(board: Board, item: ChainItem, unit: Unit) -> bool:
    # variant part_gone_at_resolution=fizzles: a 代償 paid at resolution needs what it promised
    if board.variants.part_gone_at_resolution != "fizzles" or item.taken:
        return False
    t = board.table
    parts = flat(parts_of(board.spec_of(item), board.ability_of(item)))
    for part, x in zip(parts, item.chosen, strict=False):
        piece = t.units.get(x) if part.kind.take == "unit" else t.cards.get(x)
        if piece is None or piece.zone != part.kind.source:
            return True
    return False
