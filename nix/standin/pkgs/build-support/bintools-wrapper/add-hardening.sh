# nixpkgs stand-in: a placeholder for nixpkgs' pkgs/build-support/bintools-wrapper/add-hardening.sh (rust-overlay reads it).
