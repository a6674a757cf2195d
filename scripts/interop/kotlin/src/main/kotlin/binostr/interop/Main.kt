// interop-kotlin: JVM libraries against Binostr's wire profiles (README.md;
// entry point run.sh). Subcommands: check, bench, torture (and the
// torture-child that torture starts).
package binostr.interop

import java.io.File
import java.nio.file.Files
import kotlin.system.exitProcess

/** `--name value` and `--flag` options after the subcommand. */
class Args(argv: List<String>, private val flags: Set<String>) {
    private val values = HashMap<String, String>()
    val positional = ArrayList<String>()

    init {
        var i = 0
        while (i < argv.size) {
            val a = argv[i]
            when {
                a.startsWith("--") && a.removePrefix("--") in flags -> values[a.removePrefix("--")] = "true"
                a.startsWith("--") -> { require(i + 1 < argv.size) { "$a needs a value" }; values[a.removePrefix("--")] = argv[++i] }
                else -> positional.add(a)
            }
            i++
        }
    }

    operator fun get(name: String): String? = values[name]
    fun flag(name: String): Boolean = values[name] == "true"
    fun file(repo: File, name: String, default: String): File = File(values[name] ?: default).let { if (it.isAbsolute) it else File(repo, it.path) }
}

fun main(argv: Array<String>) {
    if (argv.isEmpty()) usage()
    val args = Args(argv.drop(1), setOf("quick"))
    val repo = File(args["repo"] ?: ".").absoluteFile.normalize()
    val status = try {
        when (argv[0]) {
            "check" -> check(repo, args)
            "bench" -> runBench(repo, args)
            "torture" -> runTorture(repo, args)
            "torture-child" -> tortureChild(repo, args)
            else -> usage()
        }
    } catch (e: Exception) {
        System.err.println("interop-kotlin: ${e.message ?: e}")
        1
    }
    exitProcess(status)
}

private fun usage(): Nothing {
    System.err.println("usage: interop-kotlin check|bench|torture [--repo DIR] [options] (README.md)")
    exitProcess(2)
}

private fun check(repo: File, args: Args): Int {
    val tmp = Files.createTempDirectory("interop-kotlin-check-").toFile()
    try {
        val binostr = Binostr(repo)
        val vectorsFile = args.file(repo, "vectors", "vectors/interop-v1.json")
        val events = args["events"]?.let { args.file(repo, "events", it) }
        val fromEvents = events != null
        val doc = when {
            events != null -> Vectors.fromEvents(events, binostr, tmp)
            vectorsFile.exists() -> Vectors.load(vectorsFile)
            else -> error("no vectors: $vectorsFile does not exist (write it with `binostr vectors -o vectors/interop-v1.json`), and no --events given")
        }
        println("vectors: ${doc.vectors.size} from ${doc.generator}")
        val lists = Lists.load(args.file(repo, "coverage", "scripts/interop/coverage.json"),
            args.file(repo, "divergences", "scripts/interop/divergences.json"))
        val all = codecs(repo)
        val drift = lists.drift(doc.profiles.map { it.id }, all, emptyMap())
        if (drift.isNotEmpty()) {
            drift.forEach { println("fail: $it") }
            println("${drift.size} disagreements between the registry, scripts/interop/*.json and this harness")
            return 1
        }
        val checker = Checker(repo, doc, lists, binostr, fromEvents, tmp)
        val rows = checker.run(all)
        writeChecks(args.file(repo, "out", "results/interop/checks-kotlin.csv"), rows)
        for (r in rows) println("${r.status.padEnd(16)} ${r.profile.padEnd(16)} ${r.library} ${r.version} decode ${r.decodeOk}/${r.vectors} reencode ${r.reencode} rust ${r.rustDecodes} ${r.reason}")
        val counted = rows.count { it.status != "not-supported" && it.status != "not-covered" }
        val pinned = rows.filter { it.status == "known-divergence" }.map { it.profile }
        if (pinned.isNotEmpty()) println("passed with pinned divergences (scripts/interop/divergences.json): ${pinned.joinToString(", ")}")
        println("kotlin checks: ${counted - checker.failed} passed, ${checker.failed} failed")
        return if (checker.failed > 0) 1 else 0
    } finally {
        tmp.deleteRecursively()
    }
}
