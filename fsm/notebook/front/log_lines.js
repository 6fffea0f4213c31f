// The log panel redrawn by what changed: a step on adds its frame's lines at the bottom and the
// oldest fall off the top, so only those lines and the "latest" marks are touched, not all 80.
// Pure data: no DOM (step.js applies the plan).

/** A shown line: `key` names its place (frame and line), `html` its text, `latest` if the frame's own. */
const same = (a, b) => a.key === b.key && a.html === b.html;

/** How to go from the lines shown (`before`) to `after`: drop `head` lines from the top and `tail`
 * from the bottom, mark the kept ones' `latest` anew ([index among the kept, latest]), append
 * `append`; or `rebuild` everything when they share no run of lines. */
export function plan(before, after) {
  const rebuild = { rebuild: true, head: 0, tail: 0, marks: [], append: after };
  if (!before.length || !after.length) return rebuild;
  const head = before.findIndex((line) => same(line, after[0]));
  if (head < 0) return rebuild;
  let n = 0; // the run shown in both
  while (head + n < before.length && n < after.length && same(before[head + n], after[n])) n++;
  if (head + n < before.length && n < after.length) return rebuild; // they part in the middle
  const marks = [];
  for (let i = 0; i < n; i++) if (before[head + i].latest !== after[i].latest) marks.push([i, after[i].latest]);
  return { rebuild: false, head, tail: before.length - head - n, marks, append: after.slice(n) };
}
