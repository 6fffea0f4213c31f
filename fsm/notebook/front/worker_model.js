// anywidget's model interface (get / set / on / off / save_changes / send) over a Web Worker's
// messages, so the page runs the notebook's own front end (controller.js, step.js) with Python in
// the worker (worker.js) instead of a Jupyter kernel.  The page and the worker speak:
//   page → worker  {type: "start", scenario: URL, lang}  then  {type: "request", text: JSON}
//   worker → page  {type: "status", stage}  {type: "ready", traits}  {type: "failed", message}
//                  {type: "msg", text: JSON}   (a step-through message, as the kernel sends it)
export class WorkerModel {
  constructor(port, traits = {}) {
    this.port = port;
    this.traits = { ...traits };
    this.handlers = new Map();
  }

  get(key) {
    return this.traits[key];
  }

  set(key, value) {
    this.traits[key] = value;
    this.emit(`change:${key}`, value);
  }

  save_changes() {} // nothing syncs back: the worker's step-through keeps its own state

  on(name, fn) {
    if (!this.handlers.has(name)) this.handlers.set(name, new Set());
    this.handlers.get(name).add(fn);
  }

  off(name, fn) {
    if (fn) this.handlers.get(name)?.delete(fn);
    else this.handlers.delete(name);
  }

  emit(name, ...args) {
    for (const fn of this.handlers.get(name) || []) fn(...args);
  }

  /** The page asks the step-through (what anywidget's model.send does for a kernel). */
  send(content) {
    this.port.postMessage({ type: "request", text: JSON.stringify(content) });
  }

  /** A message from the worker: a step-through message goes to the front end as `msg:custom`. */
  deliver(data) {
    if (data?.type === "msg") this.emit("msg:custom", JSON.parse(data.text), []);
  }
}
