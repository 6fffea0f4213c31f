// Bundle the step-through's front end (fsm/notebook/front/) into the package's static files,
// fsm/notebook/static/ (gitignored; scripts/setup.sh runs `npm ci` and this): step.js, each
// widget's small ES module; figure.js, fsm.diagram() where no `dot` runs; and viz.js, Graphviz in
// WebAssembly (@viz-js/viz), which a page is sent once, whatever the number of step-throughs on it
// (front/layout.js).
// `--web OUT`: instead, the site's "try it" (try.js, the page; worker.js, its Web Worker running
// pyodide; viz.js, Graphviz, which the page starts in a Worker of its own) into OUT
// (docs/site/web_assets.py runs it; the worker imports pyodide from OUT/pyodide/ at run time).
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";

const web = process.argv.indexOf("--web");
const out = web >= 0 ? process.argv[web + 1] : "fsm/notebook/static";
const entries = web >= 0 ? ["try.js", "worker.js", "viz_module.js"] : ["step.js", "figure.js", "viz_module.js"];
mkdirSync(out, { recursive: true });
await build({
  entryPoints: entries.map((name) => ({ in: `fsm/notebook/front/${name}`, out: name === "viz_module.js" ? "viz" : name.replace(/\.js$/, "") })),
  bundle: true,
  format: "esm",
  target: "es2020",
  minify: true,
  legalComments: "eof",
  outdir: out,
});
copyFileSync("fsm/notebook/front/step.css", `${out}/step.css`);
console.log(`built ${entries.join(", ")} and step.css into ${out}`);
