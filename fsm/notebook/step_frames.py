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
from collections import Counter
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


#: The shapes most log lines take (:meth:`~fsm.notebook.step_html.Painter.log_line`, its badge's tooltip
#: taken out): a line of one of them crosses the wire as its two parts (:mod:`fsm.notebook.wire`).
LOG_FORMS = [
    "<div class='fsm-log-line'>&nbsp;&nbsp;<span class=\"fsm-clause\">{a}</span> {b}</div>",
    "<div class='fsm-log-move'><b>▸ {a}</b> <span class=\"fsm-clause\">{b}</span></div>",
]


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
        self.page_tips: set[str] = set()  # the clause IDs whose tooltips the page has (any step-through's)

    def badges(self, text: str) -> str:
        """HTML with its clause badges' tooltips taken out (the page has them: ``clauses``)."""

        def cut(m: re.Match[str]) -> str:
            clause = m.group(2)
            if clause not in self.page_tips:
                self.tips[clause] = self.new_tips[clause] = html.unescape(m.group(1))
                self.page_tips.add(clause)
            return f'<span class="fsm-clause">{clause}</span>'

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

    def parts(self) -> dict[str, Any]:
        """What every frame's panels share, given to the page once as its ``parts`` trait (front/wire.js):
        the header's template while a move is replayed, the chain panel's heading, the log lines' forms."""
        return {
            "replaying": self.painter.replaying("{move}", "{n}", "{total}"),
            "chain_head": self.badges(self.painter.chain_head()),
            "log_forms": LOG_FORMS,
        }

    def page_has(self, tips: Collection[str]) -> None:
        """The page has these tooltips (another step-through of it was sent them): not sent again."""
        self.page_tips.update(t for t in tips if isinstance(t, str))

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
    ) -> tuple[list[FrameData], dict[str, drawing.Drawing], list[tuple[str, int, int]]]:
        """Frames ``first`` onwards as JSON (the game stands at the last one's decision), the
        drawings they use that the page does not have yet, and each frame's label as its header
        writes it with its step number and its move's number of frames (:func:`fsm.notebook.wire.encode`)."""
        out: list[FrameData] = []
        new: dict[str, drawing.Drawing] = {}
        steps: list[tuple[str, int, int]] = []
        chain_before = ""
        counts = Counter(f.move for f in frames)
        # the step number of a frame within its move (a move's frames come one after another)
        n = sum(1 for f in frames[:first] if f.move == frames[first].move) if first < len(frames) else 0
        for i in range(first, len(frames)):
            f = frames[i]
            n = n + 1 if i == first or frames[i - 1].move == f.move else 1
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
            total = counts[f.move]
            steps.append((f.label, n, total))
            data: FrameData = {
                "move": f.move,
                "decision": f.decision,
                "label": self.label(f),
                "header": self.badges(self.painter.header(f, None if f.decision else (n, total))),
                "chain": None if chain == chain_before else self.badges(chain),  # None: as the frame before
                "log": [self.badges(self.painter.log_line(e)) for e in entries[start : f.end]],
                "views": {name: drawing.highlight(v) for name, v in views.items()},
                "auto": follow(trace, f.decision),
            }
            chain_before = chain
            if f.decision and i == len(frames) - 1:
                data.update(self.decision(script))
            out.append(data)
        return out, new, steps

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
        out = {k: d for k, d in drawing.every_drawing(machines, self.lang).items() if k not in have}
        self.sent.update(have, out)  # a frame that shows one later need not send it again
        return out

    def resend(self, data: Sequence[FrameData]) -> dict[str, drawing.Drawing]:
        """Every drawing ``data`` uses, for a page that has none yet."""
        keys = {v["key"] for f in data for v in f["views"].values()}
        self.sent = set(keys)
        self.page_tips = set(self.tips)  # a new page: every tooltip again (``hello``)
        return {k: self.known[k] for k in keys}
