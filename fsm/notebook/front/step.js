// The step-through's front end: an anywidget module (render({model, el})).  It draws from the
// frames the kernel sent (controller.js, frames.js) and the drawings laid out once (diagram.js).
import { Controller, tips as pageTips } from "./controller.js";
import { page } from "./page.js";
import { Diagram } from "./diagram.js";
import { layoutAhead, provideViz, provideVizAt } from "./layout.js";
import { plan as linePlan } from "./log_lines.js";
import { mountPuzzle } from "./puzzle.js";

export { provideViz, provideVizAt }; // a host with Graphviz of its own (the browser edition) hands it over

const controllers = new WeakMap(); // one per model: two views of one widget share its frames

export function controllerOf(model) {
  if (!controllers.has(model)) controllers.set(model, new Controller(model));
  return controllers.get(model);
}

function h(tag, cls, text) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text !== undefined) el.textContent = text;
  return el;
}

function button(label, cls, tip, act) {
  const b = h("button", `fsm-button ${cls}`, label);
  b.title = tip || label;
  b.type = "button";
  b.addEventListener("click", act);
  return b;
}

const NONE = []; // no move buttons (the same array each time: nothing to redraw)
const ZOOMS = ["readable", "fit", "1", "1.5", "2"];
const VIEWS = ["auto", "flow", "chain", "procedure"];

function render({ model, el }) {
  const c = controllerOf(model);
  const w = model.get("words") || {};
  const root = h("div", "fsm-step");
  const title = h("div", "fsm-title-box");
  title.innerHTML = model.get("title") || "";
  const header = h("div", "fsm-header");
  const moves = h("div", "fsm-moves");
  const step = button(w.step, "fsm-step-next", w.step_tip, () => c.navigate("step"));
  const decision = button(w.decision, "fsm-play-decision", w.decision_tip, () => c.navigate("decision"));
  const undo = button(w.undo, "fsm-undo", w.undo_tip, () => c.navigate("undo"));
  const start = button(w.start, "fsm-reset", w.start_tip, () => c.navigate("start"));
  const script = button(w.script, "fsm-script-next", w.script_tip, () => c.nextInScript());
  const controls = h("div", "fsm-controls");
  controls.append(step, decision, undo, start, script);
  const why = h("div", "fsm-why");
  const chain = h("div", "fsm-chain");
  const log = h("div", "fsm-log");
  const input = h("input", "fsm-try-input");
  input.placeholder = w.type;
  input.addEventListener("keydown", (ev) => ev.key === "Enter" && c.tryMove(input.value));
  const trying = h("div", "fsm-try");
  trying.append(
    input,
    button(w.why, "fsm-why-button", w.why_tip, () => c.tryMove(input.value)),
    button(w.play, "fsm-play-typed", w.play_tip, () => c.play(input.value)),
  );
  const left = h("div", "fsm-left");
  left.append(moves, controls, why, chain, log, trying);

  let choice = "auto";
  let shownView = null;
  const views = h("div", "fsm-views");
  const viewButtons = VIEWS.map((v) => {
    const b = button(w[v === "auto" ? "auto" : `view_${v}`] || v, `fsm-view fsm-view-${v}`, "", () => {
      choice = v;
      drawDiagram();
    });
    views.append(b);
    return b;
  });
  const zoom = h("select", "fsm-zoom");
  zoom.title = w.zoom;
  for (const z of ZOOMS) {
    const o = h("option", "", z === "readable" ? w.readable : z === "fit" ? w.fit : `${Number(z) * 100}%`);
    o.value = z;
    zoom.append(o);
  }
  const box = h("div", "fsm-diagram");
  box.title = w.drag;
  const fetchViz = () => c.vizCode();
  const diagram = new Diagram(box, fetchViz);
  zoom.addEventListener("change", () => diagram.setZoom(zoom.value));
  const toolbar = h("div", "fsm-toolbar");
  toolbar.append(views, zoom);
  const timeline = h("input", "fsm-timeline");
  timeline.type = "range";
  timeline.min = "0";
  timeline.title = w.timeline;
  timeline.addEventListener("input", () => c.navigate("goto", Number(timeline.value)));
  // ← and → step through the frames here, not in the notebook around it (JupyterLab's own keys)
  timeline.addEventListener("keydown", (ev) => {
    const by = { ArrowLeft: -1, ArrowRight: 1 }[ev.key];
    if (!by) return;
    ev.preventDefault();
    ev.stopPropagation();
    c.navigate("goto", c.store.cursor + by);
  });
  const history = h("select", "fsm-history");
  history.size = 3;
  history.addEventListener("change", () => c.navigate("goto", Number(history.value)));
  const right = h("div", "fsm-right");
  right.append(toolbar, box, timeline, history);
  const body = h("div", "fsm-body");
  body.append(left, right);

  const tablePanel = h("details", "fsm-more fsm-more-table");
  tablePanel.append(h("summary", "", w.table));
  const table = h("div", "fsm-table");
  tablePanel.append(table);
  tablePanel.addEventListener("toggle", () => tablePanel.open && c.askTable());
  const scriptPanel = h("details", "fsm-more fsm-more-script");
  scriptPanel.append(h("summary", "", w.the_script));
  const scriptList = h("div", "fsm-script");
  scriptPanel.append(scriptList);
  root.append(title, header, body, tablePanel, scriptPanel);
  el.append(root);

  // what each panel shows now: a panel is redrawn only when what it would show has changed
  const shown = { header: null, moves: null, chain: null, why: null, script: null, labels: [], lines: [] };

  function setHtml(el, key, html) {
    if (shown[key] === html) return;
    shown[key] = html;
    el.innerHTML = html;
  }

  function drawWhy() {
    setHtml(why, "why", c.why.html ? `<div class="fsm-why-${c.why.ok === true ? "ok" : c.why.ok === false ? "no" : "info"}">${c.why.html}</div>` : "");
    if (c.why.typed && input.value !== c.why.typed) input.value = c.why.typed;
  }

  const logBox = h("div", "fsm-log-box");
  const logLines = h("div");
  logBox.append(logLines);
  const logHead = h("div", "fsm-h");
  logHead.title = w.log_tip;
  logHead.innerHTML = `${w.log} — ${w.log_tip}`;
  log.append(logHead, logBox);
  const lineOf = (line) => {
    const t = document.createElement("template");
    t.innerHTML = line.html;
    const el = t.content.firstElementChild || h("div");
    if (line.latest) el.classList.add("fsm-latest", "fsm-log-latest");
    return el;
  };

  /** The newest log lines: those a step adds are appended, the oldest dropped (log_lines.js). */
  function drawLog() {
    const lines = c.store.linesAt();
    const p = linePlan(shown.lines, lines);
    shown.lines = lines;
    if (p.rebuild) return void logLines.replaceChildren(...lines.map(lineOf));
    const kids = logLines.children;
    for (let i = 0; i < p.tail; i++) kids[kids.length - 1].remove();
    for (let i = 0; i < p.head; i++) kids[0].remove();
    for (const [i, latest] of p.marks) {
      kids[i].classList.toggle("fsm-latest", latest);
      kids[i].classList.toggle("fsm-log-latest", latest);
    }
    if (p.append.length) logLines.append(...p.append.map(lineOf));
  }

  function drawDiagram() {
    const f = c.store.frame;
    const name = choice === "auto" ? c.store.autoView(shownView) : choice;
    for (const [i, b] of viewButtons.entries()) b.classList.toggle("fsm-chosen", VIEWS[i] === choice);
    const where = f.views[name];
    if (!where) {
      diagram.message(w.no_link);
      return;
    }
    shownView = name;
    diagram.show(where.key, c.drawing(where.key), where).catch((err) => diagram.message(String(err)));
  }

  function drawMoves(f) {
    const d = c.store.decisionOf();
    const legal = f.decision && d ? d.moves || NONE : NONE;
    if (shown.moves === legal) return;
    shown.moves = legal;
    moves.replaceChildren(
      ...legal.map((m) => {
        const b = button(m.next ? `▶ ${m.text}` : m.text, `fsm-move fsm-move-${m.seat}${m.next ? " fsm-move-scripted" : ""}`, m.tip, () => c.play(m.move));
        b.dataset.move = m.move;
        return b;
      }),
    );
    if (d?.hint) input.placeholder = d.hint;
  }

  function drawScript() {
    const s = c.script();
    const key = `${s.steps.length} ${s.pos} ${s.off}`;
    if (shown.script === key) return;
    shown.script = key;
    script.hidden = !s.steps.length;
    script.disabled = s.done;
    scriptPanel.hidden = !s.steps.length;
    const items = s.steps.map((text, i) => {
      const mark = i < s.pos ? "✓" : i === s.pos && !s.off ? "▶" : "·";
      return `<li class="${i < s.pos ? "fsm-done" : ""}">${mark} ${text}</li>`;
    });
    const left = s.off ? ` <small class="fsm-left-script">(${w.left})</small>` : "";
    scriptList.innerHTML = `<div class="fsm-h">${w.the_script}${left}</div><ul>${items.join("")}</ul>`;
  }

  /** The history list: the options after the first changed one are replaced, the rest kept. */
  function drawHistory() {
    const labels = c.store.frames.map((f) => (f.decision ? "" : "\u00a0\u00a0\u00a0\u00a0") + f.label);
    const before = shown.labels;
    let keep = 0;
    while (keep < before.length && keep < labels.length && before[keep] === labels[keep]) keep++;
    if (keep < before.length || keep < labels.length) {
      while (history.options.length > keep) history.lastElementChild.remove();
      history.append(...labels.slice(keep).map((text, i) => Object.assign(h("option", "", text), { value: String(keep + i) })));
      shown.labels = labels;
    }
    const at = String(c.store.cursor);
    if (history.value !== at) history.value = at;
    if (timeline.max !== String(c.store.last)) timeline.max = String(c.store.last);
    if (timeline.value !== at) timeline.value = at;
  }

  function draw(what) {
    if (!c.ready) return;
    if (what === "ahead") return void layoutAhead(Object.keys(c.ahead || {}), fetchViz).then(prepareAhead);
    if (what === "why") return drawWhy(), tips();
    if (what === "table") {
      if (c.table.point === c.store.point) table.innerHTML = c.table.html;
      return;
    }
    const s = c.store;
    const f = s.frame;
    setHtml(header, "header", f.header);
    drawMoves(f);
    const atEnd = s.cursor >= s.last;
    if (step.disabled !== atEnd) step.disabled = decision.disabled = atEnd;
    if (undo.disabled !== (f.move === 0)) undo.disabled = f.move === 0;
    setHtml(chain, "chain", s.chainAt());
    drawLog();
    drawWhy();
    drawScript();
    drawHistory();
    drawDiagram();
    layoutAhead(Object.keys(s.drawings), fetchViz); // the rest of this game's drawings, at idle
    prepareAhead();
    if (tablePanel.open && c.table.point !== s.point) c.askTable();
    tips();
  }

  // the drawings this step-through may show, parsed at idle one at a time (Diagram.prepare), so that a
  // click showing one swaps it in: its frames' and those sent ahead for its game
  let preparing = false;
  function prepareAhead() {
    if (preparing) return;
    const keys = new Set([...c.store.frames.flatMap((f) => Object.values(f.views).map((v) => v.key)), ...Object.keys(c.ahead || {})]);
    const next = [...keys].find((key) => !diagram.parsed.has(key) && page().texts?.has(key));
    if (next === undefined) return;
    preparing = true;
    const later = globalThis.requestIdleCallback || ((fn) => setTimeout(fn, 50));
    later(() => {
      preparing = false;
      diagram.prepare(next);
      prepareAhead();
    });
  }

  function tips() {
    const known = pageTips();
    for (const b of root.querySelectorAll(".fsm-clause:not([title])")) b.title = c.store.clauses[b.textContent] || known[b.textContent] || "";
  }

  const stop = c.watch(draw);
  const stopPuzzle = mountPuzzle(c, left);
  draw("frames");
  return () => (stop(), stopPuzzle());
}

export default { render };
