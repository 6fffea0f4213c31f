// The step-through's puzzle mode (fsm/notebook/puzzle_mode.py): a panel with the goal, the moves
// left, what check / hint / the other side said, and the check and hint buttons.  The kernel's
// `puzzle` message fills it; undo goes back to the learner's own decision, since the other side's
// answers are the kernel's, not the learner's.

/** The panel's state from the kernel's `puzzle` messages (no DOM: node:test tests it). */
export class PuzzleState {
  constructor() {
    this.on = false;
    this.seat = 0;
    this.status = "playing";
    this.notes = "";
    this.goal = [];
    this.left = "";
    this.said = "";
    this.words = {};
  }

  apply(msg) {
    this.on = true;
    for (const key of ["seat", "status", "notes", "goal", "left", "said", "words"]) {
      if (msg[key] !== undefined) this[key] = msg[key];
    }
  }
}

/** Whose decision a frame is: the seat of its move buttons (null when it has none). */
function seatOf(frames, i) {
  const moves = frames.frames[i]?.moves;
  return moves && moves.length ? moves[0].seat : null;
}

/** Undo in puzzle mode: take back moves until the learner (`seat`) decides again.
 * Returns false if there is nothing of the learner's to undo. */
export function undoToSeat(frames, seat) {
  if (!frames.undo()) return false;
  while (frames.frame.move > 0 && seatOf(frames, frames.cursor) !== seat) frames.undo();
  return true;
}

function h(tag, cls, text) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text !== undefined) el.textContent = text;
  return el;
}

/** The panel, put at the top of `where` once the first `puzzle` message has come. */
export function mountPuzzle(c, where) {
  const panel = h("div", "fsm-puzzle");
  panel.hidden = true;
  const heading = h("div", "fsm-h fsm-puzzle-heading");
  const notes = h("div", "fsm-puzzle-notes");
  const goal = h("ul", "fsm-puzzle-goal");
  const status = h("div", "fsm-puzzle-status");
  const said = h("div", "fsm-puzzle-said");
  const check = h("button", "fsm-button fsm-puzzle-check");
  const hint = h("button", "fsm-button fsm-puzzle-hint");
  for (const [b, kind] of [[check, "check"], [hint, "hint"]]) {
    b.type = "button";
    b.addEventListener("click", () => c.request(kind));
  }
  const buttons = h("div", "fsm-puzzle-buttons");
  buttons.append(check, hint);
  panel.append(heading, notes, goal, status, buttons, said);
  where.prepend(panel);

  function draw(what) {
    if (what !== "puzzle" && what !== "frames") return;
    const p = c.puzzle;
    if (!p.on) return;
    const w = p.words;
    panel.hidden = false;
    heading.textContent = w.heading || "puzzle";
    notes.innerHTML = p.notes;
    goal.innerHTML = `<li class="fsm-puzzle-goal-head">${w.goal || "goal"}</li>` + p.goal.map((g) => `<li>${g}</li>`).join("");
    status.textContent = `${p.status === "solved" ? "✓" : p.status === "failed" ? "✗" : "…"} ${w[p.status] || p.status} · ${w.left_label || ""} ${p.left}`;
    panel.dataset.status = p.status;
    check.textContent = w.check || "check";
    check.title = w.check_tip || "";
    hint.textContent = w.hint || "hint";
    hint.title = w.hint_tip || "";
    said.innerHTML = p.said;
  }
  const stop = c.watch(draw);
  draw("puzzle");
  return stop;
}
