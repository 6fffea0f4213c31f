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
The synced traits are the words of the labels, the title and the script's steps: set once.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import anywidget
import traitlets

from fsm.errors import BadInput
from fsm.i18n import N_, _
from fsm.notebook.widget_words import say, term
from fsm.render.labels import Lang
from fsm.render.live_view import NAMES

STATIC = Path(__file__).with_name("static")

#: The labels the front end shows, by the key it uses: (message, is it a term).
LABELS = {
    "step": (N_("step"), False),
    "step_tip": (N_("the next link step (or → on the focused timeline)"), False),
    "decision": (N_("to the decision"), False),
    "decision_tip": (N_("run on to where a player decides"), False),
    "undo": (N_("undo"), False),
    "undo_tip": (N_("take back the last move"), False),
    "start": (N_("start"), False),
    "start_tip": (N_("back to the start"), False),
    "script": (N_("next in script"), False),
    "script_tip": (N_("the scenario's next move"), False),
    "timeline": (N_("timeline"), False),
    "type": (N_("type any move, e.g. A: pass"), False),
    "why": (N_("why not?"), False),
    "why_tip": (N_("is this move legal here?"), False),
    "play": (N_("play it"), False),
    "play_tip": (N_("play the typed move if legal"), False),
    "zoom": (N_("zoom"), False),
    "readable": (N_("readable"), False),
    "fit": (N_("fit"), False),
    "auto": (N_("auto"), True),
    "no_link": (N_("no link on the chain: its procedure appears once one is declared"), False),
    "table": (N_("units and cards"), True),
    "the_script": (N_("the scenario's script"), True),
    "left": (N_("you left the script — undo to return"), False),
    "log": (N_("the log"), True),
    "log_tip": (N_("newest at the bottom; each line cites its rule"), False),
    "nothing_to_undo": (N_("nothing to undo"), False),
    "drag": (N_("drag to pan, wheel to zoom"), False),
}


def words(lang: Lang) -> dict[str, str]:
    """Every label of the front end in the step-through's language (the view names too)."""
    out = {key: (term if is_term else say)(message, lang) for key, (message, is_term) in LABELS.items()}
    out.update({f"view_{key}": term(name, lang) for key, name in NAMES.items()})
    return out


@cache
def _static(name: str) -> bytes:
    path = STATIC / name
    if not path.exists():
        raise BadInput(
            _("the step-through's front end is not built ({path}): run ./scripts/setup.sh").format(path=path)
        )
    return path.read_bytes()


def viz_module() -> bytes:
    """The Graphviz module's code (front/viz_module.js, bundled), for a page that has none yet."""
    return _static("viz.js")


class StepView(anywidget.AnyWidget):
    """The page side of a :class:`~fsm.notebook.step_through.StepThrough`."""

    words = traitlets.Dict().tag(sync=True)
    title = traitlets.Unicode().tag(sync=True)
    script: traitlets.List[str] = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def __init__(self, **kwargs: object) -> None:
        # read here, not at import: a missing build is then a message when a step-through is made
        self._esm, self._css = _static("step.js").decode("utf-8"), _static("step.css").decode("utf-8")
        super().__init__(**kwargs)
