#!/usr/bin/env bash
# Interop of `binostr relay` with an independent Go client (coder/websocket,
# the library of the `nak` CLI, and go-nostr): generate a corpus (plus 40
# signed notes whose created_at ties with corpus events), draw the filter set, serve the corpus with the relay on a free port, and run the
# client (main.go) once per compression mode (none, deflate, deflate-ctx),
# and once more under a small --max-limit.
# The client compares every REQ answer (ids and order) with its own
# go-nostr expectation, verifies every event and prints one JSON summary
# line per mode; the relay's own report of each connection must agree on the
# compression mode and the events sent. Exit 1 when any mode fails.
#
# usage: run.sh [--generated N]   (default 300 events, or $N)
#   BINOSTR_BIN: the binary; default `cargo build --release` from the repo root
set -euo pipefail
cd "$(dirname "$0")"
count="${N:-300}"
if [[ "${1:-}" == "--generated" ]]; then count="$2"; fi

work="$(mktemp -d)"
relay_pid=""
cleanup() {
  if [[ -n "$relay_pid" ]]; then kill "$relay_pid" 2>/dev/null || true; wait "$relay_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

if [[ -n "${BINOSTR_BIN:-}" ]]; then
  bin="$BINOSTR_BIN"
else
  (cd ../../.. && cargo build --release --locked --bin binostr)
  bin="${CARGO_TARGET_DIR:-$(cd ../../.. && pwd)/target}/release/binostr"
fi
go build -o "$work/transport-go" .

profile_flag=(--profiles json)

"$bin" corpus generate --seed 7 --count "$count" -o "$work/events.jsonl" >&2
# The generated corpus has no two events with one created_at; add signed
# notes that tie with 20 of them, so the order's tie rule (lowest id first)
# is exercised too.
"$work/transport-go" ties --events "$work/events.jsonl" --count 20 >"$work/ties.jsonl"
cat "$work/ties.jsonl" >>"$work/events.jsonl"
"$bin" filters --seed 1 --count 60 "$work/events.jsonl" >"$work/filters.json"

# shellcheck source=../relay.sh
source ../relay.sh

# One pass per mode, and one more pass
# (deflate-ctx) under a max_limit below the drawn limits (100, 500), which
# the client reads from NIP-11 and clamps its expectations to.
passes=(none deflate deflate-ctx)
passes+=(deflate-ctx:max-limit=50)

status=0
for i in "${!passes[@]}"; do
  pass="${passes[$i]}"
  mode="${pass%%:*}"
  extra=()
  if [[ "$pass" == *:max-limit=* ]]; then extra=(--max-limit "${pass##*=}"); fi
  if ! start_relay "$bin" "$work/relay-$i.jsonl" "$work/relay-$i.err" \
    "${profile_flag[@]}" --events "$work/events.jsonl" "${extra[@]}"; then
    echo "$pass: relay did not start"
    status=1
  else
    summary="$("$work/transport-go" --url "$url" --events "$work/events.jsonl" \
      --filters "$work/filters.json" --mode "$mode")" || status=1
    echo "$summary"
    # The relay reports each WebSocket connection once it has closed.
    for _ in $(seq 50); do
      grep -q '"compression"' "$work/relay-$i.jsonl" 2>/dev/null && break
      sleep 0.1
    done
    python3 - "$mode" "$summary" "$work/relay-$i.jsonl" <<'PY' || status=1
import json, sys
mode, client, path = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
conns = [c for c in map(json.loads, filter(str.strip, open(path))) if c.get("requests")]
wrong = sorted({c.get("compression") for c in conns} - {mode})
events = sum(c.get("events", 0) for c in conns)
if wrong:
    sys.exit(f"{mode}: relay reports compression {wrong}")
if client["ok"] and events != client["events_received"]:
    sys.exit(f"{mode}: relay reports {events} events sent, client received {client['events_received']}")
PY
  fi
  kill "$relay_pid" 2>/dev/null || true
  wait "$relay_pid" 2>/dev/null || true
  relay_pid=""
done
if [[ "$status" == 0 ]]; then echo "transport-go: all modes passed"; else echo "transport-go: FAILED"; fi
exit "$status"
