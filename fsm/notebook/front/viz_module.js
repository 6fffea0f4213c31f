// The heavy part of the front end (Graphviz in WebAssembly, ~1.5 MB), bundled on its own into
// fsm/notebook/static/viz.js and sent once per page (layout.js).  Imported, it gives @viz-js/viz's
// `instance`; started as a module Worker, it lays out the DOT the page posts off the page's thread,
// so a click never waits on a layout running in its way.
import { instance } from "@viz-js/viz";

export { instance };

if (typeof WorkerGlobalScope !== "undefined" && globalThis instanceof WorkerGlobalScope) {
  const viz = instance();
  globalThis.onmessage = async ({ data }) => {
    try {
      globalThis.postMessage({ id: data.id, svg: (await viz).renderString(data.dot, { format: "svg" }) });
    } catch (err) {
      globalThis.postMessage({ id: data.id, error: String(err?.message || err) });
    }
  };
}
