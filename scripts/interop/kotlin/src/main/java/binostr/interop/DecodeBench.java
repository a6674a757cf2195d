// JMH benchmark: one codec decoding every record of a framed stream that
// `binostr encode` wrote; one operation is one pass over all records
// (Bench.kt divides by the record count). Java because JMH's annotation
// processor reads Java classes (Kotlin would need kapt).
package binostr.interop;

import java.io.File;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DecodeBench {
    /** Index into CodecKt.codecs(repo). */
    @Param({"0"})
    public int codec;
    /** The framed stream to decode. */
    @Param({""})
    public String frames;
    /** The repository root (schemas/). */
    @Param({"."})
    public String repo;

    private Codec c;
    private byte[][] records;

    @Setup
    public void setup() {
        c = CodecKt.codecs(new File(repo)).get(codec);
        List<byte[]> r = Frames.INSTANCE.read(new File(frames));
        records = r.toArray(new byte[0][]);
    }

    @Benchmark
    public void decodeAll(Blackhole bh) {
        for (byte[] r : records) {
            bh.consume(c.decode(r));
        }
    }
}
