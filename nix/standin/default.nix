# A stand-in for nixpkgs' package set, for evaluating flake.nix offline
# (scripts/check-flake.sh --inputs DIR; scope in results/nix/README.md).
# `lib` is nixpkgs' real lib (copied in from nixpkgs.lib); overlays are applied
# for real. Every package is a placeholder derivation that cannot build.
{
  system ? builtins.currentSystem,
  localSystem ? { inherit system; },
  crossSystem ? localSystem,
  overlays ? [ ],
  config ? { },
}:
let
  lib = import ./lib;
  platform = lib.systems.elaborate localSystem;
  base = import ./pkgs.nix { inherit lib platform; };
in
assert lib.assertMsg (crossSystem == localSystem) "nixpkgs stand-in: cross compilation is not modelled";
lib.fix (lib.foldl' (lib.flip lib.extends) base overlays)
