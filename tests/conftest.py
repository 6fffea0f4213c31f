"""Shared builders for the rule tests: small tables as plain dicts, driven through the engine's surface."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from fsm.engine import Game
from fsm.errors import BadInput, RuleViolation
from fsm.scenario import build_game

#: The geo of every test battle (held by B, so A advancing into it starts a battle) and A's home.
GEOS = {"荒野": {"holder": "B", "limit": 10}, "本陣": {"holder": "A"}}


def make(
    units: Mapping[str, Any],
    cards: Mapping[str, Any] | None = None,
    *,
    at: str = "normal_timing",
    seed: int = 1,
    variants: Mapping[str, Any] | None = None,
    battle: Mapping[str, Any] | None = None,
    geos: Mapping[str, Any] | None = None,
    active: str = "A",
) -> Game:
    """A game on a small table; unless ``at`` is the main phase, A has advanced into 荒野.

    Units default to the battle's geo 荒野, so every unit takes part unless it names another geo.
    """
    data: dict[str, Any] = {
        "seed": seed,
        "players": ["A", "B"],
        "geos": dict(geos or GEOS),
        "units": {uid: {"geo": "荒野", **u} for uid, u in units.items()},
        "cards": dict(cards or {}),
        "variants": dict(variants or {}),
        "start": {"at": at, "active": active},
    }
    if at != "main_phase":
        data["start"]["battle"] = {"advancing": "A", "geo": "荒野", **(battle or {})}
    return build_game(data)


def play(game: Game, *moves: str) -> None:
    """Apply moves in order; a refusal fails the test with the engine's own reason."""
    for move in moves:
        game.apply(move)


def texts(game: Game) -> list[str]:
    """The legal moves now, as text."""
    return [str(m) for m in game.legal_moves()]


def refused(game: Game, move: str, clause: str | None = None) -> RuleViolation | BadInput:
    """Assert the move is refused (with ``clause`` if given) and that the refusal changed nothing."""
    key, length = game.table.key(), len(game.log)
    with pytest.raises((RuleViolation, BadInput)) as info:
        game.apply(move)
    assert game.table.key() == key, f"refused {move!r} changed the table"
    assert len(game.log) == length, f"refused {move!r} wrote to the log"
    err = info.value
    if clause is not None:
        assert isinstance(err, RuleViolation), f"{move!r}: expected a rule refusal, got bad input: {err}"
        assert err.clause == clause, f"{move!r} refused under {err.clause}, expected {clause}: {err.message}"
    return err


def log_index(game: Game, needle: str, start: int = 0) -> int:
    """Position of the first log line from ``start`` whose text contains ``needle``."""
    for i, entry in enumerate(game.log[start:], start):
        if needle in entry.text:
            return i
    raise AssertionError(f"no log line contains {needle!r}:\n" + "\n".join(e.text for e in game.log[start:]))


def pass_until(game: Game, done: Any, limit: int = 40) -> None:
    """Let whoever must decide pass until ``done(game)`` holds (quick-summon steps, windows, timings)."""
    for _ in range(limit):
        if done(game):
            return
        game.apply("pass")
    raise AssertionError(f"still not there after {limit} passes: {game.flow.configuration_values}")


def at_own_normal_timing(player: str) -> Any:
    """``pass_until`` target: ``player``'s normal timing with no window open."""
    return lambda g: g.flow.at("normal_timing") and g.table.priority is None and g.actor() == player


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The rulebook site, built once per test session: one Sphinx build per language, with -W."""
    import subprocess
    import sys
    from pathlib import Path

    out = tmp_path_factory.mktemp("site")
    repo = Path(__file__).resolve().parents[1]
    run = subprocess.run(
        [sys.executable, str(repo / "docs" / "site" / "build.py"), str(out)], capture_output=True, text=True
    )
    assert run.returncode == 0, f"the site does not build with -W:\n{run.stdout}\n{run.stderr[-6000:]}"
    return out
