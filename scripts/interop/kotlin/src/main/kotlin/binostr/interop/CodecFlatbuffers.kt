// flatbuffers-java with hand-written accessors for schemas/event.fbs (as the
// Go leg: flatc's generated code is not needed for a table this small, and
// the build order below is the one flatc generates for Rust, so the bytes
// can match ours). Slots are 4 + 2·field index.
package binostr.interop

import com.google.flatbuffers.FlatBufferBuilder
import com.google.flatbuffers.Table
import java.nio.ByteBuffer
import java.nio.ByteOrder

private class FbTable(bb: ByteBuffer, pos: Int) : Table() {
    init { __reset(pos, bb) }
    fun offset(slot: Int): Int = __offset(slot)
    val pos: Int get() = bb_pos
    val buf: ByteBuffer get() = bb
    fun string(slot: Int): String? = __offset(slot).takeIf { it != 0 }?.let { __string(bb_pos + it) }
    fun vectorLen(slot: Int): Int = __offset(slot).let { if (it == 0) 0 else __vector_len(it) }
    /** Position of element i of a vector of tables. */
    fun tableAt(slot: Int, i: Int): Int = __indirect(__vector(__offset(slot)) + 4 * i)
    fun bytes(slot: Int): ByteArray? = __offset(slot).takeIf { it != 0 }?.let {
        val start = __vector(it); val n = __vector_len(it)
        ByteArray(n).also { a -> for (k in 0 until n) a[k] = bb.get(start + k) }
    }
}

class FlatbuffersJava : Codec("flatbuffers", "flatbuffers-java (hand-written accessors)", FlatBufferBuilder::class.java) {
    private val builder = FlatBufferBuilder(1024)

    override val note = "flatbuffers-java has no verifier: hostile offsets fail by ByteBuffer bounds checks; the adapter checks vector counts against the buffer size"

    override fun decode(b: ByteArray): Event {
        check(b.size >= 8) { "buffer of ${b.size} bytes is shorter than a size prefix and root offset" }
        val bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN)
        val size = bb.getInt(0).toLong() and 0xffffffffL
        check(size == (b.size - 4).toLong()) { "size prefix $size, but ${b.size - 4} bytes follow" }
        val root = FbTable(bb, bb.getInt(4) + 4)
        fun fixed(name: String, slot: Int, n: Int): ByteArray {
            val o = root.offset(slot)
            check(o != 0) { "required field $name missing" }
            val p = root.pos + o
            return ByteArray(n).also { for (k in 0 until n) it[k] = bb.get(p + k) }
        }
        val id = fixed("id", 4, 32); val pubkey = fixed("pubkey", 6, 32); val sig = fixed("sig", 8, 64)
        val createdAt = root.offset(10).let { if (it == 0) 0L else bb.getLong(root.pos + it) }
        val kind = root.offset(12).let { if (it == 0) 0 else bb.getShort(root.pos + it).toInt() and 0xffff }
        val content = root.string(16) ?: ""
        val nTags = root.vectorLen(14)
        check(nTags <= b.size / 4) { "vector of $nTags offsets in a ${b.size}-byte buffer" }
        val tags = (0 until nTags).map { i ->
            val tag = FbTable(bb, root.tableAt(14, i))
            val nValues = tag.vectorLen(4)
            check(nValues <= b.size / 4) { "vector of $nValues offsets in a ${b.size}-byte buffer" }
            (0 until nValues).map { j ->
                val v = FbTable(bb, tag.tableAt(4, j))
                val hex = v.offset(4) != 0; val text = v.offset(6) != 0
                when {
                    hex && !text -> Hex.unpack(v.bytes(4)!!)
                    text && !hex -> v.string(6)!!
                    else -> error("tag $i value $j: want exactly one of hex and text")
                }
            }
        }
        return Event(id, pubkey, createdAt, kind, tags, content, sig)
    }

    private fun struct(b: FlatBufferBuilder, v: ByteArray): Int {
        b.prep(1, v.size)
        for (i in v.indices.reversed()) b.putByte(v[i])
        return b.offset()
    }

    private fun offsets(b: FlatBufferBuilder, offs: IntArray): Int {
        b.startVector(4, offs.size, 4)
        for (i in offs.indices.reversed()) b.addOffset(offs[i])
        return b.endVector()
    }

    override fun encode(e: Event): ByteArray {
        val b = builder
        b.clear()
        val tags = IntArray(e.tags.size) { i ->
            val t = e.tags[i]
            val values = IntArray(t.size) { j ->
                val v = t[j]
                if (Hex.isLower(v)) {
                    val o = b.createByteVector(Hex.decode(v))
                    b.startTable(2); b.addOffset(0, o, 0)
                } else {
                    val o = b.createString(v)
                    b.startTable(2); b.addOffset(1, o, 0)
                }
                b.endTable()
            }
            val vec = offsets(b, values)
            b.startTable(1); b.addOffset(0, vec, 0)
            b.endTable()
        }
        val tagsVec = offsets(b, tags)
        val content = b.createString(e.content)
        b.startTable(7)
        b.addLong(3, e.createdAt, 0L)
        b.addOffset(6, content, 0)
        b.addOffset(5, tagsVec, 0)
        b.addStruct(2, struct(b, e.sig), 0)
        b.addStruct(1, struct(b, e.pubkey), 0)
        b.addStruct(0, struct(b, e.id), 0)
        b.addShort(4, e.kind.toShort(), 0)
        b.finishSizePrefixed(b.endTable())
        return b.sizedByteArray()
    }
}
