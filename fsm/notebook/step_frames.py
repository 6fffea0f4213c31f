"""The step-through's frames as JSON for its front end (``fsm/notebook/front/``): per frame the
header, the chain as a stack, the log lines the frame adds (each citing its clause), where
each machine stands on its drawing (:func:`fsm.render.drawing.highlight`) and, at a decision,
the legal moves and where the script stands.  Each drawing is sent once per page
(:class:`Sent`); a step only moves the highlight.

The HTML of the panels is the kernel's (:class:`~fsm.notebook.step_html.Painter`: its words
are translated there); the diagram, the timeline, the buttons and the unwinding are the
front end's.
"""

from __future__ import annotations

import html
import re
from collections.abc import Collection, Sequence
from typing import Any

from statemachine import StateChart

from fsm.engine.game import Game, LogEntry
from fsm.i18n import N_
from fsm.machines.chain import CounterChain
from fsm.machines.procedures import procedure_class
from fsm.machines.trace import FLOW, PROCEDURE, Trace
from fsm.notebook.step_html import Painter, clause_badge, esc
from fsm.notebook.timeline import Frame
from fsm.render import drawing, live_view
from fsm.render.labels import Lang
from fsm.scenarios.script import Script, ScriptStep, same_move
from fsm.table.moves import Move, written

#: JSON of one frame (see the module docstring and front/frames.js).
FrameData = dict[str, Any]

#: A clause badge of :func:`fsm.notebook.step_html.clause_badge`: its summary is sent once per page.
_BADGE = re.compile(r'<span class="fsm-clause" title="([^"]*)">([^<]*)</span>')


def follow(trace: Trace, decision: bool) -> str:
    """The machine "auto" shows: the one that just moved; at a decision with an open chain,
    the top link's procedure (what the player is answering)."""
    if trace.links and (decision or trace.machine == PROCEDURE):
        return PROCEDURE
    if trace.machine:
        return trace.machine
    return PROCEDURE if trace.links else FLOW


def move_words(move: Move | str, lang: Lang, painter: Painter) -> str:
    """A move as this step-through's reader writes it: the Japanese form (verb last) in
    Japanese, else as the engine writes it; text that is not a move ("set-up") is said."""
    if lang != "ja":
        return str(move)
    if isinstance(move, Move):
        return move.text("ja")
    return written(move, "ja") or painter.say(move)


class FrameWriter:
    """Writes frames of one game as JSON, and remembers which drawings the page already has."""

    def __init__(self, game: Game, lang: Lang) -> None:
        self.game = game
        self.lang = lang
        self.painter = Painter(game, lang)
        self.sent: set[str] = set()  # drawing keys the page has
        self.known: dict[str, drawing.Drawing] = {}  # every drawing made, to send again to a new page
        self.tips: dict[str, str] = {}  # clause ID -> the catalogue's summary, the badges' tooltips
        self.new_tips: dict[str, str] = {}  # the ones not sent yet

    def badges(self, text: str) -> str:
        """HTML with its clause badges' tooltips taken out (the page has them: ``clauses``)."""

        def cut(m: re.Match[str]) -> str:
            if m.group(2) not in self.tips:
                self.tips[m.group(2)] = self.new_tips[m.group(2)] = html.unescape(m.group(1))
            return f'<span class="fsm-clause">{m.group(2)}</span>'

        return _BADGE.sub(cut, text)

    def title(self, title: str, clauses: Sequence[str]) -> str:
        """The step-through's heading: the scenario's title and the clauses it shows."""
        if not title:
            return ""
        cites = " ".join(clause_badge(c) for c in clauses)
        return f"<div class='fsm-title'>{esc(title)} {cites}</div>"

    def script_line(self, step: ScriptStep) -> str:
        """One line of the folded script: a move, or a move the script expects to be refused."""
        text = esc(step.text)
        if step.refused:
            return self.painter.say(
                N_("<i>try</i> {move} <i>→ refused</i> {clause}"), move=text, clause=clause_badge(step.clause)
            )
        return text

    def take_tips(self) -> dict[str, str]:
        """The tooltips written since the last call."""
        out, self.new_tips = self.new_tips, {}
        return out

    def label(self, frame: Frame) -> str:
        move, dot, step = frame.label.partition(" · ")
        head = "" if not frame.decision else f"{frame.move}. "
        return head + move_words(move, self.lang, self.painter) + dot + step

    def frames(
        self, frames: Sequence[Frame], entries: Sequence[LogEntry], first: int, script: Script
    ) -> tuple[list[FrameData], dict[str, drawing.Drawing]]:
        """Frames ``first`` onwards as JSON (the game stands at the last one's decision), and the
        drawings they use that the page does not have yet."""
        out: list[FrameData] = []
        new: dict[str, drawing.Drawing] = {}
        chain_before = ""
        for i in range(first, len(frames)):
            f = frames[i]
            same = [j for j, g in enumerate(frames) if g.move == f.move]
            start = frames[i - 1].end if i else 0
            trace = f.trace or live_view.now(self.game)
            views = live_view.views(self.game, trace, self.lang)
            for view in views.values():
                key, made = drawing.drawing(view)
                self.known[key] = made
                if key not in self.sent:
                    self.sent.add(key)
                    new[key] = made
            chain = self.painter.chain(f.trace or trace)
            n = same.index(i) + 1
            data: FrameData = {
                "move": f.move,
                "decision": f.decision,
                "label": self.label(f),
                "header": self.badges(self.painter.header(f, None if f.decision else (n, len(same)))),
                "chain": None if chain == chain_before else self.badges(chain),  # None: as the frame before
                "log": [self.badges(self.painter.log_line(e)) for e in entries[start : f.end]],
                "views": {name: drawing.highlight(v) for name, v in views.items()},
                "auto": follow(trace, f.decision),
            }
            chain_before = chain
            if f.decision and i == len(frames) - 1:
                data.update(self.decision(script))
            out.append(data)
        return out, new

    def decision(self, script: Script) -> FrameData:
        """What a decision frame adds: the legal moves (the script's next one marked) and the script's place."""
        legal = self.game.legal_moves()
        scripted = script.next_move()
        players = self.game.table.players
        moves = []
        for m in legal:
            text = move_words(m, self.lang, self.painter)
            is_next = scripted is not None and same_move(scripted, str(m))
            tip = self.painter.say(N_("the scenario's next move: {move}"), move=text) if is_next else text
            moves.append({"text": text, "move": str(m), "seat": players.index(m.player), "next": is_next})
            if tip != text:
                moves[-1]["tip"] = tip
        example = next((m for m in legal if m.verb != "pass"), legal[0] if legal else None)
        hint = self.painter.say(N_("e.g. {move}"), move=move_words(example, self.lang, self.painter)) if example else ""
        return {"moves": moves, "script": [script.pos, script.off], "hint": hint}

    def ahead(self, have: Collection[str]) -> dict[str, drawing.Drawing]:
        """Every drawing this game may show (the flow in each phase, the chain, each kind's procedure,
        plain and in 【同調】), but those the page has (``have``): the page lays them out before they
        are needed, so that no click waits on a layout."""
        rules = self.game.rules
        specs = {rules.kind(key, sync) for key in rules.kinds for sync in (False, True)}
        machines: list[type[StateChart]] = [type(self.game.flow), CounterChain, *map(procedure_class, specs)]
        return {k: d for k, d in drawing.every_drawing(machines, self.lang).items() if k not in have}

    def resend(self, data: Sequence[FrameData]) -> dict[str, drawing.Drawing]:
        """Every drawing ``data`` uses, for a page that has none yet."""
        keys = {v["key"] for f in data for v in f["views"].values()}
        self.sent = set(keys)
        return {k: self.known[k] for k in keys}
