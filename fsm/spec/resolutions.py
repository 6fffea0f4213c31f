"""What resolving a procedure does, by its category (``category = "attack"``): one entry each.

Every procedure ends in step 4, resolve (ACT-7, COST-6, SD-7, SC-7).  What happens then depends
on what the item is: an ability's or a skill card's effects happen (fsm/spec/effects.py), an attack
has its outcome (FLOW-ATK), an equip is attached (EQ-1), and the speed roll's result is read by
the flow once the chain is over (FLOW-SPD).  The categories a kind file may name are the words
of :data:`CATEGORIES`.
"""

from __future__ import annotations

from collections.abc import Callable

from fsm.i18n import N_, _
from fsm.rules.vocab import Registry
from fsm.spec import effects
from fsm.table.model import ChainItem
from fsm.table.protocol import Board, Spec

#: What resolving an item of a category does.
ResolveFn = Callable[[Board, ChainItem, Spec], None]

CATEGORIES: Registry[ResolveFn] = Registry(N_("category"))


def _effects_happen(board: Board, item: ChainItem, spec: Spec) -> None:
    """The card's or ability's effects, in order, unless its dice rolled too low."""
    source = board.source_of(item)
    if source is None:
        return
    if source.min_roll and (item.dice or 0) < source.min_roll:
        too_low = _("dice {dice} is below {min_roll}: no effect").format(dice=item.dice, min_roll=source.min_roll)
        board.note(too_low, spec.clause("resolve"))
        return
    for eff in source.effect:
        effects.resolve(board, eff, item, spec.clause("resolve"))


CATEGORIES.register("ability", ja="特殊能力", en="a special ability", clause="AB-1")(_effects_happen)
CATEGORIES.register("skill", ja="スキルカード", en="a skill card", clause="SC-7")(_effects_happen)


@CATEGORIES.register("attack", ja="攻撃", en="an attack", clause="FLOW-ATK")
def _attack(board: Board, item: ChainItem, spec: Spec) -> None:
    target = board.table.units.get(item.target or "")
    if target and board.variants.attack_outcome == "destroy_target" and target.on_field:
        board.note(_("the attack destroys {unit} (撃破)").format(unit=target.name), "FLOW-ATK")
        board.leave_field(target, "graveyard", destroyed=True)


@CATEGORIES.register("speed_roll", ja="スピード決定", en="the speed dice result", clause="FLOW-SPD")
def _speed_roll(board: Board, item: ChainItem, spec: Spec) -> None:
    return None  # the flow reads the dice once the chain is over (FLOW-SPD)


@CATEGORIES.register("equip", ja="イクイップ", en="an equip", clause="EQ-1")
def _equip(board: Board, item: ChainItem, spec: Spec) -> None:
    board.equip(board.table.cards[item.source], board.table.units[item.unit or ""])


def resolve(board: Board, item: ChainItem, spec: Spec) -> None:
    """Step 4: what the item does, by its category."""
    CATEGORIES[spec.category].function(board, item, spec)
