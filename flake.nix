{
  description = "Binostr: reproducible benchmark of binary encodings for Nostr NIP-01 events";

  # Lock entries: nix/LOCK-ENTRIES.md (checked by scripts/check-flake.sh).
  inputs = {
    nixpkgs.url = "github:NixOS/nixpkgs/nixos-26.05";
    crane.url = "github:ipetkov/crane";
    rust-overlay = {
      url = "github:oxalica/rust-overlay";
      inputs.nixpkgs.follows = "nixpkgs";
    };
  };

  outputs =
    {
      self,
      nixpkgs,
      crane,
      rust-overlay,
    }:
    let
      systems = [
        "x86_64-linux"
        "aarch64-linux"
        "aarch64-darwin"
      ];
      forAllSystems = f: nixpkgs.lib.genAttrs systems (system: f (perSystem system));

      perSystem =
        system:
        let
          pkgs = import nixpkgs {
            inherit system;
            overlays = [ (import rust-overlay) ];
          };
          inherit (pkgs) lib;
          craneLib = (crane.mkLib pkgs).overrideToolchain (
            p: p.rust-bin.fromRustupToolchainFile ./rust-toolchain.toml
          );

          # Cargo sources plus what build.rs (protox reads schemas/),
          # include_str!/include_bytes! (provenance/, src/'s text files, the
          # report's font) and the tests (goldens, fixtures, interop vectors,
          # the committed evolution results) read.
          src = lib.fileset.toSource {
            root = ./.;
            fileset = lib.fileset.unions [
              (craneLib.fileset.commonCargoSources ./.)
              ./src
              ./schemas
              ./provenance
              ./crates/binostr-report/assets
              ./tests
              ./vectors
              ./results/evolution
            ];
          };

          commonArgs = {
            inherit src;
            pname = "binostr";
            version = "1.0.0";
            strictDeps = true;
            # secp256k1-sys and zstd-sys compile C with the stdenv compiler.
            buildInputs = lib.optionals pkgs.stdenv.hostPlatform.isDarwin [ pkgs.libiconv ];
          };
          cargoArtifacts = craneLib.buildDepsOnly commonArgs;

          binostr = craneLib.buildPackage (
            commonArgs
            // {
              inherit cargoArtifacts;
              # --bins: a campaign runs binostr-alloc-probe from beside binostr.
              cargoExtraArgs = "--locked --bins";
              doCheck = false;
              meta = {
                description = "Binostr CLI: corpus, profiles, campaigns, manifests, robustness";
                mainProgram = "binostr";
                license = lib.licenses.mit;
              };
            }
          );

          # The real corpus as fixed-output fetches, in the layout
          # `binostr corpus audit --source real --from DIR` reads.
          corpusReal = pkgs.linkFarm "binostr-real-corpus" (
            map (f: {
              name = f.path;
              path = pkgs.fetchurl { inherit (f) url sha256; };
            }) (import ./nix/corpus-sources.nix)
          );

          tex = pkgs.texliveSmall.withPackages (
            ps: with ps; [
              latexmk
              pgf
              pgfplots
              siunitx
              lmodern
              booktabs
              caption
              microtype
              geometry
              hyperref
              url
              tools
            ]
          );

          # Built from the committed paper/generated/ and the campaign records
          # (SOURCE_DATE_EPOCH comes from the runs' finished times).
          paper = pkgs.stdenvNoCC.mkDerivation {
            pname = "binostr-paper";
            version = "1.0.0";
            src = lib.fileset.toSource {
              root = ./.;
              fileset = lib.fileset.unions [
                ./paper
                ./scripts/paper-build.sh
                (lib.fileset.maybeMissing ./results/campaigns)
              ];
            };
            nativeBuildInputs = [
              tex
              pkgs.python3
            ];
            buildPhase = ''
              runHook preBuild
              unset SOURCE_DATE_EPOCH
              export HOME=$TMPDIR PAPER_FALLBACK_EPOCH=${toString (self.lastModified or 0)}
              bash scripts/paper-build.sh paper
              runHook postBuild
            '';
            installPhase = ''
              runHook preInstall
              install -Dm644 paper/binostr.pdf $out/binostr.pdf
              runHook postInstall
            '';
          };

          # A campaign records the git commit and, with valgrind (required for
          # publication), instruction counts. Apps see only the tools they
          # list (inheritPath = false), never the host's.
          cliInputs = [
            binostr
            pkgs.git
            pkgs.coreutils
          ]
          ++ lib.optionals pkgs.stdenv.hostPlatform.isLinux [ pkgs.valgrind ];
          app = name: description: runtimeInputs: text: {
            type = "app";
            program = lib.getExe (
              pkgs.writeShellApplication {
                inherit name text runtimeInputs;
                inheritPath = false;
              }
            );
            meta.description = description;
          };

          # One check per recorded campaign with a manifest; a manifest also
          # covers paper/generated/ when the paper was built from its campaign.
          campaigns =
            if builtins.pathExists ./results/campaigns then
              lib.filterAttrs (
                label: type: type == "directory" && builtins.pathExists (./results/campaigns + "/${label}/manifest.json")
              ) (builtins.readDir ./results/campaigns)
            else
              { };
          manifestChecks = lib.mapAttrs' (
            label: _:
            lib.nameValuePair "manifest-${label}" (
              pkgs.runCommand "binostr-manifest-${label}" { nativeBuildInputs = [ binostr ]; } ''
                cp -r ${./results} results
                ${lib.optionalString (builtins.pathExists ./paper/generated) ''
                  mkdir paper
                  cp -r ${./paper/generated} paper/generated
                ''}
                chmod -R u+w results
                binostr manifest verify ${lib.escapeShellArg label}
                touch $out
              ''
            )
          ) campaigns;

        in
        {
          packages = {
            default = binostr;
            inherit binostr paper;
            corpus-real = corpusReal;
          };

          apps = {
            default = app "binostr" "The Binostr command line" cliInputs ''exec binostr "$@"'';
            # --real reads the flake's own copy of the real corpus unless
            # BINOSTR_CORPUS_DIR names another.
            campaign = app "binostr-campaign" "Run a measurement campaign in this checkout: campaign --settings quick|publication|smoke --label LABEL [--real]" cliInputs ''
              export BINOSTR_CORPUS_DIR="''${BINOSTR_CORPUS_DIR:-${corpusReal}}"
              exec binostr campaign "$@"
            '';
            verify = app "binostr-verify" "Verify a campaign's manifest hashes and its BIP-340 signature: verify LABEL" cliInputs ''exec binostr manifest verify "$@"'';
            # Not hermetic: each harness installs its pinned packages (pip
            # wheels by hash, npm ci, Go modules) from the registries.
            interop = app "binostr-interop" "Write the interop vectors and run the Python, JavaScript and Go verifiers in this checkout (needs PyPI, npm and the Go module proxy)" [
              binostr
              pkgs.bash
              pkgs.coreutils
              pkgs.python3
              pkgs.nodejs
              pkgs.go
            ] ''
              echo "interop: the harnesses fetch their pinned packages from PyPI, the npm registry and the Go module proxy"
              if ! python3 -c 'import urllib.request as u; u.urlopen("https://pypi.org/simple/", timeout=10)' 2>/dev/null; then
                echo "interop: PyPI is unreachable; this app needs the network (see docs/NIX.md)" >&2
                exit 1
              fi
              export BINOSTR_BIN=${lib.getExe binostr} CGO_ENABLED=0
              binostr vectors -o vectors/interop-v1.json
              for lang in python js go; do
                bash "scripts/interop/$lang/run.sh"
              done
            '';
            smoke = app "binostr-smoke" "Quick end-to-end check: generate and audit a small corpus, round-trip it through notepack byte for byte" (cliInputs ++ [ pkgs.diffutils ]) ''
              tmp=$(mktemp -d)
              trap 'rm -rf "$tmp"' EXIT
              binostr corpus default --count 200 --select 100 -o "$tmp/corpus"
              binostr encode --profile notepack -o "$tmp/np.bin" "$tmp/corpus/selection.jsonl"
              binostr decode --profile notepack "$tmp/np.bin" > "$tmp/back.jsonl"
              cmp "$tmp/corpus/selection.jsonl" "$tmp/back.jsonl"
              echo "smoke: 100 events round-tripped through notepack unchanged"
            '';
          };

          devShells.default = craneLib.devShell {
            # No schema compilers: nixpkgs' protobuf, capnproto and thrift are
            # not the versions scripts/regen.sh pins, and `just regen-check`
            # refuses to run in this shell (docs/NIX.md).
            packages = [
              pkgs.just
              pkgs.python3
              pkgs.nodejs
              pkgs.go
              tex
            ]
            ++ lib.optionals pkgs.stdenv.hostPlatform.isLinux [ pkgs.valgrind ];
            BINOSTR_CORPUS_DIR = corpusReal;
            BINOSTR_NIX_SHELL = "1";
          };

          # No codegen-drift check: nixpkgs carries capnproto 1.x, not the
          # pinned 0.9.2 (scripts/regen.sh); scripts/check-codegen-drift.sh
          # installs the pinned generators and checks drift in CI.
          checks =
            {
              inherit binostr;
              clippy = craneLib.cargoClippy (
                commonArgs
                // {
                  inherit cargoArtifacts;
                  cargoClippyExtraArgs = "--workspace --all-targets -- -D warnings";
                }
              );
              fmt = craneLib.cargoFmt {
                inherit src;
                pname = "binostr";
                version = "1.0.0";
                cargoExtraArgs = "--all";
              };
              doc = craneLib.cargoDoc (
                commonArgs
                // {
                  inherit cargoArtifacts;
                  cargoDocExtraArgs = "--workspace --no-deps";
                  RUSTDOCFLAGS = "-D warnings";
                }
              );
              # The packages CI tests. tests/manifest.rs runs git; under CI=true
              # the campaign test requires valgrind, which nixpkgs marks broken
              # on Darwin.
              tests = craneLib.cargoTest (
                commonArgs
                // {
                  inherit cargoArtifacts;
                  # The source set leaves results/ out, so the two tests that
                  # check results/maintenance/ are skipped here by name (under
                  # CI=true they would fail); .ci/run runs them on a checkout.
                  cargoTestExtraArgs = "-p binostr -p binostr-report -- --skip committed_table_matches_the_checkout --skip check_fails_on_a_stale_table";
                  nativeCheckInputs = [
                    pkgs.git
                  ]
                  ++ lib.optionals pkgs.stdenv.hostPlatform.isLinux [ pkgs.valgrind ];
                  BINOSTR_CORPUS_DIR = corpusReal;
                }
                // lib.optionalAttrs pkgs.stdenv.hostPlatform.isLinux { CI = "true"; }
              );
            }
            // lib.optionalAttrs (builtins.pathExists ./paper/generated/macros.tex) { inherit paper; }
            // manifestChecks;
        };
    in
    {
      packages = forAllSystems (s: s.packages);
      apps = forAllSystems (s: s.apps);
      devShells = forAllSystems (s: s.devShells);
      checks = forAllSystems (s: s.checks);
    };
}
