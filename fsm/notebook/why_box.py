"""The step-through's why-not box: each answer it gives (legal, refused under a clause, unreadable),
in the step-through's language, sent to the page and returned as plain text for a cell."""

from __future__ import annotations

import html
import re
from typing import Any

from fsm.i18n import N_
from fsm.notebook.step_html import esc
from fsm.notebook.widget_words import say
from fsm.render.labels import Lang


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
        return self.show(self.say(N_("cannot read this move: {error}")).format(error=esc(error)), ok=False)
