# nixpkgs stand-in: a placeholder for nixpkgs' pkgs/build-support/bintools-wrapper/ld-wrapper.sh (rust-overlay reads it).
