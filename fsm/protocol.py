"""What the machines and the rule registries may ask of a game: small typing Protocols.

The procedure machines, the recheck conditions and the other registries depend on these, never on
:class:`fsm.engine.Game`, so a machine can be built, drawn and tested with any object that answers
them (and there is no import circle between the machines and the engine).
"""

from __future__ import annotations

from typing import Protocol

from .model import Ability, ChainItem, Table, Unit
from .skills import Pool


class Board(Protocol):
    """What the rules can see on the table beyond its plain fields."""

    @property
    def table(self) -> Table: ...

    def acted(self, unit: Unit) -> bool:
        """行動完了, by acting, by an effect, or held so by a continuous 【自動】 (AUTO-4)."""
        ...

    def available(self, unit: Unit) -> Pool:
        """The skills the unit has now (SC-2, AUTO-4)."""
        ...

    def equip_holds(self, unit: Unit) -> list[Pool]:
        """What each equip on the unit holds of its condition (EQ-1)."""
        ...

    def in_battle(self, unit: Unit) -> bool: ...

    def partner(self, unit: Unit, name: str) -> Unit | None:
        """A unit named ``name`` in the same party (SYNC-1), if there is one."""
        ...

    def ability_of(self, item: ChainItem) -> Ability | None: ...


class ProcedureHost(Board, Protocol):
    """What a procedure machine's actions do on the table; the machine says when."""

    def tell(self, item: ChainItem, step: str, entered: str) -> None:
        """Narrate one step of the item's procedure (``declare``, ``window``, ``recheck``, ...)."""
        ...

    def pay_price(self, item: ChainItem) -> None: ...

    def reserve(self, item: ChainItem) -> None: ...

    def act_in_normal_timing(self, item: ChainItem) -> None: ...

    def roll_dice(self, item: ChainItem) -> None: ...

    def apply_effect(self, item: ChainItem) -> None: ...

    def release(self, item: ChainItem) -> None: ...

    def open_window(self, item: ChainItem) -> None:
        """The item waits on the chain; the other side may answer it (TIM-CTR-2)."""
        ...

    def settled(self, item: ChainItem) -> None:
        """The item reached 発動 or 不発: record it and clear what it leaves behind."""
        ...
