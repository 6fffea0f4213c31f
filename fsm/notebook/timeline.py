"""A game's history as frames a viewer can step through: each move, and within it each
machine transition the engine logged (a link rechecked, resolved or fizzled, the chain
moving on to the next link, the game flow moving on).

A frame shows the log up to a point and the machines as the engine's own trace has them
there (:class:`~fsm.machines.trace.Trace`); nothing is re-run.  A move's last frame is a
*decision*: the game waits for a player.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from fsm.engine.game import LogEntry
from fsm.machines.trace import Trace
from fsm.render.labels import Lang, Term

#: Words for a transition in the timeline, by event: the rule term, then the English.
EVENT_WORDS = {
    "declare": Term("宣言", "declared"),
    "open_window": Term("反撃受付", "window opens"),
    "skip_window": Term("反撃受付なし", "no window"),
    "close_window": Term("再確認", "recheck"),
    "resolve": Term("発動", "resolves"),
    "fizzle": Term("不発", "fizzles"),
    "counter": Term("反撃", "counter"),
    "pass_priority": Term("パス", "pass"),
    "resolve_next": Term("次へ", "next link"),
    "chain_resolved": Term("チェーン解決済み", "chain resolved"),
}
SET_UP = Term("準備", "set-up")


@dataclass(frozen=True)
class Frame:
    """One point of the history: the log up to ``end`` (exclusive), the machines as ``trace`` has them."""

    move: int  # which move: 0 is the set-up, then one per move played
    end: int
    trace: Trace | None  # None: the set-up, drawn from the table itself
    label: str
    decision: bool  # the move's last frame: a player decides here


def is_move_echo(entry: LogEntry) -> bool:
    """A move's first log line repeats the move itself (in the game's language)."""
    return entry.echo


def step_label(entry: LogEntry, lang: Lang = "both") -> str:
    trace = entry.trace
    assert trace is not None
    known = EVENT_WORDS.get(trace.event)
    word = known.words(lang) if known else trace.event.replace("_", " ")
    return f"#{trace.link} {word}" if trace.link is not None else word


def frames(log: Sequence[LogEntry], start: int = 0, lang: Lang = "both") -> list[Frame]:
    """Every frame of this log, in order (a move's transitions, then the next move's), labelled in ``lang``.

    Everything before ``start`` (say the moves a scenario was set up with) is the set-up frame.
    """
    out: list[Frame] = []
    set_up = SET_UP.en if lang == "both" else SET_UP.words(lang)
    move, trace, label, seen_step = 0, None, set_up, False
    played = set_up  # the move being read, which names its decision frame
    for i, entry in enumerate(log):
        if i < start:
            trace = entry.trace or trace
        elif is_move_echo(entry):
            out.append(Frame(move, i, trace, played, True))
            move, label, seen_step, played = move + 1, entry.move, False, entry.move
            if trace is not None:  # until this move moves a machine, nothing was just taken
                trace = replace(trace, machine="", event="")
        elif entry.trace is not None:
            if seen_step:  # a new transition closes the previous one's frame
                out.append(Frame(move, i, trace, label, False))
            trace, label, seen_step = entry.trace, f"{entry.move or set_up} · {step_label(entry, lang)}", True
    out.append(Frame(move, len(log), trace, played, True))
    return out
