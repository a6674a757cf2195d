# nixpkgs stand-in: a placeholder for nixpkgs' pkgs/build-support/wrapper-common/utils.bash (rust-overlay reads it).
