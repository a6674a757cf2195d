# nixpkgs stand-in: a placeholder for nixpkgs' pkgs/build-support/bintools-wrapper/add-darwin-ldflags-before.sh (rust-overlay reads it).
