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
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
html_theme = "alabaster"
html_title = "fsm rulebook"
html_static_path: list[str] = []
html_theme_options = {"show_relbars": True}
html_copy_source = False
html_show_sourcelink = False


def setup(app):  # noqa: ANN001, ANN201 - Sphinx's conf.py hook
    import generate

    app.connect("config-inited", generate.configure)
    app.connect("builder-inited", generate.write_pages)
    app.connect("source-read", generate.include_language)
