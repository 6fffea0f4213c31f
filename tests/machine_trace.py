"""Reading a rule's decision from the machines' own trace, not only from its outcome.

Every log line of a machine transition carries the machines as they stood (fsm/machines/trace.py):
which one moved, the event sent, the state it left and the one it entered.  A rule test that reads
its outcome from the table would still pass if the engine took the decision back from the machines
with the same result (it decided the recheck itself, say); these helpers make the test also ask the
trace which edge the machine took (ACT-6, COST-5, SD-6, SC-6 at the recheck, TIM-CTR-2 for priority,
TIM-CTR-3 for the order the chain unwinds in, the 限定 counters for what a counter answered).
"""

from __future__ import annotations

from dataclasses import dataclass

from fsm.engine.game import Game
from fsm.machines.trace import CHAIN, PROCEDURE, Link


@dataclass(frozen=True)
class Edge:
    """One transition as the trace recorded it."""

    machine: str
    event: str
    left: tuple[str, ...]
    entered: str  # a procedure's new state, the chain's, or the flow's innermost
    source: str = ""  # a procedure's link: its ability name, card name, "attack" or "speed"
    failed: tuple[str, ...] = ()  # at a fizzle: the recheck conditions that failed
    below: Link | None = None  # a procedure's link: the link under it on the chain (what it answers)


def edges(game: Game, machine: str | None = None, source: str | None = None) -> list[Edge]:
    """The machines' transitions, oldest first; only ``machine``'s, or only ``source``'s procedure."""
    names = {c.id: c.name for c in game.table.cards.values()}  # a card's link names its id
    out = []
    for entry in game.log:
        t = entry.trace
        if t is None or (machine is not None and t.machine != machine):
            continue
        if t.machine == PROCEDURE:
            at = next(i for i, link in enumerate(t.links) if link.seq == t.link)
            link = t.links[at]
            edge = Edge(
                t.machine, t.event, t.left, link.state, names.get(link.source, link.source), t.failed,
                t.links[at - 1] if at else None,
            )  # fmt: skip
        else:
            edge = Edge(t.machine, t.event, t.left, t.chain if t.machine == CHAIN else t.flow[-1])
        if source is None or edge.source == source:
            out.append(edge)
    return out


def took(game: Game, source: str, event: str, entered: str) -> Edge:
    """Assert that ``source``'s procedure (``"chain"``: the counter chain) took the edge ``event``
    into ``entered``; the last such edge."""
    found = edges(game, CHAIN) if source == CHAIN else edges(game, PROCEDURE, source)
    hits = [e for e in found if e.event == event and e.entered == entered]
    taken = [(e.event, e.entered) for e in found]
    assert hits, f"the machines' trace shows no {event} edge into {entered} for {source}: {taken}"
    return hits[-1]


def settled(game: Game, source: str) -> Edge:
    """The edge by which ``source``'s last link was settled: resolve into resolved, or fizzle into
    fizzled (with the conditions that failed)."""
    found = [e for e in edges(game, PROCEDURE, source) if e.entered in ("resolved", "fizzled")]
    assert found, f"the machines' trace shows {source} neither resolved nor fizzled"
    return found[-1]


def unwound(game: Game) -> list[str]:
    """The links in the order their procedures entered the recheck (TIM-CTR-3: newest first)."""
    return [e.source for e in edges(game, PROCEDURE) if e.entered == "recheck"]


def priorities(game: Game) -> list[str]:
    """The counter chain's states in the order the chain entered them (who held priority, TIM-CTR-2)."""
    return [e.entered for e in edges(game, CHAIN)]
