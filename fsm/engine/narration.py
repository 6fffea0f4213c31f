"""The narrative: one :class:`LogEntry` per step, each with the clause it follows.

:class:`Narration` keeps the log and words the steps of an item's procedure (declare, the
counter window, recheck, 発動 / 不発), with what frames a declaration: the timing it is used
under, a card with several timings, a 【同調】 wrapper, a card revealed at the quick-summon timing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fsm.engine.seat import Seat
from fsm.i18n import _, either, language
from fsm.machines.trace import PROCEDURE, Trace, capture
from fsm.rules.timing import Point, use_as
from fsm.spec.kinds import WORDS, KindSpec
from fsm.spec.recheck import RECHECKS, failing
from fsm.table.model import Ability, Card, ChainItem
from fsm.table.moves import Move


@dataclass(frozen=True)
class LogEntry:
    """One step of the narrative: what happened, which clause it follows, what was entered."""

    text: str
    clause: str
    machine: str = ""
    entered: tuple[str, ...] = ()
    move: str = ""
    trace: Trace | None = None  # on a machine transition: the machines at that instant (fsm.machines.trace)
    echo: bool = False  # the move's own first line (its text is the move, in the game's language)
    # written for every declaration it frames (the timing used, a 【同調】 wrapper ...): it names a
    # clause but records no decision of it, so a scenario's steps: line quoting it verifies nothing
    routine: bool = False


class Narration:
    """The log of one game, and how its procedures' steps read."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.log: list[LogEntry] = []
        self.current_move = ""  # the move being applied, stamped on its log lines
        self.told: dict[str, tuple[str, str]] = {}  # narration given by the caller of Game.start
        # Quiet: nothing is written (the explorer, which throws each move's log away); what a
        # step settles on the table (an item's outcome) is settled all the same.
        self.quiet = False

    def note(
        self, text: str, clause: str, machine: str = "", entered: tuple[str, ...] = (), trace: Trace | None = None
    ) -> None:
        if self.quiet:
            return
        self.log.append(LogEntry(text, clause, machine, entered, self.current_move, trace))

    def open_move(self, move: Move, clause_of: Callable[[Move], str]) -> None:
        """The move's own line, worded only when someone reads it (the explorer reads none)."""
        if not self.quiet:
            self.current_move = str(move)
            self.echo(move.text(language()), clause_of(move))

    def echo(self, text: str, clause: str) -> None:
        """The move's own line, which opens its part of the log."""
        if self.quiet:
            return
        self.log.append(LogEntry(text, clause, move=self.current_move, echo=True))

    def insert(
        self, at: int, text: str, clause: str, machine: str, entered: tuple[str, ...], trace: Trace | None = None
    ) -> None:
        """A line that belongs before what has been written since ``at`` (a flow event's own line
        comes before what entering its state does)."""
        if self.quiet:
            return
        self.log.insert(at, LogEntry(text, clause, machine, entered, self.current_move, trace))

    def tell(self, item: ChainItem, step: str, entered: str, event: str) -> None:
        """One step of an item's procedure, narrated before what its actions do, with the trace a
        viewer redraws it from (at a resolve or fizzle: which recheck conditions held)."""
        seat = self.seat
        spec = seat.board.spec_of(item)
        if self.quiet:
            if step in ("resolve", "fizzle") and step not in self.told:
                self.verdict(item, spec, step)
            return
        framing: list[LogEntry] = []
        checked: tuple[tuple[str, bool], ...] = ()
        if step in self.told:
            text, clause = self.told[step]
        elif step == "declare":
            text, clause = self.declaration(item), spec.clause("declare")
            framing = self.framing(item, spec, seat.point())
        elif step == "open_window":
            opens = _("counter window opens (dice: {dice})") if item.dice else _("counter window opens")
            text, clause = opens.format(dice=item.dice), spec.clause("window")
        elif step == "skip_window":
            no_window = (
                _("{kind} cannot be countered: no counter window")
                if spec.counter_window
                else _("{kind} has no counter window")
            )
            text, clause = no_window.format(kind=spec.label), spec.clause("window")
        elif step == "recheck":
            recheck = _("#{seq} {source}: recheck").format(seq=item.seq, source=seat.source_name(item))
            text, clause = recheck, spec.clause("recheck")
        elif step == "resolve":
            clause, _why, _reasons = self.verdict(item, spec, step)
            text = _("#{seq} {item} resolves").format(seq=item.seq, item=seat.board.item_name(item))
            checked = tuple((r, True) for r in spec.fizzle_if)  # the machine resolves only if all held
        else:  # fizzle: the machine chose it; say every condition the item fails
            clause, why, reasons = self.verdict(item, spec, step)
            checked = tuple((r, r not in reasons) for r in spec.fizzle_if)
            text = _("#{seq} {item} fizzles: {why}").format(seq=item.seq, item=seat.board.item_name(item), why=why)
        trace = capture(seat.table, PROCEDURE, event, (str(item.state),), item, checked, entered)
        self.log.append(LogEntry(text, clause, spec.label, (entered,), self.current_move, trace))
        self.log.extend(framing)

    def verdict(self, item: ChainItem, spec: KindSpec, step: str) -> tuple[str, str, list[str]]:
        """Settle the item's outcome at its resolve or fizzle step: (clause, why, the conditions
        it fails, in the kind's order)."""
        if step == "resolve":
            clause = spec.clause("resolve")
            item.outcome = ("resolved", clause, "")
            return clause, "", []
        reasons = failing(self.seat, item, spec.fizzle_if)
        why = "; ".join(either(*WORDS[r]) for r in reasons)
        own = {RECHECKS[r].clause for r in reasons}
        clause = own.pop() if len(own) == 1 and "" not in own else spec.clause("recheck")
        item.outcome = ("fizzled", clause, why)
        return clause, why, reasons

    def declaration(self, item: ChainItem) -> str:
        seat = self.seat
        kind, name = seat.board.spec_of(item).label, seat.board.item_name(item)
        top = next((i for i in seat.table.chain if i.seq == item.answering), None)
        if top is None:
            return _("{player} declares {kind} {item}").format(player=item.declarer, kind=kind, item=name)
        answering = _("{player} declares {kind} {item}, answering #{seq} {source}")
        return answering.format(player=item.declarer, kind=kind, item=name, seq=top.seq, source=seat.source_name(top))

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
            used = (
                _("used as a counter under {timing}") if use[0] == "counter" else _("used as an action under {timing}")
            )
            lines.append((used.format(timing=label), use[1]))
        if len(keys) > 1:
            clause, printed = rules.combination_clause(keys)
            several = _("{printed} carries {count} timings; any one of them may be used")
            lines.append((several.format(printed=printed, count=len(keys)), clause))
        if spec.sync:
            base = rules.kinds[spec.key.removeprefix("sync_")].label
            lines.append((_("【同調】 wraps {kind}: its steps, plus the partner check").format(kind=base), "SYNC-2"))
        if card is not None and card.quick_summon:
            revealed = _("{card} was revealed at the quick-summon timing; used like any skill card")
            lines.append((revealed.format(card=card.name), "QS-2"))
        return [LogEntry(text, clause, move=self.current_move, routine=True) for text, clause in lines]
