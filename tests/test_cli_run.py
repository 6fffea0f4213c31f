"""`fsm run` and `fsm moves` (issue 5): narrative and JSON output, exit codes 0/1/2, rule-variant
overrides, and the legal moves (with the reason a move is not legal) where a scenario ends."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from fsm.cli import main

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = REPO / "scenarios"
FIZZLE = SCENARIOS / "action_fizzles_after_counter.yaml"


def run(*argv: str | Path) -> subprocess.CompletedProcess[str]:
    """The real command line, in a fresh process (to see exit codes and stderr as a user does)."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "fsm", *map(str, argv)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )


def fsm(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    """The same command line, in this process (faster)."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _broken(tmp_path: Path) -> Path:
    path = tmp_path / "broken.yaml"
    text = FIZZLE.read_text(encoding="utf-8")
    path.write_text(text.replace("{result: fizzled, clause: ACT-6}", "resolved"), encoding="utf-8")
    return path


def _malformed(tmp_path: Path) -> Path:
    """A copy whose abilities: is text instead of a list (error expected at ABILITIES_LINE)."""
    path = tmp_path / "malformed.yaml"
    text = FIZZLE.read_text(encoding="utf-8")
    path.write_text(text.replace("abilities:\n", "abilities: 岩砕き\n  junk:\n", 1), encoding="utf-8")
    return path


ABILITIES_LINE = next(
    i for i, line in enumerate(FIZZLE.read_text(encoding="utf-8").splitlines(), 1) if "abilities:" in line
)


# ---------------------------------------------------------------- fsm run
def test_act_6_run_narrates_moves_clauses_and_states() -> None:
    """ACT-6: the narrative shows who moved, each log line with its clause, and the states entered."""
    proc = run("run", FIZZLE)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "1. A: activate 岩砕き of 岩の巨人 on 水の精" in out
    assert "ACT-4" in out and "A declares 【行動】 岩砕き" in out
    assert "→ 【行動】 declared" in out and "→ counter chain opponent may counter" in out  # rule terms, never IDs
    assert "priority_opponent" not in out and "CounterChain" not in out
    assert "CounterChain" not in out and "GameFlow" not in out  # rule words, not class names
    assert "rule variants: all at their defaults" in out
    assert "ACT-6" in out and "fizzles" in out
    assert "refused as expected: A: pass" in out and "TIM-CTR-2" in out
    assert out.rstrip().endswith(f"PASS {FIZZLE}")


def test_console_entry_point_fsm_runs_a_scenario() -> None:
    """The `fsm` console script (pyproject [project.scripts]) is the same command."""
    script = Path(sys.executable).with_name("fsm")
    if not script.exists():
        pytest.skip("the package is not installed with its console script in this environment")
    proc = subprocess.run([str(script), "run", "-q", str(FIZZLE)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert f"PASS {FIZZLE}" in proc.stdout


def test_tim_ctr_3_json_lines_one_object_per_step(capsys: pytest.CaptureFixture[str]) -> None:
    """TIM-CTR-3: --json prints one object per step with the move, the clause and the states entered;
    each refusal carries the engine's reason (TIM-CTR-2, TIM-CTR-1, TIM-NORMAL) and the result the file's title."""
    code, out, _err = fsm(capsys, "run", "--json", FIZZLE)
    assert code == 0
    objects = [json.loads(line) for line in out.splitlines()]
    steps = [o for o in objects if o["type"] == "step"]
    assert all({"move", "player", "clause", "text", "entered"} <= o.keys() for o in steps)
    resolving = [o for o in steps if o["clause"] == "TIM-CTR-3"]
    assert resolving and all(o["move"] == "B: pass" and o["player"] == "B" for o in resolving)
    assert any(o["entered"] == ["fizzled"] and o["clause"] == "ACT-6" for o in steps)
    refused = [o for o in objects if o["type"] == "refused"]
    assert refused == [
        {
            "type": "refused",
            "file": str(FIZZLE),
            "move": "A: pass",
            "player": "A",
            "clause": "TIM-CTR-2",
            "text": "B has priority in the counter window; A must wait for B to pass",
        },
        {
            "type": "refused",
            "file": str(FIZZLE),
            "move": "A: activate 岩砕き of 岩の巨人 on 水の精",
            "player": "A",
            "clause": "TIM-CTR-1",
            "text": "[通常] cannot answer the pending 【スキル】 足止め here",
        },
        {
            "type": "refused",
            "file": str(FIZZLE),
            "move": "A: activate 岩砕き of 岩の巨人 on 水の精",
            "player": "A",
            "clause": "TIM-NORMAL",
            "text": "[通常] cannot be used at this point (opponent's normal timing)",
        },
    ]
    assert objects[-1] == {
        "type": "result",
        "file": str(FIZZLE),
        "title": yaml.safe_load(FIZZLE.read_text(encoding="utf-8"))["title"],
        "ok": True,
        "failures": [],
    }


def test_run_the_whole_library_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    """A directory stands for its *.yaml files; every scenario of the library passes."""
    code, out, _err = fsm(capsys, "run", "-q", SCENARIOS)
    assert code == 0, out
    assert out.splitlines()[-1].endswith("failed, 0 malformed") and " 0 failed" in out.splitlines()[-1]


def test_act_6_broken_copy_exits_1_and_says_which_expectation_and_why(tmp_path: Path) -> None:
    """ACT-6: a copy expecting 岩砕き to resolve exits 1, naming file:line, what was expected and what happened."""
    path = _broken(tmp_path)
    proc = run("run", path)
    assert proc.returncode == 1
    assert f"FAIL {path}" in proc.stdout
    assert f"{path}:" in proc.stdout and "岩砕き: expected ['resolved'], got ['fizzled (ACT-6" in proc.stdout
    assert "Traceback" not in proc.stderr


def test_malformed_file_exits_2_with_file_and_line_and_no_traceback(tmp_path: Path) -> None:
    """A malformed file exits 2; stderr names the file, the line and what is wrong, without a traceback."""
    path = _malformed(tmp_path)
    proc = run("run", path)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout
    assert f"{path}:{ABILITIES_LINE}" in proc.stderr and "abilities must be a list" in proc.stderr


def test_worst_result_decides_the_exit_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Several files: 2 if any is malformed, else 1 if any fails, else 0; each file is still reported."""
    broken, malformed = _broken(tmp_path), _malformed(tmp_path)
    code, out, err = fsm(capsys, "run", "-q", FIZZLE, broken)
    assert code == 1 and f"PASS {FIZZLE}" in out and f"FAIL {broken}" in out
    code, out, err = fsm(capsys, "run", "-q", FIZZLE, malformed, broken)
    assert code == 2 and "1 passed, 1 failed, 1 malformed" in out and str(malformed) in err


def test_malformed_file_in_json_mode_is_an_error_object(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _malformed(tmp_path)
    code, out, _err = fsm(capsys, "run", "--json", path)
    assert code == 2
    objs = [json.loads(line) for line in out.splitlines()]  # one per problem: junk: is a unit with no owner
    assert all(obj["type"] == "error" for obj in objs) and len(objs) == 2
    assert objs[0]["where"].startswith(f"{path}:{ABILITIES_LINE}") and objs[1]["where"].endswith("(junk)")


def test_tim_ctr_3_variant_override_changes_the_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    """TIM-CTR-3: --variant counters_between_resolutions=true turns the closed-chain scenario's
    expectations false (exit 1); the scenario's own setting is the default otherwise."""
    path = SCENARIOS / "chain_closed_before_resolving.yaml"
    assert fsm(capsys, "run", "-q", path)[0] == 0
    code, out, _err = fsm(capsys, "run", "-q", "--variant", "counters_between_resolutions=true", path)
    assert code == 1 and "resolution order should be" in out


def test_cost_5_variant_override_gives_the_cost_back(capsys: pytest.CaptureFixture[str]) -> None:
    """COST-5: --variant refund_cost_on_fizzle=true makes the no-refund scenario fail on the caster's skills."""
    code, out, _err = fsm(
        capsys, "run", "-q", "--variant", "refund_cost_on_fizzle=true", SCENARIOS / "cost_destroyed_no_refund.yaml"
    )
    assert code == 1 and "炎の魔術師.skills should be '火×1', but is '火×2'" in out


def test_cost_5_a_variant_without_a_value_exits_2_with_a_hint(capsys: pytest.CaptureFixture[str]) -> None:
    """COST-5: `--variant refund_cost_on_fizzle` alone is refused: say refund_cost_on_fizzle=true or =false."""
    code, out, err = fsm(capsys, "run", "--variant", "refund_cost_on_fizzle", FIZZLE)
    assert code == 2 and "refund_cost_on_fizzle=VALUE, one of: true, false" in err and "Traceback" not in err


@pytest.mark.parametrize("bad", ["nonsense=1", "refund_cost_on_fizzle=maybe"])
def test_unknown_variant_on_the_command_line_exits_2(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = fsm(capsys, "run", "--variant", bad, FIZZLE)
    assert code == 2 and f"--variant {bad}" in err and out == ""


# ---------------------------------------------------------------- fsm moves
def test_moves_lists_the_legal_moves_where_the_scenario_ends(capsys: pytest.CaptureFixture[str]) -> None:
    """After the fizzle scenario B has its normal timing: B may pass or attack, A may do nothing."""
    code, out, _err = fsm(capsys, "moves", FIZZLE)
    assert code == 0
    lines = out.splitlines()
    assert "at battle / normal timing" in lines[0]  # rule terms, not the state IDs
    assert "  to move: B" in lines
    assert "  B: pass" in lines and "  B: attack 岩の巨人 with 水の精" in lines
    assert not any(line.startswith("  A:") for line in lines)


def test_tim_ctr_2_moves_why_explains_a_refusal_with_its_clause(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """TIM-CTR-2: --why says a move is not legal, cites the clause and says why; exit 1."""
    path = tmp_path / "pending.yaml"
    text = FIZZLE.read_text(encoding="utf-8")
    path.write_text(text[: text.index("  - {refused")] + "expect: {}\n", encoding="utf-8")
    code, out, _err = fsm(capsys, "moves", path, "--why", "A: pass")
    assert code == 1
    assert "A: pass: not legal here" in out
    assert "TIM-CTR-2 (Counter priority): B has priority in the counter window" in out
    code, out, _err = fsm(capsys, "moves", path, "--why", "B: use 足止め by 水の精 on 岩の巨人")
    assert code == 0 and "legal here" in out
    code, out, _err = fsm(capsys, "moves", path)
    assert "  pending #1 岩砕き (action) declared by A" in out


def test_tim_ctr_2_moves_says_stopped_early_only_when_it_stopped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """TIM-CTR-2: a refused check citing another clause is reported, but every move is still played
    (the listing is where the file ends); only a refused move of the file stops early."""
    text = FIZZLE.read_text(encoding="utf-8")
    differs = tmp_path / "differs.yaml"
    differs.write_text(text.replace('"A: pass", clause: TIM-CTR-2}', '"A: pass", clause: TIM-CTR-1}'), encoding="utf-8")
    code, out, err = fsm(capsys, "moves", differs)
    assert code == 1
    assert "stopped early" not in err and "a refused check differs" in err and "TIM-CTR-1" in err
    assert "  to move: B" in out and "  B: attack 岩の巨人 with 水の精" in out  # after the last move
    stops = tmp_path / "stops.yaml"
    stops.write_text(text.replace('{refused: "A: pass", clause: TIM-CTR-2}', '"A: pass"'), encoding="utf-8")
    code, out, err = fsm(capsys, "moves", stops)
    assert code == 1 and "stopped early" in err and "  pending #1 岩砕き (action) declared by A" in out


def test_moves_why_with_an_unreadable_move_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = fsm(capsys, "moves", FIZZLE, "--why", "B: dance")
    assert code == 2 and "unknown move 'dance'" in err


def test_moves_on_a_malformed_file_exits_2_without_a_traceback(tmp_path: Path) -> None:
    proc = run("moves", _malformed(tmp_path))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "abilities must be a list" in proc.stderr


def test_python_m_fsm_without_the_venv_prints_a_hint_not_a_traceback() -> None:
    """A Python without fsm's packages (here: -S, no site-packages) gets one line saying to use .venv."""
    proc = subprocess.run(
        [sys.executable, "-S", "-m", "fsm", "run", str(FIZZLE)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,  # from the repo root, Python finds the ./fsm package but not its dependencies
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert ".venv/bin/fsm" in proc.stderr and "source .venv/bin/activate" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_tim_ctr_2_an_illegal_move_is_told_in_japanese_under_lang_ja(tmp_path: Path) -> None:
    """TIM-CTR-2: a file whose move the rules refuse fails, and under --lang ja the refusal (the
    rule's own reason, not only the frame around it) is Japanese."""
    text = FIZZLE.read_text(encoding="utf-8").replace(
        '  - "B: use 足止め by 水の精 on 岩の巨人"\n', '  - "B: use 足止め by 水の精 on 岩の巨人"\n  - "B: pass"\n', 1
    )
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    proc = run("run", "--lang", "ja", "-q", bad)
    assert proc.returncode == 1
    assert "反撃の優先権は A にある" in proc.stdout and "TIM-CTR-2" in proc.stdout
    assert "must wait" not in proc.stdout and "priority in the counter window" not in proc.stdout
