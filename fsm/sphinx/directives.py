"""The four directives of :mod:`fsm.sphinx`: a machine, a scenario, the clauses, the timing matrix."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.util.docutils import SphinxDirective
from statemachine.contrib.diagram.sphinx_ext import StateMachineDiagram

from fsm.errors import BadInput
from fsm.render import diagrams, live_view, timing_map
from fsm.render.dot import dot_source, run_dot
from fsm.render.export import parse_folds
from fsm.render.fonts import FONT
from fsm.render.graph import Diagram
from fsm.render.labels import Lang, Term
from fsm.render.styles import Style
from fsm.rules.catalogue import CLAUSES
from fsm.scenarios.narrate import entered_words
from fsm.scenarios.playing import load, play
from fsm.spec.ruleset import Ruleset
from fsm.spec.ruleset import load as load_rules
from fsm.sphinx import links
from fsm.sphinx.nodes import fsm_backlinks, fsm_image

if TYPE_CHECKING:
    from fsm.engine.game import Game

#: Words of the generated text, per language.
WORDS: dict[str, Term] = {
    "clauses": Term("条項", "Clauses"),
    "diagrams": Term("図", "Diagrams"),
    "scenarios": Term("シナリオ", "Scenarios"),
    "terms": Term("用語", "Terms"),
    "variant": Term("ルール変種", "Rule variant"),
    "setup": Term("準備", "Set-up"),
    "refused": Term("拒否（想定どおり）", "refused, as expected"),
    "outcome_ok": Term("すべての期待どおり", "every expectation holds"),
    "after": Term("この手の後", "after this move"),
    "scroll": Term("表は横にスクロールできます →", "The table scrolls sideways →"),
}


def word(key: str, lang: Lang) -> str:
    term = WORDS[key]
    return term.en if lang == "en" else term.ja if lang == "ja" else f"{term.ja} {term.en}"


def _lang(value: str) -> str:
    return str(directives.choice(value, ("ja", "en", "both")))


def _on_off(value: str) -> bool:
    return directives.choice(value, ("on", "off")) == "on"


@cache
def _rules(files: tuple[str, ...]) -> Ruleset:
    return load_rules(files)


class _FsmDirective(SphinxDirective):
    def lang(self) -> Lang:
        chosen = str(self.options.get("lang") or self.config.fsm_lang or self.config.language)
        return "ja" if chosen == "ja" else "en" if chosen == "en" else "both"

    def rules(self) -> Ruleset:
        return _rules(tuple(self.config.fsm_rules))

    def warn(self, message: str) -> list[nodes.Node]:
        return [self.state_machine.reporter.warning(f"{self.name}: {message}", line=self.lineno)]


def clause_ref(cid: str) -> nodes.Node:
    """A link to the clause's anchor in the catalogue (plain text if the project has none)."""
    ref = addnodes.pending_xref("", refdomain="std", reftype="clause", reftarget=cid, refexplicit=True, refwarn=False)
    ref += nodes.literal(cid, cid, classes=["fsm-clause"])
    return ref


def prose(text: str) -> nodes.paragraph:
    """A scenario's notes as a paragraph, with its ```code``` (a key, a file, a move) as code."""
    para = nodes.paragraph()
    for i, part in enumerate(text.split("`")):
        para += nodes.literal(text=part) if i % 2 else nodes.Text(part)
    return para


def image_node(svg: str, stem: str, alt: str, classes: list[str], **extra: Any) -> fsm_image:
    digest = hashlib.sha1(svg.encode("utf-8")).hexdigest()[:10]
    return fsm_image(svg=svg, filename=f"fsm-{stem}-{digest}.svg", alt=alt, classes=classes, **extra)


class MachineDiagram(StateMachineDiagram, _FsmDirective):
    """``fsm-machine KIND``: python-statemachine's ``statemachine-diagram``, by kind name and in
    this project's labels and style, as a self-contained SVG image."""

    option_spec: ClassVar[dict[str, Any]] = {
        **{k: v for k, v in StateMachineDiagram.option_spec.items() if k not in ("events", "format", "target")},
        "lang": _lang,
        "clauses": _on_off,
        "print": directives.flag,
        "fold": directives.unchanged,
    }

    def find(self, name: str) -> Diagram | None:
        for d in diagrams.machines(self.rules()):
            spec = getattr(d.machine, "spec", None)
            keys = {d.stem, d.stem.removeprefix("kind_")} | ({spec.key} if spec is not None else set())
            if name in keys:
                return d
        return None

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        d = self.find(name)
        if d is None or d.machine is None:
            known = ", ".join(x.stem.removeprefix("kind_") for x in diagrams.machines(self.rules()))
            return self.warn(f"no machine called {name!r}; use one of: {known}")
        lang, clauses = self.lang(), self.options.get("clauses", True)
        printed = "print" in self.options
        folds = parse_folds(self.options["fold"]) if "fold" in self.options else None
        try:
            svg = str(
                diagrams.render_machine(d.machine, lang, "svg", clauses=clauses, printed=printed, fold_states=folds)
            )
        except BadInput as err:
            return self.warn(err.message)
        _, cited = dot_source(d.machine, Style(lang, clauses, printed), fold_states=folds)
        title = d.title.words(lang)
        anchor = f"diagram-{d.stem}"
        for cid in cited:
            links.note(self.env, f"clause:{cid}", anchor, title, "diagram")
        links.note(self.env, f"diagram:{d.stem}", anchor, title, "diagram")
        node = image_node(
            svg,
            d.stem,
            self.options.get("alt", title),
            self._build_wrapper_classes() + ["fsm-diagram"],
            caption=self.options.get("caption", ""),
            width=self.options.get("width", ""),
        )
        node["ids"] = [anchor]
        if "name" in self.options:
            self.add_name(node)
        heading = word("scenarios", lang) + ":"
        return [node, fsm_backlinks(key=f"machine:{d.stem}", kind="scenario", heading=heading)]


def machine_stem(label: str, rules: Ruleset) -> str:
    """The diagram a log line's machine (``【行動】``, ``CounterChain``) is drawn in."""
    for d in diagrams.machines(rules):
        if label in (d.title.ja, getattr(d.machine, "__name__", "")):
            return d.stem
    return ""


class ScenarioSteps(_FsmDirective):
    """``fsm-scenario PATH``: a scenario as a narrated step list, with the diagrams after each move."""

    required_arguments = 1
    option_spec: ClassVar[dict[str, Any]] = {
        "lang": _lang,
        "diagrams": lambda v: directives.choice(v, ("each", "none")),
        "title": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        rel, path = self.env.relfn2path(self.arguments[0])
        self.env.note_dependency(rel)
        if not Path(path).is_file():
            return self.warn(f"no scenario file {self.arguments[0]!r} (looked for {path})")
        lang = self.lang()
        try:
            result = play(path, rules=self.rules(), lang=None if lang == "both" else lang)
        except BadInput as err:
            return self.warn(str(err))
        if not result.ok:
            return self.warn(f"{self.arguments[0]} does not play as written: {'; '.join(map(str, result.failures))}")
        stem = Path(path).stem
        anchor = f"scenario-{stem}"
        box = nodes.container(classes=["fsm-scenario"], ids=[anchor])
        if "title" in self.options:
            box += nodes.paragraph("", "", nodes.strong(text=result.title))
        if result.notes:
            box += prose(" ".join(result.notes.split()))
        cited = sorted(result.checked | set(result.clauses), key=lambda c: list(CLAUSES).index(c))
        box += self._clauses_line(cited, lang)
        for cid in cited:
            links.note(self.env, f"clause:{cid}", anchor, result.title, "scenario")
        rules = self.rules()
        steps = nodes.enumerated_list(classes=["fsm-steps"])
        replay, _ = load(path, rules=rules)  # replayed move by move, for the diagram after each
        ran: dict[str, None] = {}  # the machines' diagrams, in the order the scenario met them
        for move, entries in result.steps:
            for e in entries:
                if e.machine and (found := machine_stem(e.machine, rules)):
                    links.note(self.env, f"machine:{found}", anchor, result.title, "scenario")
                    ran[f"diagram:{found}"] = None
            if move == "(set-up)":
                setup = nodes.paragraph("", "", nodes.strong(text=word("setup", lang) + ": "))
                for e in entries:
                    setup += [clause_ref(e.clause), nodes.Text(f" {e.text}  ")]
                box += setup
                continue
            if not move.startswith("refused "):
                replay.apply(move)
            steps += self._step(replay, move, entries, lang)
        box += steps
        box += nodes.paragraph(text=f"✓ {word('outcome_ok', lang)}", classes=["fsm-outcome"])
        box += fsm_backlinks(key=list(ran), kind="diagram", heading=word("diagrams", lang) + ":")
        return [box]

    def _clauses_line(self, cited: list[str], lang: Lang) -> nodes.paragraph:
        para = nodes.paragraph("", "", nodes.strong(text=word("clauses", lang) + ": "))
        for i, cid in enumerate(cited):
            para += [nodes.Text(", ")] if i else []
            para += clause_ref(cid)
        return para

    def _step(self, game: Game, move: str, entries: list[Any], lang: Lang) -> nodes.list_item:
        item = nodes.list_item()
        refused = move.startswith("refused ")
        head = nodes.paragraph()
        head += nodes.literal(text=move.removeprefix("refused "))
        if refused:
            head += nodes.Text(f"  ✗ {word('refused', lang)}")
        item += head
        lines = nodes.bullet_list(classes=["fsm-log"])
        for e in entries:
            if e.text == move:
                continue
            entered = f"  → {words}" if (words := entered_words(e, None if lang == "both" else lang)) else ""
            lines += nodes.list_item(
                "", nodes.paragraph("", "", clause_ref(e.clause), nodes.Text(f" {e.text}{entered}"))
            )
        item += lines
        if not refused and self.options.get("diagrams", "each") == "each":
            svg = live_view.live_svg(game, lang)  # where the game stands now: flow, chain, top item
            label = f"{word('after', lang)}: {move}"
            item += nodes.raw("", f'<div class="fsm-step" role="img" aria-label="{label}">{svg}</div>', format="html")
        return item


class ClauseCatalogue(_FsmDirective):
    """``fsm-clauses``: every clause (or those of ``:prefix:``), each with its own anchor."""

    option_spec: ClassVar[dict[str, Any]] = {
        "prefix": directives.unchanged,
        "ids": directives.unchanged,
        "brief": directives.flag,
        "lang": _lang,
    }

    def run(self) -> list[nodes.Node]:
        lang = self.lang()
        std = self.env.get_domain("std")
        prefix = self.options.get("prefix", "").upper()
        ids = [i.strip() for i in self.options.get("ids", "").split(",") if i.strip()]
        if unknown := [i for i in ids if i not in CLAUSES]:
            return self.warn(f"not clause IDs of the catalogue: {', '.join(unknown)}")
        brief = "brief" in self.options  # a page's own list: links to the catalogue's anchors
        out: list[nodes.Node] = []
        for c in [CLAUSES[i] for i in ids] if ids else CLAUSES.values():
            if not c.id.startswith(prefix):
                continue
            box = nodes.container(classes=["fsm-clause-entry"], ids=[] if brief else [c.id])
            # the Japanese site reads the catalogue's own Japanese wording (fsm/rules/data/clauses.toml)
            title, text, variant = c.title_in(lang), c.text_in(lang), c.variant_in(lang)
            if brief:
                box += nodes.paragraph("", "", clause_ref(c.id), nodes.Text("  "), nodes.strong(text=title))
            else:
                std.note_object("clause", c.id, c.id, location=(self.env.docname, self.lineno))  # type: ignore[attr-defined]
                box += nodes.paragraph("", "", nodes.strong(text=c.id), nodes.Text(f"  {title}"))
            if c.ja:
                box += nodes.paragraph(
                    "",
                    "",
                    nodes.emphasis(text=word("terms", lang) + ": "),
                    nodes.Text(("・" if lang == "ja" else ", ").join(c.ja)),
                )
            box += nodes.paragraph(text=text)
            if variant:
                box += nodes.paragraph("", "", nodes.emphasis(text=word("variant", lang) + ": "), nodes.Text(variant))
            for kind, key in (("diagram", "diagrams"), ("scenario", "scenarios")):
                box += fsm_backlinks(key=f"clause:{c.id}", kind=kind, heading=word(key, lang) + ":")
            out.append(box)
        if not out:
            return self.warn(f"no clause ID starts with {prefix!r}")
        return out


class TimingMatrix(_FsmDirective):
    """``fsm-timings``: the timing matrix, as a table (default) or as a drawing (``:as: diagram``)."""

    option_spec: ClassVar[dict[str, Any]] = {
        "as": lambda v: directives.choice(v, ("table", "diagram")),
        "lang": _lang,
        "clauses": _on_off,
        "print": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        lang, clauses, rules = self.lang(), self.options.get("clauses", True), self.rules()
        title = timing_map.TITLE.words(lang)
        for row in timing_map.matrix(rules).rows:
            links.note(self.env, f"clause:{row.timing.clause}", "timing-matrix", title, "diagram")
        if self.options.get("as", "table") == "table":
            table = timing_map.html_table(rules, lang, clauses)
            hint = f'<p class="fsm-scroll-hint" aria-hidden="true">{word("scroll", lang)}</p>'
            box = f'<div class="fsm-matrix" id="timing-matrix" tabindex="0">{table}</div>'
            return [nodes.raw("", hint + box, format="html")]
        style = Style(lang, clauses, "print" in self.options)  # printed: in parts that fit a column
        out: list[fsm_image] = []
        for source in timing_map.dot_sources(rules, style, FONT):
            svg = run_dot(source, "svg").decode("utf-8")
            out.append(image_node(svg, "timing_map", title, ["statemachine-diagram", "align-center", "fsm-diagram"]))
        out[0]["ids"] = ["timing-matrix"]
        return list(out)
