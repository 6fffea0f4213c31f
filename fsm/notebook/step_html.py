"""The step-through's panels as HTML: the header, the chain as a stack, the newest log
lines, the units and cards, the script.  Plain functions of the game and of a
:class:`~fsm.notebook.timeline.Frame`, so the widget (:mod:`fsm.notebook.step_through`) only lays them out.

Every container carries a stable CSS class (``fsm-header``, ``fsm-chain``, ``fsm-log``,
``fsm-log-latest``, ``fsm-failed``, ``fsm-table``, ``fsm-script``) for the browser tests.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass

from fsm.engine.game import Game, LogEntry
from fsm.i18n import N_, using
from fsm.machines.chain import priority
from fsm.machines.procedures import GUARDS, MEANINGS, procedure_class
from fsm.machines.trace import Link, Trace
from fsm.notebook.timeline import Frame, is_move_echo
from fsm.notebook.widget_words import say, term
from fsm.render.labels import Lang, Term, state_term
from fsm.render.live_view import link_label
from fsm.rules.catalogue import CLAUSES
from fsm.rules.price_parts import cost_text
from fsm.rules.skills import fmt
from fsm.rules.variants import value_word
from fsm.scenarios.narrate import MACHINE_WORDS
from fsm.scenarios.script import Script
from fsm.spec.kinds import WORDS
from fsm.table.model import ChainItem, Table, Unit

#: One colour per seat: the first player of the table, then the second (also in front/step.css, for the move buttons).
PLAYER_COLOURS = ("#2b6cb0", "#c05621")
ZONES = ("hand", "revealed", "chain", "equipped", "graveyard")
ZONE_LABELS = {  # the zone's term, and the clause that defines it
    "hand": (N_("hand"), ""),
    "revealed": (N_("revealed"), " (QS-1)"),
    "chain": (N_("on the chain"), ""),
    "equipped": (N_("equipped"), " (EQ-1)"),
    "graveyard": (N_("graveyard"), ""),
}
#: Headings and words shown inside the panels' HTML (pybabel does not look inside f-strings).
SHOWN = {
    "the_chain": N_("the chain"),
    "empty": N_("empty"),
    "the_log": N_("the log"),
    "recheck": N_("recheck"),
    "units": N_("units"),
    "in_battle": N_("⚔ = in this battle"),
    "cards": N_("cards"),
    "by_zone": N_("by zone"),
    "outcomes": N_("outcomes"),
    "geos": N_("geos"),
    "speed": N_("speed"),
    "first": N_("first"),
    "the_scenario_s_script": N_("the scenario's script"),
}


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def clause_badge(clause_id: str) -> str:
    """A clause ID as a small badge; hovering it shows the catalogue's summary."""
    if not clause_id:
        return ""
    c = CLAUSES.get(clause_id)
    tip = f"{c.title}: {c.text}" if c else clause_id
    return f'<span class="fsm-clause" title="{esc(tip)}">{esc(clause_id)}</span>'


@dataclass(frozen=True)
class Painter:
    """Draws one game's panels, in its players' colours."""

    game: Game
    lang: Lang = "both"

    def say(self, message: str, **values: object) -> str:
        """A message in the step-through's language, its named placeholders filled after translating."""
        return say(message, self.lang).format(**values)

    def term(self, message: str) -> str:
        return term(message, self.lang)

    def source_name(self, item: ChainItem) -> str:
        """What an item was declared from, named in the step-through's language ([スピード決定], not speed)."""
        with using(None if self.lang == "both" else self.lang):
            return self.game.source_name(item)

    def state(self, name: str) -> str:
        """A state by its rule term in the step-through's language ("反撃受付 / counter window")."""
        return name if self.lang == "both" else state_term(name).words(self.lang)

    def card_term(self, message: str) -> str:
        """A rule term as printed on the cards when no language is chosen (the default's one word)."""
        return say(message, "ja" if self.lang == "both" else self.lang)

    def colour(self, player: str | None) -> str:
        players = self.game.table.players
        return PLAYER_COLOURS[players.index(player)] if player in players else "#555"

    def who(self, player: str | None) -> str:
        return f"<b style='color:{self.colour(player)}'>{esc(player)}</b>"

    def unit_name(self, uid: str | None) -> str:
        t = self.game.table
        if uid in t.units:
            u = t.units[uid]
            return f"<span style='color:{self.colour(u.owner)}'>{esc(u.name)}</span>"
        return esc(uid or "")

    # ------------------------------------------------------------------ header
    def header(self, frame: Frame, steps: tuple[int, int] | None) -> str:
        """Who decides and why; while a move is replayed, which step of it is shown."""
        g, t = self.game, self.game.table
        if steps is not None:
            return self.replaying(esc(frame.label), *steps)
        actor = g.actor()
        if actor is None:
            text = self.say(N_("nobody has a move here"))
        elif priority(t) is not None and t.chain:
            top = t.chain[-1]
            text = self.say(
                N_("{player} has priority ({priority}) {clause} — may counter #{seq} {source} or pass"),
                player=self.who(actor),
                priority=self.card_term(N_("counter priority")),
                clause=clause_badge("TIM-CTR-2"),
                seq=top.seq,
                source=esc(self.source_name(top)),
            )
        else:
            point = g.point()
            step = self.say(point.name) if point.action else self.state(list(g.flow.configuration)[-1].name)
            text = self.say(N_("{player} to decide — {step}"), player=self.who(actor), step=esc(step))
        where = " › ".join(self.state(s.name) for s in g.flow.configuration)
        variants = g.variants.changed()
        if variants:
            where += (
                " · "
                + self.say(N_("rule variants:"))
                + " "
                + ", ".join(f"{k}={value_word(v)}" for k, v in variants.items())
            )
        return self._box(text, self.colour(actor), where)

    def replaying(self, move: str, n: int | str, total: int | str) -> str:
        """The header while a move is replayed: its label (as HTML) and which step of it is shown
        (with ``"{move}"``, ``"{n}"``, ``"{total}"``: the page's template, front/wire.js)."""
        text = "▶ " + self.say(
            N_(
                "replaying <b>{move}</b> — step {n} of {total}; "
                "press <b>step</b> (or → on the timeline) or <b>to the decision</b>"
            ),
            move=move,
            n=n,
            total=total,
        )
        return self._box(text, "#b45309", self.say(N_("the engine's own trace, played back: no rule is run again")))

    @staticmethod
    def _box(text: str, colour: str, small: str) -> str:
        return (
            f"<div class='fsm-box' style='border-left-color:{colour}'>"  # the rest of its look is step.css's
            f"{text}<br><small>{esc(small)}</small></div>"
        )

    # ------------------------------------------------------------------ the chain
    def chain(self, trace: Trace | None) -> str:
        """The chain as a stack, top first, as the frame's trace has it (no diagram run)."""
        links = trace.links if trace else ()
        head = self.chain_head()
        if not links:
            return head + f"<div style='color:#777;font-size:12px'>({self.say(SHOWN['empty'])})</div>"
        moving = trace.link if trace else None
        rows = []
        for i, link in enumerate(reversed(links)):
            # the colours are step.css's: the link moving amber, the top pale, the others blue
            kind = " class='fsm-link-moving'" if link.seq == moving else (" class='fsm-link-top'" if i == 0 else "")
            label = esc(link_label(self.game, link, self.lang))
            rows.append(f"<tr{kind}><td>{label}</td><td>{self._state_mark(link)}</td></tr>")
        return head + "<table>" + "".join(rows) + "</table>"

    def chain_head(self) -> str:
        """The chain panel's heading, the same in every frame (the page has it once: front/wire.js)."""
        return (
            f"<div class='fsm-h'>{self.term(SHOWN['the_chain'])} — "
            + self.say(N_("top first: the newest resolves first"))
            + " "
            + clause_badge("TIM-CTR-3")
            + "</div>"
        )

    def _state_mark(self, link: Link) -> str:
        spec = self.game.spec_of(link.item())
        names = {s.id: s.name for s in procedure_class(spec).states}
        name = esc(self.state(names.get(link.state, link.state)))
        if link.state == "fizzled":
            return f"<span class='fsm-failed'>✘ {name}</span>"
        if link.state == "resolved":
            return f"<span class='fsm-held'>✔ {name}</span>"
        return name

    # ------------------------------------------------------------------ the log
    def log_line(self, e: LogEntry) -> str:
        """One log line: a move's echo in bold, else its clause badge, its text and the machine it
        moved; a recheck lists each condition it checked: ○ held, × failed (``fsm-failed``)."""
        if is_move_echo(e):
            return f"<div class='fsm-log-move'><b>▸ {esc(e.text)}</b> {clause_badge(e.clause)}</div>"
        where = self._machine_words(e)
        return (
            f"<div class='fsm-log-line'>&nbsp;&nbsp;{clause_badge(e.clause)} {esc(e.text)}"
            + (f" <small class='fsm-where'>({esc(where)})</small>" if where else "")
            + self._checked(e)
            + "</div>"
        )

    def log_heading(self) -> str:
        return (
            f"<div class='fsm-h'>{self.term(SHOWN['the_log'])} — "
            + self.say(N_("newest at the bottom; each line cites its rule"))
            + "</div>"
        )

    def _machine_words(self, e: LogEntry) -> str:
        words = MACHINE_WORDS.get(e.machine)  # rule words, never a Python class name
        return e.machine if words is None else Term(*words).words(self.lang)

    def _checked(self, e: LogEntry) -> str:
        if e.trace is None or not e.trace.checked:
            return ""
        marks = []
        for reason, fine in e.trace.checked:
            if fine:
                held = Term(*MEANINGS[GUARDS[reason]][:2]).words(self.lang)
                marks.append(f"<span class='fsm-held'>○ {esc(held)}</span>")
            else:
                marks.append(f"<span class='fsm-failed'>× {esc(Term(*WORDS[reason]).words(self.lang))}</span>")
        return f"<br>&nbsp;&nbsp;&nbsp;&nbsp;<small>{self.term(SHOWN['recheck'])}: " + " · ".join(marks) + "</small>"

    # ------------------------------------------------------------------ units and cards
    def table(self) -> str:
        g, t = self.game, self.game.table
        parts = [self._battle(t)]
        heads = (N_("unit"), N_("owner"), N_("where"), "行動", "進軍", N_("skills available"), N_("held"), N_("party"),
                 "代償")  # fmt: skip
        rows = ["<tr>" + "".join(f"<th>{esc(self.say(h))}</th>" for h in heads) + "</tr>"]
        in_battle = set(t.battle.participants) if t.battle else set()
        for u in t.units.values():
            where = (
                (u.geo or "") if u.on_field else self.term(ZONE_LABELS[u.zone][0]) if u.zone in ZONE_LABELS else u.zone
            )
            if u.on_field and u.id in in_battle:
                where += " ⚔"
            flags = " 撃破" if u.destroyed else (" 破棄" if u.discarded else "")
            held = " + ".join(fmt(p) for p in g.holdings(u) if p)
            rows.append(
                f"<tr><td>{self.unit_name(u.id)}{esc(flags)}</td><td>{self.who(u.owner)}</td>"
                f"<td>{esc(where)}</td><td>{'行動完了' if g.acted(u) else '行動未完了'}</td>"
                f"<td>{'進軍完了' if u.marched else '進軍未完了'}</td><td>{esc(self._skills(g.available(u)))}</td>"
                f"<td>{esc(held)}</td><td>{esc(u.party or '')}</td><td>{esc(self._prices(u))}</td></tr>"
            )
        units = f"{self.term(SHOWN['units'])} ({self.say(SHOWN['in_battle'])})"
        parts.append(f"<div class='fsm-h'>{units}</div><table>" + "".join(rows) + "</table>")
        card_rows = []
        for zone in ZONES:
            cards = [c for c in t.cards.values() if c.zone == zone]
            if cards:
                names = ", ".join(
                    f"<span style='color:{self.colour(c.owner)}'>{esc(c.name)}</span> <small>({esc(c.condition)}"
                    + (f" → {esc(t.units[c.equipped_to].name)}" if c.equipped_to in t.units else "")
                    + ")</small>"
                    for c in cards
                )
                label, clause = ZONE_LABELS[zone]
                card_rows.append(f"<tr><td>{esc(self.term(label) + clause)}</td><td>{names}</td></tr>")
        if card_rows:
            head = f"{self.term(SHOWN['cards'])} {self.say(SHOWN['by_zone'])}"
            parts.append(f"<div class='fsm-h'>{head}</div><table>" + "".join(card_rows) + "</table>")
        return self._outcomes(t) + "".join(parts)

    def _skills(self, pool: Mapping[str, int]) -> str:
        with using(None if self.lang == "both" else self.lang):  # an empty pool reads なし / none
            return fmt(pool)

    def _prices(self, u: Unit) -> str:
        """Each ability's 代償 (COST-3): its skills and parts, the kind's own parts first."""
        kinds = self.game.rules.kinds
        texts = ((ab.name, cost_text(ab.cost_pool, (*kinds[ab.kind].cost, *ab.parts))) for ab in u.abilities)
        return "; ".join(f"{name}: {text}" for name, text in texts if text)

    def _outcomes(self, t: Table) -> str:
        if not t.outcomes:
            return ""
        items = []
        for o in t.outcomes[-8:]:
            spec = self.game.rules.kinds.get(o.kind)
            name = t.cards[o.source].name if o.source in t.cards else o.source
            if spec is not None and spec.category in ("attack", "speed_roll"):
                name = spec.label  # the attack and the speed dice have no name of their own
            mark = "✔ " + self.term(N_("resolved")) if o.result == "resolved" else "✘ " + self.term(N_("fizzled"))
            why = f": {esc(o.reason)}" if o.reason else ""
            items.append(f"<li>#{o.seq} {esc(name)} {mark} {clause_badge(o.clause)}{why}</li>")
        return (
            f"<div class='fsm-h'>{self.term(SHOWN['outcomes'])}</div><ul style='margin:0;padding-left:18px'>"
            + "".join(items)
            + "</ul>"
        )

    def _battle(self, t: Table) -> str:
        geos = ", ".join(
            f"{esc(gname)} ({self.who(geo.holder) if geo.holder else '—'})" for gname, geo in t.geos.items()
        )
        b = t.battle
        if b is None:
            turn = self.say(N_("{player}'s turn"), player=self.who(t.active))
            return f"<div>{self.term(SHOWN['geos'])}: {geos} · {turn}</div>"
        totals = b.totals()
        speed = ", ".join(
            f"{self.who(p)} {b.dice[p]}{b.modifier(p):+d} = {totals[p]}" for p in t.players if p in b.dice
        )
        bits = [
            self.say(
                N_(
                    "{battle} at {geo}: {advancing} advancing ({advancing_side}), "
                    "{defending} defending ({defending_side})"
                ),
                battle=self.term(N_("battle")),
                geo=esc(b.geo),
                advancing=self.who(b.advancing),
                advancing_side="進軍側",
                defending=self.who(b.defending),
                defending_side="防御側",
            )
        ]
        if speed:
            bits.append(f"{self.term(SHOWN['speed'])} {speed}")
        if b.first:
            bits.append(f"{self.term(SHOWN['first'])}: {self.who(b.first)}")
        if b.front:
            bits.append(
                self.say(N_("front:"))
                + " "
                + ", ".join(f"{self.who(p)} {self.unit_name(u)}" for p, u in b.front.items())
            )
        return f"<div>{' · '.join(bits)}<br>{self.term(SHOWN['geos'])}: {geos}</div>"

    def script(self, s: Script) -> str:
        """The scenario's script: done ✓, next ▶, to come ·; refusal checks in italics."""
        if not s.steps:
            return ""
        items = []
        for i, step in enumerate(s.steps):
            done = i < s.pos
            mark = "✓" if done else ("▶" if i == s.pos and not s.off else "·")
            text = esc(step.text)
            if step.refused:
                text = self.say(
                    N_("<i>try</i> {move} <i>→ refused</i> {clause}"), move=text, clause=clause_badge(step.clause)
                )
            items.append(f"<li style='{'color:#999' if done else ''}'>{mark} {text}</li>")
        left = self.say(N_("you left the script — undo to return"))
        note = f" <small style='color:#9b2c2c'>({left})</small>" if s.off else ""
        head = f"<div class='fsm-h'>{self.term(SHOWN['the_scenario_s_script'])}{note}</div>"
        return head + "<ul style='margin:0;padding-left:6px;list-style:none'>" + "".join(items) + "</ul>"
