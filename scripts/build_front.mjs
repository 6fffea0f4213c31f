// Bundle the step-through's front end (fsm/notebook/front/) into the package's static files,
// fsm/notebook/static/ (gitignored; scripts/setup.sh runs `npm ci` and this): step.js, each
// widget's small ES module, and viz.js, Graphviz in WebAssembly (@viz-js/viz), which a page
// is sent once, whatever the number of step-throughs on it (front/layout.js).
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";

const out = "fsm/notebook/static";
mkdirSync(out, { recursive: true });
const common = { bundle: true, format: "esm", target: "es2020", minify: true, legalComments: "eof" };
await build({ ...common, entryPoints: ["fsm/notebook/front/step.js"], outfile: `${out}/step.js` });
await build({ ...common, entryPoints: ["fsm/notebook/front/viz_module.js"], outfile: `${out}/viz.js` });
copyFileSync("fsm/notebook/front/step.css", `${out}/step.css`);
console.log(`built ${out}/step.js, viz.js and step.css`);
