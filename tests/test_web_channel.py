"""The browser edition's Python side (fsm/notebook/web.py, channel.py): the step-through with no widget
speaks the widget's own protocol, and nothing reaches the worker as a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from fsm.notebook import web
from fsm.notebook.channel import Channel
from fsm.notebook.step_through import StepThrough

REPO = Path(__file__).resolve().parents[1]
FIZZLE = REPO / "scenarios" / "action_fizzles_after_counter.yaml"


def opened(lang: str = "en") -> tuple[dict, list[dict]]:
    out: list[str] = []
    traits = json.loads(web.start(str(FIZZLE), lang, out.append))  # type: ignore[arg-type]
    sent: list[dict] = []
    out.clear()
    web._open[0]._sink = lambda text: sent.append(json.loads(text))  # what the worker posts, parsed
    return traits, sent


def ask(sent: list[dict], request: dict, lang: str = "en") -> dict:
    web.receive(json.dumps(request, ensure_ascii=False), lang)  # type: ignore[arg-type]
    return sent[-1]


def test_the_channel_carries_what_the_widget_carries() -> None:
    """Same words, parts, title, script and first game message as the anywidget view."""
    out: list[str] = []
    plain = StepThrough.from_scenario(FIZZLE, lang="ja", view=lambda **kw: Channel(**kw, sink=out.append))
    widget = StepThrough.from_scenario(FIZZLE, lang="ja")
    assert json.loads(plain.widget.traits()) == {
        "words": widget.widget.words,
        "parts": widget.widget.parts,
        "title": widget.widget.title,
        "script": widget.widget.script,
    }
    assert json.loads(out[0])["frames"] == widget.data


def test_a_refusal_in_the_page_is_the_one_python_gives_tim_ctr_2() -> None:
    """TIM-CTR-2: after A declares, B has priority; A's pass is refused with that clause, as in Python."""
    traits, sent = opened()
    assert traits["script"], "the scenario's script reaches the page"
    game = ask(sent, {"type": "play", "point": 0, "move": "A: activate 岩砕き of 岩の巨人 on 水の精"})
    assert game["type"] == "game"
    why = ask(sent, {"type": "try", "point": 1, "move": "A: pass"})
    python = StepThrough.from_scenario(FIZZLE)
    python.play("A: activate 岩砕き of 岩の巨人 on 水の精")
    python.try_move("A: pass")
    assert why == {"type": "why", "html": python.why_html, "ok": False}
    assert "TIM-CTR-2" in why["html"]


def test_a_garbled_move_and_a_bad_request_are_messages() -> None:
    """An unreadable move gets the reader's message; a request the page should never send is shown as an
    internal error in the why-not box (the worker keeps serving), not raised."""
    _, sent = opened("ja")
    why = ask(sent, {"type": "play", "point": 0, "move": "A: 月へ飛ぶ"}, "ja")
    assert why["ok"] is False and "この手を読めません" in why["html"]
    bad = ask(sent, {"type": "play", "point": "x"}, "ja")
    assert bad["ok"] is False and "内部エラー" in bad["html"] and "ValueError" in bad["html"]
    after = ask(sent, {"type": "play", "point": 0, "move": "A: pass"}, "ja")
    assert after["type"] == "game", "the step-through still plays after the bad request"


def test_a_file_that_does_not_load_says_file_and_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("title: x\nunits: [\n", encoding="utf-8")
    answer = json.loads(web.start(str(broken), "en", lambda _t: None))
    assert answer["error"].startswith(f"{broken}:"), answer


def test_the_worker_side_imports_no_widget_graphviz_or_babel() -> None:
    """What the browser edition leaves out of its wheels must not be imported by what it runs."""
    code = (
        "import sys, json; from fsm.notebook import web; out=[]; "
        f"web.start({str(FIZZLE)!r}, 'ja', out.append); "
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'anywidget','ipywidgets','traitlets','graphviz','fontTools','babel','sphinx','IPython'})))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert json.loads(run.stdout) == []
