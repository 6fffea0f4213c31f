"""The bilingual rulebook site: `./scripts/docs.sh` builds it in Japanese and English.

One source, two builds (``-D language=ja`` / ``en``): the pages per ability kind, procedure,
timing and scenario are generated at the start of each build (``generate.py``, into
``generated/LANG/``), in that build's language, from the rules data and the scenario library.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

project = "fsm"
author = "the fsm team"
copyright = "the fsm team"
extensions = ["myst_parser", "fsm.sphinx"]
language = "en"
exclude_patterns = ["_build", "generated/*/toc.txt"]
locale_dirs = ["locale"]  # Furo's words in Japanese (locale/ja/LC_MESSAGES/sphinx.po), compiled by Sphinx
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
html_theme = "furo"  # responsive, light and dark; its words come from Sphinx's own catalogues
html_title = "fsm rulebook"  # per language: generate.configure
templates_path = ["_templates"]  # the language switch and the footer (_templates/page.html)
html_static_path: list[str] = ["_static"]
html_css_files = ["site.css"]
html_theme_options = {"navigation_with_keys": True, "top_of_page_buttons": []}
html_copy_source = False
html_show_sourcelink = False
html_show_sphinx = False
html_show_copyright = False


def setup(app):  # noqa: ANN001, ANN201 - Sphinx's conf.py hook
    import generate

    app.connect("config-inited", generate.configure)
    app.connect("builder-inited", generate.write_pages)
    app.connect("source-read", generate.include_language)
    app.connect("html-page-context", generate.page_context)
