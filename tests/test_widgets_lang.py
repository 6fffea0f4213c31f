"""The step-through in one language (issue 17): ``StepThrough(..., lang="ja"|"en")`` chooses its
header, buttons, folded panels, table headings and messages; the default keeps both words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fsm.notebook.step_through import StepThrough

REPO = Path(__file__).resolve().parents[1]
FIZZLE = REPO / "scenarios" / "action_fizzles_after_counter.yaml"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def labels(step: StepThrough) -> list[str]:
    """What the reader sees besides the game itself: buttons, folded panels, headings, view names."""
    shown = step.widget.words
    keys = ("step", "decision", "undo", "start", "script", "why", "play", "table", "the_script", "auto", "log")
    return [shown[k] for k in keys] + [v for k, v in shown.items() if k.startswith("view_")]


def table(step: StepThrough) -> str:
    """The units-and-cards panel, as the page gets it when it is unfolded."""
    sent: list[dict] = []
    step.widget.send = sent.append  # type: ignore[method-assign]
    step._message(step.widget, {"type": "table", "point": step.frame.move}, [])
    return str(sent[-1]["html"])


def opened(lang: str) -> StepThrough:
    return StepThrough.from_scenario(FIZZLE, lang=lang)  # type: ignore[arg-type]


def test_lang_ja_speaks_japanese_in_buttons_panels_headings_and_header() -> None:
    step = opened("ja")
    assert step.widget.words["why"] == "なぜ不可?"
    assert step.widget.words["table"] == "ユニットとカード"
    for label in labels(step):
        assert not re.search(r"[a-z]{3,}", label), f"English left in {label!r}"
    assert "の判断" in text(step.shown["header"])
    assert "チェーン — 上が最新" in text(step.shown["chain"])
    assert "<th>持ち主</th>" in table(step)
    assert step.game.lang == "ja"  # the game answers in it too (Game(lang=...))


def test_lang_en_speaks_english_only() -> None:
    step = opened("en")
    for label in labels(step):
        assert not JAPANESE.search(label), f"Japanese left in {label!r}"
    assert "the chain — top first" in text(step.shown["chain"])
    assert "チェーン" not in text(step.shown["chain"])
    assert "<th>owner</th>" in table(step)


def test_default_keeps_both_words_in_headings() -> None:
    step = opened("both")
    assert step.widget.words["table"] == "ユニットとカード units and cards"
    assert "チェーン the chain — top first" in text(step.shown["chain"])
    assert step.widget.words["why"] == "why not?"


@pytest.mark.parametrize(("lang", "said"), [("ja", "認められません"), ("en", "is refused")])
def test_a_refusal_is_framed_in_the_chosen_language(lang: str, said: str) -> None:
    """TIM-CTR-2: only the priority holder may move; the widget's framing of the refusal follows lang."""
    step = opened(lang)
    step.play("A: activate 岩砕き of 岩の巨人 on 水の精")
    assert said in step.try_move("A: pass")


def test_an_empty_move_is_explained_in_japanese() -> None:
    assert "先に手を入力してください" in opened("ja").try_move("")


def test_lang_ja_writes_moves_the_japanese_way_and_a_button_still_plays_its_move() -> None:
    """AB-1: in Japanese the move buttons, the example and the history write moves as the Japanese
    reader does (verb last), the set-up is narrated in Japanese, and a button plays its move."""
    step = StepThrough.from_scenario(FIZZLE, upto=1, lang="ja")
    shown = step.moves
    assert shown and all(re.search(r"(パス|発動|使用|攻撃|装備|振り直し)$", d) for d in shown), shown
    assert not any(re.search(r"\b(pass|activate|use|of|on|by)\b", d) for d in shown), shown
    assert not re.search(r"\b(activate|use|pass)\b", step.shown["hint"])
    assert JAPANESE.search(step.game.log[0].text) and "starts at" not in step.game.log[0].text
    before = len(step.game.log)
    last = step.shown["moves"][-1]  # a card used: the history names it as the reader writes it
    step._message(step.widget, {"type": "play", "point": step.frame.move, "move": last["move"]}, [])
    assert len(step.game.log) > before, step.why_html
    history = [f["label"] for f in step.data]
    assert any("使用" in label for label in history) and not any(" by " in label for label in history), history
