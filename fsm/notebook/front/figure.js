// A machine's diagram laid out in the page: what fsm.diagram() shows where no `dot` runs (JupyterLite,
// or a machine without Graphviz).  The kernel sends the DOT of the static diagram; Graphviz in
// WebAssembly (diagram.js's layout, the step-through's) draws it once per page.
import { layout } from "./diagram.js";

/** Draw the model's DOT into `el`; `lay` is the layout (injected by the tests). */
export async function renderFigure({ model, el }, lay = layout) {
  const drawing = { dot: model.get("dot"), edges: [], edge_size: model.get("edge_size") };
  try {
    el.innerHTML = await lay(model.get("key"), drawing);
  } catch (err) {
    // a message, never a blank cell
    el.textContent = `${model.get("failed")}: ${err && err.message ? err.message : err}`;
  }
}

export default { render: (view) => renderFigure(view) };
