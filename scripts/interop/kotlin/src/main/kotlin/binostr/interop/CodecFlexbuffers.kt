// flexbuffers: flatbuffers-java's FlexBuffers reader and FlexBuffersBuilder
// over the positional model (an untyped vector of 7: blob, blob, uint,
// uint, vector of untyped vectors of blob or string, string, blob).
package binostr.interop

import com.google.flatbuffers.ArrayReadWriteBuf
import com.google.flatbuffers.FlexBuffers
import com.google.flatbuffers.FlexBuffersBuilder
import java.math.BigInteger
import java.nio.ByteBuffer

class FlexbuffersJava : Codec("flexbuffers", "flatbuffers-java FlexBuffers", FlexBuffers::class.java) {
    override val note = "FlexBuffers.getRoot has no verifier (hostile offsets end in JVM bounds exceptions); " +
        "the Builder writes untyped vectors (endVector typed=false), no string sharing (BUILDER_FLAG_NONE)"

    override fun decode(b: ByteArray): Event {
        check(b.size >= 3) { "buffer of ${b.size} bytes" }
        val root = FlexBuffers.getRoot(ByteBuffer.wrap(b))
        check(root.isVector && !root.isTypedVector) { "root: not an untyped vector" }
        val v = root.asVector()
        check(v.size() == 7) { "event: ${v.size()} elements, want 7" }
        fun blob(i: Int, name: String): ByteArray = v.get(i).also { check(it.isBlob) { "$name: not a blob" } }.asBlob().bytes
        fun uint(i: Int, name: String): BigInteger = v.get(i).let {
            check(it.isIntOrUInt) { "$name: not an integer" }
            if (it.isUInt) BigInteger(java.lang.Long.toUnsignedString(it.asUInt())) else BigInteger.valueOf(it.asLong())
        }
        val createdAt = uint(2, "created_at")
        val kind = uint(3, "kind")
        check(createdAt.signum() >= 0 && kind.signum() >= 0 && kind <= BigInteger.valueOf(0xffff)) { "created_at or kind out of range" }
        val tagsRef = v.get(4)
        check(tagsRef.isVector && !tagsRef.isTypedVector) { "tags: not an untyped vector" }
        val tv = tagsRef.asVector()
        check(tv.size() <= b.size) { "tags: ${tv.size()} in ${b.size} bytes" }
        val tags = (0 until tv.size()).map { i ->
            val t = tv.get(i)
            check(t.isVector && !t.isTypedVector) { "tag $i: not an untyped vector" }
            val values = t.asVector()
            check(values.size() <= b.size) { "tag $i: ${values.size()} values in ${b.size} bytes" }
            (0 until values.size()).map { j ->
                val x = values.get(j)
                when {
                    x.isBlob -> Hex.unpack(x.asBlob().bytes)
                    x.isString -> x.asString().also { check(!Hex.isLower(it)) { "packable hex as text" } }
                    else -> error("tag $i value $j: neither blob nor string")
                }
            }
        }
        check(v.get(5).isString) { "content: not a string" }
        return Event(blob(0, "id"), blob(1, "pubkey"), createdAt.toLong(), kind.toInt(), tags, v.get(5).asString(), blob(6, "sig"))
    }

    override fun encode(e: Event): ByteArray {
        val b = FlexBuffersBuilder(ArrayReadWriteBuf(512), FlexBuffersBuilder.BUILDER_FLAG_NONE)
        val event = b.startVector()
        b.putBlob(e.id)
        b.putBlob(e.pubkey)
        if (e.createdAt >= 0) b.putUInt(e.createdAt) else b.putUInt64(BigInteger(java.lang.Long.toUnsignedString(e.createdAt)))
        b.putUInt(e.kind.toLong())
        val tags = b.startVector()
        for (t in e.tags) {
            val tag = b.startVector()
            for (v in t) if (Hex.isLower(v)) b.putBlob(Hex.decode(v)) else b.putString(v)
            b.endVector(null, tag, false, false)
        }
        b.endVector(null, tags, false, false)
        b.putString(e.content)
        b.putBlob(e.sig)
        b.endVector(null, event, false, false)
        val bb = b.finish()
        return ByteArray(bb.remaining()).also { bb.duplicate().get(it) }
    }
}
