{
  description = "nixpkgs stand-in for evaluating Binostr's flake offline (see default.nix)";

  outputs = _: { lib = import ./lib; };
}
