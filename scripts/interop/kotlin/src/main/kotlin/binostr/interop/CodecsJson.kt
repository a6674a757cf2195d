// JSON profiles (json, json-sonic and json-simd carry the same bytes):
// jackson-core's streaming parser and generator, and kotlinx-serialization-json's JsonElement.
package binostr.interop

import com.fasterxml.jackson.core.JsonFactory
import com.fasterxml.jackson.core.JsonGenerator
import com.fasterxml.jackson.core.JsonParser
import com.fasterxml.jackson.core.JsonToken
import com.fasterxml.jackson.core.StreamReadFeature
import com.fasterxml.jackson.core.json.JsonWriteFeature
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import java.io.ByteArrayOutputStream
import java.math.BigInteger
import java.nio.ByteBuffer
import java.nio.charset.CodingErrorAction

private val U64_MAX = BigInteger.ONE.shiftLeft(64) - BigInteger.ONE
private val NIP01_KEYS = listOf("id", "pubkey", "created_at", "kind", "tags", "content", "sig")

/** Strict UTF-8 (malformed input throws), for libraries that take a String. */
fun strictUtf8(b: ByteArray): String = Charsets.UTF_8.newDecoder()
    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
    .decode(ByteBuffer.wrap(b)).toString()

class JacksonJson(profile: String) : Codec(profile, "jackson-core", JsonFactory::class.java) {
    private val factory = JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8).build()

    override val note = "streaming JsonParser/JsonGenerator: any key order accepted, duplicate keys refused (STRICT_DUPLICATE_DETECTION); " +
        "COMBINE_UNICODE_SURROGATES_IN_UTF8 on (by default the generator writes characters outside the BMP as escaped surrogate pairs)"

    override fun decode(b: ByteArray): Event {
        factory.createParser(b).use { p ->
            check(p.nextToken() == JsonToken.START_OBJECT) { "not an object" }
            val f = HashMap<String, Any>()
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                val k = p.currentName()
                check(k in NIP01_KEYS) { "unknown key $k" }
                p.nextToken()
                f[k] = when (k) {
                    "created_at", "kind" -> unsigned(p, k)
                    "tags" -> tags(p)
                    else -> { check(p.currentToken() == JsonToken.VALUE_STRING) { "$k: not a string" }; p.text }
                }
            }
            check(p.currentToken() == JsonToken.END_OBJECT) { "unterminated object" }
            check(p.nextToken() == null) { "trailing data at byte ${p.currentLocation().byteOffset}" }
            for (k in NIP01_KEYS) check(k in f) { "missing $k" }
            val kind = f["kind"] as BigInteger
            check(kind <= BigInteger.valueOf(0xffff)) { "kind $kind above 65535" }
            @Suppress("UNCHECKED_CAST")
            return Event(Hex.field("id", f["id"] as String, 32), Hex.field("pubkey", f["pubkey"] as String, 32),
                (f["created_at"] as BigInteger).toLong(), kind.toInt(), f["tags"] as List<List<String>>,
                f["content"] as String, Hex.field("sig", f["sig"] as String, 64))
        }
    }

    private fun unsigned(p: JsonParser, k: String): BigInteger {
        check(p.currentToken() == JsonToken.VALUE_NUMBER_INT) { "$k: not an integer" }
        val v = p.bigIntegerValue
        check(v.signum() >= 0 && v <= U64_MAX) { "$k: $v outside u64" }
        return v
    }

    private fun tags(p: JsonParser): List<List<String>> {
        check(p.currentToken() == JsonToken.START_ARRAY) { "tags: not an array" }
        val out = ArrayList<List<String>>()
        while (p.nextToken() == JsonToken.START_ARRAY) {
            val t = ArrayList<String>()
            while (p.nextToken() == JsonToken.VALUE_STRING) t.add(p.text)
            check(p.currentToken() == JsonToken.END_ARRAY) { "tag value: not a string" }
            out.add(t)
        }
        check(p.currentToken() == JsonToken.END_ARRAY) { "tag: not an array" }
        return out
    }

    override fun encode(e: Event): ByteArray {
        val out = ByteArrayOutputStream()
        factory.createGenerator(out).use { g: JsonGenerator ->
            g.writeStartObject()
            g.writeStringField("id", Hex.encode(e.id))
            g.writeStringField("pubkey", Hex.encode(e.pubkey))
            g.writeFieldName("created_at")
            if (e.createdAt >= 0) g.writeNumber(e.createdAt) else g.writeNumber(BigInteger(java.lang.Long.toUnsignedString(e.createdAt)))
            g.writeNumberField("kind", e.kind)
            g.writeArrayFieldStart("tags")
            for (t in e.tags) { g.writeStartArray(); for (v in t) g.writeString(v); g.writeEndArray() }
            g.writeEndArray()
            g.writeStringField("content", e.content)
            g.writeStringField("sig", Hex.encode(e.sig))
            g.writeEndObject()
        }
        return out.toByteArray()
    }
}

class KotlinxJson(profile: String) : Codec(profile, "kotlinx-serialization-json (JsonElement)", Json::class.java) {
    override val note = "Json.parseToJsonElement takes a String: the adapter decodes UTF-8 strictly; duplicate keys: last wins"

    override fun decode(b: ByteArray): Event {
        val o = Json.parseToJsonElement(strictUtf8(b)) as? JsonObject ?: error("not an object")
        for (k in o.keys) check(k in NIP01_KEYS) { "unknown key $k" }
        for (k in NIP01_KEYS) check(k in o) { "missing $k" }
        fun str(k: String): String = (o[k] as? JsonPrimitive)?.takeIf { it.isString }?.content ?: error("$k: not a string")
        fun uint(k: String): BigInteger {
            val p = o[k] as? JsonPrimitive ?: error("$k: not a number")
            check(!p.isString && p.content.isNotEmpty() && p.content.all { it in '0'..'9' }) { "$k: not an unsigned integer" }
            return BigInteger(p.content).also { check(it <= U64_MAX) { "$k: above u64" } }
        }
        val kind = uint("kind")
        check(kind <= BigInteger.valueOf(0xffff)) { "kind $kind above 65535" }
        val tags = (o["tags"] as? JsonArray ?: error("tags: not an array")).map { t ->
            (t as? JsonArray ?: error("tag: not an array")).map { v ->
                (v as? JsonPrimitive)?.takeIf { it.isString }?.content ?: error("tag value: not a string")
            }
        }
        return Event(Hex.field("id", str("id"), 32), Hex.field("pubkey", str("pubkey"), 32), uint("created_at").toLong(),
            kind.toInt(), tags, str("content"), Hex.field("sig", str("sig"), 64))
    }

    override fun encode(e: Event): ByteArray {
        check(e.createdAt >= 0) { "created_at above Long.MAX_VALUE" }
        val o = JsonObject(linkedMapOf(
            "id" to JsonPrimitive(Hex.encode(e.id)), "pubkey" to JsonPrimitive(Hex.encode(e.pubkey)),
            "created_at" to JsonPrimitive(e.createdAt), "kind" to JsonPrimitive(e.kind),
            "tags" to JsonArray(e.tags.map { t -> JsonArray(t.map { JsonPrimitive(it) }) }),
            "content" to JsonPrimitive(e.content), "sig" to JsonPrimitive(Hex.encode(e.sig)),
        ))
        return o.toString().toByteArray(Charsets.UTF_8)
    }
}
