#!/usr/bin/env bash
# Rehearses a release end to end, as CI runs it: a clone of HEAD (a clean
# tree), release.sh with a throwaway key and without CI gates or paper, then
# verify.py must accept it under the throwaway key and refuse it under the
# pinned PUBKEY, with SHA256SUMS changed, with NOTES.md changed, with an
# unlisted file added, with an archive byte changed and with the event's
# commit tag changed. Exits 1 if any expectation fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

say() { echo "dry-run: $*" >&2; }
if [ $# -ne 1 ] || ! [[ $1 =~ ^[0-9a-f]{64}$ ]]; then
    echo "usage: $0 PUBKEY (64 lowercase hex: the project's key)" >&2
    exit 2
fi
pinned=$1
version=v0.0.0-dry-run

if [ -n "${BINOSTR_BIN:-}" ]; then
    say "using BINOSTR_BIN=$BINOSTR_BIN"
else
    export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/binostr-target}"
    say "building binostr"
    cargo build --release --locked --quiet --bin binostr
    export BINOSTR_BIN="$CARGO_TARGET_DIR/release/binostr"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/binostr-dry-run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
head=$(git rev-parse --verify HEAD)
say "cloning HEAD ($head) into $tmp/repo"
git clone --quiet --shared --no-checkout "$root" "$tmp/repo"
git -C "$tmp/repo" checkout --quiet --detach "$head"

out=$tmp/out
(cd "$tmp/repo" && bash scripts/release/release.sh "$version" --pubkey "$pinned" --out "$out" \
    --throwaway --skip-checks "dry run inside CI" --skip-paper "dry run")
throwaway=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["pubkey"])' "$out/release.event.json")

verify() { python3 "$tmp/repo/scripts/release/verify.py" "$@"; }
failed=0
# expect_refusal WHAT PATTERN ARGS...: verify.py must exit non-zero naming PATTERN.
expect_refusal() {
    local what=$1 pattern=$2 log
    shift 2
    if log=$(verify "$@" 2>&1); then
        say "FAIL: $what was accepted"
        failed=1
    elif grep -q "REFUSED: $pattern" <<<"$log"; then
        say "ok: $what refused: $(grep REFUSED <<<"$log")"
    else
        say "FAIL: $what refused for another reason than '$pattern':"
        echo "$log" >&2
        failed=1
    fi
}

if verify "$out" --pubkey "$throwaway" >&2; then
    say "ok: accepted under the throwaway key $throwaway"
else
    say "FAIL: the rehearsed release does not verify under its own key"
    failed=1
fi

expect_refusal "the pinned key (another signer)" "key:" "$out" --pubkey "$pinned"

cp -r "$out" "$tmp/sums"
python3 -c 'import sys
p = sys.argv[1]; b = bytearray(open(p, "rb").read())
b[0] = ord("0") if b[0] != ord("0") else ord("1"); open(p, "wb").write(b)' "$tmp/sums/SHA256SUMS"
cmp -s "$out/SHA256SUMS" "$tmp/sums/SHA256SUMS" && { say "FAIL: SHA256SUMS not changed"; failed=1; }
expect_refusal "a changed SHA256SUMS" "binding:" "$tmp/sums" --pubkey "$throwaway"

cp -r "$out" "$tmp/notes"
echo "an added line" >>"$tmp/notes/NOTES.md"
expect_refusal "a changed NOTES.md" "modified:" "$tmp/notes" --pubkey "$throwaway"

cp -r "$out" "$tmp/extra"
echo "unsigned" >"$tmp/extra/README.txt"
expect_refusal "an unlisted file beside the release" "sums:" "$tmp/extra" --pubkey "$throwaway"

cp -r "$out" "$tmp/archive"
archive=$tmp/archive/binostr-$version-source.tar.gz
python3 -c 'import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(100); b = f.read(1); f.seek(100); f.write(bytes([b[0] ^ 1]))' "$archive"
expect_refusal "an archive with one byte changed" "modified:" "$tmp/archive" --pubkey "$throwaway"

cp -r "$out" "$tmp/commit"
other=$(git rev-parse --verify "$head^" 2>/dev/null || echo 0000000000000000000000000000000000000000)
sed -i "s/\"commit\",\"$head\"/\"commit\",\"$other\"/" "$tmp/commit/release.event.json"
cmp -s "$out/release.event.json" "$tmp/commit/release.event.json" && { say "FAIL: commit tag not changed"; failed=1; }
expect_refusal "an event with its commit tag changed" "event:" "$tmp/commit" --pubkey "$throwaway"

if [ "$failed" != 0 ]; then
    say "FAILED"
    exit 1
fi
say "ok: a release verifies only under its own key, and only unchanged"
