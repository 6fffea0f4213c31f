"""The step-through's page side without a widget: what :class:`~fsm.notebook.step_view.StepView`
syncs (``words``, ``parts``, ``title``, ``script``) and its custom messages, as plain Python.

The browser edition runs :class:`~fsm.notebook.step_through.StepThrough` in pyodide inside a Web
Worker, where there is no Jupyter kernel and no ipywidgets: the worker hands each message the
step-through sends to ``sink`` (as JSON text), and gives each request of the page to
:meth:`Channel.receive`.  Both sides then speak exactly the protocol the widget speaks
(``front/frames.js``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

Handler = Callable[[Any, dict[str, Any], Any], None]


class Channel:
    """A stand-in for the anywidget view: the same traits and ``send`` / ``on_msg``."""

    def __init__(
        self,
        words: dict[str, str],
        title: str,
        script: list[str],
        sink: Callable[[str], Any],
        parts: dict[str, Any] | None = None,
    ) -> None:
        self.words, self.title, self.script, self.parts = words, title, script, parts or {}
        self._sink = sink
        self._handlers: list[Handler] = []

    def send(self, message: dict[str, Any]) -> None:
        self._sink(json.dumps(message, ensure_ascii=False))

    def on_msg(self, handler: Handler) -> None:
        self._handlers.append(handler)

    def receive(self, text: str) -> None:
        """One request of the page (JSON text), handled as the widget's kernel side handles it."""
        content = json.loads(text)
        for handler in self._handlers:
            handler(self, content, None)

    def traits(self) -> str:
        """The synced traits as JSON text, for the page's model shim."""
        traits = {"words": self.words, "parts": self.parts, "title": self.title, "script": self.script}
        return json.dumps(traits, ensure_ascii=False)
