// Where the states' boxes lie on a laid-out drawing (fsm/notebook/front/geometry.js), read from
// Graphviz's SVG text once, so that following the current state asks the browser for no layout.
import assert from "node:assert/strict";
import { test } from "node:test";
import { boxes, currentBox, points, transformOf } from "../../fsm/notebook/front/geometry.js";

// Graphviz 16's SVG of: a cluster s_battle holding a rounded box s_q and an ellipse s_r; a box s_p
const SVG = `<svg width="166pt" height="137pt" viewBox="0.00 0.00 166.00 137.00" xmlns="http://www.w3.org/2000/svg">
<g id="graph0" class="graph" transform="scale(1 1) rotate(0) translate(4 132.8)">
<title>g</title>
<polygon fill="white" stroke="none" points="-4,4 -4,-132.8 162,-132.8 162,4 -4,4"/>
<g id="s_battle" class="cluster">
<title>cluster_b</title>
<polygon fill="none" stroke="black" points="8,-8 8,-84.8 150,-84.8 150,-8 8,-8"/>
<text xml:space="preserve" text-anchor="middle" x="79" y="-68.2" font-family="Times,serif" font-size="14.00">battle</text>
</g>
<g id="s_q" class="node">
<title>q</title>
<path fill="lightgrey" stroke="black" d="M58,-52C58,-52 28,-52 28,-52 22,-52 16,-46 16,-40 16,-40 16,-28 16,-28 16,-22 22,-16 28,-16 28,-16 58,-16 58,-16 64,-16 70,-22 70,-28 70,-28 70,-40 70,-40 70,-46 64,-52 58,-52"/>
<text xml:space="preserve" text-anchor="middle" x="43" y="-29.8" font-family="Times,serif" font-size="14.00">q</text>
</g>
<g id="s_r" class="node">
<title>r</title>
<ellipse fill="none" stroke="black" cx="115" cy="-34" rx="27" ry="18"/>
<text xml:space="preserve" text-anchor="middle" x="115" y="-29.8" font-family="Times,serif" font-size="14.00">r</text>
</g>
<g id="s_p" class="node">
<title>p</title>
<polygon fill="none" stroke="black" points="70,-128.8 16,-128.8 16,-92.8 70,-92.8 70,-128.8"/>
<text xml:space="preserve" text-anchor="middle" x="43" y="-106.6" font-family="Times,serif" font-size="14.00">p</text>
</g>
<g id="t0_0" class="edge">
<title>p&#45;&gt;q</title>
<path fill="none" stroke="black" d="M43,-92.45C43,-83.86 43,-73.27 43,-63.52"/>
</g>
</g>
</svg>`;

const near = (a, b) => Object.keys(b).forEach((k) => assert.ok(Math.abs(a[k] - b[k]) < 1e-6, `${k}: ${a[k]} vs ${b[k]}`));

test("the graph's transform and a shape's points are read from the SVG text", () => {
  assert.deepEqual(transformOf(SVG), [1, 1, 4, 132.8]);
  assert.deepEqual(transformOf('<g id="graph0" class="graph" transform="scale(0.5 0.5) rotate(0) translate(2 10)">'), [0.5, 0.5, 2, 10]);
  assert.deepEqual(points('<ellipse fill="none" cx="10" cy="-5" rx="3" ry="2"/>'), [[7, -7], [13, -3]]);
  assert.deepEqual(points('<polygon points="1,2 3,-4.5"/>'), [[1, 2], [3, -4.5]]);
});

test("each node and cluster has its box in the drawn pixels (4/3 a point, the graph's translate added)", () => {
  const all = boxes(SVG);
  assert.deepEqual([...all.keys()], ["s_battle", "s_q", "s_r", "s_p"], "edges have no box");
  near(all.get("s_p"), { x: (16 + 4) * 4 / 3, y: (-128.8 + 132.8) * 4 / 3, w: 54 * 4 / 3, h: 36 * 4 / 3 });
  near(all.get("s_r"), { x: (88 + 4) * 4 / 3, y: (-52 + 132.8) * 4 / 3, w: 54 * 4 / 3, h: 36 * 4 / 3 });
  near(all.get("s_battle"), { x: 12 * 4 / 3, y: 48 * 4 / 3, w: 142 * 4 / 3, h: 76.8 * 4 / 3 });
  near(boxes(SVG, 1).get("s_q"), { x: 20, y: 80.8, w: 54, h: 36 });
});

test("the box followed is the innermost current state: a node before its cluster, else the deepest cluster", () => {
  const all = boxes(SVG, 1);
  near(currentBox(all, ["s_battle", "s_q"]), { x: 20, y: 80.8, w: 54, h: 36 });
  near(currentBox(all, ["s_q", "s_battle"]), { x: 20, y: 80.8, w: 54, h: 36 });
  near(currentBox(all, ["s_battle"]), { x: 12, y: 48, w: 142, h: 76.8 });
  assert.equal(currentBox(all, ["s_gone"]), null);
  assert.equal(currentBox(all, []), null);
});
