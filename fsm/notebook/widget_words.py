"""The step-through's words in its language (``StepThrough(..., lang=...)``, issue 17).

``lang`` is a diagram-label choice (:data:`fsm.render.labels.Lang`): ``"ja"`` and ``"en"`` also choose
the messages; ``"both"`` (the default) chooses none, so messages follow fsm's own choice
(``FSM_LANG``, the locale, English) and headings keep their two words, Japanese term first,
as the diagrams do.  Mark a message with ``N_`` where it is written, so pybabel extracts it.
"""

from __future__ import annotations

from fsm.i18n import gettext
from fsm.render.labels import Lang


def say(message: str, lang: Lang) -> str:
    """A sentence of the widget in ``lang`` (``"both"``: the language fsm speaks anyway)."""
    return gettext(message, None if lang == "both" else lang)


def term(message: str, lang: Lang) -> str:
    """A heading or label: one language, or in ``"both"`` the Japanese term then the English."""
    if lang != "both":
        return gettext(message, lang)
    ja = gettext(message, "ja")
    return message if ja == message else f"{ja} {message}"
