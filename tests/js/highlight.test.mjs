// The highlight logic (fsm/notebook/front/highlight.js) and the zoom arithmetic (zoom.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { guardMarks, measuredDot, plan, takenEdges } from "../../fsm/notebook/front/highlight.js";
import { fitScale, panToShow, readableScale, zoomAt } from "../../fsm/notebook/front/zoom.js";

const drawing = {
  edges: [
    { ids: ["t0_0"], source: "idle", targets: ["declared"], events: ["declare"], guards: [] },
    { ids: ["t1_0"], source: "recheck", targets: ["resolved"], events: ["resolve"], guards: [{ guard: "unit_on_field", text: "[on field]" }] },
    { ids: ["t2_0", "t2_1"], source: "recheck", targets: ["fizzled", "gone"], events: ["fizzle"], guards: [{ guard: "!unit_on_field", text: "[left the field]" }] },
  ],
};

test("the edge just taken is the one with that event from a state left into a state entered", () => {
  assert.deepEqual(takenEdges(drawing, [["recheck"], "fizzle", ["fizzled"]]), ["t2_0", "t2_1"]);
  assert.deepEqual(takenEdges(drawing, [["idle"], "fizzle", ["fizzled"]]), []);
  assert.deepEqual(takenEdges(drawing, null), []);
});

test("ACT-6: a failed recheck marks its guard × in red and the fizzle reason ● that applied", () => {
  const marks = guardMarks(drawing, { unit_on_field: false });
  assert.deepEqual(marks, [
    { ids: ["t1_0"], text: "[on field]", mark: "× ", cls: "fsm-g-failed" },
    { ids: ["t2_0", "t2_1"], text: "[left the field]", mark: "● ", cls: "fsm-g-applied" },
  ]);
  const held = guardMarks(drawing, { unit_on_field: true });
  assert.deepEqual(held.map((m) => m.cls), ["fsm-g-held", "fsm-g-idle"]);
  assert.deepEqual(guardMarks(drawing, {}), []);
});

test("the plan names the current states' nodes", () => {
  const p = plan(drawing, { active: ["battle", "normal"], taken: [["idle"], "declare", ["declared"]], checked: {} });
  assert.deepEqual(p.on, ["s_battle", "s_normal"]);
  assert.deepEqual(p.taken, ["t0_0"]);
});

test("each label cell gets the width the page measures, guards with room for their mark", () => {
  const measure = (text, size, bold) => text.length * size * (bold ? 1.1 : 1);
  const dot = 'a [label=<<table><tr><td><font point-size="11"><b>待機</b></font></td></tr><tr><td>[on field]</td></tr><tr><td width="5">x</td></tr></table>>]';
  const out = measuredDot(dot, measure, 9, new Set(["[on field]"]));
  assert.match(out, /<td width="31"><font point-size="11"><b>待機<\/b>/); // ceil(2 × 11 × 1.1 × 1.08 + 4)
  assert.match(out, /<td width="\d+">\[on field\]/);
  const guardWidth = Number(out.match(/<td width="(\d+)">\[on field\]/)[1]);
  assert.ok(guardWidth > 10 * 9 + 2, "room for × ");
  assert.match(out, /<td width="5">x<\/td>/); // a cell with a width keeps it
});

test("the default zoom never draws text under 11 px; fit fits", () => {
  const box = { w: 600, h: 330 };
  const big = { w: 1800, h: 900 };
  assert.equal(fitScale(box, big), 1 / 3);
  assert.ok(readableScale(box, big, 10.67) * 10.67 >= 11);
  assert.equal(readableScale(box, { w: 300, h: 100 }, 12), 2); // a small drawing is fitted (and larger)
});

test("the pan brings the current state to the middle of the box, and leaves it be when it is in view", () => {
  const box = { w: 600, h: 330 };
  const v = { scale: 2, x: 0, y: 0 };
  const r = { x: 500, y: 300, w: 40, h: 20 }; // at scale 2: 1000..1080 × 600..640
  const moved = panToShow(v, box, r);
  const left = r.x * 2 + moved.x;
  const top = r.y * 2 + moved.y;
  assert.ok(left >= 0 && left + 80 <= 600 && top >= 0 && top + 40 <= 330, JSON.stringify(moved));
  assert.deepEqual([left + 40, top + 20], [300, 165]); // centred
  assert.deepEqual(panToShow(v, box, { x: 10, y: 10, w: 20, h: 20 }), v); // already in view: no move
});

test("the wheel zooms about the pointer", () => {
  const v = zoomAt({ scale: 1, x: 0, y: 0 }, 2, { x: 100, y: 50 });
  assert.deepEqual(v, { scale: 2, x: -100, y: -50 }); // content point (100, 50) stays under the pointer
});
