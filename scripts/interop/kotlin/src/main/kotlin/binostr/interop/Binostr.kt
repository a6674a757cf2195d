// The Rust CLI: $BINOSTR_BIN (split on spaces), else `cargo run --release -q --`.
package binostr.interop

import java.io.File

class Binostr(private val repo: File) {
    class Result(val status: Int, val stdout: String, val stderr: String)

    private val argv0: List<String> =
        System.getenv("BINOSTR_BIN")?.takeIf { it.isNotBlank() }?.trim()?.split(Regex("\\s+"))
            ?: listOf("cargo", "run", "--release", "-q", "--")

    fun run(args: List<String>): Result {
        val p = ProcessBuilder(argv0 + args).directory(repo).start()
        val err = StringBuilder()
        val t = Thread { err.append(p.errorStream.readBytes().toString(Charsets.UTF_8)) }.apply { start() }
        val out = p.inputStream.readBytes().toString(Charsets.UTF_8)
        val status = p.waitFor()
        t.join()
        return Result(status, out, err.toString())
    }

    fun ok(args: List<String>): Result {
        val r = run(args)
        check(r.status == 0) { "binostr ${args.joinToString(" ")}: exit ${r.status}: ${r.stderr.trim()}" }
        return r
    }
}
