"""``.. fsm-try:: PATH``: a "try it" box that plays a scenario in the page (the browser edition).

The box is a button; a click starts pyodide in a Web Worker (``front/worker.js``) and draws the
notebook's step-through (``front/step.js``) in the page, in the page's language.  The scripts,
pyodide and the wheels come from the folder ``fsm_web_url`` names (relative to the HTML root; the
rulebook site's ``docs/site/web_assets.py`` writes it beside the ja and en builds), so a static
host serves everything and nothing is fetched from anywhere else.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes

from fsm.render.labels import Lang, Term
from fsm.sphinx.directives import _FsmDirective, _lang

#: What the box says, per language.
WORDS: dict[str, Term] = {
    "label": Term("▶ このページで動かす", "▶ Try it in the page"),
    "loading_runtime": Term("Python (pyodide) を読み込んでいます…", "Loading Python (pyodide)…"),
    "loading_restore": Term("前回の Python を復元しています…", "Restoring Python from your last visit…"),
    "loading_wheels": Term("規則エンジンを入れています…", "Installing the rules engine…"),
    "loading_scenario": Term("シナリオを開いています…", "Opening the scenario…"),
    "failed": Term("動かせませんでした", "Could not run it"),
    "about": Term(
        "このページの中で規則エンジンがそのまま動きます（ブラウザだけで、サーバーは要りません）。",
        "The rules engine runs unchanged inside your browser (pyodide in a Web Worker); no server needed.",
    ),
}


def _say(key: str, lang: Lang) -> str:
    term = WORDS[key]
    return term.en if lang == "en" else term.ja if lang == "ja" else f"{term.ja} {term.en}"


def try_box(url: str, scenario: str, lang: Lang) -> str:
    """The box's HTML: ``url`` is the web assets' folder as seen from the page (ends with ``/``)."""
    data = {
        "scenario": f"{url}scenarios/{scenario}",
        "lang": lang,
        **{key.replace("_", "-"): _say(key, lang) for key in WORDS if key.startswith(("loading", "failed"))},
    }
    attrs = " ".join(f'data-{k}="{escape(v)}"' for k, v in data.items())
    return (
        f'<link rel="stylesheet" href="{url}step.css"><script type="module" src="{url}try.js"></script>'
        f'<div class="fsm-tryit" {attrs}><p class="fsm-tryit-about">{escape(_say("about", lang))}</p>'
        f'<button type="button" class="fsm-tryit-start">{escape(_say("label", lang))}</button>'
        '<span class="fsm-tryit-status" role="status" aria-live="polite"></span>'
        '<div class="fsm-tryit-view"></div></div>'
    )


class TryIt(_FsmDirective):
    """``fsm-try PATH``: the scenario file at PATH (as for ``fsm-scenario``), playable in the page."""

    required_arguments = 1
    option_spec: ClassVar[dict[str, Any]] = {"lang": _lang}

    def run(self) -> list[nodes.Node]:
        _, path = self.env.relfn2path(self.arguments[0])
        if not Path(path).is_file():
            return self.warn(f"no scenario file {self.arguments[0]!r} (looked for {path})")
        lang = self.lang()
        up = "../" * self.env.docname.count("/")  # from this page to the HTML root
        html = try_box(up + self.config.fsm_web_url.rstrip("/") + "/", Path(path).name, lang)
        return [nodes.raw("", html, format="html")]
