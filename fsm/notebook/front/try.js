// The site's "try it": each <div class="fsm-tryit" data-scenario=URL data-lang=ja|en ...> (made by the
// fsm-try directive, fsm/sphinx/try_it.py) gets a button; a click starts a Web Worker running the
// scenario's step-through in pyodide (worker.js) and draws the notebook's own front end (step.js)
// over a model that talks to the worker (worker_model.js).  The directive gives every word shown
// here in the page's language (data-label, data-loading-*, data-failed).
import { instance } from "@viz-js/viz";
import view, { provideViz } from "./step.js";
import { WorkerModel } from "./worker_model.js";

// The site bundles Graphviz into this page script: the step-throughs here have no kernel to ask.
let vizGiven = false;
function giveViz() {
  if (!vizGiven) provideViz(instance());
  vizGiven = true;
}

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
    else if (data.type === "ready") {
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
