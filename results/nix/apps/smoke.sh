#!/nix/store/HASH-bash-standin/bin/bash
set -o errexit -o nounset -o pipefail
export PATH="/nix/store/HASH-binostr-0.1.0/bin:/nix/store/HASH-git-standin/bin:/nix/store/HASH-coreutils-standin/bin:/nix/store/HASH-valgrind-standin/bin:/nix/store/HASH-diffutils-standin/bin"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
binostr corpus default --count 200 --select 100 -o "$tmp/corpus"
binostr encode --profile notepack -o "$tmp/np.bin" "$tmp/corpus/selection.jsonl"
binostr decode --profile notepack "$tmp/np.bin" > "$tmp/back.jsonl"
cmp "$tmp/corpus/selection.jsonl" "$tmp/back.jsonl"
echo "smoke: 100 events round-tripped through notepack unchanged"

