// What the step-throughs of one page share (fsm/notebook/front/page.js, layout.js, controller.js):
// Graphviz asked for once per page, each drawing laid out once, the drawings ahead laid out one at
// a time, and the asks for them made one step-through after another.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { Controller } from "../../fsm/notebook/front/controller.js";
import { layout, layoutAhead, provideViz } from "../../fsm/notebook/front/layout.js";
import { page } from "../../fsm/notebook/front/page.js";
import { FakeModel, game } from "./fake_model.mjs";

const drawing = (name) => ({ dot: `digraph ${name} {}`, edges: [], edge_size: 9 });

beforeEach(() => {
  delete globalThis[Symbol.for("fsm.step-through.page")]; // a fresh page
});

/** A Graphviz stand-in that records what it laid out. */
function countingViz() {
  const viz = { calls: [] };
  viz.renderString = (dot) => {
    viz.calls.push(dot);
    return `<svg>${dot}</svg>`;
  };
  return viz;
}

test("two step-throughs that show one machine share one layout", async () => {
  const viz = countingViz();
  provideViz(viz);
  const [a, b] = await Promise.all([layout("k", drawing("P"), null), layout("k", drawing("P"), null)]);
  assert.equal(a, "<svg>digraph P {}</svg>");
  assert.equal(b, a);
  assert.equal(viz.calls.length, 1);
});

test("the page asks one kernel for Graphviz, whichever step-throughs want a layout", () => {
  const asked = [0, 0];
  const never = (i) => () => {
    asked[i] += 1;
    return new Promise(() => {}); // still on its way
  };
  layout("k1", drawing("A"), never(0));
  layout("k2", drawing("B"), never(1));
  layout("k1", drawing("A"), never(1));
  assert.deepEqual(asked, [1, 0]);
});

test("a failed ask for Graphviz is asked again by the next layout", async () => {
  let asks = 0;
  const failing = () => {
    asks += 1;
    return Promise.reject(new Error("the kernel is gone"));
  };
  await assert.rejects(layout("k", drawing("A"), failing), /gone/);
  await assert.rejects(layout("k", drawing("A"), failing), /gone/);
  assert.equal(asks, 2);
});

test("drawings ahead are laid out at idle, each once, the ones the page has skipped", async () => {
  const viz = countingViz();
  provideViz(viz);
  const p = page();
  for (const k of ["a", "b", "c"]) p.drawings.set(k, drawing(k));
  await layout("b", drawing("b"), null);
  await layoutAhead(["a", "b", "c", "unknown"], null);
  assert.deepEqual(viz.calls, ["digraph b {}", "digraph a {}", "digraph c {}"]);
  assert.deepEqual([...p.svgs.keys()].sort(), ["a", "b", "c"]);
  assert.deepEqual([...p.laid].sort(), ["a", "b", "c"]);
  await layoutAhead(["a", "c"], null);
  assert.equal(viz.calls.length, 3);
});

test("a layout ahead never queues before another: one at a time", async () => {
  let running = 0;
  let most = 0;
  provideViz({ renderString: (dot) => dot });
  const p = page();
  // a slow layouter in place of the provided one: count how many run at once
  p.layouter = Promise.resolve({
    render: async (dot) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5));
      running -= 1;
      return dot;
    },
  });
  for (const k of ["a", "b", "c", "d"]) p.drawings.set(k, drawing(k));
  await layoutAhead(["a", "b", "c", "d"], null);
  assert.equal(most, 1);
  assert.equal(p.svgs.size, 4);
});

test("the kernel's Graphviz comes as a binary buffer beside a viz message", async () => {
  const model = new FakeModel();
  const c = new Controller(model);
  const code = c.vizCode();
  assert.deepEqual(model.sent.at(-1), { type: "viz" });
  const buffer = new TextEncoder().encode("export const instance = 1;");
  model.receive({ type: "viz" }, [buffer]);
  assert.equal(await code, buffer);
});

test("each step-through asks for drawings ahead after the one before has its answer, saying what the page has", async () => {
  const one = new FakeModel();
  const two = new FakeModel();
  const a = new Controller(one);
  const b = new Controller(two);
  one.receive(game());
  two.receive({ ...game(), drawings: { Q: drawing("Q") } });
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(one.sent.at(-1), { type: "ahead", have: ["P", "Q"], clauses: ["ACT-6"] });
  assert.ok(!two.sent.some((m) => m.type === "ahead"), "the second waits for the first's answer");
  one.receive({ type: "ahead", drawings: { F: drawing("F") } });
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(two.sent.at(-1), { type: "ahead", have: ["P", "Q", "F"], clauses: ["ACT-6"] });
  assert.deepEqual(Object.keys(a.ahead), ["F"]);
  assert.equal(b.ahead && Object.keys(b.ahead).length, 0);
  assert.ok(page().drawings.has("F"));
  assert.equal(page().clauses["ACT-6"], "recheck"); // a tooltip any step-through of the page was sent
  // a frame that shows a drawing sent ahead comes without it: the controller finds it all the same
  one.receive({ ...game(), from: 0, drawings: {} });
  assert.equal(a.store.drawings.F, undefined);
  assert.deepEqual(a.drawing("F"), drawing("F"));
  assert.deepEqual(b.drawing("F"), drawing("F"), "sent ahead to another step-through of the page");
  assert.deepEqual(a.drawing("P"), game().drawings.P);
});
