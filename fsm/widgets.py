"""Step through a game in Jupyter: one button per legal move, the live diagram, the chain,
the table and a narrated log that cites the rules.

    from fsm.widgets import StepThrough
    StepThrough.from_scenario("../scenarios/action_fizzles_after_counter.yaml")

The widget uses only the engine's public surface (:meth:`Game.legal_moves`, :meth:`Game.apply`,
:meth:`Game.why_not`, :meth:`Game.snapshot` / :meth:`Game.restore`, :attr:`Game.log`,
:meth:`Game.actor`) and reads the table as plain data.  What a reader can do:

* click a move button (coloured by player; the header says whose decision it is and why);
* type *any* move into the box and ask "why not?" — a refused move is explained with its
  clause and changes nothing, and a typo is explained too, never with a traceback;
* undo, or go back to the start;
* follow the scenario's own script: its next move is marked ▶, and "next in script" plays it
  (or, for a move the script expects to be refused, shows the refusal).

The containers carry stable CSS classes (``fsm-move``, ``fsm-diagram``, ``fsm-log``,
``fsm-header``, ``fsm-why``, ``fsm-chain``, ``fsm-table``) for the browser test and for styling.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ipywidgets as w

from .catalogue import CLAUSES
from .engine import Game, LogEntry, Snapshot
from .errors import BadInput, RuleViolation
from .labels import Lang
from .model import ChainItem, Table
from .moves import Move, parse
from .procedures import procedure_class
from .ruleset import Ruleset
from .skills import fmt
from .variants import Variants

#: One colour per seat: the first player of the table, then the second.
PLAYER_COLOURS = ("#2b6cb0", "#c05621")
ZONES = ("hand", "revealed", "chain", "equipped", "graveyard")
ZONE_LABELS = {
    "hand": "手札 hand",
    "revealed": "公開 revealed (QS-1)",
    "chain": "on the chain",
    "equipped": "装備 equipped (EQ-1)",
    "graveyard": "墓地 graveyard",
}

_STYLE = """<style>
.fsm-step table { border-collapse: collapse; font-size: 12px; margin: 2px 0 6px 0; }
.fsm-step th, .fsm-step td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; vertical-align: top;
  white-space: nowrap; }
.fsm-step .fsm-rows td { white-space: normal; }
.fsm-step th { background: #f3f3f3; }
.fsm-step .fsm-clause { font-family: monospace; font-size: 11px; background: #eef2f7; border-radius: 3px;
  padding: 0 3px; color: #333; cursor: help; }
.fsm-step .fsm-latest { background: #fffbe6; }
.fsm-step h4 { margin: 6px 0 2px 0; font-size: 13px; }
.fsm-diagram svg { max-width: 100%; height: auto; }
</style>"""


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def clause_badge(clause_id: str) -> str:
    """A clause ID as a small badge; hovering it shows the catalogue's summary."""
    if not clause_id:
        return ""
    c = CLAUSES.get(clause_id)
    tip = f"{c.title}: {c.text}" if c else clause_id
    return f'<span class="fsm-clause" title="{_esc(tip)}">{_esc(clause_id)}</span>'


def rows_table(rows: list[dict[str, str]], caption: str = "") -> str:
    """A list of same-keyed dicts (e.g. :func:`fsm.timing.legality_table`) as an HTML table."""
    if not rows:
        return "<p>(empty)</p>"
    heads = list(rows[0])
    out = ['<table class="fsm-rows" style="border-collapse:collapse;font-size:12px">']
    if caption:
        out.append(f"<caption>{_esc(caption)}</caption>")
    # inline styles: JupyterLab right-aligns table cells, which reads badly for words
    cell = "text-align:left;vertical-align:top;border:1px solid #ddd;padding:2px 6px"
    out.append("<tr>" + "".join(f'<th style="{cell}">{_esc(h)}</th>' for h in heads) + "</tr>")
    for row in rows:
        cells = []
        for i, h in enumerate(heads):
            value = str(row.get(h, ""))
            style = cell + (";color:#aaa" if value == "—" else "") + (";white-space:nowrap" if i == 0 else "")
            cells.append(f'<td style="{style}">{_esc(value)}</td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def diagram(what: str | type, lang: Lang = "both", rules: Ruleset | None = None) -> Any:
    """A machine's diagram for a notebook cell: a kind key (``"action"``, ``"sync_action"``,
    ``"skill"``) or a machine class (``CounterChain``, ``GameFlow``)."""
    from IPython.display import SVG

    from .diagrams import render_machine
    from .ruleset import builtin

    machine = what
    if isinstance(what, str):
        rules = rules or builtin()
        key = what.removeprefix("sync_")
        if key not in rules.kinds:
            raise BadInput(f"no kind {what!r}; kinds: {', '.join(rules.kinds)} (prefix sync_ for 【同調】)")
        machine = procedure_class(rules.kind(key, sync=what.startswith("sync_")))
    return SVG(render_machine(machine, lang=lang))  # type: ignore[arg-type]


def log_groups(log: list[LogEntry]) -> list[tuple[str, list[LogEntry]]]:
    """Split the log into (move, the lines it caused); set-up lines come under ``""``.

    A move's first line is its own echo (the move text), which starts a new group.
    """
    groups: list[tuple[str, list[LogEntry]]] = []
    for entry in log:
        if entry.move and entry.text == entry.move:
            groups.append((entry.move, [entry]))
        elif groups:
            groups[-1][1].append(entry)
        else:
            groups.append(("", [entry]))
    return groups


@dataclass(frozen=True)
class ScriptStep:
    """One entry of a scenario's ``moves:``; ``refused`` entries are checks, not moves."""

    text: str
    refused: bool = False
    clause: str = ""


def read_script(moves: Any) -> list[ScriptStep]:
    out = []
    for entry in moves or []:
        if isinstance(entry, Mapping):
            out.append(ScriptStep(str(entry.get("refused", "")), True, str(entry.get("clause", "") or "")))
        else:
            out.append(ScriptStep(str(entry)))
    return out


@dataclass
class _Step:
    """What undo needs: the table before the move and where the script stood."""

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
    ) -> None:
        self.game = game
        self.title = title
        self.script = list(script or [])
        self.script_pos = script_pos
        self.off_script = False
        self.clauses = list(clauses or [])
        self.lang = lang
        self.history: list[_Step] = []
        self._start = _Step(game.snapshot(), script_pos, False)
        self._diagram_key: Any = None
        self._build()
        self.refresh()

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_scenario(
        cls,
        path: str | Path,
        upto: int | None = None,
        variants: Variants | Mapping[str, Any] | None = None,
        rules: Ruleset | None = None,
        lang: Lang = "both",
    ) -> StepThrough:
        """A step-through of a scenario file, at its start or after its first ``upto`` entries.

        ``variants`` are applied on top of the scenario's own ``variants:``.
        """
        from .scenario import play, read_yaml

        data = read_yaml(Path(path))
        if not isinstance(data, Mapping):
            raise BadInput("a scenario is a mapping with players, units, moves ...", f"{path}:1")
        merged: Variants | None = None
        if variants is not None:
            extra = variants.changed() if isinstance(variants, Variants) else dict(variants)
            merged = Variants({**dict(data.get("variants") or {}), **extra})
        result = play(path, merged, rules, upto=upto if upto is not None else 0)
        script = read_script(data.get("moves"))
        pos = min(upto or 0, len(script))
        clauses = [str(c) for c in data.get("clauses") or []]
        self = cls(result.game, str(data.get("title", Path(path).stem)), script, pos, clauses, lang)
        if result.failures:
            self.off_script = True
            self._show_why("<br>".join(_esc(f) for f in result.failures), ok=False)
        return self

    def _build(self) -> None:
        self.title_html = w.HTML()
        self.header = w.HTML()
        self.header.add_class("fsm-header")
        self.moves_box = w.Box(layout=w.Layout(display="flex", flex_flow="row wrap"))
        self.moves_box.add_class("fsm-moves")
        self.move_buttons: list[w.Button] = []
        self.undo_button = w.Button(description="undo", icon="undo", tooltip="take back the last move")
        self.undo_button.add_class("fsm-undo")
        self.reset_button = w.Button(description="back to start", icon="fast-backward")
        self.reset_button.add_class("fsm-reset")
        self.script_button = w.Button(description="next in script", icon="play", tooltip="the scenario's next move")
        self.script_button.add_class("fsm-script-next")
        self.undo_button.on_click(lambda _b: self.undo())
        self.reset_button.on_click(lambda _b: self.reset())
        self.script_button.on_click(lambda _b: self.next_in_script())
        self.try_text = w.Text(
            placeholder="type any move, e.g. A: pass",
            layout=w.Layout(width="440px"),
            continuous_update=False,
        )
        self.try_text.add_class("fsm-try")
        # Enter in the box asks "why not?" (the value is sent on Enter, as continuous_update is off)
        self.try_text.observe(lambda change: change["new"] and self.try_move(change["new"]), names="value")
        self.why_button = w.Button(description="why not?", icon="question", tooltip="is this move legal here?")
        self.why_button.add_class("fsm-why-button")
        self.play_button = w.Button(description="play it", icon="check", tooltip="play the typed move if legal")
        self.play_button.add_class("fsm-play-typed")
        self.why_button.on_click(lambda _b: self.try_move(self.try_text.value))
        self.play_button.on_click(lambda _b: self.play(self.try_text.value))
        self.why = w.HTML()
        self.why.add_class("fsm-why")
        self.diagram = w.HTML(layout=w.Layout(overflow="auto", border="1px solid #ddd", flex="1 1 440px"))
        self.diagram.add_class("fsm-diagram")
        self.chain_html = w.HTML()
        self.chain_html.add_class("fsm-chain")
        self.table_html = w.HTML()
        self.table_html.add_class("fsm-table")
        self.script_html = w.HTML()
        self.script_html.add_class("fsm-script")
        self.log_html = w.HTML(layout=w.Layout(overflow="auto", max_height="520px"))
        self.log_html.add_class("fsm-log")
        controls = w.HBox([self.undo_button, self.reset_button, self.script_button])
        trying = w.HBox([self.try_text, self.why_button, self.play_button])
        side = w.VBox(
            [self.chain_html, self.table_html, self.script_html, self.log_html],
            layout=w.Layout(flex="1 1 520px", overflow="auto", margin="0 0 0 8px"),
        )
        body = w.Box([self.diagram, side], layout=w.Layout(display="flex", flex_flow="row wrap"))
        self.widget = w.VBox([self.title_html, self.header, self.moves_box, controls, trying, self.why, body])
        self.widget.add_class("fsm-step")

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)

    # ------------------------------------------------------------------ actions
    def play(self, move: Move | str) -> list[LogEntry]:
        """Play a move as if its button were clicked; a refusal is shown, not raised."""
        text = str(move).strip()
        if not text:
            self._show_why("type a move first, e.g. <code>A: pass</code>", ok=False)
            return []
        snap = self.game.snapshot()
        try:
            entries = self.game.apply(move if isinstance(move, Move) else text)
        except RuleViolation as err:
            self._show_why(f"refused {clause_badge(err.clause)} {_esc(err.message)} — nothing changed", ok=False)
            return []
        except BadInput as err:
            self._show_why(f"cannot read this move: {_esc(err)}", ok=False)
            return []
        except Exception as err:  # noqa: BLE001 - an engine bug is reported in the widget, not as a traceback
            self._show_why(f"internal error, please report it: {type(err).__name__}: {_esc(err)}", ok=False)
            return []
        self.history.append(_Step(snap, self.script_pos, self.off_script))
        self._follow_script(entries)
        self._show_why("")
        self.refresh()
        return entries

    def try_move(self, move: Move | str) -> str:
        """Is this move legal now, and if not, which rule forbids it?  Changes nothing."""
        text = str(move).strip()
        if not text:
            return self._show_why("type a move first, e.g. <code>A: pass</code>", ok=False)
        try:
            verdict = self.game.why_not(move if isinstance(move, Move) else text)
        except BadInput as err:  # e.g. a unit or ability that does not exist on this table
            return self._show_why(f"cannot read this move: {_esc(err)}", ok=False)
        except Exception as err:  # noqa: BLE001 - a reader's typo must never end in a traceback
            return self._show_why(f"could not check this move ({type(err).__name__}: {_esc(err)})", ok=False)
        if verdict.legal:
            return self._show_why(f"<b>{_esc(text)}</b> is legal here — press “play it” to play it", ok=True)
        if not verdict.clause:
            return self._show_why(f"cannot read this move: {_esc(verdict.message)}", ok=False)
        return self._show_why(
            f"<b>{_esc(text)}</b> is refused {clause_badge(verdict.clause)} {_esc(verdict.message)}", ok=False
        )

    def undo(self) -> None:
        if not self.history:
            self._show_why("nothing to undo", ok=False)
            return
        step = self.history.pop()
        self.game.restore(step.snapshot)
        self.script_pos, self.off_script = step.script_pos, step.off_script
        self._show_why("")
        self.refresh()

    def reset(self) -> None:
        self.game.restore(self._start.snapshot)
        self.script_pos, self.off_script = self._start.script_pos, False
        self.history.clear()
        self._show_why("")
        self.refresh()

    def next_in_script(self) -> None:
        """Play the script's next move, or show the refusal the script expects next."""
        if self.off_script:
            self._show_why("you have left the script; undo back to it, or go back to the start", ok=False)
            return
        if self.script_pos >= len(self.script):
            self._show_why("the script is finished; carry on with the buttons", ok=True)
            return
        step = self.script[self.script_pos]
        if step.refused:
            self.try_text.value = step.text
            self.script_pos += 1
            self.try_move(step.text)
            self.refresh()
            return
        self.play(step.text)

    def _follow_script(self, entries: list[LogEntry]) -> None:
        """Advance the script if the move just played is its next move (skipping refusal checks)."""
        if self.off_script:
            return
        played = entries[0].move if entries else ""
        i = self.script_pos
        while i < len(self.script) and self.script[i].refused:
            i += 1
        if i < len(self.script) and self._same_move(self.script[i].text, played):
            self.script_pos = i + 1
        else:
            self.off_script = True

    def _same_move(self, scripted: str, played: str) -> bool:
        try:
            m = parse(scripted)
        except BadInput:
            return False
        return str(m) == played or (not m.player and played.split(":", 1)[-1].strip() == str(m))

    def _show_why(self, message: str, ok: bool | None = None) -> str:
        colour = {True: "#276749", False: "#9b2c2c", None: "#333"}[ok]
        self.why.value = f'<div style="color:{colour};margin:2px 0">{message}</div>' if message else ""
        return html.unescape(_strip_tags(message))

    # ------------------------------------------------------------------ drawing
    def refresh(self) -> None:
        g = self.game
        self.title_html.value = _STYLE + self._title()
        self.header.value = self._header()
        legal = g.legal_moves()
        self.move_buttons = [self._button(m) for m in legal]
        self.moves_box.children = tuple(self.move_buttons)
        self.undo_button.disabled = not self.history
        self.script_button.disabled = self.off_script or self.script_pos >= len(self.script)
        self.script_button.layout.display = "" if self.script else "none"
        if legal:
            example = next((str(m) for m in legal if m.verb != "pass"), str(legal[0]))
            self.try_text.placeholder = f"type any move, e.g. {example}"
        self._draw_diagram()
        self.chain_html.value = self._chain()
        self.table_html.value = self._table()
        self.script_html.value = self._script()
        self.log_html.value = self._log()

    def _title(self) -> str:
        if not self.title:
            return ""
        cites = " ".join(clause_badge(c) for c in self.clauses)
        return f"<h3 style='margin:4px 0'>{_esc(self.title)}</h3><div>{cites}</div>"

    def _colour(self, player: str | None) -> str:
        players = self.game.table.players
        return PLAYER_COLOURS[players.index(player)] if player in players else "#555"

    def _who(self, player: str | None) -> str:
        return f"<b style='color:{self._colour(player)}'>{_esc(player)}</b>"

    def _header(self) -> str:
        g, t = self.game, self.game.table
        where = " › ".join(s.name for s in g.flow.configuration)
        actor = g.actor()
        if actor is None:
            text = "nobody has a move here"
        elif t.priority is not None and t.chain:
            top = t.chain[-1]
            text = (
                f"{self._who(actor)} has priority (反撃の優先権) {clause_badge('TIM-CTR-2')} — may counter "
                f"#{top.seq} {_esc(self.game.source_name(top))} or pass"
            )
        else:
            point = g.point()
            step = point.name if point.action else list(g.flow.configuration)[-1].name
            text = f"{self._who(actor)} to decide — {_esc(step)}"
        variants = g.variants.changed()
        extra = ""
        if variants:
            extra = " · rule variants: " + ", ".join(f"{_esc(k)} = {_esc(v)}" for k, v in variants.items())
        return (
            f"<div style='font-size:14px;padding:4px 6px;border-left:6px solid {self._colour(actor)};"
            f"background:#f7f7f7'>{text}<br><small>{_esc(where)}{extra}</small></div>"
        )

    def _button(self, move: Move) -> w.Button:
        text = str(move)
        scripted = self._next_scripted()
        is_next = scripted is not None and self._same_move(scripted, text)
        b = w.Button(
            description=text,
            tooltip=("the scenario's next move: " if is_next else "") + text,
            icon="play" if is_next else "",
            layout=w.Layout(width="auto", margin="2px"),
            style={"button_color": self._colour(move.player), "text_color": "white"},
        )
        b.add_class("fsm-move")
        b.add_class(f"fsm-move-{self.game.table.players.index(move.player)}")
        if is_next:
            b.add_class("fsm-move-scripted")
        b.on_click(lambda _b, m=move: self.play(m))
        return b

    def _next_scripted(self) -> str | None:
        if self.off_script:
            return None
        for step in self.script[self.script_pos :]:
            if not step.refused:
                return step.text
        return None

    def _draw_diagram(self) -> None:
        key = self.game.table.key()
        if key == self._diagram_key:
            return
        try:
            from .live_view import live_svg

            svg = live_svg(self.game, lang=self.lang)
        except Exception as err:  # noqa: BLE001 - the diagram is an aid; the step must still work
            svg = f"<p style='color:#9b2c2c'>diagram unavailable: {_esc(type(err).__name__)}: {_esc(err)}</p>"
        self.diagram.value = svg
        self._diagram_key = key

    def _unit_name(self, uid: str | None) -> str:
        t = self.game.table
        if uid in t.units:
            u = t.units[uid]
            return f"<span style='color:{self._colour(u.owner)}'>{_esc(u.name)}</span>"
        return _esc(uid or "")

    def _kind_label(self, item: ChainItem) -> str:
        return self.game.spec_of(item).label

    def _step_name(self, item: ChainItem) -> str:
        """The item's procedure state by its diagram name, e.g. 反撃受付 / counter window."""
        names = {s.id: s.name for s in procedure_class(self.game.spec_of(item)).states}
        return names.get(str(item.state), str(item.state))

    def _chain(self) -> str:
        t = self.game.table
        head = "<h4>チェーン the chain (top first: newest resolves first, TIM-CTR-3)</h4>"
        if not t.chain:
            return head + "<div style='color:#777'>(empty)</div>" + self._outcomes()
        rows = [
            "<tr><th>#</th><th>kind</th><th>source</th><th>unit</th><th>target</th><th>dice</th><th>answers</th>"
            "<th>step</th></tr>"
        ]
        for item in reversed(t.chain):
            unit = self._unit_name(item.unit) if item.unit else self._who(item.declarer)
            target = self._unit_name(item.target) if item.target else ""
            rows.append(
                f"<tr><td>#{item.seq}</td><td>{_esc(self._kind_label(item))}</td><td>{_esc(self.game.source_name(item))}</td>"
                f"<td>{unit}</td><td>{target}</td><td>{'' if item.dice is None else item.dice}</td>"
                f"<td>{'' if item.answering is None else '#' + str(item.answering)}</td>"
                f"<td style='white-space:normal'>{_esc(self._step_name(item))}</td></tr>"
            )
        return head + "<table>" + "".join(rows) + "</table>" + self._outcomes()

    def _outcomes(self) -> str:
        t = self.game.table
        if not t.outcomes:
            return ""
        items = []
        for o in t.outcomes[-8:]:
            name = t.cards[o.source].name if o.source in t.cards else o.source
            mark = "✔ resolved" if o.result == "resolved" else "✘ fizzled"
            why = f": {_esc(o.reason)}" if o.reason else ""
            items.append(f"<li>#{o.seq} {_esc(name)} {mark} {clause_badge(o.clause)}{why}</li>")
        return "<h4>結果 outcomes</h4><ul style='margin:0;padding-left:18px'>" + "".join(items) + "</ul>"

    def _table(self) -> str:
        g, t = self.game, self.game.table
        parts = [self._battle(t)]
        rows = [
            "<tr><th>unit</th><th>owner</th><th>where</th><th>行動</th><th>進軍</th>"
            "<th>skills available</th><th>held</th><th>party</th></tr>"
        ]
        in_battle = set(t.battle.participants) if t.battle else set()
        for u in t.units.values():
            where = (u.geo or "") if u.on_field else u.zone
            if u.on_field and u.id in in_battle:
                where += " ⚔"
            flags = " 撃破" if u.destroyed else (" 破棄" if u.discarded else "")
            held = [p for p in g.holdings(u) if p]
            held_text = " + ".join(fmt(p) for p in held)
            rows.append(
                f"<tr><td>{self._unit_name(u.id)}{_esc(flags)}</td><td>{self._who(u.owner)}</td>"
                f"<td>{_esc(where)}</td><td>{'行動完了' if u.acted else '行動未完了'}</td>"
                f"<td>{'進軍完了' if u.marched else '進軍未完了'}</td><td>{_esc(fmt(g.available(u)))}</td>"
                f"<td>{_esc(held_text)}</td><td>{_esc(u.party or '')}</td></tr>"
            )
        parts.append("<h4>ユニット units (⚔ = in this battle)</h4><table>" + "".join(rows) + "</table>")
        if t.cards:
            card_rows = []
            for zone in ZONES:
                cards = [c for c in t.cards.values() if c.zone == zone]
                if not cards:
                    continue
                names = ", ".join(
                    f"<span style='color:{self._colour(c.owner)}'>{_esc(c.name)}</span>"
                    f" <small>({_esc(c.condition)}"
                    + (f" → {_esc(t.units[c.equipped_to].name)}" if c.equipped_to in t.units else "")
                    + ")</small>"
                    for c in cards
                )
                card_rows.append(f"<tr><td>{_esc(ZONE_LABELS[zone])}</td><td>{names}</td></tr>")
            parts.append("<h4>カード cards by zone</h4><table>" + "".join(card_rows) + "</table>")
        return "".join(parts)

    def _battle(self, t: Table) -> str:
        geos = ", ".join(
            f"{_esc(gname)} ({self._who(geo.holder) if geo.holder else '—'})" for gname, geo in t.geos.items()
        )
        b = t.battle
        if b is None:
            return f"<div>ジオ geos: {geos} · {self._who(t.active)}'s turn</div>"
        totals = b.totals()
        speed = ", ".join(
            f"{self._who(p)} {b.dice[p]}{b.speed_mod.get(p, 0):+d} = {totals[p]}" for p in t.players if p in b.dice
        )
        bits = [
            f"戦闘 battle at {_esc(b.geo)}: {self._who(b.advancing)} advancing (進軍側), "
            f"{self._who(b.defending)} defending (防御側)",
        ]
        if speed:
            bits.append(f"speed {speed}")
        if b.first:
            bits.append(f"先攻 first: {self._who(b.first)}")
        if b.front:
            bits.append("front: " + ", ".join(f"{self._who(p)} {self._unit_name(u)}" for p, u in b.front.items()))
        return f"<div>{' · '.join(bits)}<br>ジオ geos: {geos}</div>"

    def _script(self) -> str:
        if not self.script:
            return ""
        items = []
        for i, step in enumerate(self.script):
            done = i < self.script_pos
            mark = "✓" if done else ("▶" if i == self.script_pos and not self.off_script else "·")
            text = _esc(step.text)
            if step.refused:
                text = f"<i>try</i> {text} <i>→ refused</i> {clause_badge(step.clause)}"
            style = "color:#999" if done else ""
            items.append(f"<li style='{style}'>{mark} {text}</li>")
        note = " <small style='color:#9b2c2c'>(you left the script — undo to return)</small>" if self.off_script else ""
        return f"<h4>台本 the scenario's script{note}</h4><ul style='margin:0;padding-left:6px;list-style:none'>" + (
            "".join(items) + "</ul>"
        )

    def _log(self) -> str:
        groups = log_groups(self.game.log)
        out = ["<h4>記録 the log, newest move first (each line cites the rule it follows)</h4>"]
        for n, (move, entries) in enumerate(reversed(groups)):
            latest = " fsm-latest" if n == 0 else ""
            title = _esc(move) if move else "set-up"
            lines = [e for e in entries if not (move and e.text == move)]
            first = entries[0] if move else None
            out.append(
                f"<div class='fsm-log-move{latest}' style='margin:2px 0;padding:2px 4px'>"
                f"<b>▸ {title}</b> {clause_badge(first.clause) if first else ''}" + ("<br>" if lines else "")
            )
            out.append(
                "<br>".join(
                    f"&nbsp;&nbsp;{clause_badge(e.clause)} {_esc(e.text)}"
                    + (f" <small style='color:#888'>({_esc(e.machine)})</small>" if e.machine else "")
                    for e in lines
                )
            )
            out.append("</div>")
        return "".join(out)


def _strip_tags(text: str) -> str:
    import re

    return re.sub(r"<[^>]+>", "", text)
