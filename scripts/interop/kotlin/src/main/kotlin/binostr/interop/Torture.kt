package binostr.interop
import java.io.File
fun runTorture(repo: File, args: Args): Int = TODO()
fun tortureChild(repo: File, args: Args): Int = TODO()
