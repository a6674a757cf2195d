// The positional model (a 7-element array: id, pubkey, created_at, kind,
// tags, content, sig; packed lowercase hex tag values as byte strings) in
// CBOR (jackson-dataformat-cbor) and MessagePack (msgpack-core), and the
// BSON document of the bson profile (the MongoDB bson library).
package binostr.interop

import com.fasterxml.jackson.core.JsonToken
import com.fasterxml.jackson.dataformat.cbor.CBORFactory
import com.fasterxml.jackson.dataformat.cbor.CBORParser
import org.bson.BsonBinary
import org.bson.BsonBinaryReader
import org.bson.BsonBinarySubType
import org.bson.BsonBinaryWriter
import org.bson.BsonType
import org.bson.io.BasicOutputBuffer
import org.msgpack.core.MessagePack
import org.msgpack.value.ValueType
import java.io.ByteArrayOutputStream
import java.math.BigInteger
import java.nio.ByteBuffer
import java.nio.charset.CodingErrorAction

/** Checks a decoded u64 / kind and builds the event from positional fields. */
private fun positional(id: ByteArray, pubkey: ByteArray, createdAt: BigInteger, kind: BigInteger,
                       tags: List<List<String>>, content: String, sig: ByteArray): Event {
    check(createdAt.signum() >= 0 && createdAt.bitLength() <= 64) { "created_at $createdAt outside u64" }
    check(kind.signum() >= 0 && kind <= BigInteger.valueOf(0xffff)) { "kind $kind outside 0..=65535" }
    return Event(id, pubkey, createdAt.toLong(), kind.toInt(), tags, content, sig)
}

private fun unsignedBig(v: Long): BigInteger = BigInteger(java.lang.Long.toUnsignedString(v))

class JacksonCbor : Codec("cbor-packed", "jackson-dataformat-cbor", CBORFactory::class.java) {
    private val factory = CBORFactory()

    override val note = "streaming CBORParser: array lengths are not checked against 7 by the library (the adapter does); " +
        "text written with writeUTF8String (writeString chunks long strings as indefinite-length)"

    override fun decode(b: ByteArray): Event {
        (factory.createParser(b) as CBORParser).use { p ->
            check(p.nextToken() == JsonToken.START_ARRAY) { "not an array" }
            val id = bytes(p, "id")
            val pubkey = bytes(p, "pubkey")
            val createdAt = uint(p, "created_at")
            val kind = uint(p, "kind")
            check(p.nextToken() == JsonToken.START_ARRAY) { "tags: not an array" }
            val tags = ArrayList<List<String>>()
            while (p.nextToken() == JsonToken.START_ARRAY) {
                val t = ArrayList<String>()
                while (true) {
                    when (p.nextToken()) {
                        JsonToken.VALUE_EMBEDDED_OBJECT -> t.add(Hex.unpack(p.binaryValue))
                        JsonToken.VALUE_STRING -> t.add(p.text.also { check(!Hex.isLower(it)) { "packable hex as text" } })
                        JsonToken.END_ARRAY -> break
                        else -> error("tag value: neither bytes nor text")
                    }
                }
                tags.add(t)
            }
            check(p.currentToken() == JsonToken.END_ARRAY) { "tag: not an array" }
            check(p.nextToken() == JsonToken.VALUE_STRING) { "content: not text" }
            val content = p.text
            val sig = bytes(p, "sig")
            check(p.nextToken() == JsonToken.END_ARRAY) { "event: more than 7 elements" }
            check(p.nextToken() == null) { "trailing bytes" }
            return positional(id, pubkey, createdAt, kind, tags, content, sig)
        }
    }

    private fun bytes(p: CBORParser, name: String): ByteArray {
        check(p.nextToken() == JsonToken.VALUE_EMBEDDED_OBJECT) { "$name: not a byte string" }
        return p.binaryValue
    }

    private fun uint(p: CBORParser, name: String): BigInteger {
        check(p.nextToken() == JsonToken.VALUE_NUMBER_INT) { "$name: not an integer" }
        return p.bigIntegerValue
    }

    /**
     * Text as UTF-8 bytes with a definite length: CBORGenerator.writeString(String)
     * writes a long string (thousands of characters) as an indefinite-length
     * string of chunks, which our canonical decoder refuses (README.md, findings).
     */
    private fun text(g: com.fasterxml.jackson.core.JsonGenerator, s: String) {
        val b = s.toByteArray(Charsets.UTF_8)
        g.writeUTF8String(b, 0, b.size)
    }

    override fun encode(e: Event): ByteArray {
        val out = ByteArrayOutputStream()
        factory.createGenerator(out).use { g ->
            g.writeStartArray(null, 7)
            g.writeBinary(e.id); g.writeBinary(e.pubkey)
            if (e.createdAt >= 0) g.writeNumber(e.createdAt) else g.writeNumber(unsignedBig(e.createdAt))
            g.writeNumber(e.kind)
            g.writeStartArray(null, e.tags.size)
            for (t in e.tags) {
                g.writeStartArray(null, t.size)
                for (v in t) if (Hex.isLower(v)) g.writeBinary(Hex.decode(v)) else text(g, v)
                g.writeEndArray()
            }
            g.writeEndArray()
            text(g, e.content)
            g.writeBinary(e.sig)
            g.writeEndArray()
        }
        return out.toByteArray()
    }
}

class MsgpackCore : Codec("msgpack", "msgpack-core", MessagePack::class.java) {
    private val unpackerConfig = MessagePack.UnpackerConfig()
        .withActionOnMalformedString(CodingErrorAction.REPORT).withActionOnUnmappableString(CodingErrorAction.REPORT)

    override val note = "MessageUnpacker with CodingErrorAction.REPORT for strings (its default replaces malformed UTF-8)"

    override fun decode(b: ByteArray): Event {
        unpackerConfig.newUnpacker(b).use { u ->
            check(u.unpackArrayHeader() == 7) { "event: not an array of 7" }
            val id = bin(u); val pubkey = bin(u)
            val createdAt = u.unpackBigInteger(); val kind = u.unpackBigInteger()
            val n = u.unpackArrayHeader()
            check(n <= b.size) { "tags: $n entries in ${b.size} bytes" }
            val tags = ArrayList<List<String>>(n)
            repeat(n) {
                val m = u.unpackArrayHeader()
                check(m <= b.size) { "tag: $m values in ${b.size} bytes" }
                val t = ArrayList<String>(m)
                repeat(m) {
                    when (u.nextFormat.valueType) {
                        ValueType.BINARY -> t.add(Hex.unpack(bin(u)))
                        ValueType.STRING -> t.add(u.unpackString().also { s -> check(!Hex.isLower(s)) { "packable hex as text" } })
                        else -> error("tag value: neither bin nor str")
                    }
                }
                tags.add(t)
            }
            val content = u.unpackString()
            val sig = bin(u)
            check(!u.hasNext()) { "trailing bytes" }
            return positional(id, pubkey, createdAt, kind, tags, content, sig)
        }
    }

    private fun bin(u: org.msgpack.core.MessageUnpacker): ByteArray {
        val n = u.unpackBinaryHeader()
        check(n in 0..(1 shl 24)) { "bin of $n bytes" }
        return u.readPayload(n)
    }

    override fun encode(e: Event): ByteArray {
        val p = MessagePack.newDefaultBufferPacker()
        p.packArrayHeader(7)
        p.packBinaryHeader(32).writePayload(e.id)
        p.packBinaryHeader(32).writePayload(e.pubkey)
        if (e.createdAt >= 0) p.packLong(e.createdAt) else p.packBigInteger(unsignedBig(e.createdAt))
        p.packInt(e.kind)
        p.packArrayHeader(e.tags.size)
        for (t in e.tags) {
            p.packArrayHeader(t.size)
            for (v in t) if (Hex.isLower(v)) Hex.decode(v).let { p.packBinaryHeader(it.size).writePayload(it) } else p.packString(v)
        }
        p.packString(e.content)
        p.packBinaryHeader(64).writePayload(e.sig)
        return p.toByteArray()
    }
}

private val BSON_KEYS = listOf("id", "pubkey", "created_at", "kind", "tags", "content", "sig")

class MongoBson : Codec("bson", "org.mongodb bson (BsonBinaryReader/Writer)", BsonBinaryReader::class.java) {
    override val note = "streaming BsonBinaryReader: keys checked in NIP-01 order by the adapter; array keys are not checked to be \"0\",\"1\",..."

    override fun decode(b: ByteArray): Event {
        val buf = ByteBuffer.wrap(b)
        BsonBinaryReader(buf).use { r ->
            r.readStartDocument()
            val f = HashMap<String, Any>()
            for (k in BSON_KEYS) {
                val type = r.readBsonType()
                check(type != BsonType.END_OF_DOCUMENT) { "missing $k" }
                val name = r.readName()
                check(name == k) { "key $name, want $k" }
                f[k] = when (k) {
                    "id", "pubkey", "sig" -> binary(r, type, k)
                    "created_at" -> { check(type == BsonType.INT64) { "created_at: $type" }; r.readInt64().also { check(it >= 0) { "negative created_at" } } }
                    "kind" -> { check(type == BsonType.INT32) { "kind: $type" }; r.readInt32() }
                    "content" -> { check(type == BsonType.STRING) { "content: $type" }; r.readString() }
                    else -> tags(r, type)
                }
            }
            check(r.readBsonType() == BsonType.END_OF_DOCUMENT) { "more than 7 keys" }
            r.readEndDocument()
            check(!buf.hasRemaining() && r.bsonInput.position == b.size) { "trailing bytes" }
            val kind = f["kind"] as Int
            @Suppress("UNCHECKED_CAST")
            return positional(f["id"] as ByteArray, f["pubkey"] as ByteArray, BigInteger.valueOf(f["created_at"] as Long),
                BigInteger.valueOf(kind.toLong()), f["tags"] as List<List<String>>, f["content"] as String, f["sig"] as ByteArray)
        }
    }

    private fun binary(r: BsonBinaryReader, type: BsonType, k: String): ByteArray {
        check(type == BsonType.BINARY) { "$k: $type" }
        val bin = r.readBinaryData()
        check(bin.type == BsonBinarySubType.BINARY.value) { "$k: binary subtype ${bin.type}" }
        return bin.data
    }

    private fun tags(r: BsonBinaryReader, type: BsonType): List<List<String>> {
        check(type == BsonType.ARRAY) { "tags: $type" }
        r.readStartArray()
        val out = ArrayList<List<String>>()
        while (true) {
            val t = r.readBsonType()
            if (t == BsonType.END_OF_DOCUMENT) break
            check(t == BsonType.ARRAY) { "tag: $t" }
            r.readStartArray()
            val tag = ArrayList<String>()
            while (true) {
                val v = r.readBsonType()
                if (v == BsonType.END_OF_DOCUMENT) break
                    tag.add(when (v) {
                    BsonType.STRING -> r.readString().also { check(!Hex.isLower(it)) { "packable hex as text" } }
                    BsonType.BINARY -> Hex.unpack(binary(r, v, "tag value"))
                    else -> error("tag value: $v")
                })
            }
            r.readEndArray()
            out.add(tag)
        }
        r.readEndArray()
        return out
    }

    override fun encode(e: Event): ByteArray {
        check(e.createdAt >= 0) { "created_at above BSON int64" }
        val out = BasicOutputBuffer()
        BsonBinaryWriter(out).use { w ->
            w.writeStartDocument()
            w.writeBinaryData("id", BsonBinary(e.id))
            w.writeBinaryData("pubkey", BsonBinary(e.pubkey))
            w.writeInt64("created_at", e.createdAt)
            w.writeInt32("kind", e.kind)
            w.writeStartArray("tags")
            for (t in e.tags) {
                w.writeStartArray()
                for (v in t) if (Hex.isLower(v)) w.writeBinaryData(BsonBinary(Hex.decode(v))) else w.writeString(v)
                w.writeEndArray()
            }
            w.writeEndArray()
            w.writeString("content", e.content)
            w.writeBinaryData("sig", BsonBinary(e.sig))
            w.writeEndDocument()
        }
        return out.toByteArray()
    }
}
