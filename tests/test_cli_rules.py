"""`python -m fsm rules` prints the whole catalogue, one clause per line, ID first."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from fsm.rules.catalogue import CLAUSES

REPO = Path(__file__).resolve().parents[1]


def _rules(*args: str) -> list[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "fsm", "rules", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
        timeout=60,
    ).stdout.splitlines()


def test_python_m_fsm_rules() -> None:
    lines = _rules()
    assert len(lines) == len(CLAUSES)
    firsts = [line.split()[0] for line in lines]
    assert firsts == list(CLAUSES)
    for cid in CLAUSES:
        assert any(line.startswith(cid + " ") for line in lines), cid


def test_fsm_rules_lang_ja_prints_the_japanese_catalogue() -> None:
    lines = _rules("--lang", "ja")
    assert [line.split()[0] for line in lines] == list(CLAUSES)
    for line, c in zip(lines, CLAUSES.values(), strict=True):
        assert c.title_ja in line and c.text_ja in line, c.id
        assert c.text not in line, c.id
