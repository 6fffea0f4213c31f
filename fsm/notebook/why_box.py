"""The step-through's why-not box: each answer it gives (legal, refused under a clause, unreadable),
in the step-through's language, sent to the page and returned as plain text for a cell."""

from __future__ import annotations

import html
import re
from typing import Any

from fsm.engine.game import Game
from fsm.errors import BadInput
from fsm.i18n import N_
from fsm.notebook.step_html import clause_badge, esc
from fsm.notebook.widget_words import say
from fsm.render.labels import Lang
from fsm.scenarios.script import Script
from fsm.table.moves import Move


class WhyBox:
    """What the why-not box shows now (``html``), and the one way to change it."""

    def __init__(self, widget: Any, lang: Lang) -> None:
        self.widget, self.lang, self.html = widget, lang, ""

    def say(self, message: str) -> str:
        return say(message, self.lang)  # the caller fills the placeholders

    def show(self, message: str, ok: bool | None = None) -> str:
        """The box's answer (in the page); returned as plain text for a cell."""
        self.html = message
        self.widget.send({"type": "why", "html": message, "ok": ok})
        return html.unescape(re.sub(r"<[^>]+>", "", message))

    def unreadable(self, error: object) -> str:
        """Not a move on this table at all (a typo, an unknown name): no rule to cite."""
        return self.show(self.cannot_read(error), ok=False)

    def answer(self, game: Game, move: Move | str) -> tuple[str, bool]:
        """The box's answer to a move (HTML, is it legal), not shown yet: is it legal here, and if
        not, which rule forbids it?  Changes nothing."""
        text = str(move).strip()
        if not text:
            return self.say(N_("type a move first, e.g. <code>A: pass</code>")), False
        try:
            verdict = game.why_not(move if isinstance(move, Move) else text)
        except BadInput as err:  # e.g. a unit or ability that does not exist on this table
            return self.cannot_read(err), False
        except Exception as err:  # noqa: BLE001 - a reader's typo must never end in a traceback
            said = self.say(N_("could not check this move ({kind}: {error})"))
            return said.format(kind=type(err).__name__, error=esc(err)), False
        if verdict.legal:
            said = self.say(N_("<b>{move}</b> is legal here — press “play it” to play it"))
            return said.format(move=esc(text)), True
        if not verdict.clause:
            return self.cannot_read(verdict.message), False
        said = self.say(N_("<b>{move}</b> is refused {clause} {message}"))
        return said.format(move=esc(text), clause=clause_badge(verdict.clause), message=esc(verdict.message)), False

    def expected(self, game: Game, script: Script) -> dict[str, str] | None:
        """The refusal the script expects next (its answer and the move typed), or None: sent with the
        decision frame, so that the page shows it at once on "next in script" (front/controller.js)."""
        if script.done or not script.steps[script.pos].refused:
            return None
        text = script.steps[script.pos].text
        return {"html": self.answer(game, text)[0], "typed": text}

    def cannot_read(self, error: object) -> str:
        """What :meth:`unreadable` shows, not shown yet."""
        return self.say(N_("cannot read this move: {error}")).format(error=esc(error))
