"""The step-through's words in its language (``StepThrough(..., lang=...)``, issue 17).

``lang`` is a diagram-label choice (:data:`fsm.render.labels.Lang`): ``"ja"`` and ``"en"`` also choose
the messages; ``"both"`` (the default) chooses none, so messages follow fsm's own choice
(``FSM_LANG``, the locale, English) and headings keep their two words, Japanese term first,
as the diagrams do.  Mark a message with ``N_`` where it is written, so pybabel extracts it.
"""

from __future__ import annotations

from fsm.i18n import N_, gettext
from fsm.render.labels import Lang
from fsm.render.live_view import NAMES


def say(message: str, lang: Lang) -> str:
    """A sentence of the widget in ``lang`` (``"both"``: the language fsm speaks anyway)."""
    return gettext(message, None if lang == "both" else lang)


def term(message: str, lang: Lang) -> str:
    """A heading or label: one language, or in ``"both"`` the Japanese term then the English."""
    if lang != "both":
        return gettext(message, lang)
    ja = gettext(message, "ja")
    return message if ja == message else f"{ja} {message}"


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
