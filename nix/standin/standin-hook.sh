# nixpkgs stand-in: a placeholder, not nixpkgs' hook.
