#!/usr/bin/env bash
# Interop of `binostr relay` with an independent Python client (websockets +
# coincurve, client.py): for each compression mode (none, deflate,
# deflate-ctx) start the relay on a free port over a generated store and run
# client.py -- NIP-11 limits, every drawn filter alone, 3-filter REQs, {} and
# large REQs (some sent as fragmented messages) compared, ids and order, with
# its own NIP-01 matcher; id and BIP-340 signature of every event; the
# read-only OK -- then, on a larger store, CLOSE mid-stream (REQ and CLOSE in
# one TCP segment; CLOSE after the first event); and the REQs once more
# against `--max-limit 25` (limits clamped).
# Prints each client's JSON summary line and a one-line verdict per run;
# exits 1 if any run failed (a mismatch, a client exit status other than 0,
# no REQ sent by the client or answered by the relay).
#
# usage: run.sh [--generated N]
#   N (or $N): events of the REQ store, default 300; $CLOSE_N: events of the
#   CLOSE store, default 3000 (at least 2000); $BINOSTR_BIN: the binary
#   (default: cargo build --release --locked); $BINOSTR_TRANSPORT_CACHE: where
#   the venv lives (default ~/.cache/binostr-transport).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
n="${N:-300}"
close_n="${CLOSE_N:-3000}"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --generated) n="$2"; shift 2 ;;
    *) echo "usage: $0 [--generated N]" >&2; exit 2 ;;
  esac
done
if (( close_n < 2000 )); then echo "CLOSE_N must be at least 2000" >&2; exit 2; fi

# The venv, rebuilt when requirements.txt changes (exact pins, hashes required).
cache="${BINOSTR_TRANSPORT_CACHE:-$HOME/.cache/binostr-transport}"
venv="$cache/python-venv"
stamp="$(sha256sum "$here/requirements.txt" | cut -c1-16)"
if [[ "$(cat "$venv/.binostr-stamp" 2>/dev/null)" != "$stamp" ]]; then
  rm -rf "$venv"
  mkdir -p "$cache"
  if ! python3 -m venv "$venv" >&2; then
    # Debian ships venv/ensurepip separately.
    rm -rf "$venv"
    command -v apt-get >/dev/null || { echo "python3 -m venv failed and apt-get is unavailable" >&2; exit 1; }
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >&2
    python3 -m venv "$venv" >&2
  fi
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps \
    --require-hashes -r "$here/requirements.txt" >&2
  echo "$stamp" > "$venv/.binostr-stamp"
fi
py="$venv/bin/python"

if [[ -n "${BINOSTR_BIN:-}" ]]; then
  bin="$BINOSTR_BIN"
else
  (cd "$root" && cargo build --release --locked --bin binostr)
  bin="${CARGO_TARGET_DIR:-$root/target}/release/binostr"
fi
profile=(--profiles json)

# shellcheck source=../relay.sh
source "$here/../relay.sh"

work="$(mktemp -d)"
relay_pid=""
cleanup() {
  if [[ -n "$relay_pid" ]]; then kill "$relay_pid" 2>/dev/null || true; wait "$relay_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

"$bin" corpus generate --seed 7 --count "$n" -o "$work/generated.jsonl" >/dev/null
# The generated events have distinct created_at: add signed events that tie.
"$py" "$here/client.py" write-ties "$work/generated.jsonl" "$work/events.jsonl"
"$bin" filters --seed 1 --count 60 "$work/events.jsonl" > "$work/filters.json"
"$bin" corpus generate --seed 7 --count "$close_n" -o "$work/close.jsonl" >/dev/null


stop_relay() {
  kill "$relay_pid" 2>/dev/null || true
  wait "$relay_pid" 2>/dev/null || true
  relay_pid=""
}

# verdict NAME MODE SUMMARY RC: one line from the client's summary, its exit
# status and the relay's per-connection lines; fails if any found a problem.
verdict() {
  "$py" - "$1" "$2" "$3" "$work/$1.out" "$4" <<'PY'
import collections, json, sys
name, mode, line, relay_out, rc = sys.argv[1:6]
try:
    s = json.loads(line)
except ValueError:
    print(f"{name}: FAIL: no summary from the client ({line[:200]!r})")
    sys.exit(1)
def brief(m):
    if m["check"] == "req" and "expected" in m:
        d = [f"expected {m['expected']}, received {m['received']}"]
        if m.get("order_only"):
            d.append("same ids, other order")
        for k in ("missing", "unexpected", "duplicates"):
            if k in m:
                d.append(f"{m[k]} {k}")
        if "first_divergence" in m:
            fd = m["first_divergence"]
            short = lambda x: x and f"{x['id'][:12]}@{x['created_at']}"
            d.append(f"first difference at #{fd['index']}: expected {short(fd['expected'])}, got {short(fd['received'])}")
        for k in ("closed", "strays"):
            if k in m:
                d.append(f"{k} {json.dumps(m[k])[:120]}")
        return f"req {m['sub']} ({m['label']}{', fragmented' if m['fragmented'] else ''}): " + "; ".join(d)
    if m["check"] == "req" and "sub" in m:
        return f"req {m['sub']} ({m['label']}{', fragmented' if m.get('fragmented') else ''}): {m['error']}"
    rest = {k: v for k, v in m.items() if k not in ("check",)}
    return f"{m['check']}: " + json.dumps(rest, ensure_ascii=False)[:300]
problems = [brief(m) for m in s["mismatches"]]
if rc != "0":
    problems.append(f"client.py exited with status {rc}")
# The relay's WebSocket connections (not the NIP-11 GET, `"end":"http"`).
lines = [l for l in map(json.loads, filter(str.strip, open(relay_out))) if l.get("end") != "http"]
comp = collections.Counter(l["compression"] for l in lines if "compression" in l)
errors = collections.Counter(l["error"] for l in lines if l.get("error"))
if any(c != mode for c in comp):
    problems.append(f"relay reports compression {dict(comp)} for a {mode} client")
relay_events = sum(l.get("events", 0) for l in lines)
# A run that sent no REQ checked nothing.
if "reqs" in s["checks"] and not s["reqs"]:
    problems.append("the client sent no REQ")
if "close" in s["checks"] and sorted(s.get("close", {})) != ["burst", "streaming"]:
    problems.append(f"CLOSE checks run: {sorted(s.get('close', {}))}, expected burst and streaming")
if not sum(l.get("requests", 0) for l in lines):
    problems.append("the relay's lines show no REQ answered to EOSE")
if not errors and relay_events != s["events"]:
    problems.append(f"relay counted {relay_events} events sent, client received {s['events']}")
if "reqs" in s["checks"]:
    what = f"{s['reqs_matched']}/{s['reqs']} REQs as expected"
else:
    what = "CLOSE " + ", ".join(f"{v}: stopped after {r['events_before_stop']} of {r['store']} events"
                               for v, r in s.get("close", {}).items())
print(f"{name}: {'ok' if not problems else 'FAIL'}: {what}; {s['verified']}/{s['events']} events verified; "
      f"{s['fragmented_sends']} fragmented sends; extension {s['negotiated']!r}; relay lines {dict(comp)}"
      + (f"; relay errors {dict(errors)}" if errors else ""))
for p in problems[:40]:
    print(f"  {p}")
if len(problems) > 40:
    print(f"  ... {len(problems) - 40} more")
sys.exit(1 if problems else 0)
PY
}

# wait_lines NAME N: until the relay has written N connection lines (3 s at most).
wait_lines() {
  for _ in $(seq 30); do
    [[ "$(grep -c '"peer"' "$work/$1.out" 2>/dev/null || true)" -ge "$2" ]] && break
    sleep 0.1
  done
}

# Runs: CHECK-MODE; plus the REQs again
# with a small max_limit so that limits above it are clamped.
runs=(reqs-none close-none reqs-deflate close-deflate reqs-deflate-ctx close-deflate-ctx)
clamp=25
runs+=(clamp-deflate)

status=0
for name in "${runs[@]}"; do
  check="${name%%-*}"; mode="${name#*-}"
  relay_args=(); client_args=()
  case "$check" in
    reqs) events="$work/events.jsonl"; checks="reqs,event" ;;
    close) events="$work/close.jsonl"; checks="close" ;;
    clamp) events="$work/events.jsonl"; checks="reqs"
      relay_args=(--max-limit "$clamp"); client_args=(--expect-max-limit "$clamp") ;;
  esac
  start_relay "$bin" "$work/$name.out" "$work/$name.err" "${profile[@]}" --events "$events" "${relay_args[@]}" \
    || { echo "$name: relay did not start" >&2; status=1; continue; }
  client_rc=0
  summary="$("$py" "$here/client.py" --url "$url" --events "$events" --filters "$work/filters.json" \
    --mode "$mode" --checks "$checks" "${client_args[@]}" 2>"$work/$name.client.err")" || client_rc=$?
  [[ -n "$summary" ]] || summary="$(tail -1 "$work/$name.client.err")"
  echo "$summary"
  conns="$("$py" -c 'import json,sys; print(json.loads(sys.argv[1]).get("connections", 0))' "$summary" 2>/dev/null || echo 0)"
  wait_lines "$name" "$conns"
  stop_relay
  verdict "$name" "$mode" "$summary" "$client_rc" || status=1
done
exit "$status"
