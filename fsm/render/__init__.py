"""Drawing at the edge: the machines as Graphviz diagrams (extracted from python-statemachine's
diagram model, labelled, styled, rendered), the live view of a game, the timing matrix, print and
screen styles, the glyphs embedded in SVGs.  The only layer that imports ``graphviz``, ``pydot`` or
``fontTools``.

May import: ``fsm.scenarios`` and below; never the explorer."""
