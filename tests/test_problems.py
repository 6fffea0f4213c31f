"""Every problem of a file at once (fsm.errors.Problems): each with its file:line, what to do and a
"did you mean" for a misspelt word; in English and in Japanese, move errors included."""

from __future__ import annotations

from pathlib import Path

import pytest

from fsm.cli import main
from fsm.errors import LIMIT, BadInput, Problems
from fsm.i18n import using
from fsm.scenarios.playing import load, play
from fsm.spec.ruleset import builtin

SCHEMA_LINE = "# yaml-language-server: $schema=../schemas/scenario.schema.json\n"

#: A scenario with three independent mistakes, one per line marked: a misspelt top-level key
#: (line 2), an unknown skill symbol (line 7) and a misspelt move verb (line 14).
THREE = (
    SCHEMA_LINE
    + """titel: three mistakes
players: [A, B]
geos:
  荒野: {holder: B, limit: 10}
units:
  岩の巨人: {owner: A, skills: 土 fier, geo: 荒野, abilities: [{name: 岩砕き, kind: action, effect: destroy}]}
  水の精: {owner: B, skills: 水, geo: 荒野}
start:
  at: normal_timing
  battle: {advancing: A, geo: 荒野, turn: A}
moves:
  - "A: activate 岩砕き of 岩の巨人 on 水の精"
  - "B: pas"
"""
)


def _write(tmp_path: Path, text: str, name: str = "three.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _problems(path: Path, lang: str = "en") -> list[BadInput]:
    with using(lang), pytest.raises(BadInput) as err:
        play(path)
    return list(err.value.problems)


def test_three_independent_mistakes_give_three_messages_in_one_run(tmp_path: Path) -> None:
    """SYM-1 and the move grammar: one run reports the misspelt key, the unknown symbol and the
    misspelt verb, each at its own line (the schema line above them counted) with a suggestion."""
    path = _write(tmp_path, THREE)
    found = _problems(path)
    assert [p.where for p in found] == [f"{path}:2 (titel)", f"{path}:7 (skills)", f"{path}:14"]
    titel, fier, pas = (p.message for p in found)
    assert "unknown key 'titel'" in titel and "(did you mean 'title'?)" in titel
    assert "unknown skill symbol 'fier'" in fier and "(SYM-1)" in fier and "(did you mean 'fire'?)" in fier
    assert "unknown move 'pas'" in pas and "did you mean 'pass'?" in pas


def test_the_same_three_mistakes_in_japanese(tmp_path: Path) -> None:
    """Under Japanese every message of the three is Japanese, the move error's included."""
    path = _write(tmp_path, THREE)
    found = _problems(path, "ja")
    assert [p.where for p in found] == [f"{path}:2 (titel)", f"{path}:7 (skills)", f"{path}:14"]
    titel, fier, pas = (p.message for p in found)
    assert "知らないキー 'titel'" in titel and "（'title' のことですか？）" in titel
    assert "スキルの記号 'fier' は知らない" in fier and "（'fire' のことですか？）" in fier
    assert "知らない手" in pas and "'pass' のことですか？" in pas


def test_fsm_run_prints_each_problem_on_its_line_in_either_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, THREE)
    assert main(["run", str(path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(": ", 2)[1] for line in lines] == [f"{path}:2 (titel)", f"{path}:7 (skills)", f"{path}:14"]
    assert main(["--lang", "ja", "run", str(path)]) == 2
    japanese = capsys.readouterr().err.splitlines()
    assert len(japanese) == 3 and all(line.startswith("fsm run: ") for line in japanese)
    assert "のことですか" in japanese[0] and "のことですか" in japanese[2]


def _fixed(**changes: str) -> str:
    """THREE with its three mistakes fixed, and then ``changes`` (old text → new) made."""
    text = THREE.replace("titel", "title").replace("土 fier", "土").replace('"B: pas"', '"B: pass"')
    for old, new in changes.items():
        assert old in text
        text = text.replace(old, new)
    return text


def test_a_move_that_names_no_unit_is_told_in_japanese_with_a_suggestion(tmp_path: Path) -> None:
    """A move naming a unit not on the table is malformed input (not a rules question), told in the
    reader's language even though the game is checked against its English log."""
    path = _write(tmp_path, _fixed(**{"of 岩の巨人": "of 岩の巨仁"}))
    (english,) = _problems(path)
    (japanese,) = _problems(path, "ja")
    assert english.where == japanese.where == f"{path}:13"
    assert "no unit '岩の巨仁' on this table" in english.message and "(did you mean '岩の巨人'?)" in english.message
    assert "no unit" not in japanese.message and "（'岩の巨人' のことですか？）" in japanese.message


def test_a_move_error_hides_neither_later_moves_nor_the_expectations(tmp_path: Path) -> None:
    """The play stops at a move that is not one (the game cannot go on from it), but the later
    moves' own words and the expect: block's keys are still read, in the same run."""
    text = (
        _fixed(**{"of 岩の巨人": "of 岩の巨仁", '"B: pass"': '"B: pas"'}) + "expect:\n  outcome: {岩砕き: resolved}\n"
    )
    path = _write(tmp_path, text)
    found = _problems(path)
    assert [p.where for p in found] == [f"{path}:13", f"{path}:14", f"{path}:16 (outcome)"]
    assert "(did you mean 'outcomes'?)" in found[2].message


def test_a_set_up_error_does_not_hide_a_move_error(tmp_path: Path) -> None:
    """AB-1: with a broken ability the game cannot be played, but each move's own words are read."""
    found = _problems(_write(tmp_path, _fixed(**{"kind: action": "kind: acton", '"B: pass"': '"B: pas"'})))
    assert [p.where.rsplit(":", 1)[-1] for p in found] == ["7 (kind)", "14"]
    assert "(did you mean 'action'?)" in found[0].message


def test_a_unit_that_cannot_be_read_is_not_refused_again_where_it_is_named(tmp_path: Path) -> None:
    """One mistake, one message: the broken unit stands on the table as a placeholder, so the
    battle's front naming it is not refused a second time."""
    front = "battle: {advancing: A, geo: 荒野, turn: A, front: {A: 岩の巨人}}"
    found = _problems(
        _write(tmp_path, _fixed(**{"土,": "土 fier,", "battle: {advancing: A, geo: 荒野, turn: A}": front}))
    )
    assert [p.where.rsplit(":", 1)[-1] for p in found] == ["7 (skills)"]


def test_at_most_twenty_problems_are_listed_and_the_rest_counted(tmp_path: Path) -> None:
    units = "".join(f"  u{i}: {{owner: A, colour: red}}\n" for i in range(LIMIT + 5))
    path = _write(tmp_path, f"players: [A, B]\nunits:\n{units}")
    found = _problems(path)
    assert len(found) == LIMIT + 1
    assert all("unknown key 'colour'" in p.message for p in found[:LIMIT])
    assert found[-1].message.startswith("5 more problems not shown")


def test_a_plain_raise_inside_an_item_joins_the_list() -> None:
    """What a reader raises inside ``problems.item()`` is kept and reading goes on: a new
    load-time refusal anywhere below a loader needs nothing but ``raise BadInput(...)``."""
    problems = Problems()
    for n in range(3):
        with problems.item():
            raise BadInput(f"problem {n}", f"file:{n + 1}")
    with pytest.raises(BadInput) as err:
        problems.raise_all()
    assert [str(p) for p in err.value.problems] == ["file:1: problem 0", "file:2: problem 1", "file:3: problem 2"]
    assert str(err.value) == "file:1: problem 0\nfile:2: problem 1\nfile:3: problem 2"
    assert err.value.where == "file:1"  # the first problem's, as a single refusal has


def test_a_designers_file_gets_every_problem_with_its_line(tmp_path: Path) -> None:
    """AB-1, TIM-1: each table of a designer's file is read on its own, and each problem names the
    line of the setting in the TOML file."""
    path = tmp_path / "mine.toml"
    path.write_text(
        "#:schema ../schemas/designer.schema.json\n"
        "[kind.action]\ncategory = 'spell'\n\n"
        "[timing.counter]\nrole = 'answer'\n\n"
        "[kinds.rest]\nja = '休息'\n",
        encoding="utf-8",
    )
    with pytest.raises(BadInput) as err:
        builtin().extend(path)
    wheres = [p.where for p in err.value.problems]
    assert wheres == [f"{path}:8: kinds", f"{path}:3: kind.action.category", f"{path}:6: timing.counter.role"]
    messages = [p.message for p in err.value.problems]
    assert "(did you mean 'kind'?)" in messages[0] and "(did you mean 'speed_roll'?)" in messages[1]


def test_load_reports_the_same_problems_as_play(tmp_path: Path) -> None:
    path = _write(tmp_path, THREE)
    with pytest.raises(BadInput) as err:
        load(path)
    assert [p.where for p in err.value.problems] == [p.where for p in _problems(path)]
