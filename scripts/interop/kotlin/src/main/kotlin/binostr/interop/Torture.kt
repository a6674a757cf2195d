// Torture: every `*.frames` case file that `binostr torture generate` wrote
// for a codec's profile, decoded in child JVMs (one verdict line per case,
// a per-case timeout, -Xmx512m). A child that dies is a crash, one with no
// verdict in time a hang; the child is restarted after that case.
package binostr.interop

import java.io.File
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit

/**
 * Unchecked JVM exceptions that mean the library (or adapter) indexed,
 * cast or sized something from the input without checking it first:
 * recovered, but counted apart from a clean error.
 */
private val RUNTIME_FAULTS = listOf(
    IndexOutOfBoundsException::class.java, NullPointerException::class.java, ClassCastException::class.java,
    NegativeArraySizeException::class.java, java.nio.BufferUnderflowException::class.java,
    java.nio.BufferOverflowException::class.java, ArithmeticException::class.java,
)

private const val CHILD_HEAP = "-Xmx512m"

private class Counts(val cases: Int) {
    var cleanError = 0; var accepted = 0; var runtimeException = 0; var jvmError = 0; var crash = 0; var hang = 0
    val examples = ArrayList<String>()
    private val perKind = HashMap<String, Int>()
    fun example(kind: String, name: String, detail: String) {
        val n = perKind.merge(kind, 1, Int::plus)!!
        if (n <= 2) examples.add("$kind $name: $detail")
    }
}

fun runTorture(repo: File, args: Args): Int {
    val dir = File(args["cases"] ?: error("--cases DIR is required (written by `binostr torture generate`)"))
    val timeoutMs = (args["timeout-ms"] ?: if (args.flag("quick")) "3000" else "10000").toLong()
    val out = args.file(repo, "out", "results/interop/torture-kotlin.csv")
    val sb = StringBuilder("profile,library,version,case_file,cases,clean_error,accepted,runtime_exception,jvm_error,crash,hang,examples\n")
    codecs(repo).forEachIndexed { ci, c ->
        val files = File(dir, c.profile).listFiles { f -> f.name.endsWith(".frames") }?.sortedBy { it.name }.orEmpty()
        check(files.isNotEmpty()) { "no case files for ${c.profile} in $dir" }
        for (f in files) {
            val t = tortureFile(repo, ci, f, timeoutMs)
            val name = f.name.removeSuffix(".frames")
            println("%-15s %-45s %-17s cases=%d error=%d accepted=%d runtime_exception=%d jvm_error=%d crash=%d hang=%d".format(
                c.profile, c.library.take(45), name, t.cases, t.cleanError, t.accepted, t.runtimeException, t.jvmError, t.crash, t.hang))
            sb.append(listOf(c.profile, c.library, c.version, name, t.cases, t.cleanError, t.accepted, t.runtimeException,
                t.jvmError, t.crash, t.hang, t.examples.joinToString(" | ")).joinToString(",") { csvField(it.toString()) }).append('\n')
        }
    }
    out.absoluteFile.parentFile.mkdirs()
    out.writeText(sb.toString())
    println("wrote $out (child JVMs $CHILD_HEAP, ${timeoutMs} ms per case)")
    return 0
}

private fun caseNames(frames: File, n: Int): List<String> {
    val f = File(frames.path.removeSuffix(".frames") + ".names")
    val got = if (f.exists()) f.readLines() else emptyList()
    return List(n) { i -> got.getOrNull(i)?.takeIf { it.isNotEmpty() } ?: "#$i" }
}

private fun tortureFile(repo: File, codec: Int, file: File, timeoutMs: Long): Counts {
    val n = Frames.read(file).size
    val names = caseNames(file, n)
    val t = Counts(n)
    var start = 0
    while (start < n) {
        val (next, kind, detail) = runChild(repo, codec, start, file, timeoutMs, t, names)
        if (next >= n) break
        if (kind == "hang") t.hang++ else t.crash++
        t.example(kind, names[next], detail)
        start = next + 1
    }
    return t
}

/** Runs cases from `start` in a child JVM; returns the first case without a verdict (or n), and why. */
private fun runChild(repo: File, codec: Int, start: Int, file: File, timeoutMs: Long, t: Counts,
                     names: List<String>): Triple<Int, String, String> {
    val java = File(System.getProperty("java.home"), "bin/java").path
    val cmd = listOf(java, CHILD_HEAP, "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), "binostr.interop.MainKt",
        "torture-child", "--repo", repo.path, "--codec", codec.toString(), "--start", start.toString(), file.path)
    val p = ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.PIPE).start()
    val stderr = StringBuilder()
    Thread { p.errorStream.bufferedReader().forEachLine { if (stderr.length < 4000) stderr.appendLine(it) } }.apply { isDaemon = true; start() }
    val lines = LinkedBlockingQueue<String>()
    Thread { p.inputStream.bufferedReader().forEachLine { lines.put(it) }; lines.put("\u0000eof") }.apply { isDaemon = true; start() }
    var next = start
    var done = false
    while (true) {
        val l = lines.poll(timeoutMs, TimeUnit.MILLISECONDS)
        if (l == null) {
            p.destroyForcibly().waitFor()
            return Triple(next, "hang", "no verdict within $timeoutMs ms")
        }
        if (l == "\u0000eof") {
            val rc = p.waitFor()
            if (done) return Triple(Int.MAX_VALUE, "", "")
            val first = stderr.lineSequence().firstOrNull { it.isNotBlank() && !it.startsWith("SLF4J") }.orEmpty()
            return Triple(next, "crash", "exit $rc: ${first.take(200)}")
        }
        if (l == "done") { done = true; continue }
        val parts = l.split(" ", limit = 3)
        val i = parts[0].toIntOrNull() ?: continue
        val detail = parts.getOrElse(2) { "" }
        when (parts.getOrNull(1)) {
            "error" -> t.cleanError++
            "accepted" -> t.accepted++
            "runtime-exception" -> { t.runtimeException++; t.example("runtime-exception", names[i], detail) }
            "jvm-error" -> { t.jvmError++; t.example("jvm-error", names[i], detail) }
        }
        next = i + 1
    }
}

/** The child: one line per case, "<index> error|accepted|runtime-exception|jvm-error <detail>", then "done". */
fun tortureChild(repo: File, args: Args): Int {
    val c = codecs(repo)[args["codec"]!!.toInt()]
    val frames = Frames.read(File(args.positional.single()))
    val out = System.out
    for (i in (args["start"] ?: "0").toInt() until frames.size) {
        val verdict = try {
            c.decode(frames[i]); "accepted"
        } catch (e: Throwable) {
            val what = "${e.javaClass.name}: ${e.message}".replace('\n', ' ').take(200)
            when {
                e is Error -> "jvm-error $what${site(e)}"
                RUNTIME_FAULTS.any { it.isInstance(e) } -> "runtime-exception $what${site(e)}"
                else -> "error"
            }
        }
        out.println("$i $verdict")
        out.flush()
    }
    out.println("done")
    out.flush()
    return 0
}

/** The first stack frame outside this harness and the JDK: where the library threw. */
private fun site(e: Throwable): String {
    val f = e.stackTrace.firstOrNull { !it.className.startsWith("java.") && !it.className.startsWith("jdk.") &&
        !it.className.startsWith("kotlin.") } ?: return ""
    return " (at ${f.className}.${f.methodName}:${f.lineNumber})"
}
