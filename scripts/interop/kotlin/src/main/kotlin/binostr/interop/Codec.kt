// One JVM library reading and writing one Binostr profile, and the list of
// every codec of this harness (coverage.json lists the same).
package binostr.interop

import java.io.File

abstract class Codec(
    /** Registry profile id. */
    val profile: String,
    /** The library's name, as coverage.json lists it. */
    val library: String,
    /** A class of the library's jar: its version is read from the jar's Maven path. */
    private val versionClass: Class<*>,
) {
    /** Our bytes to an event; throws on anything the library or the adapter refuses. */
    abstract fun decode(b: ByteArray): Event

    /** The event in the library's bytes. */
    abstract fun encode(e: Event): ByteArray

    /** What the adapter adds or lacks, reported with the results. */
    open val note: String = ""

    val version: String by lazy { Versions.of(versionClass) }
}

object Versions {
    /**
     * The version of the jar that holds `c`, from its place in the Maven
     * repository (`.../ARTIFACT/VERSION/ARTIFACT-VERSION.jar`): the version
     * Maven resolved from pom.xml, as the JVM actually loaded it.
     */
    fun of(c: Class<*>): String {
        val loc = c.protectionDomain?.codeSource?.location ?: return "unknown"
        val jar = File(loc.toURI())
        val dir = jar.parentFile ?: return "unknown"
        val artifact = dir.parentFile?.name ?: return "unknown"
        return if (jar.name == "$artifact-${dir.name}.jar") dir.name else "unknown"
    }
}

/** Every (profile, library) of this harness, as coverage.json lists them. */
fun codecs(repo: File): List<Codec> = listOf(
    JacksonJson("json"), JacksonJson("json-sonic"), JacksonJson("json-simd"),
    KotlinxJson("json"),
    JacksonCbor(), MsgpackCore(), ProtobufJava(), FlatbuffersJava(), FlexbuffersJava(),
    AvroGeneric(File(repo, "schemas/event.avsc")), MongoBson(), ThriftCompact(), DampcakeBencode(),
)
