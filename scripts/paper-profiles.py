#!/usr/bin/env python3
"""Writes paper/profiles.csv from the registry (`binostr profiles --json` on stdin).

With --check, compares instead of writing and exits 1 on drift.
Usage: cargo run --release -- profiles --json | scripts/paper-profiles.py [--check]
"""
import json
import sys
from pathlib import Path

from generated_file import write_or_check

OUT = Path(__file__).resolve().parent.parent / "paper" / "profiles.csv"
FLAGS = ["enabled", "deterministic", "self_describing", "borrowed_view"]


def render(profiles):
    lines = ["profile,family," + ",".join(FLAGS)]
    for p in profiles:
        flags = ["yes" if p[f] else "no" for f in FLAGS]
        lines.append(",".join([p["id"], p["family"], *flags]))
    return "\n".join(lines) + "\n"


def main():
    text = render(json.load(sys.stdin))
    write_or_check(OUT, text, "the registry", "scripts/paper-profiles.py")


if __name__ == "__main__":
    main()
