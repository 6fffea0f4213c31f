// Where each state's box lies on a laid-out drawing, read once from Graphviz's SVG text, so that
// keeping the current state in view (diagram.js) never asks the browser for a layout on a click.
// Pure text and arithmetic: no DOM.
//
// Graphviz writes every node and cluster as a flat <g id=… class="node|cluster"> under the graph's
// <g transform="scale(s s) rotate(0) translate(tx ty)">, its shape in points (polygon, path, ellipse)
// and its text anchors; the page draws the SVG at 4/3 px a point (diagram.js).

const GROUP = /<g id="([^"]+)" class="(node|cluster)">([\s\S]*?)<\/g>/g;
const GRAPH = /<g id="graph0" class="graph" transform="([^"]*)"/;
const NUMBER = /-?\d*\.?\d+(?:e-?\d+)?/gi;

function numbers(text) {
  return (text.match(NUMBER) || []).map(Number);
}

/** The graph's transform: [scale x, scale y, translate x, translate y]. */
export function transformOf(svgText) {
  const t = (svgText.match(GRAPH) || [])[1] || "";
  const scale = numbers((t.match(/scale\(([^)]*)\)/) || [])[1] || "1 1");
  const move = numbers((t.match(/translate\(([^)]*)\)/) || [])[1] || "0 0");
  return [scale[0] ?? 1, scale[1] ?? scale[0] ?? 1, move[0] ?? 0, move[1] ?? 0];
}

/** The points (in the graph's own units) a group's shapes and text anchors go through. */
export function points(body) {
  const out = [];
  const pairs = (list) => {
    for (let i = 0; i + 1 < list.length; i += 2) out.push([list[i], list[i + 1]]);
  };
  for (const m of body.matchAll(/<polygon[^>]*\spoints="([^"]*)"/g)) pairs(numbers(m[1]));
  for (const m of body.matchAll(/<path[^>]*\sd="([^"]*)"/g)) pairs(numbers(m[1]));
  for (const m of body.matchAll(/<ellipse([^>]*)>/g)) {
    const at = (name) => Number((m[1].match(new RegExp(`\\s${name}="([^"]*)"`)) || [])[1] || 0);
    const [cx, cy, rx, ry] = ["cx", "cy", "rx", "ry"].map(at);
    out.push([cx - rx, cy - ry], [cx + rx, cy + ry]);
  }
  for (const m of body.matchAll(/<text[^>]*\sx="([^"]*)"[^>]*\sy="([^"]*)"/g)) out.push([Number(m[1]), Number(m[2])]);
  return out;
}

/** Every node's and cluster's box in the drawn SVG's pixels ({x, y, w, h}, `kind`, document `order`),
 * by its id; `k`: pixels a point. */
export function boxes(svgText, k = 4 / 3) {
  const [sx, sy, tx, ty] = transformOf(svgText);
  const out = new Map();
  let order = 0;
  for (const m of svgText.matchAll(GROUP)) {
    const pts = points(m[3]);
    if (!pts.length) continue;
    const xs = pts.map(([x]) => (x + tx) * sx * k);
    const ys = pts.map(([, y]) => (y + ty) * sy * k);
    const x = Math.min(...xs);
    const y = Math.min(...ys);
    out.set(m[1], { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y, kind: m[2], order: order++ });
  }
  return out;
}

/** The box to keep in view among the current states `ids`: the first state drawn as a node (the
 * innermost), else the last cluster drawn (the deepest compound state); null if none is drawn. */
export function currentBox(all, ids) {
  const found = ids.map((id) => all.get(id)).filter(Boolean).sort((a, b) => a.order - b.order);
  const box = found.find((b) => b.kind === "node") || found[found.length - 1];
  return box ? { x: box.x, y: box.y, w: box.w, h: box.h } : null;
}
