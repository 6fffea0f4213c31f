"""A move legal_moves() produced is not checked again when it is applied (issue 26) — only that
very object, on that table's content; every other move, and every text, is checked in full."""

from __future__ import annotations

from pathlib import Path

import pytest

from fsm.errors import RuleViolation
from fsm.scenarios.playing import load
from fsm.table.moves import Move, parse

REPO = Path(__file__).resolve().parents[1]


def _counting_checks(game: object, monkeypatch: pytest.MonkeyPatch) -> list[Move]:
    checked: list[Move] = []
    legality = game.legality  # type: ignore[attr-defined]
    real = legality.problem

    def problem(move: Move) -> object:
        checked.append(move)
        return real(move)

    monkeypatch.setattr(legality, "problem", problem)
    return checked


def test_a_move_from_legal_moves_is_played_without_a_second_check(monkeypatch: pytest.MonkeyPatch) -> None:
    game, _ = load(REPO / "scenarios/action_fizzles_after_counter.yaml")
    legal = game.legal_moves()
    checked = _counting_checks(game, monkeypatch)
    game.apply(legal[0])
    assert checked == []


def test_an_equal_move_that_legal_moves_did_not_produce_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    game, _ = load(REPO / "scenarios/action_fizzles_after_counter.yaml")
    legal = game.legal_moves()
    checked = _counting_checks(game, monkeypatch)
    twin = parse(str(legal[0]))
    assert twin == legal[0] and twin is not legal[0]
    game.apply(twin)
    assert checked == [twin]


def test_text_is_always_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    game, _ = load(REPO / "scenarios/action_fizzles_after_counter.yaml")
    legal = game.legal_moves()
    checked = _counting_checks(game, monkeypatch)
    game.apply(str(legal[0]))
    assert len(checked) == 1


def test_a_vetted_move_is_checked_again_once_the_table_changed() -> None:
    """TIM-CTR-2: after A's move the priority is B's; A's old legal move, kept and applied again,
    is refused by the rules (it is checked anew, the table having been written since)."""
    game, _ = load(REPO / "scenarios/action_fizzles_after_counter.yaml")
    legal = game.legal_moves()
    first = legal[0]
    game.apply(first)
    with pytest.raises(RuleViolation):
        game.apply(first)


def test_a_vetted_move_stands_on_an_unwritten_copy_of_its_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """The explorer's way: legal moves of a table, each played on a fresh copy of it."""
    game, _ = load(REPO / "scenarios/action_fizzles_after_counter.yaml")
    table = game.table.copy()
    game.table = table
    legal = game.legal_moves()
    checked = _counting_checks(game, monkeypatch)
    for move in legal:
        game.table = table.copy()
        game.apply(move, atomic=False)
    assert checked == []
