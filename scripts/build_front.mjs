// Bundle the step-through's front end (fsm/notebook/front/) with @viz-js/viz into the package's
// static files, fsm/notebook/static/ (gitignored; scripts/setup.sh runs `npm ci` and this).
// `--web OUT`: instead, the site's "try it" (try.js, the page; worker.js, its Web Worker) into OUT
// (docs/site/web_assets.py runs it; the worker imports pyodide from OUT/pyodide/ at run time).
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";

const web = process.argv.indexOf("--web");
const out = web >= 0 ? process.argv[web + 1] : "fsm/notebook/static";
// step.js: the step-through; figure.js: fsm.diagram() where no `dot` runs (each an anywidget module)
const entries = web >= 0 ? ["try.js", "worker.js"] : ["step.js", "figure.js"];
mkdirSync(out, { recursive: true });
await build({
  entryPoints: entries.map((name) => `fsm/notebook/front/${name}`),
  bundle: true,
  format: "esm",
  target: "es2020",
  minify: true,
  legalComments: "eof",
  outdir: out,
});
copyFileSync("fsm/notebook/front/step.css", `${out}/step.css`);
console.log(`built ${entries.join(", ")} and step.css into ${out}`);
