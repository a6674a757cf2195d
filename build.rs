//! Compiles `schemas/event.proto` with protox (pure Rust, no `protoc`) and
//! generates the prost types into `OUT_DIR/binostr.rs`; records the compiler
//! and flags for campaign contracts.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=schemas/event.proto");
    let fds = protox::compile(["event.proto"], ["schemas"])?;
    prost_build::Config::new().compile_fds(fds)?;

    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = std::process::Command::new(rustc).arg("-vV").output()?;
    let version = String::from_utf8_lossy(&version.stdout);
    let lines: Vec<&str> = version.lines().filter(|l| !l.is_empty()).collect();
    println!("cargo:rustc-env=BINOSTR_RUSTC_VV={}", lines.join("; "));
    println!(
        "cargo:rustc-env=BINOSTR_BUILD_PROFILE={}",
        std::env::var("PROFILE").unwrap_or_default()
    );
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    println!(
        "cargo:rustc-env=BINOSTR_RUSTFLAGS={}",
        flags.replace('\u{1f}', " ")
    );
    Ok(())
}
