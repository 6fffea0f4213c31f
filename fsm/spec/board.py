"""What the rules see on the table: the skills a unit has now, 行動完了, what holds its skills, who
takes part in the battle, a 【同調】 partner, what is always in effect, and what a chain item was
declared from.

:class:`OnTable` answers the seeing half of :class:`fsm.table.protocol.Board` for the engine; it reads
the table through its host each time, so a restored or replaced table is seen at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Protocol

from fsm.errors import BadInput
from fsm.i18n import _, did_you_mean, language
from fsm.rules.skills import Pool, Skills, can_pay, coverable
from fsm.rules.timing import Point, TimingSpec
from fsm.spec import effects
from fsm.spec.kinds import KindSpec
from fsm.spec.ruleset import Ruleset
from fsm.table.model import Ability, Card, ChainItem, Effect, Table, Unit


class Tabled(Protocol):
    """The table and the rules in force, all the board needs."""

    @property
    def table(self) -> Table: ...

    @property
    def rules(self) -> Ruleset: ...


class OnTable:
    """What the rules see on the table (SC-2, SC-4, EQ-1, AUTO-4, SYNC-1)."""

    def __init__(self, host: Tabled) -> None:
        self.host = host
        # id(abilities) -> (rules, abilities, the continuous ones, whether one is 【同調】): a unit's
        # abilities are a tuple its copies share, so this is asked once per tuple, not per look
        self._continuous: dict[int, tuple[Ruleset, tuple[Ability, ...], tuple[Ability, ...], bool]] = {}
        # What a unit keeps of this board's answers (its free skills) carries this token: a plain
        # object, so that a pickled unit carries no rules, and a new one whenever the rules change.
        self._token: tuple[Ruleset | None, object] = (None, object())
        self._specs: dict[str, tuple[Ruleset, KindSpec]] = {}  # a chain item's kind -> its spec

    @property
    def table(self) -> Table:
        return self.host.table

    # ------------------------------------------------------------------ lookups
    def unit(self, uid: str | None) -> Unit:
        """A unit of this table; an unknown id is a typo (BadInput), not a rules question."""
        if uid is None or uid not in self.table.units:
            known = ", ".join(self.table.units) or "none"
            message = _("no unit {uid!r} on this table; units: {known}").format(uid=uid, known=known)
            raise BadInput(message + did_you_mean(uid, self.table.units))
        return self.table.units[uid]

    def card(self, cid: str | None) -> Card:
        if cid is None or cid not in self.table.cards:
            known = ", ".join(self.table.cards) or "none"
            message = _("no card {cid!r} on this table; cards: {known}").format(cid=cid, known=known)
            raise BadInput(message + did_you_mean(cid, self.table.cards))
        return self.table.cards[cid]

    def spec_of(self, item: ChainItem) -> KindSpec:
        """The procedure spec a chain item follows (its kind, wrapped in 【同調】 if it is one)."""
        rules, kind = self.host.rules, item.kind
        known = self._specs.get(kind)
        if known is None or known[0] is not rules:
            sync = kind.startswith("sync_")
            known = self._specs[kind] = (rules, rules.kind(kind.removeprefix("sync_"), sync))
        return known[1]

    def timings_at(self, point: Point) -> Mapping[str, TimingSpec]:
        """The timings in force at this point.  Where the other player may reply before a main
        phase ends (variant mf_cards_in=any_main_phase), [ＭＦ] is usable too: TIM-MF says only
        "during the main phase", not whose."""
        timings = self.host.rules.timings
        if point.action != "opponent_main" or "main" not in timings:
            return timings
        main = timings["main"]
        return {**timings, "main": replace(main, at=(*main.at, "opponent_main"))}

    # ------------------------------------------------------------------ the battle
    def participants(self) -> list[Unit]:
        """The battle's units on the field, as they are: never copied for writing, even inside a
        move (a caller that changes one takes ``table.units[u.id]``), so that asking who fights
        copies nobody (fsm/table/sharing.py)."""
        b = self.table.battle
        if b is None:
            return []
        look = self.table.units.look
        return [u for u in map(look, b.participants) if u.on_field]

    def in_battle(self, unit: Unit) -> bool:
        b = self.table.battle
        return b is not None and unit.id in b.participants and unit.on_field

    def partner(self, u: Unit, name: str) -> Unit | None:
        """A unit named ``name`` in the same party (SYNC-1), if there is one."""
        return next(
            (
                p
                for p in self.table.units.values()
                if p.id != u.id and name in p.name and p.on_field and u.party and p.party == u.party
            ),
            None,
        )

    # ------------------------------------------------------------------ what is always in effect
    def continuous_effects(self, unit: Unit) -> list[Effect]:
        """Effects of 【自動】 without [戦闘]: always in effect, in battle or not (AUTO-4);
        what each keeps doing is its word's ``lasting`` (fsm/spec/effects.py).

        A 【同調】 one works only while its partner is in the same party (SYNC-1).
        """
        continuous, _synced = self.continuous_abilities(unit)
        if not continuous:
            return []
        return [eff for ab in continuous if ab.sync is None or self.partner(unit, ab.sync) for eff in ab.effect]

    def continuous_abilities(self, unit: Unit) -> tuple[tuple[Ability, ...], bool]:
        """The unit's abilities always in effect (AUTO-4), and whether one of them is 【同調】 (then
        whether it works depends on the other units: SYNC-1)."""
        rules, abilities = self.host.rules, unit.abilities
        known = self._continuous.get(id(abilities))
        if known is None or known[1] is not abilities or known[0] is not rules:
            continuous = tuple(ab for ab in abilities if self.is_continuous(ab))
            known = (rules, abilities, continuous, any(ab.sync is not None for ab in continuous))
            self._continuous[id(abilities)] = known
        return known[2], known[3]

    def is_continuous(self, ab: Ability) -> bool:
        return self.host.rules.kinds[ab.kind].never_declared and not ab.battle_only

    # ------------------------------------------------------------------ skills
    def available(self, unit: Unit) -> Skills:
        """Skills the unit has now: base + grants − used this battle (SC-2) − what a continuous
        【自動】 takes away for as long as it is in effect (AUTO-4)."""
        # Kept on the unit until it is written (fsm/table/sharing.py drops it), unless a 【同調】
        # one makes it depend on the other units too.  Immutable: callers never change it.
        rules, token = self.host.rules, self._token
        if token[0] is not rules:
            token = self._token = (rules, object())
        kept = unit._derived
        if kept is not None and kept[0] is token[1]:
            return kept[1]
        _continuous, synced = self.continuous_abilities(unit)
        gained, lost = effects.lasting_skills(self.continuous_effects(unit))
        skills = unit.skills
        total = dict(skills.base)
        for part, sign in ((skills.granted, 1), (gained, 1), (skills.consumed, -1), (lost, -1)):
            for s, n in part.items():
                total[s] = total.get(s, 0) + sign * n
        have = Skills(total)
        if not synced and unit._lease is not None:  # bound: every write inside reaches _check_write
            unit.__dict__["_derived"] = (token[1], have)
        return have

    def acted(self, unit: Unit) -> bool:
        """行動完了: made so by acting or an effect, or held so by a continuous 【自動】 (AUTO-4)."""
        return unit.acted or effects.holds_acted(self.continuous_effects(unit))

    def holdings(self, unit: Unit) -> list[Pool]:
        """What is already held on this unit: pending skill uses (SC-4) and equips (EQ-1)."""
        held = [Counter(dict(i.reserved)) for i in self.pending_uses(unit)]
        return held + [part for _, part in self.equip_holds(unit)]

    def equip_holds(self, unit: Unit) -> list[tuple[Card, Pool]]:
        """Each equip on the unit with the skills it holds: its condition's, as far as the unit still
        has them (EQ-1).  A held skill that is gone (stripped, a lapsed grant) is not held, so the
        unit's other skills stay free."""
        equips = self.equips_on(unit)
        if not equips:
            return []
        left = Counter(self.available(unit))
        out = []
        for card in equips:
            part = coverable(left, card.condition.needs)
            left.subtract(part)
            out.append((card, part))
        return out

    def pending_uses(self, unit: Unit) -> list[ChainItem]:
        return [i for i in self.table.chain if i.unit == unit.id and i.reserved]

    def equips_on(self, unit: Unit) -> list[Card]:
        """The equips on the unit, as they are: never copied for writing, even inside a move (a
        caller that changes one takes ``table.cards[c.id]``), as :meth:`participants` gives units."""
        return [c for c in self.table.cards.peek() if c.zone == "equipped" and c.equipped_to == unit.id]

    def holders(self, unit: Unit) -> str:
        names = [self.source_name(i) for i in self.pending_uses(unit)]
        return ", ".join(names + [c.name for c in self.equips_on(unit)])

    def held_clause(self, u: Unit, need: Mapping[str, int], clause: str) -> str:
        """Why ``need`` cannot be paid from what is free: EQ-1 if only the skills u's equips hold
        stand in the way (an equip holds them while equipped), else the using kind's own clause."""
        pending = [Counter(dict(i.reserved)) for i in self.pending_uses(u)]
        return "EQ-1" if can_pay(self.available(u), [need, *pending]) else clause

    # ------------------------------------------------------------------ what an item was declared from
    def source_of(self, item: ChainItem) -> Card | Ability | None:
        """The card or the unit's ability a chain item was declared from (None: attack, speed roll)."""
        card = self.table.cards.get(item.source)
        if card is not None:
            return card
        u = self.table.units.get(item.unit or "")
        return next((a for a in u.abilities if a.name == item.source), None) if u else None

    def ability_of(self, item: ChainItem) -> Ability | None:
        source = self.source_of(item)
        return source if isinstance(source, Ability) else None

    def source_name(self, item: ChainItem) -> str:
        """What a chain item was declared from, as a player reads it: the card's or ability's name."""
        card = self.table.cards.get(item.source)
        if card:
            return card.name
        if self.source_of(item) is None and language() != "en":  # an attack, the speed dice: the move's id
            return self.spec_of(item).label  # reads in any language ([攻撃], [スピード決定])
        return item.source

    def item_name(self, item: ChainItem) -> str:
        """The item as a log line names it: its source, its unit, its target."""
        source = self.source_name(item)
        unit = self.table.units[item.unit].name if item.unit else ""
        tgt = self.table.units.get(item.target or "")
        target = tgt.name if tgt else item.target
        if unit and target:
            text = _("{source} of {unit} on {target}")
        elif unit:
            text = _("{source} of {unit}")
        else:
            text = _("{source} on {target}") if target else "{source}"
        return text.format(source=source, unit=unit, target=target)
