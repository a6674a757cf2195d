#!/usr/bin/env python3
"""Bounded load-and-fault test of `binostr relay` on loopback.

Python 3.11 standard library only (asyncio, raw sockets, zlib): a minimal
RFC 6455 client (handshake, masked frames, fragmented and RSV1-compressed
messages, permessage-deflate per RFC 7692 with raw zlib) so that the test
needs no install. It only ever connects to 127.0.0.1, every loop is bounded
in count and in time, and the whole run has a deadline.

usage:
  loadtest.py --bin BINOSTR --profile P --compression none|deflate --out DIR
              [--events-count N] [--smoke] [--work DIR]

Steps (see README.md next to this file):
 1. `BIN corpus generate --seed 7 --count N -o WORK/events.jsonl`, then
    `BIN relay --listen 127.0.0.1:PORT --profiles json,P --events ...
    --max-connections M --handshake-timeout-ms H --max-message B --max-filters F`
    (flags the binary lacks are reported as "relay lacks --X" and left out).
 2. Phase A (baseline): K well-behaved clients loop REQ-all -> EOSE for R
    rounds; one probe client (a separate process, so that the hostile load
    of this process does not delay its clock) loops REQ-all -> EOSE through
    phases A and B.
 3. Phase B (hostile, concurrently with the probe): S slow consumers (REQ-all,
    never read, 4 KiB receive buffer), F filter flooders (REQs over
    max-filters, REQs of max-filters expensive filters), protocol faults
    (unmasked frame, invalid UTF-8, bad deflate data, oversized message,
    300-byte subscription id, deflate bombs of 1 GiB inflated, streamed in
    frames and in one frame), then idle TCP sockets up to the connection
    limit, one more WebSocket connection (must get HTTP 503), and the wait
    for the relay's handshake timeout to close the idle sockets.
 4. Asserts; writes OUT/load-<profile>-<compression>.json and prints one
    summary line. Exit status 1 if any assert failed.

The relay's CPU (utime+stime) and memory (VmRSS, VmHWM) are sampled from
/proc every 100 ms. If the relay's RSS passes a safety cap (default 4 GiB) the
harness kills it, to protect the machine, and the run fails.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import json
import logging
import math
import os
import re
import resource
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import zlib

HOST = "127.0.0.1"  # the only address this script ever connects to
GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
CLIENT_MAX_MESSAGE = 64 << 20  # this client's own cap on a relay message
TAIL = b"\x00\x00\xff\xff"

# Envelope types of the binary profiles (spec: byte0 of a binary frame).
B_EVENT, B_EOSE, B_CLOSED, B_NOTICE, B_OK = 1, 2, 3, 4, 5

SMOKE = dict(events=300, max_connections=300, clients=10, rounds=10, slow=20, slow_reqs=3,
             flooders=2, flood_iterations=400, min_phase_b_s=8.0, p99_bound_s=3.0,
             rss_bound_mib=128, deadline_s=120, exchange_timeout_s=20.0, handshake_timeout_ms=5000)
FULL = dict(events=2000, max_connections=1000, clients=50, rounds=4, slow=200, slow_reqs=3,
            flooders=4, flood_iterations=400, min_phase_b_s=15.0, p99_bound_s=5.0,
            rss_bound_mib=512, deadline_s=900, exchange_timeout_s=60.0, handshake_timeout_ms=10000)

PROBE_PAUSE_MS = 50  # the probe's pause between two REQ-all exchanges
def idle_slack_s(h):
    """An idle socket must be closed within the handshake timeout h + this
    (a busy relay accepts, and so starts the timer, late)."""
    return max(3.0, 0.5 * h)

# Our end's TCP state (tcp_info.tcpi_state): close-wait = the relay closed.
TCP_STATES = {1: "established", 7: "closed (reset)", 8: "close-wait (relay closed)"}

# Flags the test relies on, with the spec's meaning.
WANTED_FLAGS = ("--profiles", "--max-connections", "--handshake-timeout-ms",
                "--max-message", "--max-filters")

def now() -> float:
    return time.perf_counter()


def pct(values, q):
    """Nearest-rank percentile (q in 0..1) of a list; None if empty."""
    if not values:
        return None
    v = sorted(values)
    k = max(0, min(len(v) - 1, math.ceil(q * len(v)) - 1))
    return v[k]


def r3(x):
    return None if x is None else round(x, 4)


# --------------------------------------------------------------------------
# A minimal RFC 6455 client
# --------------------------------------------------------------------------

def mask_bytes(data: bytes, key: bytes) -> bytes:
    n = len(data)
    if n == 0:
        return b""
    k = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(data, "little") ^ int.from_bytes(k, "little")).to_bytes(n, "little")


def frame(opcode: int, payload: bytes, *, fin=True, rsv1=False, mask=True) -> bytes:
    """One client frame (masked unless mask=False, which is a protocol error)."""
    b0 = (0x80 if fin else 0) | (0x40 if rsv1 else 0) | opcode
    m = 0x80 if mask else 0
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", b0, m | n)
    elif n < 65536:
        head = struct.pack("!BBH", b0, m | 126, n)
    else:
        head = struct.pack("!BBQ", b0, m | 127, n)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + mask_bytes(payload, key)


def parse_extensions(value: str) -> dict | None:
    """The relay's permessage-deflate answer, or None."""
    for ext in value.split(","):
        parts = [p.strip() for p in ext.split(";")]
        if parts and parts[0].lower() == "permessage-deflate":
            params = {}
            for p in parts[1:]:
                if not p:
                    continue
                k, _, v = p.partition("=")
                params[k.strip().lower()] = v.strip().strip('"') or True
            return params
    return None


def upgrade_request(port, key, *, protocol=None, deflate=False, path="/") -> bytes:
    lines = [f"GET {path} HTTP/1.1", f"Host: {HOST}:{port}", "Upgrade: websocket",
             "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    if protocol:
        lines.append(f"Sec-WebSocket-Protocol: {protocol}")
    if deflate:
        lines.append("Sec-WebSocket-Extensions: permessage-deflate")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def parse_head(head: bytes):
    text = head.decode("latin-1")
    lines = text.split("\r\n")
    try:
        status = int(lines[0].split(" ", 2)[1])
    except (IndexError, ValueError):
        status = None
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if ":" in line:
            k, _, v = line.partition(":")
            k = k.strip().lower()
            headers[k] = (headers[k] + ", " if k in headers else "") + v.strip()
    return status, lines[0], headers


class Closed(Exception):
    """The connection ended: a close frame (code), EOF or an error."""

    def __init__(self, how: str, code=None, reason=""):
        super().__init__(f"{how} {code} {reason}")
        self.how, self.code, self.reason = how, code, reason

    def label(self) -> str:
        return f"close {self.code}" if self.how == "close-frame" else self.how


class Stats:
    live = 0  # WebSocket connections of this process open now
    attempts = 0  # TCP connections this process opened to the relay
    reqs = 0  # REQs this process sent through exchange()
    closes: dict[str, int] = {}  # how relay-ended connections ended, by label

    @classmethod
    def closed(cls, label):
        cls.closes[label] = cls.closes.get(label, 0) + 1


class WS:
    def __init__(self, reader, writer, headers, deflate_params):
        self.reader, self.writer = reader, writer
        self.protocol = headers.get("sec-websocket-protocol")
        self.deflate = deflate_params is not None
        self.params = deflate_params or {}
        self.inflater = zlib.decompressobj(-15)
        self.compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
        self.buf = bytearray()
        self.pos = 0
        self.frags: list[bytes] = []
        self.frag_op = 0
        self.frag_rsv1 = False
        self.notices: list[str] = []
        self.ended = False
        self.masked_from_relay = 0
        Stats.live += 1

    # -- sending
    def deflate_message(self, data: bytes) -> bytes:
        if self.params.get("client_no_context_takeover"):
            self.compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
        out = self.compressor.compress(data) + self.compressor.flush(zlib.Z_SYNC_FLUSH)
        return out[:-4] if out.endswith(TAIL) else out

    async def send_text(self, text, *, compress=True):
        data = text.encode() if isinstance(text, str) else text
        if self.deflate and compress:
            self.writer.write(frame(1, self.deflate_message(data), rsv1=True))
        else:
            self.writer.write(frame(1, data))
        await self.writer.drain()

    async def send_raw(self, raw: bytes):
        self.writer.write(raw)
        await self.writer.drain()

    # -- receiving
    async def _fill(self):
        try:
            data = await self.reader.read(1 << 18)
        except (ConnectionResetError, BrokenPipeError):
            # asyncio's StreamReader raises a reset before the bytes it holds
            # (the relay's close frame may be among them): parse those first.
            held = getattr(self.reader, "_buffer", None)
            if held:
                data = bytes(held)
                held.clear()
            else:
                self._end()
                raise Closed("reset")
        if not data:
            self._end()
            raise Closed("eof")
        if self.pos:
            del self.buf[:self.pos]
            self.pos = 0
        self.buf += data

    def _frame(self):
        buf, p = self.buf, self.pos
        avail = len(buf) - p
        if avail < 2:
            return None
        b0, b1 = buf[p], buf[p + 1]
        n, h = b1 & 0x7F, 2
        if n == 126:
            if avail < 4:
                return None
            n, h = int.from_bytes(buf[p + 2:p + 4], "big"), 4
        elif n == 127:
            if avail < 10:
                return None
            n, h = int.from_bytes(buf[p + 2:p + 10], "big"), 10
        if n > CLIENT_MAX_MESSAGE:
            raise Closed(f"client: relay frame of {n} bytes")
        key = None
        if b1 & 0x80:
            key = bytes(buf[p + h:p + h + 4])
            h += 4
        if avail < h + n:
            return None
        payload = bytes(buf[p + h:p + h + n])
        if key is not None:
            self.masked_from_relay += 1
            payload = mask_bytes(payload, key)
        self.pos = p + h + n
        return b0, payload

    def _inflate(self, data: bytes) -> bytes:
        if self.params.get("server_no_context_takeover") or self.inflater.eof:
            self.inflater = zlib.decompressobj(-15)
        out = self.inflater.decompress(data + TAIL, CLIENT_MAX_MESSAGE)
        if self.inflater.unconsumed_tail:
            raise Closed("client: relay message inflates past the client's cap")
        return out

    async def recv(self):
        """The next data message: (opcode, payload)."""
        while True:
            f = self._frame()
            if f is None:
                await self._fill()
                continue
            b0, payload = f
            op = b0 & 0x0F
            if op >= 8:
                if op == 9:  # ping
                    try:
                        self.writer.write(frame(10, payload))
                    except Exception:
                        pass
                elif op == 8:
                    code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else None
                    reason = payload[2:].decode("utf-8", "replace")
                    try:
                        self.writer.write(frame(8, payload[:2]))
                    except Exception:
                        pass
                    self._end()
                    raise Closed("close-frame", code, reason)
                continue
            if op != 0:
                self.frag_op, self.frag_rsv1, self.frags = op, bool(b0 & 0x40), [payload]
            else:
                self.frags.append(payload)
            if b0 & 0x80:
                data = self.frags[0] if len(self.frags) == 1 else b"".join(self.frags)
                self.frags = []
                if self.frag_rsv1:
                    data = self._inflate(data)
                return self.frag_op, data

    async def wait_close(self, timeout: float) -> str:
        """Reads until the relay ends the connection: 'close CODE', 'eof',
        'reset' or 'timeout'."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    await self.recv()
        except Closed as c:
            return c.label()
        except TimeoutError:
            return "timeout"
        except (ConnectionError, OSError) as e:
            self._end()
            return f"error {type(e).__name__}"

    def _end(self):
        if not self.ended:
            self.ended = True
            Stats.live -= 1

    async def close(self):
        try:
            if not self.ended:
                self.writer.write(frame(8, struct.pack("!H", 1000)))
            self.writer.close()
            async with asyncio.timeout(1):
                await self.writer.wait_closed()
        except Exception:
            pass
        self._end()

    def abort(self):
        try:
            self.writer.transport.abort()
        except Exception:
            pass
        self._end()


def close_code(buf: bytes):
    """The status code of the first close frame in a relay byte stream."""
    p = 0
    while p + 2 <= len(buf):
        b0, b1 = buf[p], buf[p + 1]
        n, h = b1 & 0x7F, 2
        if n == 126:
            n, h = int.from_bytes(buf[p + 2:p + 4], "big"), 4
        elif n == 127:
            n, h = int.from_bytes(buf[p + 2:p + 10], "big"), 10
        if b1 & 0x80:
            h += 4
        if p + h + n > len(buf):
            return None
        if b0 & 0x0F == 8:
            return int.from_bytes(buf[p + h:p + h + 2], "big") if n >= 2 else 1005
        p += h + n
    return None


class Handshake:
    def __init__(self, status=None, line="", headers=None, body=b"", error=None, seconds=0.0):
        self.status, self.line, self.headers = status, line, headers or {}
        self.body, self.error, self.seconds = body, error, seconds

    def describe(self) -> str:
        if self.error:
            return self.error
        return f"HTTP {self.status}" + (f" {self.body[:120]!r}" if self.body else "")


async def open_ws(port, *, protocol=None, deflate=False, path="/", timeout=10.0):
    """(WS or None, Handshake)."""
    t0 = now()
    key = base64.b64encode(os.urandom(16)).decode()
    writer = None
    try:
        async with asyncio.timeout(timeout):
            Stats.attempts += 1
            reader, writer = await asyncio.open_connection(HOST, port, limit=1 << 20)
            writer.write(upgrade_request(port, key, protocol=protocol, deflate=deflate, path=path))
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            status, line, headers = parse_head(head)
            if status != 101:
                body = b""
                try:
                    n = int(headers.get("content-length", "-1"))
                    if n >= 0:
                        body = await reader.readexactly(min(n, 65536))
                    else:
                        async with asyncio.timeout(2):
                            body = await reader.read(65536)
                except (asyncio.IncompleteReadError, TimeoutError, ConnectionError) as e:
                    body = getattr(e, "partial", b"")
                writer.close()
                return None, Handshake(status, line, headers, body, seconds=now() - t0)
    except TimeoutError:
        if writer:
            writer.transport.abort()
        return None, Handshake(error=f"no response within {timeout:g} s", seconds=now() - t0)
    except asyncio.IncompleteReadError as e:
        return None, Handshake(error=f"closed before a response ({len(e.partial)} bytes)",
                               seconds=now() - t0)
    except (ConnectionError, OSError, asyncio.LimitOverrunError) as e:
        if writer:
            writer.transport.abort()
        return None, Handshake(error=f"{type(e).__name__}: {e}", seconds=now() - t0)
    want = base64.b64encode(hashlib.sha1(key.encode() + GUID).digest()).decode()
    hs = Handshake(101, line, headers, seconds=now() - t0)
    if headers.get("sec-websocket-accept") != want:
        writer.transport.abort()
        hs.error = "bad Sec-WebSocket-Accept"
        return None, hs
    params = parse_extensions(headers.get("sec-websocket-extensions", ""))
    return WS(reader, writer, headers, params), hs


# -- messages ---------------------------------------------------------------

EVENT, EOSE, CLOSEDMSG, NOTICE, OK, OTHER = "EVENT", "EOSE", "CLOSED", "NOTICE", "OK", "other"


def classify(op: int, data: bytes):
    """(kind, sub, message) of a relay message; text = NIP-01 JSON, binary =
    the envelope. The sub of an EVENT is not decoded (speed)."""
    if op == 1:
        if data.startswith(b'["EVENT"'):
            return EVENT, None, None
        try:
            m = json.loads(data)
            kind = m[0]
        except (ValueError, IndexError, KeyError, TypeError):
            return OTHER, None, data[:120]
        if kind == "EOSE":
            return EOSE, m[1], None
        if kind == "CLOSED":
            return CLOSEDMSG, m[1], m[2] if len(m) > 2 else ""
        if kind == "NOTICE":
            return NOTICE, None, m[1] if len(m) > 1 else ""
        if kind == "OK":
            return OK, None, m
        return OTHER, None, data[:120]
    if op == 2 and data:
        t = data[0]
        if t == B_EVENT:
            return EVENT, None, None
        if t == B_NOTICE:
            return NOTICE, None, data[1:].decode("utf-8", "replace")
        n = data[1] if len(data) > 1 else 0
        sub = data[2:2 + n].decode("utf-8", "replace")
        rest = data[2 + n:]
        if t == B_EOSE:
            return EOSE, sub, None
        if t == B_CLOSED:
            return CLOSEDMSG, sub, rest.decode("utf-8", "replace")
        return OTHER, sub, data[:120]
    return OTHER, None, data[:120]


def outcome(res) -> str:
    """An exchange's end with its message, numbers masked (to count alike)."""
    m = res.get("message")
    return res["kind"] + (": " + re.sub(r"\d+", "N", str(m))[:100] if m else "")


def req_text(sub, filters) -> bytes:
    return json.dumps(["REQ", sub, *filters], separators=(",", ":")).encode()


async def exchange(ws: WS, sub: str, filters, timeout: float, text: bytes | None = None,
                   notice_ends=False):
    """Sends one REQ and reads until its EOSE or CLOSED. The connection has
    only this REQ outstanding, so any EOSE/CLOSED ends it (a binary CLOSED
    for a sub id over 255 bytes cannot carry the id). Returns a dict: kind
    (eose, closed, timeout, close CODE, eof, reset, error), events, seconds,
    message."""
    text = text if text is not None else req_text(sub, filters)
    n = 0
    t0 = now()
    try:
        async with asyncio.timeout(timeout):
            await ws.send_text(text)
            Stats.reqs += 1
            while True:
                op, data = await ws.recv()
                kind, _, msg = classify(op, data)
                if kind is EVENT:
                    n += 1
                elif kind is EOSE:
                    return dict(kind="eose", events=n, seconds=now() - t0)
                elif kind is CLOSEDMSG:
                    return dict(kind="closed", events=n, seconds=now() - t0, message=msg)
                elif kind is NOTICE:
                    ws.notices.append(str(msg)[:200])
                    if notice_ends:
                        return dict(kind="notice", events=n, seconds=now() - t0, message=msg)
    except TimeoutError:
        return dict(kind="timeout", events=n, seconds=now() - t0)
    except Closed as c:
        return dict(kind=c.label(), events=n, seconds=now() - t0, message=c.reason)
    except (ConnectionError, OSError) as e:
        ws._end()
        return dict(kind=f"error {type(e).__name__}", events=n, seconds=now() - t0)


# --------------------------------------------------------------------------
# Relay process: flags, start, /proc sampling
# --------------------------------------------------------------------------

CLK_TCK = os.sysconf("SC_CLK_TCK")


def proc_sample(pid):
    """(cpu seconds, VmRSS KiB, VmHWM KiB, state) or None once gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
        with open(f"/proc/{pid}/status") as f:
            status = f.read()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = stat[stat.rindex(")") + 2:].split()
    state = fields[0]
    cpu = (int(fields[11]) + int(fields[12])) / CLK_TCK
    rss = hwm = 0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1])
        elif line.startswith("VmHWM:"):
            hwm = int(line.split()[1])
    return cpu, rss, hwm, state


PAGE = os.sysconf("SC_PAGE_SIZE")


def tcp_mem_kib():
    """Kernel memory of all TCP sockets (system-wide, /proc/net/sockstat), KiB."""
    try:
        with open("/proc/net/sockstat") as f:
            for line in f:
                if line.startswith("TCP:"):
                    w = line.split()
                    return int(w[w.index("mem") + 1]) * PAGE // 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


class Monitor:
    def __init__(self, proc, cap_kib):
        self.proc, self.cap_kib = proc, cap_kib
        self.phase = "start"
        self.peak_rss: dict[str, int] = {}
        self.last = None
        self.marks: dict[str, float] = {}
        self.killed_at_kib = None
        self.samples = 0
        self.window_peak = 0
        self.peak_tcp_mem: dict[str, int] = {}
        self.task = None

    def sample(self):
        s = proc_sample(self.proc.pid)
        if s is None or s[3] == "Z":
            return self.last
        self.last = s
        self.samples += 1
        self.peak_rss[self.phase] = max(self.peak_rss.get(self.phase, 0), s[1])
        k = tcp_mem_kib()
        if k is not None:
            self.peak_tcp_mem[self.phase] = max(self.peak_tcp_mem.get(self.phase, 0), k)
        self.window_peak = max(self.window_peak, s[1])
        if s[1] > self.cap_kib and self.killed_at_kib is None:
            self.killed_at_kib = s[1]
            self.proc.kill()
        return s

    def mark(self, name):
        s = self.sample()
        self.marks[name] = s[0] if s else (self.last[0] if self.last else 0.0)

    def enter(self, phase):
        self.mark(f"{phase}:start")
        self.phase = phase

    def leave(self, phase):
        self.mark(f"{phase}:end")

    def cpu(self, phase):
        a, b = self.marks.get(f"{phase}:start"), self.marks.get(f"{phase}:end")
        return None if a is None or b is None else b - a

    async def run(self):
        while self.proc.returncode is None and self.proc.poll() is None:
            self.sample()
            await asyncio.sleep(0.1)


def listen_overflows():
    """The kernel's ListenOverflows counter (system-wide): SYNs dropped because
    a listener's accept queue was full. None if unreadable."""
    try:
        with open("/proc/net/netstat") as f:
            lines = f.read().splitlines()
        for k, v in zip(lines[::2], lines[1::2]):
            if k.startswith("TcpExt:"):
                return int(dict(zip(k.split(), v.split()))["ListenOverflows"])
    except (OSError, KeyError, ValueError):
        pass
    return None


def relay_flags(binary) -> tuple[set, str]:
    out = subprocess.run([binary, "relay", "--help"], capture_output=True, text=True, timeout=60)
    text = out.stdout + out.stderr
    return set(re.findall(r"--[a-z][a-z0-9-]*", text)), text


def free_port() -> int:
    s = socket.socket()
    s.bind((HOST, 0))
    port = s.getsockname()[1]
    s.close()
    return port


# --------------------------------------------------------------------------
# The test
# --------------------------------------------------------------------------

class Test:
    def __init__(self, args, cfg):
        self.args, self.cfg = args, cfg
        self.checks: list[dict] = []
        self.warnings: list[str] = []
        self.report: dict = {}
        self.proc = None
        self.monitor = None
        self.port = None
        self.protocol = None if args.profile == "json" else f"binostr.{args.profile}"
        self.deflate = args.compression == "deflate"
        self.limits = dict(max_filters=20, max_message=1 << 20, max_subid=64)
        self.expected_events = None
        self.slow_peers: set[str] = set()

    def check(self, name, ok, detail=""):
        self.checks.append(dict(name=name, ok=bool(ok), detail=str(detail)))
        return ok

    def warn(self, text):
        self.warnings.append(text)

    async def ws(self, *, deflate=None, protocol="default", timeout=10.0):
        return await open_ws(self.port, protocol=self.protocol if protocol == "default" else protocol,
                             deflate=self.deflate if deflate is None else deflate, timeout=timeout)

    # -- setup ------------------------------------------------------------
    def start_relay(self, work):
        a, cfg = self.args, self.cfg
        events = os.path.join(work, "events.jsonl")
        t0 = now()
        gen = subprocess.run([a.bin, "corpus", "generate", "--seed", "7", "--count",
                              str(cfg["events"]), "-o", events],
                             capture_output=True, text=True, timeout=300)
        if gen.returncode != 0:
            raise RuntimeError(f"corpus generate failed: {gen.stderr.strip()[-500:]}")
        self.report["generate_s"] = r3(now() - t0)
        flags, _ = relay_flags(a.bin)
        lacks = [f for f in WANTED_FLAGS if f not in flags]
        self.report["relay_lacks"] = lacks
        for f in lacks:
            print(f"relay lacks {f}", file=sys.stderr)
        self.check("relay has the spec's flags", not lacks,
                   "; ".join(f"relay lacks {f}" for f in lacks) or "all present")
        for attempt in range(3):
            self.port = free_port()
            cmd = [a.bin, "relay", "--listen", f"{HOST}:{self.port}", "--events", events]
            if "--profiles" in flags:
                cmd += ["--profiles", "json" if a.profile == "json" else f"json,{a.profile}"]
            elif "--profile" in flags:
                cmd += ["--profile", a.profile]
            opt = {"--max-connections": cfg["max_connections"],
                   "--handshake-timeout-ms": cfg["handshake_timeout_ms"],
                   "--max-message": self.limits["max_message"],
                   "--max-filters": self.limits["max_filters"]}
            for flag, value in opt.items():
                if flag in flags:
                    cmd += [flag, str(value)]
            self.report["relay_command"] = " ".join(cmd)
            self.stdout_path = os.path.join(work, "relay.stdout.jsonl")
            self.stderr_path = os.path.join(work, "relay.stderr")
            out = open(self.stdout_path, "wb")
            err = open(self.stderr_path, "wb")
            t0 = now()
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
            out.close()
            err.close()
            deadline = now() + 60
            while now() < deadline:
                with open(self.stderr_path, "rb") as f:
                    text = f.read().decode("utf-8", "replace")
                if "relay:" in text:
                    self.report["relay_banner"] = next(
                        (l for l in text.splitlines() if "relay:" in l), "")
                    self.report["relay_start_s"] = r3(now() - t0)
                    return
                if self.proc.poll() is not None:
                    break
                time.sleep(0.05)
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
                raise RuntimeError("relay printed no `relay:` line within 60 s")
            if "in use" not in text.lower():
                raise RuntimeError(f"relay exited ({self.proc.returncode}): {text.strip()[-800:]}")
        raise RuntimeError("relay could not bind a port in 3 attempts")

    async def nip11(self):
        """NIP-11 document (for the limits), or None."""
        try:
            async with asyncio.timeout(5):
                reader, writer = await asyncio.open_connection(HOST, self.port)
                writer.write(f"GET / HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
                             "Accept: application/nostr+json\r\nConnection: close\r\n\r\n".encode())
                await writer.drain()
                head = await reader.readuntil(b"\r\n\r\n")
                status, _, headers = parse_head(head)
                n = int(headers.get("content-length", "-1"))
                body = await (reader.readexactly(n) if n >= 0 else reader.read(1 << 20))
                writer.close()
            return json.loads(body) if status == 200 else None
        except Exception:
            return None

    async def setup_checks(self):
        doc = await self.nip11()
        self.report["nip11"] = doc
        lim = (doc or {}).get("limitation") or {}
        for ours, theirs in (("max_filters", "max_filters"), ("max_message", "max_message_length"),
                             ("max_subid", "max_subid_length")):
            if isinstance(lim.get(theirs), int):
                self.limits[ours] = lim[theirs]
        self.report["limits_used"] = dict(self.limits)
        ws, hs = await self.ws()
        if ws is None:
            raise RuntimeError(f"first connection refused: {hs.describe()}")
        if self.protocol:
            self.check(f"relay selects {self.protocol}", ws.protocol == self.protocol,
                       f"Sec-WebSocket-Protocol answered: {ws.protocol!r}")
        if self.deflate:
            self.check("relay accepts permessage-deflate", ws.deflate,
                       f"answer: {hs.headers.get('sec-websocket-extensions')!r}")
            self.report["deflate_params"] = ws.params
        res = await exchange(ws, "s", [{}], self.cfg["exchange_timeout_s"])
        await ws.close()
        if res["kind"] != "eose":
            raise RuntimeError(f"first REQ-all did not reach EOSE: {res}")
        # Every later check compares with the loaded count, not with this
        # answer. A REQ-all has no `limit`; only the relay's own bound on
        # events per REQ (NIP-11 binostr.max_events_per_req) may explain fewer.
        loaded = self.cfg["events"]
        cap = ((doc or {}).get("binostr") or {}).get("max_events_per_req")
        self.expected_events = min(loaded, cap) if isinstance(cap, int) else loaded
        self.report["events_served"] = res["events"]
        self.check("first REQ-all returned every loaded event", res["events"] == self.expected_events,
                   f"{res['events']} events, expected {self.expected_events} ({loaded} loaded"
                   + (f", max_events_per_req {cap})" if isinstance(cap, int) else ")"))

    # -- probe (separate process) -------------------------------------------
    async def start_probe(self):
        a = self.args
        cmd = [sys.executable, os.path.abspath(__file__), "--probe-port", str(self.port),
               "--profile", a.profile, "--compression", a.compression,
               "--probe-expected", str(self.expected_events),
               "--probe-timeout", str(self.cfg["exchange_timeout_s"]),
               "--probe-max-s", str(self.cfg["deadline_s"])]
        self.probe = await asyncio.create_subprocess_exec(
            *cmd, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        async with asyncio.timeout(30):
            line = await self.probe.stdout.readline()
        if line.strip() != b"ready":
            raise RuntimeError(f"probe did not start: {line[:300]!r}")

    async def probe_phase(self, name):
        self.probe.stdin.write(name.encode() + b"\n")
        await self.probe.stdin.drain()

    async def stop_probe(self):
        try:
            self.probe.stdin.write(b"stop\n")
            await self.probe.stdin.drain()
            self.probe.stdin.close()
            async with asyncio.timeout(self.cfg["exchange_timeout_s"] + 15):
                out = await self.probe.stdout.read()
            await self.probe.wait()
            return json.loads(out.decode().strip().splitlines()[-1])
        except Exception as e:
            try:
                self.probe.kill()
            except ProcessLookupError:
                pass
            return dict(error=f"probe: {type(e).__name__}: {e}", times={})

    # -- phase A ------------------------------------------------------------
    async def phase_a(self):
        cfg = self.cfg
        conns = await asyncio.gather(*(self.ws() for _ in range(cfg["clients"])))
        clients = [ws for ws, _ in conns if ws]
        refused = [hs.describe() for ws, hs in conns if not ws]
        times, counts, bad = [], 0, {}
        wrong_count = 0

        async def client(ws):
            nonlocal counts, wrong_count
            for _ in range(cfg["rounds"]):
                res = await exchange(ws, "s", [{}], cfg["exchange_timeout_s"])
                if res["kind"] != "eose":
                    k = outcome(res)
                    bad[k] = bad.get(k, 0) + 1
                    return
                times.append(res["seconds"])
                counts += res["events"]
                if res["events"] != self.expected_events:
                    wrong_count += 1

        self.monitor.enter("A")
        await self.probe_phase("A")
        t0 = now()
        await asyncio.gather(*(client(ws) for ws in clients))
        wall = now() - t0
        self.monitor.leave("A")
        await asyncio.gather(*(ws.close() for ws in clients))
        want = cfg["clients"] * cfg["rounds"]
        self.check("phase A: every client connected", not refused, f"{len(refused)} refused: {refused[:3]}")
        self.check("phase A: every REQ-all reached EOSE", len(times) == want and not bad,
                   f"{len(times)}/{want} EOSE; failures {bad}")
        self.check("phase A: every REQ-all returned every event", wrong_count == 0,
                   f"{wrong_count} exchanges returned a count other than {self.expected_events}")
        cpu = self.monitor.cpu("A")
        self.report["phase_a"] = dict(
            clients=len(clients), rounds=cfg["rounds"], exchanges=len(times), events=counts,
            wall_s=r3(wall), events_per_s=round(counts / wall, 1) if wall else None,
            eose_p50_s=r3(pct(times, 0.5)), eose_p99_s=r3(pct(times, 0.99)),
            eose_max_s=r3(max(times) if times else None),
            relay_cpu_s=r3(cpu),
            relay_cpu_us_per_event=round(cpu / counts * 1e6, 3) if cpu is not None and counts else None,
            relay_peak_rss_mib=round(self.monitor.peak_rss.get("A", 0) / 1024, 1),
            failures=bad)

    # -- phase B pieces -----------------------------------------------------
    async def raw_handshake(self, sock, deflate):
        loop = asyncio.get_running_loop()
        key = base64.b64encode(os.urandom(16)).decode()
        await loop.sock_sendall(sock, upgrade_request(self.port, key, protocol=self.protocol,
                                                      deflate=deflate))
        head = b""
        while b"\r\n\r\n" not in head and len(head) < 65536:
            d = await loop.sock_recv(sock, 1)  # byte by byte: consume the head only
            if not d:
                raise ConnectionError("closed during handshake")
            head += d
        status, _, headers = parse_head(head)
        return status, parse_extensions(headers.get("sec-websocket-extensions", ""))

    async def slow_consumers(self, n):
        """n raw sockets (4 KiB receive buffer): handshake, slow_reqs REQ-all
        (subscriptions slow0, slow1, ...), never read."""
        loop = asyncio.get_running_loop()
        socks, failed = [], {}
        sem = asyncio.Semaphore(50)

        async def one():
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.setblocking(False)
            try:
                async with sem, asyncio.timeout(10):
                    Stats.attempts += 1
                    await loop.sock_connect(s, (HOST, self.port))
                    status, params = await self.raw_handshake(s, self.deflate)
                    if status != 101:
                        raise ConnectionError(f"HTTP {status}")
                    c = zlib.compressobj(6, zlib.DEFLATED, -15)
                    for k in range(self.cfg["slow_reqs"]):
                        text = req_text(f"slow{k}", [{}])
                        if params is not None:
                            body = c.compress(text) + c.flush(zlib.Z_SYNC_FLUSH)
                            if params.get("client_no_context_takeover"):
                                c = zlib.compressobj(6, zlib.DEFLATED, -15)
                            await loop.sock_sendall(s, frame(1, body[:-4], rsv1=True))
                        else:
                            await loop.sock_sendall(s, frame(1, text))
                socks.append(s)
                self.slow_peers.add(f"{HOST}:{s.getsockname()[1]}")
                Stats.live += 1
            except Exception as e:
                k = f"{type(e).__name__}: {e}"[:80]
                failed[k] = failed.get(k, 0) + 1
                s.close()

        await asyncio.gather(*(one() for _ in range(n)))
        return socks, failed

    async def flooder(self, i, stop: asyncio.Event, out: dict):
        """REQs over max-filters (must be CLOSED) alternating with REQs of
        max-filters expensive filters (EOSE or CLOSED)."""
        ws, hs = await self.ws()
        if ws is None:
            out["connect_failed"] = out.get("connect_failed", 0) + 1
            return
        mf = self.limits["max_filters"]
        hexes = [hashlib.sha256(f"{i}-{k}".encode()).hexdigest() for k in range(200)]
        over = [req_text("over", [{"kinds": [k]} for k in range(mf + 1)]),
                req_text("over", [{"limit": 5000, "kinds": [k % 40000]} for k in range(1000)])]
        menu = [{"limit": 5000}, {"since": 0, "limit": 5000}, {"kinds": list(range(0, 40000, 7)), "limit": 5000},
                {"authors": hexes, "limit": 5000}, {"#e": hexes, "limit": 5000}, {"#p": hexes, "#e": hexes},
                {"until": 2 ** 40, "limit": 5000}, {"ids": hexes}, {}, {"#t": ["nostr", "bitcoin"], "limit": 5000}]
        expensive = req_text("exp", [menu[k % len(menu)] for k in range(mf)])
        for it in range(self.cfg["flood_iterations"]):
            if stop.is_set() or ws.ended:
                break
            res = await exchange(ws, "over", None, self.cfg["exchange_timeout_s"], text=over[it % 2])
            key = "over_" + res["kind"]
            out[key] = out.get(key, 0) + 1
            if res["kind"] == "closed":
                m = str(res.get("message", ""))
                out.setdefault("closed_messages", {})
                p = m.split(":")[0][:40]
                out["closed_messages"][p] = out["closed_messages"].get(p, 0) + 1
            if ws.ended:
                break
            res = await exchange(ws, "exp", None, self.cfg["exchange_timeout_s"], text=expensive)
            key = "expensive_" + res["kind"]
            out[key] = out.get(key, 0) + 1
            out["expensive_events"] = out.get("expensive_events", 0) + res["events"]
            out.setdefault("expensive_s", []).append(res["seconds"])
        out["notices"] = out.get("notices", 0) + len(ws.notices)
        await ws.close()

    async def expect_close(self, name, send, want, *, deflate=False, timeout=5.0):
        """Opens a connection, runs send(ws), then reads until the relay ends
        it; returns the label ('close 1002', 'eof', ...)."""
        ws, hs = await self.ws(deflate=deflate)
        if ws is None:
            return f"not connected: {hs.describe()}"
        if deflate and not ws.deflate:
            await ws.close()
            return "deflate not negotiated"
        try:
            await send(ws)
        except (ConnectionError, OSError):  # incl. TimeoutError
            pass  # the relay may close while we still send
        label = await ws.wait_close(timeout)
        Stats.closed(label)
        ws.abort()
        return label

    async def bomb(self, single: bool, chunks: list[bytes]):
        """permessage-deflate message of 1 GiB of zeros after a JSON prefix,
        compressed (~1 MiB on the wire), in one frame or in 1025 frames.

        A raw socket, read by its own task until EOF or reset: the relay may
        close while we still send, and the kernel keeps its close frame ahead
        of the reset, which asyncio's streams would drop."""
        loop = asyncio.get_running_loop()
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            async with asyncio.timeout(10):
                Stats.attempts += 1
                await loop.sock_connect(s, (HOST, self.port))
                status, params = await self.raw_handshake(s, True)
        except Exception as e:
            s.close()
            return dict(result=f"not connected: {type(e).__name__} {e}")
        if status != 101 or params is None:
            s.close()
            return dict(result=f"HTTP {status}" if status != 101 else "deflate not negotiated")
        rss0 = self.monitor.last[1] if self.monitor.last else 0
        self.monitor.window_peak = 0
        t0 = now()

        async def reader():
            buf = b""
            try:
                while True:
                    d = await loop.sock_recv(s, 65536)
                    if not d:
                        end = "eof"
                        break
                    buf += d
            except (ConnectionResetError, OSError):
                end = "reset"
            code = close_code(buf)
            return (f"close {code}" if code is not None else end), end, now() - t0

        rd = asyncio.create_task(reader())
        sent = 0
        try:
            async with asyncio.timeout(60):
                if single:
                    payload = b"".join(chunks)
                    payload = payload[:-4] if payload.endswith(TAIL) else payload
                    await loop.sock_sendall(s, frame(1, payload, rsv1=True))
                    sent = len(payload)
                else:
                    last = len(chunks) - 1
                    for k, c in enumerate(chunks):
                        if rd.done():
                            break
                        if k == last and c.endswith(TAIL):
                            c = c[:-4]
                        await loop.sock_sendall(s, frame(1 if k == 0 else 0, c, fin=k == last,
                                                         rsv1=k == 0))
                        sent += len(c)
        except (ConnectionError, OSError):  # incl. TimeoutError
            pass
        try:
            async with asyncio.timeout(60):
                label, end, seconds = await rd
        except TimeoutError:
            label, end, seconds = "timeout", "open", now() - t0
        s.close()
        Stats.closed(label)
        await asyncio.sleep(0.3)
        self.monitor.sample()
        peak = self.monitor.window_peak
        return dict(result=label, tcp_end=end, seconds=r3(seconds), compressed_bytes_sent=sent,
                    rss_before_mib=round(rss0 / 1024, 1), rss_peak_mib=round(peak / 1024, 1))

    async def protocol_faults(self):
        lim = self.limits
        out = {}

        async def unmasked(ws):
            await ws.send_raw(frame(1, req_text("u", [{}]), mask=False))

        async def bad_utf8(ws):
            await ws.send_raw(frame(1, b'["REQ","\xff\xfe",{}]'))

        async def bad_deflate(ws):
            await ws.send_raw(frame(1, b"\xff" * 32, rsv1=True))

        async def oversize(ws):
            body = b'["REQ","big",{"search":"' + b"a" * (lim["max_message"] + 1) + b'"}]'
            ws.writer.write(frame(1, body))
            async with asyncio.timeout(10):
                await ws.writer.drain()

        for name, fn, want, dfl in (("unmasked frame", unmasked, 1002, False),
                                    ("invalid UTF-8 text", bad_utf8, 1007, False),
                                    ("bad deflate data", bad_deflate, 1007, True),
                                    ("message over max-message", oversize, 1009, False)):
            label = await self.expect_close(name, fn, want, deflate=dfl)
            out[name] = label
            self.check(f"{name} -> close {want}", label == f"close {want}", f"got {label}")

        # A 300-byte subscription id must be refused "invalid: ...": with
        # CLOSED, or on a binary profile (whose envelope carries at most 255
        # bytes of id) with a NOTICE (docs/TRANSPORT.md).
        ws, hs = await self.ws()
        if ws is None:
            out["300-byte sub id"] = f"not connected: {hs.describe()}"
            self.check("300-byte subscription id -> CLOSED invalid", False, out["300-byte sub id"])
        else:
            res = await exchange(ws, "x" * 300, [{}], 15, notice_ends=True)
            msg = str(res.get("message", ""))
            out["300-byte sub id"] = f"{res['kind']} {msg[:80]}".strip()
            refused = "closed" if self.args.profile == "json" else "notice"
            self.check("300-byte subscription id -> CLOSED (json) or NOTICE (binary) invalid",
                       res["kind"] == refused and msg.startswith("invalid"),
                       f"got {res['kind']} {msg[:80]!r} after {res['events']} events")
            await ws.close()

        # Deflate bombs.
        zeros = bytes(1 << 20)
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        chunks = [c.compress(b'["REQ","bomb",{"search":"') + c.flush(zlib.Z_SYNC_FLUSH)]
        chunks += [c.compress(zeros) + c.flush(zlib.Z_SYNC_FLUSH) for _ in range(2)]
        # After the first MiB the window is all zeros: every further MiB
        # compresses to the same bytes (compressing 1 GiB would block this
        # event loop for seconds).
        chunks += [chunks[-1]] * 1022
        for name, single in (("deflate bomb, 1025 frames", False), ("deflate bomb, one frame", True)):
            b = await self.bomb(single, chunks)
            out[name] = b
            closed = b["result"].startswith("close") or b["result"] in ("eof", "reset")
            self.check(f"{name} (1 GiB inflated) -> connection closed", closed, f"got {b['result']}")
            if closed and b["result"] != "close 1009":
                self.warn(f"{name}: closed with {b['result']}, not close 1009")
        return out

    async def idle_and_refusal(self, out: dict):
        """Idle TCP sockets up to the connection limit, one more WebSocket
        connection (must be HTTP 503), then the wait for the handshake
        timeout to close the idle sockets. A helper process does it (see
        idle_main), so that this process's load does not delay its clock."""
        m = self.cfg["max_connections"]
        h = self.cfg["handshake_timeout_ms"] / 1000
        slack = idle_slack_s(h)
        target = max(0, m - Stats.live - 1)  # - 1: the probe process's connection
        out["live_before_fill"] = Stats.live + 1
        cmd = [sys.executable, os.path.abspath(__file__), "--idle-port", str(self.port),
               "--idle-count", str(target), "--idle-wait-s", str(h + slack),
               "--profile", self.args.profile, "--compression", self.args.compression]
        helper = await asyncio.create_subprocess_exec(*cmd, stdout=asyncio.subprocess.PIPE)
        try:
            async with asyncio.timeout(h + slack + 120):
                raw = await helper.stdout.read()
            await helper.wait()
            res = json.loads(raw.decode().strip().splitlines()[-1])
        except Exception as e:
            try:
                helper.kill()
            except ProcessLookupError:
                pass
            res = dict(error=f"idle helper: {type(e).__name__}: {e}")
        out.update(res)
        fill_s = res.get("fill_s") or 0
        if fill_s > h / 2:
            self.warn(f"opening {target} idle sockets took {fill_s:.2f} s, over half the handshake "
                      f"timeout ({h:g} s): the limit may not be reached at once")
        refusal = res.get("refusal")
        self.check(f"connection over the limit ({m}) -> HTTP 503", refusal is not None,
                   f"attempts: {res.get('over_limit_attempts', [])[-3:]} {res.get('error', '')}")
        after = res.get("idle_close_after_s") or {}
        opened, still = res.get("idle_opened", 0), res.get("idle_still_open")
        self.check(f"idle sockets closed by the handshake timeout ({h * 1000:g} ms)",
                   opened > 0 and still == 0,
                   f"{res.get('idle_closed_by_relay')} of {opened} closed, {still} still open "
                   f"{h + slack:g} s after connecting; close after {after}")
        if after.get("min") is not None and after["min"] < h * 0.5:
            self.warn(f"some idle sockets were closed after {after['min']:.2f} s, well before the "
                      f"handshake timeout ({h:g} s)")
        # The slots are free again: a new connection must be accepted.
        ws, hs = await self.ws(timeout=5)
        self.check("new connection accepted once the idle sockets are gone", ws is not None,
                   hs.describe())
        if ws:
            await ws.close()

    async def phase_b(self):
        cfg = self.cfg
        self.monitor.enter("B")
        await self.probe_phase("B")
        t0 = now()
        rep: dict = {}
        slow, slow_failed = await self.slow_consumers(cfg["slow"])
        rep["slow_consumers"] = dict(connected=len(slow), failed=slow_failed)
        self.check("slow consumers connected", len(slow) == cfg["slow"],
                   f"{len(slow)}/{cfg['slow']}; failures {slow_failed}")
        stop = asyncio.Event()
        flood = [dict() for _ in range(cfg["flooders"])]
        flooders = [asyncio.create_task(self.flooder(i, stop, flood[i]))
                    for i in range(cfg["flooders"])]
        await asyncio.sleep(0.5)
        rep["protocol_faults"] = await self.protocol_faults()
        idle: dict = {}
        await self.idle_and_refusal(idle)
        rep["idle"] = idle
        rest = cfg["min_phase_b_s"] - (now() - t0)
        if rest > 0:
            await asyncio.sleep(rest)
        stop.set()
        try:
            async with asyncio.timeout(cfg["exchange_timeout_s"] * 2 + 10):
                await asyncio.gather(*flooders)
        except TimeoutError:
            for t in flooders:
                t.cancel()
            self.check("flooders finished", False, "flooders still busy after the phase")
        wall = now() - t0
        states = {}
        for s in slow:  # did the relay drop them? (TCP state of our end)
            try:
                st = TCP_STATES.get(s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0], "other")
            except OSError:
                st = "unknown"
            states[st] = states.get(st, 0) + 1
            s.close()
            Stats.live -= 1
        rep["slow_consumers"]["tcp_state_at_end"] = states
        self.monitor.leave("B")
        agg: dict = {}
        exp_times = []
        for f in flood:
            for k, v in f.items():
                if k == "closed_messages":
                    d = agg.setdefault(k, {})
                    for p, n in v.items():
                        d[p] = d.get(p, 0) + n
                elif k == "expensive_s":
                    exp_times += v
                else:
                    agg[k] = agg.get(k, 0) + v
        agg["expensive_p50_s"] = r3(pct(exp_times, 0.5))
        agg["expensive_max_s"] = r3(max(exp_times) if exp_times else None)
        rep["flood"] = agg
        over_total = sum(v for k, v in agg.items() if k.startswith("over_"))
        self.check("REQ over max-filters -> CLOSED, every time",
                   over_total > 0 and agg.get("over_closed", 0) == over_total,
                   {k: v for k, v in agg.items() if k.startswith("over_")})
        exp_total = sum(v for k, v in agg.items() if k.startswith("expensive_") and
                        k not in ("expensive_events", "expensive_p50_s", "expensive_max_s"))
        exp_ok = agg.get("expensive_eose", 0) + agg.get("expensive_closed", 0)
        self.check("expensive REQs answered (EOSE or CLOSED)", exp_total > 0 and exp_ok == exp_total,
                   {k: v for k, v in agg.items() if k.startswith("expensive_")})
        rep["wall_s"] = r3(wall)
        rep["relay_cpu_s"] = r3(self.monitor.cpu("B"))
        rep["relay_peak_rss_mib"] = round(self.monitor.peak_rss.get("B", 0) / 1024, 1)
        self.report["phase_b"] = rep

    async def final_checks(self):
        alive = self.proc.poll() is None
        self.check("relay alive at the end", alive,
                   "running" if alive else f"exited with {self.proc.returncode}")
        if not alive:
            self.check("fresh REQ-all at the end", False, "relay not running")
            return
        ws, hs = await self.ws()
        if ws is None:
            self.check("fresh REQ-all at the end", False, hs.describe())
            return
        res = await exchange(ws, "final", [{}], self.cfg["exchange_timeout_s"])
        await ws.close()
        self.report["final_req"] = dict(kind=res["kind"], events=res["events"], seconds=r3(res["seconds"]))
        self.check("fresh REQ-all at the end", res["kind"] == "eose" and res["events"] == self.expected_events,
                   f"{res['kind']} after {res['events']}/{self.expected_events} events")

    def stop_relay(self):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def relay_logs(self):
        lines = bad = 0
        errors: dict[str, int] = {}
        comp: dict[str, int] = {}
        profiles: dict[str, int] = {}
        req = ev = 0
        ends: dict[str, int] = {}
        slow = []
        try:
            with open(self.stdout_path, "rb") as f:
                for raw in f:
                    lines += 1
                    try:
                        d = json.loads(raw)
                    except ValueError:
                        bad += 1
                        continue
                    if d.get("error"):
                        k = re.sub(r"\d+", "N", str(d["error"]))[:90]
                        errors[k] = errors.get(k, 0) + 1
                    if "compression" in d:
                        comp[d["compression"]] = comp.get(d["compression"], 0) + 1
                    if d.get("profile"):
                        profiles[str(d["profile"])] = profiles.get(str(d["profile"]), 0) + 1
                    if "end" in d:
                        k = f"{d['end']} {d.get('status') or ''}".strip()
                        ends[k] = ends.get(k, 0) + 1
                    if d.get("peer") in self.slow_peers:
                        slow.append(d)
                    req += d.get("requests", 0) if isinstance(d.get("requests"), int) else 0
                    ev += d.get("events", 0) if isinstance(d.get("events"), int) else 0
        except FileNotFoundError:
            pass
        with open(self.stderr_path, "rb") as f:
            err = f.read().decode("utf-8", "replace")
        panics = [l for l in err.splitlines() if "panicked" in l]
        self.report["relay_stdout"] = dict(
            lines=lines, unparsable=bad, errors_by_message=dict(sorted(errors.items(), key=lambda x: -x[1])[:15]),
            error_lines=sum(errors.values()), compression=comp, profiles=profiles, requests=req, events=ev,
            ends=dict(sorted(ends.items(), key=lambda x: -x[1])))
        if slow:  # what the relay wrote to the clients that never read, by its own lines
            written = [d.get("total", {}).get("written", 0) for d in slow]
            events = [d.get("events", 0) for d in slow]
            self.report["relay_stdout"]["slow_consumers"] = dict(
                lines=len(slow), written_p50_bytes=pct(written, 0.5), written_max_bytes=max(written),
                events_p50=pct(events, 0.5), events_max=max(events),
                requests_answered_to_eose=sum(d.get("requests", 0) or 0 for d in slow))
        self.report["relay_stderr_tail"] = err[-2000:]
        self.check("no panic on the relay's stderr", not panics, panics[:3])
        self.check("the relay answered REQs (its connection lines)", req > 0,
                   f"{req} REQs answered to EOSE in {lines} lines")
        if bad:
            self.warn(f"{bad} relay stdout lines are not JSON")

    async def run(self, work):
        cfg = self.cfg
        overflows0 = listen_overflows()
        self.start_relay(work)
        self.monitor = Monitor(self.proc, self.args.rss_cap_mib * 1024)
        self.monitor.task = asyncio.create_task(self.monitor.run())
        try:
            await self.setup_checks()
            await self.start_probe()
            await self.phase_a()
            await self.phase_b()
            probe = await self.stop_probe()
            self.report["probe"] = probe_summary(probe)
            pa, pb = self.report["probe"].get("A", {}), self.report["probe"].get("B", {})
            fails_b = pb.get("failures", {})
            self.check("probe: every REQ-all in phase B reached EOSE with every event",
                       pb.get("exchanges", 0) > 0 and not fails_b and not pb.get("wrong_count"),
                       f"{pb.get('exchanges', 0)} exchanges; failures {fails_b}; "
                       f"wrong counts {pb.get('wrong_count')}; {probe.get('error', '')}")
            p99 = pb.get("eose_p99_s")
            self.check(f"probe p99 to EOSE in phase B <= {cfg['p99_bound_s']} s",
                       p99 is not None and p99 <= cfg["p99_bound_s"] and not fails_b,
                       f"p99 B {p99} s (A {pa.get('eose_p99_s')} s)"
                       + (f"; {sum(fails_b.values())} of {pb.get('exchanges')} exchanges did not reach "
                          f"EOSE (their time to the end counts)" if fails_b else ""))
            await self.final_checks()
            s = self.monitor.sample()
            o = listen_overflows()
            if o is not None and overflows0 is not None:
                self.report["listen_overflows"] = o - overflows0
                if o > overflows0:
                    self.warn(f"the kernel dropped {o - overflows0} SYNs during the run because an accept "
                              f"queue was full (TcpExt ListenOverflows, system-wide): the relay's listen "
                              f"backlog is short for bursts of connections while it is busy")
        finally:
            self.monitor.task.cancel()
            probe = getattr(self, "probe", None)
            if probe is not None and probe.returncode is None:
                try:
                    probe.kill()
                except ProcessLookupError:
                    pass
            hwm = self.monitor.last[2] if self.monitor.last else None
            self.stop_relay()
        killed = self.monitor.killed_at_kib
        self.report["relay_rss"] = dict(
            vmhwm_mib=round(hwm / 1024, 1) if hwm else None,
            peak_vmrss_mib_by_phase={k: round(v / 1024, 1) for k, v in self.monitor.peak_rss.items()},
            samples=self.monitor.samples, bound_mib=cfg["rss_bound_mib"],
            # kernel memory of TCP sockets, system-wide (the relay's send queues are there, not in its RSS)
            peak_kernel_tcp_mem_mib_by_phase={k: round(v / 1024, 1) for k, v in self.monitor.peak_tcp_mem.items()},
            killed_by_safety_cap_mib=round(killed / 1024, 1) if killed else None)
        km = self.monitor.peak_tcp_mem
        if cfg["slow"] and "B" in km:
            per = (km["B"] - km.get("A", 0)) / 1024 / cfg["slow"]
            self.report["relay_rss"]["kernel_tcp_mib_per_slow_consumer"] = round(per, 2)
            if per > 1:
                self.warn(f"kernel TCP memory rose by {per:.1f} MiB per slow consumer in phase B "
                          f"(system-wide, {km['B'] / 1024:.0f} MiB at the peak): the relay's send queue to a "
                          f"client that never reads is bounded only by the kernel (tcp_wmem), and it "
                          f"encodes/compresses that much for each")
        self.check(f"relay peak RSS (VmHWM) <= {cfg['rss_bound_mib']} MiB",
                   hwm is not None and hwm <= cfg["rss_bound_mib"] * 1024 and not killed,
                   f"VmHWM {self.report['relay_rss']['vmhwm_mib']} MiB"
                   + (f"; killed by the harness at {killed / 1024:.0f} MiB RSS" if killed else ""))
        self.relay_logs()


def probe_summary(p):
    out = {"error": p.get("error")} if p.get("error") else {}
    for phase, d in (p.get("phases") or {}).items():
        t = d.get("times", [])
        wall = d.get("wall_s") or 0
        out[phase] = dict(exchanges=len(t), eose_p50_s=r3(pct(t, 0.5)), eose_p99_s=r3(pct(t, 0.99)),
                          eose_max_s=r3(max(t) if t else None), events=d.get("events", 0),
                          events_per_s=round(d.get("events", 0) / wall, 1) if wall else None,
                          failures=d.get("failures", {}), wrong_count=d.get("wrong_count", 0),
                          reconnects=d.get("reconnects", 0),
                          # [seconds into the phase at the REQ, seconds to its end], every exchange
                          timeline=[[a, r3(x)] for a, x in zip(d.get("at", []), t)])
    return out


# --------------------------------------------------------------------------
# The probe process: one well-behaved client, REQ-all -> EOSE in a loop.
# stdin: phase names ("A", "B") and "stop"; stdout: "ready", then one JSON line.
# --------------------------------------------------------------------------

async def probe_main(a):
    loop = asyncio.get_running_loop()
    protocol = None if a.profile == "json" else f"binostr.{a.profile}"
    deflate = a.compression == "deflate"
    state = {"phase": "setup", "stop": False}
    phases: dict[str, dict] = {}
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    async def control():
        while True:
            line = await reader.readline()
            if not line or line.strip() == b"stop":
                state["stop"] = True
                return
            name = line.strip().decode()
            if state["phase"] in phases:
                phases[state["phase"]]["wall_s"] = now() - phases[state["phase"]]["t0"]
            state["phase"] = name
            phases[name] = dict(times=[], at=[], events=0, failures={}, wrong_count=0, reconnects=0,
                                t0=now())

    ws, hs = await open_ws(a.probe_port, protocol=protocol, deflate=deflate)
    if ws is None:
        print(json.dumps(dict(error=f"probe not connected: {hs.describe()}")), flush=True)
        return
    print("ready", flush=True)
    ctl = asyncio.create_task(control())
    t_end = now() + a.probe_max_s
    reconnects = 0
    while not state["stop"] and now() < t_end:
        d = phases.get(state["phase"])
        if d is None:
            await asyncio.sleep(0.01)
            continue
        d["at"].append(round(now() - d["t0"], 3))
        res = await exchange(ws, "probe", [{}], a.probe_timeout)
        await asyncio.sleep(a.probe_pause_ms / 1000)  # think time: the probe measures, it does not load
        if res["kind"] == "eose":
            d["times"].append(res["seconds"])
            d["events"] += res["events"]
            if res["events"] != a.probe_expected:
                d["wrong_count"] += 1
        else:
            k = outcome(res)
            d["failures"][k] = d["failures"].get(k, 0) + 1
            d["times"].append(res["seconds"] if res["kind"] != "timeout" else a.probe_timeout)
            ws.abort()
            if reconnects >= 5:
                break
            reconnects += 1
            d["reconnects"] += 1
            await asyncio.sleep(0.2)
            ws, hs = await open_ws(a.probe_port, protocol=protocol, deflate=deflate)
            if ws is None:
                d["failures"]["reconnect " + hs.describe()[:40]] = 1
                break
    if state["phase"] in phases:
        phases[state["phase"]]["wall_s"] = now() - phases[state["phase"]]["t0"]
    for d in phases.values():
        d.pop("t0", None)
    if ws:
        await ws.close()
    ctl.cancel()
    print(json.dumps(dict(phases=phases)), flush=True)


# --------------------------------------------------------------------------
# The idle helper process: N raw TCP connections that never send a byte, one
# more WebSocket connection (up to 10 while they are accepted), then when the
# relay closes each idle socket. stdout: one JSON line.
# --------------------------------------------------------------------------

def idle_main(a):
    import selectors
    protocol = None if a.profile == "json" else f"binostr.{a.profile}"
    socks, t_conn, failed, connect_s = [], [], {}, []
    t0 = now()
    for _ in range(a.idle_count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(5)
        t1 = now()
        try:
            s.connect((HOST, a.idle_port))
        except OSError as e:
            failed[type(e).__name__] = failed.get(type(e).__name__, 0) + 1
            s.close()
            continue
        s.setblocking(False)
        socks.append(s)
        t_conn.append(now())
        connect_s.append(t_conn[-1] - t1)
    fill_s = now() - t0
    # A connect over ~1 s is a SYN retransmitted: the relay's accept queue was full.
    out = dict(idle_opened=len(socks), idle_connect_failed=failed, fill_s=r3(fill_s),
               connect_s=dict(p50=r3(pct(connect_s, 0.5)), max=r3(max(connect_s, default=None)),
                              over_1s=sum(1 for x in connect_s if x > 0.9)))

    import threading
    sel = selectors.DefaultSelector()
    state = {}
    for i, s in enumerate(socks):
        sel.register(s, selectors.EVENT_READ, i)
        state[i] = ["open", None, b""]
    pending = set(state)
    end = max(t_conn, default=now()) + a.idle_wait_s

    def watch():
        while pending and now() < end:
            for key, _ in sel.select(timeout=0.05):
                i = key.data
                s = socks[i]
                try:
                    d = s.recv(4096)
                except BlockingIOError:
                    continue
                except OSError:
                    d = None
                if d:
                    state[i][2] = (state[i][2] + d)[:256]
                    continue
                state[i][0] = "closed" if d == b"" else "reset"
                state[i][1] = now() - t_conn[i]
                sel.unregister(s)
                pending.discard(i)
            t = now()
            for i in list(pending):  # each socket's own wait is idle_wait_s after it connected
                if t - t_conn[i] > a.idle_wait_s:
                    sel.unregister(socks[i])
                    pending.discard(i)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()  # closes are timed while the over-limit attempts run

    attempts, held = [], []
    for _ in range(10):
        t1 = now()
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(5)
        head, body, err = b"", b"", None
        try:
            s.connect((HOST, a.idle_port))
            key = base64.b64encode(os.urandom(16)).decode()
            s.sendall(upgrade_request(a.idle_port, key, protocol=protocol,
                                      deflate=a.compression == "deflate"))
            while b"\r\n\r\n" not in head and len(head) < 65536:
                d = s.recv(4096)
                if not d:
                    break
                head += d
        except socket.timeout:
            err = "no response within 5 s"
        except OSError as e:
            err = f"{type(e).__name__}: {e}"
        head, _, body = head.partition(b"\r\n\r\n")
        status, line, headers = parse_head(head + b"\r\n") if head else (None, "", {})
        if status == 101:
            attempts.append("HTTP 101")
            held.append(s)
            continue
        if status is not None:
            try:
                s.settimeout(2)
                n = int(headers.get("content-length", "-1"))
                while (len(body) < n if n >= 0 else True) and len(body) < 65536:
                    d = s.recv(4096)
                    if not d:
                        break
                    body += d
            except OSError:
                pass
        s.close()
        attempts.append(f"HTTP {status} {body[:100]!r}" if status else
                        (err or f"closed without a response ({len(head)} bytes)"))
        if status == 503:
            out["refusal"] = dict(status=status, line=line, body=body[:200].decode("utf-8", "replace"),
                                  seconds=r3(now() - t1))
        break
    for s in held:
        s.close()
    out["over_limit_attempts"] = attempts
    out["accepted_beyond_fill"] = len(held)

    watcher.join(a.idle_wait_s + 60)
    for s in socks:
        s.close()
    closed = [v[1] for v in state.values() if v[0] != "open"]
    firsts = {}
    for v in state.values():
        k = v[2].split(b"\r\n")[0].decode("latin-1")[:60] if v[2] else "(no bytes)"
        firsts[k] = firsts.get(k, 0) + 1
    out.update(idle_closed_by_relay=len(closed),
               idle_still_open=sum(1 for v in state.values() if v[0] == "open"),
               idle_reset=sum(1 for v in state.values() if v[0] == "reset"),
               idle_first_line=firsts,
               idle_close_after_s=dict(min=r3(min(closed) if closed else None), p50=r3(pct(closed, 0.5)),
                                       p99=r3(pct(closed, 0.99)), max=r3(max(closed) if closed else None)))
    print(json.dumps(out), flush=True)


# --------------------------------------------------------------------------

def raise_nofile():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = 1 << 20
    if soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", help="the binostr binary")
    p.add_argument("--events-count", type=int, help="events to generate (smoke 300, full 2000)")
    p.add_argument("--profile", default="json", help="json, notepack, cbor-packed, ...")
    p.add_argument("--compression", choices=("none", "deflate"), default="none")
    p.add_argument("--out", help="output directory")
    p.add_argument("--smoke", action="store_true", help="small and short (CI)")
    p.add_argument("--work", help="work directory (default: a temporary one, removed)")
    p.add_argument("--handshake-timeout-ms", type=int, help="relay's (smoke 5000, full 10000)")
    p.add_argument("--max-connections", type=int)
    p.add_argument("--clients", type=int)
    p.add_argument("--rounds", type=int)
    p.add_argument("--slow", type=int)
    p.add_argument("--rss-bound-mib", type=int)
    p.add_argument("--p99-bound-s", type=float)
    p.add_argument("--rss-cap-mib", type=int, default=4096,
                   help="safety cap: the harness kills the relay above this RSS")
    # probe-process mode (internal)
    p.add_argument("--probe-port", type=int, help=argparse.SUPPRESS)
    p.add_argument("--probe-expected", type=int, help=argparse.SUPPRESS)
    p.add_argument("--probe-timeout", type=float, default=30.0, help=argparse.SUPPRESS)
    p.add_argument("--probe-max-s", type=float, default=900.0, help=argparse.SUPPRESS)
    p.add_argument("--probe-pause-ms", type=float, default=PROBE_PAUSE_MS, help=argparse.SUPPRESS)
    # idle-helper mode (internal)
    p.add_argument("--idle-port", type=int, help=argparse.SUPPRESS)
    p.add_argument("--idle-count", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--idle-wait-s", type=float, default=5.0, help=argparse.SUPPRESS)
    a = p.parse_args()
    logging.getLogger("asyncio").setLevel(logging.ERROR)  # "socket.send() raised exception."
    if a.probe_port:
        asyncio.run(probe_main(a))
        return 0
    if a.idle_port:
        raise_nofile()
        idle_main(a)
        return 0
    if not a.bin or not a.out:
        p.error("--bin and --out are required")
    cfg = dict(SMOKE if a.smoke else FULL)
    for k, v in (("events", a.events_count), ("max_connections", a.max_connections),
                 ("clients", a.clients), ("rounds", a.rounds), ("slow", a.slow),
                 ("rss_bound_mib", a.rss_bound_mib), ("p99_bound_s", a.p99_bound_s),
                 ("handshake_timeout_ms", a.handshake_timeout_ms)):
        if v is not None:
            cfg[k] = v
    nofile = raise_nofile()
    need = cfg["max_connections"] + cfg["slow"] + 100
    os.makedirs(a.out, exist_ok=True)
    work = a.work or tempfile.mkdtemp(prefix="binostr-load-")
    os.makedirs(work, exist_ok=True)
    t = Test(a, cfg)
    t.report.update(profile=a.profile, compression=a.compression, mode="smoke" if a.smoke else "full",
                    config=cfg, handshake_timeout_ms=cfg["handshake_timeout_ms"],
                    binary=os.path.abspath(a.bin),
                    binary_mtime=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(os.path.getmtime(a.bin))),
                    host=dict(cpus=os.cpu_count(), nofile=list(nofile)),
                    started=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    if nofile[0] < need:
        t.warn(f"RLIMIT_NOFILE {nofile[0]} is below the ~{need} sockets this run opens")
    t0 = now()

    async def bounded():
        async with asyncio.timeout(cfg["deadline_s"]):
            await t.run(work)

    try:
        asyncio.run(bounded())
    except TimeoutError:
        t.check(f"run finished within its deadline ({cfg['deadline_s']} s)", False, "deadline passed")
        t.stop_relay()
    except Exception as e:  # a setup failure: still write the report
        t.check("run completed", False, f"{type(e).__name__}: {e}")
        t.stop_relay()
        if t.proc is not None and not t.report.get("relay_stdout"):
            try:
                t.relay_logs()
            except Exception:
                pass
    finally:
        if not a.work:
            shutil.rmtree(work, ignore_errors=True)
    t.report["run_s"] = r3(now() - t0)
    t.report["closes_seen_by_fault_clients"] = Stats.closes
    t.report["connections_opened_by_harness"] = Stats.attempts  # not counting the probe process
    t.report["reqs_sent_by_harness"] = Stats.reqs
    t.check("the run issued REQs", Stats.reqs > 0, f"{Stats.reqs} REQs sent (the probe's not counted)")
    t.report["checks"] = t.checks
    t.report["warnings"] = t.warnings
    failed = [c for c in t.checks if not c["ok"]]
    t.report["pass"] = not failed
    path = os.path.join(a.out, f"load-{a.profile}-{a.compression}.json")
    with open(path, "w") as f:
        json.dump(t.report, f, indent=1, sort_keys=False)
        f.write("\n")
    pa = t.report.get("phase_a", {})
    pr = t.report.get("probe", {})
    rss = t.report.get("relay_rss", {})
    print(f"{a.profile}/{a.compression}: {'PASS' if not failed else 'FAIL'} "
          f"A {pa.get('events_per_s')} ev/s p99 {pa.get('eose_p99_s')} s | probe p99 A "
          f"{pr.get('A', {}).get('eose_p99_s')} s B {pr.get('B', {}).get('eose_p99_s')} s "
          f"(<= {cfg['p99_bound_s']}) | VmHWM {rss.get('vmhwm_mib')} MiB (<= {cfg['rss_bound_mib']}) | "
          f"cpu {pa.get('relay_cpu_us_per_event')} us/ev | {len(t.checks) - len(failed)}/{len(t.checks)} "
          f"checks | {t.report['run_s']} s -> {path}")
    for c in failed:
        print(f"  FAILED {c['name']}: {c['detail']}")
    for w in t.warnings:
        print(f"  warning: {w}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
