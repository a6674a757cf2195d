#!/usr/bin/env bash
# Offline checks of the Nix flake (no Nix store, cache or GitHub needed):
#  1. flake.nix and nix/*.nix parse (nix-instantiate --parse; Debian nix-bin);
#  2. nix/corpus-sources.nix matches provenance/*.toml;
#  3. flake.lock (version 7) pins exactly the recorded entries of
#     nix/LOCK-ENTRIES.md (and, when $BINOSTR_LOCK_ENTRIES names another
#     copy of that file, nix/LOCK-ENTRIES.md must equal it): every node's rev,
#     narHash and lastModified, rust-overlay following nixpkgs, crane without
#     inputs;
#  4. every app's wrapper script (results/nix/apps/) runs with only the tools
#     the flake lists for it (scripts/check-app-wrappers.py).
# The flake is not built here.
#
# With --inputs DIR, it then evaluates every flake output offline (Nix >= 2.18,
# a throwaway store, no substituters, no builds; scripts/flake-eval.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

inputs=
case "${1:-}" in
    "") ;;
    --inputs) inputs=${2:?"--inputs needs a directory"} ;;
    *) echo "usage: scripts/check-flake.sh [--inputs DIR]" >&2; exit 2 ;;
esac

if ! command -v nix-instantiate >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nix-bin >/dev/null
    else
        echo "flake: nix-instantiate not found (apt-get install nix-bin)" >&2
        exit 1
    fi
fi
for f in flake.nix nix/*.nix nix/standin/*.nix; do
    nix-instantiate --parse "$f" >/dev/null
done
echo "flake: flake.nix, nix/*.nix and nix/standin/*.nix parse"

python3 scripts/nix-corpus-sources.py --check

entries=${BINOSTR_LOCK_ENTRIES:-}
if [ -n "$entries" ]; then
    cmp -s "$entries" nix/LOCK-ENTRIES.md || { echo "flake: nix/LOCK-ENTRIES.md differs from $entries" >&2; exit 1; }
fi

python3 - <<'PY'
import json, re, sys

rows = {}
for line in open("nix/LOCK-ENTRIES.md"):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) >= 4 and re.fullmatch(r"[0-9a-f]{40}", cells[1]):
        m = re.search(r"`github:([^/`]+)/([^/`]+)(?:/([^`]+))?`", cells[0])
        if not m:
            sys.exit(f"flake: LOCK-ENTRIES row without a github: reference: {line.strip()}")
        owner, repo, ref = m.groups()
        rows[cells[1]] = {"owner": owner, "repo": repo, "ref": ref,
                          "narHash": cells[2], "lastModified": int(cells[3])}
if not rows:
    sys.exit("flake: no entries parsed from nix/LOCK-ENTRIES.md")

lock = json.load(open("flake.lock"))
errors = []
if lock.get("version") != 7:
    errors.append(f"lock version {lock.get('version')}, want 7")
nodes = lock["nodes"]
root = nodes[lock["root"]]
want_inputs = {"nixpkgs", "crane", "rust-overlay"}
if set(root.get("inputs", {})) != want_inputs:
    errors.append(f"root inputs {sorted(root.get('inputs', {}))}, want {sorted(want_inputs)}")
flake = open("flake.nix").read()
for name, node in nodes.items():
    if name == lock["root"]:
        continue
    locked, original = node.get("locked", {}), node.get("original", {})
    entry = rows.get(locked.get("rev"))
    if entry is None:
        errors.append(f"{name}: rev {locked.get('rev')} is not in LOCK-ENTRIES.md")
        continue
    for key in ("narHash", "lastModified", "owner", "repo"):
        if locked.get(key) != entry[key]:
            errors.append(f"{name}: {key} {locked.get(key)!r}, LOCK-ENTRIES has {entry[key]!r}")
    if locked.get("type") != "github" or original.get("type") != "github":
        errors.append(f"{name}: not a github input")
    if (original.get("owner"), original.get("repo"), original.get("ref")) != (entry["owner"], entry["repo"], entry["ref"]):
        errors.append(f"{name}: original {original} does not match LOCK-ENTRIES reference")
    url = f"github:{entry['owner']}/{entry['repo']}" + (f"/{entry['ref']}" if entry["ref"] else "")
    if f'"{url}"' not in flake:
        errors.append(f"{name}: flake.nix has no input url \"{url}\"")
if nodes.get("rust-overlay", {}).get("inputs") != {"nixpkgs": ["nixpkgs"]}:
    errors.append("rust-overlay must follow nixpkgs")
if nodes.get("crane", {}).get("inputs"):
    errors.append("crane takes no inputs")
if not re.search(r'rust-overlay\s*=\s*\{[^}]*inputs\.nixpkgs\.follows\s*=\s*"nixpkgs"', flake):
    errors.append("flake.nix: rust-overlay.inputs.nixpkgs.follows = \"nixpkgs\" missing")
if errors:
    sys.exit("flake: " + "\n flake: ".join(errors))
print(f"flake: flake.lock pins {len(nodes) - 1} inputs, all from LOCK-ENTRIES.md")
PY

[ -z "$inputs" ] || exec bash scripts/flake-eval.sh "$inputs"

# Every app's wrapper (results/nix/apps/, written by flake-eval.sh) runs with
# only the tools the flake gives it.
bin=${BINOSTR_BIN:-${CARGO_TARGET_DIR:-target}/release/binostr}
[ -x "$bin" ] || cargo build --release --locked --bins -q
python3 scripts/check-app-wrappers.py --binostr "$bin"
