// The browser edition's two halves without a browser: the page's model over worker messages
// (worker_model.js) driving the real Controller, and the worker's protocol (worker.js) over a fake
// pyodide whose fsm.notebook.web answers like the Python one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { WorkerModel } from "../../fsm/notebook/front/worker_model.js";
import { serve } from "../../fsm/notebook/front/worker.js";
import { Controller } from "../../fsm/notebook/front/controller.js";
import { game } from "./fake_model.mjs";

class Port {
  constructor() {
    this.posted = [];
  }
  postMessage(msg) {
    this.posted.push(msg);
  }
}

test("the model sends each request as JSON text and gives the worker's messages to msg:custom", () => {
  const port = new Port();
  const model = new WorkerModel(port, { words: { step: "1段進む" }, script: ["A: pass"] });
  assert.equal(model.get("words").step, "1段進む");
  const seen = [];
  model.on("msg:custom", (content) => seen.push(content));
  model.send({ type: "play", point: 0, move: "A: pass" });
  assert.deepEqual(port.posted, [{ type: "request", text: '{"type":"play","point":0,"move":"A: pass"}' }]);
  model.deliver({ type: "msg", text: '{"type":"why","html":"x","ok":false}' });
  model.deliver({ type: "status", stage: "runtime" }); // not a step-through message: not delivered
  assert.deepEqual(seen, [{ type: "why", html: "x", ok: false }]);
});

test("set fires change:KEY, off removes a handler, save_changes sends nothing", () => {
  const port = new Port();
  const model = new WorkerModel(port);
  const changes = [];
  const fn = (v) => changes.push(v);
  model.on("change:title", fn);
  model.set("title", "a");
  model.off("change:title", fn);
  model.set("title", "b");
  model.save_changes();
  assert.deepEqual(changes, ["a"]);
  assert.equal(model.get("title"), "b");
  assert.equal(port.posted.length, 0);
});

test("the notebook's controller runs unchanged on the worker model: hello, frames, a move", () => {
  const port = new Port();
  const model = new WorkerModel(port, { words: {}, script: [] });
  const c = new Controller(model);
  assert.deepEqual(JSON.parse(port.posted[0].text), { type: "hello" }); // the page asks for the game
  model.deliver({ type: "msg", text: JSON.stringify(game()) });
  assert.equal(c.ready, true);
  c.play("A: pass");
  assert.deepEqual(JSON.parse(port.posted.at(-1).text), { type: "play", point: c.store.point, move: "A: pass" });
  assert.equal(c.busy, true);
  model.deliver({ type: "msg", text: JSON.stringify({ type: "why", html: "refused", ok: false }) });
  assert.equal(c.busy, false);
  assert.equal(c.why.html, "refused");
});

/** A pyodide stand-in: a file system and an fsm.notebook.web whose start/receive are given. */
function fakePyodide(web) {
  const files = new Map();
  return {
    files,
    FS: { mkdirTree() {}, writeFile: (path, bytes) => files.set(path, bytes) },
    pyimport: (name) => (assert.equal(name, "fsm.notebook.web"), web),
  };
}

test("start writes the scenario into the worker's files and posts ready with the traits", async () => {
  const posted = [];
  const calls = [];
  const web = {
    start(path, lang, sink) {
      calls.push([path, lang]);
      sink('{"type":"game"}'); // said while opening: dropped, the page's hello asks again
      return JSON.stringify({ words: { why: "なぜ不可?" }, title: "t", script: [] });
    },
    receive(text, lang) {
      calls.push([text, lang]);
    },
  };
  const py = fakePyodide(web);
  const runtime = async () => ({ py, boot: "snapshot" });
  const onMessage = serve((m) => posted.push(m), runtime, async (url) => new TextEncoder().encode(`yaml of ${url}`));
  await onMessage({ type: "start", scenario: "../web/scenarios/x.yaml", lang: "ja" });
  assert.deepEqual(calls[0], ["/scenarios/x.yaml", "ja"]);
  assert.equal(new TextDecoder().decode(py.files.get("/scenarios/x.yaml")), "yaml of ../web/scenarios/x.yaml");
  assert.deepEqual(posted.map((m) => m.type), ["status", "ready"]);
  assert.equal(posted[1].traits.words.why, "なぜ不可?");
  assert.equal(posted[1].boot, "snapshot"); // how Python started, for the page to say
  await onMessage({ type: "request", text: '{"type":"hello"}' });
  assert.deepEqual(calls[1], ['{"type":"hello"}', "ja"]);
});

test("a scenario that does not open, a failed download and a request before start are messages", async () => {
  const posted = [];
  const web = { start: () => JSON.stringify({ error: "x.yaml:3: not valid YAML" }), receive() {} };
  let onMessage = serve((m) => posted.push(m), async () => ({ py: fakePyodide(web), boot: "fresh" }), async () => new Uint8Array());
  await onMessage({ type: "request", text: "{}" });
  await onMessage({ type: "start", scenario: "x.yaml", lang: "en" });
  assert.deepEqual(posted.filter((m) => m.type === "failed").map((m) => m.message), [
    "the step-through has not started",
    "x.yaml:3: not valid YAML",
  ]);
  posted.length = 0;
  onMessage = serve((m) => posted.push(m), async () => {
    throw new Error("pyodide/pyodide.mjs: HTTP 404");
  });
  await onMessage({ type: "start", scenario: "x.yaml", lang: "en" });
  assert.deepEqual(posted, [{ type: "failed", message: "pyodide/pyodide.mjs: HTTP 404" }]);
});
