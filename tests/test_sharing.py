"""Tables that share structure (issue 16 point 2, fsm/table/sharing.py): a copy shares every unit, card
and geo until one side writes it, and each part keeps its own fingerprint once shared.

FLOW-ZONES: the table is the whole game, so a snapshot (undo) and every explored table are
copies; these tests hold the copies independent and ``Table.key()`` exact while they share.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from conftest import make
from hypothesis import given
from hypothesis import strategies as st
from test_properties import STARTS

from fsm.engine.game import Game
from fsm.table.model import Table
from fsm.table.sharing import SharedPart


def _game(start: int, seed: int) -> Game:
    spec = STARTS[start % len(STARTS)]
    return make(spec["units"], spec["cards"], at=spec["at"], seed=seed, variants=spec.get("variants"),
                battle=spec.get("battle"))  # fmt: skip


def _key_from_scratch(t: Table) -> tuple[Any, ...]:
    """Table.key() with every part's fingerprint computed anew (no part's kept key)."""
    key = list(t.key())
    key[0] = tuple(u.fingerprint() for u in dict.values(t.units))
    key[1] = tuple(c.fingerprint() for c in dict.values(t.cards))
    key[4] = tuple(g.fingerprint() for g in dict.values(t.geos))
    return tuple(key)


def _play(game: Game, picks: list[int]) -> list[str]:
    """Play the legal move each pick chooses (until nobody has one); returns the moves played."""
    played = []
    for pick in picks:
        legal = game.legal_moves()
        if not legal:
            break
        move = legal[pick % len(legal)]
        game.apply(move)
        played.append(str(move))
    return played


PICKS = st.lists(st.integers(0, 10_000), min_size=1, max_size=8)


def test_flow_zones_a_copy_shares_what_a_move_leaves_alone() -> None:
    """FLOW-ZONES: after a move on a copy, every unit, card and geo the move did not touch is the
    original's own object (shared, not copied); the card it moved is the copy's own, and the
    original's stays where it was."""
    game = _game(0, 1)
    original = game.table
    game.table = original.copy()
    game.apply("A: use 石つぶて by 岩の巨人 on 水の精")
    copy = game.table
    assert copy.cards["石つぶて"].zone == "chain" and original.cards["石つぶて"].zone == "hand"
    touched = {"石つぶて", "岩の巨人", "水の精"}  # the card, its user, its target
    for name in Table.PARTS:
        mine, theirs = getattr(copy, name), getattr(original, name)
        assert mine.keys() == theirs.keys() and len(mine) > 0
        assert [k for k in mine if k not in touched and mine[k] is not theirs[k]] == [], name
    assert copy.cards["石つぶて"] is not original.cards["石つぶて"]


@given(start=st.integers(0, len(STARTS) - 1), seed=st.integers(0, 20), before=PICKS, after=PICKS)
def test_flow_zones_moves_on_a_copy_never_show_in_the_original(
    start: int, seed: int, before: list[int], after: list[int]
) -> None:
    """FLOW-ZONES: whatever is played on a copy, the original's key and parts stay as they were,
    and restoring a snapshot gives back the same table, which plays on as the original did."""
    game = _game(start, seed)
    _play(game, before)
    original = game.table
    key, snap = original.key(), game.snapshot()
    game.table = original.copy()
    _play(game, after)
    assert original.key() == key == _key_from_scratch(original)
    game.restore(snap)
    assert game.table.key() == key and game.table == original
    moves = _play(game, after)
    game.table = original
    assert _play(game, after) == moves


@given(
    start=st.integers(0, len(STARTS) - 1), seed=st.integers(0, 20), picks=PICKS, copies=st.integers(0, 3),
    edits=st.lists(st.integers(0, 10_000), max_size=8),
)  # fmt: skip
def test_flow_zones_a_kept_key_is_always_the_key_computed_anew(
    start: int, seed: int, picks: list[int], copies: int, edits: list[int]
) -> None:
    """FLOW-ZONES: the fingerprints the parts keep never go stale — after any moves, copies and
    snapshots, and changes made by hand to a part the table holds alone (its key asked before
    and after), Table.key() equals the key computed from scratch."""
    game = _game(start, seed)
    for n, pick in enumerate(picks):
        assert game.table.key() == _key_from_scratch(game.table)  # keeps what is shared now
        for _ in range(copies if n % 2 else 0):
            game.table.copy().key()
        _play(game, [pick])
        if n < len(edits):
            t = game.table
            unit = t.units.edit(sorted(t.units)[edits[n] % len(t.units)])
            card = t.cards.edit(sorted(t.cards)[edits[n] % len(t.cards)])
            t.key()
            unit.acted, unit.party = not unit.acted, f"p{n}"
            unit.skills = dataclasses.replace(unit.skills, granted=unit.skills.granted + {"火": 1})
            unit.declared |= {f"a{n}"}
            card.zone = "graveyard" if card.zone != "graveyard" else "hand"
            assert t.key() == _key_from_scratch(t)
    assert game.table.key() == _key_from_scratch(game.table)


def test_flow_zones_a_shared_part_refuses_writes_outside_a_move() -> None:
    """FLOW-ZONES: a part two tables share cannot be changed in place (it would change both);
    the refusal says how to change it, and edit() gives the table a part of its own."""
    game = _game(0, 1)
    snap = game.snapshot()
    table = game.table
    with pytest.raises(SharedPart, match=r"table\.writing\(\)"):
        table.units["岩の巨人"].acted = True
    with pytest.raises(SharedPart):
        table.units["岩の巨人"].declared |= {"岩砕き"}
    table.units.edit("岩の巨人").acted = True
    assert table.units["岩の巨人"].acted and not snap.table.units["岩の巨人"].acted
    with table.writing():
        table.cards["石つぶて"].zone = "graveyard"
    assert snap.table.cards["石つぶて"].zone == "hand"
    assert table.key() == _key_from_scratch(table) != snap.table.key()


def test_a_dropped_table_is_freed_without_waiting_for_the_garbage_collector() -> None:
    """A unit's skill pools are immutable values that its copies share and that point back to
    nothing: a table the explorer drops is freed as soon as nothing holds it.  With a reference
    back from a pool to its unit, every unit a move copies was a cycle left for the collector,
    and the explorer's memory grew between collections."""
    import gc
    import weakref

    game = _game(0, 1)
    original = game.table
    game.table = original.copy()
    game.apply("A: use 石つぶて by 岩の巨人 on 水の精")  # copies the user and the target for writing
    played = game.table
    copied = [weakref.ref(u) for k, u in played.units.items() if u is not original.units[k]]
    assert copied, "the move copied no unit"
    assert all(u().skills.base is original.units[u().id].skills.base for u in copied)  # type: ignore[union-attr]
    game.table = original
    gc.disable()
    try:
        del played
        assert [r for r in copied if r() is not None] == []
    finally:
        gc.enable()
