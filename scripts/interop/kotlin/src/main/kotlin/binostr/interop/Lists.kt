// scripts/interop/coverage.json and divergences.json, the per-language lists
// shared with the Python, JS and Go harnesses (../README.md), and where they
// disagree with the registry (the vectors' profiles) or with codecs().
package binostr.interop

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import java.io.File

const val LANGUAGE = "kotlin"

/** The status words, shared with the other harnesses (coverage.json "statuses"). */
val STATUSES = listOf("ok", "known-divergence", "fail", "not-supported", "not-covered")

const val NOT_COVERED = "not in scripts/interop/coverage.json for kotlin: add its library or a not-supported reason"

/** Rows of this harness that are no profile but may carry pins: check -> library. */
val OWN_CHECKS = mapOf("nip01-verify" to "secp256k1-kmp verifySchnorr (id: SHA-256 of the NIP-01 serialization)")

class Library(val library: String, val version: String)

/** This language's entry for one profile: libraries, or not-supported with a reason. */
class Coverage(val libraries: List<Library>?, val status: String?, val reason: String?)

class Lists(
    val statuses: List<String>,
    val profiles: List<String>,
    val coverage: Map<String, Coverage>,
    /** profile (or own check) -> library -> key -> reason. */
    val pins: Map<String, Map<String, Map<String, String>>>,
) {
    fun pin(profile: String, library: String): Map<String, String> = pins[profile]?.get(library) ?: emptyMap()

    /** Every disagreement, as a message; `registry` are the vectors' profile ids. */
    fun drift(registry: List<String>, all: List<Codec>, ownVersions: Map<String, String>): List<String> {
        val out = ArrayList<String>()
        if (statuses.sorted() != STATUSES.sorted()) out.add("coverage.json statuses ${statuses.sorted()} are not $STATUSES")
        for (p in profiles) if (p !in registry) out.add("coverage.json: $p is not an enabled registry profile (vectors file)")
        for (c in all) if (c.profile !in registry) out.add("this harness has a codec for ${c.profile}, which is not an enabled registry profile")
        for (p in registry) {
            val entry = coverage[p]
            if (entry != null && entry.libraries == null && (entry.status != "not-supported" || entry.reason.isNullOrEmpty())) {
                out.add("coverage.json: $p: $LANGUAGE must be a list of libraries or not-supported with a reason")
            }
            val have = all.filter { it.profile == p }.associateBy { it.library }
            val listed = entry?.libraries.orEmpty()
            for (lib in listed) {
                val c = have[lib.library]
                when {
                    c == null -> out.add("coverage.json: $p: ${lib.library} has no codec in this harness")
                    lib.version != "runtime" && lib.version != c.version ->
                        out.add("coverage.json: $p: ${lib.library} is pinned at ${lib.version}, the harness runs ${c.version}")
                }
            }
            for (lib in have.keys.sorted()) if (listed.none { it.library == lib }) {
                out.add("$p: this harness has a codec ($lib) that coverage.json does not list")
            }
        }
        for ((p, libs) in pins.toSortedMap()) {
            val own = OWN_CHECKS[p]
            if (own == null && p !in registry) { out.add("divergences.json: $p is not an enabled registry profile"); continue }
            for (lib in libs.keys.sorted()) {
                val known = if (own != null) lib == own else all.any { it.profile == p && it.library == lib }
                if (!known) out.add("divergences.json: $p: $lib is no codec of this harness")
            }
        }
        return out
    }

    companion object {
        fun load(coverageFile: File, divergencesFile: File): Lists {
            val cov = Json.parseToJsonElement(coverageFile.readText()).jsonObject
            val statuses = cov["statuses"]?.jsonObject?.keys?.toList().orEmpty()
            val profiles = cov["profiles"]!!.jsonObject
            val coverage = HashMap<String, Coverage>()
            for ((p, langs) in profiles) {
                val e = langs.jsonObject[LANGUAGE] ?: continue
                coverage[p] = when (e) {
                    is JsonArray -> Coverage(e.map {
                        val o = it.jsonObject
                        require(o.keys == setOf("library", "version")) { "$coverageFile: $p: each library needs exactly a library and a version" }
                        Library(o["library"]!!.jsonPrimitive.content, o["version"]!!.jsonPrimitive.content)
                    }, null, null)
                    is JsonObject -> Coverage(null, e["status"]?.jsonPrimitive?.content, e["reason"]?.jsonPrimitive?.content)
                    else -> Coverage(null, null, null)
                }
            }
            val div = Json.parseToJsonElement(divergencesFile.readText()).jsonObject[LANGUAGE]?.jsonObject
            val pins = div.orEmpty().mapValues { (_, libs) ->
                libs.jsonObject.mapValues { (_, keys) -> keys.jsonObject.mapValues { (_, why) -> why.jsonPrimitive.content } }
            }
            return Lists(statuses, profiles.keys.sorted(), coverage, pins)
        }
    }
}
