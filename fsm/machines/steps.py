"""The battle's steps: what entering a step of the game flow does, and what a pass there means.

:class:`BattleSteps` is the :class:`fsm.machines.battle.GameFlow` machine's listener: python-statemachine
resolves the flow's guards (``battle_over``, ``tied`` ...), its transition actions
(``next_step``, ``speed_decided`` ...) and its states' entries (``on_enter_battle``,
``on_enter_speed``, ``on_enter_battle_end``) here.  So the machine decides where the game goes;
this object does the work of getting there:

* entering ``battle``: the [戦闘] autos of the participants take effect (AUTO-2, AUTO-3);
* entering ``speed``: the dice are rolled and the result stands on the chain (FLOW-SPD, TIM-SPD);
* entering ``battle_end``: the clean-up (FLOW-CLEANUP), then on to the main phase.

The flow's lines in the log are written by the transition actions, before the entered state's
own work, each saying which configuration it leads to.  It depends on the small
:class:`FlowHost` below, not on the engine.
"""

from __future__ import annotations

from typing import Any, Protocol

from statemachine import State

from fsm.i18n import N_, _
from fsm.machines.battle import GameFlow
from fsm.machines.trace import FLOW, Trace, capture
from fsm.rules.skills import NO_SKILLS
from fsm.rules.variants import Variants
from fsm.spec.board import OnTable
from fsm.spec.effects import lasting_speed
from fsm.spec.ruleset import Ruleset
from fsm.table.model import Battle, ChainItem, Table, Unit


class FlowHost(Protocol):
    """The game as the battle's steps see it."""

    table: Table
    rules: Ruleset
    variants: Variants
    flow: GameFlow
    board: OnTable

    @property
    def quiet(self) -> bool: ...

    def note(
        self, text: str, clause: str, machine: str = "", entered: tuple[str, ...] = (), trace: Trace | None = None
    ) -> None: ...
    def start(self, item: ChainItem, told: dict[str, tuple[str, str]] | None = None) -> bool: ...
    def acted(self, unit: Unit) -> bool: ...


class BattleSteps:
    """The work of the game flow's states and transitions (FLOW-*, TIM-MF, MAR-1)."""

    def __init__(self, host: FlowHost) -> None:
        self.host = host

    # ------------------------------------------------------------------ who acts
    def player(self, role: str | None) -> str | None:
        """The player a step's role (:data:`fsm.machines.battle.ACTS`) is on this table."""
        t = self.host.table
        b = t.battle
        if role == "main_phase" or (role is not None and b is None):
            return t.opponent(t.active) if t.main_reply else t.active
        if role is None or b is None:
            return None
        first, second = self._formation_order(b)
        return {
            "advancing": b.advancing,
            "defending": b.defending,
            "formation_first": first,
            "formation_second": second,
            "turn": b.turn,
        }[role]

    def _formation_order(self, b: Battle) -> tuple[str, str]:
        if self.host.variants.formation_order == "advancing_first":
            return b.advancing, b.defending
        return b.defending, b.advancing

    def _battle(self) -> Battle:
        b = self.host.table.battle
        assert b is not None, "a battle step runs only during a battle"
        return b

    def _narrate(self, text: str, clause: str, target: State, transition: Any) -> None:
        """The flow's own line: what the transition means, where it leads, and its trace."""
        if self.host.quiet:
            return  # nobody reads it: no trace taken (1.5 % of exploring)
        landing = GameFlow.landing(target)
        trace = capture(self.host.table, FLOW, str(transition.event), (transition.source.id,), flow=landing)
        self.host.note(text, clause, machine="GameFlow", entered=landing, trace=trace)

    # ------------------------------------------------------------------ the main phase (TIM-MF)
    def reply_first(self) -> bool:
        """Variant mf_cards_in=any_main_phase: the other player may still reply before the phase ends."""
        return self.host.variants.mf_cards_in == "any_main_phase" and not self.host.table.main_reply

    def offer_reply(self) -> None:
        t = self.host.table
        t.main_reply = True
        self.host.note(
            _(
                "{active} is done; before the main phase ends, {opponent} may use an [ＭＦ] "
                "card or pass (variant mf_cards_in=any_main_phase)"
            ).format(active=t.active, opponent=t.opponent(t.active)),
            "TIM-MF",
        )

    def end_turn(self, target: State, transition: Any) -> None:
        """What the end of a main phase ends; then it is the other player's main phase."""
        t, variants = self.host.table, self.host.variants
        t.main_reply = False
        ending = t.active
        for u in t.units.values():
            if u.skills.consumed and variants.skills_used_outside_battle_return == "end_of_main_phase":
                u.skills = u.skills.replacing(consumed=NO_SKILLS)
                self.host.note(_("{unit}'s skills used in the main phase come back").format(unit=u.name), "SC-3")
            if u.skills.granted and variants.skills_granted_outside_battle_lapse == "end_of_main_phase":
                # a battle's grants lapsed at its cleanup: what is left was granted in this main phase
                u.skills = u.skills.replacing(granted=NO_SKILLS)
                self.host.note(
                    _(
                        "skills granted to {unit} in the main phase lapse (variant skills_granted_outside_battle_lapse)"
                    ).format(unit=u.name),
                    "TIM-BTL",
                )
        t.active = t.opponent(ending)
        self._narrate(
            _("{ending} ends the main phase; {active}'s main phase").format(ending=ending, active=t.active),
            "TIM-MF",
            target,
            transition,
        )

    def begin_turn(self) -> None:
        """The new turn player's units: 進軍未完了 again (MAR-1), 行動未完了 again by variant.

        This is the turn change's own work, not the main phase's entry: coming back from a battle
        is still the same main phase."""
        t = self.host.table
        for u in t.units.values():
            if u.owner != t.active:
                continue
            self._unmarch(u)
            if u.acted and self.host.variants.reset_acted_in_owner_main_phase:
                u.acted = False
                self.host.note(
                    _("{unit} is 行動未完了 again: its owner's main phase begins").format(unit=u.name), "FLOW-CLEANUP"
                )

    def _unmarch(self, u: Unit) -> None:
        """The owner's next main phase: 進軍未完了 again, so its 【進軍】 may be declared again (MAR-1)."""
        u.marched = False
        for ab in u.abilities:
            if self.host.rules.kind(ab.kind, sync=ab.sync is not None).again_when_unmarched:
                u.declared = u.declared - {ab.name}

    # ------------------------------------------------------------------ battle start (AUTO-2, AUTO-3)
    def on_enter_battle(self) -> None:
        self.battle_start()

    def battle_start(self, units: list[Unit] | None = None) -> None:
        """[戦闘] autos take effect now, on participants only, and cannot be countered."""
        host = self.host
        for u in [host.table.units[p.id] for p in host.board.participants()] if units is None else units:
            for ab in u.abilities:
                spec = host.rules.kind(ab.kind, sync=ab.sync is not None)
                if spec.at_battle_start and ab.battle_only:
                    if ab.sync and not host.board.partner(u, ab.sync):
                        host.note(
                            _("{ability} of {unit} does not activate: no 【同調】 partner in its party").format(
                                ability=ab.name, unit=u.name
                            ),
                            "SYNC-1",
                        )
                        continue
                    item = ChainItem(host.table.next_seq, spec.key, u.owner, u.id, ab.name, None)
                    host.table.next_seq += 1
                    if ab.sync:
                        self._battle().synced.append((u.id, ab.name))  # variant sync_battle_auto_partner_left
                    activates = _("{label}[戦闘] {ability} of {unit} activates at battle start").format(
                        label=spec.label, ability=ab.name, unit=u.name
                    )
                    host.start(
                        item,
                        {
                            "declare": (activates, "AUTO-2"),
                            "skip_window": (_("no counter window: a [戦闘] auto cannot be countered"), "AUTO-3"),
                        },
                    )

    # ------------------------------------------------------------------ quick summon and formation
    def next_step(self, target: State, transition: Any) -> None:
        self._narrate(_("next quick-summon step"), "FLOW-QS", target, transition)

    def to_formation(self, target: State, transition: Any) -> None:
        self._narrate(_("quick-summon timing over: formation"), "FLOW-QS", target, transition)

    def next_side(self, target: State, transition: Any) -> None:
        self._narrate(_("the other side sets its formation"), "FLOW-FORM", target, transition)

    def to_speed(self, target: State, transition: Any) -> None:
        self._narrate(_("formation set: speed determination"), "FLOW-FORM", target, transition)

    # ------------------------------------------------------------------ speed (FLOW-SPD, TIM-SPD)
    def on_enter_speed(self, source: State | None = None) -> None:
        """Roll the speed dice, each side adding its front unit's speed (FLOW-SPD), and put the
        result on the chain. Only the front-unit part is set here: [戦闘] modifiers (TIM-BTL) and
        answers to earlier dice (TIM-SPD) are kept apart on the battle and still count.

        Staying in speed (a re-roll, a new result offered) is a self-transition that re-enters the
        state: that is not a new speed determination, so nothing is rolled from scratch."""
        if source is not None and source.id == "speed":
            return
        t = self.host.table
        b = self._battle()
        for p in t.players:
            front = b.front.get(p) or next((u.id for u in self.host.board.participants() if u.owner == p), None)
            unit = t.units[front] if front else None
            bonus = unit.speed + lasting_speed(self.host.board.continuous_effects(unit)) if unit else 0
            b.front_speed[p] = bonus
            b.dice[p] = t.roll_die()
        self.host.note(_("speed dice: {speed_text}").format(speed_text=self.speed_text()), "FLOW-SPD")
        self.offer_speed_result()

    def reroll(self, clause: str) -> None:
        """The speed dice are rolled again, by a tie (FLOW-SPD) or an effect: both alike (variants
        reroll_keeps_speed_modifiers, reroll_answerable)."""
        t = self.host.table
        b = self._battle()
        if b.roll_mod and not self.host.variants.reroll_keeps_speed_modifiers:
            b.roll_mod.clear()
            self.host.note(_("the re-roll drops the speed changes made in answer to the dice"), "FLOW-SPD")
        for p in t.players:
            b.dice[p] = t.roll_die()
        self.host.note(_("the speed dice are rolled again: {speed_text}").format(speed_text=self.speed_text()), clause)

    def offer_speed_result(self) -> None:
        """The dice result stands on the chain, and [反撃：スピード限定] may answer it (TIM-SPD)."""
        t = self.host.table
        b = self._battle()
        a, d = b.advancing, b.defending
        totals = b.totals()
        if self.host.variants.speed_window_first == "defending" or totals[a] == totals[d]:
            leader = a
        else:
            leader = max((a, d), key=lambda p: totals[p])
        kind = self.host.rules.kind_for("roll_speed").key  # which kind the dice result is: data (FLOW-SPD)
        roll = ChainItem(t.next_seq, kind, leader, None, source="speed", during="speed")
        t.next_seq += 1
        told = {
            "declare": (_("the dice result stands on the chain"), "FLOW-SPD"),
            "open_window": (_("[反撃：スピード限定] may answer the dice result"), "TIM-SPD"),
        }
        if not self.host.start(roll, told):  # a designer's roll nobody may answer stands at once
            self.host.flow.send("chain_resolved")  # queued: the flow decides once this step is done

    def speed_text(self) -> str:
        b = self._battle()
        return ", ".join(f"{p} {b.dice[p]}{b.modifier(p):+d} = {b.totals()[p]}" for p in self.host.table.players)

    def dice_rerolled(self) -> bool:
        return self._battle().rerolled

    def offer_result(self) -> None:
        self._battle().rerolled = False  # the re-rolled dice are a new result, answerable as the first was
        self.offer_speed_result()

    def tied(self) -> bool:
        b = self._battle()
        totals = b.totals()
        return totals[b.advancing] == totals[b.defending]

    def tie_rerolls(self) -> bool:
        return self.host.variants.speed_tie == "reroll"

    def reroll_tie(self) -> None:
        self.host.note(_("tie ({speed_text}): roll again").format(speed_text=self.speed_text()), "FLOW-SPD")
        self.reroll("FLOW-SPD")
        if self.host.variants.reroll_answerable:
            self.offer_speed_result()
        else:
            # nothing may answer the new dice: they stand at once, as if their window had closed
            # (queued: the flow runs it once this transition is done)
            self.host.flow.send("chain_resolved")

    def speed_decided(self, target: State, transition: Any) -> None:
        b = self._battle()
        totals = b.totals()
        a, d = b.advancing, b.defending
        if totals[a] == totals[d]:
            first = a if self.host.variants.speed_tie == "advancing_first" else d
        else:
            first = max((a, d), key=lambda p: totals[p])
        b.first = b.turn = first
        self._narrate(
            _("{speed_text}: {first} is first (先攻)").format(speed_text=self.speed_text(), first=first),
            "FLOW-SPD",
            target,
            transition,
        )

    # ------------------------------------------------------------------ normal timings (FLOW-NORMAL, FLOW-END)
    def _can_act(self, player: str) -> bool:
        return any(u.owner == player and not self.host.acted(u) for u in self.host.board.participants())

    def _end_reason(self) -> str:
        """Why the battle is over (FLOW-END), or "" while it goes on."""
        if len({u.owner for u in self.host.board.participants()}) < 2:
            return _("one side has no units left in the battle")
        if not any(self._can_act(p) for p in self.host.table.players):
            return _("no unit on either side can act")
        return ""

    def battle_over(self) -> bool:
        return bool(self._end_reason())

    def both_passed(self) -> bool:
        """Variant battle_ends_on_double_pass: this pass follows a normal timing that was passed too."""
        return self.host.variants.battle_ends_on_double_pass and self._battle().passes >= 1

    def count_pass(self) -> None:
        self._battle().passes += 1

    def reset_passes(self) -> None:
        self._battle().passes = 0

    def next_timing(self, target: State, transition: Any) -> None:
        b = self._battle()
        b.turn = self.host.table.opponent(b.turn or b.advancing)
        self._narrate(_("{turn}'s normal timing").format(turn=b.turn), "FLOW-NORMAL", target, transition)

    def end_battle(self, target: State, transition: Any) -> None:
        if self.host.quiet:
            return  # its line is all it does: nobody reads it, so the reason is not worked out
        reason = self._end_reason() or _("both players passed their normal timings")
        self._narrate(_("battle ends: {reason}").format(reason=reason), "FLOW-END", target, transition)

    # ------------------------------------------------------------------ battle end (FLOW-CLEANUP)
    def on_enter_battle_end(self) -> None:
        self.cleanup()
        self.host.flow.send("cleanup")  # queued: on to the main phase once battle_end is entered

    def cleanup(self) -> None:
        """What lapses, comes back or is discarded when the battle is over; who takes the geo."""
        clean_up(self.host, self._battle())

    def to_main_phase(self, target: State, transition: Any) -> None:
        self._narrate(_("back to the main phase"), "FLOW-CLEANUP", target, transition)


#: What the clean-up says when it puts back a unit's field a 【自動】[戦闘] changed (fsm.spec.effects.remember).
LAPSED = {
    "party": N_("[戦闘] effects on {unit} lapse: it is back in its party {party}"),
    "acted": N_("[戦闘] effects on {unit} lapse: it is 行動未完了 again"),
}


def clean_up(host: FlowHost, b: Battle) -> None:
    """What lapses, comes back or is discarded when the battle is over; who takes the geo."""
    t = host.table
    variants = host.variants
    for (uid, name), value in b.restore.items():
        u = t.units[uid]
        if u.on_field and getattr(u, name) != value:
            setattr(u, name, value)
            host.note(_(LAPSED[name]).format(unit=u.name, party=value), "TIM-BTL")
    for seen in list(t.units.peek()):  # a unit is copied only when something of it changes
        granted, consumed = bool(seen.skills.granted), bool(seen.skills.consumed)
        unacted = variants.reset_acted_at_battle_end and seen.acted
        if not (granted or consumed or unacted or seen.declared):
            continue
        u = t.units[seen.id]
        if granted:
            u.skills = u.skills.replacing(granted=NO_SKILLS)
            if not host.quiet:  # nobody reads the line: not worded
                host.note(_("[戦闘] effects on {unit} lapse").format(unit=u.name), "TIM-BTL")
        if consumed:
            u.skills = u.skills.replacing(consumed=NO_SKILLS)
            if not host.quiet:
                host.note(_("{unit}'s used skills come back").format(unit=u.name), "SC-3")
        if unacted:
            u.acted = False
        u.declared = frozenset()
    for c in [t.cards[c.id] for c in t.cards.peek() if c.quick_summon and c.zone == "revealed"]:
        c.zone = "graveyard"
        host.note(
            _("{card} was declared at the quick-summon timing and is discarded after the battle").format(card=c.name),
            "QS-3",
        )
    geo = t.geos[b.geo]
    left = {u.owner for u in host.board.participants()}
    if left == {b.advancing}:
        geo.holder = b.advancing
        host.note(_("{advancing} takes {geo}").format(advancing=b.advancing, geo=geo.name), "FLOW-END")
    elif b.advancing in left and b.origin and variants.drawn_battle_advancers == "return":
        for p in host.board.participants():
            if p.owner == b.advancing:
                u = t.units[p.id]
                u.geo = b.origin
                host.note(
                    _("{unit} did not take {geo} and goes back to {origin}").format(
                        unit=u.name, geo=geo.name, origin=b.origin
                    ),
                    "FLOW-END",
                )
    t.battle = None
