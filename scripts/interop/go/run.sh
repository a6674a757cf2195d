#!/usr/bin/env bash
# Go interop test bed (issue 7): checks against vectors/interop-v1.json,
# decode timing over the default corpus selection, and the torture cases.
#   scripts/interop/go/run.sh [--quick] [--out DIR]
# Full run: writes results/interop/{checks-go,go,torture-go}.csv. The corpus
# is results/corpus/default/selection.jsonl, generated with `corpus default`
# when absent.
# --quick (CI): 3 timing rounds over 1,000 events; results go to a
# temporary directory unless --out is given.
# The Rust CLI is $BINOSTR_BIN, else `cargo run --release -q --`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
quick=""
out=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) quick=-quick ;;
    --out) out="$2"; shift ;;
    *) echo "usage: $0 [--quick] [--out DIR]" >&2; exit 2 ;;
  esac
  shift
done
if [[ -z "$out" ]]; then
  if [[ -n "$quick" ]]; then out=$(mktemp -d /tmp/interop-go-results.XXXXXX); else out="$repo/results/interop"; fi
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
export GOFLAGS=-mod=readonly
work=$(mktemp -d /tmp/interop-go.XXXXXX)
trap 'rm -rf "$work"' EXIT
read -r -a binostr <<< "${BINOSTR_BIN:-cargo run --release -q --}"

(cd "$here" && go build -o "$work/interop-go" .)
(cd "$repo" && "${binostr[@]}" torture generate "$work/cases" --mutations 1000 >/dev/null)
corpus="$repo/results/corpus/default/selection.jsonl"
if [[ ! -f "$corpus" ]]; then
  (cd "$repo" && "${binostr[@]}" corpus default -o "$work/corpus" >/dev/null)
  corpus="$work/corpus/selection.jsonl"
fi

status=0
"$work/interop-go" check -repo "$repo" -out "$out/checks-go.csv" || status=1
"$work/interop-go" bench -repo "$repo" -corpus "$corpus" $quick -out "$out/go.csv" || status=1
"$work/interop-go" torture -repo "$repo" -cases "$work/cases" -out "$out/torture-go.csv" || status=1
echo "results in $out"
exit $status
