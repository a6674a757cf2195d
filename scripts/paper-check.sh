#!/usr/bin/env bash
# Checks the paper's text (crates/binostr-report/tests/paper_facts.rs), then
# builds the paper twice, in PAPER_DIR (default paper/) and in a fresh copy
# at another path with the same SOURCE_DATE_EPOCH, and fails unless both PDFs
# have the same SHA-256.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# The text checks first: no hand-written number, list or unsigned source, no
# en-dashed command, and the page built from the data (evolution, maintenance,
# robustness counts that add up).
(cd "$root" && cargo test -p binostr-report --locked --test paper_facts --test paper_text --test page)
src=${1:-$root/paper}
export BINOSTR_RESULTS=${BINOSTR_RESULTS:-$(cd "$src/.." && pwd)/results}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
first=$(bash "$root/scripts/paper-build.sh" "$src")
echo "$first"
SOURCE_DATE_EPOCH=$(sed -n 's/.*SOURCE_DATE_EPOCH=\([0-9]*\).*/\1/p' <<<"$first")
export SOURCE_DATE_EPOCH
cp -r "$src" "$tmp/paper"
rm -rf "$tmp/paper/build" "$tmp/paper/build.log" "$tmp/paper/binostr.pdf"
bash "$root/scripts/paper-build.sh" "$tmp/paper" >/dev/null
a=$(sha256sum "$src/binostr.pdf" | cut -d' ' -f1)
b=$(sha256sum "$tmp/paper/binostr.pdf" | cut -d' ' -f1)
if [ "$a" != "$b" ]; then
    echo "paper: builds differ: $a vs $b" >&2
    exit 1
fi
echo "paper: two builds, identical sha256 $a"
