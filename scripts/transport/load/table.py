#!/usr/bin/env python3
"""Markdown table of the load-*.json files of loadtest.py in DIR (stdout).

usage: table.py DIR
"""

import glob
import json
import os
import sys

ORDER = ["json", "notepack", "cbor-packed"]
COMPRESSION = ["none", "deflate"]


def key(path):
    d = json.load(open(path))
    p = d.get("profile", "")
    c = d.get("compression", "")
    return (ORDER.index(p) if p in ORDER else len(ORDER), p, COMPRESSION.index(c) if c in COMPRESSION else 9, c)


def f(x, digits=3):
    if x is None:
        return "–"
    if isinstance(x, float):
        return f"{x:.{digits}f}".rstrip("0").rstrip(".") if digits else f"{x:.0f}"
    return str(x)


def main():
    folder = sys.argv[1]
    files = sorted(glob.glob(os.path.join(folder, "load-*.json")), key=key)
    runs = [json.load(open(p)) for p in files]
    if not runs:
        print("no load-*.json files")
        return
    first = runs[0]
    cfg = first.get("config", {})
    print("# `binostr relay` under load and faults\n")
    print(f"`scripts/transport/load/run.sh{' --smoke' if first.get('mode') == 'smoke' else ''}` "
          f"({first.get('mode')}): binary `{first.get('binary')}` (mtime {first.get('binary_mtime')}), "
          f"{first.get('host', {}).get('cpus')} CPUs, started {first.get('started')}. "
          f"{cfg.get('events')} generated events (seed 7), max-connections {cfg.get('max_connections')}, "
          f"handshake timeout {first.get('handshake_timeout_ms')} ms. Phase A: {cfg.get('clients')} clients × "
          f"{cfg.get('rounds')} REQ-all → EOSE. Phase B: {cfg.get('slow')} slow consumers, "
          f"{cfg.get('flooders')} filter flooders, protocol faults, two deflate bombs (1 GiB inflated), idle "
          f"sockets up to the limit and one more connection; a probe client (its own process, 50 ms "
          f"between exchanges) does REQ-all → EOSE through both phases. Bounds: probe p99 in B ≤ "
          f"{cfg.get('p99_bound_s')} s, relay VmHWM ≤ {cfg.get('rss_bound_mib')} MiB. Kernel TCP: the "
          f"peak of all TCP sockets' kernel memory during phase B (system-wide, /proc/net/sockstat).\n")
    print("| profile | compression | result | events/s (A) | EOSE p50 / p99 A (s) | probe p99 A / B (s) "
          "| relay CPU A / B (s) | CPU µs/event (A) | VmHWM (MiB) | kernel TCP B (MiB) | idle closed / opened | over limit "
          "| over max-filters CLOSED | bombs | run (s) |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|---:|")
    for d in runs:
        a, b = d.get("phase_a", {}), d.get("phase_b", {})
        pr = d.get("probe", {})
        idle = b.get("idle", {})
        fl = b.get("flood", {})
        over_total = sum(v for k, v in fl.items() if k.startswith("over_"))
        checks = d.get("checks", [])
        ok = sum(1 for c in checks if c["ok"])
        pf = b.get("protocol_faults", {})
        bombs = " / ".join(v.get("result", "–") for k, v in pf.items() if k.startswith("deflate bomb")
                           and isinstance(v, dict)) or "–"
        refusal = idle.get("refusal")
        over = (f"HTTP {refusal['status']}" if refusal else
                (idle.get("over_limit_attempts") or ["–"])[-1][:24])
        print(f"| {d.get('profile')} | {d.get('compression')} | "
              f"{'pass' if d.get('pass') else 'FAIL'} {ok}/{len(checks)} | {f(a.get('events_per_s'), 0)} | "
              f"{f(a.get('eose_p50_s'))} / {f(a.get('eose_p99_s'))} | "
              f"{f(pr.get('A', {}).get('eose_p99_s'))} / {f(pr.get('B', {}).get('eose_p99_s'))} | "
              f"{f(a.get('relay_cpu_s'), 2)} / {f(b.get('relay_cpu_s'), 2)} | "
              f"{f(a.get('relay_cpu_us_per_event'), 1)} | {f(d.get('relay_rss', {}).get('vmhwm_mib'), 1)} | "
              f"{f(d.get('relay_rss', {}).get('peak_kernel_tcp_mem_mib_by_phase', {}).get('B'), 0)} | "
              f"{idle.get('idle_closed_by_relay', '–')} / {idle.get('idle_opened', '–')} | {over} | "
              f"{fl.get('over_closed', 0)}/{over_total} | {bombs} | {f(d.get('run_s'), 0)} |")
    print("\nFailed asserts and warnings:\n")
    any_ = False
    for d in runs:
        for c in d.get("checks", []):
            if not c["ok"]:
                any_ = True
                print(f"- {d.get('profile')}/{d.get('compression')}: **{c['name']}**: {c['detail']}")
        for w in d.get("warnings", []):
            any_ = True
            print(f"- {d.get('profile')}/{d.get('compression')}: warning: {w}")
    if not any_:
        print("- none")
    print("\nEvery figure is in the `load-<profile>-<compression>.json` next to this file.")


if __name__ == "__main__":
    main()
