# Binostr pipeline. Get just with `cargo install just`.
# Recipes for later stages (campaign, aggregate, manifest, paper, ...) arrive with their issues.

set shell := ["bash", "-euo", "pipefail", "-c"]

export CARGO_TARGET_DIR := env_var_or_default("CARGO_TARGET_DIR", env_var("HOME") + "/.cache/binostr-target")

# List recipes.
default:
    @just --list

# The same gates as CI.
ci:
    bash .ci/run

# Generate, audit and select the default corpus.
corpus seed="1" count="10000" select="5000":
    cargo run --release -- corpus default --seed {{seed}} --count {{count}} --select {{select}}

# Audit the recorded real corpus (../shared/corpus or $BINOSTR_CORPUS_DIR).
audit-real:
    cargo run --release -- corpus audit --source real

# Encoded sizes of every enabled profile on the default selection.
sizes: corpus
    cargo run --release -- sizes results/corpus/default/selection.jsonl

# Regenerate flatc/capnp/thrift code from schemas/ (tools must be installed).
regen:
    bash scripts/regen.sh

# Install the pinned schema compilers, regenerate, and fail on drift.
regen-check:
    bash scripts/check-codegen-drift.sh

# Rewrite the golden vectors from the code; review the diff before committing.
bless:
    BINOSTR_BLESS=1 cargo test --release --test conformance goldens

# Criterion benches (audit throughput; encode/decode per profile).
bench:
    cargo bench --bench audit
    cargo bench --bench codec

# The robustness suite: hostile cases for every profile and library, run in
# child processes; writes results/robustness/robustness.{json,md}.
torture mutations="1000000":
    cargo run --release -- torture generate --mutations {{mutations}} "$CARGO_TARGET_DIR/torture"
    cargo run --release -- torture run "$CARGO_TARGET_DIR/torture"

# Summaries, paper/generated/ and plots from the complete runs of one or more
# campaign labels (the first names the output; see docs/RESULTS.md).
aggregate +labels:
    cargo run -p binostr-report --release --locked -- aggregate {{labels}}

# Fuzz one profile's decoder for SECONDS with cargo-fuzz (cargo install
# cargo-fuzz), seeding the corpus from the profile's golden vector.
fuzz profile seconds="60":
    mkdir -p fuzz/corpus/{{profile}}
    perl -ne 'chomp; print pack("H*", $_)' tests/golden/{{profile}}.hex > fuzz/corpus/{{profile}}/golden
    cd fuzz && BINOSTR_FUZZ_PROFILE={{profile}} RUSTC_BOOTSTRAP=1 cargo fuzz run decode corpus/{{profile}} -- -max_total_time={{seconds}}
