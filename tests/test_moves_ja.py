"""Moves written with Japanese verbs (issue 17): the same move reader reads them, the verb last
and each name marked by its particle (を, で, に), in any order."""

from __future__ import annotations

from pathlib import Path

import pytest

from fsm.errors import BadInput
from fsm.scenarios.narrate import narrate
from fsm.scenarios.playing import play
from fsm.table.moves import JA_VERBS, VERBS, Move, parse

REPO = Path(__file__).resolve().parents[1]

SAME = [
    ("A: パス", "A: pass"),
    ("A: ストーンウォール を 岩の巨人 で 炎の剣士 に 使用", "A: use ストーンウォール by 岩の巨人 on 炎の剣士"),
    ("A: ストーンウォール を 岩の巨人 で 使用", "A: use ストーンウォール by 岩の巨人"),
    ("A: 岩砕き を 岩の巨人 で 水の精 に 発動", "A: activate 岩砕き of 岩の巨人 on 水の精"),
    ("A: 岩の巨人 で 炎の剣士 を 攻撃", "A: attack 炎の剣士 with 岩の巨人"),
    ("A: 岩の巨人 で 荒野 に 進軍", "A: advance 岩の巨人 to 荒野"),
    ("A: 風の精 を 速攻召喚", "A: summon 風の精"),
    ("A: 鉄の剣 を 岩の巨人 に 装備", "A: equip 鉄の剣 on 岩の巨人"),
    ("A: 鉄の剣 を 装備解除", "A: unequip 鉄の剣"),
    ("A: 速攻の術 を 公開", "A: reveal 速攻の術"),
    ("A: 岩の巨人 を 先頭", "A: front 岩の巨人"),
]


@pytest.mark.parametrize(("japanese", "english"), SAME)
def test_japanese_move_reads_as_the_english_one(japanese: str, english: str) -> None:
    assert parse(japanese) == parse(english)


def test_particles_in_any_order_full_width_colon_and_space() -> None:
    want = parse("A: activate 岩砕き of 岩の巨人 on 水の精")
    assert parse("A: 岩の巨人 で 水の精 に 岩砕き を 発動") == want
    assert parse("A：岩砕き を\u3000岩の巨人 で 水の精 に 発動") == want
    assert parse("岩砕き を 岩の巨人 で 発動") == Move("activate", "", ability="岩砕き", unit="岩の巨人")


def test_every_verb_has_a_japanese_form_that_reads_back() -> None:
    assert set(JA_VERBS) == set(VERBS)
    for verb in VERBS:
        move = parse(next(en for _ja, en in SAME if en.split()[1] == verb))
        assert parse(move.text("ja")) == move, verb
        assert move.text("ja").endswith(JA_VERBS[verb])


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("A: 岩砕き を 発動", "needs a name with で"),
        ("A: 岩砕き 岩の巨人 で 発動", "every name needs a particle"),
        ("A: 岩の巨人 で 荒野 を 進軍", "進軍 takes no 'を'"),
        ("A: 岩砕き を 岩の巨人 で 水の精 を 発動", "'を' is given twice"),
        ("A: 岩の巨人 を パス", "パス takes no 'を'"),
        ("A: 岩砕き を 岩の巨人 で 投げる", "unknown move '岩砕き'"),
    ],
)
def test_malformed_japanese_move_says_what_is_wrong(text: str, says: str) -> None:
    with pytest.raises(BadInput, match=says):
        parse(text)


def test_a_scenario_in_japanese_moves_plays_and_narrates_as_the_english_one(tmp_path: Path) -> None:
    """ACT-6: the library fizzle scenario, its moves rewritten in Japanese, has the same result
    and the same narration (apart from the move headings)."""
    english = REPO / "scenarios" / "action_fizzles_after_counter.yaml"
    text = english.read_text(encoding="utf-8")
    rewrites = [
        ("A: activate 岩砕き of 岩の巨人 on 水の精", "A: 岩砕き を 岩の巨人 で 水の精 に 発動"),
        ("B: use 足止め by 水の精 on 岩の巨人", "B: 足止め を 水の精 で 岩の巨人 に 使用"),
        ("A: pass", "A: パス"),
        ("B: pass", "B: パス"),
    ]
    for en, ja in rewrites:
        assert f'"{en}"' in text
        text = text.replace(f'"{en}"', f'"{ja}"')
    japanese = tmp_path / english.name
    japanese.write_text(text, encoding="utf-8")
    a, b = play(english), play(japanese)
    assert a.ok and b.ok
    lines_b = list(narrate(b))
    assert "  1. A: 岩砕き を 岩の巨人 で 水の精 に 発動   (AB-1)" in lines_b  # the move as written, its own clause
    for en, ja in [*rewrites, (str(english), str(japanese))]:
        lines_b = [line.replace(ja, en) for line in lines_b]
    assert lines_b == list(narrate(a))


def test_fsm_moves_lang_ja_lists_the_legal_moves_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    """TIM-NORMAL: where the fizzle scenario ends, B's legal moves, written so they can be pasted back."""
    from fsm.cli import main

    scenario = str(REPO / "scenarios" / "action_fizzles_after_counter.yaml")
    assert main(["moves", scenario]) == 0
    english = [line.strip() for line in capsys.readouterr().out.splitlines() if line.startswith("  B: ")]
    assert main(["moves", "--lang", "ja", scenario]) == 0
    japanese = [line.strip() for line in capsys.readouterr().out.splitlines() if line.startswith("  B: ")]
    assert "B: パス" in japanese and "B: pass" in english
    assert [parse(m) for m in japanese] == [parse(m) for m in english]
