// The Web Worker of the site's "try it": pyodide from the site's own pyodide/, the wheels listed in
// wheels/index.json unpacked into site-packages (or all of it restored from the snapshot an earlier
// visit stored: snapshot.js), then a step-through of one scenario (fsm/notebook/web.py).  The page
// never waits on Python: every request is a message.
// Protocol: worker_model.js.  Nothing is fetched from anywhere but the folder this file is in.
import { forget, growingModule, listFiles, loadStored, packSnapshot, snapshotKey, store, unpackSnapshot, writeFiles } from "./snapshot.js";

const ENGINE = "fsm.notebook.web";

/** pyodide with the rules engine imported, as {py, boot}: `boot` is "snapshot" when restored from
 * the memory snapshot an earlier visit stored (snapshot.js), else "fresh" (then, where the browser
 * has Cache Storage, this visit stores one).  `base` is the URL of the folder holding pyodide/ and
 * wheels/.  A snapshot that does not restore is dropped and the boot starts over, fresh. */
export async function loadRuntime(base, fetchBytes, say, caches = globalThis.caches, onStored = () => {}) {
  say("runtime");
  const index = fetchBytes(`${base}wheels/index.json`).then((bytes) => JSON.parse(new TextDecoder().decode(bytes)));
  index.catch(() => {}); // awaited below; a failure is reported there, once
  const loading = import(`${base}pyodide/pyodide.mjs`);
  loading.catch(() => {});
  const { wheels: names, build, pyodide: version } = await index;
  const key = caches && build && version ? snapshotKey(base, version, build) : null;
  // the stored snapshot is read while pyodide's script loads: the warm visit waits on one, not both
  const reading = key ? loadStored(caches, key).catch(() => null) : null;
  const factory = key ? import(`${base}pyodide/pyodide.asm.mjs`) : null; // the module map keeps it for pyodide
  factory?.catch(() => {});
  const pyodide = await loading;
  const stored = await reading;
  if (stored) {
    try {
      say("restore");
      return { py: await restore(base, pyodide.loadPyodide, stored, factory), boot: "snapshot" };
    } catch (err) {
      console.warn("fsm: the stored snapshot did not restore; booting afresh", err);
      await forget(caches, key).catch(() => {});
      say("runtime");
    }
  }
  // the wheels download while the interpreter starts
  const wheels = Promise.all(names.map((name) => fetchBytes(`${base}wheels/${name}`)));
  wheels.catch(() => {});
  const py = await pyodide.loadPyodide({ indexURL: `${base}pyodide/`, _makeSnapshot: Boolean(key) });
  say("wheels");
  const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  for (const bytes of await wheels) py.unpackArchive(bytes, "wheel", { extractDir: site });
  py.runPython("import importlib; importlib.invalidate_caches()");
  py.pyimport(ENGINE); // before the snapshot: importing is what it saves
  if (key) {
    // before any scenario opens: the snapshot must hold no reference to this page's objects.
    // Storing it is the next visit's gain, never this one's failure.
    const stored = (state) => (err) => (err && console.warn("fsm: no snapshot stored", err), onStored(state));
    try {
      store(caches, key, packSnapshot(py.makeMemorySnapshot(), listFiles(py.FS, site))).then(stored("stored"), stored("failed"));
    } catch (err) {
      stored("failed")(err);
    }
  }
  return { py, boot: "fresh" };
}

async function restore(base, loadPyodide, stored, factory) {
  const { memory, files } = unpackSnapshot(stored);
  const { default: create } = await factory;
  const py = await loadPyodide({
    indexURL: `${base}pyodide/`,
    _loadSnapshot: memory,
    createPyodideModule: growingModule(create, memory.length),
    fsInit: (FS, { sitePackages }) => writeFiles(FS, sitePackages, files),
  });
  // every visit would draw the same numbers from the snapshot's state
  py.runPython("import sys\nif 'random' in sys.modules: sys.modules['random'].seed()");
  py.pyimport(ENGINE); // in the snapshot: proves it restored before the page counts on it
  return py;
}

export async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** The worker's side of the protocol; `post` sends to the page, `runtime()` gives a loaded pyodide. */
export function serve(post, runtime, fetch = fetchBytes) {
  let web = null;
  let lang = "en";
  const fail = (err) => post({ type: "failed", message: String(err?.message || err) });
  return async function onMessage(data) {
    try {
      if (data.type === "start") {
        lang = data.lang;
        const { py, boot } = await runtime();
        post({ type: "status", stage: "scenario" });
        const name = data.scenario.split("/").pop();
        py.FS.mkdirTree("/scenarios");
        py.FS.writeFile(`/scenarios/${name}`, await fetch(data.scenario));
        web = py.pyimport(ENGINE);
        let started = false; // what the step-through says while it opens: the page's hello asks again
        const traits = JSON.parse(web.start(`/scenarios/${name}`, lang, (text) => started && post({ type: "msg", text })));
        started = true;
        if (traits.error) return post({ type: "failed", message: traits.error });
        post({ type: "ready", traits, boot });
      } else if (data.type === "request") {
        if (!web) return post({ type: "failed", message: "the step-through has not started" });
        web.receive(data.text, lang);
      }
    } catch (err) {
      fail(err);
    }
  };
}

if (typeof WorkerGlobalScope !== "undefined" && self instanceof WorkerGlobalScope) {
  const base = new URL("./", self.location.href).href;
  const post = (msg) => self.postMessage(msg);
  let loading = null; // one runtime per worker
  const say = (stage) => post({ type: "status", stage });
  const stored = (state) => post({ type: "snapshot", state });
  const runtime = () => (loading ||= loadRuntime(base, fetchBytes, say, globalThis.caches, stored));
  const onMessage = serve(post, runtime);
  // one message at a time, in order: a request must not overtake the start it depends on
  let queue = Promise.resolve();
  self.onmessage = (ev) => (queue = queue.then(() => onMessage(ev.data)));
}
