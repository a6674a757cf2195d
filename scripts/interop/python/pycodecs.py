"""Independent Python codecs for binostr's wire profiles.

Each codec maps a library's decoded value to the semantic event (a dict of
NIP-01 fields with lowercase-hex id, pubkey and sig) following the layout in
src/profiles/<id>.rs, and encodes a semantic event with the same library.
Hex policy (all packing profiles): a tag value that is non-empty, even-length
lowercase hex travels as bytes; everything else as text.
"""

import io
import json
import os
import re
import struct
import sys
from importlib import metadata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
SCHEMAS = os.path.join(ROOT, "schemas")
GEN_DIR = os.environ.get(
    "BINOSTR_INTEROP_GEN",
    os.path.join(os.path.expanduser("~"), ".cache", "binostr-interop", "python-gen"),
)
LOWER_HEX = re.compile(r"(?:[0-9a-f]{2})+")
FIELDS = ("id", "pubkey", "created_at", "kind", "tags", "content", "sig")


class Malformed(ValueError):
    """The library decoded something that is not an event of this profile."""


def is_lower_hex(s):
    return LOWER_HEX.fullmatch(s) is not None


def pack_value(v):
    return bytes.fromhex(v) if is_lower_hex(v) else v


def unpack_value(v):
    if isinstance(v, (bytes, bytearray)):
        if not v:
            raise Malformed("empty packed hex")
        return bytes(v).hex()
    if isinstance(v, str):
        if is_lower_hex(v):
            raise Malformed("lowercase hex sent as text")
        return v
    raise Malformed(f"tag value of type {type(v).__name__}")


def fixed(v, n, what):
    if not isinstance(v, (bytes, bytearray)) or len(v) != n:
        raise Malformed(f"{what} is not {n} bytes")
    return bytes(v).hex()


def uint(v, top, what):
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= top:
        raise Malformed(f"{what} out of range")
    return int(v)


def text(v, what):
    if not isinstance(v, str):
        raise Malformed(f"{what} is not text")
    return v


def utf8(v, what):
    if not isinstance(v, (bytes, bytearray)):
        raise Malformed(f"{what} is not a string")
    return bytes(v).decode("utf-8")


def hex_text(v, n, what):
    s = utf8(v, what)
    if len(s) != 2 * n or not is_lower_hex(s):
        raise Malformed(f"{what} is not {2 * n} lowercase hex characters")
    return s


def event(id_, pubkey, created_at, kind, tags, content, sig):
    return {
        "id": id_,
        "pubkey": pubkey,
        "created_at": created_at,
        "kind": kind,
        "tags": tags,
        "content": content,
        "sig": sig,
    }


def from_positional(a, value=unpack_value):
    """The shared positional model: [id, pubkey, created_at, kind, tags, content, sig]."""
    if not isinstance(a, list) or len(a) != 7:
        raise Malformed("not a 7-element array")
    tags = a[4]
    if not isinstance(tags, list) or not all(isinstance(t, list) for t in tags):
        raise Malformed("tags is not an array of arrays")
    return event(
        fixed(a[0], 32, "id"),
        fixed(a[1], 32, "pubkey"),
        uint(a[2], 2**64 - 1, "created_at"),
        uint(a[3], 65535, "kind"),
        [[value(v) for v in t] for t in tags],
        text(a[5], "content"),
        fixed(a[6], 64, "sig"),
    )


def to_positional(e):
    return [
        bytes.fromhex(e["id"]),
        bytes.fromhex(e["pubkey"]),
        e["created_at"],
        e["kind"],
        [[pack_value(v) for v in t] for t in e["tags"]],
        e["content"],
        bytes.fromhex(e["sig"]),
    ]


class Codec:
    """One profile as one Python library reads and writes it."""

    profile = ""
    library = ""
    dist = ""  # PyPI distribution for the version column ("" = stdlib)
    # Byte identity is expected of our re-encoding: the profile defines one
    # canonical form that this library writes. False where the module
    # documents that the format has none (builders may order or size
    # objects differently); then the re-encoded bytes must decode to the
    # same event instead.
    canonical = True

    def version(self):
        if not self.dist:
            return f"python {sys.version.split()[0]}"
        return metadata.version(self.dist)

    def decode(self, b):
        raise NotImplementedError

    def encode(self, e):
        raise NotImplementedError


class Json(Codec):
    library, dist = "json (stdlib)", ""

    def __init__(self, profile="json"):
        self.profile = profile

    def decode(self, b):
        o = json.loads(bytes(b).decode("utf-8"))
        if not isinstance(o, dict) or sorted(o) != sorted(FIELDS):
            raise Malformed("not an object with the seven NIP-01 fields")
        tags = o["tags"]
        if not isinstance(tags, list) or not all(
            isinstance(t, list) and all(isinstance(v, str) for v in t) for t in tags
        ):
            raise Malformed("tags is not an array of arrays of strings")
        for k, n in (("id", 64), ("pubkey", 64), ("sig", 128)):
            if not isinstance(o[k], str) or len(o[k]) != n or not is_lower_hex(o[k]):
                raise Malformed(f"{k} is not {n} lowercase hex characters")
        return event(
            o["id"],
            o["pubkey"],
            uint(o["created_at"], 2**64 - 1, "created_at"),
            uint(o["kind"], 65535, "kind"),
            tags,
            text(o["content"], "content"),
            o["sig"],
        )

    def encode(self, e):
        ordered = {k: e[k] for k in FIELDS}
        return json.dumps(ordered, ensure_ascii=False, separators=(",", ":")).encode()


class Cbor2(Codec):
    profile, library, dist = "cbor-packed", "cbor2", "cbor2"

    def native(self, b):
        import cbor2

        return cbor2.loads(b)

    def decode(self, b):
        return from_positional(self.native(b))

    def encode(self, e):
        import cbor2

        return cbor2.dumps(to_positional(e))


class DagCbor(Codec):
    """DAG-CBOR decoders from the dag-cbor-benchmark shootout (decode only)."""

    profile = "cbor-packed"

    def __init__(self, library):
        self.library = self.dist = library

    def native(self, b):
        if self.library == "cbrrr":
            import cbrrr

            return cbrrr.decode_dag_cbor(bytes(b))
        if self.library == "libipld":
            import libipld

            return libipld.decode_dag_cbor(bytes(b))
        import dag_cbor

        return dag_cbor.decode(bytes(b))

    def decode(self, b):
        return from_positional(self.native(b))

    def encode(self, e):
        if self.library == "cbrrr":
            import cbrrr

            return cbrrr.encode_dag_cbor(to_positional(e))
        if self.library == "libipld":
            import libipld

            return libipld.encode_dag_cbor(to_positional(e))
        import dag_cbor

        return dag_cbor.encode(to_positional(e))


class Msgpack(Codec):
    profile, library, dist = "msgpack", "msgpack", "msgpack"

    def decode(self, b):
        import msgpack

        return from_positional(msgpack.unpackb(b, raw=False))

    def encode(self, e):
        import msgpack

        return msgpack.packb(to_positional(e), use_bin_type=True)


def _protobuf_module():
    sys.path.insert(0, GEN_DIR) if GEN_DIR not in sys.path else None
    import event_pb2  # generated by setup.sh with grpcio-tools' protoc

    return event_pb2


class Protobuf(Codec):
    profile, library, dist = "protobuf", "protobuf", "protobuf"

    def decode(self, b):
        m = _protobuf_module().Event.FromString(bytes(b))
        tags = []
        for t in m.tags:
            values = []
            for v in t.values:
                which = v.WhichOneof("value")
                if which == "hex":
                    values.append(unpack_value(v.hex))
                elif which == "text":
                    values.append(unpack_value(v.text))
                else:
                    raise Malformed("tag value with no member set")
            tags.append(values)
        return event(
            fixed(m.id, 32, "id"),
            fixed(m.pubkey, 32, "pubkey"),
            m.created_at,
            uint(m.kind, 65535, "kind"),
            tags,
            m.content,
            fixed(m.sig, 64, "sig"),
        )

    def encode(self, e):
        pb = _protobuf_module()
        m = pb.Event(
            id=bytes.fromhex(e["id"]),
            pubkey=bytes.fromhex(e["pubkey"]),
            created_at=e["created_at"],
            kind=e["kind"],
            content=e["content"],
            sig=bytes.fromhex(e["sig"]),
        )
        for t in e["tags"]:
            tag = m.tags.add()
            for v in t:
                p = pack_value(v)
                if isinstance(p, bytes):
                    tag.values.add(hex=p)
                else:
                    tag.values.add(text=p)
        return m.SerializeToString(deterministic=True)


class Flatbuffers(Codec):
    """Size-prefixed FlatBuffer of schemas/event.fbs, read through the runtime's
    Table accessors (the code flatc would generate, written out here)."""

    profile, library, dist = "flatbuffers", "flatbuffers", "flatbuffers"
    canonical = False

    def decode(self, b):
        from flatbuffers import number_types as N
        from flatbuffers.table import Table

        b = bytes(b)
        if len(b) < 8 or struct.unpack_from("<I", b, 0)[0] != len(b) - 4:
            raise Malformed("size prefix does not match the input")
        buf = bytearray(b[4:])
        root = Table(buf, struct.unpack_from("<I", buf, 0)[0])

        def struct_bytes(t, field, n):
            o = t.Offset(4 + 2 * field)
            if not o:
                raise Malformed("required struct missing")
            return bytes(buf[t.Pos + o : t.Pos + o + n]).hex()

        def tables(t, field):
            o = t.Offset(4 + 2 * field)
            if not o:
                return []
            start, n = t.Vector(o), t.VectorLen(o)
            return [Table(buf, t.Indirect(start + 4 * i)) for i in range(n)]

        def string(t, field):
            o = t.Offset(4 + 2 * field)
            return None if not o else t.String(o + t.Pos).decode("utf-8")

        def ubytes(t, field):
            o = t.Offset(4 + 2 * field)
            if not o:
                return None
            start = t.Vector(o)
            return bytes(buf[start : start + t.VectorLen(o)])

        def scalar(t, field, flags):
            o = t.Offset(4 + 2 * field)
            return t.Get(flags, o + t.Pos) if o else 0

        tags = []
        for tag in tables(root, 5):
            values = []
            for v in tables(tag, 0):
                h, s = ubytes(v, 0), string(v, 1)
                if (h is None) == (s is None):
                    raise Malformed("value must set exactly one of hex and text")
                values.append(unpack_value(h if h is not None else s))
            tags.append(values)
        return event(
            struct_bytes(root, 0, 32),
            struct_bytes(root, 1, 32),
            scalar(root, 3, N.Uint64Flags),
            scalar(root, 4, N.Uint16Flags),
            tags,
            string(root, 6) or "",
            struct_bytes(root, 2, 64),
        )

    def encode(self, e):
        import flatbuffers

        b = flatbuffers.Builder(1024)
        tag_offsets = []
        for t in e["tags"]:
            value_offsets = []
            for v in t:
                p = pack_value(v)
                off = b.CreateByteVector(p) if isinstance(p, bytes) else b.CreateString(p)
                b.StartObject(2)
                b.PrependUOffsetTRelativeSlot(0 if isinstance(p, bytes) else 1, off, 0)
                value_offsets.append(b.EndObject())
            b.StartVector(4, len(value_offsets), 4)
            for off in reversed(value_offsets):
                b.PrependUOffsetTRelative(off)
            values = b.EndVector()
            b.StartObject(1)
            b.PrependUOffsetTRelativeSlot(0, values, 0)
            tag_offsets.append(b.EndObject())
        b.StartVector(4, len(tag_offsets), 4)
        for off in reversed(tag_offsets):
            b.PrependUOffsetTRelative(off)
        tags = b.EndVector()
        content = b.CreateString(e["content"])
        b.StartObject(7)
        b.PrependUint64Slot(3, e["created_at"], 0)
        b.PrependUOffsetTRelativeSlot(5, tags, 0)
        b.PrependUOffsetTRelativeSlot(6, content, 0)
        for field, key in ((2, "sig"), (1, "pubkey"), (0, "id")):
            raw = bytes.fromhex(e[key])
            b.Prep(1, len(raw))
            for byte in reversed(raw):
                b.PrependUint8(byte)
            b.Slot(field)
        b.PrependUint16Slot(4, e["kind"], 0)
        b.FinishSizePrefixed(b.EndObject())
        return bytes(b.Output())


class Flexbuffers(Codec):
    profile, library, dist = "flexbuffers", "flatbuffers.flexbuffers", "flatbuffers"
    canonical = False

    def decode(self, b):
        from flatbuffers import flexbuffers

        return from_positional(flexbuffers.Loads(bytearray(b)))

    def encode(self, e):
        from flatbuffers import flexbuffers

        fb = flexbuffers.Builder()
        with fb.Vector():
            fb.Blob(bytes.fromhex(e["id"]))
            fb.Blob(bytes.fromhex(e["pubkey"]))
            fb.UInt(e["created_at"])
            fb.UInt(e["kind"])
            with fb.Vector():
                for t in e["tags"]:
                    with fb.Vector():
                        for v in t:
                            p = pack_value(v)
                            fb.Blob(p) if isinstance(p, bytes) else fb.String(p)
            fb.String(e["content"])
            fb.Blob(bytes.fromhex(e["sig"]))
        return bytes(fb.Finish())


class Avro(Codec):
    profile, library, dist = "avro", "fastavro", "fastavro"
    _schema = None

    def schema(self):
        if Avro._schema is None:
            import fastavro

            with open(os.path.join(SCHEMAS, "event.avsc")) as f:
                Avro._schema = fastavro.parse_schema(json.load(f))
        return Avro._schema

    def decode(self, b):
        import fastavro

        bio = io.BytesIO(bytes(b))
        r = fastavro.schemaless_reader(bio, self.schema(), None)
        if bio.tell() != len(b):
            raise Malformed("trailing bytes")
        return event(
            fixed(r["id"], 32, "id"),
            fixed(r["pubkey"], 32, "pubkey"),
            uint(r["created_at"], 2**63 - 1, "created_at"),
            uint(r["kind"], 65535, "kind"),
            [[unpack_value(v) for v in t] for t in r["tags"]],
            r["content"],
            fixed(r["sig"], 64, "sig"),
        )

    def encode(self, e):
        import fastavro

        a = to_positional(e)
        bio = io.BytesIO()
        fastavro.schemaless_writer(bio, self.schema(), dict(zip(FIELDS, a)))
        return bio.getvalue()


class Bson(Codec):
    profile, library, dist = "bson", "pymongo bson", "pymongo"

    def decode(self, b):
        import bson

        d = bson.decode(bytes(b))
        if list(d) != list(FIELDS):
            raise Malformed("keys are not the seven NIP-01 fields in order")
        return from_positional([d[k] for k in FIELDS])

    def encode(self, e):
        import bson
        from bson.int64 import Int64

        a = to_positional(e)
        a[2] = Int64(a[2])
        return bson.encode(dict(zip(FIELDS, a)))


class ThriftCompact(Codec):
    profile, library, dist = "thrift-compact", "thriftpy2", "thriftpy2"
    _module = None

    def module(self):
        if ThriftCompact._module is None:
            import thriftpy2

            ThriftCompact._module = thriftpy2.load(
                os.path.join(SCHEMAS, "event.thrift"), module_name="event_thrift"
            )
        return ThriftCompact._module

    def decode(self, b):
        from thriftpy2.protocol import TCompactProtocolFactory
        from thriftpy2.utils import deserialize

        m = deserialize(self.module().Event(), bytes(b), TCompactProtocolFactory())
        tags = []
        for t in m.tags or []:
            values = []
            for v in t:
                if (v.hex is None) == (v.text is None):
                    raise Malformed("value must set exactly one of hex and text")
                values.append(unpack_value(v.hex if v.hex is not None else v.text))
            tags.append(values)
        return event(
            fixed(m.id, 32, "id"),
            fixed(m.pubkey, 32, "pubkey"),
            uint(m.created_at, 2**63 - 1, "created_at"),
            uint(m.kind, 65535, "kind"),
            tags,
            text(m.content, "content"),
            fixed(m.sig, 64, "sig"),
        )

    def encode(self, e):
        from thriftpy2.protocol import TCompactProtocolFactory
        from thriftpy2.utils import serialize

        t = self.module()

        def value(v):
            p = pack_value(v)
            return t.Value(hex=p) if isinstance(p, bytes) else t.Value(text=p)

        m = t.Event(
            id=bytes.fromhex(e["id"]),
            pubkey=bytes.fromhex(e["pubkey"]),
            sig=bytes.fromhex(e["sig"]),
            created_at=e["created_at"],
            kind=e["kind"],
            tags=[[value(v) for v in tag] for tag in e["tags"]],
            content=e["content"],
        )
        return serialize(m, TCompactProtocolFactory())


class CapnpPacked(Codec):
    profile, library, dist = "capnp-packed", "pycapnp", "pycapnp"
    canonical = False
    _schema = None

    def schema(self):
        if CapnpPacked._schema is None:
            import capnp

            CapnpPacked._schema = capnp.load(os.path.join(SCHEMAS, "event.capnp"))
        return CapnpPacked._schema

    def decode(self, b):
        r = self.schema().Event.from_bytes_packed(
            bytes(b), traversal_limit_in_words=len(b) * 2 + 64, nesting_limit=8
        )
        tags = []
        for t in r.tags:
            values = []
            for v in t:
                values.append(unpack_value(v.hex if v.which() == "hex" else v.text))
            tags.append(values)
        return event(
            fixed(r.id, 32, "id"),
            fixed(r.pubkey, 32, "pubkey"),
            r.createdAt,
            r.kind,
            tags,
            r.content,
            fixed(r.sig, 64, "sig"),
        )

    def encode(self, e):
        m = self.schema().Event.new_message()
        m.id = bytes.fromhex(e["id"])
        m.pubkey = bytes.fromhex(e["pubkey"])
        m.sig = bytes.fromhex(e["sig"])
        m.createdAt = e["created_at"]
        m.kind = e["kind"]
        tags = m.init("tags", len(e["tags"]))
        for i, t in enumerate(e["tags"]):
            values = tags.init(i, len(t))
            for j, v in enumerate(t):
                p = pack_value(v)
                if isinstance(p, bytes):
                    values[j].hex = p
                else:
                    values[j].text = p
        m.content = e["content"]
        return m.to_bytes_packed()


class Bencode(Codec):
    profile, library, dist = "bencode", "fastbencode", "fastbencode"

    def decode(self, b):
        import fastbencode

        a = fastbencode.bdecode(bytes(b))
        if not isinstance(a, list) or len(a) != 7 or not isinstance(a[4], list):
            raise Malformed("not a 7-element list")
        a[4] = [[utf8(v, "tag value") for v in t] for t in a[4]]
        a[5] = utf8(a[5], "content")
        return from_positional(a, value=lambda v: v)

    def encode(self, e):
        import fastbencode

        a = to_positional(e)
        a[4] = [[v.encode() for v in t] for t in e["tags"]]
        a[5] = e["content"].encode()
        return fastbencode.bencode(a)


class Tnetstring(Codec):
    profile, library, dist = "tnetstring", "tnetstring3", "tnetstring3"

    def decode(self, b):
        import tnetstring

        a = tnetstring.loads(bytes(b))
        if not isinstance(a, list) or len(a) != 7 or not isinstance(a[4], list):
            raise Malformed("not a 7-element list")
        if not all(isinstance(t, list) for t in a[4]):
            raise Malformed("tags is not a list of lists")
        return event(
            hex_text(a[0], 32, "id"),
            hex_text(a[1], 32, "pubkey"),
            uint(a[2], 2**64 - 1, "created_at"),
            uint(a[3], 65535, "kind"),
            [[utf8(v, "tag value") for v in t] for t in a[4]],
            utf8(a[5], "content"),
            hex_text(a[6], 64, "sig"),
        )

    def encode(self, e):
        import tnetstring

        return tnetstring.dumps(
            [
                e["id"].encode(),
                e["pubkey"].encode(),
                e["created_at"],
                e["kind"],
                [[v.encode() for v in t] for t in e["tags"]],
                e["content"].encode(),
                e["sig"].encode(),
            ]
        )


def codecs():
    """Every (profile, library) pair the harness checks, in registry order."""
    return [
        Json("json"),
        Json("json-sonic"),
        Json("json-simd"),
        Cbor2(),
        DagCbor("cbrrr"),
        DagCbor("libipld"),
        DagCbor("dag-cbor"),
        Msgpack(),
        Protobuf(),
        Flatbuffers(),
        Flexbuffers(),
        Avro(),
        Bson(),
        ThriftCompact(),
        CapnpPacked(),
        Bencode(),
        Tnetstring(),
    ]

