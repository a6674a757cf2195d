#!/usr/bin/env python3
"""Recomputes the results page's relay calculator from a campaign's records.

Independent of the page and of its script: it reads
results/campaigns/LABEL/summary/summary.csv (ns/event with its bootstrap
CI, paired ratio to json with its CI, per subset), run-K/sizes.csv (byte
totals per subset, median over the runs of the primary host),
run-K/transport.csv (socket bytes), campaign.json (the traffic mix) and
summary/summary.md (the groups the Claims call tied), never the page, and
applies the formulas documented in crates/binostr-report/assets/calculator.js
and on the page itself. browser_test.py compares its numbers with what the
page shows.

Usage: scripts/page/calc_reference.py [--root DIR] [options] LABEL [SUBSET=SHARE ...]
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import statistics
from pathlib import Path

# What each relay mode spends CPU on, per event received (the three
# modes): forward decodes, validate validates, store validates and re-encodes.
MODES = {"forward": ["decode"], "validate": ["validate"], "store": ["validate", "encode"]}
BASELINE = "json"
MONTH_SECONDS = 30 * 86400
GB = 1e9
FRAME = 4
# The published traffic mix a campaign.json without "mix" is read with
# (BigBrotr/analysis; binostr_records::Mix::bigbrotr(), docs/CORPUS.md).
BIGBROTR = [("kind-0", 0.0473), ("kind-1", 0.3896), ("kind-3", 0.0454), ("kind-7", 0.1889),
            ("kind-9735", 0.0281), ("kind-other", 0.3007)]
# The stratum standing for the mix's strata a campaign has no subset for.
REST = "kind-rest"
# sizes.csv columns that add up over events compressed one at a time.
ADDITIVE = ["events", "raw_bytes", "framed_bytes", "zstd_event_bytes", "zstd_dict_bytes"]
# Compression id -> (source, column, 4-byte length per event added).
COMPRESSIONS = {
    "deflate_stream": ("sizes", "deflate_stream_bytes", False),
    "deflate_event": ("sizes", "deflate_event_bytes", False),
    "zstd_stream": ("sizes", "zstd_stream_bytes", False),
    "zstd_event": ("sizes", "zstd_event_bytes", True),
    "zstd_dict": ("sizes", "zstd_dict_bytes", True),
    "socket-deflate-ctx": ("socket", "deflate-ctx", False),
    "socket-deflate": ("socket", "deflate", False),
    "socket-none": ("socket", "none", False),
}


class Records:
    """The campaign numbers the calculator uses, for the primary host."""

    def __init__(self, root: Path, label: str):
        camp = root / "results" / "campaigns" / label
        runs = sorted(
            (p for p in camp.glob("run-*") if p.is_dir() and not p.name.endswith(".tmp")),
            key=lambda p: int(p.name.split("-")[1]),
        )
        if not runs:
            raise SystemExit(f"{camp}: no complete run-K directory")
        host = json.loads((runs[0] / "contract.json").read_text())["contract"]["host"]["id"]
        self.host = host
        summary = camp / "summary" / "summary.csv"
        if not summary.exists():
            raise SystemExit(f"{summary} is missing: run binostr-report aggregate {label}")
        self.rows: dict[tuple[str, str, str], dict[str, str]] = {}
        with summary.open(newline="") as f:
            for r in csv.DictReader(f):
                if r["host"] == host and r["threads"] == "1":
                    self.rows[(r["workload"], r["profile"], r["subset"])] = r
        per_run: dict[tuple[str, str], list[dict[str, int]]] = {}
        socket: dict[tuple[str, str], set[float]] = {}
        self.socket_events: set[int] = set()
        for run in runs:
            c = json.loads((run / "contract.json").read_text())["contract"]["host"]["id"]
            if c != host:
                continue
            with (run / "sizes.csv").open(newline="") as f:
                for r in csv.DictReader(f):
                    per_run.setdefault((r["profile"], r["subset"]), []).append(
                        {k: int(v) for k, v in r.items() if k not in ("profile", "subset")}
                    )
            if (run / "transport.csv").exists():
                with (run / "transport.csv").open(newline="") as f:
                    for r in csv.DictReader(f):
                        if r["check"] == "decode":
                            n = int(r["events"])
                            self.socket_events.add(n)
                            socket.setdefault((r["profile"], r["mode"]), set()).add(int(r["s2c_bytes"]) / n)
        self.sizes = {
            k: {col: statistics.median(v[col] for v in vs) for col in vs[0]}
            for k, vs in per_run.items()
        }
        for k, v in socket.items():
            if len(v) != 1:
                raise SystemExit(f"transport.csv: {k} socket bytes per event differ between runs: {v}")
        self.socket = {k: next(iter(v)) for k, v in socket.items()}
        self.profiles = sorted({p for (_, p, _) in self.rows if p != "reference"})
        stated = json.loads((camp / "campaign.json").read_text()).get("mix")
        self.mix_stated = stated is not None
        mix = [(s["stratum"], s["share"]) for s in stated["strata"]] if stated else BIGBROTR
        subsets = {s for (_, s) in self.sizes}
        self.strata = [(s, round(100 * x, 4)) for s, x in mix if s in subsets]
        rest = [(s, x) for s, x in mix if s not in subsets]
        if rest:
            self.strata.append((REST, round(sum(100 * x for _, x in rest), 4)))
            measured = [s for s, _ in self.strata if s != REST]
            for p in self.profiles:
                parts = [self.sizes.get((p, s)) for s in measured]
                whole = self.sizes.get((p, "all"))
                if whole is None or any(x is None for x in parts):
                    continue
                # No measured stratum: the rest is subset all, every column.
                cols = ADDITIVE if parts else list(whole)
                r = {c: whole[c] - sum(x[c] for x in parts) for c in cols}
                if r["events"] > 0:
                    self.sizes[(p, REST)] = r
        self.ties = claims_ties(camp / "summary" / "summary.md")

    def timed(self, subset: str) -> str:
        """The subset whose times a stratum has: all when one stratum is all."""
        return "all" if subset == REST and len(self.strata) == 1 else subset

    def ns(self, workload: str, profile: str, subset: str):
        r = self.rows.get((workload, profile, self.timed(subset)))
        if r is None:
            return None
        return tuple(float(r[c]) for c in ("median_ns", "ci_lo_ns", "ci_hi_ns"))

    def ratio(self, workload: str, profile: str, subset: str):
        r = self.rows.get((workload, profile, self.timed(subset)))
        if r is None or r["ratio_json"] == "":
            return None
        return tuple(float(r[c]) for c in ("ratio_json", "ratio_ci_lo", "ratio_ci_hi"))

    def shares(self) -> dict[str, float]:
        """The default shares in percent, per stratum."""
        return dict(self.strata)


def claims_ties(summary_md: Path) -> dict[str, list[list[str]]]:
    """Per workload: the profiles summary.md's Claims call tied (their lines
    start with a profile; "Where each claim holds" repeats them after a
    bold workload name)."""
    out: dict[str, list[list[str]]] = {}
    for line in summary_md.read_text().splitlines():
        m = re.match(r"- (`.*) are tied within [\d.]+ % for (\S+) ", line)
        if m:
            out.setdefault(m.group(2), []).append(re.findall(r"`([^`]+)`", m.group(1)))
    return out


def per_event(sizes: dict | None, column: str, length: bool):
    if sizes is None or sizes.get(column) is None:
        return None
    n = sizes["events"]
    return (sizes[column] + (FRAME * n if length else 0)) / n


def verdicts(rec: Records, mode: str, cpu_saved: dict[str, list | None]) -> dict[str, str | None]:
    v = {p: None if c is None else "good" if c[1] > 0 else "bad" if c[2] < 0 else "tie"
         for p, c in cpu_saved.items()}
    groups = [g for wl in MODES[mode] for g in rec.ties.get(wl, [])]
    changed = True
    while changed:
        changed = False
        for g in groups:
            if len({v.get(p) for p in g if v.get(p) is not None}) > 1:
                for p in g:
                    if v.get(p) not in (None, "tie"):
                        v[p] = "tie"
                        changed = True
    return v


def compute(rec: Records, shares: dict[str, float], rate: float, fanout: float, price: float,
            mode: str, compression: str) -> dict[str, dict]:
    """Per profile: the calculator's outputs (None where records are missing)."""
    strata = [s for s, _ in rec.strata]
    total = sum(shares[k] for k in strata)
    w = {k: shares[k] / total for k in strata}
    live = [k for k in strata if w[k] > 0]
    workloads = MODES[mode]
    source, column, length = COMPRESSIONS[compression]

    def mixed(f):
        vals = [f(k) for k in live]
        return None if any(v is None for v in vals) else sum(w[k] * v for k, v in zip(live, vals))

    def bytes_of(p, col, add_length):
        return mixed(lambda k: per_event(rec.sizes.get((p, k)), col, add_length))

    def compressed(p):
        if source == "socket":
            return rec.socket.get((p, column))
        return bytes_of(p, column, length)

    def cpu(p, wls, i):
        def term(k):
            ts = [rec.ns(wl, p, k) for wl in wls]
            return None if any(t is None for t in ts) else sum(t[i] for t in ts)
        return mixed(term)

    out = {}
    json_b = bytes_of(BASELINE, "framed_bytes", False)
    json_c = compressed(BASELINE)
    for p in rec.profiles:
        b = bytes_of(p, "framed_bytes", False)
        c = compressed(p)
        ns = [cpu(p, workloads, i) for i in range(3)]
        # rho: paired ratios weighted by json's time in the mix.
        weights, ratios = [], []
        for k in live:
            for wl in workloads:
                j = rec.ns(wl, BASELINE, k)
                r = rec.ratio(wl, p, k)
                weights.append(None if j is None else w[k] * j[0])
                ratios.append(r)
        if any(x is None for x in weights) or any(r is None for r in ratios):
            rho = None
        else:
            s = sum(weights)
            rho = [sum(om / s * r[i] for om, r in zip(weights, ratios)) for i in range(3)]
        z = cpu(p, ["compress"], 0)
        copies = rate * (1 + fanout)
        out[p] = {
            "bytes_per_event": b,
            "compressed_bytes_per_event": c,
            "wire_bytes_per_second": None if b is None else copies * b,
            "compressed_bytes_per_second": None if c is None else copies * c,
            "cost_per_month": None if b is None else copies * b * MONTH_SECONDS / GB * price,
            "compressed_cost_per_month": None if c is None else copies * c * MONTH_SECONDS / GB * price,
            "bytes_saved": None if b is None or not json_b else 1 - b / json_b,
            "compressed_bytes_saved": None if c is None or not json_c else 1 - c / json_c,
            "cores": None if None in ns else [rate * t / 1e9 for t in ns],
            "cpu_saved": None if rho is None else [1 - rho[0], 1 - rho[2], 1 - rho[1]],
            "zstd_cores": None if z is None else rate * fanout * z / 1e9,
        }
    v = verdicts(rec, mode, {p: r["cpu_saved"] for p, r in out.items()})
    for p in out:
        out[p]["cpu_verdict"] = v[p]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=".", type=Path)
    ap.add_argument("--rate", type=float, default=500)
    ap.add_argument("--fanout", type=float, default=10)
    ap.add_argument("--price", type=float, default=0.05)
    ap.add_argument("--mode", default="validate", choices=sorted(MODES))
    ap.add_argument("--compression", default="zstd_stream", choices=sorted(COMPRESSIONS))
    ap.add_argument("label")
    ap.add_argument("shares", nargs="*", help="SUBSET=PERCENT (default: the campaign's mix)")
    a = ap.parse_args()
    rec = Records(a.root, a.label)
    shares = rec.shares()
    for s in a.shares:
        k, v = s.split("=", 1)
        if k not in shares:
            raise SystemExit(f"unknown stratum {k}; the strata are {sorted(shares)}")
        shares[k] = float(v)
    res = compute(rec, shares, a.rate, a.fanout, a.price, a.mode, a.compression)
    print(json.dumps({"strata": rec.strata, "rows": res}, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
