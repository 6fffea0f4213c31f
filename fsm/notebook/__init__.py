"""The Jupyter step-through (``StepThrough``): its frames as JSON, its anywidget view and front end
(``front/``, bundled into ``static/``), its panels, the timeline of frames, and saving notebooks clean.
The only layer that imports ``ipywidgets`` (anywidget is built on it).

May import: ``fsm.render``, ``fsm.scenarios`` and below."""
