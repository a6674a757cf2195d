# nixpkgs stand-in: a placeholder for nixpkgs' pkgs/build-support/bintools-wrapper/add-flags.sh (rust-overlay reads it).
