// Bundle the step-through's front end (fsm/notebook/front/) with @viz-js/viz into the package's
// static files, fsm/notebook/static/ (gitignored; scripts/setup.sh runs `npm ci` and this).
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";

const out = "fsm/notebook/static";
mkdirSync(out, { recursive: true });
await build({
  entryPoints: ["fsm/notebook/front/step.js"],
  bundle: true,
  format: "esm",
  target: "es2020",
  minify: true,
  legalComments: "eof",
  outfile: `${out}/step.js`,
});
copyFileSync("fsm/notebook/front/step.css", `${out}/step.css`);
console.log(`built ${out}/step.js and step.css`);
