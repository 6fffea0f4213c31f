"""What each move does, once legality has allowed it: one ``do_<verb>`` per verb.

A declared move (attack, use, activate, a designer's equip with a window) becomes a chain item
handed to its procedure; a pass answers the counter window or ends the player's step, and the
flow's and the chain's transitions say where that leads.
"""

from __future__ import annotations

from fsm.engine.declaring import price_choice
from fsm.engine.resolving import Resolving
from fsm.engine.seat import Driver
from fsm.i18n import _
from fsm.machines.chain import priority
from fsm.spec.kinds import KindSpec
from fsm.table.model import Battle, ChainItem
from fsm.table.moves import Move


class Play:
    """The moves of the game (FLOW-ADV, FLOW-QS, FLOW-FORM, FLOW-ATK, SC-4, AB-1, EQ-1, QS-1)."""

    def __init__(self, game: Driver, resolving: Resolving) -> None:
        self.game = game
        self.resolving = resolving

    def do(self, m: Move) -> None:
        getattr(self, f"do_{m.verb}")(m)
        self.resolving.drop_unheld_equips()

    def do_pass(self, m: Move) -> None:
        """A pass answers the counter window if one is open, else ends the player's step: the
        flow's transitions say where that leads (TIM-CTR-2, FLOW-*, TIM-MF)."""
        game = self.game
        if priority(game.table) is not None:
            # the lines here are worded only when narrated: the explorer's passes are not
            text = "" if game.quiet else _("{player} passes").format(player=m.player)
            game.send_chain("pass_priority", text, "TIM-CTR-2")
            if game.table.chain_state == "resolving":
                self.resolve_chain()
            return
        game.send_flow("pass_")

    def do_advance(self, m: Move) -> None:
        game = self.game
        t = game.table
        u = game.board.unit(m.unit)
        geo = t.geos[m.target or ""]
        origin, u.geo = u.geo, geo.name
        if game.variants.advance_marches:
            u.marched = True
        if geo.holder is not None and geo.holder != m.player:
            # every unit at the geo takes part, as in a battle a scenario's start: sets up (FLOW-ADV);
            # after a drawn battle that includes units of the advancing side (drawn_battle_advancers=stay)
            present = [x.id for x in t.units.values() if x.id != u.id and x.geo == geo.name and x.on_field]
            t.battle = Battle(
                geo.name, advancing=m.player, defending=geo.holder, participants=[u.id, *present], origin=origin
            )
            game.send_flow(
                "advance",
                _("{unit} advances into {geo}, held by {holder}: battle").format(
                    unit=u.name, geo=geo.name, holder=geo.holder
                ),
                "FLOW-ADV",
            )
        else:
            geo.holder = m.player
            game.note(_("{unit} moves to {geo}").format(unit=u.name, geo=geo.name), "FLOW-ADV")

    def do_summon(self, m: Move) -> None:
        game = self.game
        b = game.table.battle
        assert b is not None
        u = game.board.unit(m.unit)
        u.zone, u.geo = "field", b.geo
        if u.id not in b.participants:  # summoned again after an effect sent it back to the hand
            b.participants.append(u.id)
        game.note(_("{unit} is quick-summoned into the battle").format(unit=u.name), "FLOW-QS")
        if game.variants.quick_summoned_battle_autos == "on_summon":
            game.steps.battle_start([u])

    def do_equip(self, m: Move) -> None:
        card, u = self.game.board.card(m.card), self.game.board.unit(m.unit)
        spec = self.game.rules.kind_for(m.verb)
        if spec.opens_window:
            # a designer's rules: the equip is declared, may be answered, and is rechecked
            card.zone = "chain"
            self.declare(m, spec, source=card.id)
            return
        self.resolving.equip(card, u)  # the rules page: no window, it takes effect at once (EQ-1)

    def do_unequip(self, m: Move) -> None:
        card = self.game.board.card(m.card)
        card.zone, card.equipped_to = "graveyard", None
        self.game.note(_("{card} is taken off and discarded; its skills are free again").format(card=card.name), "EQ-1")

    def do_reveal(self, m: Move) -> None:
        card = self.game.board.card(m.card)
        card.zone = "revealed"
        self.game.note(
            _("{card} is revealed: it may be used in this battle, and is discarded after it").format(card=card.name),
            "QS-1",
        )

    def do_front(self, m: Move) -> None:
        b = self.game.table.battle
        assert b is not None
        u = self.game.board.unit(m.unit)
        b.front[m.player] = u.id
        self.game.note(
            _("{unit} takes the front of {player}'s formation").format(unit=u.name, player=m.player), "FLOW-FORM"
        )

    def do_attack(self, m: Move) -> None:
        # the attack is its own source, and what a counter to it is during (TIM-SPD's `during`)
        self.declare(m, self.game.rules.kind_for(m.verb), source=m.verb, during=m.verb)

    def do_activate(self, m: Move) -> None:
        u = self.game.board.unit(m.unit)
        ab = next(a for a in u.abilities if a.name == m.ability)
        spec = self.game.rules.kind(ab.kind, sync=ab.sync is not None)
        chosen, _refused = price_choice(self.game, m, spec, u, ab)  # legality has allowed it
        u.declared = u.declared | {ab.name}
        self.declare(m, spec, source=ab.name, chosen=chosen)

    def do_use(self, m: Move) -> None:
        card = self.game.board.card(m.card)
        card.zone = "chain"
        self.declare(m, self.game.rules.kind_for(m.verb), source=card.id)

    # ------------------------------------------------------------------ declared: onto the chain
    def declare(
        self, m: Move, spec: KindSpec, source: str, during: str | None = None, chosen: tuple[str, ...] = ()
    ) -> None:
        game = self.game
        t = game.table
        top = t.chain[-1] if t.chain and priority(t) is not None else None
        if during is None:
            during = top.during if top else ("speed" if game.flow.at("speed") else "any")
        item = ChainItem(
            t.next_seq,
            spec.key,
            m.player,
            m.unit,
            source,
            m.target,
            top.seq if top else None,
            during=during,
            chosen=chosen,
        )
        t.next_seq += 1
        # No window: it is over at once.  Declared with nothing pending, that is as a chain that
        # resolved; as an answer, the window it answered stays open.
        if not game.start(item) and not t.chain:
            self.after_chain()

    def resolve_chain(self) -> None:
        """Both players passed: resolve newest first, each with its own recheck (TIM-CTR-3)."""
        game = self.game
        t = game.table
        while t.chain_state == "resolving":
            game.resolve_item(t.chain.pop())
            text = "" if game.quiet else _("next item") if t.chain else _("chain resolved")
            game.send_chain("resolve_next", text, "TIM-CTR-3")
        if t.chain_state == "empty":
            self.after_chain()

    def after_chain(self) -> None:
        """The chain has resolved: the flow's transitions say what comes next (FLOW-SPD, FLOW-NORMAL)."""
        self.game.table.main_reply = (
            False  # once a chain has resolved, the main phase's own player decides again (TIM-MF)
        )
        self.game.send_flow("chain_resolved")
