// The diagram box: each drawing laid out once per page (layout.js), then only classes change;
// zoom (readable / fit / %), wheel zoom, drag pan, and a pan that keeps the current state in view.
import { boxes, currentBox } from "./geometry.js";
import { plan } from "./highlight.js";
import { layout } from "./layout.js";
import { page } from "./page.js";
import { clampScale, fitScale, panToShow, readableScale, zoomAt } from "./zoom.js";

const PX_PER_PT = 4 / 3;

function parse(svgText) {
  const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const svg = document.importNode(doc.documentElement, true);
  // ids are per page: two step-throughs showing one machine would clash, so they become data
  const byId = new Map(); // and a step finds its nodes and edges here, not by searching the SVG
  for (const el of svg.querySelectorAll("[id]")) {
    el.dataset.fsm = el.id;
    byId.set(el.id, el);
    el.removeAttribute("id");
  }
  for (const t of svg.querySelectorAll("text")) t.dataset.text = t.textContent;
  const w = parseFloat(svg.getAttribute("width")) * PX_PER_PT;
  const h = parseFloat(svg.getAttribute("height")) * PX_PER_PT;
  svg.setAttribute("width", `${w}px`);
  svg.setAttribute("height", `${h}px`);
  const sizes = [...svg.querySelectorAll("text")].map((t) => parseFloat(t.getAttribute("font-size")) || 14);
  return { svg, w, h, minFont: Math.min(...sizes) * PX_PER_PT, byId, boxes: boxes(svgText, PX_PER_PT), marked: [] };
}

export class Diagram {
  /** `fetchViz`: where Graphviz comes from if the page has none yet (Controller.vizCode). */
  constructor(box, fetchViz) {
    this.box = box;
    this.fetchViz = fetchViz;
    this.canvas = document.createElement("div");
    this.canvas.className = "fsm-canvas";
    box.append(this.canvas);
    this.parsed = new Map();
    this.current = null; // {key, ...parsed}
    this.view = { scale: 1, x: 0, y: 0 };
    this.zoom = "readable";
    this.listen();
  }

  /** The box's size, measured once and then kept up to date by a ResizeObserver: a click that pans
   * never makes the browser lay the page out to answer. */
  size() {
    if (this.measured) return this.measured;
    const now = { w: this.box.clientWidth || 600, h: this.box.clientHeight || 330 };
    if (typeof ResizeObserver === "undefined") return now;
    this.measured = now;
    new ResizeObserver(([entry]) => {
      const r = entry.contentRect;
      this.measured = { w: r.width || 600, h: r.height || 330 };
    }).observe(this.box);
    return now;
  }

  /** Parse a drawing laid out already, before a click shows it (at idle: step.js), so that the
   * click only swaps it in.  Returns false if it is not laid out yet. */
  prepare(key) {
    if (this.parsed.has(key)) return true;
    const svgText = page().texts?.get(key);
    if (svgText === undefined) return false;
    this.parsed.set(key, { key, ...parse(svgText) });
    return true;
  }

  async show(key, drawing, where) {
    const asked = (this.asked = (this.asked || 0) + 1);
    if (!page().laid.has(key)) page().waits += 1;
    const svgText = await layout(key, drawing, this.fetchViz);
    if (asked !== this.asked) return; // a later step was asked for while this one was laid out
    if (!this.parsed.has(key)) this.parsed.set(key, { key, ...parse(svgText) });
    const shown = this.parsed.get(key);
    const fresh = this.current !== shown;
    if (fresh) {
      this.canvas.replaceChildren(shown.svg);
      this.current = shown; // itself, not a copy: it remembers what it has marked
    }
    this.mark(drawing, where);
    if (fresh) this.setZoom(this.zoom);
    else this.follow();
  }

  message(html) {
    this.asked = (this.asked || 0) + 1;
    this.current = null;
    this.canvas.innerHTML = `<p class="fsm-diagram-note">${html}</p>`;
    this.view = { scale: 1, x: 0, y: 0 };
    this.apply();
  }

  /** The highlight of `where`: only what differs from the one shown is touched. */
  mark(drawing, where) {
    const shown = this.current;
    const p = plan(drawing, where);
    const want = new Map(); // element -> [classes, guard text or null]
    const add = (el, cls, text = null) => {
      if (!el) return;
      const [classes, had] = want.get(el) || [[], null];
      want.set(el, [[...classes, cls], text ?? had]);
    };
    for (const id of p.on) add(shown.byId.get(id), "fsm-on");
    for (const id of p.taken) add(shown.byId.get(id), "fsm-taken");
    for (const g of p.guards) {
      for (const id of g.ids) {
        for (const t of shown.byId.get(id)?.querySelectorAll("text") || []) {
          if (t.dataset.text.trim() === g.text) add(t, g.cls, g.mark + t.dataset.text);
        }
      }
    }
    for (const el of shown.marked) {
      if (want.has(el)) continue;
      if (el.tagName === "text") {
        el.textContent = el.dataset.text;
        el.removeAttribute("class");
      } else el.classList.remove("fsm-on", "fsm-taken");
    }
    for (const [el, [classes, text]] of want) {
      if (el.tagName === "text") {
        if (el.textContent !== text) el.textContent = text;
        if (el.getAttribute("class") !== classes.join(" ")) el.setAttribute("class", classes.join(" "));
      } else {
        for (const cls of ["fsm-on", "fsm-taken"]) el.classList.toggle(cls, classes.includes(cls));
      }
    }
    shown.marked = [...want.keys()];
    shown.on = p.on;
  }

  /** Zoom: "readable" (text at least 11 px), "fit", or a scale of the natural size. */
  setZoom(zoom) {
    this.zoom = zoom;
    if (!this.current) return;
    const box = this.size();
    const content = { w: this.current.w, h: this.current.h };
    const scale =
      zoom === "fit"
        ? fitScale(box, content)
        : zoom === "readable"
          ? readableScale(box, content, this.current.minFont)
          : Number(zoom);
    this.view = { scale, x: 0, y: 0 };
    this.follow();
  }

  /** The current state's box in content units (the innermost current state), from the drawing's own
   * coordinates (geometry.js). */
  currentBox() {
    return currentBox(this.current.boxes, this.current.on || []);
  }

  follow() {
    const r = this.current && this.currentBox();
    if (r) this.view = panToShow(this.view, this.size(), r);
    this.apply();
  }

  apply() {
    const { scale, x, y } = this.view;
    const transform = `translate(${x}px, ${y}px) scale(${scale})`;
    if (this.canvas.style.transform !== transform) this.canvas.style.transform = transform;
    if (this.box.dataset.scale !== String(scale)) this.box.dataset.scale = String(scale);
  }

  listen() {
    this.box.addEventListener(
      "wheel",
      (ev) => {
        if (!this.current) return;
        ev.preventDefault();
        const r = this.box.getBoundingClientRect();
        const scale = clampScale(this.view.scale * Math.exp(-ev.deltaY / 500));
        this.view = zoomAt(this.view, scale, { x: ev.clientX - r.left, y: ev.clientY - r.top });
        this.apply();
      },
      { passive: false },
    );
    let drag = null;
    this.box.addEventListener("pointerdown", (ev) => {
      drag = { x: ev.clientX, y: ev.clientY, view: this.view };
      this.box.setPointerCapture?.(ev.pointerId);
    });
    this.box.addEventListener("pointermove", (ev) => {
      if (!drag) return;
      this.view = { ...drag.view, x: drag.view.x + ev.clientX - drag.x, y: drag.view.y + ev.clientY - drag.y };
      this.apply();
    });
    const stop = () => (drag = null);
    this.box.addEventListener("pointerup", stop);
    this.box.addEventListener("pointercancel", stop);
  }
}
