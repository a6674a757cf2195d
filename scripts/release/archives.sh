#!/usr/bin/env bash
# Deterministic release archives of COMMIT into OUT, and OUT/SHA256SUMS:
#   binostr-VERSION-source.tar.gz   the tree at COMMIT
#   binostr-VERSION-results.tar.gz  results/ and paper/ at COMMIT
# plus OUT/NOTES.md and OUT/binostr-VERSION.pdf when already there. git
# archive takes its mtimes from the commit, so the same commit gives the same
# bytes under GNU gzip (other gzips compress differently, so they are refused).
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ $# -ne 3 ]; then
    echo "usage: $0 COMMIT VERSION OUT" >&2
    exit 2
fi
commit=$1 version=$2 out=$3
if ! [[ $commit =~ ^[0-9a-f]{40}$ ]]; then
    echo "archives: commit must be 40 lowercase hex characters, got '$commit'" >&2
    exit 2
fi
if ! git cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "archives: commit $commit is not in this repository (fetch it first)" >&2
    exit 1
fi
gzip_version=$(gzip --version 2>&1 | head -1 || true)
if ! [[ $gzip_version =~ ^gzip\ [0-9] ]]; then
    echo "archives: GNU gzip is required (another compressor gives other bytes); 'gzip --version' says: ${gzip_version:-nothing}" >&2
    exit 1
fi
mkdir -p "$out"

archive() {
    local name=$1
    shift
    git -c tar.umask=0022 -c core.autocrlf=false -c core.eol=lf \
        archive --format=tar --prefix="binostr-$version/" "$commit" "$@" |
        gzip -n -6 >"$out/$name.tmp"
    mv "$out/$name.tmp" "$out/$name"
    echo "archives: $out/$name" >&2
}
archive "binostr-$version-source.tar.gz"
archive "binostr-$version-results.tar.gz" results paper

(
    cd "$out"
    files=("binostr-$version-source.tar.gz" "binostr-$version-results.tar.gz")
    for extra in NOTES.md "binostr-$version.pdf"; do
        if [ -f "$extra" ]; then files+=("$extra"); fi
    done
    LC_ALL=C sha256sum "${files[@]}" | LC_ALL=C sort -k2 >SHA256SUMS.tmp
    mv SHA256SUMS.tmp SHA256SUMS
)
echo "archives: $out/SHA256SUMS" >&2
