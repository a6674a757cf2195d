// One JS codec per binostr profile that has a JS library, each mapping the
// library's own values to and from the semantic event (lib/event.mjs).
// Layouts follow the `//!` headers of src/profiles/<id>.rs.
//
// A codec is {id, library, version, decode(bytes) -> event, encode(event) -> bytes,
// build?, note?}; `library` is its name in scripts/interop/coverage.json, which
// also gives the reason for every profile without a JS library.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Buffer } from "node:buffer";

import * as cborx from "cbor-x";
import * as msgpack from "@msgpack/msgpack";
import protobuf from "protobufjs";
import * as flatbuffers from "flatbuffers";
import { toReference } from "flatbuffers/mjs/flexbuffers.js";
import { Builder as FlexBuilder } from "flatbuffers/mjs/flexbuffers/builder.js";
import avro from "avsc";
import * as BSON from "bson";
import bencode from "bencode";
import * as $ from "capnp-es";

import { Event as CapnpEvent, Value as CapnpValue } from "../gen/event.js";
import {
  I64_MAX,
  U64_MAX,
  checkString,
  fixed,
  fromJson,
  hexToBytes,
  isLowerHex,
  toJson,
  uint,
  unpackHex,
} from "./event.mjs";

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(here, "..", "..", "..", "..");
const require = createRequire(import.meta.url);
const thrift = require("thrift");
const Int64 = require("node-int64");
const Long = require("long");
const thriftTypes = require("../gen/event_types.cjs");

export function versionOf(pkg) {
  return JSON.parse(readFileSync(join(here, "..", "node_modules", pkg, "package.json"), "utf8")).version;
}

const buf = (u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);

/**
 * An event from a positional 7-array (the shared model of cbor-packed,
 * msgpack and flexbuffers; bencode's list). `tagValue` and `text` map a tag
 * value and the content to strings, or throw.
 */
function fromPositional(a, tagValue, text = checkString) {
  if (!Array.isArray(a) || a.length !== 7) throw new Error("event: expected an array of 7");
  if (!Array.isArray(a[4])) throw new Error("tags: not an array");
  return {
    id: fixed(a[0], 32, "id"),
    pubkey: fixed(a[1], 32, "pubkey"),
    created_at: uint(a[2], U64_MAX, "created_at"),
    kind: uint(a[3], 65535n, "kind"),
    tags: a[4].map((t, i) => {
      if (!Array.isArray(t)) throw new Error(`tag ${i}: not an array`);
      return t.map((v) => tagValue(v, `tag ${i}`));
    }),
    content: text(a[5], "content"),
    sig: fixed(a[6], 64, "sig"),
  };
}

function toPositional(e, pack) {
  return [
    pack(e.id),
    pack(e.pubkey),
    e.created_at,
    e.kind,
    e.tags.map((t) => t.map((v) => (isLowerHex(v) ? pack(hexToBytes(v)) : v))),
    e.content,
    pack(e.sig),
  ];
}

/** A packed hex byte string or a text string, as the typed formats tell them apart. */
const hexOrText = (v, what) => (v instanceof Uint8Array ? unpackHex(v) : checkString(v, what));

// --- json ---------------------------------------------------------------
const json = {
  id: "json",
  library: "JSON (V8 built-in)",
  version: process.versions.v8,
  decode: (b) => fromJson(Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("utf8")),
  encode: (e) => Buffer.from(toJson(e), "utf8"),
};

// --- cbor-packed --------------------------------------------------------
const cborDecoder = new cborx.Decoder({ useRecords: false, mapsAsObjects: true });
const cborEncoder = new cborx.Encoder({ useRecords: false, tagUint8Array: false, useTag259ForMaps: false });
// cbor-x and @msgpack/msgpack write a JS number above 2^32 - 1 as a float64
// (CBOR `fb`, MessagePack `cb`), which the Rust decoders rightly refuse; such
// a created_at has to go in as a bigint, which both write as uint64.
const wideAsBigInt = (n) => (typeof n === "number" && n > 0xffffffff ? BigInt(n) : n);
const cborPacked = {
  id: "cbor-packed",
  library: "cbor-x",
  build: cborx.isNativeAccelerationEnabled ? "native cbor-extract add-on" : "pure JS",
  version: versionOf("cbor-x"),
  decode: (b) => fromPositional(cborDecoder.decode(b), hexOrText),
  encode: (e) => {
    const a = toPositional(e, (u8) => u8);
    a[2] = wideAsBigInt(a[2]);
    return cborEncoder.encode(a);
  },
};

// --- msgpack ------------------------------------------------------------
const mpDecoder = new msgpack.Decoder({ useBigInt64: true });
const mpEncoder = new msgpack.Encoder({ useBigInt64: true });
const mpInt = (n) => (typeof n === "bigint" && n <= 0xffffffffn ? Number(n) : wideAsBigInt(n));
const msgpackCodec = {
  id: "msgpack",
  library: "@msgpack/msgpack",
  version: versionOf("@msgpack/msgpack"),
  decode: (b) => fromPositional(mpDecoder.decode(b), hexOrText),
  encode: (e) => {
    const a = toPositional(e, (u8) => u8);
    a[2] = mpInt(a[2]);
    return mpEncoder.encode(a);
  },
};

// --- protobuf -----------------------------------------------------------
const protoRoot = new protobuf.Root().loadSync(join(ROOT, "schemas", "event.proto"), { keepCase: true });
const PbEvent = protoRoot.lookupType("binostr.Event");
const fromLong = (v) => (Long.isLong(v) ? BigInt(v.toString()) : v);
const protobufCodec = {
  id: "protobuf",
  library: "protobufjs",
  version: versionOf("protobufjs"),
  decode: (b) => {
    const m = PbEvent.decode(b);
    return {
      id: fixed(m.id, 32, "id"),
      pubkey: fixed(m.pubkey, 32, "pubkey"),
      created_at: uint(fromLong(m.created_at), U64_MAX, "created_at"),
      kind: uint(m.kind, 65535n, "kind"),
      tags: m.tags.map((t, i) =>
        t.values.map((v) => {
          if (v.value === "hex") return unpackHex(v.hex);
          if (v.value === "text") return v.text;
          throw new Error(`tag ${i}: a value with neither hex nor text`);
        }),
      ),
      content: m.content,
      sig: fixed(m.sig, 64, "sig"),
    };
  },
  encode: (e) => {
    // proto3 leaves defaults off the wire; protobufjs writes any field that is set.
    const m = { id: e.id, pubkey: e.pubkey };
    if (e.created_at != 0) m.created_at = Long.fromString(String(e.created_at), true);
    if (e.kind !== 0) m.kind = e.kind;
    m.tags = e.tags.map((t) => ({ values: t.map((v) => (isLowerHex(v) ? { hex: hexToBytes(v) } : { text: v })) }));
    if (e.content !== "") m.content = e.content;
    m.sig = e.sig;
    return PbEvent.encode(m).finish();
  },
};

// --- flatbuffers (ByteBuffer/Builder API; field slots of schemas/event.fbs) ---
// Event: id 0, pubkey 1, sig 2, created_at 3, kind 4, tags 5, content 6;
// Tag: values 0; Value: hex 0, text 1. A vtable slot is 4 + 2 * field index.
const slot = (i) => 4 + 2 * i;
function fbField(bb, table, i) {
  return bb.__offset(table, slot(i));
}
function fbBytes(bb, table, i) {
  const o = fbField(bb, table, i);
  if (!o) return null;
  const start = bb.__vector(table + o);
  return bb.bytes().subarray(start, start + bb.__vector_len(table + o));
}
function fbStruct(bb, table, i, n, what) {
  const o = fbField(bb, table, i);
  if (!o) throw new Error(`${what}: required field missing`);
  const at = table + o;
  if (at + n > bb.capacity()) throw new Error(`${what}: out of bounds`);
  return bb.bytes().slice(at, at + n);
}
function fbTables(bb, table, i) {
  const o = fbField(bb, table, i);
  if (!o) return [];
  const start = bb.__vector(table + o);
  const n = bb.__vector_len(table + o);
  const out = [];
  for (let k = 0; k < n; k++) out.push(bb.__indirect(start + 4 * k));
  return out;
}
const flatbuffersCodec = {
  id: "flatbuffers",
  library: "flatbuffers",
  version: versionOf("flatbuffers"),
  note: "read with the ByteBuffer API (JS flatbuffers has no verifier); written with Builder in the Rust generated create() order",
  decode: (b) => {
    const bb = new flatbuffers.ByteBuffer(b);
    if (b.byteLength < 8) throw new Error("shorter than a size-prefixed FlatBuffer");
    if (bb.readUint32(0) !== b.byteLength - 4) throw new Error("size prefix does not match the input length");
    bb.setPosition(4);
    const root = bb.readInt32(4) + 4;
    const tags = fbTables(bb, root, 5).map((tag, i) =>
      fbTables(bb, tag, 0).map((value) => {
        const hex = fbBytes(bb, value, 0);
        const textAt = fbField(bb, value, 1);
        if ((hex === null) === !textAt) throw new Error(`tag ${i}: a value must set exactly one of hex and text`);
        return hex !== null ? unpackHex(hex) : bb.__string(value + textAt);
      }),
    );
    const ca = fbField(bb, root, 3);
    const kd = fbField(bb, root, 4);
    const co = fbField(bb, root, 6);
    return {
      id: fbStruct(bb, root, 0, 32, "id"),
      pubkey: fbStruct(bb, root, 1, 32, "pubkey"),
      created_at: uint(ca ? bb.readUint64(root + ca) : 0n, U64_MAX, "created_at"),
      kind: kd ? bb.readUint16(root + kd) : 0,
      tags,
      content: co ? bb.__string(root + co) : "",
      sig: fbStruct(bb, root, 2, 64, "sig"),
    };
  },
  encode: (e) => {
    const fb = new flatbuffers.Builder(1024);
    const tagOffsets = e.tags.map((tag) => {
      const values = tag.map((v) => {
        const off = isLowerHex(v) ? fb.createByteVector(hexToBytes(v)) : fb.createString(v);
        fb.startObject(2);
        fb.addFieldOffset(isLowerHex(v) ? 0 : 1, off, 0);
        return fb.endObject();
      });
      fb.startVector(4, values.length, 4);
      for (let k = values.length - 1; k >= 0; k--) fb.addOffset(values[k]);
      const vec = fb.endVector();
      fb.startObject(1);
      fb.addFieldOffset(0, vec, 0);
      return fb.endObject();
    });
    fb.startVector(4, tagOffsets.length, 4);
    for (let k = tagOffsets.length - 1; k >= 0; k--) fb.addOffset(tagOffsets[k]);
    const tags = fb.endVector();
    const content = fb.createString(e.content);
    const struct = (bytes) => {
      fb.prep(1, bytes.length);
      for (let k = bytes.length - 1; k >= 0; k--) fb.writeInt8(bytes[k]);
      return fb.offset();
    };
    fb.startObject(7);
    fb.addFieldInt64(3, BigInt(e.created_at), 0n);
    fb.addFieldOffset(6, content, 0);
    fb.addFieldOffset(5, tags, 0);
    fb.addFieldStruct(2, struct(e.sig), 0);
    fb.addFieldStruct(1, struct(e.pubkey), 0);
    fb.addFieldStruct(0, struct(e.id), 0);
    fb.addFieldInt16(4, e.kind, 0);
    fb.finishSizePrefixed(fb.endObject());
    return fb.asUint8Array().slice();
  },
};

// --- flexbuffers ----------------------------------------------------------
const flexbuffersCodec = {
  id: "flexbuffers",
  library: "flatbuffers (flexbuffers module)",
  version: versionOf("flatbuffers"),
  decode: (b) => fromPositional(toReference(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)).toObject(), hexOrText),
  encode: (e) => {
    // Rust's builder shares no strings, so neither does this one.
    const fx = new FlexBuilder(2048, false, false, false);
    const blob = (u8) => fx.writeBlob(u8.buffer.slice(u8.byteOffset, u8.byteOffset + u8.byteLength));
    fx.startVector();
    blob(e.id);
    blob(e.pubkey);
    fx.addUInt(e.created_at);
    fx.addUInt(e.kind);
    fx.startVector();
    for (const tag of e.tags) {
      fx.startVector();
      for (const v of tag) isLowerHex(v) ? blob(hexToBytes(v)) : fx.writeString(v);
      fx.end();
    }
    fx.end();
    fx.writeString(e.content);
    blob(e.sig);
    fx.end();
    return fx.finish();
  },
};

// --- avro ---------------------------------------------------------------
// avsc's default long is a JS number that refuses values above 2^53; this
// logical-free long type keeps every i64 exact as a bigint (avsc README).
const avroLong = avro.types.LongType.__with({
  fromBuffer: (b) => b.readBigInt64LE(),
  toBuffer: (n) => {
    const b = Buffer.alloc(8);
    b.writeBigInt64LE(BigInt(n));
    return b;
  },
  fromJSON: BigInt,
  toJSON: Number,
  isValid: (n) => typeof n === "bigint",
  compare: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
});
const avroType = avro.Type.forSchema(JSON.parse(readFileSync(join(ROOT, "schemas", "event.avsc"), "utf8")), {
  registry: { long: avroLong },
});
const avroCodec = {
  id: "avro",
  library: "avsc",
  version: versionOf("avsc"),
  decode: (b) => {
    const r = avroType.fromBuffer(buf(b));
    return {
      id: r.id,
      pubkey: r.pubkey,
      created_at: uint(r.created_at, I64_MAX, "created_at"),
      kind: uint(r.kind, 65535n, "kind"),
      tags: r.tags.map((t) => t.map((v) => (Buffer.isBuffer(v) ? unpackHex(v) : v))),
      content: r.content,
      sig: r.sig,
    };
  },
  encode: (e) =>
    avroType.toBuffer({
      id: buf(e.id),
      pubkey: buf(e.pubkey),
      created_at: BigInt(e.created_at),
      kind: e.kind,
      tags: e.tags.map((t) => t.map((v) => (isLowerHex(v) ? buf(hexToBytes(v)) : v))),
      content: e.content,
      sig: buf(e.sig),
    }),
};

// --- bson ---------------------------------------------------------------
const BSON_KEYS = ["id", "pubkey", "created_at", "kind", "tags", "content", "sig"];
function bsonBinary(v, n, what) {
  if (!(v instanceof BSON.Binary) || v.sub_type !== 0) throw new Error(`${what}: expected binary subtype 0`);
  return n === null ? v.buffer : fixed(v.buffer, n, what);
}
const bsonCodec = {
  id: "bson",
  library: "bson",
  version: versionOf("bson"),
  decode: (b) => {
    const d = BSON.deserialize(b, { useBigInt64: true, promoteBuffers: false, promoteValues: true });
    const keys = Object.keys(d);
    if (keys.join() !== BSON_KEYS.join()) throw new Error(`keys ${keys.join(",")}`);
    if (typeof d.created_at !== "bigint") throw new Error("created_at: expected int64");
    if (!Array.isArray(d.tags)) throw new Error("tags: not an array");
    return {
      id: bsonBinary(d.id, 32, "id"),
      pubkey: bsonBinary(d.pubkey, 32, "pubkey"),
      created_at: uint(d.created_at, I64_MAX, "created_at"),
      kind: uint(d.kind, 65535n, "kind"),
      tags: d.tags.map((t, i) => {
        if (!Array.isArray(t)) throw new Error(`tag ${i}: not an array`);
        return t.map((v) => (typeof v === "string" ? v : unpackHex(bsonBinary(v, null, `tag ${i}`))));
      }),
      content: checkString(d.content, "content"),
      sig: bsonBinary(d.sig, 64, "sig"),
    };
  },
  encode: (e) =>
    BSON.serialize({
      id: new BSON.Binary(e.id, 0),
      pubkey: new BSON.Binary(e.pubkey, 0),
      created_at: BigInt(e.created_at),
      kind: e.kind,
      tags: e.tags.map((t) => t.map((v) => (isLowerHex(v) ? new BSON.Binary(hexToBytes(v), 0) : v))),
      content: e.content,
      sig: new BSON.Binary(e.sig, 0),
    }),
};

// --- thrift-compact (generated by `thrift --gen js:node,es6`) -------------
const i64ToBigInt = (v) => (v instanceof Int64 ? v.buffer.readBigInt64BE(v.offset) : BigInt(v));
const thriftCodec = {
  id: "thrift-compact",
  library: "thrift (TCompactProtocol)",
  version: versionOf("thrift"),
  decode: (b) => {
    const transport = new thrift.TFramedTransport(buf(b));
    const ev = new thriftTypes.Event();
    ev.read(new thrift.TCompactProtocol(transport));
    if (transport.readPos !== b.byteLength) throw new Error(`trailing bytes at ${transport.readPos}`);
    for (const f of ["id", "pubkey", "sig", "created_at", "kind", "tags", "content"]) {
      if (ev[f] === null || ev[f] === undefined) throw new Error(`${f}: required field missing`);
    }
    return {
      id: fixed(ev.id, 32, "id"),
      pubkey: fixed(ev.pubkey, 32, "pubkey"),
      created_at: uint(i64ToBigInt(ev.created_at), I64_MAX, "created_at"),
      kind: uint(ev.kind, 65535n, "kind"),
      tags: ev.tags.map((t, i) =>
        t.map((v) => {
          if ((v.hex === null) === (v.text === null)) throw new Error(`tag ${i}: a union value must set exactly one field`);
          return v.hex !== null ? unpackHex(v.hex) : v.text;
        }),
      ),
      content: checkString(ev.content, "content"),
      sig: fixed(ev.sig, 64, "sig"),
    };
  },
  encode: (e) => {
    let out = null;
    const transport = new thrift.TBufferedTransport(undefined, (msg) => {
      out = msg;
    });
    const createdAt = Buffer.alloc(8);
    createdAt.writeBigInt64BE(BigInt(e.created_at));
    new thriftTypes.Event({
      id: buf(e.id),
      pubkey: buf(e.pubkey),
      sig: buf(e.sig),
      created_at: new Int64(createdAt),
      kind: e.kind,
      tags: e.tags.map((t) => t.map((v) => new thriftTypes.Value(isLowerHex(v) ? { hex: buf(hexToBytes(v)) } : { text: v }))),
      content: e.content,
    }).write(new thrift.TCompactProtocol(transport));
    transport.flush();
    return new Uint8Array(out);
  },
};

// --- capnp-packed (generated by `capnp-es -ojs`) ---------------------------
// capnp-es can init a list only in a struct field; an inner list of a
// List(List(Value)) is initialised the way its own initList does it, with
// the public utils (allocate, tag word, list pointer), in place.
const ValueList = $.CompositeList(CapnpValue);
function initValueList(slot, length) {
  const size = ValueList._capnp.compositeSize;
  const c = slot.segment.allocate((size.dataByteLength + size.pointerLength * 8) * length + 8);
  $.utils.setStructPointer(length, size, c);
  const res = $.utils.initPointer(c.segment, c.byteOffset, slot);
  $.utils.setListPointer(res.offsetWords, $.ListElementSize.COMPOSITE, length, res.pointer, size);
  return slot;
}
const capnpCodec = {
  id: "capnp-packed",
  library: "capnp-es",
  version: versionOf("capnp-es"),
  decode: (b) => {
    const r = new $.Message(b, true).getRoot(CapnpEvent);
    const tags = [];
    const outer = r.tags;
    for (let i = 0; i < outer.length; i++) {
      const inner = outer.get(i);
      const values = [];
      for (let j = 0; j < inner.length; j++) {
        const v = inner.get(j);
        values.push(v.which() === CapnpValue.HEX ? unpackHex(v.hex.toUint8Array()) : v.text);
      }
      tags.push(values);
    }
    return {
      id: fixed(r.id.toUint8Array(), 32, "id"),
      pubkey: fixed(r.pubkey.toUint8Array(), 32, "pubkey"),
      created_at: uint(r.createdAt, U64_MAX, "created_at"),
      kind: r.kind,
      tags,
      content: r.content,
      sig: fixed(r.sig.toUint8Array(), 64, "sig"),
    };
  },
  encode: (e) => {
    const m = new $.Message();
    const r = m.initRoot(CapnpEvent);
    r._initId(32).copyBuffer(e.id);
    r._initPubkey(32).copyBuffer(e.pubkey);
    r._initSig(64).copyBuffer(e.sig);
    r.createdAt = BigInt(e.created_at);
    r.kind = e.kind;
    const tags = r._initTags(e.tags.length);
    e.tags.forEach((tag, i) => {
      const list = initValueList(tags.get(i), tag.length);
      tag.forEach((v, j) => {
        const value = list.get(j);
        if (isLowerHex(v)) value._initHex(v.length / 2).copyBuffer(hexToBytes(v));
        else value.text = v;
      });
    });
    r.content = e.content;
    return new Uint8Array(m.toPackedArrayBuffer());
  },
};

// --- bencode --------------------------------------------------------------
const utf8 = new TextDecoder("utf-8", { fatal: true });
const bencodeCodec = {
  id: "bencode",
  library: "bencode",
  version: versionOf("bencode"),
  decode: (b) => {
    const text = (v, what) => {
      if (!(v instanceof Uint8Array)) throw new Error(`${what}: expected a byte string`);
      return utf8.decode(v);
    };
    return fromPositional(bencode.decode(buf(b)), text, text);
  },
  encode: (e) => {
    const enc = new TextEncoder();
    return bencode.encode([
      buf(e.id),
      buf(e.pubkey),
      e.created_at,
      e.kind,
      e.tags.map((t) => t.map((v) => enc.encode(v))),
      enc.encode(e.content),
      buf(e.sig),
    ]);
  },
};

/** Every JS codec, in registry order. */
export const CODECS = [
  json,
  cborPacked,
  msgpackCodec,
  protobufCodec,
  flatbuffersCodec,
  flexbuffersCodec,
  avroCodec,
  bsonCodec,
  thriftCodec,
  capnpCodec,
  bencodeCodec,
];

/** Profiles whose bytes are another profile's: decoded by that codec. */
export const ALIASES = { "json-sonic": "json", "json-simd": "json" };

/** The library as the results name it: with the build that ran, where it has one. */
export const libraryLabel = (codec) => (codec.build ? `${codec.library} (${codec.build})` : codec.library);

export function codecFor(profile) {
  const id = ALIASES[profile] ?? profile;
  return CODECS.find((c) => c.id === id) ?? null;
}
