"""The step-through's frames on the wire (fsm/notebook/wire.py, front/wire.js): after the first message
a frame is what changed since the one before; the page, putting them back, must have exactly the frames
the kernel has, in Python and in the page's own JavaScript."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from fsm.notebook.step_through import StepThrough
from fsm.notebook.wire import decode

REPO = Path(__file__).resolve().parents[1]
CHAIN = REPO / "scenarios" / "nb_counter_chain.yaml"
REFUSALS = REPO / "scenarios" / "nb_speed_counter.yaml"

#: Decodes each message of stdin's JSON ({parts, messages}) in turn as the page does; prints the frames after each.
NODE = """
import { decode } from "%s";
let text = "";
for await (const chunk of process.stdin) text += chunk;
const { parts, messages } = JSON.parse(text);
let frames = [];
const out = [];
for (const m of messages) { frames = decode(m, frames, parts); out.push(frames); }
process.stdout.write(JSON.stringify(out));
"""


def _played(path: Path) -> tuple[StepThrough, list[dict[str, Any]], list[list[dict[str, Any]]]]:
    """Every game message of a step-through played through its script and its replay, undone once and
    played again; with the kernel's frames after each."""
    sent: list[dict[str, Any]] = []
    step = StepThrough.from_scenario(path, view=None)
    step.widget.send = lambda m: sent.append(json.loads(json.dumps(m)))  # type: ignore[method-assign]  # as sent
    wanted: list[list[dict[str, Any]]] = []

    def ask(kind: str, **extra: Any) -> None:
        before = len(sent)
        step._message(step.widget, {"type": kind, "point": step.frame.move, **extra}, [])
        wanted.extend([json.loads(json.dumps(step.data))] * sum(1 for m in sent[before:] if m["type"] == "game"))

    ask("hello")
    while not step.script.done:
        ask("script")
    ask("play", move=step.moves[0]) if step.moves else None
    step.undo()
    wanted.append(json.loads(json.dumps(step.data)))
    if step.moves:
        ask("play", move=step.moves[-1])
    return step, [m for m in sent if m["type"] == "game"], wanted


def _python(step: StepThrough, messages: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    frames: list[dict[str, Any]] = []
    out = []
    for m in messages:
        frames = decode(m, frames, step.widget.parts)
        out.append(frames)
    return out


@pytest.mark.parametrize("path", [CHAIN, REFUSALS], ids=["chain", "refusals"])
def test_tim_ctr_3_the_page_puts_back_every_frame_the_kernel_has(path: Path) -> None:
    """TIM-CTR-3: a chain unwinding (and a scenario with refusals the script expects): after each message
    the page's frames, put back from the changes, are the kernel's, and the changes are smaller."""
    step, messages, wanted = _played(path)
    assert any(m.get("delta") for m in messages) and len(messages) == len(wanted)
    assert _python(step, messages) == wanted
    later = [m for m in messages if m.get("delta") and m["frames"] and not m.get("patch")]
    for m in later:  # what the wire leaves out: a replayed frame's header, views that did not move
        assert all("header" not in f for f in m["frames"] if not f.get("decision"))
    whole = sum(len(json.dumps(f)) for m in later for f in step.data[m["from"] : m["from"] + len(m["frames"])])
    assert sum(len(json.dumps(f)) for m in later for f in m["frames"]) < 0.75 * whole


def test_a_refusal_the_script_expects_is_one_message_patching_where_the_script_stands() -> None:
    """A refusal the script expects: one message, the decision frame patched (the script moved on), the why box
    filled with the move typed in."""
    step = StepThrough.from_scenario(REFUSALS, view=None)
    sent: list[dict[str, Any]] = []
    step.widget.send = sent.append  # type: ignore[method-assign]
    while not step.script.done and not step.script.steps[step.script.pos].refused:
        step._message(step.widget, {"type": "script", "point": step.frame.move}, [])
    assert not step.script.done, "the scenario has a refusal in its script"
    ahead = step.shown["refusal"]  # answered ahead, with the decision frame
    sent.clear()
    step._message(step.widget, {"type": "script", "point": step.frame.move}, [])
    assert len(sent) == 1 and sent[0]["patch"] and set(sent[0]["frames"][0]) <= {"script", "refusal"}
    assert "refused" in sent[0]["why"]["html"] and sent[0]["why"]["typed"]
    assert ahead == {"html": sent[0]["why"]["html"], "typed": sent[0]["why"]["typed"]}
    nxt = step.script.steps[step.script.pos] if not step.script.done else None
    assert (step.shown["refusal"] is not None) == bool(nxt and nxt.refused)


@pytest.mark.skipif(shutil.which("node") is None, reason="no node")
def test_the_page_s_javascript_puts_back_the_same_frames() -> None:
    """front/wire.js decodes the same messages to the same frames as fsm/notebook/wire.py."""
    step, messages, wanted = _played(CHAIN)
    script = NODE % (REPO / "fsm" / "notebook" / "front" / "wire.js").as_uri()
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        input=json.dumps({"parts": step.widget.parts, "messages": messages}),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert json.loads(done.stdout) == json.loads(json.dumps(wanted))
