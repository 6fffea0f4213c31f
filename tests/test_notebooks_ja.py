"""The Japanese notebooks (issue 17) keep in step with the English ones: the same lessons on
the same scenarios, each code cell its English twin plus the language argument.

``notebooks/ja/`` sits one folder deeper, so its scenario and design folders are ``../../``
where the English ones say ``../``: the one other difference allowed.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[1]
ENGLISH = sorted((REPO / "notebooks").glob("*.ipynb"))
JA_DIR = REPO / "notebooks" / "ja"
LANG = ', lang="ja"'
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
FILES = re.compile(r'"([\w./-]+\.(?:yaml|toml))"')
# a step-through or a diagram: shown in the notebook's language
SHOWN = re.compile(r"(?:from_scenario|from_puzzle|\bdiagram)\(")


def cells(path: Path, kind: str) -> list[str]:
    return [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == kind]


def as_english(code: str) -> str:
    return code.replace(LANG, "").replace('Path("../../', 'Path("../')


def test_every_english_notebook_has_a_japanese_twin_and_no_more() -> None:
    assert ENGLISH, "no English notebooks"
    assert sorted(p.name for p in JA_DIR.glob("*.ipynb")) == [p.name for p in ENGLISH]


@pytest.mark.parametrize("english", ENGLISH, ids=lambda p: p.stem)
def test_same_code_cells_apart_from_the_language(english: Path) -> None:
    ja = JA_DIR / english.name
    ours, theirs = cells(ja, "code"), cells(english, "code")
    assert len(ours) == len(theirs), f"{ja.name}: {len(ours)} code cells, the English one has {len(theirs)}"
    for i, (mine, twin) in enumerate(zip(ours, theirs, strict=True)):
        assert as_english(mine) == twin, f"{ja.name} code cell {i} differs from its English twin beyond lang"
        calls = len(SHOWN.findall(mine))
        assert mine.count(LANG) == calls, f"{ja.name} code cell {i}: every step-through and diagram says lang='ja'"


@pytest.mark.parametrize("english", ENGLISH, ids=lambda p: p.stem)
def test_same_scenarios_and_they_exist_from_the_japanese_folder(english: Path) -> None:
    ja = JA_DIR / english.name
    ours = FILES.findall("\n".join(cells(ja, "code")))
    assert ours == FILES.findall("\n".join(cells(english, "code")))
    folders = dict(re.findall(r'(\w+) = Path\("([./\w]+)"\)', "\n".join(cells(ja, "code"))))
    for folder in folders.values():
        assert (JA_DIR / folder).is_dir(), f"{ja.name}: {folder} is not a folder seen from notebooks/ja"


@pytest.mark.parametrize("english", ENGLISH, ids=lambda p: p.stem)
def test_the_same_lessons_told_in_japanese(english: Path) -> None:
    ja = JA_DIR / english.name
    ours, theirs = cells(ja, "markdown"), cells(english, "markdown")
    assert len(ours) == len(theirs), f"{ja.name}: one Japanese text cell for each English one"
    for i, (mine, twin) in enumerate(zip(ours, theirs, strict=True)):
        assert mine != twin and JAPANESE.search(mine), f"{ja.name} text cell {i} is not in Japanese"
        # the same clauses cited, so the lesson is the same one
        assert set(re.findall(r"\b[A-Z]+-[A-Z0-9]+(?:-\d+)?\b", mine)) >= set(
            re.findall(r"\b[A-Z]+-[A-Z0-9]+(?:-\d+)?\b", twin)
        ), f"{ja.name} text cell {i} cites fewer clauses than its English twin"
