"""What the machines and the rule registries may ask of a game: small typing Protocols, not ``Game``.

The procedure machines (:mod:`fsm.machines.procedures`), the recheck conditions (:mod:`fsm.spec.recheck`), the
prices (:mod:`fsm.spec.prices`) and the effects (:mod:`fsm.spec.effects`) are typed against these, so they
run with anything that answers them (the engine's ``Game`` does), and none of them imports the
engine.  (The game flow's listener has its own, :class:`fsm.machines.steps.FlowHost`.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from fsm.rules.price_parts import Part
from fsm.rules.skills import Pool, Skills
from fsm.rules.variants import Variants
from fsm.table.model import Ability, Card, ChainItem, Table, Unit


class FlowView(Protocol):
    """Where the game flow stands (a configuration of GameFlow)."""

    def at(self, state_id: str) -> bool: ...


class Spec(Protocol):
    """What a price asks of the procedure it is the price of (a :class:`fsm.spec.kinds.KindSpec`)."""

    @property
    def price(self) -> str: ...

    @property
    def price_paid(self) -> str: ...

    @property
    def category(self) -> str: ...

    @property
    def cost(self) -> tuple[Part, ...]:
        """The kind's own 代償 parts (``[kind] cost``), paid by each of its abilities."""

    @property
    def fizzle_if(self) -> tuple[str, ...]: ...

    def clause(self, slot: str) -> str: ...


class Board(Protocol):
    """The table and what the rules see on it, as a price, an effect or a recheck may ask."""

    @property
    def table(self) -> Table: ...

    @property
    def variants(self) -> Variants: ...

    @property
    def flow(self) -> FlowView: ...

    def note(self, text: str, clause: str) -> None:
        """Write one line of the narrative, with the clause it follows."""

    @property
    def quiet(self) -> bool:
        """Nothing is narrated (the explorer): a step need not word what nobody reads."""

    def acted(self, unit: Unit) -> bool:
        """行動完了, by acting, by an effect, or held so by a continuous 【自動】 (AUTO-4)."""

    def available(self, unit: Unit) -> Skills:
        """The skills the unit has now (SC-2, AUTO-4)."""

    def holdings(self, unit: Unit) -> list[Pool]:
        """What is already held on the unit: pending skill uses (SC-4) and equips (EQ-1)."""

    def holders(self, unit: Unit) -> str:
        """The names of what holds the unit's skills (pending cards, equips), for a refusal."""

    def held_clause(self, unit: Unit, need: Mapping[str, int], clause: str) -> str:
        """EQ-1 where only what the unit's equips hold stands in the way of ``need``, else ``clause``."""

    def equip_holds(self, unit: Unit) -> list[Pool]:
        """What each equip on the unit holds of its condition (EQ-1)."""

    def in_battle(self, unit: Unit) -> bool: ...

    def partner(self, unit: Unit, name: str) -> Unit | None:
        """A unit named ``name`` in the same party (SYNC-1), if there is one."""

    def leave_field(self, unit: Unit, zone: str, destroyed: bool = False, discarded: bool = False) -> None:
        """The unit goes to ``zone``; what it carries goes with it (EQ-1)."""

    def reroll_speed(self, clause: str) -> None:
        """Roll the speed dice again (FLOW-SPD)."""

    def spec_of(self, item: ChainItem) -> Spec:
        """The kind of a declared item."""

    def ability_of(self, item: ChainItem) -> Ability | None:
        """The unit's ability a chain item was declared from (None for a card)."""

    def source_of(self, item: ChainItem) -> Card | Ability | None:
        """The card or the unit's ability a chain item was declared from (None: attack, speed roll)."""

    def equip(self, card: Card, unit: Unit) -> None:
        """Attach the card to the unit; it holds its condition's skills while it stays (EQ-1)."""

    def source_name(self, item: ChainItem) -> str:
        """The card's or ability's name, as a player reads it."""


class ProcedureHost(Board, Protocol):
    """What a procedure machine's actions do on the table; the machine says when."""

    def tell(self, item: ChainItem, step: str, entered: str, event: str) -> None:
        """Narrate one step of the item's procedure (``declare``, ``open_window``, ``recheck`` ...)."""

    def pay_price(self, item: ChainItem) -> None: ...

    def reserve(self, item: ChainItem) -> None: ...

    def act_in_normal_timing(self, item: ChainItem) -> None: ...

    def roll_dice(self, item: ChainItem) -> None: ...

    def apply_effect(self, item: ChainItem) -> None: ...

    def release(self, item: ChainItem) -> None: ...

    def open_window(self, item: ChainItem) -> None:
        """The item waits on the chain; the other side may answer it (TIM-CTR-2)."""

    def settled(self, item: ChainItem) -> None:
        """The item reached 発動 or 不発: record it and clear what it leaves behind."""
