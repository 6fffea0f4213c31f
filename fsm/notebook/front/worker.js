// The Web Worker of the site's "try it": pyodide from the site's own pyodide/, the wheels listed in
// wheels/index.json unpacked into site-packages, then a step-through of one scenario
// (fsm/notebook/web.py).  The page never waits on Python: every request is a message.
// Protocol: worker_model.js.  Nothing is fetched from anywhere but the folder this file is in.

/** Load pyodide and install the wheels; `base` is the URL of the folder holding pyodide/ and wheels/. */
export async function loadRuntime(base, fetchBytes, say) {
  say("runtime");
  // the wheels download while the interpreter starts
  const wheels = fetchBytes(`${base}wheels/index.json`).then((bytes) => {
    const { wheels: names } = JSON.parse(new TextDecoder().decode(bytes));
    return Promise.all(names.map((name) => fetchBytes(`${base}wheels/${name}`)));
  });
  wheels.catch(() => {}); // awaited below; a failure is reported there, once
  const { loadPyodide } = await import(`${base}pyodide/pyodide.mjs`);
  const py = await loadPyodide({ indexURL: `${base}pyodide/` });
  say("wheels");
  const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  for (const bytes of await wheels) py.unpackArchive(bytes, "wheel", { extractDir: site });
  py.runPython("import importlib; importlib.invalidate_caches()");
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
        const py = await runtime();
        post({ type: "status", stage: "scenario" });
        const name = data.scenario.split("/").pop();
        py.FS.mkdirTree("/scenarios");
        py.FS.writeFile(`/scenarios/${name}`, await fetch(data.scenario));
        web = py.pyimport("fsm.notebook.web");
        let started = false; // what the step-through says while it opens: the page's hello asks again
        const traits = JSON.parse(web.start(`/scenarios/${name}`, lang, (text) => started && post({ type: "msg", text })));
        started = true;
        if (traits.error) return post({ type: "failed", message: traits.error });
        post({ type: "ready", traits });
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
  const runtime = () => (loading ||= loadRuntime(base, fetchBytes, (stage) => post({ type: "status", stage })));
  const onMessage = serve(post, runtime);
  // one message at a time, in order: a request must not overtake the start it depends on
  let queue = Promise.resolve();
  self.onmessage = (ev) => (queue = queue.then(() => onMessage(ev.data)));
}
