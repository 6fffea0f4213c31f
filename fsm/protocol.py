"""What the registries' functions may ask of a game: small typing Protocols, not ``Game``.

A price (:mod:`fsm.prices`) or an effect (:mod:`fsm.effects`) is a function of the table it
changes and of a few questions about it.  They are typed against :class:`Board` below, so
they run with anything that answers these questions (the engine's ``Game`` does), and no
registry module imports the engine.
"""

from __future__ import annotations

from typing import Protocol

from .model import Ability, Card, ChainItem, Table, Unit
from .skills import Pool
from .variants import Variants


class FlowView(Protocol):
    """Where the game flow stands (a configuration of GameFlow)."""

    def at(self, state_id: str) -> bool: ...


class Spec(Protocol):
    """What a price asks of the procedure it is the price of (a :class:`fsm.kinds.KindSpec`)."""

    @property
    def price(self) -> str: ...

    @property
    def price_paid(self) -> str: ...

    @property
    def category(self) -> str: ...

    def clause(self, slot: str) -> str: ...


class Board(Protocol):
    """The table and what the rules see on it, as a price or an effect may ask."""

    @property
    def table(self) -> Table: ...

    @property
    def variants(self) -> Variants: ...

    @property
    def flow(self) -> FlowView: ...

    def note(self, text: str, clause: str) -> None:
        """Write one line of the narrative, with the clause it follows."""

    def available(self, unit: Unit) -> Pool:
        """The skills the unit has now (SC-2, AUTO-4)."""

    def holdings(self, unit: Unit) -> list[Pool]:
        """What is already held on the unit: pending skill uses (SC-4) and equips (EQ-1)."""

    def leave_field(self, unit: Unit, zone: str, destroyed: bool = False, discarded: bool = False) -> None:
        """The unit goes to ``zone``; what it carries goes with it (EQ-1)."""

    def reroll_speed(self, clause: str) -> None:
        """Roll the speed dice again (FLOW-SPD)."""

    def ability_of(self, item: ChainItem) -> Ability | None:
        """The unit's ability a chain item was declared from (None for a card)."""

    def source_of(self, item: ChainItem) -> Card | Ability | None:
        """The card or the unit's ability a chain item was declared from (None: attack, speed roll)."""

    def equip(self, card: Card, unit: Unit) -> None:
        """Attach the card to the unit; it holds its condition's skills while it stays (EQ-1)."""

    def source_name(self, item: ChainItem) -> str:
        """The card's or ability's name, as a player reads it."""
