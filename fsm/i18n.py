"""Messages in the reader's language: gettext catalogues under ``fsm/locale/``, made with Babel.

The language of a message is, first that applies:

1. an explicit ``lang=`` argument (``gettext(message, lang="ja")``);
2. the one chosen with :func:`set_language` (``fsm --lang ja`` does this);
3. the ``FSM_LANG`` environment variable (``ja`` or ``en``);
4. the locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext reads them);
5. English.

Each language has one catalogue, ``fsm/locale/<lang>/LC_MESSAGES/fsm.po``, committed as text.
The compiled ``fsm.mo`` next to it is written by the install (``setup.py``'s build step); when it
is missing or older than the ``.po`` (a translator's edit, a merge), the ``.po`` is compiled with
Babel on first use instead (and the ``.mo`` rewritten when the folder is writable), so a message
is never lost to a stale build.

Mark a message with ``_("... {name} ...")`` and fill it with ``.format(name=...)`` *after*
translating, so the catalogue holds one sentence with named placeholders (word order differs
between Japanese and English).  ``N_`` marks a message kept in a constant and translated later.
How to add one: docs/i18n.md.
"""

from __future__ import annotations

import difflib
import gettext as _gettext
import importlib.util
import io
import os
import threading
import unicodedata
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from fsm.errors import BadInput

DOMAIN = "fsm"
LANGUAGES = ("en", "ja")
FALLBACK = "en"
LOCALE_DIR = Path(__file__).resolve().with_name("locale")

_chosen: str | None = None
_speaking = threading.local()  # a `using` block's language, per thread


def normalise(value: str | None) -> str | None:
    """``ja_JP.UTF-8`` → ``ja``; None for anything that is not a language fsm speaks."""
    if not value:
        return None
    code = value.split(".", 1)[0].split("@", 1)[0].replace("-", "_").split("_", 1)[0].lower()
    return code if code in LANGUAGES else None


def _checked(lang: str) -> str:
    code = normalise(lang)
    if code is None:
        message = gettext("unknown language {lang!r}; fsm speaks {languages}")  # in the language already chosen
        raise BadInput(message.format(lang=lang, languages=", ".join(LANGUAGES)), "lang")
    return code


def set_language(lang: str | None) -> None:
    """Choose the language of every later message (None: back to FSM_LANG / the locale)."""
    global _chosen
    _chosen = _checked(lang) if lang else None
    _speaking.lang = None  # the choice holds in this thread at once, even inside a ``using`` block


def from_environment() -> str | None:
    """The language FSM_LANG or else the locale asks for, None when neither names ja or en."""
    env = os.environ.get("FSM_LANG")
    if env:
        return normalise(env)
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):  # gettext's own order
        value = os.environ.get(var)
        if value:
            for part in value.split(":"):  # LANGUAGE may list several
                if code := normalise(part):
                    return code
            return None  # the first variable set decides, as in gettext
    return None


def language(lang: str | None = None) -> str:
    """The language a message is given in (see the module docstring for the order)."""
    if lang:
        return _checked(lang)
    return getattr(_speaking, "lang", None) or _chosen or from_environment() or FALLBACK


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def compile_po(po: Path) -> bytes:
    """The ``.mo`` bytes of one catalogue (what ``pybabel compile`` writes)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalogue = read_po(f)
    out = io.BytesIO()
    write_mo(out, catalogue)
    return out.getvalue()


@cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The compiled catalogue of ``lang``; nothing (messages as written) when it has none."""
    po = po_path(lang)
    mo = po.with_suffix(".mo")
    fresh = mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime)
    if fresh or (mo.is_file() and not _can_compile()):
        # without Babel (the browser edition installs none) the wheel's own .mo is the catalogue:
        # unpacking a wheel may leave its .po looking newer than the .mo compiled from it
        with mo.open("rb") as f:
            return _gettext.GNUTranslations(f)
    if po.is_file():
        data = compile_po(po)
        _save(mo, data)
        return _gettext.GNUTranslations(io.BytesIO(data))
    return _gettext.NullTranslations()


def _can_compile() -> bool:
    return importlib.util.find_spec("babel") is not None


def _save(mo: Path, data: bytes) -> None:
    """Keep a fresh compilation for the next process; a read-only install just compiles again."""
    tmp = mo.with_name(f"{mo.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, mo)  # atomic: a process reading at the same time sees the old or the new file
    except OSError:
        tmp.unlink(missing_ok=True)


class Unworded(str):
    """The one message :func:`unworded` gives: formatting or extending it words nothing."""

    __slots__ = ()

    def format(self, *args: object, **kwargs: object) -> Unworded:
        return self

    def __add__(self, other: str) -> Unworded:
        return self


UNWORDED = Unworded("(unworded)")


def gettext(message: str, lang: str | None = None) -> str:
    """``message`` in the chosen language; the English text itself when there is no translation."""
    if getattr(_speaking, "unworded", False):
        return UNWORDED
    return translations(language(lang)).gettext(message)


def worded() -> bool:
    """False inside :func:`unworded`: a caller may skip looking up what only a message would say."""
    return not getattr(_speaking, "unworded", False)


class unworded:  # noqa: N801 - used as the function it was: ``with unworded():``
    """Inside, in this thread, a message is neither looked up nor worded: :data:`UNWORDED` for all.

    For work whose messages nobody reads: :meth:`fsm.engine.game.Game.legal_moves` asks of each
    candidate only whether some rule refuses it, and used to word every refusal (a tenth of
    judging them).  Nothing worded inside may be kept; an error raised inside is worded again by
    whoever reads it (``legal_moves`` asks again outside).  A class, not a generator: every table
    explored enters one."""

    __slots__ = ("before",)

    def __enter__(self) -> None:
        self.before = getattr(_speaking, "unworded", False)
        _speaking.unworded = True

    def __exit__(self, *exc: object) -> None:
        _speaking.unworded = self.before


def N_(message: str) -> str:  # noqa: N802 - the name pybabel looks for
    """Mark a message for extraction without translating it yet (translate it where it is shown)."""
    return message


_ = gettext


def either(ja: str, en: str) -> str:
    """One of a pair kept as data (a label's ``ja`` and ``en``), in the language chosen now."""
    return ja if language() == "ja" else en


def did_you_mean(word: object, choices: Iterable[str]) -> str:
    """`` (did you mean 'X'?)`` for the known word closest to a misspelt one, or "" when none is close."""
    close = difflib.get_close_matches(
        str(word), [str(c) for c in choices], n=1, cutoff=0.5
    )  # 0.5: one character of two (反激 for 反撃)
    return " " + gettext("(did you mean {word!r}?)").format(word=close[0]) if close else ""


def more_problems(n: int, where: str) -> BadInput:
    """The last line of a long list of problems: how many more there are."""
    return BadInput(gettext("{n} more problems not shown; fix these and run again").format(n=n), where)


class using:  # noqa: N801 - used as the function it was: ``with using(lang):``
    """Speak ``lang`` inside the block (None: leave the choice as it is), then restore the choice.

    The block's language is this thread's own: a step-through drawing ahead in a background thread
    in one language never changes what another game, in another thread, says meanwhile.  A class,
    not a generator: every move played enters one."""

    __slots__ = ("lang", "before")

    def __init__(self, lang: str | None) -> None:
        self.lang = lang
        self.before: str | None = None

    def __enter__(self) -> None:
        self.before = getattr(_speaking, "lang", None)
        if self.lang:
            _speaking.lang = _checked(self.lang)

    def __exit__(self, *exc: object) -> None:
        _speaking.lang = self.before


def display_width(text: str) -> int:
    """Columns ``text`` takes on a terminal: Japanese (wide) characters count as two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
