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

import html
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from .battle import GameFlow
from .chain import CounterChain
from .errors import BadInput, RuleViolation
from .kinds import WORDS, KindSpec
from .model import Ability, Battle, Card, ChainItem, Effect, Outcome, Table, Unit
from .moves import Move, parse
from .procedures import Procedure, procedure_class
from .ruleset import Ruleset, builtin
from .skills import Condition, Pool, can_pay, fmt, payment
from .timing import Point, refusal_clause, use_as
from .trace import CHAIN, FLOW, PROCEDURE, Trace, capture
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
    trace: Trace | None = None  # on a machine transition: the machines at that instant (fsm.trace)


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
        self.chain = CounterChain(self)
        self.flow = GameFlow(self)

    # ------------------------------------------------------------------ public surface
    def actor(self) -> str | None:
        """The player who must decide now (priority holder, step owner, turn player)."""
        t = self.table
        if t.priority is not None:
            return t.priority
        b = t.battle
        if b is None or self.flow.at("main_phase"):
            return t.active
        if self.flow.at("quick_summon"):
            return (
                b.advancing
                if self._state_in("advancing_summon", "advancing_equip", "advancing_reveal")
                else b.defending
            )
        if self.flow.at("formation"):
            first, second = self._formation_order()
            return first if self.flow.at("first_side") else second
        if self.flow.at("normal_timing"):
            return b.turn
        return None

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

    def _repr_svg_(self) -> str:
        """In Jupyter a game draws where it stands: the flow, and while a chain is open the chain,
        its top link's procedure and the counter-chain machine (as python-statemachine's machines
        draw themselves)."""
        from .live_view import live_svg  # drawing is at the edge: the engine itself never needs it

        return live_svg(self)

    def _repr_html_(self) -> str:
        actor = self.actor()
        who = f"{actor} to decide" if actor else "nobody has a move"
        where = " › ".join(s.name for s in self.flow.configuration)
        return f"<div><b>{html.escape(who)}</b> — {html.escape(where)}</div>{self._repr_svg_()}"

    def point(self) -> Point:
        """Where the game stands, in the terms the timing table uses."""
        t = self.table
        if t.chain and t.priority is not None:
            top = t.chain[-1]
            return Point("answering", answering=self.spec_of(top).category, during=top.during)
        if self.flow.at("main_phase"):
            return Point("own main phase", action="own_main")
        if self.flow.at("normal_timing"):
            return Point("own normal timing", action="own_normal")
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
        if self.table.battle is not None:
            self._battle_start()
        if at == "speed":
            self._roll_speed()

    # ------------------------------------------------------------------ helpers
    def _as_move(self, move: Move | str) -> Move:
        m = parse(move) if isinstance(move, str) else move
        if not m.player:
            actor = self.actor()
            m = Move(m.verb, actor or "", m.card, m.ability, m.unit, m.target)
        return m

    def _state_in(self, *ids: str) -> bool:
        return any(self.flow.at(i) for i in ids)

    def _flow_name(self) -> str:
        return " / ".join(str(v) for v in self.flow.configuration_values)

    def _formation_order(self) -> tuple[str, str]:
        b = self.table.battle
        assert b is not None
        if self.variants.formation_order == "advancing_first":
            return b.advancing, b.defending
        return b.defending, b.advancing

    def spec_of(self, item: ChainItem) -> KindSpec:
        """The procedure spec a chain item follows (its kind, wrapped in 【同調】 if it is one)."""
        sync = item.kind.startswith("sync_")
        return self.rules.kind(item.kind.removeprefix("sync_"), sync)

    def _procedure(self, spec: KindSpec) -> Procedure:
        proc = self._procedures.get(spec)
        if proc is None:
            proc = self._procedures[spec] = procedure_class(spec)(self)
        return proc

    def _step(
        self, item: ChainItem, event: str, clause: str, text: str, checked: tuple[tuple[str, bool], ...] = ()
    ) -> None:
        """Send one event to the item's procedure; its line comes before what its actions log."""
        spec = self.spec_of(item)
        at = len(self.log)
        left = (str(item.state),)
        self._procedure(spec).step(item, event)
        trace = capture(self.table, PROCEDURE, event, left, item, checked)
        entry = LogEntry(text, clause, spec.label, (str(item.state),), self._current_move, trace)
        self.log.insert(at, entry)

    def _note(
        self, text: str, clause: str, machine: str = "", entered: tuple[str, ...] = (), trace: Trace | None = None
    ) -> None:
        self.log.append(LogEntry(text, clause, machine, entered, self._current_move, trace))

    def _flow(self, event: str, text: str, clause: str) -> None:
        left = tuple(self.flow.configuration_values)
        self.flow.send(event)
        self._note(
            text,
            clause,
            machine="GameFlow",
            entered=tuple(str(v) for v in self.flow.configuration_values),
            trace=capture(self.table, FLOW, event, left),
        )

    def _chain_event(self, event: str, text: str, clause: str) -> None:
        left = (self.table.chain_state,)
        self.chain.send(event)
        trace = capture(self.table, CHAIN, event, left)
        self._note(text, clause, machine="CounterChain", entered=(str(self.table.chain_state),), trace=trace)

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
    def _continuous_effects(self, unit: Unit, op: str) -> list[Effect]:
        """Effects of 【自動】 without [戦闘]: always in effect, in battle or not (AUTO-4).

        A 【同調】 one works only while its partner is in the same party (SYNC-1).
        """
        return [
            eff
            for ab in unit.abilities
            if self._is_continuous(ab)
            if ab.sync is None or self._partner(unit, ab.sync)
            for eff in ab.effect
            if eff.op == op
        ]

    def _is_continuous(self, ab: Ability) -> bool:
        return self.rules.kinds[ab.kind].usable in ("continuous", "battle_start") and not ab.battle_only

    def _continuous_grants(self, unit: Unit) -> Pool:
        return Counter(eff.arg for eff in self._continuous_effects(unit, "grant"))

    def available(self, unit: Unit) -> Pool:
        """Skills the unit has now: base + grants − used this battle (SC-2)."""
        total = unit.skills.base + unit.skills.granted + self._continuous_grants(unit)
        total.subtract(unit.skills.consumed)
        return +total

    def holdings(self, unit: Unit) -> list[Pool]:
        """What is already held on this unit: pending skill uses (SC-4) and equips (EQ-1)."""
        held = [Counter(dict(i.reserved)) for i in self._pending_uses(unit)]
        return held + [c.condition.needs for c in self._equips_on(unit)]

    def _pending_uses(self, unit: Unit) -> list[ChainItem]:
        return [i for i in self.table.chain if i.unit == unit.id and i.reserved]

    def _equips_on(self, unit: Unit) -> list[Card]:
        return [c for c in self.table.cards.values() if c.zone == "equipped" and c.equipped_to == unit.id]

    def _holders(self, unit: Unit) -> str:
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
            "pass": self._pass_clause(),
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

    def _pass_clause(self) -> str:
        if self.table.priority is not None:
            return "TIM-CTR-2"
        for state, clause in (("main_phase", "TIM-MF"), ("quick_summon", "FLOW-QS"), ("formation", "FLOW-FORM")):
            if self.flow.at(state):
                return clause
        return "FLOW-NORMAL"

    def _problem(self, m: Move) -> Problem | None:
        """None if the move is legal now, else (clause, plain-English reason)."""
        t = self.table
        actor = self.actor()
        if m.player not in t.players:
            return ("FLOW-ZONES", f"no player {m.player!r}; players are {' and '.join(t.players)}")
        if m.player != actor:
            if t.priority is not None:
                return (
                    "TIM-CTR-2",
                    f"{actor} has priority in the counter window; {m.player} must wait for {actor} to pass",
                )
            return (
                self._move_clause(m),
                f"it is {actor}'s turn to act here ({self._flow_name()}), not {m.player}'s",
            )
        if t.priority is not None and m.verb in ("summon", "equip", "unequip", "reveal", "front"):
            # only a designer's rules open a window here (an equip with a counter window)
            return ("TIM-CTR-2", f"a counter window is open: {m.player} may answer the pending item or pass")
        # an unknown unit, card or ability is a typo, not a rules question: BadInput propagates
        return getattr(self, f"_check_{m.verb}")(m)

    def _check_pass(self, m: Move) -> Problem | None:
        return None

    def _check_advance(self, m: Move) -> Problem | None:
        t = self.table
        if not self.flow.at("main_phase") or t.priority is not None:
            return ("FLOW-ADV", "units advance only in their owner's main phase")
        u = self._unit(m.unit)
        if u.owner != m.player or not u.on_field:
            return ("FLOW-ADV", f"{u.name} is not {m.player}'s unit on the field")
        if m.target not in t.geos:
            return ("FLOW-ZONES", f"no geo {m.target!r}; geos: {', '.join(t.geos)}")
        if u.geo == m.target:
            return ("FLOW-ADV", f"{u.name} is already at {m.target}")
        if self.variants.advance_marches and u.marched:
            return ("MAR-1", f"{u.name} is already 進軍完了 and cannot advance again this turn")
        return None

    def _check_summon(self, m: Move) -> Problem | None:
        u = self._unit(m.unit)
        if not self._state_in("advancing_summon", "defending_summon"):
            return ("FLOW-QS", "quick summons are made in steps 1 and 4 of the quick-summon timing")
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
        if not self._state_in("advancing_equip", "defending_equip"):
            return ("FLOW-QS", "equips are made in steps 2 and 5 of the quick-summon timing")
        if card.type != "equip" or card.zone != "hand" or card.owner != m.player:
            return ("EQ-1", f"{card.name} is not an equip card in {m.player}'s hand")
        if u.owner != m.player or not self._in_battle(u):
            return ("EQ-1", f"{u.name} is not {m.player}'s unit in this battle")
        return self._condition_problem(card, u, "EQ-1")

    def _check_unequip(self, m: Move) -> Problem | None:
        card = self._card(m.card)
        if not self._state_in("advancing_equip", "defending_equip"):
            return ("FLOW-QS", "equips are taken off in steps 2 and 5 of the quick-summon timing")
        if card.zone != "equipped" or card.owner != m.player:
            return ("EQ-1", f"{card.name} is not equipped on one of {m.player}'s units")
        return None

    def _check_reveal(self, m: Move) -> Problem | None:
        card = self._card(m.card)
        if not self._state_in("advancing_reveal", "defending_reveal"):
            return (
                "QS-1",
                "quick-summon-timing cards are revealed in steps 3 and 6 of the quick-summon timing",
            )
        if not card.quick_summon:
            return ("QS-1", f"{card.name} is not a card declared at the quick-summon timing")
        if card.zone != "hand" or card.owner != m.player:
            return ("QS-1", f"{card.name} is not in {m.player}'s hand")
        return None

    def _check_front(self, m: Move) -> Problem | None:
        u = self._unit(m.unit)
        if not self.flow.at("formation"):
            return ("FLOW-FORM", "the formation is set only in the formation step")
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
            pending = [Counter(dict(i.reserved)) for i in self._pending_uses(u)]
            return (
                "EQ-1" if can_pay(have, [cond.needs, *pending]) else clause,  # an equip holds the skills
                f"{u.name} has {fmt(have)}, already held by {self._holders(u)}, "
                f"so {card.name} ({cond}) could not be paid at resolution",
            )
        return None

    @staticmethod
    def _sym_hint(cond: Condition, have: Pool) -> str:
        if cond.needs.get("道具") and have.get("全"):
            return " (全 never stands in for 道具, SYM-3)"
        return ""

    def _check_attack(self, m: Move) -> Problem | None:
        spec = self.rules.kinds["attack"]
        if not self.flow.at("normal_timing") or self.table.priority is not None:
            return ("FLOW-ATK", "attacks are made in the attacker's own normal timing")
        u, target = self._unit(m.unit), self._unit(m.target)
        if u.owner != m.player or not self._in_battle(u):
            return ("FLOW-NORMAL", f"{u.name} is not {m.player}'s unit in this battle")
        if u.acted:
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
        if spec.usable in ("battle_start", "continuous"):
            return (
                "AUTO-1",
                f"{ab.name} is {spec.label}: it takes effect by itself and is never declared",
            )
        return self._use_problem(m, spec, u, ab.timings or self._default_timings(spec), ab.target, ab)

    def _default_timings(self, spec: KindSpec) -> tuple[str, ...]:
        return ("main",) if spec.usable == "own_main_phase" else ("normal",)

    def _check_use(self, m: Move) -> Problem | None:
        card, u = self._card(m.card), self._unit(m.unit)
        spec = self.rules.kinds["skill"]
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
        if problem is None and self.point().action == "own_normal" and self.variants.normal_action_acts and u.acted:
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
        in_battle_use = spec.usable == "battle" or (spec.usable == "by_timing" and not self.flow.at("main_phase"))
        if in_battle_use:
            if t.battle is None or self.flow.at("main_phase"):
                return (spec.clause("usable"), f"{spec.label} is used only during a battle")
            if not self._in_battle(u):
                return (spec.clause("usable"), f"{u.name} is not taking part in this battle")
        if spec.usable == "own_main_phase" and (
            not self.flow.at("main_phase") or t.active != m.player or t.priority is not None
        ):
            return (spec.clause("usable"), f"{spec.label} is used only in its owner's main phase")
        if not u.on_field or u.destroyed or u.discarded:
            return (spec.clause("usable"), f"{u.name} is not on the field")
        # the timing: an action here, or a counter to the pending item (TIM-*)
        point = self.point()
        use = use_as(timings, point, self.rules.timings)
        labels = "/".join(self.rules.timings[k].ja for k in timings)
        if use is None:
            clause = refusal_clause(timings, point, self.rules.timings)
            if point.answering:
                top = t.chain[-1]
                return (
                    clause,
                    f"[{labels}] cannot answer the pending {self.spec_of(top).label} {self.source_name(top)} here",
                )
            return (clause, f"[{labels}] cannot be used at this point ({point.name})")
        if point.answering and not self.spec_of(t.chain[-1]).counterable:
            return ("AUTO-3", "the pending item cannot be countered")
        # how often (ACT-2, SD-2, MAR-1)
        name = ab.name if ab else ""
        if spec.frequency == "once_while_unacted":
            if u.acted:
                return (spec.clause("usable"), f"{u.name} is already 行動完了")
            if name in u.declared:
                return (
                    spec.clause("frequency"),
                    f"{name} of {u.name} was already declared while 行動未完了",
                )
        if spec.frequency == "once_per_battle" and name in u.declared:
            return (
                spec.clause("frequency"),
                f"{name} of {u.name} was already declared in this battle",
            )
        if spec.frequency == "once_while_unmarched" and (u.marched or name in u.declared):
            return (spec.clause("frequency"), f"{u.name} is already 進軍完了")
        # the price must be payable (COST-3)
        if ab is not None and spec.price == "pay_cost":
            have = self.available(u)
            if not can_pay(have, [ab.cost_pool, *self.holdings(u)]):
                return (
                    spec.clause("price"),
                    f"{u.name} has {fmt(have)} and cannot pay the 代償 {fmt(ab.cost_pool)} of {ab.name}",
                )
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
            why = self._target_problem(m.target, spec, target_kind)
            if why:
                return (spec.clause("targets"), why)
        elif m.target is not None:
            return (spec.clause("targets"), f"{self._label(ab)} takes no target")
        return None

    def _label(self, ab: Ability | None) -> str:
        return ab.name if ab else "this card"

    def _target_problem(self, target: str, spec: KindSpec, kind: str) -> str | None:
        t = self.table
        b = t.battle
        # outside a battle (a [ＭＦ] card in the main phase, TIM-MF) there is no battle to stay inside
        battle_only = spec.targets == "battle" and b is not None
        if kind == "unit":
            u = t.units.get(target)
            if u is None:
                return f"no unit {target!r}"
            if not u.on_field:
                return f"{u.name} is not on the field"
            if battle_only and not self._in_battle(u):
                return f"{u.name} is not taking part in the battle; {spec.label} may target only battle participants"
            return None
        if kind == "player":
            if target not in t.players:
                return f"no player {target!r}"
            return None
        if kind == "geo":
            if target not in t.geos:
                return f"no geo {target!r}"
            if battle_only and b is not None and b.geo != target:
                return f"{target} is not the geo of this battle"
            return None
        card = t.cards.get(target)
        if card is None or card.zone != "equipped":
            return f"{target!r} is not an equipped card"
        holder = t.units[card.equipped_to] if card.equipped_to else None
        if battle_only and (holder is None or not self._in_battle(holder)):
            return f"{card.name} is not equipped on a unit in this battle"
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

    def _do_pass(self, m: Move) -> None:
        t = self.table
        if t.priority is not None:
            other = t.opponent(m.player)
            self._chain_event("pass_priority", f"{m.player} passes", "TIM-CTR-2")
            if t.chain_state == "resolving":
                t.priority = None
                self._resolve_chain()
            else:
                t.priority = other
            return
        if self.flow.at("main_phase"):
            if self.variants.skills_used_outside_battle_return == "end_of_main_phase":
                for u in t.units.values():
                    if u.skills.consumed:
                        u.skills.consumed.clear()
                        self._note(f"{u.name}'s skills used in the main phase come back", "SC-3")
            t.active = t.opponent(m.player)
            for u in t.units.values():
                if u.owner == t.active:
                    u.marched = False
            self._flow("end_turn", f"{m.player} ends the main phase; {t.active}'s main phase", "TIM-MF")
            return
        if self.flow.at("quick_summon"):
            if self.flow.at("defending_reveal"):
                self._flow("to_formation", "quick-summon timing over: formation", "FLOW-QS")
            else:
                self._flow("next_step", "next quick-summon step", "FLOW-QS")
            return
        if self.flow.at("formation"):
            if self.flow.at("first_side"):
                self._flow("next_side", "the other side sets its formation", "FLOW-FORM")
            else:
                self._flow("to_speed", "formation set: speed determination", "FLOW-FORM")
                self._roll_speed()
            return
        if self.flow.at("normal_timing"):
            b = t.battle
            assert b is not None
            b.passes += 1
            self._end_normal_timing(passed=True)

    def _do_advance(self, m: Move) -> None:
        t = self.table
        u = self._unit(m.unit)
        geo = t.geos[m.target or ""]
        u.geo = geo.name
        if self.variants.advance_marches:
            u.marched = True
        if geo.holder is not None and geo.holder != m.player:
            defenders = [x.id for x in t.units.values() if x.owner == geo.holder and x.geo == geo.name and x.on_field]
            t.battle = Battle(geo.name, advancing=m.player, defending=geo.holder, participants=[u.id, *defenders])
            self._flow(
                "advance",
                f"{u.name} advances into {geo.name}, held by {geo.holder}: battle",
                "FLOW-ADV",
            )
            self._battle_start()
        else:
            geo.holder = m.player
            self._note(f"{u.name} moves to {geo.name}", "FLOW-ADV")

    def _do_summon(self, m: Move) -> None:
        b = self.table.battle
        assert b is not None
        u = self._unit(m.unit)
        u.zone, u.geo = "field", b.geo
        b.participants.append(u.id)
        self._note(f"{u.name} is quick-summoned into the battle", "FLOW-QS")
        if self.variants.quick_summoned_battle_autos == "on_summon":
            self._battle_start([u])

    def _do_equip(self, m: Move) -> None:
        card, u = self._card(m.card), self._unit(m.unit)
        spec = self.rules.kinds["equip"]
        if spec.counter_window and spec.counterable:
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
        self._declare(m, self.rules.kinds["attack"], source="attack", during="attack")

    def _do_activate(self, m: Move) -> None:
        u = self._unit(m.unit)
        ab = next(a for a in u.abilities if a.name == m.ability)
        spec = self.rules.kind(ab.kind, sync=ab.sync is not None)
        u.declared.add(ab.name)
        self._declare(m, spec, source=ab.name)

    def _do_use(self, m: Move) -> None:
        card = self._card(m.card)
        card.zone = "chain"
        self._declare(m, self.rules.kinds["skill"], source=card.id)

    def _declare(self, m: Move, spec: KindSpec, source: str, during: str | None = None) -> None:
        t = self.table
        point = self.point()
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
        what = f"{m.player} declares {spec.label} {self._item_name(item)}"
        if top:
            what += f", answering #{top.seq} {self.source_name(top)}"
        at = len(self.log)
        self._step(item, "declare", spec.clause("declare"), what)
        self.log[at + 1 : at + 1] = self._framing(item, spec, point)
        if spec.key == "skill" and point.action == "own_normal" and self.variants.normal_action_acts:
            u = self._unit(m.unit)
            u.acted = True
            self._note(f"{u.name} acts in this normal timing and becomes 行動完了", "FLOW-NORMAL")
        window = spec.counter_window and spec.counterable
        if not window:
            self._step(item, "skip_window", spec.clause("window"), f"{spec.label} has no counter window")
            self._settle(item)
            return
        self._step(
            item,
            "open_window",
            spec.clause("window"),
            "counter window opens" + (f" (dice: {item.dice})" if item.dice else ""),
        )
        t.chain.append(item)
        t.priority = t.opponent(m.player)
        self._chain_event(
            "counter" if top else "open_window",
            f"{t.priority} may counter first",
            "TIM-CTR-2" if top else spec.clause("window"),
        )

    def _framing(self, item: ChainItem, spec: KindSpec, point: Point) -> list[LogEntry]:
        """Log lines saying what frames a declaration: the timing it is used under (TIM-*),
        a card carrying several timings (TIM-1, or the clause naming that combination),
        a 【同調】 wrapper (SYNC-2) and a card revealed at the quick-summon timing (QS-2)."""
        source = self._source_of(item)
        card = source if isinstance(source, Card) else None
        keys: tuple[str, ...] = card.timings if card else ()
        if isinstance(source, Ability):
            keys = source.timings or self._default_timings(spec)
        lines: list[tuple[str, str]] = []
        use = use_as(keys, point, self.rules.timings) if keys else None
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
            recheck = self.spec_of(item).clause("recheck")
            self._step(item, "close_window", recheck, f"#{item.seq} {self.source_name(item)}: recheck")
            self._settle(item)
            self._chain_event("resolve_next", "next item" if t.chain else "chain resolved", "TIM-CTR-3")
        if t.chain_state == "priority_opponent":
            t.priority = t.opponent(t.chain[-1].declarer)
            return
        self._after_chain()

    def _settle(self, item: ChainItem) -> None:
        spec = self.spec_of(item)
        reasons = self._fizzle_reasons(item, spec.fizzle_if)
        checked = tuple((r, r not in reasons) for r in spec.fizzle_if)
        t = self.table
        if reasons:
            why = "; ".join(WORDS[r][1] for r in reasons)
            clause = "SYNC-1" if reasons == ["partner_left"] else spec.clause("recheck")
            self._step(item, "fizzle", clause, f"#{item.seq} {self._item_name(item)} fizzles: {why}", checked)
            t.outcomes.append(Outcome(item.seq, item.kind, item.source, item.unit, "fizzled", clause, why))
        else:
            self._step(
                item,
                "resolve",
                spec.clause("resolve"),
                f"#{item.seq} {self._item_name(item)} resolves",
                checked,
            )
            t.outcomes.append(Outcome(item.seq, item.kind, item.source, item.unit, "resolved", spec.clause("resolve")))
        t.resolution_order.append(item.seq)
        card = t.cards.get(item.source)
        if card is not None and card.zone == "chain":
            card.zone = "graveyard"
            self._note(f"{card.name} goes to the graveyard", spec.clause("recheck" if reasons else "resolve"))

    def _after_chain(self) -> None:
        t = self.table
        t.priority = None
        if self.flow.at("speed"):
            self._decide_speed()
        elif self.flow.at("normal_timing"):
            self._end_normal_timing(passed=False)

    # ------------------------------------------------------------------ called by the procedures
    def _pay_price(self, item: ChainItem, spec: KindSpec) -> None:
        u = self.table.units.get(item.unit or "")
        if u is None:
            return
        if spec.price == "act":
            u.acted = True
            self._note(f"{u.name} becomes 行動完了", spec.clause("price"))
        elif spec.price == "march":
            u.marched = True
            self._note(f"{u.name} becomes 進軍完了", spec.clause("price"))
        elif spec.price == "discard_self":
            if u.on_field:
                self._note(f"{u.name} is discarded (破棄) as the price", spec.clause("price"))
                self._leave_field(u, "graveyard", discarded=True)
        elif spec.price == "pay_cost":
            ab = self._ability_of(item)
            assert ab is not None, "a 代償 is paid only by an ability"
            paid = payment(self.available(u), ab.cost_pool)
            u.skills.consumed.update(paid)
            item.paid = tuple(paid.items())
            self._note(f"{u.name} pays the 代償 {fmt(paid)}", spec.clause("price"))
            self._note_stand_in(ab.cost_pool, paid)
        elif spec.price == "consume_condition":
            card = self.table.cards[item.source]
            paid = payment(self.available(u), card.condition.needs)
            u.skills.consumed.update(paid)
            item.reserved = ()
            self._note(f"{u.name} uses {fmt(paid)} for {card.name}; lost for this battle", "SC-2")
            self._note_stand_in(card.condition.needs, paid)

    def _note_stand_in(self, need: Pool, paid: Pool) -> None:
        extra = paid.get("全", 0) - need.get("全", 0)
        if extra > 0:
            covered = fmt(Counter({s: n - paid.get(s, 0) for s, n in need.items() if n > paid.get(s, 0)}))
            self._note(f"全×{extra} stands in for {covered}", "SYM-2")

    def _reserve(self, item: ChainItem) -> None:
        card = self.table.cards[item.source]
        item.reserved = card.condition.symbols
        self._note(
            f"{card.name}'s condition {card.condition} is held on {self._unit(item.unit).name} until resolution",
            "SC-4",
        )

    def _roll_dice(self, item: ChainItem) -> None:
        if self._has_dice(item):
            item.dice = self.table.roll_die()
            self._note(f"dice for #{item.seq}: {item.dice}", self.spec_of(item).clause("declare"))

    def _has_dice(self, item: ChainItem) -> bool:
        source = self._source_of(item)
        return bool(source and source.dice)

    def _release(self, item: ChainItem, spec: KindSpec) -> None:
        item.reserved = ()
        u = self.table.units.get(item.unit or "")
        if u is None:
            return
        if spec.price == "pay_cost" and item.paid and self.variants.refund_cost_on_fizzle:
            u.skills.consumed.subtract(Counter(dict(item.paid)))
            u.skills.consumed = +u.skills.consumed
            self._note(
                f"the 代償 {fmt(Counter(dict(item.paid)))} is refunded (variant refund_cost_on_fizzle)",
                "COST-5",
            )
        if spec.frequency == "once_while_unacted" and not self.variants.fizzled_action_uses_chance:
            u.declared.discard(item.source)
        if spec.price_paid == "resolve" and spec.price in ("act", "discard_self", "march"):
            # the price belongs to step 4 (ACT-7, SD-7): a fizzled item never pays it
            price = WORDS[spec.price][1]
            self._note(f"{self.source_name(item)} fizzled, so its price ({price}) is never paid", spec.clause("price"))

    def _fizzle_reasons(self, item: ChainItem, reasons: tuple[str, ...]) -> list[str]:
        t = self.table
        u = t.units.get(item.unit or "")
        found = []
        for r in reasons:
            if u is None:
                continue
            gone = u.destroyed or u.discarded
            if (r == "acted" and u.acted) or (r == "destroyed" and gone) or (r == "off_field" and not u.on_field):
                found.append(r)
            elif r == "condition_unmet":
                card = t.cards[item.source]
                have = self.available(u)
                held = [c.condition.needs for c in self._equips_on(u)]
                if not can_pay(have, [card.condition.needs, *held]):
                    found.append(r)
            elif r == "target_gone":
                tgt = t.units.get(item.target or "")
                if tgt is not None and not self._in_battle(tgt):
                    found.append(r)
            elif r == "partner_left":
                ab = self._ability_of(item)
                if ab and ab.sync and not self._partner(u, ab.sync):
                    found.append(r)
        return found

    def _apply_effect(self, item: ChainItem, spec: KindSpec) -> None:
        t = self.table
        if spec.category == "attack":
            target = t.units.get(item.target or "")
            if target and self.variants.attack_outcome == "destroy_target" and target.on_field:
                self._note(f"the attack destroys {target.name} (撃破)", "FLOW-ATK")
                self._leave_field(target, "graveyard", destroyed=True)
            return
        if spec.category == "speed_roll":
            return
        if spec.category == "equip":
            self._equip(t.cards[item.source], self._unit(item.unit))
            return
        source = self._source_of(item)
        if source is None:
            return
        if source.min_roll and (item.dice or 0) < source.min_roll:
            self._note(f"dice {item.dice} is below {source.min_roll}: no effect", spec.clause("resolve"))
            return
        for eff in source.effect:
            self._effect(eff, item, spec)

    def _effect(self, eff: Effect, item: ChainItem, spec: KindSpec) -> None:
        t = self.table
        clause = spec.clause("resolve")
        target_id = item.target
        if target_id in (None, "self") and item.unit:
            target_id = item.unit
        u = t.units.get(target_id or "")
        b = t.battle
        if eff.op == "speed" and b is not None:
            player = target_id if target_id in t.players else (u.owner if u else item.declarer)
            b.speed_mod[player] = b.speed_mod.get(player, 0) + int(eff.arg or 0)
            self._note(f"{player}'s speed changes by {eff.arg}", clause)
            return
        if eff.op == "reroll" and b is not None:
            for p in t.players:
                b.dice[p] = t.roll_die()
            self._note(f"the speed dice are rolled again: {b.dice}", clause)
            return
        if u is None:
            self._note(f"{eff.op}: no unit to affect", clause)
            return
        if eff.op == "destroy" and u.on_field:
            self._note(f"{u.name} is destroyed (撃破)", clause)
            self._leave_field(u, "graveyard", destroyed=True)
        elif eff.op == "discard" and u.on_field:
            self._note(f"{u.name} is discarded (破棄)", clause)
            self._leave_field(u, "graveyard", discarded=True)
        elif eff.op == "bounce" and u.on_field:
            self._note(f"{u.name} returns to its owner's hand and leaves the field", clause)
            self._leave_field(u, "hand")
        elif eff.op == "exhaust":
            u.acted = True
            self._note(f"{u.name} becomes 行動完了", clause)
        elif eff.op == "strip":
            if self.available(u).get(eff.arg, 0) > 0:
                u.skills.consumed[eff.arg] += 1
            self._note(f"{u.name} loses {eff.arg} for this battle", clause)
        elif eff.op == "grant":
            u.skills.granted[eff.arg] += 1
            self._note(f"{u.name} gains {eff.arg} for this battle", clause)
        elif eff.op == "leave_party":
            u.party = None
            self._note(f"{u.name} leaves its party", clause)
        else:
            self._note(f"{eff.op}: no change on the table", clause)

    def _leave_field(self, u: Unit, zone: str, destroyed: bool = False, discarded: bool = False) -> None:
        u.zone = zone
        u.destroyed = u.destroyed or destroyed
        u.discarded = u.discarded or discarded
        for c in self.table.cards.values():
            if c.zone == "equipped" and c.equipped_to == u.id:
                c.zone, c.equipped_to = "graveyard", None
                self._note(f"{c.name} leaves with {u.name} and is discarded", "EQ-1")

    # ------------------------------------------------------------------ battle flow
    def _battle_start(self, units: list[Unit] | None = None) -> None:
        """[戦闘] autos take effect now, on participants only, and cannot be countered."""
        for u in self._participants() if units is None else units:
            for ab in u.abilities:
                spec = self.rules.kind(ab.kind, sync=ab.sync is not None)
                if spec.usable == "battle_start" and ab.battle_only:
                    if ab.sync and not self._partner(u, ab.sync):
                        self._note(
                            f"{ab.name} of {u.name} does not activate: no 【同調】 partner in its party", "SYNC-1"
                        )
                        continue
                    item = ChainItem(self.table.next_seq, spec.key, u.owner, u.id, ab.name, None)
                    self.table.next_seq += 1
                    self._step(
                        item,
                        "declare",
                        "AUTO-2",
                        f"{spec.label}[戦闘] {ab.name} of {u.name} activates at battle start",
                    )
                    self._step(
                        item,
                        "skip_window",
                        "AUTO-3",
                        "no counter window: a [戦闘] auto cannot be countered",
                    )
                    self._settle(item)

    def _roll_speed(self) -> None:
        t = self.table
        b = t.battle
        assert b is not None
        for p in t.players:
            front = b.front.get(p) or next((u.id for u in self._participants() if u.owner == p), None)
            unit = t.units[front] if front else None
            bonus = unit.speed + sum(int(e.arg) for e in self._continuous_effects(unit, "speed")) if unit else 0
            b.speed_mod[p] = bonus
            b.dice[p] = t.roll_die()
        self._note(f"speed dice: {self._speed_text()}", "FLOW-SPD")
        a, d = b.advancing, b.defending
        totals = b.totals()
        if self.variants.speed_window_first == "defending" or totals[a] == totals[d]:
            leader = a
        else:
            leader = max((a, d), key=lambda p: totals[p])
        roll = ChainItem(t.next_seq, "speed_roll", leader, None, "speed", during="speed")
        t.next_seq += 1
        self._step(roll, "declare", "FLOW-SPD", "the dice result stands on the chain")
        self._step(roll, "open_window", "TIM-SPD", "[反撃：スピード限定] may answer the dice result")
        t.chain.append(roll)
        t.priority = t.opponent(leader)
        self._chain_event("open_window", f"{t.priority} may counter first", "TIM-SPD")

    def _speed_text(self) -> str:
        b = self.table.battle
        assert b is not None
        return ", ".join(f"{p} {b.dice[p]}{b.speed_mod.get(p, 0):+d} = {b.totals()[p]}" for p in self.table.players)

    def _decide_speed(self) -> None:
        t = self.table
        b = t.battle
        assert b is not None
        totals = b.totals()
        a, d = b.advancing, b.defending
        if totals[a] == totals[d]:
            rule = self.variants.speed_tie
            if rule == "reroll":
                self._note(f"tie ({self._speed_text()}): roll again", "FLOW-SPD")
                self._roll_speed()
                return
            first = a if rule == "advancing_first" else d
        else:
            first = max((a, d), key=lambda p: totals[p])
        b.first = b.turn = first
        self._flow("speed_decided", f"{self._speed_text()}: {first} is first (先攻)", "FLOW-SPD")

    def _can_act(self, player: str) -> bool:
        return any(u.owner == player and not u.acted for u in self._participants())

    def _end_normal_timing(self, passed: bool) -> None:
        t = self.table
        b = t.battle
        assert b is not None
        if not passed:
            b.passes = 0
        sides = {u.owner for u in self._participants()}
        reason = ""
        if len(sides) < 2:
            reason = "one side has no units left in the battle"
        elif not any(self._can_act(p) for p in t.players):
            reason = "no unit on either side can act"
        elif self.variants.battle_ends_on_double_pass and b.passes >= 2:
            reason = "both players passed their normal timings"
        if reason:
            self._flow("end_battle", f"battle ends: {reason}", "FLOW-END")
            self._cleanup()
            return
        b.turn = t.opponent(b.turn or b.advancing)
        self._flow("next_timing", f"{b.turn}'s normal timing", "FLOW-NORMAL")

    def _cleanup(self) -> None:
        t = self.table
        b = t.battle
        assert b is not None
        for u in t.units.values():
            if u.skills.granted:
                u.skills.granted.clear()
                self._note(f"[戦闘] effects on {u.name} lapse", "TIM-BTL")
            if u.skills.consumed:
                u.skills.consumed.clear()
                self._note(f"{u.name}'s used skills come back", "SC-3")
            if self.variants.reset_acted_at_battle_end:
                u.acted = False
            u.declared.clear()
        for c in t.cards.values():
            if c.quick_summon and c.zone == "revealed":
                c.zone = "graveyard"
                self._note(
                    f"{c.name} was declared at the quick-summon timing and is discarded after the battle",
                    "QS-3",
                )
        geo = t.geos[b.geo]
        left = {u.owner for u in self._participants()}
        if left == {b.advancing}:
            geo.holder = b.advancing
            self._note(f"{b.advancing} takes {geo.name}", "FLOW-END")
        t.battle = None
        self._flow("cleanup", "back to the main phase", "FLOW-CLEANUP")
