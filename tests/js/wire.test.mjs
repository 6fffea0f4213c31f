// A game message's frames said as changes since the frame before (fsm/notebook/front/wire.js;
// fsm/notebook/wire.py writes them, tests/test_wire.py checks the two agree on real games).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Controller } from "../../fsm/notebook/front/controller.js";
import { decode, esc, fill, unline } from "../../fsm/notebook/front/wire.js";
import { FakeModel, game } from "./fake_model.mjs";

const PARTS = { replaying: "▶ <b>{move}</b> step {n} of {total}", chain_head: "<h>chain</h>" };

/** The page stands at move 1's decision; move 2 is played: three frames, said as changes. */
function played() {
  return {
    type: "game",
    delta: true,
    from: 5,
    cursor: 5,
    length: 8,
    drawings: {},
    clauses: {},
    frames: [
      { label: "B: <pass>", raw: "B: <pass> raw", move: 2, chain: "#2", log: ["l1"], views: { procedure: { key: "P", active: ["declared"], taken: [["idle"], "declare", ["declared"]] } } },
      { label: "B: <pass>", chain: null, log: ["l2"], views: { procedure: { key: "P", active: ["recheck"], checked: { unit_on_field: false } }, flow: null } },
      { label: "2. B: pass", decision: true, header: "<b>A decides</b>", chain: null, log: [], views: {}, auto: "flow", moves: [{ text: "A: pass" }], script: [2, false], hint: "e.g. A: pass" },
    ],
  };
}

test("a frame said as changes is whole again: the move, the views and the auto view carried on", () => {
  const have = game().frames;
  const frames = decode(played(), have, PARTS);
  assert.equal(frames.length, 8);
  assert.deepEqual(frames.slice(0, 5), have);
  const [a, b, c] = frames.slice(5);
  assert.deepEqual([a.move, b.move, c.move], [2, 2, 2]);
  assert.deepEqual([a.decision, b.decision, c.decision], [false, false, true]);
  assert.equal(a.auto, "flow"); // as the frame before (move 1's decision)
  assert.equal(c.auto, "flow");
  assert.deepEqual(a.views.flow, have[4].views.flow, "a view not sent is as before");
  assert.deepEqual(a.views.procedure, { key: "P", active: ["declared"], taken: [["idle"], "declare", ["declared"]], checked: {} });
  assert.deepEqual(b.views.procedure, { key: "P", active: ["recheck"], taken: null, checked: { unit_on_field: false } });
  assert.ok(!("flow" in b.views), "null: the view is gone");
  assert.ok(!("flow" in c.views), "and stays gone");
  assert.deepEqual([a.chain, b.chain, c.chain], ["<h>chain</h>#2", null, null]);
  assert.deepEqual(c.moves, [{ text: "A: pass" }]);
  assert.deepEqual(c.script, [2, false]);
  assert.ok(!("moves" in a));
});

test("a replay header is the template filled with the escaped label and the step of its move", () => {
  const [a, b, c] = decode(played(), game().frames, PARTS).slice(5);
  assert.equal(a.header, "▶ <b>B: &lt;pass&gt; raw</b> step 1 of 3");
  assert.equal(b.header, "▶ <b>B: &lt;pass&gt;</b> step 2 of 3");
  assert.equal(c.header, "<b>A decides</b>", "a decision's header comes whole");
  assert.equal(esc(`<a href="x">'&'</a>`), "&lt;a href=&quot;x&quot;&gt;&#x27;&amp;&#x27;&lt;/a&gt;");
});

test("a patch changes only what it says in the frame the page has; a whole message is taken as it is", () => {
  const have = game().frames;
  const frames = decode({ type: "game", delta: true, patch: true, from: 4, cursor: 4, length: 5, frames: [{ script: [2, false] }] }, have, PARTS);
  assert.deepEqual(frames[4], { ...have[4], script: [2, false] });
  assert.deepEqual(frames.slice(0, 4), have.slice(0, 4));
  assert.deepEqual(decode(game(), [], PARTS), game().frames);
});

test("the controller fills frames from its model's parts, and a patch with no frame to change asks again", () => {
  const model = new FakeModel({ parts: PARTS });
  const c = new Controller(model);
  model.receive(game());
  model.receive(played());
  assert.equal(c.store.frames.length, 8);
  assert.equal(c.store.frames[6].header, "▶ <b>B: &lt;pass&gt;</b> step 2 of 3");
  model.receive({ type: "game", delta: true, patch: true, from: 8, cursor: 8, length: 9, frames: [{ script: [3, false] }] });
  assert.deepEqual(model.sent.at(-1), { type: "hello" });
});

test("a log line crosses as its two parts in one of the parts' forms; a template's slots are filled in one pass", () => {
  const forms = ["<div class='l'>{a}: {b}</div>", "<b>{a}</b>{b}"];
  assert.equal(unline([0, "SC-7", "x resolves"], forms), "<div class='l'>SC-7: x resolves</div>");
  assert.equal(unline([1, "$& {b}", "{a} $1"], forms), "<b>$& {b}</b>{a} $1", "a value's $ and braces stay as they are");
  assert.equal(unline("<div>whole</div>", forms), "<div>whole</div>");
  assert.equal(fill("{n} of {total}, {other}", { n: 2, total: 3 }), "2 of 3, {other}");
  const msg = { ...played(), frames: [{ ...played().frames[0], log: [[0, "A", "B"], "plain"] }], length: 6 };
  assert.deepEqual(decode(msg, game().frames, { ...PARTS, log_forms: forms }).at(-1).log, ["<div class='l'>A: B</div>", "plain"]);
});

test("a view's drawing key and a button's label are left out where they are as before / the move itself", () => {
  const msg = { ...played(), frames: [{ ...played().frames[2], views: { procedure: { active: ["fizzled"] } }, moves: [{ move: "A: pass", seat: 0 }, { move: "A: x", text: "A：x", seat: 0 }] }], length: 6 };
  const f = decode(msg, game().frames, PARTS).at(-1);
  assert.deepEqual(f.views.procedure, { key: "P", active: ["fizzled"], taken: null, checked: {} });
  assert.deepEqual(f.moves, [{ text: "A: pass", move: "A: pass", seat: 0 }, { text: "A：x", move: "A: x", seat: 0 }]);
});

test("next in script shows the refusal the decision frame brought at once; the kernel's patch changes nothing more", () => {
  const model = new FakeModel({ parts: PARTS });
  const c = new Controller(model);
  const start = game();
  start.frames[4] = { ...start.frames[4], refusal: { html: "refused <b>x</b>", typed: "B: x" } };
  model.receive(start);
  c.navigate("decision");
  const seen = [];
  c.watch((what) => seen.push([what, c.why.html, c.store.frame.script]));
  c.nextInScript();
  assert.deepEqual(seen, [["frames", "refused <b>x</b>", [2, false]]], "shown before the kernel answers");
  assert.deepEqual(model.sent.at(-1), { type: "script", point: 1 });
  model.receive({ type: "game", delta: true, patch: true, from: 4, cursor: 4, length: 5, drawings: {}, clauses: {}, frames: [{ script: [2, false], refusal: null }], why: { html: "refused <b>x</b>", ok: null, typed: "B: x" } });
  assert.deepEqual([c.why.html, c.why.typed, c.store.frame.script, c.store.frame.refusal], ["refused <b>x</b>", "B: x", [2, false], null]);
  c.nextInScript(); // no refusal ahead now: only the kernel is asked
  assert.equal(seen.length, 2);
  assert.deepEqual(model.sent.at(-1), { type: "script", point: 1 });
});
