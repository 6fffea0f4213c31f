// The warm boot of the site's "try it" (fsm/notebook/front/snapshot.js, worker.js's loadRuntime)
// without a browser: the cache entry's format, the files kept beside the memory, the cache keeping
// one build's snapshot, the memory grown to fit, and loadRuntime over a stand-in pyodide (a module
// written to a temporary folder) and an in-memory CacheStorage: a first visit stores, the next
// restores, a snapshot that does not restore falls back to the fresh boot.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, beforeEach, mock, test } from "node:test";
import {
  CACHE,
  forget,
  growingModule,
  listFiles,
  loadStored,
  packSnapshot,
  snapshotKey,
  store,
  unpackSnapshot,
  writeFiles,
} from "../../fsm/notebook/front/snapshot.js";
import { loadRuntime } from "../../fsm/notebook/front/worker.js";

const bytes = (text) => new TextEncoder().encode(text);
const text = (b) => new TextDecoder().decode(b);

/** pyodide's FS, as far as snapshot.js uses it: directories and files in a Map. */
class FakeFS {
  constructor() {
    this.files = new Map();
    this.dirs = new Set(["/"]);
  }
  mkdirTree(path) {
    for (let at = path.indexOf("/", 1); at > 0; at = path.indexOf("/", at + 1)) this.dirs.add(path.slice(0, at));
    this.dirs.add(path);
  }
  writeFile(path, data) {
    assert.ok(this.dirs.has(path.slice(0, path.lastIndexOf("/"))), `no folder for ${path}`);
    this.files.set(path, new Uint8Array(data));
  }
  readFile(path) {
    return this.files.get(path);
  }
  readdir(dir) {
    const names = new Set();
    for (const p of [...this.files.keys(), ...this.dirs]) {
      if (p.startsWith(`${dir}/`)) names.add(p.slice(dir.length + 1).split("/")[0]);
    }
    return [".", "..", ...names];
  }
  stat(path) {
    return { mode: this.dirs.has(path) ? 1 : 0 };
  }
  isDir(mode) {
    return mode === 1;
  }
}

/** CacheStorage in memory: one cache per name, entries by URL. */
class FakeCaches {
  constructor() {
    this.named = new Map();
  }
  async open(name) {
    if (!this.named.has(name)) this.named.set(name, new Map());
    const entries = this.named.get(name);
    return {
      match: async (key) => (entries.has(key) ? new Response(entries.get(key)) : undefined),
      keys: async () => [...entries.keys()].map((url) => ({ url })),
      delete: async (key) => entries.delete(typeof key === "string" ? key : key.url),
      put: async (key, response) => void entries.set(key, await response.arrayBuffer()),
    };
  }
  entries() {
    return this.named.get(CACHE) ?? new Map();
  }
}

const blobBytes = async (parts) => new Uint8Array(await new Blob(parts).arrayBuffer());

test("a cache entry gives back the memory and every file, the memory 16-aligned", async () => {
  const memory = new Uint8Array(64).map((_, i) => i);
  const files = [["fsm/__init__.py", bytes("x = 1\n")], ["fsm/locale/ja/fsm.mo", new Uint8Array([0xde, 0x12, 0x04])]];
  const back = unpackSnapshot(await blobBytes(packSnapshot(memory, files)));
  assert.deepEqual(back.memory, memory);
  assert.equal(back.memory.byteOffset % 16, 0);
  assert.deepEqual(
    back.files.map(([rel, b]) => [rel, [...b]]),
    files.map(([rel, b]) => [rel, [...b]]),
  );
});

test("bytes that are not a snapshot are refused, not restored", async () => {
  assert.throws(() => unpackSnapshot(new Uint8Array(64)), /not a snapshot/);
  const whole = await blobBytes(packSnapshot(new Uint8Array(32), [["a.py", bytes("a")]]));
  assert.throws(() => unpackSnapshot(whole.subarray(0, whole.length - 16)), /not a snapshot/); // cut short
});

test("the installed files are listed relative to site-packages and written back the same", () => {
  const fs = new FakeFS();
  fs.mkdirTree("//lib/python3.14/site-packages/fsm/notebook");
  fs.writeFile("//lib/python3.14/site-packages/fsm/__init__.py", bytes("init"));
  fs.writeFile("//lib/python3.14/site-packages/fsm/notebook/web.py", bytes("web"));
  const files = listFiles(fs, "//lib/python3.14/site-packages/");
  assert.deepEqual(files.map(([rel, b]) => [rel, text(b)]).sort(), [
    ["fsm/__init__.py", "init"],
    ["fsm/notebook/web.py", "web"],
  ]);
  const fresh = new FakeFS();
  fresh.mkdirTree("/lib/python3.14/site-packages");
  writeFiles(fresh, "/lib/python3.14/site-packages", files);
  assert.equal(text(fresh.readFile("/lib/python3.14/site-packages/fsm/notebook/web.py")), "web");
});

test("the cache keeps one snapshot: storing a new build's drops the old one", async () => {
  const caches = new FakeCaches();
  const old = snapshotKey("http://127.0.0.1/web/", "314.0.6", "build-a");
  const now = snapshotKey("http://127.0.0.1/web/", "314.0.6", "build-b");
  assert.notEqual(old, now);
  assert.match(now, /314\.0\.6/);
  await store(caches, old, [bytes("a")]);
  await store(caches, now, [bytes("b")]);
  assert.deepEqual([...caches.entries().keys()], [now]);
  assert.equal(await loadStored(caches, old), null);
  assert.equal(text(await loadStored(caches, now)), "b");
  await forget(caches, now);
  assert.equal(await loadStored(caches, now), null);
});

test("the module's memory is grown to the snapshot's size before it is copied in", async () => {
  const seen = [];
  const create = (size) =>
    growingModule((settings) => {
      const memory = new WebAssembly.Memory({ initial: 2 });
      settings.instantiateWasm({}, (instance) => seen.push(instance.exports.memory.buffer.byteLength));
      return { memory };
    }, size);
  const instantiateWasm = (imports, ok) => ok({ exports: { memory: new WebAssembly.Memory({ initial: 2 }) } }, {});
  create(5 * 65536 + 1)({ instantiateWasm });
  create(65536)({ instantiateWasm }); // already large enough: left alone
  assert.deepEqual(seen, [6 * 65536, 2 * 65536]);
});

const folders = [];
after(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
beforeEach(() => mock.method(console, "warn", () => {})); // the fallbacks below warn, as they should

/** A stand-in pyodide in a temporary folder (worker.js imports BASE/pyodide/pyodide.mjs). */
function fakeSite() {
  const dir = mkdtempSync(join(tmpdir(), "fsm-snapshot-"));
  folders.push(dir);
  const fake = `
    const state = globalThis.__fakePyodide;
    export const version = "314.0.6";
    export async function loadPyodide(options) {
      state.loads.push(options);
      const FS = new state.FS();
      FS.mkdirTree("/site");
      if (options._loadSnapshot) {
        if (state.failRestore) throw new Error("Snapshot build id mismatch");
        options.createPyodideModule({});
        await options.fsInit(FS, { sitePackages: "/site" });
      }
      return {
        FS,
        runPython: (code) => (code.includes("sysconfig") ? "/site" : undefined),
        unpackArchive(data, format, { extractDir }) {
          FS.mkdirTree(extractDir + "/fsm");
          FS.writeFile(extractDir + "/fsm/" + new TextDecoder().decode(data), data);
        },
        pyimport: (name) => (state.imported.push(name), {}),
        makeMemorySnapshot() {
          if (state.failSnapshot) throw new Error("Unexpected hiwire entry");
          return new Uint8Array(32).fill(7);
        },
      };
    }`;
  mkdirSync(join(dir, "pyodide"));
  writeFileSync(join(dir, "pyodide", "pyodide.mjs"), fake);
  writeFileSync(join(dir, "pyodide", "pyodide.asm.mjs"), "export default function create() {}");
  return `${dir}/`;
}

function visit(base, caches, index = { wheels: ["a.whl", "b.whl"], pyodide: "314.0.6", build: "b1" }) {
  globalThis.__fakePyodide.loads.length = 0;
  const fetched = [];
  const fetchBytes = async (url) => {
    fetched.push(url.slice(base.length));
    return url.endsWith("index.json") ? bytes(JSON.stringify(index)) : bytes(url.split("/").pop());
  };
  const stages = [];
  let stored;
  const storedState = new Promise((ok) => (stored = ok));
  const booted = loadRuntime(base, fetchBytes, (s) => stages.push(s), caches, stored);
  return { booted, fetched, stages, storedState, loads: globalThis.__fakePyodide.loads };
}

function freshState(extra = {}) {
  globalThis.__fakePyodide = { FS: FakeFS, loads: [], imported: [], ...extra };
}

test("a first visit boots fresh and stores a snapshot; the next restores it, files and all", async () => {
  freshState();
  const site = fakeSite();
  const caches = new FakeCaches();
  const first = visit(site, caches);
  const one = await first.booted;
  assert.equal(one.boot, "fresh");
  assert.equal(first.loads[0]._makeSnapshot, true);
  assert.equal(await first.storedState, "stored");
  assert.equal(caches.entries().size, 1);
  assert.match([...caches.entries().keys()][0], /snapshot\/314\.0\.6\/b1$/);

  const second = visit(site, caches);
  const two = await second.booted;
  assert.equal(two.boot, "snapshot");
  assert.deepEqual(second.stages, ["runtime", "restore"]);
  assert.deepEqual([...second.loads[0]._loadSnapshot], new Array(32).fill(7));
  assert.equal(text(two.py.FS.readFile("/site/fsm/a.whl")), "a.whl"); // the wheels' files, written back
  assert.deepEqual(second.fetched, ["wheels/index.json"]); // no wheel downloaded
});

test("a snapshot that does not restore is dropped and the visit boots fresh (and stores anew)", async () => {
  freshState();
  const site = fakeSite();
  const caches = new FakeCaches();
  const key = snapshotKey(site, "314.0.6", "b1");
  await store(caches, key, [bytes("not a snapshot at all")]);
  const garbled = visit(site, caches);
  assert.equal((await garbled.booted).boot, "fresh");
  assert.deepEqual(garbled.stages, ["runtime", "restore", "runtime", "wheels"]);
  assert.equal(await garbled.storedState, "stored");

  globalThis.__fakePyodide.failRestore = true; // a good entry that pyodide itself refuses
  const refused = visit(site, caches);
  assert.equal((await refused.booted).boot, "fresh");
  assert.ok(refused.loads[0]._loadSnapshot);
  assert.equal(refused.loads[1]._makeSnapshot, true);
});

test("no Cache Storage, no build id, or no snapshot made: a fresh boot all the same", async () => {
  freshState();
  const site = fakeSite();
  const none = visit(site, undefined);
  assert.equal((await none.booted).boot, "fresh");
  assert.equal(none.loads[0]._makeSnapshot, false);

  const caches = new FakeCaches();
  const unbuilt = visit(site, caches, { wheels: ["a.whl"] });
  assert.equal((await unbuilt.booted).boot, "fresh");
  assert.equal(caches.entries().size, 0);

  globalThis.__fakePyodide.failSnapshot = true;
  const failing = visit(site, caches);
  assert.equal((await failing.booted).boot, "fresh");
  assert.equal(await failing.storedState, "failed");
  assert.equal(caches.entries().size, 0);
});
