"""The project's rules catalogue covers every reference clause, in its own words."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from fsm.catalogue import CLAUSES, Clause, cite, clause, format_line

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CLAUSES_MD = SHARED / "rules" / "clauses.md"
SEED = SHARED / "seed" / "000_08eb209d64475fa5.txt"

FLOW_IDS = {
    "FLOW-ADV",
    "FLOW-QS",
    "FLOW-FORM",
    "FLOW-SPD",
    "FLOW-NORMAL",
    "FLOW-ATK",
    "FLOW-END",
    "FLOW-CLEANUP",
    "FLOW-ZONES",
}
RUN = 8  # a shared run of this many consecutive words counts as copying
JA_RUN = 20  # Japanese has no spaces between words: a shared run of this many characters counts


def _reference_ids() -> list[str]:
    if not CLAUSES_MD.is_file():
        pytest.skip(f"reference catalogue not available at {CLAUSES_MD}")
    return re.findall(r"\*\*([A-Z]+(?:-[A-Z]+)*-(?:\d+|[A-Z]+))\*\*", CLAUSES_MD.read_text("utf-8"))


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+(?:['’-][^\W_]+)*", text.lower())


def _ngrams(words: list[str], n: int = RUN) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def _ja_letters(text: str) -> str:
    """Only the letters and digits, full-width forms folded: punctuation, brackets such as 「」【】
    and spaces do not make a copied sentence one's own."""
    return "".join(re.findall(r"[^\W_]", unicodedata.normalize("NFKC", text).lower()))


def _ja_runs(text: str, n: int = JA_RUN) -> set[str]:
    letters = _ja_letters(text)
    return {letters[i : i + n] for i in range(len(letters) - n + 1)}


def test_reference_ids_found() -> None:
    ids = _reference_ids()
    assert len(ids) >= 50
    assert "ACT-6" in ids and "TIM-NORMAL" in ids and "TIM-CTR-3" in ids


def test_every_reference_clause_is_catalogued() -> None:
    missing = [cid for cid in _reference_ids() if cid not in CLAUSES]
    assert not missing, f"clauses.md IDs missing from fsm/data/clauses.toml: {missing}"


def test_flow_ids_present() -> None:
    assert CLAUSES.keys() >= FLOW_IDS


@pytest.mark.parametrize("cid", list(CLAUSES))
def test_entry_complete(cid: str) -> None:
    c = CLAUSES[cid]
    assert isinstance(c, Clause) and c.id == cid
    assert c.title.strip() and c.text.strip() and c.section.strip()
    assert c.ja and all(term.strip() for term in c.ja)
    assert c.variant is None or c.variant.strip()
    assert c.title_ja.strip() and c.text_ja.strip(), f"{cid}: no Japanese title_ja / text_ja"
    assert (c.variant_ja or "").strip() if c.variant else c.variant_ja is None, f"{cid}: variant_ja must match variant"


def test_variants_marked_where_reference_says_so() -> None:
    for cid in ("ACT-2", "COST-5", "TIM-CTR-3", "FLOW-FORM", "FLOW-SPD"):
        assert CLAUSES[cid].variant, cid


@pytest.mark.parametrize("source", [SEED, CLAUSES_MD], ids=["seed", "clauses.md"])
def test_own_words(source: Path) -> None:
    if not source.is_file():
        pytest.skip(f"{source} not available")
    reference = _ngrams(_words(source.read_text("utf-8")))
    copied = {
        c.id: sorted(
            " ".join(g) for field in (c.title, c.text, c.variant or "") for g in _ngrams(_words(field)) & reference
        )
        for c in CLAUSES.values()
    }
    copied = {k: v for k, v in copied.items() if v}
    assert not copied, f"catalogue text shares {RUN}+ word runs with {source.name}: {copied}"


@pytest.mark.parametrize("source", [SEED, CLAUSES_MD], ids=["seed", "clauses.md"])
def test_own_words_in_japanese(source: Path) -> None:
    if not source.is_file():
        pytest.skip(f"{source} not available")
    reference = _ja_runs(source.read_text("utf-8"))
    copied = {
        c.id: sorted(
            run for field in (c.title_ja, c.text_ja, c.variant_ja or "") for run in _ja_runs(field) & reference
        )
        for c in CLAUSES.values()
    }
    copied = {k: v for k, v in copied.items() if v}
    assert not copied, f"Japanese catalogue text shares {JA_RUN}+ character runs with {source.name}: {copied}"


def test_japanese_copy_check_sees_through_punctuation_and_spacing() -> None:
    if not SEED.is_file():
        pytest.skip(f"{SEED} not available")
    sentence = next(line for line in SEED.read_text("utf-8").splitlines() if len(_ja_letters(line)) > 40)
    respaced = " ".join(sentence.replace("「", "『").replace("」", "』").replace("、", ", "))
    assert _ja_runs(respaced) & _ja_runs(SEED.read_text("utf-8"))


def test_unknown_id_raises_naming_it() -> None:
    with pytest.raises(KeyError, match="NOPE-1"):
        clause("NOPE-1")
    with pytest.raises(KeyError, match="NOPE-1"):
        cite("NOPE-1")


def test_cite_and_format_line() -> None:
    assert cite("ACT-6") == "ACT-6"
    c = clause("ACT-6")
    line = format_line(c)
    assert line.startswith("ACT-6 ")
    assert "\n" not in line
    assert c.title in line and c.text in line and all(t in line for t in c.ja)


def test_format_line_in_japanese() -> None:
    c = clause("ACT-2")
    line = format_line(c, "ja")
    assert line.startswith("ACT-2 ") and "\n" not in line
    assert c.title_ja in line and c.text_ja in line and c.text not in line
    assert line.endswith(f"（ルール変種: {c.variant_ja}）")
