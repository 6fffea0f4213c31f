// A stand-in for anywidget's model (get / set / on / save_changes / send), as any host gives it.
export class FakeModel {
  constructor(values = {}) {
    this.values = { ...values };
    this.handlers = {};
    this.sent = [];
    this.saved = 0;
  }
  get(key) {
    return this.values[key];
  }
  set(key, value) {
    this.values[key] = value;
  }
  save_changes() {
    this.saved += 1;
  }
  on(event, fn) {
    (this.handlers[event] ||= []).push(fn);
  }
  send(content) {
    this.sent.push(content);
  }
  /** The kernel speaks: a custom message to the page (binary buffers beside it, as anywidget gives them). */
  receive(content, buffers = []) {
    for (const fn of this.handlers["msg:custom"] || []) fn(content, buffers);
  }
}

const view = (key, active, taken = null, checked = {}) => ({ key, active, taken, checked });

/** A small game: the set-up (a decision), then a move whose unwinding has three steps. */
export function game() {
  const frame = (move, decision, log, views, extra = {}) => ({
    move, decision, label: `f${move}`, header: `<b>${move}</b>`, chain: null, log, views, auto: "procedure", ...extra,
  });
  return {
    type: "game",
    from: 0,
    cursor: 1,
    length: 5,
    drawings: { P: { dot: "digraph {}", edges: [], edge_size: 9 } },
    clauses: { "ACT-6": "recheck" },
    frames: [
      frame(0, true, ["<div class='fsm-log-line'>start</div>"], { procedure: view("P", ["idle"]) }, {
        chain: "empty", moves: [{ text: "A: go", move: "A: go", seat: 0, next: true }], script: [0, false],
      }),
      frame(1, false, ["<div class='fsm-log-move'>A: go</div>"], { procedure: view("P", ["declared"], [["idle"], "declare", ["declared"]]) }, { chain: "#1" }),
      frame(1, false, ["<div class='fsm-log-line'>recheck</div>"], { procedure: view("P", ["recheck"], null, { unit_on_field: false }) }),
      frame(1, false, ["<div class='fsm-log-line'>fizzle</div>"], { procedure: view("P", ["fizzled"], [["recheck"], "fizzle", ["fizzled"]]) }),
      frame(1, true, [], { procedure: view("P", ["fizzled"]), flow: view("F", ["battle"]) }, {
        auto: "flow", moves: [{ text: "B: pass", move: "B: pass", seat: 1, next: false }], script: [1, false],
      }),
    ],
  };
}
