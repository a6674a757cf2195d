#!/usr/bin/env python3
"""Recomputes the results page's relay calculator from a campaign's records.

Independent of the page and of its script: it reads
results/campaigns/LABEL/summary/summary.csv (ns/event with its bootstrap
CI, paired ratio to json with its CI, per subset) and run-K/sizes.csv (byte
totals, median over the runs of the primary host), never the page, and
applies the formulas documented in crates/binostr-report/assets/calculator.js
and on the page itself. browser_test.py compares its numbers with what the
page shows.

Usage: scripts/page/calc_reference.py [--root DIR] LABEL [share0 share1 share3 share7]
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
from pathlib import Path

# What each relay mode spends CPU on, per event received (the three
# modes): forward decodes, validate validates, store validates and re-encodes.
MODES = {"forward": ["decode"], "validate": ["validate"], "store": ["validate", "encode"]}
KINDS = ["kind-0", "kind-1", "kind-3", "kind-7"]
BASELINE = "json"
MONTH_SECONDS = 30 * 86400
GB = 1e9
FRAME = 4


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
        for run in runs:
            c = json.loads((run / "contract.json").read_text())["contract"]["host"]["id"]
            if c != host:
                continue
            with (run / "sizes.csv").open(newline="") as f:
                for r in csv.DictReader(f):
                    per_run.setdefault((r["profile"], r["subset"]), []).append(
                        {k: int(v) for k, v in r.items() if k not in ("profile", "subset")}
                    )
        self.sizes = {
            k: {col: statistics.median(v[col] for v in vs) for col in vs[0]}
            for k, vs in per_run.items()
        }
        self.profiles = sorted({p for (_, p, _) in self.rows if p != "reference"})

    def ns(self, workload: str, profile: str, subset: str):
        r = self.rows.get((workload, profile, subset))
        if r is None:
            return None
        return tuple(float(r[c]) for c in ("median_ns", "ci_lo_ns", "ci_hi_ns"))

    def ratio(self, workload: str, profile: str, subset: str):
        r = self.rows.get((workload, profile, subset))
        if r is None or r["ratio_json"] == "":
            return None
        return tuple(float(r[c]) for c in ("ratio_json", "ratio_ci_lo", "ratio_ci_hi"))


def per_event(sizes: dict | None, column: str):
    if sizes is None:
        return None
    n = sizes["events"]
    if column in ("framed_bytes", "zstd_stream_bytes"):
        return sizes[column] / n
    return (sizes[column] + FRAME * n) / n


COLUMNS = {"zstd_stream": "zstd_stream_bytes", "zstd_event": "zstd_event_bytes", "zstd_dict": "zstd_dict_bytes"}


def compute(rec: Records, shares: dict[str, float], rate: float, fanout: float, price: float,
            mode: str, compression: str) -> dict[str, dict]:
    """Per profile: the calculator's outputs (None where records are missing)."""
    total = sum(shares[k] for k in KINDS)
    w = {k: shares[k] / total for k in KINDS}
    workloads = MODES[mode]

    def mixed(f):
        vals = [f(k) for k in KINDS]
        return None if any(v is None for v in vals) else sum(w[k] * v for k, v in zip(KINDS, vals))

    def bytes_of(p, column):
        return mixed(lambda k: per_event(rec.sizes.get((p, k)), column))

    def cpu(p, wls, i):
        def term(k):
            ts = [rec.ns(wl, p, k) for wl in wls]
            return None if any(t is None for t in ts) else sum(t[i] for t in ts)
        return mixed(term)

    out = {}
    json_b = bytes_of(BASELINE, "framed_bytes")
    json_c = bytes_of(BASELINE, COLUMNS[compression])
    for p in rec.profiles:
        b = bytes_of(p, "framed_bytes")
        c = bytes_of(p, COLUMNS[compression])
        ns = [cpu(p, workloads, i) for i in range(3)]
        # rho: paired ratios weighted by json's time in the mix.
        weights, ratios = [], []
        for k in KINDS:
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
            "bytes_saved": None if b is None else 1 - b / json_b,
            "compressed_bytes_saved": None if c is None else 1 - c / json_c,
            "cores": None if None in ns else [rate * t / 1e9 for t in ns],
            "cpu_saved": None if rho is None else [1 - rho[0], 1 - rho[2], 1 - rho[1]],
            "zstd_cores": None if z is None else rate * fanout * z / 1e9,
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=".", type=Path)
    ap.add_argument("--rate", type=float, default=500)
    ap.add_argument("--fanout", type=float, default=10)
    ap.add_argument("--price", type=float, default=0.05)
    ap.add_argument("--mode", default="validate", choices=sorted(MODES))
    ap.add_argument("--compression", default="zstd_stream", choices=sorted(COLUMNS))
    ap.add_argument("label")
    ap.add_argument("shares", nargs="*", type=float, help="kind 0, 1, 3, 7 shares (default: published)")
    a = ap.parse_args()
    shares = a.shares or [4.73, 38.96, 4.54, 18.89]
    rec = Records(a.root, a.label)
    res = compute(rec, dict(zip(KINDS, shares)), a.rate, a.fanout, a.price, a.mode, a.compression)
    print(json.dumps(res, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
