"""The step-through's view: an anywidget whose ES module and CSS are ``fsm/notebook/static/``,
bundled at install time from ``fsm/notebook/front/`` (with ``@viz-js/viz``, Graphviz compiled to
WebAssembly) by ``npm run build`` (scripts/setup.sh).  Nothing is fetched at run time.

The kernel and the page talk in custom messages (the protocol is front/frames.js's):
the page says ``hello`` and gets every frame and drawing; a ``play``, ``try``, ``script`` or
``table`` request names the decision point the page stands at; the kernel answers with a
``game`` message (frames from an index on, new drawings, the cursor), ``why`` or ``table``.
The synced traits are the words of the labels, the title and the script's steps: set once.
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
def static_text(name: str) -> str:
    path = STATIC / name
    if not path.exists():
        raise BadInput(
            _("the step-through's front end is not built ({path}): run ./scripts/setup.sh").format(path=path)
        )
    return path.read_text(encoding="utf-8")


class StepView(anywidget.AnyWidget):
    """The page side of a :class:`~fsm.notebook.step_through.StepThrough`."""

    words = traitlets.Dict().tag(sync=True)
    title = traitlets.Unicode().tag(sync=True)
    script: traitlets.List[str] = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def __init__(self, **kwargs: object) -> None:
        # read here, not at import: a missing build is then a message when a step-through is made
        self._esm, self._css = static_text("step.js"), static_text("step.css")
        super().__init__(**kwargs)
