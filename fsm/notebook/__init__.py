"""The Jupyter step-through (``StepThrough``) and its panels, the timeline of frames, drawing ahead,
and saving notebooks clean.  The only layer that imports ``ipywidgets``.

May import: ``fsm.render``, ``fsm.scenarios`` and below."""
