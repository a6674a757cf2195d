#!/usr/bin/env bash
# Kotlin interop test bed (issue 16): checks against the vectors and the
# corpus selection, JMH decode timing over the corpus selection, and the
# torture cases, each case in a child JVM.
#   scripts/interop/kotlin/run.sh [--quick] [--out DIR] [--vectors FILE] [--corpus JSONL]
# Full run: writes results/interop/{checks-kotlin,checks-kotlin-corpus,kotlin,torture-kotlin}.csv.
# The corpus is results/corpus/default/selection.jsonl (--corpus: any JSONL
# of events), generated with `corpus default` when absent.
# --quick (CI): the first 200 corpus events for the corpus check, a one-fork
# JMH run of a few hundred milliseconds per codec over 1,000 events, and
# 3 s per torture case; results go to $BINOSTR_INTEROP_OUT/kotlin (or a
# temporary directory) unless --out is given.
# The Rust CLI is $BINOSTR_BIN, else `cargo run --release -q --`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
quick=()
out=""
vectors="$repo/vectors/interop-v1.json"
corpus=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) quick=(--quick) ;;
    --out) out="$2"; shift ;;
    --vectors) vectors="$2"; shift ;;
    --corpus) corpus="$2"; shift ;;
    *) echo "usage: $0 [--quick] [--out DIR] [--vectors FILE] [--corpus JSONL]" >&2; exit 2 ;;
  esac
  shift
done
if [[ -z "$out" ]]; then
  if [[ ${#quick[@]} -gt 0 ]]; then
    out="${BINOSTR_INTEROP_OUT:+$BINOSTR_INTEROP_OUT/kotlin}"
    out="${out:-$(mktemp -d /tmp/interop-kotlin-results.XXXXXX)}"
  else
    out="$repo/results/interop"
  fi
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d /tmp/interop-kotlin.XXXXXX)
trap 'rm -rf "$work"' EXIT
read -r -a binostr <<< "${BINOSTR_BIN:-cargo run --release -q --}"

start=$SECONDS
bash "$here/setup.sh"
kt=(java -Xss8m -cp "$here/target/classes:$(cat "$here/target/classpath.txt")" binostr.interop.MainKt)
(cd "$repo" && "${binostr[@]}" torture generate "$work/cases" --mutations 1000 >/dev/null)
if [[ -z "$corpus" ]]; then
  corpus="$repo/results/corpus/default/selection.jsonl"
  if [[ ! -f "$corpus" ]]; then
    (cd "$repo" && "${binostr[@]}" corpus default -o "$work/corpus" >/dev/null)
    corpus="$work/corpus/selection.jsonl"
  fi
fi
corpus=$(cd "$(dirname "$corpus")" && pwd)/$(basename "$corpus")
events="$corpus"
if [[ ${#quick[@]} -gt 0 ]]; then
  head -n 200 "$corpus" > "$work/corpus-200.jsonl"
  events="$work/corpus-200.jsonl"
fi

status=0
"${kt[@]}" check --repo "$repo" --vectors "$vectors" --out "$out/checks-kotlin.csv" || status=1
"${kt[@]}" check --repo "$repo" --events "$events" --out "$out/checks-kotlin-corpus.csv" || status=1
"${kt[@]}" bench --repo "$repo" --corpus "$corpus" "${quick[@]}" --out "$out/kotlin.csv" || status=1
"${kt[@]}" torture --repo "$repo" --cases "$work/cases" "${quick[@]}" --out "$out/torture-kotlin.csv" || status=1
echo "interop-kotlin: $((SECONDS - start)) s; results in $out; checks $([[ $status == 0 ]] && echo passed || echo FAILED)"
exit $status
