// Where a machine stands, as classes on its drawing's nodes and edges: the current states
// (amber), the edge just taken (thick, amber), and at a recheck each guard as found
// (held: green ○, failed: red ×, a fizzle reason that applied: red ●).  Pure data.

/** The edges of `drawing` that the transition `taken` ([states left], event, [states entered]) went along. */
export function takenEdges(drawing, taken) {
  if (!taken) return [];
  const [left, event, entered] = taken;
  return drawing.edges
    .filter((e) => e.events.includes(event) && left.includes(e.source) && e.targets.some((t) => entered.includes(t)))
    .flatMap((e) => e.ids);
}

/** Each checked guard's mark on the edges: [{ids, text, mark, cls}]. */
export function guardMarks(drawing, checked) {
  const out = [];
  for (const e of drawing.edges) {
    for (const g of e.guards) {
      const name = g.guard.replace(/^!/, "");
      if (!(name in checked)) continue;
      const failed = !checked[name];
      let mark, cls;
      if (g.guard.startsWith("!")) [mark, cls] = failed ? ["● ", "fsm-g-applied"] : ["", "fsm-g-idle"];
      else [mark, cls] = failed ? ["× ", "fsm-g-failed"] : ["○ ", "fsm-g-held"];
      out.push({ ids: e.ids, text: g.text, mark, cls });
    }
  }
  return out;
}

/** The whole plan for one view: node ids to mark current, edge ids taken, guard marks. */
export function plan(drawing, view) {
  return {
    on: view.active.map((s) => `s_${s}`),
    taken: takenEdges(drawing, view.taken),
    guards: guardMarks(drawing, view.checked || {}),
  };
}

const CELL = /<td([^>]*)>((?:(?!<td|<\/td>)[\s\S])*)<\/td>/gi;
const SIZE = /point-size="([\d.]+)"/;

function plain(html) {
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

/** The DOT with each HTML-label cell given the width its text takes in this page's font.
 * Graphviz in WebAssembly has no font files and guesses widths (Japanese far too narrow);
 * `measure(text, points, bold)` is the page's own measure (a canvas), so boxes fit the text.
 * A guard's cell keeps room for its mark (○ × ●). */
export function measuredDot(dot, measure, edgeSize, guardTexts = new Set()) {
  return dot.replace(CELL, (whole, attrs, inner) => {
    if (/width=/i.test(attrs) || !inner.trim()) return whole;
    const text = plain(inner);
    if (!text.trim()) return whole;
    const size = Number((inner.match(SIZE) || [])[1] || edgeSize);
    const bold = /<b>/i.test(inner);
    const mark = guardTexts.has(text) ? measure("× ", size, true) : 0;
    // bold Japanese is drawn with a synthetic bold a little wider than the canvas measures it
    const width = Math.ceil(measure(text, size, bold) * (bold ? 1.08 : 1.02) + mark + 4);
    return `<td${attrs} width="${width}">${inner}</td>`;
  });
}
