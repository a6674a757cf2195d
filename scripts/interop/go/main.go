// Command interop-go runs Binostr's Go interop test bed: Go libraries read
// our vectors and write bytes that the Rust CLI must read back (check),
// time decoding of the framed corpus (bench), and decode hostile cases
// (torture). See README.md; entry point run.sh.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

// repoRoot is the Binostr checkout (schemas/, vectors/, results/).
var repoRoot = "."

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	cmd, args := os.Args[1], os.Args[2:]
	fs := flag.NewFlagSet(cmd, flag.ExitOnError)
	fs.StringVar(&repoRoot, "repo", ".", "Binostr repository root")
	var err error
	switch cmd {
	case "check":
		vectors := fs.String("vectors", "vectors/interop-v1.json", "vectors file (relative to -repo)")
		out := fs.String("out", "results/interop/checks-go.csv", "CSV to write (relative to -repo)")
		coverage := fs.String("coverage", "scripts/interop/coverage.json", "libraries per profile (relative to -repo unless absolute)")
		divergences := fs.String("divergences", "scripts/interop/divergences.json", "pinned divergences (relative to -repo unless absolute)")
		fs.Parse(args)
		err = runCheck(*vectors, *out, *coverage, *divergences)
	case "bench":
		corpus := fs.String("corpus", "", "JSONL corpus (default: results/corpus/default/selection.jsonl)")
		out := fs.String("out", "results/interop/go.csv", "CSV to write (relative to -repo)")
		quick := fs.Bool("quick", false, "fewer rounds and events (CI)")
		fs.Parse(args)
		err = runBench(*corpus, *out, *quick)
	case "torture":
		dir := fs.String("cases", "", "directory written by `binostr torture generate`")
		out := fs.String("out", "results/interop/torture-go.csv", "CSV to write (relative to -repo)")
		fs.Parse(args)
		err = runTorture(*dir, *out)
	case "torture-child":
		codec := fs.Int("codec", -1, "codec index")
		start := fs.Int("start", 0, "first case index")
		fs.Parse(args)
		err = tortureChild(*codec, *start, fs.Arg(0))
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "interop-go:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: interop-go check|bench|torture [-repo DIR] [flags]")
	os.Exit(2)
}

// binostrCommand is $BINOSTR_BIN, else `cargo run --release -q --`.
func binostrCommand() []string {
	if b := os.Getenv("BINOSTR_BIN"); b != "" {
		return strings.Fields(b)
	}
	return []string{"cargo", "run", "--release", "-q", "--"}
}
