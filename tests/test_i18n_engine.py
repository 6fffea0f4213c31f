"""The engine in Japanese (issue 17, point 1): ``Game(lang="ja")`` and ``fsm run --lang ja`` narrate
a library scenario and refuse moves in Japanese; English stays the default, word for word.

The scenario is the ACT-6 one: a 【行動】 fizzles because a [反撃] (TIM-CTR-1..3) made its unit
行動完了 first, so its log covers declare, the counter window, priority, recheck, 発動 and 不発."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fsm import i18n
from fsm.cli import main
from fsm.engine.game import Game
from fsm.errors import BadInput
from fsm.rules.catalogue import CLAUSES
from fsm.rules.variants import SPECS
from fsm.scenarios.playing import load, play

SCENARIO = Path(__file__).resolve().parents[1] / "scenarios" / "action_fizzles_after_counter.yaml"
ASCII_WORD = re.compile(r"[A-Za-z]{2,}")


def _names(game: Game) -> set[str]:
    """What a line may name as it is written on the table: units, abilities, cards, geos, players."""
    t = game.table
    names = {*t.players, *t.geos, *(c.name for c in t.cards.values())}
    for u in t.units.values():
        names |= {u.id, u.name, *(a.name for a in u.abilities)}
    return names


def _english_left(text: str, names: set[str]) -> list[str]:
    """The ASCII words of a line once clause IDs, names and variant names are taken out."""
    for word in sorted({*CLAUSES, *names, *(s.name for s in SPECS)}, key=len, reverse=True):
        text = text.replace(word, " ")
    return ASCII_WORD.findall(text)


def test_english_left_finds_an_english_word_but_not_a_clause_or_a_name() -> None:
    names = {"岩の巨人", "A"}
    assert _english_left("ACT-6 A: 岩の巨人 は行動完了になる", names) == []
    assert _english_left("岩の巨人 becomes 行動完了", names) == ["becomes"]


def test_a_library_scenario_run_in_japanese_narrates_in_japanese() -> None:
    """ACT-4..ACT-7, TIM-CTR-1..3: every narration line of the scenario is Japanese but its names."""
    result = play(SCENARIO, lang="ja")
    assert not result.failures  # checked against the file's English steps: lines
    names = _names(result.game)
    lines = [entry.text for _move, entries in result.steps for entry in entries]
    assert len(lines) > 20
    leftover = {line: words for line in lines if (words := _english_left(line, names))}
    assert not leftover, f"English words left in the Japanese narration: {leftover}"
    assert "#1 岩砕き: 再確認" in lines  # ACT-6: the recheck
    assert "岩の巨人 は行動完了になる" in lines  # SC-7: the counter's effect


def test_a_refusal_in_japanese_cites_the_same_clause() -> None:
    """TIM-CTR-2: the declarer may not pass while the opponent holds priority; said in Japanese."""
    game, data = load(SCENARIO, lang="ja")
    game.apply(data["moves"][0])
    verdict = game.why_not("A: pass")
    assert (verdict.legal, verdict.clause) == (False, "TIM-CTR-2")
    assert verdict.message == "反撃の優先権は B にある。A は B のパスを待つ"
    assert _english_left(verdict.message, _names(game)) == []


def test_english_is_the_default_and_lang_en_says_the_same() -> None:
    """The English log is unchanged: a file's steps: lines quote it (TIM-CTR-2 refusal included)."""
    default, data = load(SCENARIO)
    english, _data = load(SCENARIO, lang="en")
    for game in (default, english):
        game.apply(data["moves"][0])
    assert [e.text for e in default.log] == [e.text for e in english.log]
    assert "counter window opens" in [e.text for e in default.log]
    message = "B has priority in the counter window; A must wait for B to pass"
    assert default.why_not("A: pass").message == english.why_not("A: pass").message == message


def test_the_game_keeps_its_language_whatever_is_chosen_around_it() -> None:
    game, data = load(SCENARIO, lang="ja")
    with i18n.using("en"):
        logged = game.apply(data["moves"][0])
    assert logged[0].text == "A: 岩砕き を 岩の巨人 で 水の精 に 発動"  # the move, as the reader writes it in Japanese
    assert "反撃の受付が始まる" in [e.text for e in logged]


def test_an_unknown_language_is_refused() -> None:
    game, _data = load(SCENARIO)
    with pytest.raises(BadInput, match="fr"):
        Game(game.table, lang="fr")


def test_fsm_run_lang_ja_narrates_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--lang", "ja", str(SCENARIO)]) == 0
    out = capsys.readouterr().out
    assert "#1 岩砕き of 岩の巨人 on 水の精 は不発" not in out
    assert "反撃の受付が始まる" in out and "は不発: ユニットが行動完了" in out
