"""The project's rules catalogue covers every reference clause, in its own words."""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

import pytest

from fsm.rules.catalogue import CLAUSES, Clause, cite, clause, format_line

REPO = Path(__file__).resolve().parents[1]
#: Where the rules page and the reference catalogue are looked for, first found wins: $FSM_SHARED,
#: the folder beside the checkout (CI), then the team's shared folder (a clone elsewhere).
_FROM_ENV = [Path(p) for p in (os.environ.get("FSM_SHARED"),) if p]
SHARED_CANDIDATES = list(dict.fromkeys([*_FROM_ENV, REPO.parent / "shared", Path("/work/shared")]))
SHARED = next((p for p in SHARED_CANDIDATES if p.is_dir()), SHARED_CANDIDATES[0])
CLAUSES_MD = SHARED / "rules" / "clauses.md"
SEED = SHARED / "seed" / "000_08eb209d64475fa5.txt"


def _require(path: Path) -> Path:
    """The reference files are part of the spec: their absence is a failure, not a skip."""
    looked = ", ".join(str(p) for p in SHARED_CANDIDATES)
    assert path.is_file(), f"{path.relative_to(SHARED)} not found; looked in: {looked} (set FSM_SHARED to the folder)"
    return path


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
    return re.findall(r"\*\*([A-Z]+(?:-[A-Z]+)*-(?:\d+|[A-Z]+))\*\*", _require(CLAUSES_MD).read_text("utf-8"))


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
    assert not missing, f"clauses.md IDs missing from fsm/rules/data/clauses.toml: {missing}"


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
    reference = _ngrams(_words(_require(source).read_text("utf-8")))
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
