// The semantic NIP-01 event on the JS side, its canonical JSON, and framing.
//
// An event is {id, pubkey, sig: Uint8Array; created_at: number | bigint;
// kind: number; tags: string[][]; content: string}, the twin of the Rust
// `Event` (id, pubkey, sig as raw bytes). Two encodings agree when their
// decoded events give the same `toJson` string, which is what
// `binostr decode` writes (Event::write_json: NIP-01 field order, serde_json
// string escaping; JSON.stringify escapes a well-formed string the same way).

import { Buffer } from "node:buffer";

const LOWER_HEX = /^[0-9a-f]+$/;

/** Non-empty, even-length, lowercase hex: the tag values profiles pack as bytes. */
export function isLowerHex(s) {
  return s.length > 0 && s.length % 2 === 0 && LOWER_HEX.test(s);
}

export function bytesToHex(bytes) {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

export function hexToBytes(s) {
  if (!(s.length === 0 || isLowerHex(s))) throw new Error(`not lowercase hex: ${JSON.stringify(s).slice(0, 80)}`);
  const b = Buffer.from(s, "hex");
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** A decoded packed tag value back to its string (non-empty, as the profiles require). */
export function unpackHex(bytes) {
  if (bytes.byteLength === 0) throw new Error("empty packed hex value");
  return bytesToHex(bytes);
}

/** Checks a decoded field that must be exactly `n` raw bytes. */
export function fixed(bytes, n, what) {
  if (!(bytes instanceof Uint8Array) || bytes.byteLength !== n) {
    throw new Error(`${what}: expected ${n} bytes, got ${bytes?.byteLength ?? typeof bytes}`);
  }
  return bytes;
}

export function uint(v, max, what) {
  const ok = typeof v === "bigint" ? v >= 0n && v <= max : Number.isInteger(v) && v >= 0 && BigInt(v) <= max;
  if (!ok) throw new Error(`${what}: out of range: ${v}`);
  return typeof v === "bigint" && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

export const U64_MAX = (1n << 64n) - 1n;
export const I64_MAX = (1n << 63n) - 1n;

export function checkString(v, what) {
  if (typeof v !== "string") throw new Error(`${what}: expected a string, got ${typeof v}`);
  return v;
}

/** The compact NIP-01 JSON `binostr decode` writes for the same event. */
export function toJson(e) {
  let s = `{"id":"${bytesToHex(e.id)}","pubkey":"${bytesToHex(e.pubkey)}","created_at":${e.created_at},"kind":${e.kind},"tags":[`;
  for (let i = 0; i < e.tags.length; i++) {
    if (i > 0) s += ",";
    s += "[";
    const tag = e.tags[i];
    for (let j = 0; j < tag.length; j++) {
      if (j > 0) s += ",";
      s += JSON.stringify(tag[j]);
    }
    s += "]";
  }
  return `${s}],"content":${JSON.stringify(e.content)},"sig":"${bytesToHex(e.sig)}"}`;
}

const FIELDS = ["id", "pubkey", "created_at", "kind", "tags", "content", "sig"];
const CREATED_AT = /"created_at":(\d+)/;

/**
 * Parses NIP-01 JSON into an event with JSON.parse. created_at above 2^53
 * would lose precision in a JS number, so its digits are read back from the
 * text (`"created_at":` cannot occur inside a JSON string, whose quotes are
 * escaped).
 */
export function fromJson(text) {
  const o = JSON.parse(text);
  if (o === null || typeof o !== "object" || Array.isArray(o)) throw new Error("not a JSON object");
  const keys = Object.keys(o);
  if (keys.length !== 7 || !FIELDS.every((f) => f in o)) throw new Error(`fields ${keys.join(",")}`);
  let createdAt = o.created_at;
  if (!Number.isSafeInteger(createdAt)) createdAt = BigInt(CREATED_AT.exec(text)?.[1] ?? NaN);
  if (!Array.isArray(o.tags)) throw new Error("tags: not an array");
  const tags = o.tags.map((t, i) => {
    if (!Array.isArray(t)) throw new Error(`tag ${i}: not an array`);
    return t.map((v) => checkString(v, `tag ${i}`));
  });
  return {
    id: fixed(hexToBytes(checkString(o.id, "id")), 32, "id"),
    pubkey: fixed(hexToBytes(checkString(o.pubkey, "pubkey")), 32, "pubkey"),
    created_at: uint(createdAt, U64_MAX, "created_at"),
    kind: uint(o.kind, 65535n, "kind"),
    tags,
    content: checkString(o.content, "content"),
    sig: fixed(hexToBytes(checkString(o.sig, "sig")), 64, "sig"),
  };
}

/** The event as the plain object nostr-tools works with (hex strings, number created_at). */
export function toNostrTools(e) {
  return JSON.parse(toJson(e));
}

/** Splits a 4-byte big-endian length framed stream into records (views, not copies). */
export function unframe(buf) {
  const out = [];
  let at = 0;
  while (at < buf.length) {
    if (buf.length - at < 4) throw new Error(`truncated frame header at byte ${at}`);
    const n = buf.readUInt32BE(at);
    if (buf.length - at - 4 < n) throw new Error(`frame at byte ${at} declares ${n} bytes, ${buf.length - at - 4} left`);
    out.push(buf.subarray(at + 4, at + 4 + n));
    at += 4 + n;
  }
  return out;
}

/** Frames records as a 4-byte big-endian length + record stream. */
export function frame(records) {
  const parts = [];
  for (const r of records) {
    const h = Buffer.alloc(4);
    h.writeUInt32BE(r.byteLength);
    parts.push(h, r);
  }
  return Buffer.concat(parts);
}
