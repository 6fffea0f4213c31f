"""The table: players, units, cards, geo, the battle and the chain, as plain data.

Everything the rules can change lives here and nowhere else, so a snapshot of a
:class:`Table` is a complete save of the game (undo, exploring), and its :meth:`Table.key`
is a compact fingerprint for the explorer's visited set.  The state machines keep their
current state in these objects too (``ChainItem.state``, ``Table.chain_state``,
``Table.flow_state``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, MutableSet
from dataclasses import dataclass, field
from typing import Any, cast

from fsm.rules.price_parts import Part
from fsm.rules.skills import Condition, SkillPool, Skills
from fsm.table.sharing import Lease, Shared, SharedDict


def _shallow(obj: Any) -> Any:
    """A new object of the same class sharing the old one's field values (no __init__)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


#: Whether a type of flow state is a set (copied with its table), by type.
_IS_SET: dict[type, bool] = {}
#: ``str()`` of each flow configuration held as a set, by its type and states (a few dozen at most).
_STATE_TEXTS: dict[tuple[type, tuple[Any, ...]], str] = {}


def _state_text(state: Any) -> str:
    """``str(state)``; a set's is kept: python-statemachine's OrderedSet words itself slowly, and
    every table explored is fingerprinted (:meth:`Table.key`)."""
    kind = type(state)
    if kind is str or not _IS_SET.get(kind, False):
        return str(state)
    found = (kind, tuple(state))
    text = _STATE_TEXTS.get(found)
    if text is None:
        text = _STATE_TEXTS[found] = str(state)
    return text


@dataclass(frozen=True)
class Effect:
    """One effect word and its argument (its meaning: :mod:`fsm.spec.effects`)."""

    op: str
    arg: str = ""

    def __str__(self) -> str:
        return f"{self.op} {self.arg}".strip()


@dataclass(frozen=True)
class Ability:
    """A unit's special ability (AB-1): its kind, timings and what it does."""

    name: str
    kind: str  # a kind key: action, cost, auto, self_destruct, march, or a designer's
    timings: tuple[str, ...] = ()
    cost: tuple[tuple[str, int], ...] = ()  # the skills of its 代償 (COST-3, SYM-1)
    effect: tuple[Effect, ...] = ()
    dice: bool = False  # rolls a die right after declaration (ACT-4, COST-3, SD-4)
    min_roll: int = 0  # the effect happens only on a roll of at least this
    target: str = "unit"  # unit | player | none
    sync: str | None = None  # 【同調】: name a same-party partner must contain (SYNC-1)
    battle_only: bool = False  # 【自動】 marked [戦闘] (AUTO-2); without it, AUTO-4
    parts: tuple[Part, ...] = ()  # the rest of its 代償: cards, units, equips (fsm/rules/price_parts.py)

    @property
    def cost_pool(self) -> Skills:
        """The 代償's skills as a pool, made once (kept beside the frozen fields; never changed)."""
        kept: Skills | None = self.__dict__.get("_cost_pool")
        if kept is None:
            kept = Skills(self.cost)
            object.__setattr__(self, "_cost_pool", kept)
        return kept


@dataclass
class Unit(Shared):
    id: str
    name: str  # the card name, which 名称：X conditions look into (NAME-1)
    owner: str
    level: int = 1
    speed: int = 0
    skills: SkillPool = field(default_factory=SkillPool)
    abilities: tuple[Ability, ...] = ()
    zone: str = "field"  # hand | field | graveyard
    geo: str | None = None
    party: str | None = None
    acted: bool = False  # 行動完了
    marched: bool = False  # 進軍完了
    destroyed: bool = False  # 撃破
    discarded: bool = False  # 破棄
    quick_summon: bool = False  # may be quick-summoned (FLOW-QS)
    declared: frozenset[str] = frozenset()  # abilities declared (ACT-2, SD-2); a new set per change

    @property
    def on_field(self) -> bool:
        return self.zone == "field"

    def copy(self) -> Unit:
        """A copy in no table, sharing nothing a move can change."""
        return cast("Unit", self.copy_for(None))

    def fingerprint(self) -> tuple[Any, ...]:
        return (
            self.id, self.zone, self.geo, self.party, self.acted, self.marched, self.destroyed, self.discarded,
            self.skills.consumed.key, self.skills.granted.key,
            tuple(sorted(self.declared)),
        )  # fmt: skip

    def state_words(self) -> str:
        words = [
            "行動完了" if self.acted else "行動未完了",
            "進軍完了" if self.marched else "進軍未完了",
        ]
        if self.destroyed:
            words.append("撃破")
        if self.discarded:
            words.append("破棄")
        if not self.on_field:
            words.append(f"in {self.zone}")
        return " ".join(words)


@dataclass
class Card(Shared):
    """A skill card (スキルカード) or an equip card (イクイップカード)."""

    id: str
    name: str
    owner: str
    type: str = "skill"  # skill | equip
    condition: Condition = field(default_factory=Condition)
    timings: tuple[str, ...] = ()
    effect: tuple[Effect, ...] = ()
    dice: bool = False
    min_roll: int = 0
    target: str = "unit"
    quick_summon: bool = False  # "declare at quick-summon timing" (QS-1)
    zone: str = "hand"  # hand | revealed | chain | equipped | graveyard
    equipped_to: str | None = None  # EQ-1: the unit whose skills it holds

    def fingerprint(self) -> tuple[Any, ...]:
        return (self.id, self.zone, self.equipped_to)


@dataclass
class Geo(Shared):
    name: str
    holder: str | None = None
    limit: int = 99  # リミット: total level a side may have here (FLOW-QS)

    def fingerprint(self) -> str | None:
        return self.holder  # advancing takes a geo (FLOW-ADV, FLOW-END)


@dataclass
class ChainItem:
    """One declared item waiting on the chain (a chain link)."""

    seq: int  # declaration order
    kind: str  # KindSpec key (with sync_ prefix for 【同調】)
    declarer: str  # the player
    unit: str | None  # the unit that uses it
    source: str  # ability name, card id, or "attack"/"speed"
    target: str | None = None
    answering: int | None = None  # seq of the item it answers
    dice: int | None = None
    reserved: tuple[tuple[str, int], ...] = ()  # skill symbols held until resolution (SC-4)
    paid: tuple[tuple[str, int], ...] = ()  # price already paid (COST-3)
    chosen: tuple[str, ...] = ()  # what the move named to pay the 代償's parts with, in part order
    taken: tuple[tuple[str, ...], ...] = ()  # each part paid: (id, what, zone before, ...), for a refund (COST-5)
    state: Any = "idle"  # the procedure machine's state (every item starts idle)
    during: str = "any"  # any / attack / speed: the timing the item was declared in
    outcome: tuple[str, str, str] = ("", "", "")  # (resolved | fizzled, clause, why), once decided


@dataclass
class Battle:
    geo: str
    advancing: str
    defending: str
    participants: list[str] = field(default_factory=list)
    front: dict[str, str] = field(default_factory=dict)  # player → front unit (隊列)
    dice: dict[str, int] = field(default_factory=dict)  # player → speed die (FLOW-SPD)
    # Three kinds of speed modifier, kept apart so that a roll replaces only its own part:
    front_speed: dict[str, int] = field(default_factory=dict)  # the front unit's speed, set at each roll
    speed_mod: dict[str, int] = field(default_factory=dict)  # battle-long: [戦闘] effects (TIM-BTL)
    roll_mod: dict[str, int] = field(default_factory=dict)  # resolved while answering the dice (TIM-SPD)
    # (unit, field) → its value before a [戦闘] effect changed it: put back at clean-up (TIM-BTL)
    restore: dict[tuple[str, str], Any] = field(default_factory=dict)
    synced: list[tuple[str, str]] = field(default_factory=list)  # (unit, ability): 【同調】【自動】[戦闘] in force
    rerolled: bool = False  # an effect rolled the dice again: the new result is offered once the chain ends
    origin: str | None = None  # the geo the advancing unit came from (FLOW-ADV)
    first: str | None = None  # 先攻
    turn: str | None = None  # whose normal timing it is
    passes: int = 0  # normal timings passed in a row

    def copy(self) -> Battle:
        new = _shallow(self)
        new.participants = list(self.participants)
        new.front, new.dice = dict(self.front), dict(self.dice)
        new.front_speed, new.speed_mod, new.roll_mod = dict(self.front_speed), dict(self.speed_mod), dict(self.roll_mod)
        new.restore, new.synced = dict(self.restore), list(self.synced)
        return new

    def modifier(self, player: str) -> int:
        """Everything added to the player's die: front unit, [戦闘] effects, answers to the dice."""
        return sum(part.get(player, 0) for part in (self.front_speed, self.speed_mod, self.roll_mod))

    def totals(self) -> dict[str, int]:
        return {p: d + self.modifier(p) for p, d in self.dice.items()}


class Writing:
    """:meth:`Table.writing`'s block (a class, not a generator: every move enters one)."""

    __slots__ = ("table",)

    def __init__(self, table: Table) -> None:
        self.table = table

    def __enter__(self) -> Table:
        t = self.table
        t.stamp = object()
        t._lease.writing += 1
        return t

    def __exit__(self, *exc: object) -> None:
        self.table._lease.writing -= 1  # the lease now (a copy taken inside renews it, keeping the count)


@dataclass
class Outcome:
    """What became of one declared item: resolved or fizzled, and why."""

    seq: int
    kind: str
    source: str
    unit: str | None
    result: str  # resolved | fizzled
    clause: str
    reason: str = ""


@dataclass
class Table:
    """Everything the rules can change (see the module docstring).

    The units, cards and geos are copy-on-write :class:`~fsm.table.sharing.SharedDict`: a copy shares them
    with the original until one of the two writes (:mod:`fsm.table.sharing`).  To add a zone of parts
    (a hand, a graveyard), add its field as ``SharedDict[Card]`` (its class a :class:`~fsm.table.sharing.Shared`
    with a ``fingerprint``), its name to :attr:`PARTS`, and its fingerprints to :meth:`key`.
    A new field that is a plain list, dict or set is copied in :meth:`copy`.
    """

    players: tuple[str, str]
    units: SharedDict[Unit] = field(default_factory=SharedDict)
    cards: SharedDict[Card] = field(default_factory=SharedDict)
    geos: SharedDict[Geo] = field(default_factory=SharedDict)
    active: str = ""  # the player whose turn (main phase) it is
    battle: Battle | None = None
    chain: list[ChainItem] = field(default_factory=list)
    chain_state: Any = None  # the counter-chain machine's state
    main_reply: bool = False  # variant mf_cards_in=any_main_phase: the other player decides before the phase ends
    flow_state: Any = None  # the battle-flow machine's state
    seed: int = 0
    rolls: int = 0  # dice rolled so far: the next roll is a pure function of (seed, rolls)
    next_seq: int = 1
    outcomes: list[Outcome] = field(default_factory=list)
    resolution_order: list[int] = field(default_factory=list)

    #: The copy-on-write containers, each under this table's lease.
    PARTS = ("units", "cards", "geos")

    def __post_init__(self) -> None:
        self._lease = Lease()
        self.stamp = object()  # this content's version: a copy shares it, writing() makes a new one
        self.vetted: Any = None  # (game, stamp, ...) the moves the game found legal here (Game.legal_moves)
        for name in self.PARTS:
            setattr(self, name, SharedDict(self._lease, getattr(self, name)))

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (or deep-copied) without the moves a game vetted here: they hold for this game only."""
        return {k: v for k, v in self.__dict__.items() if k != "vetted"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickled (or deep-copied): the parts come back under a lease of the table's own."""
        self.__dict__.update(state)
        self.__post_init__()

    def opponent(self, player: str) -> str:
        a, b = self.players
        return b if player == a else a

    def roll_die(self) -> int:
        """A reproducible d6: the n-th roll of a seeded game is always the same."""
        self.rolls += 1
        return random.Random(f"{self.seed}:{self.rolls}").randint(1, 6)

    def writing(self) -> Writing:
        """Inside, a part read through this table is its own to write (copied first if shared).

        Entering it gives the table a new :attr:`stamp`: a move vetted on the old content
        (:meth:`fsm.engine.game.Game.legal_moves`) is checked again before it is played here."""
        return Writing(self)

    def copy(self) -> Table:
        """An independent copy that shares every unit, card and geo until one side writes it.

        Every move takes one (the undo snapshot) and the explorer one per table it visits.
        Both tables get a new lease: the parts they share are frozen for both, and each
        copies a part when it first writes it (:mod:`fsm.table.sharing`).  The battle, the chain
        links and the lists are small and copied here; frozen data (abilities, conditions,
        effects) and the outcomes already recorded (never changed once written) are shared.
        ``tests/test_explorer.py`` checks that whatever is shared refuses writes.
        """
        old = self._lease
        old.valid = False
        self._lease = Lease(old.writing)
        new = _shallow(self)
        lease = new._lease = Lease()
        mine, theirs = self.__dict__, new.__dict__  # plain attributes: the dicts read and write them
        for name in self.PARTS:
            parts: SharedDict[Any] = mine[name]
            parts._lease = self._lease
            theirs[name] = parts.fork(lease)
        new.battle = self.battle.copy() if self.battle is not None else None
        new.chain = [_shallow(i) for i in self.chain]
        new.outcomes = list(self.outcomes)
        new.resolution_order = list(self.resolution_order)
        kind = type(self.flow_state)
        is_set = _IS_SET.get(kind)
        if is_set is None:  # an isinstance check against an ABC costs more than the copy: once per type
            is_set = _IS_SET[kind] = issubclass(kind, MutableSet)
        if is_set:
            # The abstract MutableSet takes no items; the set kept here (python-statemachine's
            # OrderedSet) is built from an iterable.
            same_kind = cast("Callable[[Iterable[Any]], MutableSet[Any]]", kind)
            new.flow_state = same_kind(self.flow_state)
        return new

    def key(self) -> tuple[Any, ...]:
        """A compact, hashable fingerprint of everything the rules can see.

        Each unit, card and geo keeps its own until it is written (:meth:`fsm.table.sharing.Shared.key`),
        so this costs what the last move wrote, plus the chain and the battle.
        """
        # list comprehensions: a generator costs more per item, and this runs for every table explored
        units = tuple([u.key() for u in self.units.peek()])
        cards = tuple([c.key() for c in self.cards.peek()])
        chain = tuple([
            (i.seq, i.kind, i.source, i.unit, i.target, i.dice, str(i.state), i.chosen,
             i.answering, i.reserved, i.paid, i.taken, i.during, i.outcome)
            for i in self.chain
        ])  # fmt: skip
        b = self.battle
        battle = (
            (b.geo, b.advancing, b.defending, tuple(b.participants), b.first, b.turn, b.passes,
             tuple(sorted(b.front.items())), b.rerolled, b.origin, tuple(sorted(b.restore.items())), tuple(b.synced),
             # the dice and each modifier apart: a [戦闘] speed +N is there before the roll (FLOW-SPD)
             *[tuple(sorted(part.items())) for part in (b.dice, b.front_speed, b.speed_mod, b.roll_mod)])
            if b else None
        )  # fmt: skip
        geos = tuple([g.key() for g in self.geos.peek()])
        return (
            units, cards, chain, battle, geos, self.active, str(self.chain_state),
            _state_text(self.flow_state), self.rolls, self.main_reply,
        )  # fmt: skip
