// Decode timing, JS side: each library decodes the same framed corpus stream
// (`binostr encode --profile P`) into the semantic event (raw id, pubkey and
// sig; packed hex tag values restored as strings), as the Rust `decode`
// workload does. Records are split from the stream once, outside the timing;
// every record is first decoded and checked against the corpus JSON. Writes
// results/interop/js.csv: the median of the repetitions, in ns per event.
//
//   node timing.mjs [--events JSONL] [--quick] [--out CSV]
// --quick: the first 1,000 events, 3 repetitions (default: all, 11).

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Buffer } from "node:buffer";

import { CODECS, ROOT, libraryLabel } from "./lib/profiles.mjs";
import { toJson, unframe } from "./lib/event.mjs";
import { binostrOk } from "./lib/binostr.mjs";
import { writeCsv } from "./lib/csv.mjs";

const { values: args } = parseArgs({
  options: {
    events: { type: "string" },
    quick: { type: "boolean", default: false },
    out: { type: "string", default: join(ROOT, "results", "interop", "js.csv") },
  },
});
const REPS = args.quick ? 3 : 11;
const LIMIT = args.quick ? 1000 : Infinity;

const tmp = mkdtempSync(join(tmpdir(), "binostr-timing-js-"));
process.on("exit", () => rmSync(tmp, { recursive: true, force: true }));
// The default corpus selection (results/corpus/default, git-ignored), made
// with `binostr corpus default` when absent.
let events = args.events ?? join(ROOT, "results", "corpus", "default", "selection.jsonl");
if (!args.events && !existsSync(events)) {
  binostrOk(["corpus", "default", "-o", join(tmp, "corpus")]);
  events = join(tmp, "corpus", "selection.jsonl");
}
const lines = readFileSync(events, "utf8").split("\n").filter((l) => l.trim() !== "");
if (lines.length > LIMIT) {
  events = join(tmp, "events.jsonl");
  writeFileSync(events, lines.slice(0, LIMIT).join("\n") + "\n");
}
const expected = lines.slice(0, LIMIT).map((l) => toJson(CODECS[0].decode(Buffer.from(l))));

const load = () => loadavg().map((l) => l.toFixed(1)).join(" ");
console.log(`node ${process.version}, ${cpus().length} cores, load average ${load()}`);
const rows = [];
for (const codec of CODECS) {
  const records = unframe(binostrOk(["encode", "--profile", codec.id, events]).stdout);
  if (records.length !== expected.length) throw new Error(`${codec.id}: ${records.length} records for ${expected.length} events`);
  records.forEach((r, i) => {
    if (toJson(codec.decode(r)) !== expected[i]) throw new Error(`${codec.id}: record ${i} decodes to another event`);
  });
  const samples = [];
  let sink = 0;
  for (let rep = 0; rep <= REPS; rep++) {
    const t0 = process.hrtime.bigint();
    for (const r of records) sink += codec.decode(r).kind;
    const ns = Number(process.hrtime.bigint() - t0);
    if (rep > 0) samples.push(ns / records.length); // rep 0 warms the JIT up
  }
  samples.sort((a, b) => a - b);
  const median = samples[samples.length >> 1];
  if (sink < 0) console.log(sink);
  rows.push(["js", codec.id, libraryLabel(codec), codec.version, median.toFixed(0), records.length]);
  console.log(`${codec.id.padEnd(16)} ${libraryLabel(codec)} ${codec.version}: ${median.toFixed(0)} ns/event (median of ${REPS}, ${records.length} events)`);
}

console.log(`load average at the end: ${load()}`);
writeCsv(args.out, ["language", "format", "library", "version", "ns_per_event", "events"], rows);
