// Bundle the step-through's front end (fsm/notebook/front/) with @viz-js/viz into the package's
// static files, fsm/notebook/static/ (gitignored; scripts/setup.sh runs `npm ci` and this).
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";

const out = "fsm/notebook/static";
mkdirSync(out, { recursive: true });
// step.js: the step-through; figure.js: fsm.diagram() where no `dot` runs (each an anywidget module)
await build({
  entryPoints: ["fsm/notebook/front/step.js", "fsm/notebook/front/figure.js"],
  bundle: true,
  format: "esm",
  target: "es2020",
  minify: true,
  legalComments: "eof",
  outdir: out,
});
copyFileSync("fsm/notebook/front/step.css", `${out}/step.css`);
console.log(`built ${out}/step.js, figure.js and step.css`);
