"""The scenario library (issue 5): every file passes, together they cite every clause honestly,
and a file that is wrong — an expectation that does not hold, or a malformed shape — is
reported with its file and line, never with a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from fsm.cli import main
from fsm.errors import BadInput
from fsm.rules.catalogue import CLAUSES
from fsm.scenarios.playing import play
from fsm.scenarios.reading import read_yaml

REPO = Path(__file__).resolve().parents[1]
LIBRARY = sorted((REPO / "scenarios").glob("*.yaml"))


def _ids(path: Path) -> str:
    return path.stem


# ---------------------------------------------------------------- the library
@pytest.mark.parametrize("path", LIBRARY, ids=_ids)
def test_scenario_passes(path: Path) -> None:
    """Each scenario's moves are legal where they stand and every expectation holds."""
    result = play(path)
    assert result.ok, "\n".join(str(f) for f in result.failures)


@pytest.mark.parametrize("path", LIBRARY, ids=_ids)
def test_scenario_says_what_it_demonstrates(path: Path) -> None:
    """Each scenario has a title, the clause IDs it touches, and a plain-English note."""
    data = read_yaml(path)
    assert isinstance(data.get("title"), str) and data["title"].strip()
    assert isinstance(data.get("notes"), str) and data["notes"].strip()
    assert data.get("clauses"), "clauses: lists the clause IDs the scenario demonstrates"
    assert all(c in CLAUSES for c in data["clauses"])


@pytest.mark.parametrize("path", LIBRARY, ids=_ids)
def test_listed_clauses_are_verified(path: Path) -> None:
    """Coverage is honest: each clause a scenario lists is named by an expectation that holds (an
    outcome's or a refused move's clause, a `steps:` line, or skills / zones / order for SYM-1,
    FLOW-ZONES, TIM-CTR-3); a log line that merely carries the ID does not count."""
    result = play(path)
    assert not result.unverified, f"{path.name} lists {result.unverified} in clauses:, but no expectation verifies them"


def _verified(path: Path) -> set[str]:
    result = play(path)
    return set(result.clauses) & result.checked


def test_library_covers_every_clause_of_the_catalogue() -> None:
    """The union of the library's verified clauses: lists is the whole catalogue."""
    verified = set().union(*(_verified(path) for path in LIBRARY))
    assert not set(CLAUSES) - verified, f"no scenario verifies {sorted(set(CLAUSES) - verified)}"
    assert len(LIBRARY) >= 25


def test_fsm_run_fails_a_file_that_over_claims_its_clauses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A clause whose only trace is the move's own log line (AB-1 on "A: activate ...") is not
    verified: `fsm run` exits 1 and names it, at the line of clauses:."""
    path = _copy(tmp_path, "action_fizzles_after_counter", "clauses: [ACT-4,", "clauses: [AB-1, ACT-4,")
    assert any(e.clause == "AB-1" for e in play(REPO / "scenarios" / path.name).game.log)  # it IS in the log
    assert main(["run", str(path)]) == 1
    out = capsys.readouterr().out
    line = next(
        n for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text.startswith("clauses:")
    )
    assert line == 3  # under the schema line and the title
    assert f"{path}:{line} (clauses): lists AB-1, but no expectation verifies it" in out


def test_a_steps_line_verifies_a_listed_clause(tmp_path: Path) -> None:
    """SC-7 listed in clauses: is verified by the file's steps: line "SC-7: 岩の巨人 becomes 行動完了";
    without that line the same file over-claims."""
    path = _copy(tmp_path, "action_fizzles_after_counter", "clauses: [ACT-4,", "clauses: [SC-7, ACT-4,")
    assert play(path).ok
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('    - "SC-7: 岩の巨人 becomes 行動完了"\n', ""), encoding="utf-8")
    assert play(path).unverified == ["SC-7"]
    assert not play(path).ok


def test_a_routine_declaration_line_verifies_no_clause(tmp_path: Path) -> None:
    """TIM-NORMAL (issue 29): the line written for every accepted declaration ("used as an action
    under [通常]") is still matched by the file's steps: line, but does not verify TIM-NORMAL; only
    the refused-move check citing it does.  Without that check the same file over-claims."""
    refusal = '  - {refused: "A: activate 岩砕き of 岩の巨人 on 水の精", clause: TIM-NORMAL}\n'
    path = _copy(tmp_path, "action_fizzles_after_counter", refusal, "")
    result = play(path)
    assert '"TIM-NORMAL: used as an action under [通常]"' in path.read_text(encoding="utf-8")
    assert any(e.clause == "TIM-NORMAL" and e.routine for e in result.game.log)
    assert result.unverified == ["TIM-NORMAL"]
    assert [f.message for f in result.failures] == [result.failures[-1].message]  # the over-claim only
    assert "lists TIM-NORMAL, but no expectation verifies it" in result.failures[0].message


def test_every_line_framing_a_declaration_is_routine() -> None:
    """TIM-1, TIM-*, SYNC-2, QS-2 (issue 29): across the library, each line that frames a
    declaration (the timing it is used under, several timings, a 【同調】 wrapper, a revealed
    card) is marked routine, and no other line is: a steps: line may quote what a rule decided."""
    framing = ("used as a counter under", "used as an action under", "carries", "wraps", "was revealed at")
    seen: set[str] = set()
    for path in LIBRARY:
        for entry in play(path).game.log:
            assert entry.routine == any(w in entry.text for w in framing), (path.name, entry)
            if entry.routine:
                seen.add(entry.clause)
    assert {"TIM-NORMAL", "TIM-CTR-1", "TIM-SPD", "TIM-NC", "TIM-1", "SYNC-2", "QS-2"} <= seen


SYNC_ACT_2 = '  - {refused: "A: activate 挟撃 of 双子の兄 on 水の番人", clause: ACT-2}\n'


@pytest.mark.parametrize(
    ("stem", "clause", "old", "new"),
    [
        # SYNC-2: the 【同調】【行動】 挟撃 refused under the 【行動】's own ACT-2
        ("sync_partner_left", "SYNC-2", SYNC_ACT_2, ""),
        # QS-2: the revealed 伏兵 resolves under the skill card's step 4 (SC-7)
        ("quick_summon_card_discarded", "QS-2", "{伏兵: {result: resolved, clause: SC-7}}", "{伏兵: resolved}"),
    ],
)
def test_a_clause_of_a_borrowed_procedure_is_verified_by_the_procedure_it_borrows(
    tmp_path: Path, stem: str, clause: str, old: str, new: str
) -> None:
    """SYNC-2 (a 【同調】 X follows X's procedure) and QS-2 (a revealed card is used like any skill
    card) are verified by a check on that thing holding under a clause of the borrowed procedure;
    without that check, the routine line alone leaves the file over-claiming."""
    assert clause in play(REPO / "scenarios" / f"{stem}.yaml").checked
    result = play(_copy(tmp_path, stem, old, new))
    assert clause in result.unverified


#: The hard cases of issue 5: file → clauses it must demonstrate.
HARD_CASES = {
    "action_fizzles_after_counter": ["ACT-6"],
    "cost_destroyed_no_refund": ["COST-5"],
    "self_destruct_countered": ["SD-6", "SD-7"],
    "skill_user_loses_skill": ["SC-6"],
    "two_declarations_one_earth": ["SC-4"],
    "all_stands_in_but_not_for_tool": ["SYM-2", "SYM-3"],
    "counter_of_counter_of_counter": ["TIM-CTR-3"],
    "both_want_to_counter": ["TIM-CTR-2", "SC-5"],
    "skill_only_counter": ["TIM-SKL"],
    "sync_partner_left": ["SYNC-1"],
    "quick_summon_card_discarded": ["QS-1", "QS-3"],
    "equip_holds_skill": ["EQ-1"],
    "march_in_main_phase": ["MAR-1", "MAR-2", "MAR-3"],
    "mf_card": ["TIM-MF"],
    "auto_at_battle_start": ["AUTO-2", "AUTO-3"],
    "auto_continuous": ["AUTO-4"],
    "speed_counter": ["TIM-SPD"],
    "attack_only_counter": ["TIM-ATK"],
    "ability_only_counter": ["TIM-ABL"],
    "combined_timings": ["TIM-NC", "TIM-NCS"],
    "dice_before_counter_window": ["ACT-4", "COST-3", "SD-4"],
    "name_condition": ["NAME-1"],
    "skills_come_back_after_battle": ["SC-2", "SC-3"],
    "whole_battle": ["FLOW-ADV", "FLOW-QS", "FLOW-FORM", "FLOW-SPD", "FLOW-NORMAL", "FLOW-END"],
}


@pytest.mark.parametrize(("stem", "clauses"), HARD_CASES.items())
def test_hard_case_is_in_the_library(stem: str, clauses: list[str]) -> None:
    """Each hard case of issue 5 has its own scenario, which cites the clauses it is about."""
    result = play(REPO / "scenarios" / f"{stem}.yaml")
    assert result.ok
    assert set(clauses) <= set(result.clauses) & result.checked


def test_cost_5_refund_variant_pair_differs_only_in_the_refund() -> None:
    """COST-5 (variant refund_cost_on_fizzle): the same fizzle keeps or returns the paid 代償."""
    kept = play(REPO / "scenarios" / "cost_destroyed_no_refund.yaml").game
    refunded = play(REPO / "scenarios" / "cost_refund_variant.yaml").game
    caster = "炎の魔術師"
    assert str(kept.available(kept.table.units[caster])) != str(refunded.available(refunded.table.units[caster]))
    assert [o.result for o in kept.table.outcomes] == [o.result for o in refunded.table.outcomes]


def test_tim_ctr_3_variant_pair_changes_what_the_chain_does() -> None:
    """TIM-CTR-3 (variant counters_between_resolutions): with it, 落雷 joins between resolutions and
    岩砕き fizzles; without it, 落雷 never gets in and 岩砕き resolves."""
    closed = play(REPO / "scenarios" / "chain_closed_before_resolving.yaml").game.table
    reopened = play(REPO / "scenarios" / "chain_reopens_between_resolutions.yaml").game.table
    assert [o.result for o in closed.outcomes if o.source == "岩砕き"] == ["resolved"]
    assert [o.result for o in reopened.outcomes if o.source == "岩砕き"] == ["fizzled"]


# ---------------------------------------------------------------- a broken copy fails with file:line
def _copy(tmp_path: Path, stem: str, old: str, new: str) -> Path:
    text = (REPO / "scenarios" / f"{stem}.yaml").read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {stem}.yaml"
    out = tmp_path / f"{stem}.yaml"
    out.write_text(text.replace(old, new, 1), encoding="utf-8")
    return out


def _line_of(path: Path, fragment: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if fragment in line)


def test_act_6_broken_outcome_expectation_fails_with_its_line(tmp_path: Path) -> None:
    """ACT-6: expecting 岩砕き to resolve, when the rules make it fizzle, is a failure at that line."""
    path = _copy(tmp_path, "action_fizzles_after_counter", "{result: fizzled, clause: ACT-6}", "resolved")
    result = play(path)
    assert not result.ok
    (failure,) = result.failures
    assert failure.where.startswith(f"{path}:{_line_of(path, '岩砕き: resolved')}")
    assert "expected ['resolved']" in failure.message and "fizzled (ACT-6" in failure.message


def test_act_6_outcome_with_the_wrong_clause_fails(tmp_path: Path) -> None:
    """ACT-6: an outcome expectation names the clause; the right result under the wrong clause fails."""
    path = _copy(tmp_path, "action_fizzles_after_counter", "clause: ACT-6}", "clause: COST-5}")
    (failure,) = play(path).failures
    assert "fizzled (COST-5)" in failure.message and "fizzled (ACT-6" in failure.message


def test_tim_ctr_2_refused_move_with_the_wrong_clause_fails(tmp_path: Path) -> None:
    """TIM-CTR-2: a refused-move check that names the wrong clause fails, saying which clause refused it."""
    path = _copy(tmp_path, "action_fizzles_after_counter", '{refused: "A: pass", clause: TIM-CTR-2}',
                 '{refused: "A: pass", clause: ACT-5}')  # fmt: skip
    (failure,) = play(path).failures
    assert failure.where == f"{path}:{_line_of(path, 'refused')}"
    assert "refused under TIM-CTR-2, expected ACT-5" in failure.message


def test_tim_ctr_2_refused_check_of_a_legal_move_fails(tmp_path: Path) -> None:
    """TIM-CTR-2: expecting B's pass to be refused when B holds priority is a failure."""
    path = _copy(tmp_path, "action_fizzles_after_counter", '{refused: "A: pass", clause: TIM-CTR-2}',
                 '{refused: "B: pass", clause: TIM-CTR-2}')  # fmt: skip
    (failure,) = play(path).failures
    assert "expected 'B: pass' to be refused, but it is legal here" in failure.message


def test_tim_ctr_2_illegal_move_is_a_failure_with_its_clause(tmp_path: Path) -> None:
    """TIM-CTR-2: a move that is illegal where it stands stops the scenario and names the clause."""
    path = _copy(tmp_path, "action_fizzles_after_counter", '  - "A: pass"\n  - "B: pass"',
                 '  - "B: pass"\n  - "A: pass"')  # fmt: skip
    (failure,) = play(path).failures
    assert "move 'B: pass' is illegal here" in failure.message and "(TIM-CTR-2)" in failure.message


def test_steps_expectation_checks_the_order_of_the_log(tmp_path: Path) -> None:
    """ACT-4: dice are rolled before the counter window; a steps: list claiming the opposite fails."""
    dice, window = '    - "ACT-4: dice for #1"\n', '    - "ACT-5: counter window opens"\n'
    path = _copy(tmp_path, "dice_before_counter_window", dice + window, window + dice)
    (failure,) = play(path).failures
    assert "it comes earlier than the step before it" in failure.message


# ---------------------------------------------------------------- malformed files: BadInput at file:line
GOOD = """\
title: t
clauses: [ACT-6]
notes: n
players: [A, B]
geos:
  荒野: {holder: B}
units:
  岩の巨人:
    owner: A
    skills: 土
    geo: 荒野
    abilities:
      - {name: 岩砕き, kind: action, effect: destroy}
  水の精: {owner: B, skills: 水, geo: 荒野}
cards:
  足止め: {owner: B, condition: 水, timing: 反撃, effect: exhaust}
start:
  at: normal_timing
  battle: {advancing: A, geo: 荒野}
moves:
  - "A: activate 岩砕き of 岩の巨人 on 水の精"
  - "B: pass"
expect:
  outcomes: {岩砕き: pending}
"""

UNITS = GOOD[GOOD.index("units:") : GOOD.index("cards:")]

#: (what is wrong, old text, new text, line of the error, words of the message)
MALFORMED = [
    ("not YAML", "players: [A, B]", "players: [A, B", 5, "not valid YAML"),
    ("units as a list", UNITS, "units: [岩の巨人, 水の精]\n", 7, "expected a mapping"),
    ("a unit as text", "  水の精: {owner: B, skills: 水, geo: 荒野}", "  水の精: 水", 14, "expected a mapping"),
    (
        "abilities as text",
        "    abilities:\n      - {name: 岩砕き, kind: action, effect: destroy}",
        "    abilities: 岩砕き",
        12,
        "abilities must be a list",
    ),
    (
        "an ability as text",
        "      - {name: 岩砕き, kind: action, effect: destroy}",
        "      - 岩砕き",
        13,
        "expected a mapping",
    ),
    (
        "a missing owner",
        "  水の精: {owner: B, skills: 水, geo: 荒野}",
        "  水の精: {skills: 水, geo: 荒野}",
        14,
        "owner must be A or B",
    ),
    ("a number where a name is", "    geo: 荒野\n    abilities", "    geo: 7\n    abilities", 11, "geo must be text"),
    ("a number where skills are", "    skills: 土", "    skills: 3", 10, "skills must be skill symbols"),
    ("a mapping as an effect", "effect: exhaust}", "effect: {op: exhaust}}", 16, "an effect is text"),
    ("an unknown key", "    owner: A", "    owner: A\n    colour: red", 10, "unknown key 'colour'"),
    ("an unknown top-level key", "notes: n", "notes: n\nturns: 3", 4, "unknown key 'turns'"),
    ("an unknown clause ID", "clauses: [ACT-6]", "clauses: [ACT-99]", 2, "'ACT-99' is not a clause ID"),
    ("an unknown start point", "  at: normal_timing", "  at: lunch", 18, "at must be one of"),
    ("a battle without a geo", "{advancing: A, geo: 荒野}", "{advancing: A}", 19, "start.battle needs geo"),
    (
        "moves as a mapping",
        '  - "A: activate 岩砕き of 岩の巨人 on 水の精"\n  - "B: pass"\n',
        '  first: "A: pass"\n',
        20,
        "moves must be a list",
    ),
    ("a move as a number", '  - "B: pass"', "  - 42", 22, "a move is text"),
    ("a refused check without a move", '  - "B: pass"', "  - {clause: TIM-CTR-2}", 22, "{refused: MOVE"),
    (
        "a move naming an unknown unit",
        '  - "B: pass"',
        '  - "B: use 足止め by 水の王 on 岩の巨人"',
        22,
        "no unit '水の王'",
    ),
    ("an unreadable move", '  - "B: pass"', '  - "B: dance"', 22, "unknown move 'dance'"),
    ("an unknown rule variant", "notes: n", "notes: n\nvariants: {fast_chain: true}", 4, "unknown rule variant"),
    ("a level that is text", "    owner: A", "    owner: A\n    level: two", 10, "level must be a whole number"),
    ("one player", "players: [A, B]", "players: [A]", 4, "two different names"),
    ("a timing as a number", "timing: 反撃,", "timing: 3,", 16, "timing must be text"),
    ("an outcome that is not a result", "{岩砕き: pending}", "{岩砕き: pending}", 24, "an outcome is resolved"),
    ("expect.units as a list", "  outcomes: {岩砕き: pending}", "  units: [岩の巨人]", 24, "expected a mapping"),
    ("a mapping among the clause IDs", "clauses: [ACT-6]", "clauses: [{ACT: 6}]", 2, "is not a clause ID"),
    ("an empty unit", "  水の精: {owner: B, skills: 水, geo: 荒野}", "  水の精:", 14, "owner must be A or B"),
    ("a duplicated key", "    owner: A", "    owner: A\n    owner: B", 10, "given twice"),
]


@pytest.mark.parametrize(("old", "new", "line", "words"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED])
def test_malformed_scenario_is_bad_input_at_its_line(tmp_path: Path, old: str, new: str, line: int, words: str) -> None:
    """FLOW-ZONES: a malformed scenario is BadInput naming file:line and what is wrong — never a
    TypeError or AttributeError from an unexpected YAML shape."""
    assert old in GOOD
    path = tmp_path / "bad.yaml"
    path.write_text(GOOD.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(BadInput) as info:
        play(path)
    assert info.value.where.startswith(f"{path}:{line}"), str(info.value)
    assert words in info.value.message, str(info.value)


@pytest.mark.parametrize("text", ["", "just words\n", "42\n", "- title: t\n- moves: []\n"])
def test_scenario_that_is_not_a_mapping_is_bad_input(tmp_path: Path, text: str) -> None:
    """An empty file, or one that is a single value, is refused at line 1."""
    path = tmp_path / "empty.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BadInput, match="a scenario is a mapping") as info:
        play(path)
    assert info.value.where == f"{path}:1"


def test_missing_scenario_file_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="cannot read the file"):
        play(tmp_path / "nowhere.yaml")


# ---------------------------------------------------------------- the documentation keeps up
def test_docs_explain_every_key_move_effect_timing_and_variant() -> None:
    """docs/scenarios.md names every key the reader accepts, every move form, effect, start point,
    target kind, timing and rule variant, and every scenario of the library."""
    from fsm.engine.game import Game
    from fsm.rules.variants import SPECS
    from fsm.scenarios.building import ABILITY_KEYS, CARD_KEYS, TARGET_KINDS, UNIT_KEYS
    from fsm.scenarios.checking import EXPECT_KEYS, UNIT_CHECKS
    from fsm.scenarios.playing import TOP_KEYS
    from fsm.spec.effects import EFFECTS
    from fsm.spec.ruleset import builtin
    from fsm.table.moves import VERBS

    text = (REPO / "docs" / "scenarios.md").read_text(encoding="utf-8")
    keys = TOP_KEYS | UNIT_KEYS | ABILITY_KEYS | CARD_KEYS | EXPECT_KEYS | set(UNIT_CHECKS)
    keys |= {"holder", "limit", "at", "active", "battle", "advancing", "geo", "turn", "first", "front"}
    keys |= {"refused", "clause", "result"}
    missing = [k for k in sorted(keys) if f"`{k}`" not in text and f"{{{k}:" not in text]
    missing += [f"effect {op}" for op in EFFECTS if f"`{op}" not in text]
    missing += [f"move {verb}" for verb in VERBS if f"`A: {verb}" not in text]
    missing += [f"start {at}" for at in Game.STARTS if f"`{at}`" not in text]
    missing += [f"target {t}" for t in TARGET_KINDS if f"`{t}`" not in text]
    missing += [f"timing {t.ja}" for t in builtin().timings.values() if f"`{t.ja}`" not in text]
    missing += [f"variant {s.name}" for s in SPECS if f"`{s.name}`" not in text]
    missing += [f"scenario {p.stem}" for p in LIBRARY if not p.stem.startswith("nb_") and f"`{p.stem}`" not in text]
    assert not missing, f"docs/scenarios.md does not explain: {missing}"
