"""The step-through's view: an anywidget whose ES module and CSS are ``fsm/notebook/static/``,
bundled at install time from ``fsm/notebook/front/`` by ``npm run build`` (scripts/setup.sh).
Nothing is fetched at run time.  Each widget carries only the small ``step.js``; Graphviz
compiled to WebAssembly (``@viz-js/viz``, ``viz.js``, ~1.5 MB) is sent once per page, to the
first step-through that asks (``viz``), as a binary buffer.

The kernel and the page talk in custom messages (the protocol is front/frames.js's):
the page says ``hello`` and gets every frame and drawing, then ``ahead`` (with the drawing keys
the page has) and gets the other drawings the game may show; a ``play``, ``try``, ``script`` or
``table`` request names the decision point the page stands at; the kernel answers with a
``game`` message (frames from an index on, new drawings, the cursor), ``why`` or ``table``.
The synced traits are the words of the labels, what every frame shares (``parts``: templates the
page fills, :mod:`fsm.notebook.wire`), the title and the script's steps: set once.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import anywidget
import traitlets

from fsm.errors import BadInput
from fsm.i18n import _
from fsm.notebook.widget_words import LABELS, words

STATIC = Path(__file__).with_name("static")
__all__ = ["LABELS", "STATIC", "StepView", "words"]


@cache
def _static(name: str) -> bytes:
    path = STATIC / name
    if not path.exists():
        raise BadInput(
            _("the step-through's front end is not built ({path}): run ./scripts/setup.sh").format(path=path)
        )
    return path.read_bytes()


def static_text(name: str) -> str:
    """A built text file of the front end (an ES module, the CSS)."""
    return _static(name).decode("utf-8")


def viz_module() -> bytes:
    """The Graphviz module's code (front/viz_module.js, bundled), for a page that has none yet."""
    return _static("viz.js")


class StepView(anywidget.AnyWidget):
    """The page side of a :class:`~fsm.notebook.step_through.StepThrough`."""

    words = traitlets.Dict().tag(sync=True)
    parts = traitlets.Dict().tag(sync=True)  # what every frame shares (fsm/notebook/wire.py)
    title = traitlets.Unicode().tag(sync=True)
    script: traitlets.List[str] = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def __init__(self, **kwargs: object) -> None:
        # read here, not at import: a missing build is then a message when a step-through is made
        self._esm, self._css = static_text("step.js"), static_text("step.css")
        super().__init__(**kwargs)
