// Each drawing laid out once per page, by Graphviz in WebAssembly, off the click's path.
// The Graphviz module (static/viz.js, ~1.5 MB) is not in each widget's ES module: the first
// step-through of the page asks its kernel for it (`fetchCode`, controller.js) and every other
// one waits on that.  It runs as a module Worker where the page allows one (else on the page's
// thread).  Drawings the page may show later are laid out at idle, one at a time, so a layout a
// click needs waits behind at most one of them.
import { measuredDot } from "./highlight.js";
import { page } from "./page.js";

const WORKER_START_MS = 10000;
let canvas = null;

function measure(text, size, bold) {
  canvas ??= document.createElement("canvas");
  const ctx = canvas.getContext("2d");
  ctx.font = `${bold ? "bold " : ""}${size}px IPAexGothic, sans-serif`;
  return ctx.measureText(text).width;
}

function onThisThread(viz) {
  return { render: async (dot) => viz.renderString(dot, { format: "svg" }) };
}

function inWorker(url) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, { type: "module" });
    const waiting = new Map();
    let next = 0;
    const fail = (err) => {
      worker.terminate();
      reject(err);
      for (const w of waiting.values()) w.reject(err);
      waiting.clear();
    };
    const timer = setTimeout(() => fail(new Error("the Graphviz worker did not start")), WORKER_START_MS);
    worker.onerror = (ev) => fail(ev.error || new Error(ev.message || "the Graphviz worker failed"));
    worker.onmessage = ({ data }) => {
      const w = waiting.get(data.id);
      waiting.delete(data.id);
      if (data.error) w?.reject(new Error(data.error));
      else w?.resolve(data.svg);
    };
    const render = (dot) =>
      new Promise((ok, no) => {
        const id = next++;
        waiting.set(id, { resolve: ok, reject: no });
        worker.postMessage({ id, dot });
      });
    render("digraph {}").then(() => {
      clearTimeout(timer);
      resolve({ render });
    }, fail);
  });
}

async function fromUrl(url) {
  try {
    const worker = await inWorker(url);
    page().thread = "worker";
    return worker;
  } catch {
    const mod = await import(/* webpackIgnore: true */ url);
    page().thread = "page"; // no module Worker here (a strict content policy): the page's own thread
    return onThisThread(await mod.instance());
  }
}

const fromCode = (code) => fromUrl(URL.createObjectURL(new Blob([code], { type: "text/javascript" })));

/** A host with Graphviz of its own (e.g. `instance()` of @viz-js/viz, bundled) hands it over here;
 * then no step-through of the page asks a kernel for it. */
export function provideViz(viz) {
  page().layouter = Promise.resolve(viz).then(onThisThread);
}

/** A host that serves the Graphviz module (static/viz.js) at `url` hands it over here: it starts
 * in a Worker of its own, so compiling it never holds up the page or the host's other workers. */
export function provideVizAt(url) {
  const p = page();
  if (!p.layouter) {
    p.layouter = fromUrl(url);
    p.layouter.catch(() => (p.layouter = null));
  }
  return p.layouter;
}

function layouter(fetchCode) {
  const p = page();
  if (!p.layouter) {
    p.layouter = fetchCode().then(fromCode);
    p.layouter.catch(() => (p.layouter = null)); // the next step-through asks again
  }
  return p.layouter;
}

/** The SVG text of a drawing, laid out the first time any step-through of the page asks. */
export function layout(key, drawing, fetchCode) {
  const p = page();
  if (!p.svgs.has(key)) {
    const guards = new Set(drawing.edges.flatMap((e) => e.guards.map((g) => g.text)));
    const job = layouter(fetchCode).then((l) => l.render(measuredDot(drawing.dot, measure, drawing.edge_size, guards)));
    p.svgs.set(key, job);
    job.then(
      (svg) => {
        p.laid.add(key);
        (p.texts ??= new Map()).set(key, svg); // for a diagram to parse ahead (Diagram.prepare)
      },
      () => p.svgs.delete(key), // shown as a message where it was asked; a later ask tries again
    );
  }
  return p.svgs.get(key);
}

const idle = (fn) => (globalThis.requestIdleCallback ? globalThis.requestIdleCallback(fn, { timeout: 1000 }) : setTimeout(fn, 20));

/** Lay out, at idle and one at a time, the drawings of `keys` (from page().drawings) not laid out yet.
 * Resolves when the page has no more waiting. */
export function layoutAhead(keys, fetchCode) {
  const p = page();
  for (const key of keys) if (!p.svgs.has(key) && !p.pending.includes(key) && p.drawings.has(key)) p.pending.push(key);
  pump(fetchCode);
  return p.idle ?? Promise.resolve();
}

function pump(fetchCode) {
  const p = page();
  if (p.pumping) return;
  if (!p.pending.length) {
    p.settle?.();
    p.idle = p.settle = null;
    return;
  }
  p.idle ??= new Promise((resolve) => (p.settle = resolve));
  p.pumping = true;
  idle(async () => {
    const key = p.pending.shift();
    try {
      if (!p.svgs.has(key)) await layout(key, p.drawings.get(key), fetchCode);
    } catch {
      // its own show says what went wrong
    }
    p.pumping = false;
    pump(fetchCode);
  });
}
