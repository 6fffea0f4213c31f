// What every step-through of one page shares.  anywidget loads each widget's ES module on its
// own (a module instance per widget), so page-wide state lives on globalThis under one key:
// Graphviz (asked for once per page), each drawing's layout, and the queue that asks the
// kernels for drawings ahead one step-through at a time.  No DOM here.

const KEY = Symbol.for("fsm.step-through.page");

/** The page's shared state (made by the first step-through module that asks). */
export function page() {
  globalThis[KEY] ??= {
    layouter: null, // Promise of {render(dot) -> Promise<svg text>}
    thread: "", // where it runs: "worker", or "page" where no module Worker may start
    svgs: new Map(), // drawing key -> Promise of its SVG text
    laid: new Set(), // drawing keys whose layout is done
    texts: new Map(), // drawing key -> its SVG text, once laid out
    waits: 0, // diagrams shown that had to wait for their layout (benchmarks/bench_browser.py counts them per click)
    drawings: new Map(), // drawing key -> drawing, every one the page was sent
    clauses: {}, // clause ID -> its summary, every badge tooltip the page was sent (controller.js)
    ahead: Promise.resolve(), // the asks for drawings ahead, one after another
    pending: [], // drawing keys to lay out at idle, one at a time (layout.js)
    pumping: false,
    idle: null, // resolves once nothing waits to be laid out (settle)
    settle: null,
  };
  return globalThis[KEY];
}
