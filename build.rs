//! Compiles `schemas/event.proto` with protox (pure Rust, no `protoc`) and
//! generates the prost types into `OUT_DIR/binostr.rs`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=schemas/event.proto");
    let fds = protox::compile(["event.proto"], ["schemas"])?;
    prost_build::Config::new().compile_fds(fds)?;
    Ok(())
}
