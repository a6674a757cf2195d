#!/usr/bin/env bash
# `binostr corpus generate --count N -o - | binostr sizes -` for each N:
# wall and CPU time, peak RSS of both sides (GNU time -v) and the
# throughput `sizes` reports, into results/streaming/N/ and a line of results/streaming/runs.csv.
#
#   bash scripts/streaming-bench.sh BIN N...
set -euo pipefail

bin=$1
shift
cd "$(dirname "$0")/.."
out=results/streaming
mkdir -p "$out"
[ -f "$out/runs.csv" ] ||
  echo "count,events,seconds,mb_json_per_s,threads,mb_per_s_per_thread,sizes_cpu_s,sizes_max_rss_kib,generate_max_rss_kib,host_cpus" >"$out/runs.csv"
for n in "$@"; do
  d=$out/$n
  mkdir -p "$d"
  /usr/bin/time -v "$bin" corpus generate --count "$n" -o - 2>"$d/generate.stderr" |
    /usr/bin/time -v "$bin" sizes - >"$d/report.md" 2>"$d/sizes.stderr"
  rss() { awk -F': ' '/Maximum resident set size/ {print $2}' "$1"; }
  # CPU seconds (user + system): linear in the input even on a busy host.
  cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$d/sizes.stderr")
  line=$(grep 'MB of compact JSON/s' "$d/sizes.stderr")
  seconds=$(sed -E 's/^([0-9.]+) s:.*/\1/' <<<"$line")
  rate=$(sed -E 's/.*: ([0-9.]+) MB of compact JSON.*/\1/' <<<"$line")
  threads=$(sed -E 's/.* on ([0-9]+) threads.*/\1/' <<<"$line")
  per=$(sed -E 's/.*\(([0-9.]+) MB\/s per thread\).*/\1/' <<<"$line")
  events=$(awk '/valid events/ {print $1; exit}' "$d/report.md")
  echo "$n,$events,$seconds,$rate,$threads,$per,$cpu,$(rss "$d/sizes.stderr"),$(rss "$d/generate.stderr"),$(nproc)" >>"$out/runs.csv"
done
