"""Timing rules of a Japanese trading-card game, modelled as python-statemachine StateCharts.

The public surface, as ``from statemachine import StateChart``::

    from fsm import Game, load, play, StepThrough, explore, Variants, RuleViolation, BadInput

    game, data = load("scenarios/action_fizzles_after_counter.yaml")
    game.legal_moves(); game.apply("A: pass"); game.why_not("B: pass")

Names are imported when first used, so ``import fsm`` stays light: the engine never pulls in the
renderers (Graphviz), and nothing but ``StepThrough`` pulls in ipywidgets.  The layers below
(``fsm.rules`` → ``fsm.table`` → ``fsm.spec`` → ``fsm.machines`` → ``fsm.engine`` → ``fsm.scenarios``
→ ``fsm.explore`` / ``fsm.render`` → ``fsm.notebook``) import only downwards; the README's Layout
says what each holds.
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import TYPE_CHECKING, Any

from fsm import native

native.install()  # before any module of the hot path is imported: its compiled form, if current

__version__ = "0.1.0"

#: Each public name and the module that defines it.
_HOMES = {
    "BadInput": "fsm.errors",
    "RuleViolation": "fsm.errors",
    "set_language": "fsm.i18n",
    "CLAUSES": "fsm.rules.catalogue",
    "Variants": "fsm.rules.variants",
    "Move": "fsm.table.moves",
    "Table": "fsm.table.model",
    "Ruleset": "fsm.spec.ruleset",
    "builtin": "fsm.spec.ruleset",
    "CounterChain": "fsm.machines.chain",
    "GameFlow": "fsm.machines.battle",
    "Game": "fsm.engine.game",
    "LogEntry": "fsm.engine.narration",
    "Snapshot": "fsm.engine.game",
    "load": "fsm.scenarios.playing",
    "play": "fsm.scenarios.playing",
    "Result": "fsm.scenarios.playing",
    "explore": "fsm.explore.explorer",
    "explore_file": "fsm.explore.explorer",
    "compare": "fsm.explore.explorer",
    "render_machine": "fsm.render.diagrams",
    "StepThrough": "fsm.notebook.step_through",
    "PuzzleStepThrough": "fsm.notebook.puzzle_mode",
    "diagram": "fsm.notebook.step_through",
    "rows_table": "fsm.notebook.step_through",
}
__all__ = sorted(_HOMES)

if TYPE_CHECKING:
    from fsm.engine.game import Game, Snapshot
    from fsm.engine.narration import LogEntry
    from fsm.errors import BadInput, RuleViolation
    from fsm.explore.explorer import compare, explore, explore_file
    from fsm.i18n import set_language
    from fsm.machines.battle import GameFlow
    from fsm.machines.chain import CounterChain
    from fsm.notebook.puzzle_mode import PuzzleStepThrough
    from fsm.notebook.step_through import StepThrough, diagram, rows_table
    from fsm.render.diagrams import render_machine
    from fsm.rules.catalogue import CLAUSES
    from fsm.rules.variants import Variants
    from fsm.scenarios.playing import Result, load, play
    from fsm.spec.ruleset import Ruleset, builtin
    from fsm.table.model import Table
    from fsm.table.moves import Move


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'fsm' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])


def show_games_in(shell: Any) -> None:
    """Teach an IPython ``shell`` to draw a bare ``Game`` at the end of a cell where it stands (who
    decides, the flow, and while a chain is open the chain and its top link's procedure).  Done on
    import inside IPython; the engine itself never imports a renderer."""

    def html(game: Game) -> str:
        from fsm.render.live_view import live_html

        return live_html(game)

    def svg(game: Game) -> str:
        from fsm.render.live_view import live_svg

        return live_svg(game)

    formatters = shell.display_formatter.formatters
    formatters["text/html"].for_type_by_name("fsm.engine.game", "Game", html)
    formatters["image/svg+xml"].for_type_by_name("fsm.engine.game", "Game", svg)


def _shell() -> Any:
    ipython = sys.modules.get("IPython")
    return ipython.get_ipython() if ipython is not None else None


if _shell() is not None:
    show_games_in(_shell())
