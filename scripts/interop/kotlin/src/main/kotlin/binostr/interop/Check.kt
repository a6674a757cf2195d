// Checks against the vectors (or events turned into vectors by `binostr
// encode`): per codec and vector, decode our bytes to the vector's event,
// re-encode to the same bytes (deterministic profiles) or the same event,
// and have `binostr decode` read the JVM bytes back; then verify every
// vector event's NIP-01 id and BIP-340 signature. Pins: ../divergences.json.
package binostr.interop

import java.io.File

class CheckRow(val profile: String, val library: String, val version: String, val vectors: Int, val decodeOk: String,
               val reencode: String, val rustDecodes: String, val status: String, val reason: String)

private class Outcome(val name: String) {
    var failed: MutableList<String> = ArrayList()
    var why: MutableList<String> = ArrayList()
    fun fail(part: String, reason: String) { failed.add(part); why.add(reason) }
}

class Checker(private val repo: File, private val doc: Vectors, private val lists: Lists, private val binostr: Binostr,
              private val fromEvents: Boolean, private val tmp: File) {
    private val rows = ArrayList<CheckRow>()
    private var failures = 0

    /** Pins that matched nothing; with events, a `vector:NAME` pin whose vector is absent is not exercised. */
    private fun stale(pin: Map<String, String>, used: Set<String>, names: List<String>): List<String> = pin.keys.filter { k ->
        if (k in used) return@filter false
        val name = k.removePrefix("vector:").takeIf { k.startsWith("vector:") }
        !(fromEvents && name != null && name !in names)
    }

    private fun pinReason(pin: Map<String, String>, k: String) = if (k.startsWith("vector:")) "${k.removePrefix("vector:")}: ${pin[k]}" else pin[k]!!

    fun run(all: List<Codec>): List<CheckRow> {
        for (p in doc.profiles) {
            val mine = all.filter { it.profile == p.id }
            if (mine.isEmpty()) {
                val entry = lists.coverage[p.id]
                if (entry == null) System.err.println("NOT COVERED: ${p.id}: $NOT_COVERED")
                rows.add(CheckRow(p.id, "", "", 0, "", "", "",
                    if (entry == null) "not-covered" else entry.status ?: "not-supported", entry?.reason ?: NOT_COVERED))
                continue
            }
            for (c in mine) rows.add(checkCodec(p, c))
        }
        rows.add(verifyAll())
        return rows
    }

    val failed: Int get() = failures

    private fun checkCodec(p: Profile, c: Codec): CheckRow {
        val present = doc.vectors.filter { it.encodings[p.id] != null }
        val outcomes = present.map { Outcome(it.name) }
        val jvmRecords = ArrayList<ByteArray>()
        val owners = ArrayList<Int>()
        var decodeOk = 0
        var reencodeOk = 0
        present.forEachIndexed { i, v ->
            val o = outcomes[i]
            val ours = v.encodings[p.id]!!
            val event = try {
                c.decode(ours).also { check(it.toJson() == v.json) { "decodes to another event" } }
            } catch (e: Throwable) { o.fail("decode", "decode: ${e.message ?: e.javaClass.name}"); return@forEachIndexed }
            decodeOk++
            val again = try { c.encode(event) } catch (e: Throwable) { o.fail("encode", "encode: ${e.message ?: e.javaClass.name}"); return@forEachIndexed }
            jvmRecords.add(again); owners.add(i)
            val same = if (p.deterministic) again.contentEquals(ours)
                else runCatching { c.decode(again).toJson() == v.json }.getOrDefault(false)
            if (same) reencodeOk++
            else o.fail("reencode", if (p.deterministic) "re-encoded bytes differ (ours ${ours.size} bytes, ${c.library} ${again.size}; first difference at byte ${firstDiff(ours, again)})" else "re-encoded bytes decode to another event")
        }
        val rust = rustFailures(p.id, jvmRecords, owners.map { present[it].json })
        for ((k, why) in rust) outcomes[owners[k]].fail("rust", why)

        val pin = lists.pin(p.id, c.library)
        val unexpected = ArrayList<String>()
        val used = LinkedHashSet<String>()
        for (o in outcomes) {
            if (o.failed.isEmpty()) continue
            when {
                pin.containsKey("vector:${o.name}") -> used.add("vector:${o.name}")
                o.failed.all { pin.containsKey(it) } -> used.addAll(o.failed)
                else -> unexpected.add("${o.name}: ${o.why.joinToString("; ")}")
            }
        }
        val stale = stale(pin, used, present.map { it.name })
        val n = present.size
        val reasons = buildList {
            if (n == 0) add("no vectors carry this profile")
            addAll(unexpected.take(5))
            if (unexpected.size > 5) add("and ${unexpected.size - 5} more")
            stale.forEach { add("pinned divergence no longer happens ($it); update scripts/interop/divergences.json") }
            used.forEach { add(pinReason(pin, it)) }
            if (c.note.isNotEmpty()) add(c.note)
        }
        val status = when {
            n == 0 || unexpected.isNotEmpty() || stale.isNotEmpty() -> "fail"
            used.isNotEmpty() -> "known-divergence"
            else -> "ok"
        }
        if (status == "fail") failures++
        for (u in unexpected) println("fail ${p.id} [${c.library}]: $u")
        return CheckRow(p.id, c.library, c.version, n, decodeOk.toString(),
            "$reencodeOk/$n ${if (p.deterministic) "identical" else "equal events"}",
            "${jvmRecords.size - rust.size}/${jvmRecords.size}", status, reasons.joinToString("; "))
    }

    /** Every vector event: id = SHA-256 of the NIP-01 serialization, and a valid BIP-340 signature. */
    private fun verifyAll(): CheckRow {
        val library = OWN_CHECKS.getValue("nip01-verify")
        val pin = lists.pin("nip01-verify", library)
        var ok = 0
        val unexpected = ArrayList<String>()
        val used = LinkedHashSet<String>()
        for (v in doc.vectors) {
            val why = try { Nip01.verify(v.event) } catch (e: Throwable) { "verify: ${e.message}" }
            when {
                why == null -> ok++
                pin.containsKey("vector:${v.name}") -> used.add("vector:${v.name}")
                else -> unexpected.add("${v.name}: $why")
            }
        }
        val stale = stale(pin, used, doc.vectors.map { it.name })
        val status = if (unexpected.isNotEmpty() || stale.isNotEmpty()) "fail" else if (used.isNotEmpty()) "known-divergence" else "ok"
        if (status == "fail") failures++
        val reason = (unexpected.take(5) + stale.map { "pinned divergence no longer happens ($it); update scripts/interop/divergences.json" } +
            used.map { pinReason(pin, it) }).joinToString("; ")
        return CheckRow("nip01-verify", library, Versions.of(fr.acinq.secp256k1.Secp256k1::class.java), doc.vectors.size,
            ok.toString(), "", "", status, reason)
    }

    /** `binostr decode` of the JVM records: the reason each failed, by index; a rejected record ends a run, so it resumes after it. */
    private fun rustFailures(profile: String, records: List<ByteArray>, expected: List<String>): Map<Int, String> {
        val failed = LinkedHashMap<Int, String>()
        var from = 0
        while (from < records.size) {
            val file = File(tmp, "$profile.jvm.frames")
            Frames.write(file, records.subList(from, records.size))
            val r = binostr.run(listOf("decode", "--profile", profile, file.path))
            val lines = r.stdout.split("\n").filter { it.isNotEmpty() }
            lines.forEachIndexed { k, l -> if (l != expected[from + k]) failed[from + k] = "rust decodes the JVM bytes to another event" }
            if (r.status == 0) break
            check(r.status == 65) { "binostr decode: exit ${r.status}: ${r.stderr.trim()}" }
            failed[from + lines.size] = "rust rejects the JVM bytes: ${r.stderr.trim().replace(Regex("^.*?record \\d+: "), "")}"
            from += lines.size + 1
        }
        return failed
    }

    private fun firstDiff(a: ByteArray, b: ByteArray): Int {
        for (i in 0 until minOf(a.size, b.size)) if (a[i] != b[i]) return i
        return minOf(a.size, b.size)
    }
}

fun csvField(s: String): String = if (s.any { it == ',' || it == '"' || it == '\n' }) "\"" + s.replace("\"", "\"\"") + "\"" else s

fun writeChecks(out: File, rows: List<CheckRow>) {
    out.absoluteFile.parentFile.mkdirs()
    val sb = StringBuilder("profile,library,version,vectors,decode_ok,reencode,rust_decodes,status,reason\n")
    for (r in rows) sb.append(listOf(r.profile, r.library, r.version, r.vectors.toString(), r.decodeOk, r.reencode,
        r.rustDecodes, r.status, r.reason).joinToString(",") { csvField(it) }).append('\n')
    out.writeText(sb.toString())
    println("wrote $out")
}
