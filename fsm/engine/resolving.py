"""What the steps of an item's procedure do on the table: pay or hold its price, roll its dice,
wait on the chain, apply its effects, release what it held, settle its outcome; and what
leaving the field or being equipped carries with it (EQ-1).

The procedure machine (:mod:`fsm.machines.procedures`) says when each runs; :class:`Resolving` does it.
The engine answers the machine's :class:`fsm.table.protocol.ProcedureHost` with these.
"""

from __future__ import annotations

from fsm.engine.seat import Driver
from fsm.i18n import _
from fsm.machines.chain import priority
from fsm.spec import prices, resolutions
from fsm.spec.effects import lapse_partnerless
from fsm.table.model import Card, ChainItem, Outcome, Unit


class Resolving:
    """The work of a procedure's steps (ACT-7, COST-3, SC-4, SC-7, EQ-1, TIM-CTR-2)."""

    def __init__(self, game: Driver) -> None:
        self.game = game

    def pay_price(self, item: ChainItem) -> None:
        prices.pay(self.game, item, self.game.board.spec_of(item))

    def reserve(self, item: ChainItem) -> None:
        prices.hold(self.game, item, self.game.board.spec_of(item))

    def act_in_normal_timing(self, item: ChainItem) -> None:
        """A skill card declared in its player's normal timing is that unit's act (FLOW-NORMAL)."""
        game = self.game
        u = game.table.units.get(item.unit or "")
        if u is None or not game.variants.normal_action_acts or game.point(item.declarer).action != "own_normal":
            return
        u.acted = True
        game.note(_("{unit} acts in this normal timing and becomes 行動完了").format(unit=u.name), "FLOW-NORMAL")

    def roll_dice(self, item: ChainItem) -> None:
        source = self.game.source_of(item)
        if source and source.dice:
            item.dice = self.game.table.roll_die()
            self.game.note(
                _("dice for #{seq}: {dice}").format(seq=item.seq, dice=item.dice),
                self.game.board.spec_of(item).clause("declare"),
            )

    def apply_effect(self, item: ChainItem) -> None:
        resolutions.resolve(self.game, item, self.game.board.spec_of(item))
        if self.game.variants.sync_battle_auto_partner_left == "lapses":
            lapse_partnerless(self.game)

    def release(self, item: ChainItem) -> None:
        game = self.game
        spec = game.board.spec_of(item)
        prices.release(game, item, spec)
        u = game.table.units.get(item.unit or "")
        if u is not None and spec.once_while_unacted and not game.variants.fizzled_action_uses_chance:
            u.declared = u.declared - {item.source}

    def open_window(self, item: ChainItem) -> None:
        t = self.game.table
        answering = bool(t.chain) and priority(t) is not None
        t.chain.append(item)
        quiet = self.game.quiet  # nobody reads the line: not worded
        self.game.send_chain(
            "counter" if answering else "open_window",
            "" if quiet else _("{opponent} may counter first").format(opponent=t.opponent(item.declarer)),
            "TIM-CTR-2" if answering else self.game.board.spec_of(item).clause("window"),
        )

    def settled(self, item: ChainItem) -> None:
        """The item reached 発動 or 不発: record the outcome; a card on the chain goes to the graveyard."""
        t = self.game.table
        result, clause, why = item.outcome
        t.outcomes.append(Outcome(item.seq, item.kind, item.source, item.unit, result, clause, why))
        t.resolution_order.append(item.seq)
        card = t.cards.get(item.source)
        if card is not None and card.zone == "chain":
            card.zone = "graveyard"
            if not self.game.quiet:
                self.game.note(_("{card} goes to the graveyard").format(card=card.name), clause)
        self.drop_unheld_equips()  # before the next item's recheck counts what the equips hold

    # ------------------------------------------------------------------ what goes with a unit or a card
    def leave_field(self, u: Unit, zone: str, destroyed: bool = False, discarded: bool = False) -> None:
        u.zone = zone
        u.destroyed = u.destroyed or destroyed
        u.discarded = u.discarded or discarded
        cards = self.game.table.cards
        for seen in list(cards.peek()):  # a card is copied only when it changes (fsm/table/sharing.py)
            if seen.zone == "equipped" and seen.equipped_to == u.id:
                c = cards[seen.id]
                c.zone, c.equipped_to = "graveyard", None
                self.game.note(_("{card} leaves with {unit} and is discarded").format(card=c.name, unit=u.name), "EQ-1")

    def equip(self, card: Card, u: Unit) -> None:
        card.zone, card.equipped_to = "equipped", u.id
        self.game.note(
            _("{card} is equipped on {unit} and holds {condition} while equipped").format(
                card=card.name, unit=u.name, condition=card.condition
            ),
            "EQ-1",
        )

    def drop_unheld_equips(self) -> None:
        """Variant equip_without_skill=discarded: an equip whose held skill is gone is discarded (EQ-1).

        Asked after each resolution (a strip, a 【同調】 partner leaving), so the next recheck already
        counts without it, and after every move (a lapsed [戦闘] grant at battle end, a summon)."""
        game = self.game
        if game.variants.equip_without_skill != "discarded":
            return
        for u in game.table.units.values():
            for seen, part in game.board.equip_holds(u):
                if part != seen.condition.needs:
                    card = game.table.cards[seen.id]  # equip_holds gives the cards as they are: copied to write
                    card.zone, card.equipped_to = "graveyard", None
                    game.note(
                        _(
                            "{card} no longer holds its condition {condition} on {unit} and is discarded "
                            "(variant equip_without_skill)"
                        ).format(card=card.name, condition=card.condition, unit=u.name),
                        "EQ-1",
                    )
