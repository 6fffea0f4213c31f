"""The two nodes ``fsm.sphinx`` puts in a doctree: a diagram image and a list of back-links."""

from __future__ import annotations

import html
import posixpath
from pathlib import Path
from typing import Any

from docutils import nodes


class fsm_image(nodes.General, nodes.Element):  # noqa: N801 - docutils names nodes in lower case
    """A self-contained SVG: ``svg`` (text), ``filename``, ``alt``, ``caption``, ``classes``, ``width``."""


class fsm_backlinks(nodes.General, nodes.Element):  # noqa: N801
    """Filled in once every page is read (:mod:`fsm.sphinx.links`): ``key`` (one or a list),
    ``kind`` of the pages to link (diagram, scenario), ``heading``."""


def html_visit_image(self: Any, node: fsm_image) -> None:
    # Written where Sphinx keeps images, once per distinct diagram (the name is a digest).
    images = Path(self.builder.outdir, self.builder.imagedir)
    images.mkdir(parents=True, exist_ok=True)
    target = images / node["filename"]
    if not target.exists():
        target.write_text(node["svg"], encoding="utf-8")
    src = posixpath.join(self.builder.imgpath, node["filename"])
    ids = f' id="{node["ids"][0]}"' if node["ids"] else ""
    width = f' style="width: {html.escape(node["width"])}"' if node.get("width") else ""
    classes = " ".join(node["classes"])
    self.body.append(f'<figure class="{classes}"{ids}>')
    self.body.append(f'<a href="{src}"><img src="{src}" alt="{html.escape(node["alt"])}"{width}></a>')
    if node.get("caption"):
        self.body.append(f"<figcaption>{html.escape(node['caption'])}</figcaption>")
    self.body.append("</figure>\n")
    raise nodes.SkipNode


def html_depart_image(self: Any, node: fsm_image) -> None:
    pass
