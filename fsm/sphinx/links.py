"""Cross-links: which pages show a clause or a machine, collected while reading every page.

A diagram records the clauses it cites (``clause:ACT-6``) and where it is (``diagram:kind_action``);
a scenario records the clauses it touched and the machines it ran (``machine:kind_action``).
Once every page is read, each :class:`~fsm.sphinx.nodes.fsm_backlinks` placeholder becomes a
line of links to them.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from fsm.sphinx.nodes import fsm_backlinks

#: kind: "diagram" or "scenario"
Link = tuple[str, str, str, str]  # (docname, anchor, title, kind)


def _store(env: BuildEnvironment) -> dict[str, list[Link]]:
    if not hasattr(env, "fsm_links"):
        env.fsm_links = {}  # type: ignore[attr-defined]
    store: dict[str, list[Link]] = env.fsm_links  # type: ignore[attr-defined]
    return store


def note(env: BuildEnvironment, key: str, anchor: str, title: str, kind: str) -> None:
    link = (env.docname, anchor, title, kind)
    links = _store(env).setdefault(key, [])
    if link not in links:
        links.append(link)


def purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    for key, links in _store(env).items():
        _store(env)[key] = [link for link in links if link[0] != docname]


def merge(app: Sphinx, env: BuildEnvironment, docnames: Any, other: BuildEnvironment) -> None:
    for key, links in _store(other).items():
        mine = _store(env).setdefault(key, [])
        mine += [link for link in links if link[0] in docnames and link not in mine]


def resolve(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    store = _store(app.env)
    for node in list(doctree.findall(fsm_backlinks)):
        keys = node["key"] if isinstance(node["key"], list) else [node["key"]]
        found = [link for key in keys for link in store.get(key, []) if link[3] == node["kind"]]
        found = list(dict.fromkeys(found))
        found = [link for link in found if (link[0], link[1]) != (docname, node.get("self", ""))]
        if not found:
            node.parent.remove(node)
            continue
        para = nodes.paragraph(classes=["fsm-backlinks"])
        para += nodes.strong(text=node["heading"] + " ")
        for i, (doc, anchor, title, _kind) in enumerate(sorted(found, key=lambda x: (x[2], x[0]))):
            if i:
                para += nodes.Text(", ")
            uri = app.builder.get_relative_uri(docname, doc) + "#" + anchor
            para += nodes.reference("", title, internal=True, refuri=uri)
        node.replace_self(para)
