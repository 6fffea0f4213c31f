// The log panel redrawn by what changed (fsm/notebook/front/log_lines.js, frames.js's linesAt).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Frames } from "../../fsm/notebook/front/frames.js";
import { plan } from "../../fsm/notebook/front/log_lines.js";
import { game } from "./fake_model.mjs";

const line = (key, html, latest = false) => ({ key, html, latest });

test("a step on appends its frame's lines, moves the latest mark and drops the oldest beyond the limit", () => {
  const before = [line("0:0", "a"), line("1:0", "b"), line("1:1", "c", true)];
  const after = [line("1:0", "b"), line("1:1", "c"), line("2:0", "d", true)];
  assert.deepEqual(plan(before, after), { rebuild: false, head: 1, tail: 0, marks: [[1, false]], append: [after[2]] });
});

test("a step back drops the lines after; a step with no line of its own only moves the marks", () => {
  const before = [line("0:0", "a"), line("1:0", "b", true)];
  assert.deepEqual(plan(before, [line("0:0", "a", true)]), { rebuild: false, head: 0, tail: 1, marks: [[0, true]], append: [] });
  assert.deepEqual(plan(before, [line("0:0", "a"), line("1:0", "b")]), { rebuild: false, head: 0, tail: 0, marks: [[1, false]], append: [] });
});

test("lines that part in the middle, a line rewritten in its place, or nothing shown: everything is redrawn", () => {
  const before = [line("0:0", "a"), line("1:0", "b"), line("2:0", "c")];
  assert.ok(plan(before, [line("0:0", "a"), line("1:0", "x"), line("2:0", "c")]).rebuild);
  assert.ok(plan(before, [line("1:0", "b"), line("3:0", "z")]).rebuild);
  assert.ok(plan(before, [line("9:0", "q")]).rebuild);
  assert.ok(plan([], before).rebuild);
  assert.deepEqual(plan([], before).append, before);
});

test("linesAt names each line by its frame and place, the shown frame's own lines latest", () => {
  const s = new Frames();
  s.apply(game());
  s.goto(2);
  assert.deepEqual(s.linesAt(), [
    { key: "0:0", html: "<div class='fsm-log-line'>start</div>", latest: false },
    { key: "1:0", html: "<div class='fsm-log-move'>A: go</div>", latest: false },
    { key: "2:0", html: "<div class='fsm-log-line'>recheck</div>", latest: true },
  ]);
  assert.deepEqual(s.logAt(), s.linesAt().map((l) => [l.html, l.latest]));
  assert.equal(s.linesAt(2, 2).length, 2);
});
