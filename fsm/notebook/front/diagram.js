// The diagram box: each drawing laid out once per page (layout.js), then only classes change;
// zoom (readable / fit / %), wheel zoom, drag pan, and a pan that keeps the current state in view.
import { plan } from "./highlight.js";
import { layout } from "./layout.js";
import { page } from "./page.js";
import { clampScale, fitScale, panToShow, readableScale, zoomAt } from "./zoom.js";

const PX_PER_PT = 4 / 3;

function parse(svgText) {
  const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const svg = document.importNode(doc.documentElement, true);
  // ids are per page: two step-throughs showing one machine would clash, so they become data
  for (const el of svg.querySelectorAll("[id]")) {
    el.dataset.fsm = el.id;
    el.removeAttribute("id");
  }
  for (const t of svg.querySelectorAll("text")) t.dataset.text = t.textContent;
  const w = parseFloat(svg.getAttribute("width")) * PX_PER_PT;
  const h = parseFloat(svg.getAttribute("height")) * PX_PER_PT;
  svg.setAttribute("width", `${w}px`);
  svg.setAttribute("height", `${h}px`);
  const sizes = [...svg.querySelectorAll("text")].map((t) => parseFloat(t.getAttribute("font-size")) || 14);
  return { svg, w, h, minFont: Math.min(...sizes) * PX_PER_PT };
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

  size() {
    return { w: this.box.clientWidth || 600, h: this.box.clientHeight || 330 };
  }

  async show(key, drawing, where) {
    const asked = (this.asked = (this.asked || 0) + 1);
    if (!page().laid.has(key)) page().waits += 1;
    const svgText = await layout(key, drawing, this.fetchViz);
    if (asked !== this.asked) return; // a later step was asked for while this one was laid out
    if (!this.parsed.has(key)) this.parsed.set(key, parse(svgText));
    const shown = this.parsed.get(key);
    const fresh = this.current?.key !== key;
    if (fresh) {
      this.canvas.replaceChildren(shown.svg);
      this.current = { key, ...shown };
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

  mark(drawing, where) {
    const svg = this.current.svg;
    for (const el of svg.querySelectorAll(".fsm-on, .fsm-taken")) el.classList.remove("fsm-on", "fsm-taken");
    for (const t of svg.querySelectorAll("text[class*='fsm-g-']")) {
      t.textContent = t.dataset.text;
      t.removeAttribute("class");
    }
    const p = plan(drawing, where);
    const by = (id) => svg.querySelector(`[data-fsm="${CSS.escape(id)}"]`);
    for (const id of p.on) by(id)?.classList.add("fsm-on");
    for (const id of p.taken) by(id)?.classList.add("fsm-taken");
    for (const g of p.guards) {
      for (const id of g.ids) {
        for (const t of by(id)?.querySelectorAll("text") || []) {
          if (t.dataset.text.trim() !== g.text) continue;
          t.textContent = g.mark + t.dataset.text;
          t.setAttribute("class", g.cls);
        }
      }
    }
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

  /** The current state's box in content units (the innermost current state). */
  currentBox() {
    const nodes = [...this.current.svg.querySelectorAll("g.node.fsm-on, g.cluster.fsm-on")];
    const el = nodes.find((n) => n.classList.contains("node")) || nodes[nodes.length - 1];
    if (!el) return null;
    const r = el.getBoundingClientRect();
    const c = this.canvas.getBoundingClientRect();
    return { x: (r.left - c.left) / this.view.scale, y: (r.top - c.top) / this.view.scale, w: r.width / this.view.scale, h: r.height / this.view.scale };
  }

  follow() {
    this.apply(); // measured below through the transform: it must be the view's own
    const r = this.current && this.currentBox();
    if (r) this.view = panToShow(this.view, this.size(), r);
    this.apply();
  }

  apply() {
    const { scale, x, y } = this.view;
    this.canvas.style.transform = `translate(${x}px, ${y}px) scale(${scale})`;
    this.box.dataset.scale = String(scale);
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
