#!/usr/bin/env bash
# Evaluates every output of flake.nix, for all four systems, offline: Nix
# >= 2.18, a throwaway store, no substituters, no flake registry and
# max-jobs 0, so nothing is fetched or built. Run it as
# `scripts/check-flake.sh --inputs DIR`; DIR holds exported source trees:
#   DIR/crane         ipetkov/crane at flake.lock's rev
#   DIR/rust-overlay  oxalica/rust-overlay at flake.lock's rev
#   DIR/nixpkgs.lib   nix-community/nixpkgs.lib at a 26.05 revision
#   DIR/REVISIONS     optional "name rev" lines, printed
# crane and rust-overlay must hash to flake.lock's narHash. nixpkgs is replaced
# by nix/standin/ with DIR/nixpkgs.lib/lib as its lib (results/nix/README.md).
# Paths of this machine are printed as ., $INPUTS and $TMP.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dir=$(cd "${1:?usage: scripts/flake-eval.sh DIR}" && pwd)
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache NO_COLOR=1

redact() { sed -e "s#$tmp#\$TMP#g" -e "s#$dir#\$INPUTS#g" -e "s#$root#.#g" -e 's/\x1b\[[0-9;]*m//g'; }
run() {
    printf '\n$ %s\n' "$*" | redact
    "$@" 2>&1 | redact
}
# run, with standard output to FILE (JSON, printed indented).
capture() {
    local file=$1
    shift
    printf '\n$ %s\n' "$*" | redact
    "$@" 2> >(redact) > "$file"
    python3 -m json.tool < "$file" | redact
}
opts=(--extra-experimental-features "nix-command flakes" --store "$tmp/store" --offline
    --option substituters "" --option flake-registry "" --option max-jobs 0
    --option build-users-group "" --option eval-cache false)
nixc() { nix "${opts[@]}" "$@"; }

echo "== flake-eval: $(nix --version)"
version=$(nix --version | awk '{print $NF}')
if [ "$(printf '%s\n2.18\n' "$version" | sort -V | head -1)" != 2.18 ]; then
    echo "flake-eval: nixpkgs 26.05 needs Nix >= 2.18, found $version" >&2
    exit 1
fi
shown=()
for o in "${opts[@]}"; do
    case $o in "" | *" "*) shown+=("'$o'") ;; *) shown+=("$o") ;; esac
done
echo "nixc below is: nix ${shown[*]}" | redact

echo
echo "== inputs"
[ -f "$dir/REVISIONS" ] && sed 's/^/rev: /' "$dir/REVISIONS"
for name in crane rust-overlay nixpkgs.lib; do
    [ -d "$dir/$name" ] || { echo "flake-eval: $dir/$name is missing" >&2; exit 1; }
    hash=$(nixc hash path "$dir/$name")
    echo "narHash $name $hash"
    if [ "$name" != nixpkgs.lib ]; then
        want=$(python3 -c 'import json,sys; print(json.load(open("flake.lock"))["nodes"][sys.argv[1]]["locked"]["narHash"])' "$name")
        [ "$hash" = "$want" ] || { echo "flake-eval: $name is not flake.lock's tree ($want)" >&2; exit 1; }
        echo "  = flake.lock's narHash"
    fi
done
libversion=$(cat "$dir/nixpkgs.lib/lib/.version")
echo "nixpkgs.lib lib/.version: $libversion"
[ "$libversion" = 26.05 ] || { echo "flake-eval: nixpkgs.lib is $libversion, not 26.05" >&2; exit 1; }

mkdir "$tmp/nixpkgs"
cp -r nix/standin/. "$tmp/nixpkgs/"
cp -r "$dir/nixpkgs.lib/lib" "$tmp/nixpkgs/lib"
echo "nixpkgs stand-in: nix/standin/ + nixpkgs.lib's lib/ at \$TMP/nixpkgs, $(nixc hash path "$tmp/nixpkgs")"

flake=$root
over=(--no-write-lock-file
    --override-input nixpkgs "path:$tmp/nixpkgs"
    --override-input crane "path:$dir/crane"
    --override-input rust-overlay "path:$dir/rust-overlay")

echo
echo "== evaluation"
run nixc flake metadata "$flake" "${over[@]}"
run nixc flake show --quiet --all-systems "$flake" "${over[@]}"
run nixc flake check --no-build --all-systems "$flake" "${over[@]}"
echo "flake check: passed"

drvs='builtins.mapAttrs (_: builtins.mapAttrs (_: d: d.drvPath))'
for out in packages devShells checks; do
    capture "$tmp/$out.json" nixc eval --json "$flake#$out" "${over[@]}" --apply "$drvs"
done
capture "$tmp/apps.json" nixc eval --json "$flake#apps" "${over[@]}" \
    --apply 'builtins.mapAttrs (_: builtins.mapAttrs (_: a: { inherit (a) type program; }))'
python3 - "$tmp" <<'PY'
import json, sys
counts = {}
for out in ("packages", "apps", "devShells", "checks"):
    for system, attrs in json.load(open(f"{sys.argv[1]}/{out}.json")).items():
        counts.setdefault(system, {})[out] = len(attrs)
for system, c in sorted(counts.items()):
    print(f"evaluated {system}: " + ", ".join(f"{n} {out}" for out, n in c.items()))
PY

echo
echo "== app wrappers (x86_64-linux) -> results/nix/apps/NAME.sh, store hashes as HASH"
mkdir -p results/nix/apps
rm -f results/nix/apps/*.sh
for app in $(python3 -c 'import json,sys; print(" ".join(sorted(json.load(open(sys.argv[1]))["x86_64-linux"])))' "$tmp/apps.json"); do
    drv=$(nixc eval --raw "$flake#apps.x86_64-linux.$app.program" "${over[@]}" \
        --apply 'p: builtins.head (builtins.attrNames (builtins.getContext p))' 2>/dev/null)
    nixc derivation show "$drv" 2>/dev/null | python3 -c '
import json, re, sys
env = next(iter(json.load(sys.stdin).values()))["env"]
sys.stdout.write(re.sub(r"/nix/store/[0-9a-z]{32}-", "/nix/store/HASH-", env["text"]))' > "results/nix/apps/$app.sh"
    echo "$app: $(grep -m1 '^export PATH=' "results/nix/apps/$app.sh")"
done

echo
echo "== what the checks are given (x86_64-linux, aarch64-darwin)"
for system in x86_64-linux aarch64-darwin; do
    capture "$tmp/tests.json" nixc eval --json "$flake#checks.$system.tests" "${over[@]}" \
        --apply 't: { nativeBuildInputs = map (d: d.name) t.nativeBuildInputs; CI = t.CI or null; checkPhase = t.checkPhase; }'
done
capture "$tmp/manifest.json" nixc eval --json "$flake#checks.x86_64-linux" "${over[@]}" \
    --apply 'cs: builtins.mapAttrs (_: c: c.buildCommand) (removeAttrs cs (builtins.filter (n: builtins.substring 0 9 n != "manifest-") (builtins.attrNames cs)))'
capture "$tmp/src.json" nixc eval --json "$flake#checks.x86_64-linux.clippy.src" "${over[@]}" --apply toString
python3 -c 'import json,sys; print(json.load(sys.stdin))' < "$tmp/src.json" > "$tmp/src"
for c in doc tests; do
    same=$(nixc eval --raw "$flake#checks.x86_64-linux.$c.src" "${over[@]}" 2>/dev/null)
    [ "$same" = "$(cat "$tmp/src")" ] || { echo "flake-eval: $c has another source set" >&2; exit 1; }
done
echo "doc and tests: the same source set"

# Every file the crates embed (include_str!/include_bytes!) or the tests open
# under CARGO_MANIFEST_DIR must be in the source set.
python3 - "$tmp/store$(cat "$tmp/src")" <<'PY'
import os, re, sys
src = sys.argv[1]
files = [os.path.relpath(os.path.join(d, f), src) for d, _, fs in os.walk(src) for f in fs]
print(f"source set: {len(files)} files")
include = re.compile(r'include_(?:str|bytes)!\(\s*"([^"]+)"\s*\)')
manifest = re.compile(r'env!\("CARGO_MANIFEST_DIR"\)\)?\s*(?:,\s*"/([^"]+)"|\.join\(\s*"([^"]+)"\s*\))')
checked, outside, missing = set(), set(), []
for top in ("build.rs", "src", "crates", "tests", "benches"):
    for d, dirs, fs in os.walk(top) if os.path.isdir(top) else [(".", [], [top])]:
        dirs[:] = [x for x in dirs if x != "target"]
        for f in fs:
            if not f.endswith(".rs"):
                continue
            path = os.path.normpath(os.path.join(d, f))
            text = open(path, encoding="utf-8").read()
            crate = os.path.dirname(path)
            while crate and not os.path.exists(os.path.join(crate, "Cargo.toml")):
                crate = os.path.dirname(crate)
            refs = [os.path.join(os.path.dirname(path), m) for m in include.findall(text)]
            refs += [os.path.join(crate, a or b) for a, b in manifest.findall(text)]
            for r in refs:
                r = os.path.normpath(r)
                if r.startswith(".."):
                    outside.add(f"{r} ({path})")
                    continue
                checked.add(r)
                if not os.path.exists(os.path.join(src, r)):
                    missing.append(f"{r} ({path})")
for r in sorted(checked):
    print(f"  {'in the source set' if os.path.exists(os.path.join(src, r)) else 'MISSING'}: {r}")
for r in sorted(outside):
    print(f"  outside the repository, in no source set: {r}")
if missing:
    sys.exit("flake-eval: not in the source set: " + ", ".join(missing))
PY
echo
echo "== the stand-in refuses (each must fail)"
refuse() {
    local expr="let pkgs = import $tmp/nixpkgs { system = \"$1\"; }; in $2"
    printf "\n\$ nixc eval --impure --expr '%s'\n" "$expr" | redact
    if out=$(nixc eval --impure --expr "$expr" 2>&1); then
        echo "flake-eval: the stand-in accepted that" >&2
        exit 1
    fi
    grep -E '^ *error:' <<<"$out" | tail -1 | sed 's/^ *//' | redact
}
refuse aarch64-darwin 'pkgs.valgrind.drvPath'
refuse x86_64-linux '(pkgs.stdenv.mkDerivation { name = "x"; nativeBuildInputs = [ pkgs.python3.withPackages ]; }).drvPath'
refuse x86_64-linux '(pkgs.fetchurl { url = "https://example.org/x"; sha256 = "0000"; }).drvPath'
refuse x86_64-linux '(pkgs.python3.withPackages (ps: [ ps.cbor ])).drvPath'

echo
echo "flake-eval: every output evaluated for all systems; nothing was built"
