// Torture, JS side: the cases of `binostr torture generate DIR --mutations N`
// against every JS decoder. Each case file runs in its own child process
// (torture-child.mjs, V8 heap capped) with a watchdog per case; a child that
// dies is a crash at the case it had started, one that makes no progress for
// --timeout-ms is a hang there, and the run resumes after that case.
// Mutations are not on disk: they are regenerated here from the manifest's
// seed and count with a port of `torture::mutation` (src/torture.rs) over the
// same bases (the golden encoding and the representable ones of the first 8
// generated events). The 10,000,000-deep nesting-bomb recipes are not
// expanded; the 20,000-deep bombs of nesting-bomb.frames are run.
// Writes results/interop/torture-js.csv; crashes and hangs are reported, and
// the exit status is 0 unless the harness itself fails.
//
//   node torture.mjs [--dir DIR] [--mutations N] [--timeout-ms MS] [--out CSV]

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { Buffer } from "node:buffer";

import { CODECS, ROOT, libraryLabel } from "./lib/profiles.mjs";
import { frame, unframe } from "./lib/event.mjs";
import { binostrOk } from "./lib/binostr.mjs";
import { writeCsv } from "./lib/csv.mjs";

const { values: args } = parseArgs({
  options: {
    dir: { type: "string" },
    mutations: { type: "string", default: "1000" },
    "timeout-ms": { type: "string", default: "10000" },
    "heap-mb": { type: "string", default: "1024" },
    out: { type: "string", default: join(ROOT, "results", "interop", "torture-js.csv") },
  },
});
const here = dirname(fileURLToPath(import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "binostr-torture-js-"));
process.on("exit", () => rmSync(tmp, { recursive: true, force: true }));

const dir = args.dir ?? join(tmp, "cases");
if (!args.dir) {
  binostrOk(["torture", "generate", dir, "--mutations", args.mutations]);
}
const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));

// --- mutations: a port of src/torture.rs (SplitMix64, FNV-1a stream, ops) ---
const M64 = (1n << 64n) - 1n;
class SplitMix {
  constructor(seed) {
    this.s = seed & M64;
  }
  next() {
    this.s = (this.s + 0x9e3779b97f4a7c15n) & M64;
    let z = this.s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
    return z ^ (z >> 31n);
  }
  below(n) {
    return Number(this.next() % BigInt(n));
  }
}
function streamOf(id) {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(id)) h = ((h ^ BigInt(b)) * 0x100000001b3n) & M64;
  return h;
}
function mutation(bases, id, seed, i) {
  const rng = new SplitMix(BigInt(seed) ^ streamOf(id) ^ ((BigInt(i) * 0xa0761d6478bd642fn) & M64));
  const b = [...bases[rng.below(bases.length)]];
  const ops = 1 + rng.below(4);
  for (let k = 0; k < ops; k++) {
    const at = rng.below(b.length + 1);
    const op = rng.below(7);
    if (op === 0 && at < b.length) b[at] ^= 1 << rng.below(8);
    else if (op === 1) b.splice(at, 0, Number(rng.next() & 0xffn));
    else if (op === 2 && at < b.length) b.splice(at, 1);
    else if (op === 3 && at < b.length) b[at] = Number(rng.next() & 0xffn);
    else if (op === 4) {
      const n = [1, 2, 4, 8][rng.below(4)];
      for (let j = at; j < Math.min(at + n, b.length); j++) b[j] = 0xff;
    } else if (op === 5) b.splice(at, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
    else if (at < b.length) {
      const end = Math.min(at + 1 + rng.below(32), b.length);
      b.splice(at, 0, ...b.slice(at, end));
    } else b.push(Number(rng.next() & 0xffn));
  }
  return Buffer.from(b);
}

const generated = join(tmp, "generated.jsonl");
binostrOk(["corpus", "generate", "--seed", "1", "--count", "8", "-o", generated]);

function mutationFile(id) {
  const names = readFileSync(join(dir, id, "fields.names"), "utf8").split("\n");
  const trailingZero = unframe(readFileSync(join(dir, id, "fields.frames")))[names.indexOf("trailing-zero")];
  const golden = trailingZero.subarray(0, trailingZero.length - 1);
  const bases = [golden, ...unframe(binostrOk(["encode", "--profile", id, generated]).stdout)];
  const cases = [];
  for (let i = 0; i < manifest.mutations; i++) cases.push(mutation(bases, id, manifest.seed, i));
  const file = join(tmp, `${id}-mutation.frames`);
  writeFileSync(file, frame(cases));
  return { file, names: cases.map((_, i) => `mutation-${i}`) };
}

// --- running one case file, resuming after a crash or hang ---------------
function runFrom(id, file, start) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${args["heap-mb"]}`, join(here, "torture-child.mjs"), id, file, String(start)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const results = [];
    let current = null;
    let done = false;
    let hung = false;
    let stderr = "";
    const timeout = Number(args["timeout-ms"]);
    let timer = setTimeout(onHang, timeout);
    function onHang() {
      hung = true;
      child.kill("SIGKILL");
    }
    child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-2000)));
    createInterface({ input: child.stdout }).on("line", (line) => {
      const [tag, i, verdict, kind] = line.split(" ");
      if (tag === "B") {
        current = Number(i);
        clearTimeout(timer);
        timer = setTimeout(onHang, timeout);
      } else if (tag === "R") {
        results.push({ i: Number(i), verdict, kind });
        current = null;
      } else if (tag === "D") done = true;
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ results, current, done, hung, code, signal, stderr });
    });
  });
}

async function runFile(id, file, names) {
  const counts = { cases: names.length, clean_error: 0, accepted: 0, crash: 0, hang: 0 };
  const detail = { kinds: {}, crashes: [], hangs: [] };
  let start = 0;
  while (start < names.length) {
    const r = await runFrom(id, file, start);
    for (const { verdict, kind } of r.results) {
      if (verdict === "a") counts.accepted++;
      else {
        counts.clean_error++;
        detail.kinds[kind] = (detail.kinds[kind] ?? 0) + 1;
      }
    }
    if (r.done) break;
    const at = r.current ?? (r.results.length ? r.results[r.results.length - 1].i + 1 : start);
    if (r.hung) {
      counts.hang++;
      detail.hangs.push(names[at]);
    } else {
      counts.crash++;
      const why = r.signal ?? `exit ${r.code}`;
      const last = r.stderr.trim().split("\n").filter(Boolean).pop() ?? "";
      detail.crashes.push(`${names[at]} (${why}${last ? `: ${last.slice(0, 120)}` : ""})`);
    }
    start = at + 1;
  }
  return { counts, detail };
}

const rows = [];
let failures = 0;
for (const codec of CODECS) {
  const pdir = join(dir, codec.id);
  if (!existsSync(pdir)) continue;
  const files = readdirSync(pdir)
    .filter((f) => f.endsWith(".frames"))
    .map((f) => {
      const cls = f.replace(/\.frames$/, "");
      return { cls, file: join(pdir, f), names: readFileSync(join(pdir, `${cls}.names`), "utf8").split("\n").filter(Boolean) };
    });
  const m = mutationFile(codec.id);
  files.push({ cls: "mutation", ...m });
  for (const { cls, file, names } of files) {
    const t0 = Date.now();
    const { counts, detail } = await runFile(codec.id, file, names);
    if (counts.crash || counts.hang) failures++;
    const kinds = Object.entries(detail.kinds).map(([k, n]) => `${k} ${n}`).join(" ");
    const notes = [
      kinds && `errors: ${kinds}`,
      detail.crashes.length && `crashed at: ${detail.crashes.slice(0, 5).join("; ")}`,
      detail.hangs.length && `hung at: ${detail.hangs.slice(0, 5).join("; ")}`,
    ].filter(Boolean);
    rows.push([codec.id, libraryLabel(codec), codec.version, cls, counts.cases, counts.clean_error, counts.accepted, counts.crash, counts.hang, notes.join(" | ")]);
    console.log(`${codec.id.padEnd(15)} ${cls.padEnd(17)} ${String(counts.cases).padStart(5)} cases: ${counts.clean_error} clean error, ${counts.accepted} accepted, ${counts.crash} crash, ${counts.hang} hang  ${((Date.now() - t0) / 1000).toFixed(1)} s ${notes.join(" | ")}`);
  }
  if (existsSync(join(pdir, "nesting-bomb.recipes.json"))) {
    rows.push([codec.id, libraryLabel(codec), codec.version, "nesting-bomb-recipes", 0, 0, 0, 0, 0, `not run: ${manifest.bomb_depth}-deep recipes are expanded only by the Rust runner`]);
  }
}

writeCsv(args.out, ["profile", "library", "version", "class", "cases", "clean_error", "accepted", "crash", "hang", "detail"], rows);
// Crashes and hangs are findings about upstream libraries, reported, not failures
// of this harness (as for the library subjects of `binostr torture run`).
console.log(`torture: seed ${manifest.seed}, ${manifest.mutations} mutations per profile; ${failures} case files with a crash or hang`);
