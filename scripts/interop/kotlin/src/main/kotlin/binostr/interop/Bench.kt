// Decode timing with JMH: each codec decodes the stream that `binostr
// encode --profile P` writes for the corpus selection, after a check that
// it decodes every record to the corpus event (a timing of a wrong decoder
// means nothing). ns/event = JMH's average time per pass / records.
package binostr.interop

import org.openjdk.jmh.runner.Runner
import org.openjdk.jmh.runner.options.OptionsBuilder
import org.openjdk.jmh.runner.options.TimeValue
import java.io.File
import java.nio.file.Files

/** JMH settings: forks, warmup and measurement iterations, and the time of each. */
class JmhSettings(val forks: Int, val warmups: Int, val iterations: Int, val iterationMs: Long, val events: Int) {
    override fun toString() = "JMH 1.37, $forks fork(s), $warmups warmup + $iterations measurement iterations of $iterationMs ms, " +
        "AverageTime, ${if (events > 0) "first $events" else "all"} corpus events"
}

fun runBench(repo: File, args: Args): Int {
    val corpus = args.file(repo, "corpus", "results/corpus/default/selection.jsonl")
    val s = if (args.flag("quick")) JmhSettings(1, 1, 2, 200, 1000) else JmhSettings(1, 3, 5, 1000, 0)
    val tmp = Files.createTempDirectory("interop-kotlin-bench-").toFile()
    try {
        val binostr = Binostr(repo)
        val all = codecs(repo)
        val streams = HashMap<String, File>()
        fun stream(profile: String): File = streams.getOrPut(profile) {
            val full = File(tmp, "$profile.all.frames")
            binostr.ok(listOf("encode", "--profile", profile, "-o", full.path, corpus.path))
            val records = Frames.read(full).let { if (s.events > 0) it.take(s.events) else it }
            File(tmp, "$profile.frames").also { Frames.write(it, records) }
        }
        val reference = Frames.read(stream("json")).map { JacksonJson("json").decode(it) }
        val sb = StringBuilder("language,format,library,version,ns_per_event,events\n")
        println("timing: $s")
        all.forEachIndexed { i, c ->
            val file = stream(c.profile)
            val records = Frames.read(file)
            check(records.size == reference.size) { "${c.profile}: ${records.size} records, json has ${reference.size}" }
            var same = 0
            records.forEachIndexed { k, r ->
                val e = c.decode(r)
                check(e == reference[k]) { "${c.profile} [${c.library}] corpus record $k decodes to a different event" }
                if (runCatching { c.encode(e).contentEquals(r) }.getOrDefault(false)) same++
            }
            println("%-15s %-55s corpus: %d decode to the corpus event, %d re-encode identically".format(c.profile, c.library, records.size, same))
            val opts = OptionsBuilder().include(DecodeBench::class.java.name + ".decodeAll")
                .param("codec", i.toString()).param("frames", file.path).param("repo", repo.path)
                .forks(s.forks).warmupIterations(s.warmups).measurementIterations(s.iterations)
                .warmupTime(TimeValue.milliseconds(s.iterationMs)).measurementTime(TimeValue.milliseconds(s.iterationMs))
                .shouldFailOnError(true).verbosity(org.openjdk.jmh.runner.options.VerboseMode.SILENT).build()
            val result = Runner(opts).run().single().primaryResult
            val ns = result.score / records.size
            println("%-15s %-55s %8.0f ns/event (±%.0f, %d events)".format(c.profile, c.library, ns, result.scoreError / records.size, records.size))
            sb.append(listOf("kotlin", c.profile, c.library, c.version, "%.1f".format(ns), records.size.toString())
                .joinToString(",") { csvField(it) }).append('\n')
        }
        val out = args.file(repo, "out", "results/interop/kotlin.csv")
        out.absoluteFile.parentFile.mkdirs()
        out.writeText(sb.toString())
        println("wrote $out ($s)")
        return 0
    } finally {
        tmp.deleteRecursively()
    }
}
