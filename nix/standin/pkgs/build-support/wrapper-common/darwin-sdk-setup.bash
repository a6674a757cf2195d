# nixpkgs stand-in: a placeholder for nixpkgs' pkgs/build-support/wrapper-common/darwin-sdk-setup.bash (rust-overlay reads it).
