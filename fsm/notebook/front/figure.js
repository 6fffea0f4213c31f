// A machine's diagram laid out in the page: what fsm.diagram() shows where no `dot` runs (JupyterLite,
// or a machine without Graphviz).  The kernel sends the DOT of the static diagram; Graphviz in
// WebAssembly (layout.js, the step-through's) draws it once per page.  A page with no Graphviz yet
// asks this widget's kernel for the module, as a step-through does.
import { layout } from "./layout.js";

/** Ask the kernel for Graphviz's module code (a binary buffer in a `viz` message). */
export function askKernel(model) {
  return () =>
    new Promise((resolve, reject) => {
      const onMsg = (msg, buffers) => {
        if (msg?.type !== "viz") return;
        model.off?.("msg:custom", onMsg);
        if (buffers?.[0]) resolve(buffers[0]);
        else reject(new Error(msg.error || "no Graphviz module"));
      };
      model.on("msg:custom", onMsg);
      model.send({ type: "viz" });
    });
}

/** Draw the model's DOT into `el`; `lay` is the layout (injected by the tests). */
export async function renderFigure({ model, el }, lay = layout) {
  const drawing = { dot: model.get("dot"), edges: [], edge_size: model.get("edge_size") };
  try {
    el.innerHTML = await lay(model.get("key"), drawing, askKernel(model));
  } catch (err) {
    // a message, never a blank cell
    el.textContent = `${model.get("failed")}: ${err && err.message ? err.message : err}`;
  }
}

export default { render: (view) => renderFigure(view) };
