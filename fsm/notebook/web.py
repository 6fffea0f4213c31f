"""The step-through in the browser edition: what the site's Web Worker calls in pyodide.

``start`` opens a scenario as a :class:`~fsm.notebook.step_through.StepThrough` whose page side is a
:class:`~fsm.notebook.channel.Channel` (no Jupyter, no ipywidgets); ``receive`` hands it one
request of the page.  Every message goes out through ``sink`` as JSON text, in the widget's own
protocol, so the page runs the same front end (``front/step.js``) as the notebook.  Nothing here
raises into the worker: a file that does not load and an engine bug both come back as a message.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any

from fsm.errors import BadInput
from fsm.i18n import N_
from fsm.notebook.channel import Channel
from fsm.notebook.step_html import esc
from fsm.notebook.step_through import StepThrough
from fsm.notebook.widget_words import say
from fsm.render.labels import Lang

_open: list[Channel] = []  # the worker's one step-through (one worker per "try it")


def start(path: str, lang: Lang, sink: Callable[[str], Any]) -> str:
    """Open the scenario at ``path``: the page side's traits as JSON text, or ``{"error": ...}``
    saying why it cannot be opened (the file's own message, with its line)."""
    try:
        step = StepThrough.from_scenario(path, lang=lang, view=partial(Channel, sink=sink))
    except BadInput as err:
        return json.dumps({"error": str(err)}, ensure_ascii=False)
    _open[:] = [step.widget]  # the channel's handler holds the step-through
    return str(step.widget.traits())


def receive(text: str, lang: Lang) -> None:
    """One request of the page; an error inside is shown in the why-not box, never raised."""
    channel = _open[0]
    try:
        channel.receive(text)
    except Exception as err:  # noqa: BLE001 - the page shows it; the worker must keep serving
        said = say(N_("internal error, please report it: {kind}: {error}"), lang)
        channel.send({"type": "why", "html": said.format(kind=type(err).__name__, error=esc(err)), "ok": False})
