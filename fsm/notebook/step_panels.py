"""The step-through's widgets and their layout: one screen at 1366×768 with JupyterLab's
file browser open.  ipywidgets' own layouts: an ``AppLayout`` with the moves, the chain and the
newest log lines on the left and the diagram (a selector, a zoom) and the timeline on the right;
an ``Accordion`` below folds the units, cards and script away.

:class:`StepPanels` only builds and fills widgets; what a click does is
:class:`fsm.notebook.step_through.StepThrough`'s (the actions below are its).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from fsm.i18n import N_
from fsm.machines.trace import FLOW, PROCEDURE, Trace
from fsm.notebook.timeline import Frame
from fsm.notebook.widget_words import say, term
from fsm.render import live_view
from fsm.render.labels import Lang
from fsm.table.moves import Move, written


def view_choices(lang: Lang) -> list[tuple[str, str]]:
    """The diagram chooser's buttons: follow what moved (auto), or one machine; in the step-through's language."""
    return [(term(N_("auto"), lang), "auto"), *((term(name, lang), key) for key, name in live_view.NAMES.items())]


ZOOMS = [(N_("fit"), 0.0), ("100%", 1.0), ("150%", 1.5), ("200%", 2.0)]
_SVG_SIZE = re.compile(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"')
DIAGRAM_HEIGHT = 330  # px: beside the moves, chain and log at 1366×768


class StepPanels:
    """The widgets of a step-through, laid out; the subclass says what the buttons do."""

    lang: Lang
    _syncing = False  # True while the timeline is being set from the cursor (not a jump by the reader)

    # the actions, which StepThrough provides
    def play(self, move: Move | str) -> Any:
        raise NotImplementedError

    def try_move(self, move: Move | str) -> str:
        raise NotImplementedError

    def step(self) -> None:
        raise NotImplementedError

    def play_to_decision(self) -> None:
        raise NotImplementedError

    def undo(self) -> None:
        raise NotImplementedError

    def reset(self) -> None:
        raise NotImplementedError

    def next_in_script(self) -> None:
        raise NotImplementedError

    def goto(self, index: int) -> None:
        raise NotImplementedError

    def _draw_diagram(self) -> None:
        raise NotImplementedError

    def _draw_folded(self) -> None:
        raise NotImplementedError

    def _say(self, message: str) -> str:
        return say(message, self.lang)

    def _move_words(self, move: Move | str) -> str:
        """A move as this step-through's reader writes it: the Japanese form (verb last) in
        Japanese, else as the engine writes it; text that is not a move ("set-up") is said."""
        if self.lang != "ja":
            return str(move)
        if isinstance(move, Move):
            return move.text("ja")
        return written(move, "ja") or self._say(move)

    def _button(self, label: str, icon: str, css: str, tip: str, act: Any) -> w.Button:
        b = w.Button(description=label, icon=icon, tooltip=tip, layout=w.Layout(width="auto", margin="1px"))
        b.add_class(css)
        b.on_click(lambda _b: act())
        return b

    def _build(self) -> None:
        self.title_html = w.HTML()
        self.header = w.HTML()
        self.header.add_class("fsm-header")
        self.moves_box = w.Box(
            layout=w.Layout(display="flex", flex_flow="row wrap", max_height="96px", overflow="auto")
        )
        self.moves_box.add_class("fsm-moves")
        self.step_button = self._button(
            self._say(N_("step")),
            "step-forward",
            "fsm-step-next",
            self._say(N_("the next link step (or → on the focused timeline)")),
            self.step,
        )
        self.decision_button = self._button(
            self._say(N_("to the decision")),
            "fast-forward",
            "fsm-play-decision",
            self._say(N_("run on to where a player decides")),
            self.play_to_decision,
        )
        self.undo_button = self._button(
            self._say(N_("undo")), "undo", "fsm-undo", self._say(N_("take back the last move")), self.undo
        )
        self.reset_button = self._button(
            self._say(N_("start")), "fast-backward", "fsm-reset", self._say(N_("back to the start")), self.reset
        )
        self.script_button = self._button(
            self._say(N_("next in script")),
            "play",
            "fsm-script-next",
            self._say(N_("the scenario's next move")),
            self.next_in_script,
        )
        self.timeline = w.IntSlider(
            min=0,
            max=0,
            readout=False,
            continuous_update=False,
            description=self._say(N_("timeline")),
            layout=w.Layout(width="98%"),
        )
        self.timeline.add_class("fsm-timeline")
        self.history_list = w.Select(options=[], rows=3, layout=w.Layout(width="98%"))
        self.history_list.add_class("fsm-history")
        for control in (self.timeline, self.history_list):
            control.observe(self._jumped, names="value")
        self.try_text = w.Text(
            placeholder=self._say(N_("type any move, e.g. A: pass")),
            continuous_update=False,
            layout=w.Layout(width="250px"),
        )
        self.try_text.add_class("fsm-try")
        # Enter in the box asks "why not?" (the value is sent on Enter, as continuous_update is off)
        self.try_text.observe(lambda change: change["new"] and self.try_move(change["new"]), names="value")
        self.why_button = self._button(
            self._say(N_("why not?")),
            "question",
            "fsm-why-button",
            self._say(N_("is this move legal here?")),
            lambda: self.try_move(self.try_text.value),
        )
        self.play_button = self._button(
            self._say(N_("play it")),
            "check",
            "fsm-play-typed",
            self._say(N_("play the typed move if legal")),
            lambda: self.play(self.try_text.value),
        )
        self.why = w.HTML()
        self.why.add_class("fsm-why")
        self.chain_html = w.HTML()
        self.chain_html.add_class("fsm-chain")
        self.log_html = w.HTML()
        self.log_html.add_class("fsm-log")
        self.view_choice = w.ToggleButtons(
            options=view_choices(self.lang), value="auto", style={"button_width": "auto"}
        )
        self.zoom = w.Dropdown(
            options=[(self._say(z), v) for z, v in ZOOMS],
            value=0.0,
            tooltip=self._say(N_("zoom")),
            layout=w.Layout(width="80px"),
        )
        for control in (self.view_choice, self.zoom):
            control.observe(lambda _c: self._draw_diagram(), names="value")
        self.diagram = w.HTML(layout=w.Layout(overflow="auto", border="1px solid #ddd", height=f"{DIAGRAM_HEIGHT}px"))
        self.diagram.add_class("fsm-diagram")
        self.table_html = w.HTML()
        self.table_html.add_class("fsm-table")
        self.script_html = w.HTML()
        self.script_html.add_class("fsm-script")
        self.more = w.Accordion(children=[self.table_html, self.script_html], selected_index=None)
        for i, name in enumerate((N_("units and cards"), N_("the scenario's script"))):
            self.more.set_title(i, term(name, self.lang))
        self.more.observe(lambda _c: self._draw_folded(), names="selected_index")
        controls = w.HBox(
            [self.step_button, self.decision_button, self.undo_button, self.reset_button, self.script_button],
            layout=w.Layout(flex_flow="row wrap"),
        )
        trying = w.HBox([self.try_text, self.why_button, self.play_button])
        left = w.VBox(
            [self.moves_box, controls, self.why, self.chain_html, self.log_html, trying],
            layout=w.Layout(overflow="hidden"),
        )
        right = w.VBox(
            [w.HBox([self.view_choice, self.zoom]), self.diagram, self.timeline, self.history_list],
            layout=w.Layout(overflow="hidden"),
        )
        # AppLayout's header and footer rows would share one height; they sit above and below it
        body = w.AppLayout(left_sidebar=left, center=right, pane_widths=[5, 6, 0], grid_gap="6px")
        self.widget = w.VBox([self.title_html, self.header, body, self.more])
        self.widget.add_class("fsm-step")

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)

    def _jumped(self, change: dict[str, Any]) -> None:
        if not self._syncing and change["new"] is not None:
            self.goto(int(change["new"]))

    def _unreadable(self, error: object) -> str:
        """Not a move on this table at all (a typo, an unknown name): no rule to cite."""
        said = self._say(N_("cannot read this move: {error}"))
        return self._show_why(said.format(error=html.escape(str(error))), ok=False)

    def _show_why(self, message: str, ok: bool | None = None) -> str:
        colour = {True: "#276749", False: "#9b2c2c", None: "#333"}[ok]
        self.why.value = f'<div style="color:{colour};margin:1px 0;font-size:12px">{message}</div>' if message else ""
        return html.unescape(re.sub(r"<[^>]+>", "", message))

    def _frame_label(self, frame: Frame) -> str:
        move, dot, step = frame.label.partition(" · ")
        return self._move_words(move) + dot + step

    def _draw_timeline(self, frames: Sequence[Frame], cursor: int) -> None:
        self._syncing = True
        try:
            labels = [
                (("    " if not f.decision else f"{f.move}. ") + self._frame_label(f), i) for i, f in enumerate(frames)
            ]
            with self.history_list.hold_sync():
                if list(self.history_list.options) != labels:
                    self.history_list.options = labels
                self.history_list.value = cursor
            with self.timeline.hold_sync():
                self.timeline.max = len(frames) - 1
                self.timeline.value = cursor
        finally:
            self._syncing = False

    def _show_diagram(self, svgs: dict[str, str], trace: Trace, decision: bool) -> None:
        choice = self.view_choice.value
        if choice == "auto":
            choice = follow(trace, decision)
        if choice in svgs:
            self.diagram.value = zoomed(svgs[choice], float(self.zoom.value))
        else:
            self.diagram.value = (
                "<p style='color:#777'>"
                + self._say(N_("no link on the chain: its procedure appears once one is declared"))
                + "</p>"
            )


def follow(trace: Trace, decision: bool) -> str:
    """The machine "auto" shows: the one that just moved; at a decision with an open chain,
    the top link's procedure (what the player is answering)."""
    if trace.links and (decision or trace.machine == PROCEDURE):
        return PROCEDURE
    if trace.machine:
        return trace.machine
    return PROCEDURE if trace.links else FLOW


def zoomed(svg: str, scale: float) -> str:
    """Fit the diagram into its box (scale 0), or draw it at ``scale`` times its natural size."""
    m = _SVG_SIZE.search(svg)
    if not m:
        return svg
    w_pt, h_pt = float(m.group(1)), float(m.group(2))
    if scale:
        size = f'<svg width="{w_pt * scale:.0f}pt" height="{h_pt * scale:.0f}pt"'
    else:
        size = f'<svg width="100%" height="{DIAGRAM_HEIGHT - 8}px" preserveAspectRatio="xMidYMin meet"'
    return _SVG_SIZE.sub(size, svg[svg.index("<svg") :], count=1)
