"""Step through a game in Jupyter, on one screen: who decides and why, one button per legal
move, the chain as a stack, the newest log lines, and beside them the machines (the game
flow, the counter chain or the top link's procedure), with the units, cards and script
folded away below.

The view is the front end of :mod:`fsm.notebook.step_view` (an anywidget): the kernel sends the
game as JSON (:mod:`fsm.notebook.step_frames`) and each machine's drawing once; the page lays
the drawings out with Graphviz compiled to WebAssembly and a step only moves the highlight.
Stepping through an unwinding, jumping on the timeline and undo are the page's own (the
frames are there); the kernel is asked only to play or check a move.  No ``dot`` runs.

    from fsm.notebook.step_through import StepThrough
    StepThrough.from_scenario("../scenarios/action_fizzles_after_counter.yaml")

The widget uses only the engine's public surface (:meth:`Game.legal_moves`, :meth:`Game.apply`,
:meth:`Game.why_not`, :meth:`Game.snapshot` / :meth:`Game.restore`, :attr:`Game.log`,
:meth:`Game.actor`, :meth:`Game.spec_of`, :meth:`Game.source_name`).  What a reader can do:

* click a move button (coloured by player); a move that resolves chain links stops at the
  first one, and **step** (or →) unwinds the chain link by link — which link is rechecked,
  each condition as found (the failing one in red, on the procedure diagram and in the
  log), then 発動 or 不発, then the next link; **play to the decision** runs on to where a
  player decides.  This is the engine's own trace played back (:mod:`fsm.notebook.timeline`);
* jump to any earlier point with the timeline (the slider steps with ← and →, the history
  list jumps to a move or a step); undo, or go back to the start;
* type *any* move and ask "why not?" — a refusal is explained with its clause and changes
  nothing, a typo is explained too, never with a traceback;
* follow the scenario's script: its next move is marked ▶, "next in script" plays it.

Stable CSS classes for the browser tests and styling (made by front/step.js): ``fsm-step``,
``fsm-header``, ``fsm-move``, ``fsm-chain``, ``fsm-log``, ``fsm-log-latest``, ``fsm-diagram``,
``fsm-timeline``, ``fsm-step-next``, ``fsm-play-decision``, ``fsm-why``, ``fsm-table``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fsm.engine.game import Game, LogEntry, Snapshot
from fsm.errors import BadInput, RuleViolation
from fsm.i18n import N_, _
from fsm.machines.procedures import procedure_class
from fsm.notebook import wire
from fsm.notebook.step_frames import FrameData, FrameWriter
from fsm.notebook.step_html import PLAYER_COLOURS, clause_badge, esc
from fsm.notebook.timeline import Frame, frames, is_move_echo
from fsm.notebook.why_box import WhyBox
from fsm.notebook.widget_words import words
from fsm.render.labels import Lang
from fsm.rules.variants import Variants
from fsm.scenarios.script import Script, ScriptStep, read_script
from fsm.spec.ruleset import Ruleset
from fsm.table.moves import Move

__all__ = [
    "PLAYER_COLOURS",
    "ScriptStep",
    "StepThrough",
    "clause_badge",
    "diagram",
    "log_groups",
    "read_script",
    "rows_table",
]


def rows_table(rows: list[dict[str, str]], caption: str = "") -> str:
    """A list of same-keyed dicts (e.g. :func:`fsm.rules.timing.legality_table`) as an HTML table."""
    if not rows:
        return "<p>(empty)</p>"
    heads = list(rows[0])
    out = ['<table class="fsm-rows" style="border-collapse:collapse;font-size:12px">']
    if caption:
        out.append(f"<caption>{esc(caption)}</caption>")
    # inline styles: JupyterLab right-aligns table cells, which reads badly for words
    cell = "text-align:left;vertical-align:top;border:1px solid #ddd;padding:2px 6px"
    out.append("<tr>" + "".join(f'<th style="{cell}">{esc(h)}</th>' for h in heads) + "</tr>")
    for row in rows:
        cells = []
        for i, h in enumerate(heads):
            value = str(row.get(h, ""))
            # the first column names the row; the others wrap (an explorer line of moves is long)
            wrap = ";white-space:nowrap" if i == 0 else ";white-space:normal;max-width:36em"
            style = cell + (";color:#aaa" if value == "—" else "") + wrap
            cells.append(f'<td style="{style}">{esc(value)}</td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def diagram(what: str | type, lang: Lang = "both", rules: Ruleset | None = None) -> Any:
    """A machine's diagram for a notebook cell: a kind key (``"action"``, ``"sync_action"``,
    ``"skill"``) or a machine class (``CounterChain``, ``GameFlow``).  Where no ``dot`` runs (JupyterLite),
    the page lays the same DOT out (:class:`~fsm.notebook.figure_view.FigureView`)."""
    from IPython.display import SVG

    from fsm.render.diagrams import render_machine
    from fsm.spec.ruleset import builtin

    machine = what
    if isinstance(what, str):
        rules = rules or builtin()
        key = what.removeprefix("sync_")
        if key not in rules.kinds:
            message = _("no kind {kind!r}; kinds: {kinds} (prefix sync_ for 【同調】)")
            raise BadInput(message.format(kind=what, kinds=", ".join(rules.kinds)))
        machine = procedure_class(rules.kind(key, sync=what.startswith("sync_")))
    from fsm.notebook.figure_view import FigureView, have_dot  # here: anywidget only where it is used

    if not have_dot():  # e.g. JupyterLite: the page lays the same DOT out (Graphviz in WebAssembly)
        return FigureView(str(render_machine(machine, lang=lang, fmt="dot")))  # type: ignore[arg-type]
    return SVG(render_machine(machine, lang=lang))  # type: ignore[arg-type]


def log_groups(log: list[LogEntry]) -> list[tuple[str, list[LogEntry]]]:
    """Split the log into (move, the lines it caused); set-up lines come under ``""``.

    A move's first line is its own echo (the move text), which starts a new group.
    """
    groups: list[tuple[str, list[LogEntry]]] = []
    for entry in log:
        if is_move_echo(entry):
            groups.append((entry.move, [entry]))
        elif groups:
            groups[-1][1].append(entry)
        else:
            groups.append(("", [entry]))
    return groups


def widget(**traits: Any) -> Any:
    """The page side in Jupyter: the anywidget :class:`~fsm.notebook.step_view.StepView` with these
    traits.  Imported only here, so a step-through without Jupyter (:class:`~fsm.notebook.channel.Channel`,
    the browser edition) needs no anywidget."""
    from fsm.notebook.step_view import StepView

    return StepView(**traits)


@dataclass(frozen=True)
class _Point:
    """A decision point of the history: the table there and where the script stood."""

    snapshot: Snapshot
    script_pos: int
    off_script: bool


class StepThrough:
    """An interactive, rule-citing step-through of one game (see the module docstring)."""

    def __init__(
        self,
        game: Game,
        title: str = "",
        script: list[ScriptStep] | None = None,
        script_pos: int = 0,
        clauses: list[str] | None = None,
        lang: Lang = "both",
        view: Callable[..., Any] | None = None,
    ) -> None:
        """``view`` makes the page side (default :func:`widget`; a ``Channel`` outside Jupyter)."""
        self.game = game
        self.title = title
        self.script = Script(list(script or []), script_pos)
        self.clauses = list(clauses or [])
        self.lang = lang
        self.writer = FrameWriter(game, lang)
        self._start = len(game.log)  # what came before (a scenario's first moves) is the set-up
        self.points = [_Point(game.snapshot(), script_pos, False)]
        self.entries: list[LogEntry] = list(game.log)
        self.frames: list[Frame] = frames(self.entries, self._start, self.lang)
        self.cursor = len(self.frames) - 1
        self._at = 0  # the decision point the game's table stands at
        self.data: list[FrameData] = []  # the frames as the page has them
        self.parts = self.writer.parts()  # what every frame shares: the page has it once, a trait
        self.widget = (view or widget)(
            words=words(lang),
            parts=self.parts,
            title=self.writer.title(title, self.clauses),
            script=[self.writer.script_line(s) for s in self.script.steps],
        )
        self.why = WhyBox(self.widget, lang)
        self.widget.on_msg(self._message)
        self._send_from(0)

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_scenario(
        cls,
        path: str | Path,
        upto: int | None = None,
        variants: Variants | Mapping[str, Any] | None = None,
        rules: Ruleset | None = None,
        lang: Lang = "both",
        view: Callable[..., Any] | None = None,
    ) -> StepThrough:
        """A step-through of a scenario file, at its start or after its first ``upto`` entries.

        ``variants`` are applied on top of the scenario's own ``variants:``; ``view`` as for the class.
        """
        from fsm.scenarios.playing import play, prose
        from fsm.scenarios.reading import read_yaml

        data = read_yaml(Path(path))
        if not isinstance(data, Mapping):
            raise BadInput(_("a scenario is a mapping with players, units, moves ..."), f"{path}:1")
        merged: Variants | None = None
        if variants is not None:
            extra = variants.changed() if isinstance(variants, Variants) else dict(variants)
            merged = Variants({**dict(data.get("variants") or {}), **extra})
        spoken = None if lang == "both" else lang
        result = play(path, merged, rules, upto=upto if upto is not None else 0, lang=spoken)
        script = read_script(data.get("moves"))
        pos = min(upto or 0, len(script))
        clauses = [str(c) for c in data.get("clauses") or []]
        result.game.lang = spoken  # the game answers why-not in it (Game(lang=...))
        title = prose(data, "title", spoken) or Path(path).stem
        self = cls(result.game, title, script, pos, clauses, lang, view)
        if result.failures:
            self.script.off = True
            self._send_from(0, why=("<br>".join(esc(f) for f in result.failures), False))
        return self

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)

    # ------------------------------------------------------------------ views for tests and readers
    @property
    def history(self) -> list[_Point]:
        """The decision points after the start (one per move played)."""
        return self.points[1:]

    @property
    def script_pos(self) -> int:
        return self.script.pos

    @property
    def off_script(self) -> bool:
        return self.script.off

    @property
    def why_html(self) -> str:
        """What the why-not box shows now."""
        return self.why.html

    @property
    def frame(self) -> Frame:
        return self.frames[self.cursor]

    @property
    def shown(self) -> FrameData:
        """The frame being shown, as the page has it (header, chain, log lines, views, moves)."""
        shown = dict(self.data[self.cursor])
        if shown["chain"] is None:
            shown["chain"] = next(f["chain"] for f in reversed(self.data[: self.cursor]) if f["chain"] is not None)
        decision = next(f for f in self.data if f["move"] == self.frame.move and f["decision"])
        return {**decision, **shown} if not self.frame.decision else shown

    @property
    def moves(self) -> list[str]:
        """The move buttons' labels (none while a move is replayed)."""
        return [m["text"] for m in self.shown.get("moves", [])] if self.frame.decision else []

    # ------------------------------------------------------------------ moves
    def play(self, move: Move | str) -> list[LogEntry]:
        """Play a move as if its button were clicked; a refusal is shown, not raised."""
        text = str(move).strip()
        if not text:
            self.why.show(self.why.say(N_("type a move first, e.g. <code>A: pass</code>")), ok=False)
            return []
        if not self.frame.decision:
            self.why.show(
                self.why.say(N_("this move is still being replayed: press “to the decision” first")), ok=False
            )
            return []
        try:
            entries = self.game.apply(move if isinstance(move, Move) else text)
        except RuleViolation as err:
            said = self.why.say(N_("refused {clause} {message} — nothing changed"))
            self.why.show(said.format(clause=clause_badge(err.clause), message=esc(err.message)), ok=False)
            return []
        except BadInput as err:
            self.why.unreadable(err)
            return []
        except Exception as err:  # noqa: BLE001 - an engine bug is reported in the widget, not as a traceback
            said = self.why.say(N_("internal error, please report it: {kind}: {error}"))
            self.why.show(said.format(kind=type(err).__name__, error=esc(err)), ok=False)
            return []
        del self.points[self._at + 1 :]  # a move played from an earlier point starts a new future
        self.script.follow(entries[0].move if entries else "")
        self.points.append(_Point(self.game.snapshot(), self.script.pos, self.script.off))
        self._at = len(self.points) - 1
        first = next(i for i, f in enumerate(self.frames) if f.move == self._at - 1 and f.decision) + 1
        self.entries = list(self.game.log)
        self.frames = frames(self.entries, self._start, self.lang)
        ends = [i for i, f in enumerate(self.frames) if f.move == self._at]
        unwinds = any(e.trace and e.trace.event == "close_window" for e in entries)
        self.cursor = ends[0] if unwinds else ends[-1]  # a resolution stops at its first link step
        self._send_from(first, why=("", None))
        return entries

    def try_move(self, move: Move | str) -> str:
        """Is this move legal now, and if not, which rule forbids it?  Changes nothing."""
        return self.why.show(*self.why.answer(self.game, move))

    def next_in_script(self) -> None:
        """Play the script's next move, or show the refusal the script expects next."""
        s = self.script
        if s.off:
            self.why.show(
                self.why.say(N_("you have left the script; undo back to it, or go back to the start")), ok=False
            )
            return
        if s.pos >= len(s.steps):
            self.why.show(self.why.say(N_("the script is finished; carry on with the buttons")), ok=True)
            return
        if not self.frame.decision:
            self.play_to_decision()
        step = s.steps[s.pos]
        if step.refused:
            s.pos += 1
            self.points[self._at] = _Point(self.points[self._at].snapshot, s.pos, s.off)
            first = next(i for i, f in enumerate(self.frames) if f.move == self._at and f.decision)
            said, _legal = self.why.answer(
                self.game, step.text
            )  # the refusal the script expects, with the move typed in
            self._send_from(first, why=(said, None), typed=step.text, patch=True)  # one message: the script moved
            return
        self.play(step.text)

    # ------------------------------------------------------------------ the timeline (the page does these itself)
    def goto(self, index: int) -> None:
        """Show frame ``index`` of the history; the table is put back to that move's decision."""
        self.cursor = max(0, min(index, len(self.frames) - 1))
        self._stand_at(self.frame.move)
        self._send_from(len(self.frames), why=("", None))

    def step(self) -> None:
        """One link step on (→)."""
        self.goto(self.cursor + 1)

    def play_to_decision(self) -> None:
        """Run on to the next point where a player decides."""
        later = [i for i in range(self.cursor + 1, len(self.frames)) if self.frames[i].decision]
        self.goto(later[0] if later else len(self.frames) - 1)

    def undo(self) -> None:
        """Take back the move shown (or being replayed), and everything after it."""
        move = self.frame.move
        if move == 0:
            self.why.show(self.why.say(N_("nothing to undo")), ok=False)
            return
        self._forget_after(move - 1)

    def reset(self) -> None:
        self._forget_after(0)

    def _forget_after(self, point: int) -> None:
        self._stand_at(point)
        del self.points[point + 1 :]
        self.entries = list(self.game.log)
        self.frames = frames(self.entries, self._start, self.lang)
        self.cursor = len(self.frames) - 1
        self._send_from(len(self.frames), why=("", None))

    def _stand_at(self, point: int) -> None:
        if point == self._at:
            return
        p = self.points[point]
        self.game.restore(p.snapshot)
        # the game's log follows the table (restore only shortens it; a jump forward lengthens it)
        self.game.log[:] = self.entries[: p.snapshot.log_length]
        self.script.pos, self.script.off = p.script_pos, p.off_script
        self._at = point

    # ------------------------------------------------------------------ talking to the page
    def _send_from(
        self, first: int, why: tuple[str, bool | None] | None = None, typed: str = "", patch: bool = False
    ) -> None:
        """Send frames ``first`` onwards (the page keeps the ones before; ``patch``: it has frame ``first``,
        only some of it changed: :mod:`fsm.notebook.wire`), the cursor and the why box."""
        new, drawings, steps = (
            self.writer.frames(self.frames, self.entries, first, self.script)
            if first < len(self.frames)
            else ([], {}, [])
        )
        if new and "moves" in new[-1]:  # the decision the game stands at: the script's next refusal, answered ahead
            new[-1]["refusal"] = self.why.expected(self.game, self.script)
        before = self.data[first - 1] if 0 < first <= len(self.data) else None
        old = self.data[first] if patch and first < len(self.data) else None
        del self.data[first:]
        self.data.extend(new)
        message: dict[str, Any] = {
            "type": "game",
            "from": first,
            "frames": new,
            "drawings": drawings,
            "clauses": self.writer.take_tips(),
            "cursor": self.cursor,
            "length": len(self.frames),
        }
        message.update(wire.changes(new, steps, before, old, self.parts))
        if why is not None:
            self.why.html = why[0]
            message["why"] = {"html": why[0], "ok": why[1], "typed": typed}
        self.widget.send(message)

    def _message(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        """A request from the page: it says the decision point it stands at (it steps on its own)."""
        kind = content.get("type")
        if kind == "hello":  # a new page (or a reload): everything again
            self.widget.send(
                {
                    "type": "game",
                    "from": 0,
                    "frames": self.data,
                    "drawings": self.writer.resend(self.data),
                    "clauses": self.writer.tips,
                    "cursor": self.cursor,
                    "length": len(self.frames),
                    "why": {"html": self.why.html, "ok": False, "typed": ""},
                }
            )
            return
        if kind in ("viz", "ahead"):
            return send_page_wide(self.widget, self.writer, kind, content.get("have"), content.get("clauses"))
        point = int(content.get("point", self._at))
        if 0 <= point < len(self.points):
            if point < len(self.points) - 1:  # the page undid moves: their future is gone
                self._forget_after(point)
            else:
                self._stand_at(point)
            self.cursor = next(i for i, f in enumerate(self.frames) if f.move == point and f.decision)
        if kind == "play":
            self.play(str(content.get("move", "")))
        elif kind == "try":
            self.try_move(str(content.get("move", "")))
        elif kind == "script":
            self.next_in_script()
        elif kind == "table":
            self.widget.send({"type": "table", "point": point, "html": self.writer.painter.table()})  # tooltips kept


def send_page_wide(widget: Any, writer: FrameWriter, kind: str, have: object, tips: object = None) -> None:
    """What a page is sent once, whichever step-through asks: Graphviz (``viz``, as a binary buffer),
    or the drawings the game may show that the page has not got (``ahead``; with it the page says
    which clauses' tooltips it has, which are then not sent again)."""
    if kind == "viz":
        from fsm.notebook.step_view import viz_module  # here: the page side may be no widget (fsm.notebook.web)

        widget.send({"type": "viz"}, buffers=[viz_module()])
    else:
        writer.page_has(tips if isinstance(tips, list) else ())
        widget.send({"type": "ahead", "drawings": writer.ahead(set(have) if isinstance(have, list) else ())})
