#!/usr/bin/env python3
"""Runs every flake app's wrapper script with only the tools the flake gives it.

results/nix/apps/NAME.sh are the wrapper texts that `writeShellApplication`
produces for each app (written by scripts/flake-eval.sh from the evaluated
flake, store hashes as HASH). Each wrapper's `export PATH=` line lists its
runtime inputs. This check refuses a wrapper that keeps the caller's $PATH,
maps each input to this host's binaries of the same package (and binostr to
$BINOSTR_BIN's directory), runs the wrapper under `env -i` with that PATH
alone, and requires the expected outcome. A tool the wrapper uses without
listing it fails as `command not found`. A wrapper that must run offline
needs `unshare -n`; without it the wrapper is NOT RUN (said in the closing
line), and under CI=true that fails.

    scripts/check-app-wrappers.py [--binostr PATH]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APPS = os.path.join(ROOT, "results", "nix", "apps")
PUBKEY = "npub1vn52enahfpr0c8mustnceud3ajwyx05dg2tasx7gj9f6kgf2f24qlefn84"

# nixpkgs package -> the commands it puts on PATH that this host also has.
TOOLS = {
    "coreutils": (
        "basename cat chmod cp cut date dirname echo env false head id ln ls mkdir "
        "mktemp mv printf pwd readlink realpath rm rmdir sha256sum sleep sort tail "
        "tee touch tr true uname wc"
    ).split(),
    "git": ["git"],
    "valgrind": ["valgrind"],
    "bash": ["bash", "sh"],
    "diffutils": ["cmp", "diff", "diff3", "sdiff"],
    "python3": ["python3"],
    "nodejs": ["node", "npm", "npx"],
    "go": ["go", "gofmt"],
}


def fail(msg):
    sys.exit(f"app-wrappers: {msg}")


def tool_dir(tmp, package, binostr):
    """A directory holding this host's binaries of `package`, by name."""
    d = os.path.join(tmp, "pkgs", package)
    if os.path.isdir(d):
        return d
    os.makedirs(d)
    if package == "binostr":
        names = {n: os.path.join(os.path.dirname(binostr), n) for n in ("binostr", "binostr-alloc-probe")}
    elif package in TOOLS:
        names = {n: shutil.which(n) for n in TOOLS[package]}
    else:
        fail(f"no host mapping for the flake input `{package}`: add it to TOOLS")
    found = 0
    for name, path in names.items():
        if path and os.path.exists(path):
            os.symlink(os.path.realpath(path), os.path.join(d, name))
            found += 1
    if not found:
        fail(f"this host has none of `{package}`'s commands")
    return d


def localise(text, tmp, binostr):
    """The wrapper with its PATH line pointing at this host's tool directories."""
    lines = text.splitlines()
    path_lines = [i for i, l in enumerate(lines) if l.startswith("export PATH=")]
    if len(path_lines) != 1:
        fail("a wrapper must set PATH exactly once")
    i = path_lines[0]
    value = re.fullmatch(r'export PATH="([^"]*)"', lines[i])
    if not value or "$" in value.group(1):
        fail(f"the wrapper inherits the caller's PATH: {lines[i]}")
    dirs = []
    for entry in value.group(1).split(":"):
        m = re.fullmatch(r"/nix/store/HASH-(.+?)-(standin|\d[^/]*)/bin", entry)
        if not m:
            fail(f"unexpected PATH entry {entry}")
        dirs.append(tool_dir(tmp, m.group(1), binostr))
    lines[i] = 'export PATH="' + ":".join(dirs) + '"'
    return "\n".join(lines[1:]) + "\n"  # the shebang names the stand-in's bash


def offline_prefix():
    """`unshare -n` when this host can run a command without a network."""
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-n", "true"], capture_output=True).returncode == 0:
        return [unshare, "-n"]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    ap.add_argument("--binostr", default=os.environ.get("BINOSTR_BIN", os.path.join(target, "release", "binostr")))
    args = ap.parse_args()
    if not os.path.exists(args.binostr):
        fail(f"{args.binostr} not found (cargo build --release --bins, or --binostr PATH)")
    bash = shutil.which("bash")
    offline = offline_prefix()
    # app -> (arguments, expected exit status, text its output must hold, run without a network)
    cases = {
        "default": (["--help"], 0, "Usage: binostr", False),
        "campaign": (["--help"], 0, "--settings", False),
        "verify": (["--pubkey", PUBKEY, "publication-real"], 0, "ok: publication-real", False),
        "smoke": ([], 0, "smoke: 100 events round-tripped through notepack unchanged", False),
        "interop": ([], 1, "PyPI is unreachable; this app needs the network", True),
    }
    found = sorted(f[:-3] for f in os.listdir(APPS) if f.endswith(".sh"))
    if sorted(cases) != found:
        fail(f"wrappers {found} differ from the cases {sorted(cases)}")
    skipped = []
    with tempfile.TemporaryDirectory() as tmp:
        for app in found:
            argv, want_rc, want_text, needs_offline = cases[app]
            if needs_offline and offline is None:
                why = f"{app}: this host cannot drop the network (unshare -n)"
                if os.environ.get("CI") == "true":
                    fail(f"{why}, and under CI=true every wrapper must run")
                print(f"app-wrappers: {why}: NOT RUN")
                skipped.append(app)
                continue
            script = os.path.join(tmp, f"{app}.sh")
            with open(os.path.join(APPS, f"{app}.sh")) as f:
                text = localise(f.read(), tmp, args.binostr)
            with open(script, "w") as f:
                f.write(text)
            env = {"HOME": os.environ.get("HOME", tmp), "TMPDIR": tmp, "LANG": "C.UTF-8"}
            cmd = (offline if needs_offline else []) + [bash, script] + argv
            p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
            out = p.stdout + p.stderr
            if p.returncode != want_rc or want_text not in out:
                fail(f"{app}: exit {p.returncode} (want {want_rc}), output:\n{out[-2000:]}")
            print(f"app-wrappers: {app}: exit {p.returncode} with only its inputs on PATH: {want_text!r}")
    checked = len(found) - len(skipped)
    print(f"app-wrappers: {checked} of {len(found)} wrappers checked; none reaches for a host tool"
          + (f"; NOT RUN: {', '.join(skipped)}" if skipped else ""))


if __name__ == "__main__":
    main()
