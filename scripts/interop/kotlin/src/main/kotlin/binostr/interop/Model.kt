// The NIP-01 event as this harness holds it, hex and framing helpers, and
// the vectors file (vectors/interop-v1.json, schema 1).
package binostr.interop

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import java.io.ByteArrayOutputStream
import java.io.File
import java.nio.ByteBuffer

/** A NIP-01 event; `createdAt` is a u64 held in a Long (compare unsigned), `kind` 0..=65535. */
class Event(
    val id: ByteArray,
    val pubkey: ByteArray,
    val createdAt: Long,
    val kind: Int,
    val tags: List<List<String>>,
    val content: String,
    val sig: ByteArray,
) {
    init {
        require(id.size == 32) { "id: ${id.size} bytes, want 32" }
        require(pubkey.size == 32) { "pubkey: ${pubkey.size} bytes, want 32" }
        require(sig.size == 64) { "sig: ${sig.size} bytes, want 64" }
        require(kind in 0..0xffff) { "kind $kind outside 0..=65535" }
    }

    override fun equals(other: Any?): Boolean = other is Event &&
        id.contentEquals(other.id) && pubkey.contentEquals(other.pubkey) && sig.contentEquals(other.sig) &&
        createdAt == other.createdAt && kind == other.kind && tags == other.tags && content == other.content

    override fun hashCode(): Int = id.contentHashCode()

    /** Compact JSON in NIP-01 field order, escaped as `binostr decode` (serde_json) writes it. */
    fun toJson(): String = Nip01.compactJson(this)
}

object Hex {
    private const val DIGITS = "0123456789abcdef"

    /** The profiles' hex-packing rule: non-empty, even-length, lowercase hex. */
    fun isLower(s: String): Boolean {
        if (s.isEmpty() || s.length % 2 != 0) return false
        for (c in s) if (!(c in '0'..'9' || c in 'a'..'f')) return false
        return true
    }

    fun encode(b: ByteArray): String {
        val sb = StringBuilder(b.size * 2)
        for (x in b) {
            val v = x.toInt() and 0xff
            sb.append(DIGITS[v ushr 4]).append(DIGITS[v and 15])
        }
        return sb.toString()
    }

    fun decode(s: String): ByteArray {
        require(s.length % 2 == 0) { "odd-length hex" }
        val out = ByteArray(s.length / 2)
        for (i in out.indices) {
            val hi = Character.digit(s[2 * i], 16)
            val lo = Character.digit(s[2 * i + 1], 16)
            require(hi >= 0 && lo >= 0) { "not hex" }
            out[i] = ((hi shl 4) or lo).toByte()
        }
        return out
    }

    /** Lowercase hex of exactly `n` bytes (the id, pubkey and sig fields). */
    fun field(name: String, s: String, n: Int): ByteArray {
        require(s.length == 2 * n && isLower(s)) { "$name: want ${2 * n} lowercase hex characters" }
        return decode(s)
    }

    /** A packed tag value back to its string; an empty packed value is refused, as our decoder does. */
    fun unpack(b: ByteArray): String {
        require(b.isNotEmpty()) { "empty packed hex value" }
        return encode(b)
    }
}

/** Streams of 4-byte big-endian length + record (`binostr encode` / `decode`). */
object Frames {
    fun read(file: File): List<ByteArray> {
        val data = file.readBytes()
        val out = ArrayList<ByteArray>()
        var off = 0
        while (off < data.size) {
            require(data.size - off >= 4) { "$file: truncated frame header at byte $off" }
            val n = ByteBuffer.wrap(data, off, 4).int.toLong() and 0xffffffffL
            off += 4
            require(n <= data.size - off) { "$file: frame of $n bytes at byte ${off - 4} runs past the end" }
            out.add(data.copyOfRange(off, off + n.toInt()))
            off += n.toInt()
        }
        return out
    }

    fun write(file: File, records: List<ByteArray>) {
        val buf = ByteArrayOutputStream()
        for (r in records) {
            buf.write(ByteBuffer.allocate(4).putInt(r.size).array())
            buf.write(r)
        }
        file.writeBytes(buf.toByteArray())
    }
}

/** One vector: a signed event, its compact JSON and its bytes per profile (null: unrepresentable). */
class Vector(val name: String, val event: Event, val json: String, val encodings: Map<String, ByteArray?>)

/** A registry profile as the vectors file lists it. */
class Profile(val id: String, val deterministic: Boolean)

class Vectors(val generator: String, val profiles: List<Profile>, val vectors: List<Vector>) {
    companion object {
        fun load(file: File): Vectors {
            val doc = Json.parseToJsonElement(file.readText()).jsonObject
            val schema = doc["schema"]?.jsonPrimitive?.content
            require(schema == "1") { "$file: schema $schema, want 1" }
            val profiles = doc["profiles"]!!.jsonArray.map {
                val o = it.jsonObject
                Profile(o["id"]!!.jsonPrimitive.content, o["deterministic"]!!.jsonPrimitive.content == "true")
            }
            val vectors = doc["vectors"]!!.jsonArray.map {
                val o = it.jsonObject
                val enc = (o["encodings"] as? JsonObject ?: JsonObject(emptyMap())).mapValues { (_, v) ->
                    (v as? JsonPrimitive)?.takeIf { p -> p.isString }?.let { p -> Hex.decode(p.content) }
                }
                Vector(o["name"]!!.jsonPrimitive.content, eventFromJson(o["event"]!!.jsonObject),
                    o["json"]!!.jsonPrimitive.content, enc)
            }
            return Vectors(doc["generator"]?.jsonPrimitive?.content ?: "?", profiles, vectors)
        }

        /** Vectors from a JSONL file of events: each line's bytes from `binostr encode` per profile. */
        fun fromEvents(events: File, binostr: Binostr, tmp: File): Vectors {
            val lines = events.readLines().filter { it.isNotBlank() }
            val profiles = Json.parseToJsonElement(binostr.run(listOf("profiles", "--json")).stdout).jsonArray
                .map { it.jsonObject }.filter { it["enabled"]!!.jsonPrimitive.content == "true" }
                .map { Profile(it["id"]!!.jsonPrimitive.content, it["deterministic"]!!.jsonPrimitive.content == "true") }
            val enc = lines.map { HashMap<String, ByteArray?>() }
            for (p in profiles) {
                val out = File(tmp, "${p.id}.events.frames")
                val r = binostr.ok(listOf("encode", "--profile", p.id, "-o", out.path, events.path))
                val recs = Frames.read(out)
                // encode skips the events the profile cannot represent and names their ids on
                // stderr; those lines get no encoding (as in the vectors file), the others line up.
                val refused = Regex("^  not representable: ([0-9a-f]{64}):", RegexOption.MULTILINE)
                    .findAll(r.stderr).map { it.groupValues[1] }.toSet()
                val kept = lines.indices.filter {
                    Json.parseToJsonElement(lines[it]).jsonObject["id"]!!.jsonPrimitive.content !in refused
                }
                require(recs.size == kept.size) {
                    "${p.id}: ${recs.size} records for ${lines.size} events, ${refused.size} not representable"
                }
                kept.forEachIndexed { k, i -> enc[i][p.id] = recs[k] }
                for (i in lines.indices) if (i !in kept) enc[i][p.id] = null
            }
            val vectors = lines.mapIndexed { i, l ->
                val e = eventFromJson(Json.parseToJsonElement(l).jsonObject)
                Vector("line-${i + 1}", e, e.toJson(), enc[i])
            }
            return Vectors("binostr encode of $events", profiles, vectors)
        }

        fun eventFromJson(o: JsonObject): Event {
            val tags = (o["tags"] as? JsonArray ?: JsonArray(emptyList())).map { t -> t.jsonArray.map { it.jsonPrimitive.content } }
            return Event(
                Hex.field("id", o["id"]!!.jsonPrimitive.content, 32),
                Hex.field("pubkey", o["pubkey"]!!.jsonPrimitive.content, 32),
                java.lang.Long.parseUnsignedLong(o["created_at"]!!.jsonPrimitive.content),
                o["kind"]!!.jsonPrimitive.content.toInt(),
                tags,
                o["content"]!!.jsonPrimitive.content,
                Hex.field("sig", o["sig"]!!.jsonPrimitive.content, 64),
            )
        }
    }
}
