"""Where an exploration starts: a scenario's game at its start or its end, under changed variants."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fsm.engine.game import Game
from fsm.errors import BadInput
from fsm.i18n import _
from fsm.rules.variants import BY_NAME, Variants


def game_at(path: str | Path, position: str, settings: Mapping[str, Any]) -> Game:
    """The scenario's game at its start or end, with its own variants changed by ``settings``."""
    from fsm.scenarios.playing import load, play

    if position not in ("start", "end"):
        raise BadInput(_("position must be start or end, not {position!r}").format(position=position))
    game, _data = load(path)
    overrides = expand_settings(game, settings)
    if position == "start":
        return load(path, overrides=overrides)[0] if overrides else game
    return play(path, overrides=overrides, expectations=False).game


def expand_settings(game: Game, settings: Mapping[str, Any]) -> dict[str, Any]:
    """Settings, with presets of the scenario's rules (``[variant.NAME]``) spelled out."""
    out: dict[str, Any] = {}
    for name, value in settings.items():
        if name in game.rules.presets and value is True:
            out.update(game.rules.presets[name].settings)
        elif name not in BY_NAME:
            presets = ", ".join(game.rules.presets) or _("none in this scenario's rules")
            message = _("{name!r} is neither a rule variant (see `fsm variants`) nor a preset ({presets})")
            raise BadInput(message.format(name=name, presets=presets))
        else:
            out[name] = value
    Variants(out)  # unknown names and values are refused with the variant's own message
    return out
