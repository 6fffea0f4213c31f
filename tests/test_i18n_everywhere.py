"""Japanese everywhere a learner or a designer reads (issue 17): every library scenario and design
narrates in Japanese, `fsm variants --lang ja` describes each rule variant in Japanese, the
explorer reports in Japanese (its comparison and its partial report too), and a malformed
designer's file is refused in Japanese with its file and place kept.

"English left" means an ASCII word that is not a clause ID, a name from the table, a rule
variant's name or value, or the move syntax a scenario file is written in."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_catalogue import SEED, _ja_runs
from test_i18n_engine import _english_left, _names

from fsm.cli import main
from fsm.errors import BadInput
from fsm.i18n import using
from fsm.render.timing_text import display_width
from fsm.rules.catalogue import CLAUSES
from fsm.rules.variants import SPECS, choices_text
from fsm.scenarios.narrate import narrate
from fsm.scenarios.playing import load, play
from fsm.spec.ruleset import load as load_rules

REPO = Path(__file__).resolve().parents[1]
LIBRARY = sorted([*(REPO / "scenarios").glob("*.yaml"), *(REPO / "designs").glob("*.yaml")])
FIZZLE = REPO / "scenarios" / "action_fizzles_after_counter.yaml"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
VALUES = {word for s in SPECS for word in choices_text(s).split(", ")}
TYPED = re.compile(r"`[^`]*`|--[a-z-]+")  # a command or an option, as the reader types it


def _left(text: str, names: set[str]) -> list[str]:
    """The ASCII words left once names, clause IDs, variant names and values and typed commands go."""
    return [w for w in _english_left(TYPED.sub(" ", text), names) if w not in VALUES]


def test_every_library_scenario_and_design_narrates_in_japanese() -> None:
    """AUTO-4 (a continuous auto's effect words), AB-1 (an effect that changes nothing),
    TIM-CTR-1 (a refusal naming the point of the game) and every other clause the library
    shows: each narration line, and the run's rule-variant line, in Japanese but its names."""
    assert len(LIBRARY) >= 50 and REPO / "designs" / "rest.yaml" in LIBRARY
    leftover: dict[str, dict[str, list[str]]] = {}
    for path in LIBRARY:
        result = play(path, lang="ja")
        assert not result.failures, path.name  # the verdict is the English file's, in either language
        names = _names(result.game)
        with using("ja"):
            variants_line = list(narrate(result, verbose=False))[1]
        lines = [variants_line, *(entry.text for _move, entries in result.steps for entry in entries)]
        found = {line: words for line in lines if (words := _left(line, names))}
        if found:
            leftover[path.name] = found
    assert not leftover, f"English words left in Japanese narration: {leftover}"


def _out(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_fsm_variants_lang_ja_describes_every_variant_in_japanese_citing_its_clause(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every named rule variant (the points the rules leave open, e.g. ACT-2, COST-5, TIM-CTR-3)
    is described in Japanese, cites its clause, and in the project's own words."""
    code, out, _err = _out(["variants", "--lang", "ja", "--rules", str(REPO / "designs" / "rest.toml")], capsys)
    assert code == 0
    lines = out.splitlines()
    seed = _ja_runs(SEED.read_text("utf-8")) if SEED.is_file() else set()
    for spec in SPECS:
        heading = next(i for i, line in enumerate(lines) if line.startswith(f"{spec.name} = "))
        described = lines[heading + 1].strip()
        assert JAPANESE.search(described) and spec.clause in described, (spec.name, described)
        assert _left(described, set()) == [], (spec.name, described)
        assert not _ja_runs(described) & seed, f"{spec.name}: shares a 20-character run with the rules page"
    preset = next(line for line in lines if "rest_open" in line)
    assert "チェーン" in preset and "Rest with" not in preset  # the file's doc_ja


def _report_left(text: str, path: Path) -> list[str]:
    game, _data = load(path)
    return _left(text.replace(str(path), " "), _names(game))


def test_fsm_explore_lang_ja_reports_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    """ACT-6 / TIM-CTR-3: the explorer's endings (resolved, fizzled, zones, unit states) and its
    numbers are said in Japanese, and its example lines are moves as the Japanese reader writes them."""
    code, out, _err = _out(["explore", "--lang", "ja", str(FIZZLE)], capsys)
    assert code == 0
    assert "訪れた局面" in out and "岩砕き は不発" in out and "A: パス" in out
    assert _report_left(out, FIZZLE) == []


def test_fsm_explore_compare_lang_ja_with_a_cut_says_so_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    """TIM-CTR-3's variant compared with a budget so small both sides are cut: the cut, and
    what it leaves unsettled, are said in Japanese."""
    argv = ["explore", "--lang", "ja", str(FIZZLE), "--compare", "counters_between_resolutions=true"]
    code, out, _err = _out([*argv, "--max-states", "20"], capsys)
    assert code == 0
    assert "打ち切り" in out and "上限 20 局面" in out and "そのまま" in out
    assert _report_left(out, FIZZLE) == []


def test_fsm_explore_max_memory_partial_report_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = _out(["explore", "--lang", "ja", str(FIZZLE), "--max-memory", "1K"], capsys)
    assert code == 0
    assert "メモリの上限" in out and "途中までの報告" in out and "--max-memory を増やして" in out
    assert [w for w in _report_left(out, FIZZLE) if w != "MB"] == []


def test_a_malformed_designers_file_is_refused_in_japanese_with_its_place(tmp_path: Path) -> None:
    """A designer's kind whose price is paid at declaration but rechecks for the very state that
    price brings about would always fizzle (the recheck, ACT-6): refused in Japanese, naming the
    file and the key to change."""
    bad = tmp_path / "bad.toml"
    bad.write_text(
        "[kind.rest]\n"
        'ja = "休息"\nen = "rest"\ncategory = "ability"\nusable = "battle"\nprice = "act"\n'
        'price_paid = "declare"\nfrequency = "once_while_unacted"\ntargets = "battle"\n'
        'counter_window = true\nfizzle_if = ["acted"]\n',
        encoding="utf-8",
    )
    with using("ja"), pytest.raises(BadInput) as err:
        load_rules([bad])
    assert err.value.where == f"{bad}:11: kind.rest.fizzle_if"  # the line of fizzle_if
    assert str(err.value).startswith(f"{bad}:11: kind.rest.fizzle_if: 代価（行動完了にする）は宣言時に払うので")


def test_a_designers_file_that_is_not_valid_yaml_is_refused_in_japanese_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind:\n  rest:\n    ja: [休息\n", encoding="utf-8")
    code, _out_text, err = _out(["variants", "--lang", "ja", "--rules", str(bad)], capsys)
    assert code == 2
    assert re.fullmatch(rf"fsm variants: {re.escape(str(bad))}:\d+: YAML として読めない: .+\n", err), err


def test_an_unknown_variant_on_the_command_line_is_refused_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out_text, err = _out(["explore", "--lang", "ja", str(FIZZLE), "--variant", "no_such_rule=true"], capsys)
    assert code == 2 and "ルール変種 'no_such_rule' はない" in err


def test_fsm_timings_lang_ja_names_the_points_and_uses_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    """TIM-NORMAL: [通常] is used on its own in its player's own normal timing, said in Japanese."""
    code, out, _err = _out(["timings", "--lang", "ja"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[lines.index("[通常]") + 1] == "  単独で使用 (TIM-NORMAL): 自分の通常タイミング"
    assert _left(out, set()) == []


def test_fsm_moves_lang_ja_says_where_the_game_stands_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    """FLOW-NORMAL: the scenario ends in B's normal timing of the battle, said with the states' Japanese names."""
    _code, out, _err = _out(["moves", "--lang", "ja", str(FIZZLE)], capsys)
    assert out.splitlines()[0] == f"{FIZZLE}: 現在地 戦闘 / 通常タイミング"


PATHS = re.compile(r"[\w/.-]+\.(?:yaml|toml|ipynb)")  # another file of the library, by its name


def test_every_library_file_has_a_japanese_title_and_notes_in_own_words() -> None:
    """`fsm run --lang ja` heads each scenario with its title_ja and notes_ja: Japanese but for
    names, clause IDs (cited as the English notes cite them), variants and file names, and never
    a 20-character run of the rules page."""
    seed = _ja_runs(SEED.read_text("utf-8")) if SEED.is_file() else set()
    problems: dict[str, object] = {}
    for path in LIBRARY:
        result = play(path, lang="ja")
        head = [result.title, result.notes]
        english = [w for text in head for w in _left(PATHS.sub(" ", text), _names(result.game))]
        cited = set(re.findall(r"[A-Z]+(?:-[A-Z0-9]+)+", result.notes)) & set(CLAUSES)
        copied = sorted(run for text in head for run in _ja_runs(text) & seed)
        if not (JAPANESE.search(result.title) and JAPANESE.search(result.notes)) or english or not cited or copied:
            problems[path.name] = {"english": english, "cites": sorted(cited), "copied": copied}
    assert not problems, problems


def test_wrap_wide_breaks_japanese_notes_at_spaces_and_punctuation() -> None:
    from fsm.scenarios.narrate import (
        wrap_wide,  # new with the Japanese notes: imported here, so the rest runs without it
    )

    text = "岩の巨人 が【行動】岩砕き を宣言する。この時点では何も起きず（ACT-4）、反撃の受付が始まる（ACT-5）。"
    lines = wrap_wide(text, 40)
    assert "".join(line.replace(" ", "") for line in lines) == text.replace(" ", "")
    assert all(display_width(line) <= 40 for line in lines)
    assert lines[1].startswith("この時点では") or lines[1].startswith("反撃の受付")
