"""What a log line needs to redraw the machines as they stood when it was written.

The engine stamps a :class:`Trace` on the log line of every machine transition (a procedure
step, a counter-chain event, a game-flow event).  A viewer plays the engine's own trace back
(:mod:`fsm.notebook.timeline`), so it never re-runs a rule: the configurations, the chain as a stack,
the transition just taken and, at a recheck, which conditions held are all here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fsm.table.model import ChainItem

if TYPE_CHECKING:
    from fsm.table.model import Table

#: Which machine a transition belongs to.
FLOW, CHAIN, PROCEDURE = "flow", "chain", "procedure"


@dataclass(frozen=True)
class Link:
    """One chain link as it stood: enough to name it and to draw its procedure."""

    seq: int
    kind: str  # KindSpec key, ``sync_`` prefix for 【同調】
    source: str  # ability name, card id, "attack" or "speed"
    unit: str | None
    declarer: str
    state: str  # its procedure's state

    def item(self) -> ChainItem:
        """A chain item standing for this link, to ask the engine about it (``Game.spec_of``)."""
        return ChainItem(self.seq, self.kind, self.declarer, self.unit, self.source, state=self.state)


@dataclass(frozen=True)
class Trace:
    """The machines at one instant, and the transition that led there."""

    machine: str  # FLOW, CHAIN or PROCEDURE: which one moved
    event: str  # the event sent
    left: tuple[str, ...]  # the states it was in before
    flow: tuple[str, ...]  # the game-flow configuration after
    chain: str  # the counter-chain state after
    links: tuple[Link, ...]  # the chain, oldest first; a link being settled stays on top until it has
    link: int | None = None  # seq of the link whose procedure moved
    checked: tuple[tuple[str, bool], ...] = ()  # at a recheck: (fizzle reason, still fine?) per condition

    @property
    def top(self) -> Link | None:
        return self.links[-1] if self.links else None

    @property
    def failed(self) -> tuple[str, ...]:
        """The recheck conditions that failed (the reasons the link fizzled)."""
        return tuple(reason for reason, fine in self.checked if not fine)


def _link(item: ChainItem, state: str | None = None) -> Link:
    return Link(item.seq, item.kind, item.source, item.unit, item.declarer, state or str(item.state))


def capture(
    table: Table,
    machine: str,
    event: str,
    left: Iterable[object],
    item: ChainItem | None = None,
    checked: tuple[tuple[str, bool], ...] = (),
    entered: str | None = None,
    flow: tuple[str, ...] | None = None,
) -> Trace:
    """The trace of a transition on ``table`` (``item``: the link whose procedure moved).  Taken while
    the transition runs, ``entered`` (the item's state) and ``flow`` (the flow's configuration) say
    where it ends."""
    links = [_link(i, entered if i is item else None) for i in table.chain]
    if item is not None and all(i is not item for i in table.chain):
        links.append(_link(item, entered))  # being declared, or popped for its recheck: still the top link
    now = table.flow_state
    if flow is None:  # taken after the transition: the configuration the table holds
        flow = tuple(map(str, now)) if not isinstance(now, str) and now is not None else (str(now),)
    return Trace(
        machine,
        event,
        tuple(map(str, left)),
        flow,
        str(table.chain_state),
        tuple(links),
        item.seq if item is not None else None,
        checked,
    )
