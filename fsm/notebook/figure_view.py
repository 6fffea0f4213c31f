"""A machine's diagram drawn in the page: what :func:`fsm.notebook.step_through.diagram` shows where
no ``dot`` can run (JupyterLite's kernel is Python in WebAssembly, with no processes; or a machine
without Graphviz).  The kernel sends the DOT of the same static diagram; the front end
(``front/figure.js``, bundled into ``static/figure.js``) lays it out with Graphviz compiled to
WebAssembly, as the step-through does; the first such module of a page asks its kernel for it.
"""

from __future__ import annotations

import hashlib
import shutil

import anywidget
import traitlets

from fsm.i18n import _
from fsm.notebook.step_view import static_text, viz_module
from fsm.render.styles import SCREEN_SIZES


def have_dot() -> bool:
    """Whether Graphviz's ``dot`` can be run here (never inside pyodide: it has no processes)."""
    return shutil.which("dot") is not None


class FigureView(anywidget.AnyWidget):
    """One diagram, laid out by the page from its DOT."""

    dot = traitlets.Unicode().tag(sync=True)
    key = traitlets.Unicode().tag(sync=True)  # the layout's cache key in the page: the DOT's digest
    edge_size = traitlets.Int(SCREEN_SIZES.edge).tag(sync=True)
    failed = traitlets.Unicode().tag(sync=True)

    def __init__(self, dot: str, **kwargs: object) -> None:
        self._esm = static_text("figure.js")
        key = hashlib.sha1(dot.encode("utf-8"), usedforsecurity=False).hexdigest()[:12]
        super().__init__(dot=dot, key=key, failed=_("the diagram could not be laid out"), **kwargs)
        self.on_msg(self._on_request)

    def _on_request(self, _widget: object, content: dict[str, object], _buffers: object) -> None:
        """The page has no Graphviz yet (this diagram is the first thing on it to need one)."""
        if content.get("type") == "viz":
            self.send({"type": "viz"}, buffers=[viz_module()])
