"""The move language reads back what it writes (issue 29, point 1).

Every move ``legal_moves()`` lists, written in English and in Japanese, parses back to the same
move — whatever the table's names, as long as the loader took them; a name the loader refuses is
one :func:`fsm.table.moves.unreadable` gives a reason for.  On 75e2f96 names holding 「：」, a unit
named ``paying`` or ``front`` and words after a whole move all broke this."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import GEOS, make, malformed
from hypothesis import given, settings
from hypothesis import strategies as st

from fsm.engine.game import Game
from fsm.errors import BadInput
from fsm.table.moves import JA_VERBS, VERBS, parse, unreadable

#: Words the move language itself uses, and the characters that split or mark its words.
TRICKY = [*VERBS, *JA_VERBS.values(), "by", "of", "on", "with", "to", "and", "paying", "を", "で", "に", "を代償に"]
NAMES = st.one_of(
    st.sampled_from(TRICKY),
    st.builds(
        "".join,
        st.lists(
            st.sampled_from(["名称", "竜", "：", ":", "A", "B", "、", ",", " ", "x", *TRICKY]), min_size=1, max_size=4
        ),
    ),
)


def _roundtrip(g: Game) -> int:
    """Each legal move, in both languages, reads back as itself (with and without the players)."""
    moves = g.legal_moves()
    for m in moves:
        for lang in ("en", "ja"):
            text = m.text(lang)
            assert parse(text, g.table.players) == m, (lang, text)
            assert parse(text) == m, (lang, text)  # written with "A: ", the prefix needs no players
    return len(moves)


def _game(names: list[str], at: str) -> Game:
    """A table whose unit, card, ability and geo names are ``names`` (repeated as needed)."""
    unit, other, card, ability, geo = (names * 5)[:5]
    units: dict[str, Any] = {
        unit: {
            "owner": "A",
            "skills": "火 火",
            "geo": "本陣" if at == "main_phase" else "荒野",
            "abilities": [{"name": ability, "kind": "cost", "cost": "手札1枚", "timing": "通常", "effect": "exhaust"}],
        },
        f"{other}2": {"owner": "B", "skills": "水"},
    }
    cards = {
        card: {"owner": "A", "condition": "火", "timing": "通常", "effect": "exhaust"},
        "書": {"owner": "A", "condition": "水", "timing": "通常"},
    }
    return make(units, cards, at=at, geos={**GEOS, geo: {"holder": "B"}})


@settings(max_examples=120)
@given(names=st.lists(NAMES, min_size=5, max_size=5, unique=True), at=st.sampled_from(["main_phase", "normal_timing"]))
def test_every_legal_move_reads_back_in_english_and_japanese(names: list[str], at: str) -> None:
    """The moves `legal_moves()` lists parse back to themselves in both languages; a table the loader
    refuses has a name the reader could not read back, and the refusal says why."""
    try:
        g = _game(names, at)
    except BadInput as err:
        reasons = {unreadable(n, ("A", "B")) for n in [*names, f"{names[1]}2"]} - {None}
        assert reasons, f"refused a readable table: {err}"
        assert any(str(r) in str(err) for r in reasons), str(err)
        return
    assert _roundtrip(g) > 0


@pytest.mark.parametrize("name", ["名称：竜", "paying", "front", "and", "先頭", "Front", "を", "A名称"])
def test_tricky_names_play_in_both_languages(name: str) -> None:
    """The names of the review (名称：竜, paying, front) and their kin load, are listed and play."""
    g = _game([name, "水", "札", "技", "砦"], "normal_timing")
    assert _roundtrip(g)
    for m in g.legal_moves():
        for lang in ("en", "ja"):
            assert g.why_not(m.text(lang)).legal, m.text(lang)


@pytest.mark.parametrize("name", ["竜 王", "竜:", "竜：", "竜、王", "A：竜", "B:竜"])
def test_names_the_reader_cannot_read_back_are_refused_on_load(name: str) -> None:
    """A name with a space, ending in a colon, holding a comma, or starting with a player and a
    colon could not be read back from a move: the loader says so instead of listing unplayable moves."""
    with pytest.raises(BadInput, match="cannot be written in a move"):
        _game([name, "水", "札", "技", "砦"], "normal_timing")


@pytest.mark.parametrize(
    "move",
    [
        "A: attack 水2 with 火 twice",
        "A: pass now",
        "A: advance 火 to 荒野 quickly",
        "A: front 火 火",
        "A: use 札 by 火 on 水2 again",
        "A: activate 技 of 火 on 水2 paying 書 or 札",
    ],
)
def test_words_after_a_whole_move_are_refused(move: str) -> None:
    """Every verb refuses words after a complete move, rather than playing the move and dropping them."""
    g = _game(["火", "水", "札", "技", "砦"], "normal_timing")
    malformed(g, move)
