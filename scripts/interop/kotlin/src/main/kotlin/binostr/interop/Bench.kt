package binostr.interop
import java.io.File
fun runBench(repo: File, args: Args): Int = TODO()
