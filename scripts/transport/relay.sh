# Sourced by the transport client scripts: start `binostr relay` on a free
# loopback port and wait until it listens.
#
# start_relay BIN OUT ERR [RELAY ARGS...]: sets relay_pid, port and url; the
# relay's stdout goes to OUT, stderr to ERR. Returns 1 (saying why on
# stderr) when it does not start.

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

start_relay() {
  local bin="$1" out="$2" err="$3"
  shift 3
  port="$(free_port)"
  "$bin" relay --listen "127.0.0.1:$port" "$@" >"$out" 2>"$err" &
  relay_pid=$!
  for _ in $(seq 300); do
    grep -q "relay:" "$err" 2>/dev/null && break
    kill -0 "$relay_pid" 2>/dev/null || break
    sleep 0.1
  done
  if ! grep -q "ws://127.0.0.1:$port" "$err" 2>/dev/null; then
    echo "relay did not start: $(tail -3 "$err" 2>/dev/null)" >&2
    return 1
  fi
  url="ws://127.0.0.1:$port"
}
