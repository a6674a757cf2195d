// NIP-01 serialization, event id and BIP-340 signature, and the compact JSON
// that `binostr decode` writes (serde_json escapes), to compare events by.
package binostr.interop

import fr.acinq.secp256k1.Secp256k1
import java.security.MessageDigest

object Nip01 {
    /**
     * The NIP-01 id serialization `[0,pubkey,created_at,kind,tags,content]`:
     * only \n \" \\ \r \t \b \f are escaped, every other character verbatim.
     */
    fun serialize(e: Event): String {
        val sb = StringBuilder("[0,\"").append(Hex.encode(e.pubkey)).append("\",")
            .append(java.lang.Long.toUnsignedString(e.createdAt)).append(',').append(e.kind).append(",[")
        e.tags.forEachIndexed { i, t ->
            if (i > 0) sb.append(',')
            sb.append('[')
            t.forEachIndexed { j, v -> if (j > 0) sb.append(','); nip01String(sb, v) }
            sb.append(']')
        }
        sb.append("],")
        nip01String(sb, e.content)
        return sb.append(']').toString()
    }

    private fun nip01String(sb: StringBuilder, s: String) {
        sb.append('"')
        for (c in s) when (c) {
            '\n' -> sb.append("\\n"); '"' -> sb.append("\\\""); '\\' -> sb.append("\\\\")
            '\r' -> sb.append("\\r"); '\t' -> sb.append("\\t"); '\b' -> sb.append("\\b"); '\u000c' -> sb.append("\\f")
            else -> sb.append(c)
        }
        sb.append('"')
    }

    fun id(e: Event): ByteArray = MessageDigest.getInstance("SHA-256").digest(serialize(e).toByteArray(Charsets.UTF_8))

    /** The id is the SHA-256 of the NIP-01 serialization and sig a valid BIP-340 signature of it; null when both hold. */
    fun verify(e: Event): String? {
        val id = id(e)
        if (!id.contentEquals(e.id)) return "id is not the SHA-256 of the NIP-01 serialization (that is ${Hex.encode(id)})"
        return if (Secp256k1.verifySchnorr(e.sig, e.id, e.pubkey)) null else "BIP-340 signature does not verify"
    }

    /** Compact JSON in NIP-01 field order as serde_json writes it (short escapes, other controls as \u00xx). */
    fun compactJson(e: Event): String {
        val sb = StringBuilder("{\"id\":\"").append(Hex.encode(e.id)).append("\",\"pubkey\":\"").append(Hex.encode(e.pubkey))
            .append("\",\"created_at\":").append(java.lang.Long.toUnsignedString(e.createdAt))
            .append(",\"kind\":").append(e.kind).append(",\"tags\":[")
        e.tags.forEachIndexed { i, t ->
            if (i > 0) sb.append(',')
            sb.append('[')
            t.forEachIndexed { j, v -> if (j > 0) sb.append(','); jsonString(sb, v) }
            sb.append(']')
        }
        sb.append("],\"content\":")
        jsonString(sb, e.content)
        return sb.append(",\"sig\":\"").append(Hex.encode(e.sig)).append("\"}").toString()
    }

    private fun jsonString(sb: StringBuilder, s: String) {
        sb.append('"')
        for (c in s) when {
            c == '"' -> sb.append("\\\""); c == '\\' -> sb.append("\\\\"); c == '\n' -> sb.append("\\n")
            c == '\r' -> sb.append("\\r"); c == '\t' -> sb.append("\\t"); c == '\b' -> sb.append("\\b")
            c == '\u000c' -> sb.append("\\f")
            c < ' ' -> sb.append("\\u00").append("0123456789abcdef"[c.code ushr 4]).append("0123456789abcdef"[c.code and 15])
            else -> sb.append(c)
        }
        sb.append('"')
    }
}
