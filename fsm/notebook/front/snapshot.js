// The warm boot of the site's "try it": a memory snapshot of pyodide with the rules engine
// installed and imported, kept in the browser's Cache Storage by the first visit and restored by
// the next (worker.js).  Booting pyodide and importing fsm, python-statemachine and pydot costs
// seconds on every visit, the HTTP cache saves none of it; restoring the snapshot is a copy.
//
// pyodide's own snapshot (loadPyodide's `_makeSnapshot` / `_loadSnapshot`, makeMemorySnapshot)
// holds the WebAssembly memory only: the files Python sees (MEMFS) live in JavaScript, so the
// installed packages' files are kept beside it and written back before Python starts (fsInit).
// One cache entry holds both:
//   u32 MAGIC, u32 header length, u32 memory offset, u32 memory length, header (JSON: [[path, size]...]),
//   the files' bytes one after another, zeros up to the memory offset (16-aligned), the memory snapshot.
// The entry's key names pyodide's version and the site's build (wheels/index.json), so a new
// build never restores an old snapshot; the cache keeps only the newest entry.

export const CACHE = "fsm-try-snapshot";
const MAGIC = 0x66736d31; // "fsm1"
const WORDS = 4;
const PAGE = 65536; // a WebAssembly memory page

/** The cache key of the snapshot of this pyodide and this build of the site. */
export function snapshotKey(base, pyodideVersion, build) {
  return `${base}snapshot/${encodeURIComponent(pyodideVersion)}/${encodeURIComponent(build)}`;
}

/** Every file under `root` in pyodide's file system, as [path relative to root, bytes]. */
export function listFiles(FS, root) {
  const out = [];
  const walk = (dir, rel) => {
    for (const name of FS.readdir(dir)) {
      if (name === "." || name === "..") continue;
      const path = `${dir}/${name}`;
      const sub = rel ? `${rel}/${name}` : name;
      if (FS.isDir(FS.stat(path).mode)) walk(path, sub);
      else out.push([sub, FS.readFile(path)]);
    }
  };
  walk(root.replace(/\/+$/, ""), "");
  return out;
}

/** Write back what listFiles gave (the directories made as needed). */
export function writeFiles(FS, root, files) {
  const top = root.replace(/\/+$/, "");
  const made = new Set();
  for (const [rel, bytes] of files) {
    const dir = rel.includes("/") ? `${top}/${rel.slice(0, rel.lastIndexOf("/"))}` : top;
    if (!made.has(dir)) FS.mkdirTree(dir), made.add(dir);
    FS.writeFile(`${top}/${rel}`, bytes);
  }
}

/** The parts of one cache entry (for a Blob: nothing is copied until the browser stores it). */
export function packSnapshot(memory, files) {
  const header = new TextEncoder().encode(JSON.stringify(files.map(([rel, bytes]) => [rel, bytes.length])));
  const start = WORDS * 4 + header.length + files.reduce((n, [, bytes]) => n + bytes.length, 0);
  const offset = Math.ceil(start / 16) * 16;
  const head = new Uint32Array([MAGIC, header.length, offset, memory.length]);
  return [new Uint8Array(head.buffer), header, ...files.map(([, bytes]) => bytes), new Uint8Array(offset - start), memory];
}

/** A cache entry's bytes back as {memory, files}; views, not copies.  Throws on anything else. */
export function unpackSnapshot(bytes) {
  if (bytes.byteOffset % 4 || bytes.length < WORDS * 4) throw new Error("not a snapshot");
  const [magic, headerLength, offset, memoryLength] = new Uint32Array(bytes.buffer, bytes.byteOffset, WORDS);
  if (magic !== MAGIC || offset % 16 || offset + memoryLength !== bytes.length) throw new Error("not a snapshot");
  const sizes = JSON.parse(new TextDecoder().decode(bytes.subarray(WORDS * 4, WORDS * 4 + headerLength)));
  let at = WORDS * 4 + headerLength;
  const files = sizes.map(([rel, size]) => [rel, bytes.subarray(at, (at += size))]);
  if (at > offset) throw new Error("not a snapshot");
  return { memory: bytes.subarray(offset), files };
}

/** The stored snapshot under `key`, or null; `caches` is the worker's CacheStorage. */
export async function loadStored(caches, key) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(key);
  return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
}

/** Store one snapshot under `key` and drop every other (older builds' snapshots are dead weight). */
export async function store(caches, key, parts) {
  const cache = await caches.open(CACHE);
  for (const old of await cache.keys()) if (old.url !== key) await cache.delete(old);
  await cache.put(key, new Response(new Blob(parts), { headers: { "content-type": "application/octet-stream" } }));
}

export async function forget(caches, key) {
  const cache = await caches.open(CACHE);
  await cache.delete(key);
}

/** pyodide.asm.mjs's module factory, wrapped so that the module's memory is grown to `size` bytes
 * before the snapshot is copied in: loadPyodide asks for INITIAL_MEMORY, but the module exports a
 * memory of its own, so a snapshot taken after Python's heap grew would not fit. */
export function growingModule(create, size) {
  return (settings) => {
    const instantiate = settings.instantiateWasm;
    if (instantiate) {
      settings.instantiateWasm = (imports, success) =>
        instantiate(imports, (instance, module) => {
          const memory = instance.exports.memory;
          const short = size - memory.buffer.byteLength;
          if (short > 0) memory.grow(Math.ceil(short / PAGE));
          success(instance, module);
        });
    }
    return create(settings);
  };
}
