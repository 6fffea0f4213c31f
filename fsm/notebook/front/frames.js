// The frames of one step-through as the page has them, and moving through them.
// Pure data: no DOM, no Jupyter.  The kernel's `game` message (fsm/notebook/step_through.py)
// replaces the frames from an index on and adds drawings; step / to the decision / undo /
// the timeline only move the cursor here, with no kernel message.

import { decode } from "./wire.js";

export const LOG_LINES = 80; // the log panel shows the newest lines; the timeline reaches the rest

export class Frames {
  constructor() {
    this.frames = [];
    this.drawings = {};
    this.clauses = {}; // clause ID -> summary, the badges' tooltips (sent once)
    this.cursor = 0;
  }

  /** Apply a kernel `game` message: frames from `from` on are replaced; returns true if it fits.
   * `parts`: what the frames share, the widget's `parts` trait (wire.js). */
  apply(msg, parts = {}) {
    if (msg.from > this.frames.length) return false; // a gap: the page missed a message, ask again
    if (msg.patch && msg.from >= this.frames.length) return false; // no frame there to change
    this.frames = decode(msg, this.frames, parts);
    Object.assign(this.drawings, msg.drawings || {});
    Object.assign(this.clauses, msg.clauses || {});
    this.cursor = Math.max(0, Math.min(msg.cursor, this.frames.length - 1));
    return true;
  }

  get frame() {
    return this.frames[this.cursor];
  }

  get last() {
    return this.frames.length - 1;
  }

  goto(i) {
    this.cursor = Math.max(0, Math.min(i, this.last));
    return this.cursor;
  }

  step() {
    return this.goto(this.cursor + 1);
  }

  /** On to the next frame where a player decides. */
  toDecision() {
    for (let i = this.cursor + 1; i <= this.last; i++) if (this.frames[i].decision) return this.goto(i);
    return this.goto(this.last);
  }

  /** Take back the move shown (or being replayed): back to the decision before it, the later frames dropped.
   * Returns false if there is nothing to undo. */
  undo() {
    const move = this.frame.move;
    if (move === 0) return false;
    const back = this.frames.findIndex((f) => f.move === move - 1 && f.decision);
    this.frames.length = back + 1;
    this.cursor = back;
    return true;
  }

  /** Back to the start: only the set-up's frames stay. */
  reset() {
    const start = this.frames.findIndex((f) => f.decision);
    this.frames.length = start + 1;
    this.cursor = start;
  }

  /** The decision point (the move) the page stands at: what the kernel is told with a request. */
  get point() {
    return this.frame.move;
  }

  /** The decision frame of the move frame `i` belongs to (its legal moves, the script's place). */
  decisionOf(i = this.cursor) {
    const move = this.frames[i].move;
    return this.frames.find((f) => f.move === move && f.decision);
  }

  /** Step n of total, for a frame of a move being replayed. */
  stepOf(i = this.cursor) {
    const move = this.frames[i].move;
    const same = this.frames.map((f, j) => [f, j]).filter(([f]) => f.move === move);
    return [same.findIndex(([, j]) => j === i) + 1, same.length];
  }

  /** The chain panel of frame `i` (null in a frame means: as the frame before). */
  chainAt(i = this.cursor) {
    for (let j = i; j >= 0; j--) if (this.frames[j].chain !== null) return this.frames[j].chain;
    return "";
  }

  /** The newest log lines up to frame `i`, oldest first: [html, is it the frame's own line]. */
  logAt(i = this.cursor, limit = LOG_LINES) {
    return this.linesAt(i, limit).map((line) => [line.html, line.latest]);
  }

  /** The same lines, each with its place ({key: "frame:line", html, latest}: log_lines.js). */
  linesAt(i = this.cursor, limit = LOG_LINES) {
    const out = [];
    for (let j = i; j >= 0 && out.length < limit; j--) {
      const lines = this.frames[j].log;
      for (let k = lines.length - 1; k >= 0 && out.length < limit; k--) out.push({ key: `${j}:${k}`, html: lines[k], latest: j === i });
    }
    return out.reverse();
  }

  /** Which view "auto" shows; undo and jumps keep the reader's machine when the frame has it. */
  autoView(previous) {
    const f = this.frame;
    if (previous && previous !== "flow" && f.auto === "flow" && !f.views[f.auto]?.taken && f.views[previous]) {
      return previous;
    }
    return f.auto;
  }
}
