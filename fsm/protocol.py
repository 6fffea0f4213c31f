"""What the machines and their listeners need from a game, as typing Protocols (not ``Game``).

A machine's listener (:class:`fsm.steps.BattleSteps`) is written against :class:`FlowHost`, so
it runs on anything that offers these few parts: the table, the rules and variants in force,
the two table-level machines, and the engine's small services (write a log line, step a
procedure, read what the rules see on a unit).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .battle import GameFlow
    from .chain import CounterChain
    from .kinds import KindSpec
    from .model import ChainItem, Effect, Table, Unit
    from .ruleset import Ruleset
    from .variants import Variants


class FlowHost(Protocol):
    """The game as the battle's steps see it."""

    table: Table
    rules: Ruleset
    variants: Variants
    flow: GameFlow
    chain: CounterChain

    def _note(self, text: str, clause: str, machine: str = "", entered: tuple[str, ...] = ()) -> None: ...
    def _step(self, item: ChainItem, event: str, clause: str, text: str) -> None: ...
    def _chain_event(self, event: str, text: str, clause: str) -> None: ...
    def _without_window(self, item: ChainItem, clause: str, text: str) -> None: ...
    def _participants(self) -> list[Unit]: ...
    def _partner(self, u: Unit, name: str) -> Unit | None: ...
    def _continuous_effects(self, unit: Unit, op: str) -> list[Effect]: ...
    def _unmarch(self, u: Unit) -> None: ...
    def acted(self, unit: Unit) -> bool: ...
    def spec_of(self, item: ChainItem) -> KindSpec: ...
