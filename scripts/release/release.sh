#!/usr/bin/env bash
# Cuts release VERSION (v<semver>) of HEAD into releases/VERSION/ (or --out):
# checks, deterministic archives, SHA256SUMS, NOTES.md, a signed NIP-94
# event (release.event.json), then verifies it as a reader would.
#
#   release.sh VERSION --pubkey HEX [--out DIR] [--throwaway]
#              [--skip-checks WHY] [--skip-paper WHY]
#
# HEX is the project's key: committed manifests must verify under it, and so
# must the release. The key comes from $BINOSTR_SIGNING_KEY. --throwaway
# (needs --out) signs with a fresh random key instead, skips the version and
# CHANGELOG checks, and verifies under that key: a rehearsal, never a release.
# Progress goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/../.."

say() { echo "release: $*" >&2; }
die() {
    say "$*"
    exit 1
}

version="" pubkey="" out="" throwaway=0 skip_checks="" skip_paper=""
while [ $# -gt 0 ]; do
    case $1 in
    --pubkey | --out | --skip-checks | --skip-paper)
        if [ $# -lt 2 ] || [ -z "$2" ]; then die "$1 needs a value (a reason for --skip-*)"; fi
        case $1 in
        --pubkey) pubkey=$2 ;;
        --out) out=$2 ;;
        --skip-checks) skip_checks=$2 ;;
        --skip-paper) skip_paper=$2 ;;
        esac
        shift 2
        ;;
    --throwaway) throwaway=1; shift ;;
    -*) die "unknown option $1" ;;
    *)
        [ -z "$version" ] || die "one VERSION only (got $version and $1)"
        version=$1
        shift
        ;;
    esac
done
[ -n "$version" ] || die "usage: release.sh VERSION --pubkey HEX [--out DIR] [--throwaway] [--skip-checks WHY] [--skip-paper WHY]"
[[ $pubkey =~ ^[0-9a-f]{64}$ ]] || die "--pubkey must be 64 lowercase hex characters"
[[ $version =~ ^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$ ]] ||
    die "VERSION must be v<semver> (v0.1.0, v1.0.0-rc.1), got '$version'"
if [ "$throwaway" = 1 ] && [ -z "$out" ]; then
    die "--throwaway needs --out: a rehearsal never writes under releases/"
fi
out=${out:-releases/$version}
if [ "$throwaway" = 0 ] && [ -z "${BINOSTR_SIGNING_KEY:-}" ]; then
    die "BINOSTR_SIGNING_KEY is not set (the project's key signs releases)"
fi

if [ -n "$(git status --porcelain)" ]; then
    git status --short >&2
    die "the working tree is not clean; commit or stash first"
fi
commit=$(git rev-parse --verify HEAD)
say "$version of $commit into $out"
if [ -e "$out/release.event.json" ]; then
    die "$out/release.event.json exists: $version is already cut"
fi

if [ -n "${BINOSTR_BIN:-}" ]; then
    binostr() { "$BINOSTR_BIN" "$@"; }
else
    binostr() { cargo run --release --locked --quiet --bin binostr -- "$@"; }
fi

say "citation metadata"
python3 scripts/check-citation.py >&2

plain=${version#v}
if [ "$throwaway" = 1 ]; then
    say "throwaway: Cargo.toml version and CHANGELOG section not checked"
    section=Unreleased
else
    cargo_version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
    [ "$cargo_version" = "$plain" ] || die "Cargo.toml has version $cargo_version, not $plain"
    grep -q "^## \[$plain\]" CHANGELOG.md || die "CHANGELOG.md has no '## [$plain]' section"
    section=$plain
fi

if [ -n "$skip_checks" ]; then
    say "CI gates (.ci/run) SKIPPED: $skip_checks"
else
    say "CI gates (.ci/run)"
    bash .ci/run >&2
    [ -z "$(git status --porcelain)" ] || die ".ci/run left the working tree dirty"
fi

say "committed manifests under $pubkey"
found=0
for event in results/campaigns/*/manifest.event.json; do
    [ -f "$event" ] || continue
    label=$(basename "$(dirname "$event")")
    binostr manifest verify --pubkey "$pubkey" "$label" >&2
    found=$((found + 1))
done
[ "$found" -gt 0 ] || die "no committed manifest under results/campaigns/"

mkdir -p "$out"
if [ -n "$skip_paper" ]; then
    say "paper SKIPPED: $skip_paper"
else
    say "paper"
    just paper >&2
    cp paper/binostr.pdf "$out/binostr-$version.pdf"
fi

say "NOTES.md"
notes=$(awk -v s="## [$section]" 'index($0, s) == 1 {on = 1; next} on && /^## \[/ {exit} on' CHANGELOG.md)
{
    echo "# Binostr $version"
    echo
    echo "- commit: \`$commit\`"
    echo "- date: $(date -u +%Y-%m-%d)"
    echo "- signed by: \`$pubkey\`"
    echo
    echo "## Changes ($section)"
    echo "$notes"
    echo
    echo "## Verifying offline"
    echo
    echo "In a clone that has commit \`${commit:0:12}\`:"
    echo
    echo '```sh'
    echo "just release-verify $version"
    echo "python3 scripts/release/verify.py releases/$version --pubkey $pubkey"
    echo '```'
    echo
    echo "This checks the NIP-01 id and BIP-340 signature of \`release.event.json\`"
    echo "(kind 1063), that its \`x\` and \`size\` tags pin \`SHA256SUMS\`, and rebuilds"
    echo "the archives from the commit (\`scripts/release/archives.sh\`) to compare them"
    echo "byte for byte. \`sha256sum -c SHA256SUMS\` checks downloaded archives;"
    echo "this file is listed there too. Rebuilding needs GNU gzip; these archives"
    echo "were compressed by $(gzip --version | head -1)."
} >"$out/NOTES.md"

say "archives"
bash scripts/release/archives.sh "$commit" "$version" "$out"

say "signing"
if [ "$throwaway" = 1 ]; then
    key=$(python3 -c 'import secrets
n = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
while not 0 < (k := secrets.randbelow(1 << 256)) < n: pass
print(f"{k:064x}")')
    BINOSTR_SIGNING_KEY=$key binostr release sign --version "$version" --commit "$commit" "$out" >&2
    unset key
    signer=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["pubkey"])' "$out/release.event.json")
    [ "$signer" != "$pubkey" ] || die "the throwaway key is the project's key"
    say "throwaway signer $signer"
else
    binostr release sign --version "$version" --commit "$commit" "$out" >&2
    signer=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["pubkey"])' "$out/release.event.json")
    if [ "$signer" != "$pubkey" ]; then
        rm "$out/release.event.json"
        die "BINOSTR_SIGNING_KEY gives $signer, not the project's key $pubkey; event removed"
    fi
fi

say "verifying as a reader would"
python3 scripts/release/verify.py "$out" --pubkey "$signer"
say "done: $out (commit SHA256SUMS, NOTES.md and release.event.json; the archives are not committed)"
