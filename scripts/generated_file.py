"""Writes a generated file, or with --check compares it and exits 1 on drift."""
import sys
from pathlib import Path


def write_or_check(out: Path, text: str, source: str, regen: str) -> None:
    if "--check" in sys.argv[1:]:
        if not out.exists() or out.read_text() != text:
            sys.exit(f"{out.name} differs from {source}: rerun {regen}")
        print(f"{out.name} matches {source}")
    else:
        out.write_text(text)
