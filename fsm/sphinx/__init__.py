"""``fsm.sphinx``: the rule diagrams, scenarios, clauses and timing matrix in any Sphinx project.

Add ``"fsm.sphinx"`` to ``extensions`` in ``conf.py``; with ``myst_parser`` the directives work in
MyST Markdown too (```` ```{fsm-machine} action ````).  It also loads python-statemachine's own
``statemachine-diagram`` directive, which it builds on.

* ``.. fsm-machine:: KIND`` — one machine's diagram by kind name (``action``, ``sync_action``,
  ``counter_chain``, ``game_flow``, ... or a file stem such as ``kind_action``), options
  ``:lang: ja|en|both``, ``:clauses: on|off``, ``:print:``, ``:fold: battle``, and the figure
  options of ``statemachine-diagram`` (``:caption:``, ``:alt:``, ``:width:``, ``:align:``,
  ``:class:``, ``:name:``);
* ``.. fsm-scenario:: PATH`` — a scenario file as a narrated step list: each move, each log line
  with its clause, and (HTML) the diagrams of where the game stands after it; ``:lang:``,
  ``:diagrams: each|none``;
* ``.. fsm-clauses::`` — the clause catalogue (``:prefix: ACT``), one anchor per clause ID, each
  listing the diagrams and scenarios of the project that cite it; ``:clause:`ACT-6``` links to one;
* ``.. fsm-timings::`` — the timing matrix as a table (``:as: diagram`` for the drawing);
* ``.. fsm-try:: PATH`` — a scenario playable in the page (pyodide in a Web Worker; ``try_it``).

Config: ``fsm_lang`` (default: ``language`` if it is ``ja`` or ``en``, else ``both``), ``fsm_rules``
(designers' data files, like ``--rules``), ``fsm_web_url`` (the browser edition's assets, relative to the
HTML root; default ``../web``).  Diagrams are self-contained SVG files in ``_images``;
HTML pages also get IPAexGothic's needed glyphs as a web font, so Japanese never falls back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

from fsm.sphinx import directives, links, try_it
from fsm.sphinx.nodes import fsm_backlinks, fsm_image, html_depart_image, html_visit_image

STATIC = Path(__file__).parent / "static"
logger = logging.getLogger(__name__)


def _static(app: Sphinx) -> None:
    if app.builder.format == "html":
        app.config.html_static_path.append(str(STATIC))
        app.add_css_file("fsm.css")


def _web_font(app: Sphinx, exception: Exception | None) -> None:
    """The glyphs every page shows, as one small web font (``_static/fsm-ja.woff``)."""
    if exception is not None or app.builder.format != "html":
        return
    from fsm.render.fonts import page_font

    out = Path(app.outdir)
    pages = [p.read_text(encoding="utf-8") for p in out.rglob("*.html")]
    pages += [p.read_text(encoding="utf-8") for p in out.glob("searchindex.js")]
    (out / "_static" / "fsm-ja.woff").write_bytes(page_font("".join(pages)))


def _not_html(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Other builders (text, LaTeX, gettext) get a diagram's alt text instead of the picture."""
    if app.builder.format == "html":
        return
    for node in list(doctree.findall(fsm_image)):
        node.replace_self(nodes.paragraph(text=f"[{node['alt']}]"))


def setup(app: Sphinx) -> dict[str, Any]:
    app.setup_extension("statemachine.contrib.diagram.sphinx_ext")
    app.add_config_value("fsm_lang", None, "env", types=(str, type(None)))
    app.add_config_value("fsm_rules", [], "env", types=(list,))
    app.add_config_value("fsm_web_url", "../web", "env", types=(str,))
    app.add_object_type("clause", "clause", indextemplate="pair: %s; clause")
    app.add_node(fsm_image, html=(html_visit_image, html_depart_image))
    app.add_node(fsm_backlinks)
    app.add_directive("fsm-machine", directives.MachineDiagram)
    app.add_directive("fsm-scenario", directives.ScenarioSteps)
    app.add_directive("fsm-clauses", directives.ClauseCatalogue)
    app.add_directive("fsm-timings", directives.TimingMatrix)
    app.add_directive("fsm-try", try_it.TryIt)
    app.connect("builder-inited", _static)
    app.connect("doctree-resolved", links.resolve)
    app.connect("doctree-resolved", _not_html)
    app.connect("env-purge-doc", links.purge)
    app.connect("env-merge-info", links.merge)
    app.connect("build-finished", _web_font)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
