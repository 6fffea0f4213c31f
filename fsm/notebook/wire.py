"""The step-through's frames as they cross the wire after the first message: each frame said as
what changed since the frame before it, which the page has (front/wire.js puts it back).

A click's frames are mostly the same as the frame before: the same machines, mostly standing
where they stood, the same chain, the same heading.  So a frame leaves out

* ``move`` when it is the frame before's, ``decision`` when false, ``auto`` when unchanged;
* ``header`` while a move is replayed, when it is the page's own template (``parts["replaying"]``,
  :meth:`~fsm.notebook.step_frames.FrameWriter.parts`) filled with the label and the step's number
  (``raw``: the label as the header writes it, where that is not ``label``);
* the chain's heading (``parts["chain_head"]``), and the chain when unchanged (``None``, as before);
* each view that has not changed (a view gone is ``None``), and in a view its drawing's ``key`` when
  the same as before, ``taken`` when none and ``checked`` when empty;
* a move button's ``text`` where it is the ``move`` itself.

A refusal the script expects changes only where the script stands: that frame is sent as a
``patch`` of the one the page has.  The kernel keeps every frame whole (``StepThrough.data``).
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import Any

FrameData = dict[str, Any]


_SLOT = re.compile(r"\{(\w+)\}")


def fill(template: str, **values: object) -> str:
    """A template of the page's with its ``{name}`` slots filled, in one pass (a value's own braces stay)."""
    return _SLOT.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), template)


def _line(line: str, forms: Sequence[str]) -> str | list[Any]:
    """A log line as ``[form, a, b]`` when it is one of the page's ``log_forms`` filled, else whole."""
    for i, form in enumerate(forms):
        pre, _, rest = form.partition("{a}")
        mid, _, post = rest.partition("{b}")
        if line.startswith(pre) and line.endswith(post) and mid in line[len(pre) : len(line) - len(post)]:
            a, _, b = line[len(pre) : len(line) - len(post)].partition(mid)
            if fill(form, a=a, b=b) == line:
                return [i, a, b]
    return line


def _unline(line: str | list[Any], forms: Sequence[str]) -> str:
    return line if isinstance(line, str) else fill(forms[line[0]], a=line[1], b=line[2])


def _view(v: Mapping[str, Any], old: Mapping[str, Any] | None) -> dict[str, Any]:
    out = {"active": v["active"]}
    if old is None or old["key"] != v["key"]:  # the same drawing as before: its key is not said again
        out["key"] = v["key"]
    if v.get("taken") is not None:
        out["taken"] = v["taken"]
    if v.get("checked"):
        out["checked"] = v["checked"]
    return out


def encode(
    frames: Sequence[FrameData],
    before: FrameData | None,
    steps: Sequence[tuple[str, int, int]],
    parts: Mapping[str, Any],
) -> list[FrameData]:
    """``frames`` (whole) as changes since ``before``, the page's frame before them; ``steps``: each
    frame's label as its header writes it, its step number and its move's number of frames (a
    replay header's "replaying <move> — step n of total")."""
    out: list[FrameData] = []
    head = parts["chain_head"]
    for f, (raw, n, total) in zip(frames, steps, strict=True):
        d: FrameData = {"label": f["label"]}
        if before is None or f["move"] != before["move"]:
            d["move"] = f["move"]
        if f["decision"]:
            d["decision"] = True
        if raw != f["label"]:
            d["raw"] = raw
        if f["decision"] or f["header"] != fill(parts["replaying"], move=html.escape(raw), n=n, total=total):
            d["header"] = f["header"]
        chain = f["chain"]
        assert chain is None or chain.startswith(head), "a chain panel starts with its heading"
        d["chain"] = None if chain is None else chain[len(head) :]
        d["log"] = [_line(line, parts["log_forms"]) for line in f["log"]]
        old = before["views"] if before is not None else {}
        views: dict[str, Any] = {name: _view(v, old.get(name)) for name, v in f["views"].items() if old.get(name) != v}
        views.update({name: None for name in old if name not in f["views"]})
        if views:
            d["views"] = views
        if before is None or f["auto"] != before["auto"]:
            d["auto"] = f["auto"]
        if "moves" in f:  # a button's label is mostly the move as the engine writes it
            d["moves"] = [{k: x for k, x in m.items() if k != "text" or x != m["move"]} for m in f["moves"]]
        for key in ("script", "hint", "refusal"):
            if key in f:
                d[key] = f[key]
        out.append(d)
        before = f
    return out


def patch(old: FrameData, new: FrameData) -> FrameData:
    """What changed in a frame the page has (a refusal moves only where the script stands)."""
    return {k: v for k, v in new.items() if old.get(k) != v}


def decode(message: Mapping[str, Any], have: Sequence[FrameData], parts: Mapping[str, Any]) -> list[FrameData]:
    """The page's frames after a ``game`` message (front/wire.js does the same; the tests and the
    benchmarks read the wire with this): ``have``, the frames the page had."""
    first = message["from"]
    frames = list(have[:first])
    sent = list(message["frames"])
    if not message.get("delta"):
        return frames + [dict(f) for f in sent]
    if message.get("patch") and sent:
        frames.append({**have[first], **sent.pop(0)})
    unfilled = []
    for d in sent:
        before = frames[-1]
        f: FrameData = {"move": d.get("move", before["move"]), "decision": bool(d.get("decision")), "label": d["label"]}
        f["header"] = d.get("header")
        if f["header"] is None:
            unfilled.append((len(frames), d.get("raw", d["label"])))
        f["chain"] = None if d["chain"] is None else parts["chain_head"] + d["chain"]
        f["log"] = [_unline(line, parts["log_forms"]) for line in d["log"]]
        views = dict(before["views"])
        for name, v in d.get("views", {}).items():
            if v is None:
                views.pop(name, None)
            else:
                views[name] = {
                    "key": v.get("key") or views[name]["key"],
                    "active": v["active"],
                    "taken": v.get("taken"),
                    "checked": v.get("checked", {}),
                }
        f["views"] = views
        f["auto"] = d.get("auto", before["auto"])
        if "moves" in d:
            f["moves"] = [{"text": m["move"], **m} for m in d["moves"]]
        for key in ("script", "hint", "refusal"):
            if key in d:
                f[key] = d[key]
        frames.append(f)
    if "length" in message:
        del frames[message["length"] :]
    for i, raw in unfilled:
        if i < len(frames):
            same = [j for j, g in enumerate(frames) if g["move"] == frames[i]["move"]]
            frames[i]["header"] = fill(parts["replaying"], move=html.escape(raw), n=same.index(i) + 1, total=len(same))
    return frames


def changes(
    new: Sequence[FrameData],
    steps: Sequence[tuple[str, int, int]],
    before: FrameData | None,
    old: FrameData | None,
    parts: Mapping[str, Any],
) -> dict[str, Any]:
    """A ``game`` message's frames as the wire says them: whole in the page's first message (no frame
    ``before`` them), else as changes; ``old``: the page's own version of the first frame (a patch)."""
    if old is not None and new:
        return {
            "delta": True,
            "patch": True,
            "frames": [patch(old, new[0]), *encode(new[1:], new[0], steps[1:], parts)],
        }
    if before is None:
        return {"frames": list(new)}
    return {"delta": True, "frames": encode(new, before, steps, parts)}
