"""legal_moves() judges its candidates without wording their refusals (fsm.i18n.unworded, issue
26): the moves it lists are those a worded judgement allows, and nothing unworded leaks out."""

from __future__ import annotations

from pathlib import Path

import pytest

from fsm.engine.candidates import candidates
from fsm.errors import BadInput
from fsm.explore.position import game_at
from fsm.i18n import UNWORDED, _, unworded, worded

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("name", ["nb_sync_fizzle.yaml", "action_fizzles_after_counter.yaml"])
def test_legal_moves_lists_what_a_worded_judgement_allows_and_leaves_messages_worded(name: str, lang: str) -> None:
    game = game_at(REPO / "scenarios" / name, "start", {})
    game.lang = lang
    refused_seen = 0
    for _step in range(12):  # along one line: each table's candidates, judged both ways
        legal = game.legal_moves()
        assert worded()
        problem = game.legality.problem
        assert [str(m) for m in legal] == [str(m) for m in candidates(game) if problem(m) is None]
        for move in [m for m in candidates(game) if problem(m) is not None]:
            verdict = game.why_not(move)
            assert not verdict.legal and verdict.message and UNWORDED not in verdict.message, verdict
            refused_seen += 1
        if not legal:
            break
        game.apply(legal[-1])
    assert refused_seen, "the line should meet some refused candidate"


def test_unworded_words_nothing_inside_and_restores_the_words_after() -> None:
    with unworded():
        assert not worded()
        assert _("legal") is UNWORDED and _("{n} more").format(n=3) is UNWORDED
    assert worded() and _("legal") == "legal"


def test_a_candidate_that_raises_bad_input_while_unworded_is_asked_again_and_worded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An error raised while judging unworded would carry no words: legal_moves() asks again,
    worded, so the error that reaches the reader says what it is."""
    game = game_at(REPO / "scenarios/nb_sync_fizzle.yaml", "start", {})

    def problem(_move: object) -> None:
        raise BadInput(_("no unit named {name!r} is on the table").format(name="岩の巨人"))

    monkeypatch.setattr(game.legality, "problem", problem)
    with pytest.raises(BadInput) as raised:
        game.legal_moves()
    assert "岩の巨人" in str(raised.value) and UNWORDED not in str(raised.value)
    assert worded()
