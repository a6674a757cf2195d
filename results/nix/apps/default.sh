#!/nix/store/HASH-bash-standin/bin/bash
set -o errexit -o nounset -o pipefail
export PATH="/nix/store/HASH-binostr-0.1.0/bin:/nix/store/HASH-git-standin/bin:/nix/store/HASH-coreutils-standin/bin:/nix/store/HASH-valgrind-standin/bin"
exec binostr "$@"
