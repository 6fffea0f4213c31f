"""The engine: one small surface over the table and its state machines.

* :meth:`Game.legal_moves` — every move the rules allow now, as concrete moves;
* :meth:`Game.apply` — play one; a refused move raises :class:`RuleViolation` and changes
  nothing;
* :meth:`Game.why_not` — is this move legal, and if not, which clause forbids it;
* :meth:`Game.snapshot` / :meth:`Game.restore` — the whole table, for undo and exploring.

Widgets, scenarios, the explorer and the tests all use only these.  Every transition of
every machine is written to :attr:`Game.log` with the clause it follows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from . import effects, prices, resolutions
from .battle import GameFlow
from .chain import CounterChain
from .errors import BadInput, RuleViolation
from .kinds import WORDS, KindSpec
from .model import Ability, Battle, Card, ChainItem, Effect, Outcome, Table, Unit
from .moves import VERBS, Move, parse
from .procedures import Procedure, procedure_class
from .recheck import RECHECKS, failing
from .ruleset import Ruleset, builtin
from .skills import Condition, Pool, can_pay, coverable, fmt
from .steps import BattleSteps
from .timing import Point, TimingSpec, refusal_clause, use_as
from .variants import BY_NAME as VARIANT_SPECS
from .variants import Variants

Problem = tuple[str, str]  # (clause, message)


@dataclass(frozen=True)
class LogEntry:
    """One step of the narrative: what happened, which clause it follows, what was entered."""

    text: str
    clause: str
    machine: str = ""
    entered: tuple[str, ...] = ()
    move: str = ""


@dataclass(frozen=True)
class Verdict:
    legal: bool
    clause: str = ""
    message: str = ""

    def __str__(self) -> str:
        return "legal" if self.legal else f"illegal ({self.clause}): {self.message}"


@dataclass
class Snapshot:
    """A saved table and how long the log was: restoring it undoes everything since."""

    table: Table
    log_length: int


class Game:
    """A table plus the rules in force (kinds, timings, variants)."""

    def __init__(self, table: Table, rules: Ruleset | None = None, variants: Variants | None = None) -> None:
        self.table = table
        self.rules = rules or builtin()
        self.variants = variants or Variants()
        self.log: list[LogEntry] = []
        self._procedures: dict[KindSpec, Procedure] = {}
        self._current_move = ""  # the move being applied, stamped on its log lines
        self._told: dict[str, tuple[str, str]] = {}  # narration given by the caller of _start
        self.chain = CounterChain(self)
        self.steps = BattleSteps(self)
        self.flow = GameFlow(self, self.steps)

    # ------------------------------------------------------------------ public surface
    def actor(self) -> str | None:
        """The player who must decide now: the priority holder (read from the counter chain), else
        whoever owns the flow's step (read from its configuration, :data:`fsm.battle.ACTS`)."""
        holder = self.table.priority
        if holder is not None:
            return holder
        return self.steps.player(self.flow.role())

    def legal_moves(self) -> list[Move]:
        return [m for m in self._candidates() if self._problem(m) is None]

    def why_not(self, move: Move | str) -> Verdict:
        try:
            problem = self._problem(self._as_move(move))
        except BadInput as err:  # not a move on this table at all: no clause to cite
            return Verdict(False, "", err.message)
        return Verdict(True) if problem is None else Verdict(False, *problem)

    def apply(self, move: Move | str, atomic: bool = True) -> list[LogEntry]:
        """Play a move. Refused: :class:`RuleViolation`, and nothing changed.

        ``atomic=False`` skips the undo copy of the table: for a caller that already holds
        its own copy and throws the table away if the move fails (the explorer).
        """
        m = self._as_move(move)
        problem = self._problem(m)
        if problem is not None:
            raise RuleViolation(*problem)
        snap = self.snapshot() if atomic else None
        start = len(self.log)
        try:
            self._current_move = str(m)
            self._note(f"{m}", self._move_clause(m))
            self._do(m)
        except BaseException:
            if snap is not None:
                self.restore(snap)
            raise
        return self.log[start:]

    def snapshot(self) -> Snapshot:
        return Snapshot(self.table.copy(), len(self.log))

    def restore(self, snap: Snapshot) -> None:
        self.table = snap.table.copy()
        del self.log[snap.log_length :]

    def point(self, player: str | None = None) -> Point:
        """Where the game stands for ``player`` (by default the player to move), in the terms the
        timing table uses: the turn player's main phase is the other player's "opponent's main phase"."""
        t = self.table
        if t.chain and t.priority is not None:
            top = t.chain[-1]
            return Point("answering", answering=self.spec_of(top).category, during=top.during)
        own = player is None or player == self.actor()
        if self.flow.at("main_phase") and t.main_reply and own:
            return Point("opponent's main phase", action="opponent_main")
        if self.flow.at("main_phase"):
            return Point("own main phase", action="own_main") if own else Point("opponent's main phase")
        if self.flow.at("normal_timing"):
            return Point("own normal timing", action="own_normal") if own else Point("opponent's normal timing")
        return Point(self._flow_name())

    #: Where a table may start, as configurations of the GameFlow machine.
    STARTS = {
        "main_phase": ("main_phase",),
        "quick_summon": ("battle", "quick_summon", "advancing_summon"),
        "formation": ("battle", "formation", "first_side"),
        "speed": ("battle", "speed"),
        "normal_timing": ("battle", "normal_timing"),
    }

    def begin(self, at: str = "main_phase") -> None:
        """Put the flow at a starting point, running what entering it does (autos, dice)."""
        from statemachine.orderedset import OrderedSet

        if at not in self.STARTS:
            raise BadInput(f"cannot start at {at!r}; choose one of: {', '.join(self.STARTS)}")
        if at != "main_phase" and self.table.battle is None:
            raise BadInput(f"starting at {at} needs a battle (advancing, defending, geo)")
        self.table.flow_state = OrderedSet(self.STARTS[at])
        self._note(f"the game starts at: {self._flow_name()}", "FLOW-ZONES")
        for u in self.table.units.values():
            for ab in u.abilities:
                partnered = ab.sync is None or self._partner(u, ab.sync) is not None
                if u.on_field and ab.effect and self._is_continuous(ab) and partnered:
                    effects = ", ".join(map(str, ab.effect))
                    self._note(f"{ab.name} of {u.name} is always in effect ({effects})", "AUTO-4")
        for state_id in self.STARTS[at]:  # what entering each state does, as if the flow had gone there
            enter = getattr(self.steps, f"on_enter_{state_id}", None)
            if enter is not None:
                enter()

    # ------------------------------------------------------------------ helpers
    def _as_move(self, move: Move | str) -> Move:
        """The move as data, with its player filled in; a verb or player this table does not know
        is malformed input (BadInput), not a rules question."""
        m = parse(move) if isinstance(move, str) else move
        if m.verb not in VERBS:
            raise BadInput(f"unknown move {m.verb!r}; moves are: {', '.join(VERBS)}")
        if not m.player:
            m = Move(m.verb, self.actor() or "", m.card, m.ability, m.unit, m.target)
        players = " and ".join(self.table.players)
        if m.player not in self.table.players:
            raise BadInput(f"no player {m.player!r} on this table; players are {players} (names are case-sensitive)")
        return m

    def _flow_name(self) -> str:
        return " / ".join(str(v) for v in self.flow.configuration_values)

    def spec_of(self, item: ChainItem) -> KindSpec:
        """The procedure spec a chain item follows (its kind, wrapped in 【同調】 if it is one)."""
        sync = item.kind.startswith("sync_")
        return self.rules.kind(item.kind.removeprefix("sync_"), sync)

    def _procedure(self, spec: KindSpec) -> Procedure:
        proc = self._procedures.get(spec)
        if proc is None:
            proc = self._procedures[spec] = procedure_class(spec)(self)
        return proc

    def _start(self, item: ChainItem, told: dict[str, tuple[str, str]] | None = None) -> bool:
        """Hand a new item to its procedure, which takes it as far as it goes by itself: into its
        counter window, or (no window) through its recheck to 発動 / 不発.  ``told`` gives the
        narration of steps that read differently here (an auto at battle start, the speed dice).
        True if the item now waits on the chain."""
        spec = self.spec_of(item)
        self._told = told or {}
        try:
            self._procedure(spec).step(item, "activate" if spec.by_itself else "declare")
        finally:
            self._told = {}
        return item in self.table.chain

    def _note(self, text: str, clause: str, machine: str = "", entered: tuple[str, ...] = ()) -> None:
        self.log.append(LogEntry(text, clause, machine, entered, self._current_move))

    # What a price or an effect may ask of the game (fsm.protocol.Board): the registries
    # (fsm/prices.py, fsm/effects.py) call these, never the private methods.
    def note(self, text: str, clause: str) -> None:
        self._note(text, clause)

    def leave_field(self, unit: Unit, zone: str, destroyed: bool = False, discarded: bool = False) -> None:
        self._leave_field(unit, zone, destroyed, discarded)

    def reroll_speed(self, clause: str) -> None:
        self._reroll_speed(clause)

    def ability_of(self, item: ChainItem) -> Ability | None:
        return self._ability_of(item)

    def source_of(self, item: ChainItem) -> Card | Ability | None:
        return self._source_of(item)

    def equip(self, card: Card, unit: Unit) -> None:
        self._equip(card, unit)

    def _flow(self, event: str, text: str, clause: str) -> None:
        """Send a flow event whose line the engine words; it comes before what entering does."""
        at = len(self.log)
        self.flow.send(event)
        entered = tuple(str(v) for v in self.flow.configuration_values)
        self.log.insert(at, LogEntry(text, clause, "GameFlow", entered, self._current_move))

    def _chain_event(self, event: str, text: str, clause: str) -> None:
        self.chain.send(event)
        self._note(text, clause, machine="CounterChain", entered=(str(self.table.chain_state),))

    def _unit(self, uid: str | None) -> Unit:
        if uid is None or uid not in self.table.units:
            known = ", ".join(self.table.units) or "none"
            raise BadInput(f"no unit {uid!r} on this table; units: {known}")
        return self.table.units[uid]

    def _participants(self) -> list[Unit]:
        b = self.table.battle
        if b is None:
            return []
        return [self.table.units[u] for u in b.participants if self.table.units[u].on_field]

    def _in_battle(self, unit: Unit) -> bool:
        b = self.table.battle
        return b is not None and unit.id in b.participants and unit.on_field

    # ------------------------------------------------------------------ skills
    def _continuous_effects(self, unit: Unit) -> list[Effect]:
        """Effects of 【自動】 without [戦闘]: always in effect, in battle or not (AUTO-4);
        what each keeps doing is its word's ``lasting`` (fsm/effects.py).

        A 【同調】 one works only while its partner is in the same party (SYNC-1).
        """
        return [
            eff
            for ab in unit.abilities
            if self._is_continuous(ab)
            if ab.sync is None or self._partner(unit, ab.sync)
            for eff in ab.effect
        ]

    def _is_continuous(self, ab: Ability) -> bool:
        return self.rules.kinds[ab.kind].never_declared and not ab.battle_only

    def available(self, unit: Unit) -> Pool:
        """Skills the unit has now: base + grants − used this battle (SC-2) − what a continuous
        【自動】 takes away for as long as it is in effect (AUTO-4)."""
        gained, lost = effects.lasting_skills(self._continuous_effects(unit))
        total = unit.skills.base + unit.skills.granted + gained
        total.subtract(unit.skills.consumed)
        total.subtract(lost)
        return +total

    def acted(self, unit: Unit) -> bool:
        """行動完了: made so by acting or an effect, or held so by a continuous 【自動】 (AUTO-4)."""
        return unit.acted or effects.holds_acted(self._continuous_effects(unit))

    def holdings(self, unit: Unit) -> list[Pool]:
        """What is already held on this unit: pending skill uses (SC-4) and equips (EQ-1)."""
        held = [Counter(dict(i.reserved)) for i in self._pending_uses(unit)]
        return held + [part for _, part in self._equip_holds(unit)]

    def _equip_holds(self, unit: Unit) -> list[tuple[Card, Pool]]:
        """Each equip on the unit with the skills it holds: its condition's, as far as the unit still
        has them (EQ-1).  A held skill that is gone (stripped, a lapsed grant) is not held, so the
        unit's other skills stay free."""
        left = self.available(unit)
        out = []
        for card in self._equips_on(unit):
            part = coverable(left, card.condition.needs)
            left.subtract(part)
            out.append((card, part))
        return out

    def _drop_unheld_equips(self) -> None:
        """Variant equip_without_skill=discarded: an equip whose held skill is gone is discarded (EQ-1).

        Asked after each resolution (a strip, a 【同調】 partner leaving), so the next recheck already
        counts without it, and after every move (a lapsed [戦闘] grant at battle end, a summon)."""
        if self.variants.equip_without_skill != "discarded":
            return
        for u in self.table.units.values():
            for card, part in self._equip_holds(u):
                if part != card.condition.needs:
                    card.zone, card.equipped_to = "graveyard", None
                    self._note(
                        f"{card.name} no longer holds its condition {card.condition} on {u.name} and is discarded "
                        "(variant equip_without_skill)",
                        "EQ-1",
                    )

    def _pending_uses(self, unit: Unit) -> list[ChainItem]:
        return [i for i in self.table.chain if i.unit == unit.id and i.reserved]

    def _equips_on(self, unit: Unit) -> list[Card]:
        return [c for c in self.table.cards.values() if c.zone == "equipped" and c.equipped_to == unit.id]

    def holders(self, unit: Unit) -> str:
        names = [self.source_name(i) for i in self._pending_uses(unit)]
        return ", ".join(names + [c.name for c in self._equips_on(unit)])

    # ------------------------------------------------------------------ candidates
    def _candidates(self) -> Iterator[Move]:
        t = self.table
        actor = self.actor()
        if actor is None:
            return
        yield Move("pass", actor)
        own_units = [u for u in t.units.values() if u.owner == actor]
        targets = self._all_targets()
        if self.flow.at("quick_summon") and t.priority is None:  # an open window takes counters
            for u in own_units:
                if u.zone == "hand":
                    yield Move("summon", actor, unit=u.id)
            for c in t.cards.values():
                if c.owner != actor:
                    continue
                if c.type == "equip" and c.zone == "hand":
                    for u in own_units:
                        yield Move("equip", actor, card=c.id, unit=u.id)
                if c.zone == "equipped":
                    yield Move("unequip", actor, card=c.id)
                if c.quick_summon and c.zone == "hand":
                    yield Move("reveal", actor, card=c.id)
            return
        if self.flow.at("formation"):
            for u in own_units:
                yield Move("front", actor, unit=u.id)
            return
        if self.flow.at("main_phase") and t.priority is None:
            for u in own_units:
                for g in t.geos:
                    yield Move("advance", actor, unit=u.id, target=g)
        if self.flow.at("normal_timing") and t.priority is None:
            for u in own_units:
                for other in t.units.values():
                    if other.owner != actor:
                        yield Move("attack", actor, unit=u.id, target=other.id)
        for u in own_units:
            for ab in u.abilities:
                for tg in self._target_choices(ab.target, targets):
                    yield Move("activate", actor, ability=ab.name, unit=u.id, target=tg)
        for c in t.cards.values():
            if c.owner == actor and c.type == "skill" and c.zone in ("hand", "revealed"):
                for u in own_units:
                    for tg in self._target_choices(c.target, targets):
                        yield Move("use", actor, card=c.id, unit=u.id, target=tg)

    def _all_targets(self) -> dict[str, list[str]]:
        t = self.table
        return {
            "unit": [u.id for u in t.units.values() if u.on_field],
            "player": list(t.players),
            "geo": list(t.geos),
            "equip": [c.id for c in t.cards.values() if c.zone == "equipped"],
        }

    @staticmethod
    def _target_choices(kind: str, targets: dict[str, list[str]]) -> list[str | None]:
        if kind in targets:
            return list(targets[kind])
        return [None]

    # ------------------------------------------------------------------ legality
    def _move_clause(self, m: Move) -> str:
        return {
            "pass": self._turn_clause(),
            "advance": "FLOW-ADV",
            "summon": "FLOW-QS",
            "equip": "EQ-1",
            "unequip": "EQ-1",
            "reveal": "QS-1",
            "front": "FLOW-FORM",
            "attack": "FLOW-ATK",
            "use": "SC-4",
            "activate": "AB-1",
        }[m.verb]

    def _turn_clause(self) -> str:
        """The flow clause saying whose turn it is here (what a pass ends or hands on)."""
        if self.table.priority is not None:
            return "TIM-CTR-2"
        for state, clause in (("main_phase", "TIM-MF"), ("quick_summon", "FLOW-QS"), ("formation", "FLOW-FORM")):
            if self.flow.at(state):
                return clause
        return "FLOW-NORMAL"

    def _problem(self, m: Move) -> Problem | None:
        """None if the move is legal now, else (clause, plain-English reason).

        A move by the player who is not to move is judged first by the rules of its own kind
        (MAR-1, TIM-MF, TIM-NORMAL, a counter's TIM-CTR-2, FLOW-ADV ...): the checkers look at the
        game from the mover's side.  Only a move those rules would allow is refused under the flow
        (whose turn or whose priority it is).
        """
        t = self.table
        # an unknown unit, card or ability is a typo, not a rules question: BadInput propagates
        problem: Problem | None = getattr(self, f"_check_{m.verb}")(m)
        if problem is not None:
            return problem
        if t.priority is not None and m.verb in ("summon", "equip", "unequip", "reveal", "front"):
            # only a designer's rules open a window here (an equip with a counter window)
            return ("TIM-CTR-2", f"a counter window is open: {t.priority} may answer the pending item or pass")
        actor = self.actor()
        if m.player == actor:
            return None
        if t.priority is not None:
            return self._wait_for_priority(m.player)
        return (self._turn_clause(), f"it is {actor}'s turn to act here ({self._flow_name()}), not {m.player}'s")

    def _wait_for_priority(self, player: str) -> Problem:
        holder = self.table.priority
        return ("TIM-CTR-2", f"{holder} has priority in the counter window; {player} must wait for {holder} to pass")

    def _check_pass(self, m: Move) -> Problem | None:
        return None

    def _check_advance(self, m: Move) -> Problem | None:
        t = self.table
        u = self._unit(m.unit)
        if not self.flow.at("main_phase") or t.priority is not None or t.active != m.player:
            return ("FLOW-ADV", f"{m.player}'s units advance only in {m.player}'s own main phase, with no window open")
        if u.owner != m.player or not u.on_field:
            return ("FLOW-ADV", f"{u.name} is not {m.player}'s unit on the field")
        if m.target not in t.geos:
            return ("FLOW-ZONES", f"no geo {m.target!r}; geos: {', '.join(t.geos)}")
        if u.geo == m.target:
            return ("FLOW-ADV", f"{u.name} is already at {m.target}")
        if self.variants.advance_marches and u.marched:
            return ("MAR-1", f"{u.name} is already 進軍完了 and cannot advance again this turn")
        return None

    def _own_step(self, player: str, step: str) -> bool:
        """Is this ``player``'s side's own quick-summon step ``step`` (summon, equip or reveal)?"""
        b = self.table.battle
        return b is not None and (
            (self.flow.at(f"advancing_{step}") and player == b.advancing)
            or (self.flow.at(f"defending_{step}") and player == b.defending)
        )

    def _check_summon(self, m: Move) -> Problem | None:
        u = self._unit(m.unit)
        if not self._own_step(m.player, "summon"):
            return (
                "FLOW-QS",
                "quick summons are made in steps 1 and 4 of the quick-summon timing, each side in its own step",
            )
        b = self.table.battle  # asked only once the flow is in a battle (the main phase has none)
        assert b is not None
        if u.owner != m.player or u.zone != "hand":
            return ("FLOW-QS", f"{u.name} is not in {m.player}'s hand")
        if not u.quick_summon:
            return ("FLOW-QS", f"{u.name} is not a quick-summonable unit")
        geo = self.table.geos[b.geo]
        level = sum(x.level for x in self._participants() if x.owner == m.player) + u.level
        if level > geo.limit:
            return (
                "FLOW-QS",
                f"{m.player}'s units would total level {level} at {geo.name}, over its リミット {geo.limit}",
            )
        return None

    def _check_equip(self, m: Move) -> Problem | None:
        card, u = self._card(m.card), self._unit(m.unit)
        if not self._own_step(m.player, "equip"):
            return ("FLOW-QS", "equips are made in steps 2 and 5 of the quick-summon timing, each side in its own step")
        if card.type != "equip" or card.zone != "hand" or card.owner != m.player:
            return ("EQ-1", f"{card.name} is not an equip card in {m.player}'s hand")
        if u.owner != m.player or not self._in_battle(u):
            return ("EQ-1", f"{u.name} is not {m.player}'s unit in this battle")
        return self._condition_problem(card, u, "EQ-1")

    def _check_unequip(self, m: Move) -> Problem | None:
        card = self._card(m.card)
        if not self._own_step(m.player, "equip"):
            return (
                "FLOW-QS",
                "equips are taken off in steps 2 and 5 of the quick-summon timing, each side in its own step",
            )
        if card.zone != "equipped" or card.owner != m.player:
            return ("EQ-1", f"{card.name} is not equipped on one of {m.player}'s units")
        return None

    def _check_reveal(self, m: Move) -> Problem | None:
        card = self._card(m.card)
        if not self._own_step(m.player, "reveal"):
            return (
                "QS-1",
                "quick-summon-timing cards are revealed in steps 3 and 6 of the quick-summon timing, "
                "each side in its own step",
            )
        if not card.quick_summon:
            return ("QS-1", f"{card.name} is not a card declared at the quick-summon timing")
        if card.zone != "hand" or card.owner != m.player:
            return ("QS-1", f"{card.name} is not in {m.player}'s hand")
        return None

    def _check_front(self, m: Move) -> Problem | None:
        u = self._unit(m.unit)
        if not self.flow.at("formation") or m.player != self.actor():
            return ("FLOW-FORM", "the formation is set only in the formation step, each side in its turn")
        if u.owner != m.player or not self._in_battle(u):
            return ("FLOW-FORM", f"{u.name} is not {m.player}'s unit in this battle")
        b = self.table.battle
        if b is not None and b.front.get(m.player) == u.id:
            return ("FLOW-FORM", f"{u.name} is already at the front")
        return None

    def _card(self, cid: str | None) -> Card:
        if cid is None or cid not in self.table.cards:
            known = ", ".join(self.table.cards) or "none"
            raise BadInput(f"no card {cid!r} on this table; cards: {known}")
        return self.table.cards[cid]

    def _condition_problem(self, card: Card, u: Unit, clause: str) -> Problem | None:
        cond = card.condition
        if cond.name and cond.name not in u.name:
            return (
                "NAME-1",
                f"{card.name} needs a unit whose name contains {cond.name}; {u.name} does not",
            )
        have = self.available(u)
        if not can_pay(have, [cond.needs]):
            hint = self._sym_hint(cond, have)
            return (
                "SYM-3" if hint else "SC-1",
                f"{u.name} has {fmt(have)}, which cannot pay {card.name}'s condition {cond}" + hint,
            )
        if not can_pay(have, [cond.needs, *self.holdings(u)]):
            return (
                self.held_clause(u, cond.needs, clause),
                f"{u.name} has {fmt(have)}, already held by {self.holders(u)}, "
                f"so {card.name} ({cond}) could not be paid at resolution",
            )
        return None

    def held_clause(self, u: Unit, need: Pool, clause: str) -> str:
        """Why ``need`` cannot be paid from what is free: EQ-1 if only the skills u's equips hold
        stand in the way (an equip holds them while equipped), else the using kind's own clause."""
        pending = [Counter(dict(i.reserved)) for i in self._pending_uses(u)]
        return "EQ-1" if can_pay(self.available(u), [need, *pending]) else clause

    @staticmethod
    def _sym_hint(cond: Condition, have: Pool) -> str:
        if cond.needs.get("道具") and have.get("全"):
            return " (全 never stands in for 道具, SYM-3)"
        return ""

    def _check_attack(self, m: Move) -> Problem | None:
        spec = self.rules.kind_for(m.verb)
        u, target = self._unit(m.unit), self._unit(m.target)
        b = self.table.battle
        if not self.flow.at("normal_timing") or self.table.priority is not None or b is None or b.turn != m.player:
            return ("FLOW-ATK", f"{m.player} attacks only in {m.player}'s own normal timing, with no window open")
        if u.owner != m.player or not self._in_battle(u):
            return ("FLOW-NORMAL", f"{u.name} is not {m.player}'s unit in this battle")
        if self.acted(u):
            return ("FLOW-NORMAL", f"{u.name} is already 行動完了 and cannot attack")
        if target.owner == m.player or not self._in_battle(target):
            return (spec.clause("targets"), f"{target.name} is not an enemy unit in this battle")
        return None

    def _check_activate(self, m: Move) -> Problem | None:
        u = self._unit(m.unit)
        ab = next((a for a in u.abilities if a.name == m.ability), None)
        if ab is None:
            names = ", ".join(a.name for a in u.abilities) or "none"
            raise BadInput(f"{u.name} has no ability {m.ability!r}; its abilities: {names}")
        spec = self.rules.kind(ab.kind, sync=ab.sync is not None)
        if u.owner != m.player:
            return ("AB-1", f"{u.name} belongs to {u.owner}; only its owner uses its abilities")
        if spec.never_declared:
            return (
                "AUTO-1",
                f"{ab.name} is {spec.label}: it takes effect by itself and is never declared",
            )
        return self._use_problem(m, spec, u, ab.timings or spec.default_timings, ab.target, ab)

    def _check_use(self, m: Move) -> Problem | None:
        card, u = self._card(m.card), self._unit(m.unit)
        spec = self.rules.kind_for(m.verb)
        if card.type != "skill":
            return (
                "EQ-1",
                f"{card.name} is an equip card: it is equipped at the quick-summon timing, not used",
            )
        if card.owner != m.player or card.zone not in ("hand", "revealed"):
            return ("SC-4", f"{card.name} is not in {m.player}'s hand")
        if card.quick_summon and card.zone != "revealed":
            return (
                "QS-1",
                f"{card.name} must first be revealed at the quick-summon timing before it can be used",
            )
        if u.owner != m.player:
            return ("SC-4", f"{u.name} is not {m.player}'s unit")
        problem = self._use_problem(m, spec, u, card.timings, card.target, None)
        own_normal = self.point(m.player).action == "own_normal"
        if problem is None and own_normal and self.variants.normal_action_acts and self.acted(u):
            problem = ("FLOW-NORMAL", f"{u.name} is already 行動完了 and cannot act in this normal timing")
        if problem is None:
            problem = self._condition_problem(card, u, "SC-4")
        return problem

    def _use_problem(
        self,
        m: Move,
        spec: KindSpec,
        u: Unit,
        timings: tuple[str, ...],
        target_kind: str,
        ab: Ability | None,
    ) -> Problem | None:
        """Checks shared by every declared procedure, in the order a rules reader would ask."""
        t = self.table
        # where the game stands: battle or main phase (ACT-1, COST-1, SD-1, MAR-1, SC-1)
        if spec.used_in_battle(self.flow.at("main_phase")):
            if t.battle is None or self.flow.at("main_phase"):
                return (spec.clause("usable"), f"{spec.label} is used only during a battle")
            if not self._in_battle(u):
                return (spec.clause("usable"), f"{u.name} is not taking part in this battle")
        if spec.own_main_phase_only and (
            not self.flow.at("main_phase") or t.active != m.player or t.priority is not None
        ):
            return (spec.clause("usable"), f"{spec.label} is used only in its owner's main phase")
        if not u.on_field or u.destroyed or u.discarded:
            return (spec.clause("usable"), f"{u.name} is not on the field")
        # the timing: an action here, or a counter to the pending item (TIM-*)
        point = self.point(m.player)
        in_force = self._timings_at(point)
        use = use_as(timings, point, in_force)
        labels = "/".join(self.rules.timings[k].ja for k in timings)
        if use is None:
            clause = refusal_clause(timings, point, in_force)
            if point.answering:
                top = t.chain[-1]
                return (
                    clause,
                    f"[{labels}] cannot answer the pending {self.spec_of(top).label} {self.source_name(top)} here",
                )
            if not any(self.rules.timings[k].role == "action" for k in timings):
                return (clause, f"[{labels}] has nothing pending to answer here ({point.name})")
            return (clause, f"[{labels}] cannot be used at this point ({point.name})")
        if point.answering and t.priority != m.player:  # a counter, but not this player's to make yet
            return self._wait_for_priority(m.player)
        # how often (ACT-2, SD-2, MAR-1)
        too_often = spec.too_often(u, ab.name if ab else "", self.acted(u))
        if too_often is not None:
            return too_often
        # the price must be payable (COST-3)
        unpayable = prices.payable(self, spec, u, ab)
        if unpayable is not None:
            return unpayable
        # 【同調】 partner (SYNC-1)
        if ab is not None and ab.sync and not self._partner(u, ab.sync):
            return (
                "SYNC-1",
                f"{ab.name} is 【同調】: a unit named {ab.sync} must be in {u.name}'s party",
            )
        # the target (ACT-3, COST-2, SD-3, MAR-2)
        if target_kind in ("unit", "player", "geo", "equip"):
            if m.target is None:
                return (spec.clause("targets"), f"{spec.label} needs a target ({target_kind})")
            problem = self._target_problem(m.target, spec, target_kind)
            if problem:
                return problem
        elif m.target is not None:
            return (spec.clause("targets"), f"{self._label(ab)} takes no target")
        return None

    def _timings_at(self, point: Point) -> Mapping[str, TimingSpec]:
        """The timings in force at this point.  Where the other player may reply before a main
        phase ends (variant mf_cards_in=any_main_phase), [ＭＦ] is usable too: TIM-MF says only
        "during the main phase", not whose."""
        timings = self.rules.timings
        if point.action != "opponent_main" or "main" not in timings:
            return timings
        main = timings["main"]
        return {**timings, "main": replace(main, at=(*main.at, "opponent_main"))}

    def _label(self, ab: Ability | None) -> str:
        return ab.name if ab else "this card"

    def _battle_limit(self, spec: KindSpec) -> str | None:
        """The clause that keeps this spec's targets inside the battle, or None where none does.

        Outside a battle (a [ＭＦ] card in the main phase, TIM-MF) there is no battle to stay
        inside.  The page limits targets only for abilities (ACT-3, COST-2, SD-3) and [戦闘]
        autos (AUTO-2); for a skill card the variant skill_card_targets decides.
        """
        if self.table.battle is None:
            return None
        if spec.targets_by_variant:
            limited = getattr(self.variants, spec.targets_by_variant) == "battle_only"
            return VARIANT_SPECS[spec.targets_by_variant].clause if limited else None
        return spec.clause("targets") if spec.targets == "battle" else None

    def _target_problem(self, target: str, spec: KindSpec, kind: str) -> Problem | None:
        t = self.table
        b = t.battle
        clause = spec.clause("targets")
        limit = self._battle_limit(spec)
        outside = f"; {spec.label} may target only battle participants" + (
            f" (variant {spec.targets_by_variant}=battle_only)" if spec.targets_by_variant else ""
        )
        if kind == "unit":
            u = t.units.get(target)
            if u is None:
                return (clause, f"no unit {target!r}")
            if not u.on_field:
                return (clause, f"{u.name} is not on the field")
            if limit and not self._in_battle(u):
                return (limit, f"{u.name} is not taking part in the battle{outside}")
            return None
        if kind == "player":
            if target not in t.players:
                return (clause, f"no player {target!r}")
            return None
        if kind == "geo":
            if target not in t.geos:
                return (clause, f"no geo {target!r}")
            if limit and b is not None and b.geo != target:
                return (limit, f"{target} is not the geo of this battle{outside}")
            return None
        card = t.cards.get(target)
        if card is None or card.zone != "equipped":
            return (clause, f"{target!r} is not an equipped card")
        holder = t.units[card.equipped_to] if card.equipped_to else None
        if limit and (holder is None or not self._in_battle(holder)):
            return (limit, f"{card.name} is not equipped on a unit in this battle{outside}")
        return None

    def _partner(self, u: Unit, name: str) -> Unit | None:
        return next(
            (
                p
                for p in self.table.units.values()
                if p.id != u.id and name in p.name and p.on_field and u.party and p.party == u.party
            ),
            None,
        )

    def _source_of(self, item: ChainItem) -> Card | Ability | None:
        """The card or the unit's ability a chain item was declared from (None: attack, speed roll)."""
        card = self.table.cards.get(item.source)
        if card is not None:
            return card
        u = self.table.units.get(item.unit or "")
        return next((a for a in u.abilities if a.name == item.source), None) if u else None

    def _ability_of(self, item: ChainItem) -> Ability | None:
        source = self._source_of(item)
        return source if isinstance(source, Ability) else None

    def source_name(self, item: ChainItem) -> str:
        """What a chain item was declared from, as a player reads it: the card's or ability's name."""
        card = self.table.cards.get(item.source)
        return card.name if card else item.source

    # ------------------------------------------------------------------ doing
    def _do(self, m: Move) -> None:
        getattr(self, f"_do_{m.verb}")(m)
        self._drop_unheld_equips()

    def _do_pass(self, m: Move) -> None:
        """A pass answers the counter window if one is open, else ends the player's step: the
        flow's transitions say where that leads (TIM-CTR-2, FLOW-*, TIM-MF)."""
        if self.table.priority is not None:
            self._chain_event("pass_priority", f"{m.player} passes", "TIM-CTR-2")
            if self.table.chain_state == "resolving":
                self._resolve_chain()
            return
        self.flow.send("pass_")

    def _unmarch(self, u: Unit) -> None:
        """The owner's next main phase: 進軍未完了 again, so its 【進軍】 may be declared again (MAR-1)."""
        u.marched = False
        for ab in u.abilities:
            if self.rules.kind(ab.kind, sync=ab.sync is not None).again_when_unmarched:
                u.declared.discard(ab.name)

    def _do_advance(self, m: Move) -> None:
        t = self.table
        u = self._unit(m.unit)
        geo = t.geos[m.target or ""]
        origin, u.geo = u.geo, geo.name
        if self.variants.advance_marches:
            u.marched = True
        if geo.holder is not None and geo.holder != m.player:
            # every unit at the geo takes part, as in a battle a scenario's start: sets up (FLOW-ADV);
            # after a drawn battle that includes units of the advancing side (drawn_battle_advancers=stay)
            present = [x.id for x in t.units.values() if x.id != u.id and x.geo == geo.name and x.on_field]
            t.battle = Battle(
                geo.name, advancing=m.player, defending=geo.holder, participants=[u.id, *present], origin=origin
            )
            self._flow(
                "advance",
                f"{u.name} advances into {geo.name}, held by {geo.holder}: battle",
                "FLOW-ADV",
            )
        else:
            geo.holder = m.player
            self._note(f"{u.name} moves to {geo.name}", "FLOW-ADV")

    def _do_summon(self, m: Move) -> None:
        b = self.table.battle
        assert b is not None
        u = self._unit(m.unit)
        u.zone, u.geo = "field", b.geo
        if u.id not in b.participants:  # summoned again after an effect sent it back to the hand
            b.participants.append(u.id)
        self._note(f"{u.name} is quick-summoned into the battle", "FLOW-QS")
        if self.variants.quick_summoned_battle_autos == "on_summon":
            self.steps.battle_start([u])

    def _do_equip(self, m: Move) -> None:
        card, u = self._card(m.card), self._unit(m.unit)
        spec = self.rules.kind_for(m.verb)
        if spec.opens_window:
            # a designer's rules: the equip is declared, may be answered, and is rechecked
            card.zone = "chain"
            self._declare(m, spec, source=card.id)
            return
        self._equip(card, u)  # the rules page: no window, it takes effect at once (EQ-1)

    def _equip(self, card: Card, u: Unit) -> None:
        card.zone, card.equipped_to = "equipped", u.id
        self._note(f"{card.name} is equipped on {u.name} and holds {card.condition} while equipped", "EQ-1")

    def _do_unequip(self, m: Move) -> None:
        card = self._card(m.card)
        card.zone, card.equipped_to = "graveyard", None
        self._note(f"{card.name} is taken off and discarded; its skills are free again", "EQ-1")

    def _do_reveal(self, m: Move) -> None:
        card = self._card(m.card)
        card.zone = "revealed"
        self._note(
            f"{card.name} is revealed: it may be used in this battle, and is discarded after it",
            "QS-1",
        )

    def _do_front(self, m: Move) -> None:
        b = self.table.battle
        assert b is not None
        u = self._unit(m.unit)
        b.front[m.player] = u.id
        self._note(f"{u.name} takes the front of {m.player}'s formation", "FLOW-FORM")

    def _do_attack(self, m: Move) -> None:
        self._declare(m, self.rules.kind_for(m.verb), source=m.verb, during=m.verb)

    def _do_activate(self, m: Move) -> None:
        u = self._unit(m.unit)
        ab = next(a for a in u.abilities if a.name == m.ability)
        spec = self.rules.kind(ab.kind, sync=ab.sync is not None)
        u.declared.add(ab.name)
        self._declare(m, spec, source=ab.name)

    def _do_use(self, m: Move) -> None:
        card = self._card(m.card)
        card.zone = "chain"
        self._declare(m, self.rules.kind_for(m.verb), source=card.id)

    def _declare(self, m: Move, spec: KindSpec, source: str, during: str | None = None) -> None:
        t = self.table
        top = t.chain[-1] if t.chain and t.priority is not None else None
        if during is None:
            during = top.during if top else ("speed" if self.flow.at("speed") else "any")
        item = ChainItem(
            t.next_seq,
            spec.key,
            m.player,
            m.unit,
            source,
            m.target,
            top.seq if top else None,
            during=during,
        )
        t.next_seq += 1
        # No window: it is over at once.  Declared with nothing pending, that is as a chain that
        # resolved; as an answer, the window it answered stays open.
        if not self._start(item) and not t.chain:
            self._after_chain()

    def _framing(self, item: ChainItem, spec: KindSpec, point: Point) -> list[LogEntry]:
        """Log lines saying what frames a declaration: the timing it is used under (TIM-*),
        a card carrying several timings (TIM-1, or the clause naming that combination),
        a 【同調】 wrapper (SYNC-2) and a card revealed at the quick-summon timing (QS-2)."""
        source = self._source_of(item)
        card = source if isinstance(source, Card) else None
        keys: tuple[str, ...] = card.timings if card else ()
        if isinstance(source, Ability):
            keys = source.timings or spec.default_timings
        lines: list[tuple[str, str]] = []
        use = use_as(keys, point, self._timings_at(point)) if keys else None
        if use is not None:
            label = next(self.rules.timings[k].label for k in keys if self.rules.timings[k].clause == use[1])
            lines.append((f"used as {'a counter' if use[0] == 'counter' else 'an action'} under {label}", use[1]))
        if len(keys) > 1:
            clause, printed = self.rules.combination_clause(keys)
            lines.append((f"{printed} carries {len(keys)} timings; any one of them may be used", clause))
        if spec.sync:
            base = self.rules.kinds[spec.key.removeprefix("sync_")].label
            lines.append((f"【同調】 wraps {base}: its steps, plus the partner check", "SYNC-2"))
        if card is not None and card.quick_summon:
            lines.append((f"{card.name} was revealed at the quick-summon timing; used like any skill card", "QS-2"))
        return [LogEntry(text, clause, move=self._current_move) for text, clause in lines]

    def _item_name(self, item: ChainItem) -> str:
        text = self.source_name(item)
        if item.unit:
            text += f" of {self.table.units[item.unit].name}"
        if item.target:
            tgt = self.table.units.get(item.target)
            text += f" on {tgt.name if tgt else item.target}"
        return text

    def _resolve_chain(self) -> None:
        """Both players passed: resolve newest first, each with its own recheck (TIM-CTR-3)."""
        t = self.table
        while t.chain_state == "resolving":
            item = t.chain.pop()
            self._procedure(self.spec_of(item)).step(item, "close_window")
            self._chain_event("resolve_next", "next item" if t.chain else "chain resolved", "TIM-CTR-3")
        if t.chain_state == "empty":
            self._after_chain()

    # ------------------------------------------------------------------ the procedures' host (ProcedureHost)
    def tell(self, item: ChainItem, step: str, entered: str) -> None:
        """One step of an item's procedure, narrated before what its actions do."""
        spec = self.spec_of(item)
        framing: list[LogEntry] = []
        if step in self._told:
            text, clause = self._told[step]
        elif step == "declare":
            text, clause = self._declaration(item), spec.clause("declare")
            framing = self._framing(item, spec, self.point())
        elif step == "open_window":
            text, clause = (
                "counter window opens" + (f" (dice: {item.dice})" if item.dice else ""),
                spec.clause("window"),
            )
        elif step == "skip_window":
            no_window = "cannot be countered: no counter window" if spec.counter_window else "has no counter window"
            text, clause = f"{spec.label} {no_window}", spec.clause("window")
        elif step == "recheck":
            text, clause = f"#{item.seq} {self.source_name(item)}: recheck", spec.clause("recheck")
        elif step == "resolve":
            text, clause = f"#{item.seq} {self._item_name(item)} resolves", spec.clause("resolve")
            item.outcome = ("resolved", clause, "")
        else:  # fizzle: the machine chose it; say every condition the item fails
            reasons = failing(self, item, spec.fizzle_if)
            why = "; ".join(WORDS[r][1] for r in reasons)
            own = {RECHECKS[r].clause for r in reasons}
            clause = own.pop() if len(own) == 1 and "" not in own else spec.clause("recheck")
            text = f"#{item.seq} {self._item_name(item)} fizzles: {why}"
            item.outcome = ("fizzled", clause, why)
        self.log.append(LogEntry(text, clause, spec.label, (entered,), self._current_move))
        self.log.extend(framing)

    def _declaration(self, item: ChainItem) -> str:
        t = self.table
        what = f"{item.declarer} declares {self.spec_of(item).label} {self._item_name(item)}"
        top = next((i for i in t.chain if i.seq == item.answering), None)
        return what + (f", answering #{top.seq} {self.source_name(top)}" if top else "")

    def open_window(self, item: ChainItem) -> None:
        t = self.table
        answering = bool(t.chain) and t.priority is not None
        t.chain.append(item)
        self._chain_event(
            "counter" if answering else "open_window",
            f"{t.opponent(item.declarer)} may counter first",
            "TIM-CTR-2" if answering else self.spec_of(item).clause("window"),
        )

    def settled(self, item: ChainItem) -> None:
        """The item reached 発動 or 不発: record the outcome; a card on the chain goes to the graveyard."""
        t = self.table
        result, clause, why = item.outcome
        t.outcomes.append(Outcome(item.seq, item.kind, item.source, item.unit, result, clause, why))
        t.resolution_order.append(item.seq)
        card = t.cards.get(item.source)
        if card is not None and card.zone == "chain":
            card.zone = "graveyard"
            self._note(f"{card.name} goes to the graveyard", clause)
        self._drop_unheld_equips()  # before the next item's recheck counts what the equips hold

    def pay_price(self, item: ChainItem) -> None:
        self._pay_price(item, self.spec_of(item))

    def reserve(self, item: ChainItem) -> None:
        self._reserve(item)

    def act_in_normal_timing(self, item: ChainItem) -> None:
        """A skill card declared in its player's normal timing is that unit's act (FLOW-NORMAL)."""
        u = self.table.units.get(item.unit or "")
        if u is None or not self.variants.normal_action_acts or self.point(item.declarer).action != "own_normal":
            return
        u.acted = True
        self._note(f"{u.name} acts in this normal timing and becomes 行動完了", "FLOW-NORMAL")

    def roll_dice(self, item: ChainItem) -> None:
        self._roll_dice(item)

    def apply_effect(self, item: ChainItem) -> None:
        self._apply_effect(item, self.spec_of(item))

    def release(self, item: ChainItem) -> None:
        self._release(item, self.spec_of(item))

    def equip_holds(self, unit: Unit) -> list[Pool]:
        return [part for _, part in self._equip_holds(unit)]

    def in_battle(self, unit: Unit) -> bool:
        return self._in_battle(unit)

    def partner(self, unit: Unit, name: str) -> Unit | None:
        return self._partner(unit, name)

    def _after_chain(self) -> None:
        """The chain has resolved: the flow's transitions say what comes next (FLOW-SPD, FLOW-NORMAL)."""
        self.table.main_reply = False  # once a chain has resolved, the main phase's own player decides again (TIM-MF)
        self.flow.send("chain_resolved")

    # ------------------------------------------------------------------ called by the procedures
    def _pay_price(self, item: ChainItem, spec: KindSpec) -> None:
        prices.pay(self, item, spec)

    def _reserve(self, item: ChainItem) -> None:
        prices.hold(self, item, self.spec_of(item))

    def _roll_dice(self, item: ChainItem) -> None:
        if self._has_dice(item):
            item.dice = self.table.roll_die()
            self._note(f"dice for #{item.seq}: {item.dice}", self.spec_of(item).clause("declare"))

    def _has_dice(self, item: ChainItem) -> bool:
        source = self._source_of(item)
        return bool(source and source.dice)

    def _release(self, item: ChainItem, spec: KindSpec) -> None:
        prices.release(self, item, spec)
        u = self.table.units.get(item.unit or "")
        if u is not None and spec.once_while_unacted and not self.variants.fizzled_action_uses_chance:
            u.declared.discard(item.source)

    def _apply_effect(self, item: ChainItem, spec: KindSpec) -> None:
        resolutions.resolve(self, item, spec)

    def _leave_field(self, u: Unit, zone: str, destroyed: bool = False, discarded: bool = False) -> None:
        u.zone = zone
        u.destroyed = u.destroyed or destroyed
        u.discarded = u.discarded or discarded
        for c in self.table.cards.values():
            if c.zone == "equipped" and c.equipped_to == u.id:
                c.zone, c.equipped_to = "graveyard", None
                self._note(f"{c.name} leaves with {u.name} and is discarded", "EQ-1")

    # ------------------------------------------------------------------ battle flow
    def _reroll_speed(self, clause: str) -> None:
        """An effect re-rolls the speed dice (TIM-SPD): the battle's steps roll them."""
        self.steps.reroll(clause)
