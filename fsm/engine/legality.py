"""Legality: is a move allowed now, and if not, which clause forbids it.

One checker per verb (``check_pass`` ... ``check_use``), each returning None or (clause,
message); the checks every declared procedure shares are :mod:`fsm.engine.declaring`.  A move by the
player who is not to move is judged first by its own rules, then by the flow (whose turn or
whose priority it is): :meth:`Legality.problem`.
"""

from __future__ import annotations

from fsm.engine.declaring import Problem, condition_problem, use_problem, wait_for_priority
from fsm.engine.seat import Seat
from fsm.errors import BadInput
from fsm.i18n import _, did_you_mean
from fsm.machines.chain import priority
from fsm.spec import paying
from fsm.table.moves import Move

#: The clause each verb's log line cites (a pass cites what it ends: :meth:`Legality.turn_clause`).
VERB_CLAUSES = {
    "advance": "FLOW-ADV",
    "summon": "FLOW-QS",
    "equip": "EQ-1",
    "unequip": "EQ-1",
    "reveal": "QS-1",
    "front": "FLOW-FORM",
    "attack": "FLOW-ATK",
    "use": "SC-4",
    "activate": "AB-1",
}

#: Moves of the quick-summon timing and the formation: no counter window is open there, unless a
#: designer's rules give an equip one.
OUT_OF_WINDOW = ("summon", "equip", "unequip", "reveal", "front")


class Legality:
    """One checker per verb; the first rule that forbids a move is its answer."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat

    def move_clause(self, m: Move) -> str:
        return VERB_CLAUSES.get(m.verb) or self.turn_clause()

    def turn_clause(self) -> str:
        """The flow clause saying whose turn it is here (what a pass ends or hands on)."""
        if priority(self.seat.table) is not None:
            return "TIM-CTR-2"
        for state, clause in (("main_phase", "TIM-MF"), ("quick_summon", "FLOW-QS"), ("formation", "FLOW-FORM")):
            if self.seat.flow.at(state):
                return clause
        return "FLOW-NORMAL"

    def problem(self, m: Move) -> Problem | None:
        """None if the move is legal now, else (clause, plain-English reason).

        A move by the player who is not to move is judged first by the rules of its own kind
        (MAR-1, TIM-MF, TIM-NORMAL, a counter's TIM-CTR-2, FLOW-ADV ...): the checkers look at the
        game from the mover's side.  Only a move those rules would allow is refused under the flow
        (whose turn or whose priority it is).
        """
        seat, t = self.seat, self.seat.table
        # an unknown unit, card or ability is a typo, not a rules question: BadInput propagates
        problem: Problem | None = getattr(self, f"check_{m.verb}")(m)
        if problem is not None:
            return problem
        if priority(t) is not None and m.verb in OUT_OF_WINDOW:
            # only a designer's rules open a window here (an equip with a counter window)
            return (
                "TIM-CTR-2",
                _("a counter window is open: {priority} may answer the pending item or pass").format(
                    priority=priority(t)
                ),
            )
        actor = seat.actor()
        if m.player == actor:
            return None
        if priority(t) is not None:
            return wait_for_priority(seat, m.player)
        return (
            self.turn_clause(),
            _("it is {actor}'s turn to act here ({flow_name}), not {player}'s").format(
                actor=actor, flow_name=seat.flow_name(), player=m.player
            ),
        )

    # ------------------------------------------------------------------ the flow's own moves
    def check_pass(self, m: Move) -> Problem | None:
        return None

    def check_advance(self, m: Move) -> Problem | None:
        seat, t = self.seat, self.seat.table
        u = seat.board.unit(m.unit)
        if not seat.flow.at("main_phase") or priority(t) is not None or t.active != m.player:
            return (
                "FLOW-ADV",
                _("{player}'s units advance only in {player}'s own main phase, with no window open").format(
                    player=m.player
                ),
            )
        if u.owner != m.player or not u.on_field:
            return ("FLOW-ADV", _("{unit} is not {player}'s unit on the field").format(unit=u.name, player=m.player))
        if m.target not in t.geos:
            return ("FLOW-ZONES", _("no geo {target!r}; geos: {geos}").format(target=m.target, geos=", ".join(t.geos)))
        if u.geo == m.target:
            return ("FLOW-ADV", _("{unit} is already at {target}").format(unit=u.name, target=m.target))
        if seat.variants.advance_marches and u.marched:
            return ("MAR-1", _("{unit} is already 進軍完了 and cannot advance again this turn").format(unit=u.name))
        return None

    def own_step(self, player: str, step: str) -> bool:
        """Is this ``player``'s side's own quick-summon step ``step`` (summon, equip or reveal)?"""
        b = self.seat.table.battle
        flow = self.seat.flow
        return b is not None and (
            (flow.at(f"advancing_{step}") and player == b.advancing)
            or (flow.at(f"defending_{step}") and player == b.defending)
        )

    def check_summon(self, m: Move) -> Problem | None:
        seat = self.seat
        u = seat.board.unit(m.unit)
        if not self.own_step(m.player, m.verb):
            return (
                "FLOW-QS",
                _("quick summons are made in steps 1 and 4 of the quick-summon timing, each side in its own step"),
            )
        b = seat.table.battle  # asked only once the flow is in a battle (the main phase has none)
        assert b is not None
        if u.owner != m.player or u.zone != "hand":
            return ("FLOW-QS", _("{unit} is not in {player}'s hand").format(unit=u.name, player=m.player))
        if not u.quick_summon:
            return ("FLOW-QS", _("{unit} is not a quick-summonable unit").format(unit=u.name))
        geo = seat.table.geos[b.geo]
        level = sum(x.level for x in seat.board.participants() if x.owner == m.player) + u.level
        if level > geo.limit:
            return (
                "FLOW-QS",
                _("{player}'s units would total level {level} at {geo}, over its リミット {limit}").format(
                    player=m.player, level=level, geo=geo.name, limit=geo.limit
                ),
            )
        return None

    def check_equip(self, m: Move) -> Problem | None:
        seat = self.seat
        card, u = seat.board.card(m.card), seat.board.unit(m.unit)
        if not self.own_step(m.player, m.verb):
            return (
                "FLOW-QS",
                _("equips are made in steps 2 and 5 of the quick-summon timing, each side in its own step"),
            )
        if card.type != "equip" or card.zone != "hand" or card.owner != m.player:
            return ("EQ-1", _("{card} is not an equip card in {player}'s hand").format(card=card.name, player=m.player))
        if u.owner != m.player or not seat.in_battle(u):
            return ("EQ-1", _("{unit} is not {player}'s unit in this battle").format(unit=u.name, player=m.player))
        return condition_problem(seat, card, u, "EQ-1")

    def check_unequip(self, m: Move) -> Problem | None:
        card = self.seat.board.card(m.card)
        if not self.own_step(m.player, "equip"):  # taken off in the step equips are made in
            return (
                "FLOW-QS",
                _("equips are taken off in steps 2 and 5 of the quick-summon timing, each side in its own step"),
            )
        if card.zone != "equipped" or card.owner != m.player:
            return (
                "EQ-1",
                _("{card} is not equipped on one of {player}'s units").format(card=card.name, player=m.player),
            )
        return None

    def check_reveal(self, m: Move) -> Problem | None:
        card = self.seat.board.card(m.card)
        if not self.own_step(m.player, m.verb):
            return (
                "QS-1",
                _(
                    "quick-summon-timing cards are revealed in steps 3 and 6 of the quick-summon timing, "
                    "each side in its own step"
                ),
            )
        if not card.quick_summon:
            return ("QS-1", _("{card} is not a card declared at the quick-summon timing").format(card=card.name))
        if card.zone != "hand" or card.owner != m.player:
            return ("QS-1", _("{card} is not in {player}'s hand").format(card=card.name, player=m.player))
        if self.seat.variants.quick_summon_reveal == "usable_only":
            users = [u for u in self.seat.board.participants() if u.owner == m.player]
            if not any(condition_problem(self.seat, card, u, "QS-1") is None for u in users):
                message = _(
                    "no unit of {player} in the battle can meet {card}'s condition {cond}, so it may not be "
                    "revealed (variant quick_summon_reveal=usable_only)"
                )
                return ("QS-1", message.format(player=m.player, card=card.name, cond=card.condition))
        return None

    def check_front(self, m: Move) -> Problem | None:
        seat = self.seat
        u = seat.board.unit(m.unit)
        if not seat.flow.at("formation") or m.player != seat.actor():
            return ("FLOW-FORM", _("the formation is set only in the formation step, each side in its turn"))
        if u.owner != m.player or not seat.in_battle(u):
            return ("FLOW-FORM", _("{unit} is not {player}'s unit in this battle").format(unit=u.name, player=m.player))
        b = seat.table.battle
        if b is not None and b.front.get(m.player) == u.id:
            return ("FLOW-FORM", _("{unit} is already at the front").format(unit=u.name))
        return None

    # ------------------------------------------------------------------ declared procedures
    def check_attack(self, m: Move) -> Problem | None:
        seat = self.seat
        spec = seat.rules.kind_for(m.verb)
        u, target = seat.board.unit(m.unit), seat.board.unit(m.target)
        b = seat.table.battle
        if not seat.flow.at("normal_timing") or priority(seat.table) is not None or b is None or b.turn != m.player:
            return (
                "FLOW-ATK",
                _("{player} attacks only in {player}'s own normal timing, with no window open").format(player=m.player),
            )
        if u.owner != m.player or not seat.in_battle(u):
            return (
                "FLOW-NORMAL",
                _("{unit} is not {player}'s unit in this battle").format(unit=u.name, player=m.player),
            )
        if seat.acted(u):
            return ("FLOW-NORMAL", _("{unit} is already 行動完了 and cannot attack").format(unit=u.name))
        if target.owner == m.player or not seat.in_battle(target):
            return (
                spec.clause("targets"),
                _("{target} is not an enemy unit in this battle").format(target=target.name),
            )
        return None

    def check_activate(self, m: Move) -> Problem | None:
        seat = self.seat
        u = seat.board.unit(m.unit)
        ab = next((a for a in u.abilities if a.name == m.ability), None)
        if ab is None:
            names = ", ".join(a.name for a in u.abilities) or "none"
            message = _("{unit} has no ability {ability!r}; its abilities: {names}").format(
                unit=u.name, ability=m.ability, names=names
            )
            raise BadInput(message + did_you_mean(m.ability, (a.name for a in u.abilities)))
        spec = seat.rules.kind(ab.kind, sync=ab.sync is not None)
        if u.owner != m.player:
            return (
                "AB-1",
                _("{unit} belongs to {owner}; only its owner uses its abilities").format(unit=u.name, owner=u.owner),
            )
        if spec.never_declared:
            return (
                "AUTO-1",
                _("{ability} is {label}: it takes effect by itself and is never declared").format(
                    ability=ab.name, label=spec.label
                ),
            )
        return use_problem(seat, m, spec, u, ab.timings or spec.default_timings, ab.target, ab)

    def check_use(self, m: Move) -> Problem | None:
        seat = self.seat
        card, u = seat.board.card(m.card), seat.board.unit(m.unit)
        spec = seat.rules.kind_for(m.verb)
        if card.type != "skill":
            return (
                "EQ-1",
                _("{card} is an equip card: it is equipped at the quick-summon timing, not used").format(
                    card=card.name
                ),
            )
        if card.owner != m.player or card.zone not in ("hand", "revealed"):
            return ("SC-4", _("{card} is not in {player}'s hand").format(card=card.name, player=m.player))
        if card.id in paying.promised(seat.table):
            return (
                "COST-3",
                _("{card} is promised to the 代償 of a pending declaration").format(card=card.name),
            )
        if card.quick_summon and card.zone != "revealed":
            return (
                "QS-1",
                _("{card} must first be revealed at the quick-summon timing before it can be used").format(
                    card=card.name
                ),
            )
        if u.owner != m.player:
            return ("SC-4", _("{unit} is not {player}'s unit").format(unit=u.name, player=m.player))
        problem = use_problem(seat, m, spec, u, card.timings, card.target, None)
        own_normal = seat.point(m.player).action == "own_normal"
        if problem is None and own_normal and seat.variants.normal_action_acts and seat.acted(u):
            problem = (
                "FLOW-NORMAL",
                _("{unit} is already 行動完了 and cannot act in this normal timing").format(unit=u.name),
            )
        if problem is None:
            problem = condition_problem(seat, card, u, "SC-4")
        return problem
