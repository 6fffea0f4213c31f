// The site's "try it": each <div class="fsm-tryit" data-scenario=URL data-lang=ja|en ...> (made by the
// fsm-try directive, fsm/sphinx/try_it.py) gets a button; a click starts a Web Worker running the
// scenario's step-through in pyodide (worker.js) and draws the notebook's own front end (step.js)
// over a model that talks to the worker (worker_model.js).  The directive gives every word shown
// here in the page's language (data-label, data-loading-*, data-failed).  Once ready the box says how
// Python started (data-boot: "fresh", or "snapshot" when restored from an earlier visit's; snapshot.js)
// and, after a fresh start, whether it stored a snapshot for the next visit (data-snapshot).
import view, { provideVizAt } from "./step.js";
import { WorkerModel } from "./worker_model.js";

// Graphviz (viz.js, beside this script) starts in a Worker of its own once Python is ready: the
// step-throughs here have no kernel to ask, and compiling it must not slow pyodide's start.
const giveViz = () => provideVizAt(new URL("./viz.js", import.meta.url).href);

export function statusText(el, stage) {
  return el.dataset[`loading${stage[0].toUpperCase()}${stage.slice(1)}`] || el.dataset.loadingRuntime || stage;
}

/** Start one "try it"; `makeWorker` is injectable so the page logic runs under node too. */
export function start(el, makeWorker) {
  const status = el.querySelector(".fsm-tryit-status");
  const show = (state, text) => {
    el.dataset.state = state;
    status.textContent = text;
  };
  show("loading", statusText(el, "runtime"));
  const worker = makeWorker();
  let model = null;
  const failed = (message) => show("failed", `${el.dataset.failed || "error"}: ${message}`);
  worker.addEventListener("error", (ev) => failed(ev.message || "worker.js"));
  worker.addEventListener("message", (ev) => {
    const data = ev.data;
    if (data.type === "status") show("loading", statusText(el, data.stage));
    else if (data.type === "failed") failed(data.message);
    else if (data.type === "snapshot") el.dataset.snapshot = data.state; // stored for the next visit, or not
    else if (data.type === "ready") {
      el.dataset.boot = data.boot || ""; // "snapshot": restored from an earlier visit's
      model = new WorkerModel(worker, data.traits);
      show("ready", "");
      const box = el.querySelector(".fsm-tryit-view");
      giveViz();
      view.render({ model, el: box });
    } else model?.deliver(data);
  });
  worker.postMessage({ type: "start", scenario: el.dataset.scenario, lang: el.dataset.lang });
  return worker;
}

function wire(doc) {
  for (const el of doc.querySelectorAll(".fsm-tryit[data-scenario]")) {
    const button = el.querySelector(".fsm-tryit-start");
    button.addEventListener("click", () => {
      button.disabled = true;
      button.hidden = true;
      start(el, () => new Worker(new URL("./worker.js", import.meta.url), { type: "module" }));
    });
  }
}

if (typeof document !== "undefined") wire(document);
