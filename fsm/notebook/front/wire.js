// A `game` message's frames back to whole frames (fsm/notebook/wire.py says what is left out).
// After the first message a frame is what changed since the frame before it, which the page has:
// the same move, views that did not move, the chain as before, the replay header the page
// fills from its template.  Pure data: no DOM.

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

/** Python's html.escape(text, quote=True). */
export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** A template of the parts' with its `{name}` slots filled, in one pass (a value's own braces stay). */
export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (slot, name) => (name in values ? String(values[name]) : slot));
}

/** A log line: whole, or [form, a, b] (one of the parts' `log_forms` filled: fsm/notebook/wire.py). */
export function unline(line, forms = []) {
  return typeof line === "string" ? line : fill(forms[line[0]], { a: line[1], b: line[2] });
}

function view(v, before) {
  return { key: v.key ?? before?.key, active: v.active, taken: v.taken ?? null, checked: v.checked || {} };
}

/** The page's frames after `msg`: `have`, the frames it had; `parts`, the model's shared panels
 * (`replaying`, `chain_head`). */
export function decode(msg, have, parts = {}) {
  const frames = have.slice(0, msg.from);
  const sent = [...(msg.frames || [])];
  if (!msg.delta) {
    frames.push(...sent);
    if (msg.length !== undefined) frames.length = Math.min(frames.length, msg.length);
    return frames;
  }
  if (msg.patch && sent.length) frames.push({ ...have[msg.from], ...sent.shift() });
  const unfilled = [];
  for (const d of sent) {
    const before = frames[frames.length - 1];
    const f = { move: d.move ?? before.move, decision: Boolean(d.decision), label: d.label, header: d.header ?? null };
    if (f.header === null) unfilled.push([frames.length, d.raw ?? d.label]);
    f.chain = d.chain === null ? null : (parts.chain_head || "") + d.chain;
    f.log = d.log.map((line) => unline(line, parts.log_forms));
    const views = { ...before.views };
    for (const [name, v] of Object.entries(d.views || {})) {
      if (v === null) delete views[name];
      else views[name] = view(v, views[name]);
    }
    f.views = views;
    f.auto = d.auto ?? before.auto;
    if ("moves" in d) f.moves = d.moves.map((m) => ({ text: m.move, ...m })); // the label, where it is the move
    for (const key of ["script", "hint", "refusal"]) if (key in d) f[key] = d[key];
    frames.push(f);
  }
  if (msg.length !== undefined) frames.length = Math.min(frames.length, msg.length);
  const counts = new Map();
  for (const f of frames) counts.set(f.move, (counts.get(f.move) || 0) + 1);
  const firsts = new Map();
  frames.forEach((f, i) => firsts.has(f.move) || firsts.set(f.move, i));
  for (const [i, raw] of unfilled) {
    if (i >= frames.length) continue;
    const f = frames[i];
    f.header = fill(parts.replaying || "", { move: esc(raw), n: i - firsts.get(f.move) + 1, total: counts.get(f.move) });
  }
  return frames;
}
