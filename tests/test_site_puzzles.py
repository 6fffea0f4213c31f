"""The rulebook site lists the puzzles (issue 25): one page per language, each puzzle of ``puzzles/``
with its title and notes in that language, its goal, the solver's limit, the proof made as the site
was built, its clauses (linked to the catalogue) and its hint; the landing page links to it."""

from __future__ import annotations

import html
import re
from pathlib import Path

from fsm.scenarios.reading import read_yaml

REPO = Path(__file__).resolve().parents[1]
PUZZLES = sorted((REPO / "puzzles").glob("*.yaml"))
PROVED = {"ja": "証明: 解ける", "en": "Proof: solvable"}


def test_the_site_lists_every_puzzle_in_both_languages(site: Path) -> None:
    for lang in ("ja", "en"):
        page = site / lang / "generated" / lang / "puzzles.html"
        source = page.read_text(encoding="utf-8")
        text = html.unescape(source)
        words = html.unescape(re.sub(r"<[^>]+>", "", source))  # what a reader sees: `paying` is set as code
        for path in PUZZLES:
            data = read_yaml(path)
            title = data["title_ja"] if lang == "ja" else data["title"]
            assert title.replace("'", "\u2019") in text, (lang, path.name)  # Sphinx's smart quotes
            hint = data["puzzle"]["hint_ja" if lang == "ja" else "hint"]
            assert hint.replace("`", "").replace("'", "\u2019") in words, (lang, path.name)
            assert f"puzzles/{path.name}" in text
            for clause in data["clauses"]:
                assert f'clauses.html#{clause}"' in text, (lang, path.name, clause)
        assert text.count(PROVED[lang]) == len(PUZZLES), lang  # each one proved as the page was built
        index = (site / lang / "index.html").read_text(encoding="utf-8")
        assert f"generated/{lang}/puzzles.html" in index
    en = html.unescape((site / "en" / "generated" / "en" / "puzzles.html").read_text(encoding="utf-8"))
    assert "outcomes: 岩砕き fizzled (ACT-6)" in en and "パズル" not in en.split("<h1>", 1)[1].split("</h1>")[0]
