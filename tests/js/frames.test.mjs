// The frame logic of the step-through's front end (fsm/notebook/front/frames.js, controller.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Controller } from "../../fsm/notebook/front/controller.js";
import { Frames } from "../../fsm/notebook/front/frames.js";
import { FakeModel, game } from "./fake_model.mjs";

test("a new controller says hello and takes the kernel's frames", () => {
  const model = new FakeModel({ script: ["A: go", "B: pass"] });
  const c = new Controller(model);
  assert.deepEqual(model.sent, [{ type: "hello" }]);
  model.receive(game());
  assert.equal(c.store.frames.length, 5);
  assert.equal(c.store.cursor, 1);
  assert.equal(c.store.clauses["ACT-6"], "recheck");
});

test("stepping through an unwinding sends no kernel message per step", () => {
  const model = new FakeModel();
  const c = new Controller(model);
  model.receive(game());
  const seen = [];
  c.watch((what) => seen.push([what, c.store.cursor]));
  c.navigate("step");
  c.navigate("step");
  c.navigate("step");
  assert.deepEqual(seen, [["frames", 2], ["frames", 3], ["frames", 4]]);
  assert.equal(model.sent.length, 1, "only the hello"); // TIM-CTR-3: the replay is the page's own
  assert.ok(c.store.frame.decision);
  c.navigate("step"); // at the end: stays
  assert.equal(c.store.cursor, 4);
});

test("to the decision runs on to where a player decides; step n of total counts the move's frames", () => {
  const s = new Frames();
  s.apply(game());
  assert.deepEqual(s.stepOf(), [1, 4]);
  s.toDecision();
  assert.equal(s.cursor, 4);
  assert.deepEqual(s.stepOf(), [4, 4]);
});

test("undo goes back to the decision before the move and drops the later frames; nothing to undo at the start", () => {
  const model = new FakeModel({ words: { nothing_to_undo: "nothing!" } });
  const c = new Controller(model);
  model.receive(game());
  c.navigate("undo");
  assert.equal(c.store.cursor, 0);
  assert.equal(c.store.frames.length, 1);
  c.navigate("undo");
  assert.equal(c.why.html, "nothing!");
  assert.equal(model.sent.length, 1);
});

test("a request names the decision point the page stands at, and the reply replaces the frames after it", () => {
  const model = new FakeModel();
  const c = new Controller(model);
  model.receive(game());
  c.navigate("decision");
  c.play("B: pass");
  assert.deepEqual(model.sent.at(-1), { type: "play", point: 1, move: "B: pass" });
  assert.ok(c.busy);
  const reply = { type: "game", from: 5, cursor: 5, length: 6, drawings: {}, frames: [{ ...game().frames[4], move: 2 }] };
  model.receive(reply);
  assert.equal(c.store.frames.length, 6);
  assert.equal(c.store.cursor, 5);
  assert.ok(!c.busy);
});

test("a message after a gap (the page missed one) asks for everything again", () => {
  const model = new FakeModel();
  const c = new Controller(model);
  model.receive({ ...game(), from: 3 });
  assert.equal(c.store.frames.length, 0);
  assert.deepEqual(model.sent, [{ type: "hello" }, { type: "hello" }]);
});

test("a stale why-not answer is cleared when the reader moves on", () => {
  const model = new FakeModel();
  const c = new Controller(model);
  model.receive(game());
  model.receive({ type: "why", html: "A: pass is refused", ok: false });
  assert.equal(c.why.html, "A: pass is refused");
  c.navigate("step");
  assert.equal(c.why.html, "");
});

test("the log shows the newest lines up to the frame, the frame's own marked; the chain carries over", () => {
  const s = new Frames();
  s.apply(game());
  s.goto(2);
  const log = s.logAt();
  assert.deepEqual(log.map(([, own]) => own), [false, false, true]);
  assert.match(log.at(-1)[0], /recheck/);
  assert.equal(s.chainAt(), "#1"); // frame 2 sends null: as frame 1
  assert.equal(s.logAt(4, 2).length, 2);
});

test("undo keeps the reader's machine in view instead of switching to the flow", () => {
  const s = new Frames();
  s.apply(game());
  s.goto(4);
  assert.equal(s.autoView("procedure"), "procedure");
  assert.equal(s.autoView(null), "flow");
});

test("the script's place comes from the move's decision frame", () => {
  const model = new FakeModel({ script: ["A: go", "B: pass"] });
  const c = new Controller(model);
  model.receive(game());
  assert.deepEqual(c.script(), { steps: ["A: go", "B: pass"], pos: 1, off: false, done: false });
  c.navigate("start");
  assert.equal(c.script().pos, 0);
});
