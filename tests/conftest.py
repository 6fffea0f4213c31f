"""Shared builders for the rule tests: small tables as plain dicts, driven through the engine's surface."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from machine_trace import settled

from fsm.engine.game import Game
from fsm.errors import BadInput, RuleViolation
from fsm.machines.chain import priority
from fsm.scenarios.building import build_game

# The tests read English messages: a Japanese locale (or FSM_LANG) on the tester's machine must not
# change them, in this process or in the fsm / kernel processes they start.  Tests of the Japanese
# messages ask for them explicitly (tests/test_i18n.py).
os.environ["FSM_LANG"] = "en"

#: The geo of every test battle (held by B, so A advancing into it starts a battle) and A's home.
GEOS = {"荒野": {"holder": "B", "limit": 10}, "本陣": {"holder": "A"}}


# Hypothesis profiles.  "ci" (the default) is derandomized: the same examples on every run, so
# a red build is reproducible and never flaky.  "long" explores far more, with fresh randomness:
# `pytest tests/test_properties.py --hypothesis-profile=long` (or HYPOTHESIS_PROFILE=long).
settings.register_profile(
    "ci", derandomize=True, max_examples=60, stateful_step_count=30, deadline=None,
    suppress_health_check=[HealthCheck.too_slow], print_blob=True,
)  # fmt: skip
settings.register_profile(
    "long", max_examples=2000, stateful_step_count=80, deadline=None,
    suppress_health_check=[HealthCheck.too_slow], print_blob=True,
)  # fmt: skip
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _language_as_it_was() -> Any:
    """A test that chooses a language (``fsm --lang ja``, ``set_language``) leaves the next one the
    choice it found, so no test passes or fails by what ran before it."""
    from fsm import i18n

    before = i18n._chosen
    yield
    i18n._chosen = before


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


def _unchanged(game: Game, move: str) -> RuleViolation | BadInput:
    """Apply a move that must be refused; assert the refusal changed neither the table nor the log."""
    key, length = game.table.key(), len(game.log)
    with pytest.raises((RuleViolation, BadInput)) as info:
        game.apply(move)
    assert game.table.key() == key, f"refused {move!r} changed the table"
    assert len(game.log) == length, f"refused {move!r} wrote to the log"
    return info.value


def refused(game: Game, move: str, clause: str) -> RuleViolation:
    """Assert the rules refuse the move under ``clause`` (not some other clause, not as bad input)
    and that the refusal changed nothing."""
    err = _unchanged(game, move)
    assert isinstance(err, RuleViolation), f"{move!r}: expected a rule refusal under {clause}, got bad input: {err}"
    assert err.clause == clause, f"{move!r} refused under {err.clause}, expected {clause}: {err.message}"
    return err


def malformed(game: Game, move: str) -> BadInput:
    """Assert the move is malformed input (BadInput, no clause) and that it changed nothing."""
    err = _unchanged(game, move)
    assert isinstance(err, BadInput), f"{move!r}: expected bad input, got a rule refusal: {err}"
    return err


def outcome(game: Game, source: str) -> tuple[str, str]:
    """(result, clause) of the last chain item declared from this ability or card, once the machines'
    trace agrees: its procedure took the resolve or fizzle edge (the engine only records it)."""
    found = [o for o in game.table.outcomes if o.source == source]
    assert found, f"nothing declared from {source!r} has resolved or fizzled"
    name = game.table.cards[source].name if source in game.table.cards else source
    assert settled(game, name).entered == found[-1].result, f"{source}: the table and the machines' trace disagree"
    return found[-1].result, found[-1].clause


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
    return lambda g: g.flow.at("normal_timing") and priority(g.table) is None and g.actor() == player


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


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's Chromium for the browser tests (Playwright drives it; it cannot download one)."""
    from browser_support import chromium_path

    path = chromium_path()
    if path is None:
        pytest.skip(
            "Chromium not found (set FSM_CHROMIUM or put `chromium` on the PATH); install it with "
            "`sudo apt-get install -y chromium` (scripts/setup.sh test does this when run as root)"
        )
    return path


@pytest.fixture(scope="module")
def served(site: Any) -> Any:
    """The built site served by ``python -m http.server`` on 127.0.0.1, stopped by its PID after the module."""
    from browser_support import serve_static

    server = serve_static(site)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser() -> Any:
    """Headless Debian Chromium through Playwright, for the tests of the built site."""
    from browser_support import CHROMIUM_ARGS, chromium_path
    from playwright.sync_api import sync_playwright

    chromium = chromium_path()
    assert chromium, "Chromium not found: run ./scripts/setup.sh test (Debian package chromium), or set FSM_CHROMIUM"
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
