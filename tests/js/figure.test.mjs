// The diagram fallback's front end (fsm/notebook/front/figure.js): the kernel's DOT laid out once,
// a layout error shown as a message.
import assert from "node:assert/strict";
import { test } from "node:test";
import { renderFigure } from "../../fsm/notebook/front/figure.js";

const traits = { key: "k1", dot: "digraph g { a -> b }", edge_size: 9, failed: "the diagram could not be drawn" };
const model = { get: (name) => traits[name] };

test("the figure is the layout of the kernel's DOT, under the kernel's key", async () => {
  const asked = [];
  const el = { innerHTML: "", textContent: "" };
  await renderFigure({ model, el }, async (key, drawing) => {
    asked.push([key, drawing]);
    return "<svg>laid out</svg>";
  });
  assert.deepEqual(asked, [["k1", { dot: "digraph g { a -> b }", edges: [], edge_size: 9 }]]);
  assert.equal(el.innerHTML, "<svg>laid out</svg>");
});

test("a layout error becomes the message in the cell, not a blank one", async () => {
  const el = { innerHTML: "", textContent: "" };
  await renderFigure({ model, el }, async () => {
    throw new Error("syntax error in line 1");
  });
  assert.equal(el.textContent, "the diagram could not be drawn: syntax error in line 1");
  assert.equal(el.innerHTML, "");
});

test("a page with no Graphviz yet asks the figure's kernel for it, and takes the buffer it sends", async () => {
  const { FakeModel } = await import("./fake_model.mjs");
  const { askKernel } = await import("../../fsm/notebook/front/figure.js");
  const kernel = new FakeModel(traits);
  const code = askKernel(kernel)();
  assert.deepEqual(kernel.sent, [{ type: "viz" }]);
  kernel.receive({ type: "game" }); // another message is not the answer
  const buffer = new Uint8Array([1, 2, 3]);
  kernel.receive({ type: "viz" }, [buffer]);
  assert.equal(await code, buffer);
});

test("a kernel that has no Graphviz module to send is an error, shown in the cell", async () => {
  const { FakeModel } = await import("./fake_model.mjs");
  const { askKernel } = await import("../../fsm/notebook/front/figure.js");
  const kernel = new FakeModel(traits);
  const code = askKernel(kernel)();
  kernel.receive({ type: "viz", error: "static/viz.js is not built" }, []);
  await assert.rejects(code, /static\/viz.js is not built/);
});
