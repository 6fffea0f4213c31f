"""The engine's trace (fsm/machines/trace.py): every machine transition's log line carries the machines at
that instant."""

from __future__ import annotations

from pathlib import Path

from fsm.scenarios.playing import play

REPO = Path(__file__).resolve().parents[1]
CHAIN = REPO / "scenarios" / "nb_counter_chain.yaml"


def _resolution():  # noqa: ANN202 - the log lines of the final pass
    game = play(CHAIN, upto=5).game  # five script entries (one is a refusal check): all but the last pass
    return game.apply("A: pass")


def test_tim_ctr_3_trace_unwinds_the_chain_newest_first_one_link_at_a_time() -> None:
    """TIM-CTR-3: the recheck lines name #3, #2, #1 in turn, and the stack shrinks by one link after each."""
    entries = _resolution()
    rechecks = [e.trace for e in entries if e.trace and e.trace.event == "close_window"]
    assert [t.link for t in rechecks] == [3, 2, 1]
    assert [[link.seq for link in t.links] for t in rechecks] == [[1, 2, 3], [1, 2], [1]]
    assert all(t.top is not None and t.top.state == "recheck" for t in rechecks)
    nexts = [e.trace for e in entries if e.trace and e.trace.event == "resolve_next"]
    assert [len(t.links) for t in nexts] == [2, 1, 0]
    assert nexts[-1].chain == "empty" and nexts[-1].left == ("resolving",)


def test_sc_6_trace_names_the_recheck_condition_that_failed() -> None:
    """SC-6: 足止め's fizzle line says its condition could no longer be met; the resolving links passed every check."""
    entries = _resolution()
    settled = {e.trace.link: e.trace for e in entries if e.trace and e.trace.event in ("resolve", "fizzle")}
    assert settled[2].event == "fizzle" and settled[2].failed == ("condition_unmet",)
    assert settled[3].event == "resolve" and settled[3].failed == () and settled[3].checked
    assert settled[1].event == "resolve" and ("acted", True) in settled[1].checked


def test_flow_lines_carry_the_configuration_left_and_entered() -> None:
    """FLOW-NORMAL: the game-flow line after the chain says which timing it left and which it entered."""
    flow = [e.trace for e in _resolution() if e.trace and e.trace.machine == "flow"]
    assert flow and flow[-1].event == "chain_resolved"  # the flow's one end-of-chain event (issue 12)
    assert "normal_timing" in flow[-1].left and "normal_timing" in flow[-1].flow
    notes = [e for e in _resolution() if e.trace is None]
    assert notes and all(e.machine == "" for e in notes)  # plain narration carries no trace
