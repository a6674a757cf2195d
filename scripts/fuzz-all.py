#!/usr/bin/env python3
"""The fuzzing campaign: the cargo-fuzz target in fuzz/ run for SECONDS on
every enabled profile of the registry (or --profiles), JOBS at a time.

Each run is seeded from the profile's golden vector and its bytes in every
interop vector, then minimised with libFuzzer's -merge. Per profile it writes
OUT/PROFILE.json (time, executions, coverage, corpus hash, crashes) and copies
any crash input to OUT/crashes/PROFILE/; OUT/fuzz.csv and OUT/README.md sum
up every PROFILE.json in OUT. Exit status 1 when any run crashed.

Stdlib only; needs cargo-fuzz (installed with --install-cargo-fuzz).
"""
import argparse
import csv
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CARGO_FUZZ = "0.13.2"
TRIPLE = "x86_64-unknown-linux-gnu"
LAST_STATUS = re.compile(r"cov: (\d+) ft: (\d+) corp: (\d+)/")
STAT = re.compile(r"^stat::(\w+):\s+(\d+)", re.M)
FIELDS = [
    "profile", "seconds", "executions", "execs_per_s", "cov", "ft", "corpus_files",
    "corpus_bytes", "corpus_sha256", "crashes", "entry_points", "seeds", "finished",
]


def host():
    model = next((line.split(":", 1)[1].strip() for line in
                  Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name")),
                 "unknown CPU")
    return f"{os.cpu_count()} x {model}"


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, **kw)


def registry_profiles():
    out = run(["cargo", "run", "--release", "--locked", "--quiet", "--", "profiles", "--json"],
              cwd=ROOT, capture_output=True).stdout
    return json.loads(out)


def write_seeds(profile, dest):
    """The golden vector and the profile's bytes in every interop vector."""
    dest.mkdir(parents=True, exist_ok=True)
    n = 0
    golden = ROOT / "tests" / "golden" / f"{profile}.hex"
    if golden.exists():
        (dest / "golden").write_bytes(bytes.fromhex(golden.read_text().strip()))
        n += 1
    vectors = json.loads((ROOT / "vectors" / "interop-v1.json").read_text())
    for v in vectors["vectors"]:
        hex_ = v["encodings"].get(profile)
        if hex_ is not None:
            (dest / f"vector-{v['name']}").write_bytes(bytes.fromhex(hex_))
            n += 1
    return n


def corpus_digest(directory):
    """SHA-256 over the sorted SHA-256 of every file: order- and name-free."""
    files = sorted(p for p in directory.iterdir() if p.is_file())
    hashes = sorted(hashlib.sha256(p.read_bytes()).hexdigest() for p in files)
    digest = hashlib.sha256("".join(h + "\n" for h in hashes).encode()).hexdigest()
    return len(files), sum(p.stat().st_size for p in files), digest


def fuzz_one(binary, profile, seconds, work, out, toolchain):
    w = work / profile["id"]
    shutil.rmtree(w, ignore_errors=True)
    corpus, seeds, artifacts, minimised = w / "corpus", w / "seeds", w / "artifacts", w / "min"
    for d in (corpus, artifacts, minimised):
        d.mkdir(parents=True)
    n_seeds = write_seeds(profile["id"], seeds)
    env = dict(os.environ, BINOSTR_FUZZ_PROFILE=profile["id"])
    log = w / "fuzz.log"
    load_before = os.getloadavg()[0]
    started = time.monotonic()
    with log.open("w") as f:
        status = subprocess.run(
            [str(binary), f"-max_total_time={seconds}", "-print_final_stats=1", "-timeout=10",
             "-rss_limit_mb=2048", f"-artifact_prefix={artifacts}/", str(corpus), str(seeds)],
            env=env, stdout=f, stderr=subprocess.STDOUT).returncode
    elapsed = time.monotonic() - started
    load = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    text = log.read_text(errors="replace")
    stats = {k: int(v) for k, v in STAT.findall(text)}
    status_lines = LAST_STATUS.findall(text)
    cov, ft = (int(status_lines[-1][0]), int(status_lines[-1][1])) if status_lines else (0, 0)
    with (w / "merge.log").open("w") as f:
        subprocess.run([str(binary), "-merge=1", str(minimised), str(corpus), str(seeds)],
                       env=env, stdout=f, stderr=subprocess.STDOUT, check=True)
    files, size, digest = corpus_digest(minimised)
    crashes = []
    crash_dir = out / "crashes" / profile["id"]
    for a in sorted(artifacts.iterdir()):
        crash_dir.mkdir(parents=True, exist_ok=True)
        shutil.copy(a, crash_dir / a.name)
        crashes.append({"file": f"crashes/{profile['id']}/{a.name}",
                        "sha256": hashlib.sha256(a.read_bytes()).hexdigest()})
    if status != 0 and not crashes:
        raise RuntimeError(f"{profile['id']}: libFuzzer exited {status} without an artifact; see {log}")
    if crashes:
        shutil.copy(log, crash_dir / "fuzz.log")
    entry = (["decode"] + (["decode_ref", "kind_and_pubkey"] if profile["borrowed_view"] else [])
             + (["decode_batch"] if profile["native_batch"] else []))
    record = {
        "profile": profile["id"],
        "seconds": round(elapsed, 1),
        "executions": stats.get("number_of_executed_units", 0),
        "execs_per_s": stats.get("average_exec_per_sec", 0),
        "peak_rss_mb": stats.get("peak_rss_mb", 0),
        "load": load,
        "cov": cov,
        "ft": ft,
        "corpus_files": files,
        "corpus_bytes": size,
        "corpus_sha256": digest,
        "crashes": crashes,
        "entry_points": entry,
        "seeds": n_seeds,
        "finished": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    } | toolchain
    (out / f"{profile['id']}.json").write_text(json.dumps(record, indent=2) + "\n")
    return record


def summarise(out, registry):
    records = [json.loads(p.read_text()) for p in sorted(out.glob("*.json"))]
    ran = {r["profile"] for r in records}
    missing = [p["id"] for p in registry if p["enabled"] and p["id"] not in ran]
    with (out / "fuzz.csv").open("w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(FIELDS)
        for r in records:
            w.writerow([len(r[k]) if k == "crashes" else
                        "+".join(r[k]) if k == "entry_points" else r[k] for k in FIELDS])
    lines = [
        "# Fuzzing campaign", "",
        "Written by `scripts/fuzz-all.py` (`just fuzz-all SECONDS`); do not edit.", "",
        "One libFuzzer target (`fuzz/fuzz_targets/decode.rs`) per profile. Every input goes",
        "through each entry point listed, and they are checked against each other (see the",
        "target's doc). Seeds: the golden vector and the interop vectors. `cov`/`ft` are",
        "libFuzzer's edge coverage and features at the end of the run; the minimised corpus",
        "(`-merge=1`) is not committed: its hash is SHA-256 over the sorted SHA-256 of its files.",
        "`minutes` is wall time; executions depend on the host and on what else it runs",
        "(`load` in each record, where recorded: the 1-minute load average before and after).",
        "",
    ]
    for key in ("commit", "code_dirty", "rustc", "cargo_fuzz", "host", "jobs"):
        values = sorted({str(r.get(key)) for r in records})
        lines.append(f"- {key.replace('_', '-')}: {'; '.join(values)}")
    lines.append("")
    lines += ["| profile | minutes | executions | exec/s | cov | ft | corpus | crashes | entry points |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in records:
        lines.append(f"| {r['profile']} | {r['seconds'] / 60:.1f} | {r['executions']:,} | "
                     f"{r['execs_per_s']:,} | {r['cov']:,} | {r['ft']:,} | {r['corpus_files']:,} | "
                     f"{len(r['crashes'])} | {', '.join(r['entry_points'])} |")
    if missing:
        lines += ["", f"Enabled profiles not fuzzed yet: {', '.join(missing)}."]
    (out / "README.md").write_text("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=int, default=600)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--profiles", help="comma-separated ids (default: every enabled profile)")
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "fuzz")
    ap.add_argument("--work", type=Path,
                    default=Path(os.environ.get("HOME", "/tmp")) / ".cache" / "binostr-fuzz")
    ap.add_argument("--install-cargo-fuzz", action="store_true",
                    help=f"cargo install cargo-fuzz {CARGO_FUZZ} when it is missing")
    ap.add_argument("--summarise-only", action="store_true",
                    help="only rewrite OUT/fuzz.csv and OUT/README.md from OUT/*.json")
    args = ap.parse_args()
    if args.summarise_only:
        summarise(args.out, registry_profiles())
        return

    if subprocess.run(["cargo", "fuzz", "--version"], capture_output=True).returncode != 0:
        if not args.install_cargo_fuzz:
            sys.exit(f"cargo-fuzz is missing: cargo install cargo-fuzz --locked --version {CARGO_FUZZ}")
        run(["cargo", "install", "cargo-fuzz", "--locked", "--version", CARGO_FUZZ])
    target = args.work / "target"
    env = dict(os.environ, RUSTC_BOOTSTRAP="1")
    run(["cargo", "fuzz", "build", "decode", "--target-dir", str(target)], cwd=ROOT / "fuzz", env=env)
    binary = target / TRIPLE / "release" / "decode"

    registry = registry_profiles()
    profiles = registry
    known = {p["id"]: p for p in profiles}
    if args.profiles:
        wanted = args.profiles.split(",")
        unknown = [i for i in wanted if i not in known]
        if unknown:
            sys.exit(f"unknown profile(s): {', '.join(unknown)}")
        profiles = [known[i] for i in wanted]
    else:
        profiles = [p for p in profiles if p["enabled"]]
    args.out.mkdir(parents=True, exist_ok=True)
    toolchain = {
        "rustc": run(["rustc", "--version"], capture_output=True).stdout.strip(),
        "cargo_fuzz": run(["cargo", "fuzz", "--version"], capture_output=True).stdout.strip(),
        "host": host(),
        "jobs": args.jobs,
        "commit": run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True).stdout.strip(),
        "code_dirty": bool(run(["git", "status", "--porcelain", "--", "src", "fuzz", "crates",
                                "Cargo.lock"], cwd=ROOT, capture_output=True).stdout.strip()),
    }
    total = len(profiles)
    done = 0
    crashed = []

    def job(p):
        return fuzz_one(binary, p, args.seconds, args.work, args.out, toolchain)

    print(f"fuzz: {total} profile(s), {args.seconds} s each, {args.jobs} at a time", flush=True)
    with ThreadPoolExecutor(args.jobs) as pool:
        for r in pool.map(job, profiles):
            done += 1
            mark = f"{len(r['crashes'])} CRASH(ES)" if r["crashes"] else "no crash"
            print(f"[{done}/{total}] {r['profile']}: {r['executions']:,} executions, "
                  f"cov {r['cov']}, ft {r['ft']}, {mark}", flush=True)
            if r["crashes"]:
                crashed.append(r["profile"])
    summarise(args.out, registry)
    if crashed:
        sys.exit(f"fuzz: crashes in {', '.join(crashed)} (inputs under {args.out}/crashes/)")


if __name__ == "__main__":
    main()
