// bencode: com.dampcake's Bencode (byte strings as ByteBuffers, useBytes)
// over the positional list of the bencode profile (id, pubkey, created_at,
// kind, tags, content, sig; tag values and content as UTF-8 text).
package binostr.interop

import com.dampcake.bencode.Bencode
import com.dampcake.bencode.BencodeInputStream
import com.dampcake.bencode.BencodeOutputStream
import java.io.ByteArrayInputStream
import java.io.ByteArrayOutputStream
import java.nio.ByteBuffer

class DampcakeBencode : Codec("bencode", "com.dampcake bencode (useBytes)", Bencode::class.java) {
    override val note = "BencodeInputStream with useBytes (strings as bytes; the adapter checks UTF-8 and the trailing bytes); " +
        "readNumber returns a Long, so created_at above 2^63-1 cannot be read"

    private fun bytes(x: Any?, name: String): ByteArray {
        val b = x as? ByteBuffer ?: error("$name: not a byte string")
        return ByteArray(b.remaining()).also { b.duplicate().get(it) }
    }

    override fun decode(b: ByteArray): Event {
        val bis = ByteArrayInputStream(b)
        val list = BencodeInputStream(bis, Charsets.UTF_8, true).readList()
        check(bis.available() == 0) { "trailing bytes" }
        check(list.size == 7) { "event: ${list.size} elements, want 7" }
        val createdAt = list[2] as? Long ?: error("created_at: not an integer")
        val kind = list[3] as? Long ?: error("kind: not an integer")
        check(createdAt >= 0 && kind in 0..0xffff) { "created_at $createdAt or kind $kind out of range" }
        val tags = (list[4] as? List<*> ?: error("tags: not a list")).map { t ->
            (t as? List<*> ?: error("tag: not a list")).map { v -> strictUtf8(bytes(v, "tag value")) }
        }
        return Event(bytes(list[0], "id"), bytes(list[1], "pubkey"), createdAt, kind.toInt(), tags,
            strictUtf8(bytes(list[5], "content")), bytes(list[6], "sig"))
    }

    override fun encode(e: Event): ByteArray {
        check(e.createdAt >= 0) { "created_at above Long.MAX_VALUE" }
        val out = ByteArrayOutputStream()
        BencodeOutputStream(out, Charsets.UTF_8).use { w ->
            w.writeList(listOf(ByteBuffer.wrap(e.id), ByteBuffer.wrap(e.pubkey), e.createdAt, e.kind.toLong(),
                e.tags.map { t -> t.map { ByteBuffer.wrap(it.toByteArray(Charsets.UTF_8)) } },
                ByteBuffer.wrap(e.content.toByteArray(Charsets.UTF_8)), ByteBuffer.wrap(e.sig)))
        }
        return out.toByteArray()
    }
}
