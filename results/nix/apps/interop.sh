#!/nix/store/HASH-bash-standin/bin/bash
set -o errexit -o nounset -o pipefail
export PATH="/nix/store/HASH-binostr-0.1.0/bin:/nix/store/HASH-bash-standin/bin:/nix/store/HASH-coreutils-standin/bin:/nix/store/HASH-python3-standin/bin:/nix/store/HASH-nodejs-standin/bin:/nix/store/HASH-go-standin/bin"
echo "interop: the harnesses fetch their pinned packages from PyPI, the npm registry and the Go module proxy"
if ! python3 -c 'import urllib.request as u; u.urlopen("https://pypi.org/simple/", timeout=10)' 2>/dev/null; then
  echo "interop: PyPI is unreachable; this app needs the network (see docs/NIX.md)" >&2
  exit 1
fi
export BINOSTR_BIN=/nix/store/HASH-binostr-0.1.0/bin/binostr CGO_ENABLED=0
binostr vectors -o vectors/interop-v1.json
for lang in python js go; do
  bash "scripts/interop/$lang/run.sh"
done

