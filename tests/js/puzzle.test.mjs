// The step-through's puzzle mode in the page (fsm/notebook/front/puzzle.js, controller.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Controller } from "../../fsm/notebook/front/controller.js";
import { Frames } from "../../fsm/notebook/front/frames.js";
import { PuzzleState, undoToSeat } from "../../fsm/notebook/front/puzzle.js";
import { FakeModel } from "./fake_model.mjs";

/** A puzzle's frames: A (seat 0) decides, B (seat 1) answers by itself, A decides again. */
function played() {
  const decision = (move, seat) => ({
    move, decision: true, label: `m${move}`, header: "", chain: "", log: [], views: {}, auto: "flow",
    moves: [{ text: "x", move: "x", seat, next: false }], script: [0, false],
  });
  return { type: "game", from: 0, cursor: 2, length: 3, frames: [decision(0, 0), decision(1, 1), decision(2, 0)] };
}

test("a plain step-through has no puzzle; the first puzzle message turns the panel on", () => {
  const model = new FakeModel();
  const c = new Controller(model);
  assert.equal(c.puzzle.on, false);
  const seen = [];
  c.watch((what) => seen.push(what));
  model.receive({ type: "puzzle", seat: 1, status: "playing", goal: ["outcomes: 岩砕き fizzled"], left: "1", said: "" });
  assert.equal(c.puzzle.on, true);
  assert.equal(c.puzzle.seat, 1);
  assert.deepEqual(c.puzzle.goal, ["outcomes: 岩砕き fizzled"]);
  assert.deepEqual(seen, ["puzzle"]);
});

test("a later message keeps what it does not say (the words are sent each time, the notes too)", () => {
  const p = new PuzzleState();
  p.apply({ status: "playing", notes: "n", words: { check: "確認" } });
  p.apply({ status: "solved", said: "solved: the goal holds" });
  assert.equal(p.status, "solved");
  assert.equal(p.notes, "n");
  assert.equal(p.words.check, "確認");
});

test("check and hint are kernel requests that name the decision point the page stands at", () => {
  const model = new FakeModel();
  const c = new Controller(model);
  model.receive(played());
  c.request("hint");
  c.request("check");
  assert.deepEqual(model.sent.slice(1), [{ type: "hint", point: 2 }, { type: "check", point: 2 }]);
  model.receive({ type: "puzzle", status: "playing", said: "hint: …" });
  assert.equal(c.busy, false, "the answer ends the wait");
});

test("undo in puzzle mode goes back past the other side's answer to the learner's own decision", () => {
  const model = new FakeModel();
  const c = new Controller(model);
  model.receive(played());
  model.receive({ type: "puzzle", seat: 0, status: "playing" });
  c.navigate("undo");
  assert.equal(c.store.cursor, 0, "B's answer (move 1) went with A's move");
  assert.equal(c.store.frames.length, 1);
  c.navigate("undo");
  assert.match(c.why.html, /nothing to undo/);
});

test("undoToSeat stops at the first decision of that seat, and at the start", () => {
  const f = new Frames();
  f.apply(played());
  assert.equal(undoToSeat(f, 1), true);
  assert.equal(f.cursor, 1, "B decides at move 1");
  assert.equal(undoToSeat(f, 1), true);
  assert.equal(f.cursor, 0, "the start, whoever decides there");
  assert.equal(undoToSeat(f, 1), false);
});
