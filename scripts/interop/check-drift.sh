#!/usr/bin/env bash
# Proves that every interop harness's check fails when coverage.json or
# divergences.json drifts from the registry or from the harness (README.md):
# each case is the committed files with one change, and each harness must
# exit non-zero naming it. A profile missing from coverage.json must be
# reported as not-covered without failing the run.
#   scripts/interop/check-drift.sh
# Needs what the harnesses' run.sh set up (Python venv, node_modules, Go,
# the Kotlin build of scripts/interop/kotlin/setup.sh) and
# BINOSTR_BIN (default: the release build in $CARGO_TARGET_DIR or target/).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/interop-drift.XXXXXX")"
trap 'rm -rf "$work"' EXIT

export BINOSTR_BIN="${BINOSTR_BIN:-${CARGO_TARGET_DIR:-$root/target}/release/binostr}"
py="$("$here/python/setup.sh")"
(cd "$here/go" && GOFLAGS=-mod=readonly go build -o "$work/interop-go" .)
bash "$here/kotlin/setup.sh"
kotlin_cp="$here/kotlin/target/classes:$(cat "$here/kotlin/target/classpath.txt")"

# Writes $work/<lang>.<case>.{coverage,divergences}.json and prints
# "<lang> <case> <fail|pass> <expected message>" per case.
python3 - "$here" "$work" > "$work/cases" <<'PY'
import copy, json, sys
here, work = sys.argv[1:]
coverage = json.load(open(f"{here}/coverage.json"))
divergences = json.load(open(f"{here}/divergences.json"))
for lang in ("python", "js", "go", "kotlin"):
    msgpack = coverage["profiles"]["msgpack"][lang][0]["library"]
    cases = {}
    c = copy.deepcopy(coverage)
    c["profiles"]["no-such-profile"] = {}
    cases["unknown-profile"] = (c, divergences, "fail", "no-such-profile is not an enabled registry profile")
    c = copy.deepcopy(coverage)
    c["profiles"]["msgpack"][lang] = {"status": "not-supported", "reason": "drift case"}
    cases["unlisted-codec"] = (c, divergences, "fail", "that coverage.json does not list")
    c = copy.deepcopy(coverage)
    c["profiles"]["beve"][lang] = [{"library": "no-such-library", "version": "1"}]
    cases["missing-codec"] = (c, divergences, "fail", "no-such-library has no codec in this harness")
    c = copy.deepcopy(coverage)
    c["profiles"]["msgpack"][lang][0]["version"] = "0.0.0-drift"
    cases["other-version"] = (c, divergences, "fail", "is pinned at 0.0.0-drift")
    d = copy.deepcopy(divergences)
    d.setdefault(lang, {})["no-such-profile"] = {"any": {"decode": "drift case"}}
    cases["unknown-pin"] = (coverage, d, "fail", "divergences.json: no-such-profile is not an enabled registry profile")
    d = copy.deepcopy(divergences)
    d.setdefault(lang, {})["msgpack"] = {msgpack: {"key-order" if lang == "go" else "reencode": "drift case"}}
    cases["stale-pin"] = (coverage, d, "fail", "pinned divergence no longer happens")
    c = copy.deepcopy(coverage)
    del c["profiles"]["beve"][lang]
    cases["not-covered"] = (c, divergences, "pass", "NOT COVERED: beve")
    for name, (c, d, mode, expect) in cases.items():
        json.dump(c, open(f"{work}/{lang}.{name}.coverage.json", "w"))
        json.dump(d, open(f"{work}/{lang}.{name}.divergences.json", "w"))
        print(lang, name, mode, expect)
PY

failed=0
while read -r lang case mode expect; do
  cov="$work/$lang.$case.coverage.json"
  div="$work/$lang.$case.divergences.json"
  out="$work/$lang.$case.csv"
  case "$lang" in
    python) cmd=("$py" "$here/python/interop.py" check --coverage "$cov" --divergences "$div" --out "$out") ;;
    js) cmd=(node "$here/js/checks.mjs" --coverage "$cov" --divergences "$div" --out "$out") ;;
    go) cmd=("$work/interop-go" check -repo "$root" -coverage "$cov" -divergences "$div" -out "$out") ;;
    kotlin) cmd=(java -cp "$kotlin_cp" binostr.interop.MainKt check --repo "$root" --coverage "$cov" --divergences "$div" --out "$out") ;;
  esac
  if log="$("${cmd[@]}" 2>&1)"; then rc=pass; else rc=fail; fi
  if [[ "$rc" != "$mode" ]]; then
    echo "drift: $lang $case: the harness ended in $rc; it must $mode"
    echo "$log" | tail -5
    failed=1
  elif ! grep -qF -- "$expect" <<< "$log"; then
    echo "drift: $lang $case: ended in $rc without saying \"$expect\":"
    echo "$log" | tail -5
    failed=1
  else
    echo "drift: $lang $case: $rc, as it must, saying \"$expect\""
  fi
done < "$work/cases"
exit "$failed"
