// Profiles with a schema in schemas/: protobuf (protobuf-java, generated
// code), Avro (Apache Avro's generic API, schema read at run time) and
// thrift-compact (libthrift's TCompactProtocol, fields read and written by
// hand through the protocol API: the Debian thrift 0.17 compiler's Java is
// for libthrift 0.17, not the pinned 0.25).
package binostr.interop

import binostr.EventOuterClass
import com.google.protobuf.ByteString
import org.apache.avro.Schema
import org.apache.avro.generic.GenericData
import org.apache.avro.generic.GenericDatumReader
import org.apache.avro.generic.GenericDatumWriter
import org.apache.avro.generic.GenericRecord
import org.apache.avro.io.DecoderFactory
import org.apache.avro.io.EncoderFactory
import org.apache.avro.util.Utf8
import org.apache.thrift.TConfiguration
import org.apache.thrift.protocol.TCompactProtocol
import org.apache.thrift.protocol.TField
import org.apache.thrift.protocol.TList
import org.apache.thrift.protocol.TProtocol
import org.apache.thrift.protocol.TProtocolUtil
import org.apache.thrift.protocol.TStruct
import org.apache.thrift.protocol.TType
import org.apache.thrift.transport.TMemoryBuffer
import org.apache.thrift.transport.TMemoryInputTransport
import java.io.ByteArrayOutputStream
import java.io.File
import java.nio.ByteBuffer

class ProtobufJava : Codec("protobuf", "protobuf-java (protoc 4.36.2 gencode)", com.google.protobuf.Message::class.java) {
    override val note = "parseFrom accepts any field order, repeated singular fields and unknown fields"

    override fun decode(b: ByteArray): Event {
        val m = EventOuterClass.Event.parseFrom(b)
        check(m.kind in 0..0xffff) { "kind ${m.kind} above 65535" }
        val tags = m.tagsList.mapIndexed { i, t ->
            t.valuesList.mapIndexed { j, v ->
                when (v.valueCase) {
                    EventOuterClass.TagValue.ValueCase.HEX -> Hex.unpack(v.hex.toByteArray())
                    EventOuterClass.TagValue.ValueCase.TEXT -> v.text.also { check(!Hex.isLower(it)) { "packable hex as text" } }
                    else -> error("tag $i value $j: no member set")
                }
            }
        }
        return Event(m.id.toByteArray(), m.pubkey.toByteArray(), m.createdAt, m.kind, tags, m.content, m.sig.toByteArray())
    }

    override fun encode(e: Event): ByteArray {
        val m = EventOuterClass.Event.newBuilder().setId(ByteString.copyFrom(e.id)).setPubkey(ByteString.copyFrom(e.pubkey))
            .setCreatedAt(e.createdAt).setKind(e.kind).setContent(e.content).setSig(ByteString.copyFrom(e.sig))
        for (t in e.tags) {
            val tag = EventOuterClass.Tag.newBuilder()
            for (v in t) tag.addValues(
                if (Hex.isLower(v)) EventOuterClass.TagValue.newBuilder().setHex(ByteString.copyFrom(Hex.decode(v)))
                else EventOuterClass.TagValue.newBuilder().setText(v))
            m.addTags(tag)
        }
        return m.build().toByteArray()
    }
}

class AvroGeneric(schemaFile: File) : Codec("avro", "Apache Avro (GenericDatumReader/Writer)", Schema::class.java) {
    private val schema: Schema = Schema.Parser().parse(schemaFile)
    private val reader = GenericDatumReader<GenericRecord>(schema)
    private val writer = GenericDatumWriter<GenericRecord>(schema)

    override val note = "binaryEncoder writes each array as one block with a plain count; the adapter refuses bytes after the datum"

    override fun decode(b: ByteArray): Event {
        val d = DecoderFactory.get().binaryDecoder(b, null)
        val r = reader.read(null, d)
        check(d.isEnd) { "trailing bytes" }
        val createdAt = r["created_at"] as Long
        val kind = r["kind"] as Int
        check(createdAt >= 0 && kind in 0..0xffff) { "created_at $createdAt or kind $kind out of range" }
        val tags = (r["tags"] as List<*>).map { t ->
            (t as List<*>).map { v ->
                when (v) {
                    is ByteBuffer -> Hex.unpack(ByteArray(v.remaining()).also { v.duplicate().get(it) })
                    is Utf8 -> v.toString().also { check(!Hex.isLower(it)) { "packable hex as text" } }
                    else -> error("tag value of type ${v?.javaClass}")
                }
            }
        }
        fun fixed(k: String) = (r[k] as GenericData.Fixed).bytes().copyOf()
        return Event(fixed("id"), fixed("pubkey"), createdAt, kind, tags, (r["content"] as Utf8).toString(), fixed("sig"))
    }

    override fun encode(e: Event): ByteArray {
        check(e.createdAt >= 0) { "created_at above Avro long" }
        val r = GenericData.Record(schema)
        r.put("id", GenericData.Fixed(schema.getField("id").schema(), e.id))
        r.put("pubkey", GenericData.Fixed(schema.getField("pubkey").schema(), e.pubkey))
        r.put("created_at", e.createdAt)
        r.put("kind", e.kind)
        r.put("tags", e.tags.map { t -> t.map<String, Any> { v -> if (Hex.isLower(v)) ByteBuffer.wrap(Hex.decode(v)) else v } })
        r.put("content", e.content)
        r.put("sig", GenericData.Fixed(schema.getField("sig").schema(), e.sig))
        val out = ByteArrayOutputStream()
        val enc = EncoderFactory.get().binaryEncoder(out, null)
        writer.write(r, enc)
        enc.flush()
        return out.toByteArray()
    }
}

class ThriftCompact : Codec("thrift-compact", "libthrift TCompactProtocol (hand-written struct code)", TCompactProtocol::class.java) {
    private val conf = TConfiguration(1 shl 24, 1 shl 24, 64)

    override val note = "TConfiguration max message size 16 MiB; readString decodes UTF-8 with replacement (no check)"

    override fun decode(b: ByteArray): Event {
        val trans = TMemoryInputTransport(conf, b)
        val p = TCompactProtocol(trans)
        p.readStructBegin()
        var id: ByteArray? = null; var pubkey: ByteArray? = null; var sig: ByteArray? = null
        var createdAt: Long? = null; var kind: Int? = null; var tags: List<List<String>>? = null; var content: String? = null
        while (true) {
            val f = p.readFieldBegin()
            if (f.type == TType.STOP) break
            when (f.id.toInt() to f.type) {
                1 to TType.STRING -> id = p.readBinaryBytes()
                2 to TType.STRING -> pubkey = p.readBinaryBytes()
                3 to TType.STRING -> sig = p.readBinaryBytes()
                4 to TType.I64 -> createdAt = p.readI64()
                5 to TType.I32 -> kind = p.readI32()
                6 to TType.LIST -> tags = readTags(p)
                7 to TType.STRING -> content = p.readString()
                else -> TProtocolUtil.skip(p, f.type)
            }
            p.readFieldEnd()
        }
        p.readStructEnd()
        check(trans.bytesRemainingInBuffer == 0) { "${trans.bytesRemainingInBuffer} trailing bytes" }
        check(createdAt != null && createdAt >= 0 && kind != null && kind in 0..0xffff) { "created_at $createdAt or kind $kind missing or out of range" }
        return Event(id ?: error("id missing"), pubkey ?: error("pubkey missing"), createdAt, kind,
            tags ?: error("tags missing"), content ?: error("content missing"), sig ?: error("sig missing"))
    }

    private fun TProtocol.readBinaryBytes(): ByteArray = readBinary().let { ByteArray(it.remaining()).also { a -> it.get(a) } }

    private fun readTags(p: TProtocol): List<List<String>> {
        val outer = p.readListBegin()
        check(outer.elemType == TType.LIST) { "tags: list of ${outer.elemType}" }
        val tags = ArrayList<List<String>>()
        repeat(outer.size) {
            val inner = p.readListBegin()
            check(inner.elemType == TType.STRUCT) { "tag: list of ${inner.elemType}" }
            val t = ArrayList<String>()
            repeat(inner.size) { t.add(readValue(p)) }
            p.readListEnd()
            tags.add(t)
        }
        p.readListEnd()
        return tags
    }

    private fun readValue(p: TProtocol): String {
        p.readStructBegin()
        var value: String? = null
        var set = 0
        while (true) {
            val f = p.readFieldBegin()
            if (f.type == TType.STOP) break
            when (f.id.toInt() to f.type) {
                1 to TType.STRING -> { value = Hex.unpack(p.readBinaryBytes()); set++ }
                2 to TType.STRING -> { value = p.readString().also { check(!Hex.isLower(it)) { "packable hex as text" } }; set++ }
                else -> TProtocolUtil.skip(p, f.type)
            }
            p.readFieldEnd()
        }
        p.readStructEnd()
        check(set == 1) { "tag value: want exactly one field set, got $set" }
        return value!!
    }

    override fun encode(e: Event): ByteArray {
        check(e.createdAt >= 0) { "created_at above Thrift i64" }
        val trans = TMemoryBuffer(conf, 512)
        val p = TCompactProtocol(trans)
        p.writeStructBegin(TStruct("Event"))
        fun bin(name: String, id: Short, v: ByteArray) { p.writeFieldBegin(TField(name, TType.STRING, id)); p.writeBinary(ByteBuffer.wrap(v)); p.writeFieldEnd() }
        bin("id", 1, e.id); bin("pubkey", 2, e.pubkey); bin("sig", 3, e.sig)
        p.writeFieldBegin(TField("created_at", TType.I64, 4)); p.writeI64(e.createdAt); p.writeFieldEnd()
        p.writeFieldBegin(TField("kind", TType.I32, 5)); p.writeI32(e.kind); p.writeFieldEnd()
        p.writeFieldBegin(TField("tags", TType.LIST, 6))
        p.writeListBegin(TList(TType.LIST, e.tags.size))
        for (t in e.tags) {
            p.writeListBegin(TList(TType.STRUCT, t.size))
            for (v in t) {
                p.writeStructBegin(TStruct("Value"))
                if (Hex.isLower(v)) {
                    p.writeFieldBegin(TField("hex", TType.STRING, 1)); p.writeBinary(ByteBuffer.wrap(Hex.decode(v)))
                } else {
                    p.writeFieldBegin(TField("text", TType.STRING, 2)); p.writeString(v)
                }
                p.writeFieldEnd(); p.writeFieldStop(); p.writeStructEnd()
            }
            p.writeListEnd()
        }
        p.writeListEnd(); p.writeFieldEnd()
        p.writeFieldBegin(TField("content", TType.STRING, 7)); p.writeString(e.content); p.writeFieldEnd()
        p.writeFieldStop(); p.writeStructEnd()
        return trans.array.copyOf(trans.length())
    }
}
