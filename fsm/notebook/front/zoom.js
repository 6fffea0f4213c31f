// Zoom and pan of a diagram box: pure arithmetic on sizes in CSS pixels.
// A view is {scale, x, y}: content point p is drawn at (p * scale + x, p * scale + y) in the box.

export const READABLE_PX = 11; // the smallest text the default zoom draws

/** The scale that fits content {w, h} into box {w, h}. */
export function fitScale(box, content) {
  return Math.min(box.w / content.w, box.h / content.h);
}

/** The default zoom: fit the box, but never so small that text of `minFont` (content units) is under 11 px. */
export function readableScale(box, content, minFont) {
  return Math.max(fitScale(box, content), (READABLE_PX / minFont) * 1.01); // 1 %: no rounding below 11 px
}

/** The view that shows rectangle r (content units): unchanged if r is already in the box (with a
 * margin), else moved so that r is in the middle, with what surrounds it in view too. */
export function panToShow(view, box, r, margin = 12) {
  const a = { x: r.x * view.scale + view.x, y: r.y * view.scale + view.y };
  const size = { x: r.w * view.scale, y: r.h * view.scale };
  const out = { ...view };
  for (const [axis, extent] of [["x", "w"], ["y", "h"]]) {
    const inside = a[axis] >= margin && a[axis] + size[axis] <= box[extent] - margin;
    if (!inside) out[axis] = view[axis] + box[extent] / 2 - (a[axis] + size[axis] / 2);
  }
  return out;
}

/** Zoom to `scale`, keeping the content point under box point `at` {x, y} where it is. */
export function zoomAt(view, scale, at) {
  const k = scale / view.scale;
  return { scale, x: at.x - (at.x - view.x) * k, y: at.y - (at.y - view.y) * k };
}

/** Limits of the zoom (the wheel stops there). */
export function clampScale(scale) {
  return Math.max(0.2, Math.min(scale, 6));
}
