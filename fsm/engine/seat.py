"""What the engine's parts may ask of the game: typing Protocols, not ``Game``.

:class:`Seat` is the game as the rules read it (legality, narration): the board
(:class:`fsm.table.protocol.Board`, :class:`fsm.spec.board.OnTable`), the rules in force and where the game
stands.  :class:`Driver` adds what playing a move needs: starting an item's procedure and sending
the flow and the chain their events.  Those sends are the engine's (fsm/engine/game.py), one method
each, so every place a machine is stepped is found there.
"""

from __future__ import annotations

from typing import Protocol

from fsm.machines.steps import BattleSteps
from fsm.rules.timing import Point
from fsm.spec.board import OnTable
from fsm.spec.ruleset import Ruleset
from fsm.table.model import ChainItem
from fsm.table.protocol import Board


class Seat(Board, Protocol):
    """The game as its rules read it."""

    @property
    def rules(self) -> Ruleset: ...

    @property
    def board(self) -> OnTable: ...

    def actor(self) -> str | None:
        """The player who must decide now."""

    def point(self, player: str | None = None) -> Point:
        """Where the game stands for ``player``, in the timing table's terms."""

    def flow_name(self) -> str:
        """The flow's configuration, as a log line names it."""

    def note(self, text: str, clause: str, machine: str = "", entered: tuple[str, ...] = ()) -> None: ...


class Driver(Seat, Protocol):
    """The game as a move plays out on it: the steps of the flow and the machines' events."""

    @property
    def steps(self) -> BattleSteps: ...

    def start(self, item: ChainItem, told: dict[str, tuple[str, str]] | None = None) -> bool:
        """Hand a new item to its procedure; True if it now waits on the chain."""

    def resolve_item(self, item: ChainItem) -> None:
        """The item's window has closed: its procedure rechecks and resolves or fizzles it."""

    def send_flow(self, event: str, text: str = "", clause: str = "") -> None:
        """Send the game flow an event (with the line the engine words for it, if any)."""

    def send_chain(self, event: str, text: str, clause: str) -> None:
        """Send the counter chain an event, with its line."""
