"""The narrative: one :class:`LogEntry` per step, each with the clause it follows.

:class:`Narration` keeps the log and words the steps of an item's procedure (declare, the
counter window, recheck, 発動 / 不発), with what frames a declaration: the timing it is used
under, a card with several timings, a 【同調】 wrapper, a card revealed at the quick-summon timing.
"""

from __future__ import annotations

from dataclasses import dataclass

from .kinds import WORDS, KindSpec
from .model import Ability, Card, ChainItem
from .recheck import RECHECKS, failing
from .seat import Seat
from .timing import Point, use_as
from .trace import PROCEDURE, Trace, capture


@dataclass(frozen=True)
class LogEntry:
    """One step of the narrative: what happened, which clause it follows, what was entered."""

    text: str
    clause: str
    machine: str = ""
    entered: tuple[str, ...] = ()
    move: str = ""
    trace: Trace | None = None  # on a machine transition: the machines at that instant (fsm.trace)


class Narration:
    """The log of one game, and how its procedures' steps read."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.log: list[LogEntry] = []
        self.current_move = ""  # the move being applied, stamped on its log lines
        self.told: dict[str, tuple[str, str]] = {}  # narration given by the caller of Game.start

    def note(
        self, text: str, clause: str, machine: str = "", entered: tuple[str, ...] = (), trace: Trace | None = None
    ) -> None:
        self.log.append(LogEntry(text, clause, machine, entered, self.current_move, trace))

    def insert(
        self, at: int, text: str, clause: str, machine: str, entered: tuple[str, ...], trace: Trace | None = None
    ) -> None:
        """A line that belongs before what has been written since ``at`` (a flow event's own line
        comes before what entering its state does)."""
        self.log.insert(at, LogEntry(text, clause, machine, entered, self.current_move, trace))

    def tell(self, item: ChainItem, step: str, entered: str, event: str) -> None:
        """One step of an item's procedure, narrated before what its actions do, with the trace a
        viewer redraws it from (at a resolve or fizzle: which recheck conditions held)."""
        seat = self.seat
        spec = seat.board.spec_of(item)
        framing: list[LogEntry] = []
        checked: tuple[tuple[str, bool], ...] = ()
        if step in self.told:
            text, clause = self.told[step]
        elif step == "declare":
            text, clause = self.declaration(item), spec.clause("declare")
            framing = self.framing(item, spec, seat.point())
        elif step == "open_window":
            text, clause = (
                "counter window opens" + (f" (dice: {item.dice})" if item.dice else ""),
                spec.clause("window"),
            )
        elif step == "skip_window":
            no_window = "cannot be countered: no counter window" if spec.counter_window else "has no counter window"
            text, clause = f"{spec.label} {no_window}", spec.clause("window")
        elif step == "recheck":
            text, clause = f"#{item.seq} {seat.source_name(item)}: recheck", spec.clause("recheck")
        elif step == "resolve":
            text, clause = f"#{item.seq} {seat.board.item_name(item)} resolves", spec.clause("resolve")
            item.outcome = ("resolved", clause, "")
            checked = tuple((r, True) for r in spec.fizzle_if)  # the machine resolves only if all held
        else:  # fizzle: the machine chose it; say every condition the item fails
            reasons = failing(seat, item, spec.fizzle_if)
            checked = tuple((r, r not in reasons) for r in spec.fizzle_if)
            why = "; ".join(WORDS[r][1] for r in reasons)
            own = {RECHECKS[r].clause for r in reasons}
            clause = own.pop() if len(own) == 1 and "" not in own else spec.clause("recheck")
            text = f"#{item.seq} {seat.board.item_name(item)} fizzles: {why}"
            item.outcome = ("fizzled", clause, why)
        trace = capture(seat.table, PROCEDURE, event, (str(item.state),), item, checked, entered)
        self.log.append(LogEntry(text, clause, spec.label, (entered,), self.current_move, trace))
        self.log.extend(framing)

    def declaration(self, item: ChainItem) -> str:
        seat = self.seat
        what = f"{item.declarer} declares {seat.board.spec_of(item).label} {seat.board.item_name(item)}"
        top = next((i for i in seat.table.chain if i.seq == item.answering), None)
        return what + (f", answering #{top.seq} {seat.source_name(top)}" if top else "")

    def framing(self, item: ChainItem, spec: KindSpec, point: Point) -> list[LogEntry]:
        """Log lines saying what frames a declaration: the timing it is used under (TIM-*),
        a card carrying several timings (TIM-1, or the clause naming that combination),
        a 【同調】 wrapper (SYNC-2) and a card revealed at the quick-summon timing (QS-2)."""
        rules = self.seat.rules
        source = self.seat.source_of(item)
        card = source if isinstance(source, Card) else None
        keys: tuple[str, ...] = card.timings if card else ()
        if isinstance(source, Ability):
            keys = source.timings or spec.default_timings
        lines: list[tuple[str, str]] = []
        use = use_as(keys, point, self.seat.board.timings_at(point)) if keys else None
        if use is not None:
            label = next(rules.timings[k].label for k in keys if rules.timings[k].clause == use[1])
            lines.append((f"used as {'a counter' if use[0] == 'counter' else 'an action'} under {label}", use[1]))
        if len(keys) > 1:
            clause, printed = rules.combination_clause(keys)
            lines.append((f"{printed} carries {len(keys)} timings; any one of them may be used", clause))
        if spec.sync:
            base = rules.kinds[spec.key.removeprefix("sync_")].label
            lines.append((f"【同調】 wraps {base}: its steps, plus the partner check", "SYNC-2"))
        if card is not None and card.quick_summon:
            lines.append((f"{card.name} was revealed at the quick-summon timing; used like any skill card", "QS-2"))
        return [LogEntry(text, clause, move=self.current_move) for text, clause in lines]
