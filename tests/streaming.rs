//! `sizes` and `corpus generate` stream: stdin and files give the same
//! report, and peak memory does not grow with the input.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn binostr(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_binostr"))
        .args(args)
        .output()
        .expect("binostr runs")
}

fn with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_binostr"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn generate(out: &Path, count: usize) {
    let o = binostr(&[
        "corpus",
        "generate",
        "--count",
        &count.to_string(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The peak RSS `sizes` reports on its last stderr line, in KiB.
fn peak_kib(o: &Output) -> u64 {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let tail = err.rsplit("peak RSS ").next().expect("a peak line");
    tail.split_whitespace().next().unwrap().parse().expect(&err)
}

#[test]
fn generate_to_stdout_writes_the_file_s_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.jsonl");
    generate(&file, 300);
    let o = binostr(&["corpus", "generate", "--count", "300", "-o", "-"]);
    assert!(o.status.success());
    assert_eq!(o.stdout, std::fs::read(&file).unwrap());
    assert_eq!(o.stdout.iter().filter(|&&b| b == b'\n').count(), 300);
}

#[test]
fn sizes_reads_relay_messages_from_compressed_stdin_with_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.jsonl");
    generate(&file, 200);
    let plain = binostr(&["sizes", "--json", file.to_str().unwrap()]);
    assert!(plain.status.success());
    // The same events as relay messages, each twice, plus a broken line,
    // gzip-compressed on stdin.
    let mut messages = Vec::new();
    for line in std::fs::read_to_string(&file).unwrap().lines() {
        for _ in 0..2 {
            writeln!(messages, r#"["EVENT","sub",{line}]"#).unwrap();
        }
    }
    messages.extend_from_slice(b"{\"id\":\"not an event\"}\n");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&messages).unwrap();
    let gz = gz.finish().unwrap();
    let o = with_stdin(&["sizes", "-"], &gz);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        out.contains("200 valid events (401 records read, 1 rejected, 200 duplicates)"),
        "{out}"
    );
    assert!(
        out.contains("line 401"),
        "the refusal names its line: {out}"
    );
    // The JSON report over stdin equals the file's.
    let o = with_stdin(&["sizes", "--json", "-"], &gz);
    assert_eq!(o.stdout, plain.stdout);
}

#[test]
fn sizes_peak_memory_does_not_grow_with_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let (small, large) = (dir.path().join("s.jsonl"), dir.path().join("l.jsonl"));
    generate(&small, 2_000);
    generate(&large, 20_000);
    let peak = |p: &Path| peak_kib(&binostr(&["sizes", p.to_str().unwrap()]));
    let (s, l) = (peak(&small), peak(&large));
    // Holding the events would add ~40 MiB over 18,000 more events.
    assert!(l * 5 <= s * 6, "peak RSS {l} KiB at 20k vs {s} KiB at 2k");
}
