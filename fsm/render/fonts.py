"""Self-contained SVG: the glyphs a diagram uses, embedded in it.

Graphviz measures every label with IPAexGothic and writes ``font-family="IPAexGothic"``; on a
machine without that font the text is drawn in another one and no longer fits its box.
:func:`embed` puts the subset of IPAexGothic that the SVG's text needs into the SVG itself, as
an ``@font-face`` data URI (WOFF), and names it first, with the system font and a generic
family as fallbacks.  The text stays text: searchable and selectable.

The subset is deterministic (same font file, same text → same bytes), so committed diagrams
stay byte-for-byte reproducible.
"""

from __future__ import annotations

import base64
import html
import io
import re
import subprocess
from functools import cache

from fsm.errors import BadInput
from fsm.i18n import _

FONT = "IPAexGothic"  # Debian fonts-ipaexfont-gothic: Japanese glyphs in SVG, PNG and PDF
EMBEDDED = "fsm-IPAexGothic"  # the family name of the embedded subset
FALLBACK = f"{EMBEDDED},{FONT},sans-serif"

_TEXT = re.compile(r"<text\b[^>]*>(.*?)</text>", re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
_ROOT = re.compile(r"<svg\b[^>]*>")


@cache
def font_file() -> str:
    """Where the IPAexGothic font file is, as fontconfig finds it."""
    try:
        found = subprocess.run(
            ["fc-match", "-f", "%{family}\n%{file}", f"{FONT}:style=Regular"], capture_output=True, text=True
        )
    except FileNotFoundError:
        found = None
    family, _sep, path = found.stdout.partition("\n") if found else ("", "", "")
    if not found or found.returncode or FONT not in family.split(","):
        raise BadInput(
            _(
                "the {font} font is not installed; run ./scripts/setup.sh (Debian package fonts-ipaexfont-gothic)"
            ).format(font=FONT)
        )
    return path


def text_of(svg: str) -> str:
    """Every character the SVG's ``<text>`` elements show."""
    return "".join(html.unescape(_TAG.sub("", m.group(1))) for m in _TEXT.finditer(svg))


@cache
def _subset(chars: str, base: bytes = b"") -> bytes:
    """IPAexGothic (or ``base``, a subset of it already made) cut down to these characters."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(io.BytesIO(base) if base else font_file(), recalcTimestamp=False, lazy=True)
    options = subset.Options()
    options.layout_features = []  # Graphviz lays out glyph by glyph: no ligatures to keep
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 7]  # the copyright and licence names stay with the glyphs
    options.name_IDs += [13, 14]
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=chars)
    subsetter.subset(font)
    font.flavor = "woff"
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _chars(svg: str) -> str:
    return "".join(sorted(set(text_of(svg)) - set(" \n\t")))


def embed_all(svgs: list[str]) -> list[str]:
    """:func:`embed` for many SVGs at once: the big font is cut down once, to what they all
    show, and each SVG's subset is cut from that (the same glyphs, many times faster)."""
    base = _subset("".join(sorted(set("".join(map(_chars, svgs))))))
    return [embed(svg, base) for svg in svgs]


def embed(svg: str, base: bytes = b"") -> str:
    """The SVG with the glyphs of its text embedded, and no system font it depends on."""
    if f'font-family="{FONT}"' not in svg:
        return svg
    data = base64.b64encode(_subset(_chars(svg), base)).decode("ascii")
    face = (
        f"<defs><style>@font-face{{font-family:'{EMBEDDED}';"
        f'src:url("data:font/woff;base64,{data}") format("woff");}}</style></defs>'
    )
    svg = svg.replace(f'font-family="{FONT}"', f'font-family="{FALLBACK}"')
    root = _ROOT.search(svg)
    assert root, "an SVG without a root element"
    return svg[: root.end()] + "\n" + face + svg[root.end() :]


def page_font(pages: str) -> bytes:
    """A WOFF subset of IPAexGothic with every character of these pages (HTML text)."""
    chars = set(html.unescape(_TAG.sub("", pages))) - set(" \n\t\r")
    return _subset("".join(sorted(ch for ch in chars if ch.isprintable())))
