// One step-through's state in the page and its talk with the kernel, through any object with
// anywidget's model interface (get / set / on / save_changes / send): Jupyter's, or another
// host's (the browser edition).  No DOM here: views subscribe with `watch`.
import { Frames } from "./frames.js";
import { page } from "./page.js";
import { PuzzleState, undoToSeat } from "./puzzle.js";

const AHEAD_WAIT_MS = 10000; // a kernel that never answers does not hold up the page's other step-throughs

/** Every clause tooltip the page was sent (clause ID -> summary), whichever step-through it came with:
 * the kernels are told, so that none sends one again (`ahead`). */
export function tips() {
  return (page().clauses ??= {});
}

export class Controller {
  constructor(model) {
    this.model = model;
    this.store = new Frames();
    this.why = { html: "", ok: null };
    this.table = { point: -1, html: "" };
    this.puzzle = new PuzzleState(); // on only for a puzzle (fsm/notebook/puzzle_mode.py)
    this.busy = false;
    this.ready = false;
    this.watchers = new Set();
    this.vizWaiting = null; // [resolve, reject] while the kernel is asked for Graphviz
    this.ahead = {}; // the drawings this game may show later (askAhead)
    this.aheadDone = null;
    model.on("msg:custom", (msg, buffers) => this.receive(msg, buffers));
    model.send({ type: "hello" });
  }

  watch(fn) {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  }

  changed(what) {
    for (const fn of this.watchers) fn(what);
  }

  receive(msg, buffers = []) {
    if (msg.type === "game") {
      if (!this.store.apply(msg, this.model.get("parts") || {})) {
        this.model.send({ type: "hello" });
        return;
      }
      this.remember(msg.drawings);
      Object.assign(tips(), msg.clauses || {});
      if (!this.ready) this.askAhead();
      this.ready = true;
      this.busy = false;
      if (msg.why) this.why = { html: msg.why.html, ok: msg.why.ok, typed: msg.why.typed };
      this.changed("frames");
    } else if (msg.type === "why") {
      this.busy = false;
      this.why = { html: msg.html, ok: msg.ok };
      this.changed("why");
    } else if (msg.type === "ahead") {
      this.ahead = msg.drawings || {};
      this.remember(this.ahead);
      this.changed("ahead");
      this.aheadDone?.();
    } else if (msg.type === "viz") {
      const [ok, no] = this.vizWaiting || [];
      this.vizWaiting = null;
      if (buffers[0]) ok?.(buffers[0]);
      else no?.(new Error(msg.error || "no Graphviz module"));
    } else if (msg.type === "puzzle") {
      this.busy = false;
      this.puzzle.apply(msg);
      this.changed("puzzle");
    } else if (msg.type === "table") {
      this.table = { point: msg.point, html: msg.html };
      this.changed("table");
    }
  }

  /** A drawing by its key: sent with this game's frames, or ahead (to any step-through of the page:
   * a kernel never sends again what it sent ahead). */
  drawing(key) {
    return this.store.drawings[key] || page().drawings.get(key);
  }

  /** Every drawing the page was sent, for any step-through of it to lay out (page.js). */
  remember(drawings = {}) {
    const known = page().drawings;
    for (const [key, d] of Object.entries(drawings)) if (!known.has(key)) known.set(key, d);
  }

  /** The drawings this game may show later, asked for once, each step-through of the page after the
   * one before has its answer, so that none is sent a drawing the page already has. */
  askAhead() {
    const p = page();
    p.ahead = p.ahead.then(
      () =>
        new Promise((resolve) => {
          const timer = setTimeout(resolve, AHEAD_WAIT_MS);
          timer.unref?.(); // (node, in the unit tests) a wait that keeps nothing alive
          this.aheadDone = () => {
            clearTimeout(timer);
            resolve();
          };
          this.model.send({ type: "ahead", have: [...p.drawings.keys()], clauses: Object.keys(tips()) });
        }),
    );
  }

  /** The Graphviz module's code from the kernel (asked for by layout.js, once per page). */
  vizCode() {
    return new Promise((resolve, reject) => {
      this.vizWaiting = [resolve, reject];
      this.model.send({ type: "viz" });
    });
  }

  /** Ask the kernel (a move to play or check, the script's next step, the units and cards). */
  request(type, extra = {}) {
    this.busy = type !== "table";
    this.model.send({ type, point: this.store.point, ...extra });
  }

  play(move) {
    this.request("play", { move });
  }

  tryMove(move) {
    this.request("try", { move });
  }

  /** The script's next step.  A refusal it expects came ahead with the decision frame (the kernel's own
   * answer for this position): shown at once, while the kernel is told, and its answer changes nothing. */
  nextInScript() {
    const s = this.store;
    const f = s.frame;
    if (!this.busy && f?.decision && s.cursor === s.last && f.refusal && f.script) {
      s.frames[s.cursor] = { ...f, script: [f.script[0] + 1, f.script[1]], refusal: null };
      this.why = { html: f.refusal.html, ok: null, typed: f.refusal.typed };
      this.changed("frames");
    }
    this.request("script");
  }

  askTable() {
    this.request("table");
  }

  // the page's own moves through frames it has: no kernel message
  navigate(how, arg) {
    const s = this.store;
    let said = "";
    if (how === "step") s.step();
    else if (how === "decision") s.toDecision();
    else if (how === "goto") s.goto(arg);
    else if (how === "start") s.reset();
    else if (how === "undo" && !(this.puzzle.on ? undoToSeat(s, this.puzzle.seat) : s.undo())) said = this.model.get("words")?.nothing_to_undo || "nothing to undo";
    this.why = { html: said, ok: said ? false : null }; // an old answer is about another position
    this.changed("frames");
  }

  /** The script's state at the frame shown: [steps, position, left it]. */
  script() {
    const steps = this.model.get("script") || [];
    const [pos, off] = this.store.decisionOf()?.script || [0, false];
    return { steps, pos, off, done: off || pos >= steps.length };
  }
}
