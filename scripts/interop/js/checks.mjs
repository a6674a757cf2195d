// Interop checks, JS side: for every profile of the vectors file, decode our
// bytes with the JS library, compare the event, re-encode and compare bytes
// (deterministic profiles) or events, and have `binostr decode` read the JS
// bytes back. nostr-tools verifies every vector event and the results
// manifest signature events. Writes results/interop/checks-js.csv, one row per
// registry profile and library (libraries and reasons: ../coverage.json);
// exits 1 on any failure that is not pinned in ../divergences.json, on a pin
// that no longer happens (so the pins stay true), and on any disagreement
// between those lists, the registry and this harness.
//
//   node checks.mjs [--vectors FILE] [--events JSONL] [--manifest FILE]... [--out CSV]
//                   [--coverage JSON] [--divergences JSON]
//
// --events builds vectors from a JSONL file with `binostr encode`, for when
// vectors/interop-v1.json does not exist yet.

import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Buffer } from "node:buffer";
import { verifyEvent } from "nostr-tools/pure";

import { CODECS, ROOT, codecFor, libraryLabel, versionOf } from "./lib/profiles.mjs";
import { LISTS, NOT_COVERED, OWN_CHECKS, coverageOf, listDrift, loadLists } from "./lib/lists.mjs";
import { frame, toJson, toNostrTools, unframe } from "./lib/event.mjs";
import { binostr, binostrOk } from "./lib/binostr.mjs";
import { writeCsv } from "./lib/csv.mjs";

const { values: args } = parseArgs({
  options: {
    vectors: { type: "string", default: join(ROOT, "vectors", "interop-v1.json") },
    events: { type: "string" },
    manifest: { type: "string", multiple: true, default: [] },
    out: { type: "string", default: join(ROOT, "results", "interop", "checks-js.csv") },
    coverage: { type: "string", default: join(LISTS, "coverage.json") },
    divergences: { type: "string", default: join(LISTS, "divergences.json") },
  },
});

const lists = loadLists(args.coverage, args.divergences);
const tmp = mkdtempSync(join(tmpdir(), "binostr-interop-js-"));
process.on("exit", () => rmSync(tmp, { recursive: true, force: true }));

/** Vectors in the interop-v1 shape, from binostr encode of a JSONL file. */
function vectorsFromEvents(path) {
  const lines = readFileSync(path, "utf8").split("\n").filter((l) => l.trim() !== "");
  const profiles = JSON.parse(binostrOk(["profiles", "--json"]).stdout).filter((p) => p.enabled);
  const vectors = lines.map((json, i) => ({ name: `line-${i + 1}`, json, encodings: {}, event: JSON.parse(json) }));
  for (const p of profiles) {
    const r = binostrOk(["encode", "--profile", p.id, path]);
    const recs = unframe(r.stdout);
    // encode skips the events the profile cannot represent and names their ids on stderr;
    // those lines get no encoding (as in the vectors file), the others line up.
    const refused = new Set([...String(r.stderr).matchAll(/^  not representable: ([0-9a-f]{64}):/gm)].map((m) => m[1]));
    const kept = vectors.filter((v) => !refused.has(v.event.id));
    if (recs.length !== kept.length) {
      throw new Error(`${p.id}: ${recs.length} records for ${lines.length} events, ${refused.size} not representable`);
    }
    for (const v of vectors) if (refused.has(v.event.id)) v.encodings[p.id] = null;
    recs.forEach((rec, k) => (kept[k].encodings[p.id] = Buffer.from(rec).toString("hex")));
  }
  return { schema: 1, generator: `binostr encode of ${path}`, profiles, vectors };
}

let doc;
const fromEvents = !existsSync(args.vectors) && Boolean(args.events);
if (!fromEvents && existsSync(args.vectors)) doc = JSON.parse(readFileSync(args.vectors, "utf8"));
else if (fromEvents) doc = vectorsFromEvents(args.events);
else {
  console.error(`no vectors: ${args.vectors} does not exist (write it with \`binostr vectors -o vectors/interop-v1.json\`), and no --events given`);
  process.exit(1);
}
if (doc.schema !== 1) throw new Error(`unknown vectors schema ${doc.schema}`);
console.log(`vectors: ${doc.vectors.length} from ${doc.generator}`);
const drift = listDrift(doc.profiles.map((p) => p.id), lists, CODECS);
for (const d of drift) console.log(`fail: ${d}`);
if (drift.length) {
  console.log(`${drift.length} disagreements between the registry, scripts/interop/*.json and this harness`);
  process.exit(1);
}

const rows = [];
let failures = 0;

/**
 * Has `binostr decode` read the JS records; returns the reason each record
 * failed (by index). A rejected record ends a decode run, so the run resumes
 * after it.
 */
function rustFailures(profile, records, expected) {
  const failed = new Map();
  let from = 0;
  while (from < records.length) {
    const file = join(tmp, `${profile}.bin`);
    writeFileSync(file, frame(records.slice(from)));
    const r = binostr(["decode", "--profile", profile, file]);
    const lines = String(r.stdout).split("\n").filter((l) => l !== "");
    lines.forEach((line, k) => line !== expected[from + k] && failed.set(from + k, "rust decodes the JS bytes to another event"));
    if (r.status === 0) break;
    if (r.status !== 65) throw new Error(`binostr decode: exit ${r.status}: ${String(r.stderr).trim()}`);
    failed.set(from + lines.length, `rust rejects the JS bytes: ${String(r.stderr).trim().replace(/^.*?record \d+: /, "")}`);
    from += lines.length + 1;
  }
  return failed;
}

/**
 * The pins that matched nothing. A `vector:NAME` pin is stale when that
 * vector passed or is missing; with --events the vectors are corpus lines,
 * so pins naming a vector of the vectors file are not exercised.
 */
function staleKeys(pin, used, vectors) {
  return Object.keys(pin).filter((k) => {
    if (used.has(k)) return false;
    const name = k.startsWith("vector:") ? k.slice("vector:".length) : null;
    return !(fromEvents && name !== null && !vectors.some((v) => v.name === name));
  });
}

/** A pin's reason, with its vector's name for a `vector:NAME` pin. */
const pinReason = (pin, key) => (key.startsWith("vector:") ? `${key.slice("vector:".length)}: ${pin[key]}` : pin[key]);

for (const p of doc.profiles) {
  const codec = codecFor(p.id);
  if (!codec) {
    const entry = coverageOf(lists.coverage, p.id);
    if (!entry) console.error(`NOT COVERED: ${p.id}: ${NOT_COVERED}`);
    const [status, reason] = entry ? ["not-supported", entry.reason] : ["not-covered", NOT_COVERED];
    rows.push({ profile: p.id, library: "", version: "", vectors: 0, decode_ok: "", reencode: "", rust_decodes: "", status, reason });
    continue;
  }
  const present = doc.vectors.filter((v) => v.encodings?.[p.id]);
  // Per vector: what failed, if anything (decode, reencode, rust).
  const outcomes = present.map((v) => ({ name: v.name, failed: null, why: "" }));
  const jsRecords = [];
  const owners = [];
  let decodeOk = 0;
  let reencodeOk = 0;
  present.forEach((v, i) => {
    const o = outcomes[i];
    const bytes = Buffer.from(v.encodings[p.id], "hex");
    let event;
    try {
      event = codec.decode(bytes);
      if (toJson(event) !== v.json) throw new Error("decodes to another event");
    } catch (e) {
      Object.assign(o, { failed: "decode", why: `decode: ${e.message}` });
      return;
    }
    decodeOk++;
    let again;
    try {
      again = Buffer.from(codec.encode(event));
    } catch (e) {
      Object.assign(o, { failed: "encode", why: `encode: ${e.message}` });
      return;
    }
    jsRecords.push(again);
    owners.push(i);
    if (p.deterministic ? again.equals(bytes) : toJson(codec.decode(again)) === v.json) reencodeOk++;
    else Object.assign(o, { failed: "reencode", why: p.deterministic ? "re-encoded bytes differ" : "re-encoded bytes decode to another event" });
  });
  const rust = rustFailures(p.id, jsRecords, owners.map((i) => present[i].json));
  for (const [k, why] of rust) {
    const o = outcomes[owners[k]];
    Object.assign(o, { failed: o.failed ? `${o.failed}+rust` : "rust", why: o.failed ? `${o.why}; ${why}` : why });
  }

  // Failures pinned in divergences.json are reported, not counted; a pin
  // that no longer fails is a failure, so the pins stay true. Each part of a
  // failure ("decode", "encode", "reencode", "rust") must be pinned, by the
  // vector (`vector:NAME`) or by that part's key.
  const pin = lists.pins[p.id]?.[codec.library] ?? {};
  const unexpected = [];
  const used = new Set();
  const parts = (o) => o.failed.split("+");
  for (const o of outcomes) {
    if (!o.failed) continue;
    if (pin[`vector:${o.name}`]) used.add(`vector:${o.name}`);
    else if (parts(o).every((x) => pin[x])) parts(o).forEach((x) => used.add(x));
    else unexpected.push(`${o.name}: ${o.why}`);
  }
  const stale = staleKeys(pin, used, present);
  const pinned = [...used].map((k) => pinReason(pin, k));
  const n = present.length;
  const reasons = [
    codec.id !== p.id ? `same bytes as ${codec.id}` : "",
    n === 0 ? "no vectors carry this profile" : "",
    ...unexpected.slice(0, 5),
    unexpected.length > 5 ? `and ${unexpected.length - 5} more` : "",
    ...stale.map((x) => `pinned divergence no longer happens (${x}); update scripts/interop/divergences.json`),
    ...pinned,
  ].filter(Boolean);
  const status = n === 0 || unexpected.length || stale.length ? "fail" : pinned.length ? "known-divergence" : "ok";
  if (status === "fail") failures++;
  rows.push({
    profile: p.id,
    library: libraryLabel(codec),
    version: codec.version,
    vectors: n,
    decode_ok: decodeOk,
    reencode: `${reencodeOk}/${n} ${p.deterministic ? "identical" : "equal events"}`,
    rust_decodes: `${jsRecords.length - rust.size}/${jsRecords.length}`,
    status,
    reason: reasons.join("; "),
  });
}

// nostr-tools: every vector event's id and BIP-340 signature.
{
  const library = OWN_CHECKS["nip01-verify"];
  const pin = lists.pins["nip01-verify"]?.[library] ?? {};
  let ok = 0;
  const unexpected = [];
  const used = new Set();
  for (const v of doc.vectors) {
    const valid = verifyEvent(toNostrTools(codecFor("json").decode(Buffer.from(v.json))));
    if (valid) ok++;
    else if (pin[`vector:${v.name}`]) used.add(`vector:${v.name}`);
    else unexpected.push(`${v.name}: does not verify`);
  }
  const stale = staleKeys(pin, used, doc.vectors).map((x) => `pinned divergence no longer happens (${x}); update scripts/interop/divergences.json`);
  const status = unexpected.length || stale.length ? "fail" : used.size ? "known-divergence" : "ok";
  if (status === "fail") failures++;
  const reason = [...unexpected.slice(0, 5), ...stale, ...[...used].map((k) => pinReason(pin, k))].join("; ");
  rows.push({ profile: "nip01-verify", library, version: versionOf("nostr-tools"), vectors: doc.vectors.length, decode_ok: ok, reencode: "", rust_decodes: "", status, reason });
}

// nostr-tools: the results manifest signature events (NIP-94 kind 1063).
function checkManifest(path) {
  let reason = "";
  try {
    const e = JSON.parse(readFileSync(path, "utf8"));
    if (e.kind !== 1063) reason = `kind ${e.kind}, expected 1063`;
    else if (!verifyEvent(e)) reason = "id or signature does not verify";
  } catch (err) {
    reason = `unreadable: ${err.message}`;
  }
  return reason;
}
const campaigns = join(ROOT, "results", "campaigns");
const found = existsSync(campaigns)
  ? readdirSync(campaigns).map((d) => join(campaigns, d, "manifest.event.json")).filter((f) => existsSync(f))
  : [];
const manifests = [...new Set([...found, ...args.manifest])];
if (manifests.length === 0) console.log("manifest: no manifest found (results/campaigns/*/manifest.event.json); skipped");
for (const m of manifests) {
  const reason = checkManifest(m);
  if (reason) failures++;
  console.log(`manifest ${m}: ${reason || "verifies"}`);
  rows.push({ profile: "manifest-event", library: "nostr-tools verifyEvent", version: versionOf("nostr-tools"), vectors: 1, decode_ok: reason ? 0 : 1, reencode: "", rust_decodes: "", status: reason ? "fail" : "ok", reason: `${m.startsWith(ROOT) ? m.slice(ROOT.length + 1) : m}${reason ? `: ${reason}` : ""}` });
}

const COLUMNS = ["profile", "library", "version", "vectors", "decode_ok", "reencode", "rust_decodes", "status", "reason"];
writeCsv(args.out, COLUMNS, rows.map((r) => COLUMNS.map((c) => r[c])));
for (const r of rows) console.log(`${r.status.padEnd(16)} ${r.profile.padEnd(16)} ${r.library} ${r.version} decode ${r.decode_ok}/${r.vectors} reencode ${r.reencode} rust ${r.rust_decodes} ${r.reason}`);
const counted = rows.filter((r) => r.status !== "not-supported" && r.status !== "not-covered");
const pinnedRows = rows.filter((r) => r.status === "known-divergence").map((r) => r.profile);
if (pinnedRows.length) console.log(`passed with pinned divergences (scripts/interop/divergences.json): ${pinnedRows.join(", ")}`);
console.log(`checks: ${counted.length - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
