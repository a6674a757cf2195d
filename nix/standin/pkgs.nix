# The stand-in package set (see default.nix): just the attributes that
# flake.nix, crane's mkLib and rust-overlay read, with nixpkgs' interfaces
# (mkDerivation's dependency lists and overrideAttrs, callPackage, scopes,
# trivial builders, fetchurl as a fixed-output derivation) and none of its
# packages: names are real nixpkgs attribute names, versions are "standin".
{ lib, platform }:
self:
let
  inherit (lib) optionals;

  # Instantiable, never buildable.
  builder = "/bin/sh";
  builderArgs = [
    "-c"
    "echo 'nixpkgs stand-in: this derivation cannot be built' >&2; exit 1"
  ];

  dependencyLists = [
    "depsBuildBuild"
    "depsBuildBuildPropagated"
    "nativeBuildInputs"
    "propagatedNativeBuildInputs"
    "depsBuildTarget"
    "depsBuildTargetPropagated"
    "depsHostHost"
    "depsHostHostPropagated"
    "buildInputs"
    "propagatedBuildInputs"
    "depsTargetTarget"
    "depsTargetTargetPropagated"
  ];

  # As nixpkgs' make-derivation.nix: elements are derivations, paths,
  # strings, null or nested lists of those.
  checkDependencyList =
    what: name: deps:
    lib.imap1 (
      i: dep:
      if lib.isDerivation dep || dep == null || builtins.isString dep || builtins.isPath dep then
        dep
      else if builtins.isList dep then
        checkDependencyList "element ${toString i} of ${what}" name dep
      else
        throw "nixpkgs stand-in: dependency is not of a valid type: element ${toString i} of ${what} for ${name}"
    ) deps;

  mkDerivationWith =
    stdenv: fnOrAttrs:
    let
      extensible =
        rattrs:
        let
          finalAttrs = rattrs (finalAttrs // { inherit finalPackage overrideAttrs; });
          overrideAttrs =
            f0:
            extensible (
              lib.extends (
                final: prev:
                let
                  x = f0 prev;
                in
                if lib.isFunction x then f0 final prev else x
              ) rattrs
            );
          finalPackage = mkDrv stdenv finalAttrs overrideAttrs;
        in
        finalPackage;
    in
    extensible (if lib.isFunction fnOrAttrs then fnOrAttrs else _: fnOrAttrs);

  mkDrv =
    stdenv: args: overrideAttrs:
    let
      name = args.name or "${args.pname}-${args.version}";
      doCheck = args.doCheck or false;
      doInstallCheck = args.doInstallCheck or false;
      withChecks =
        attr: check: installCheck:
        (args.${attr} or [ ])
        ++ optionals doCheck (args.${check} or [ ])
        ++ optionals doInstallCheck (args.${installCheck} or [ ]);
      deps =
        lib.genAttrs dependencyLists (l: args.${l} or [ ])
        // {
          nativeBuildInputs = withChecks "nativeBuildInputs" "nativeCheckInputs" "nativeInstallCheckInputs";
          buildInputs = withChecks "buildInputs" "checkInputs" "installCheckInputs";
        };
      env = args.env or { };
      clash = builtins.filter (n: args ? ${n}) (builtins.attrNames env);
      drvAttrs =
        removeAttrs args [
          "meta"
          "passthru"
          "pos"
          "env"
          "nativeCheckInputs"
          "checkInputs"
          "nativeInstallCheckInputs"
          "installCheckInputs"
        ]
        // env
        // lib.mapAttrs (l: checkDependencyList l name) deps
        // {
          inherit name builder;
          args = builderArgs;
          system = stdenv.buildPlatform.system;
          inherit doCheck doInstallCheck;
          __ignoreNulls = true;
        };
      meta = {
        platforms = lib.platforms.all;
      }
      // args.meta or { };
      available = lib.meta.availableOn stdenv.hostPlatform { inherit meta; };
      # Checked when the derivation is instantiated, as nixpkgs' check-meta
      # with its default config (no broken or unsupported packages).
      valid =
        if clash != [ ] then
          throw "nixpkgs stand-in: ${name}: ${toString clash} set both in env and as attributes"
        else if meta.broken or false then
          throw "nixpkgs stand-in: ${name} is marked as broken on ${stdenv.hostPlatform.system}"
        else
          lib.assertMsg available "nixpkgs stand-in: ${name} is not available on ${stdenv.hostPlatform.system}";
    in
    lib.extendDerivation valid ((args.passthru or { }) // { inherit meta overrideAttrs; }) (
      derivation drvAttrs
    );

  mkStdenv =
    cc:
    let
      stdenv = {
        name = "stdenv-standin";
        inherit cc;
        hostPlatform = platform;
        buildPlatform = platform;
        targetPlatform = platform;
        inherit (platform) system isLinux isDarwin;
        shell = "${self.bash}/bin/bash";
        mkDerivation = mkDerivationWith stdenv;
      };
    in
    stdenv;

  # A placeholder package: the real attribute name, version "standin".
  tool =
    pname: extra:
    self.stdenv.mkDerivation (
      {
        inherit pname;
        version = "standin";
        meta.mainProgram = pname;
      }
      // extra
    );

  writeTextFile =
    {
      name,
      text,
      executable ? false,
      destination ? "",
      checkPhase ? "",
      meta ? { },
      passthru ? { },
      derivationArgs ? { },
      ...
    }:
    self.stdenvNoCC.mkDerivation (
      {
        inherit
          name
          text
          executable
          destination
          checkPhase
          meta
          passthru
          ;
        passAsFile = [ "text" ];
      }
      // derivationArgs
    );

  runCommandWith =
    stdenv: name: env: buildCommand:
    stdenv.mkDerivation (
      {
        inherit name buildCommand;
        passAsFile = [ "buildCommand" ];
      }
      // env
    );

  pythonPackages = lib.genAttrs [
    "cbor2"
    "fastavro"
    "flatbuffers"
    "msgpack"
    "protobuf"
    "pymongo"
  ] (n: tool n { });

  ccWrapper = tool "cc-wrapper" {
    passthru = {
      targetPrefix = "";
      isClang = platform.isDarwin;
      isGNU = platform.isLinux;
      inherit (self) bintools;
    };
  };

  texlivePackages = lib.genAttrs [
    "booktabs"
    "caption"
    "geometry"
    "hyperref"
    "latexmk"
    "lmodern"
    "microtype"
    "pgf"
    "pgfplots"
    "siunitx"
    "tools"
    "url"
  ] (n: tool "texlive-${n}" { });
in
{
  inherit lib;
  pkgs = self;
  # Native builds only: every package set offset is this one.
  pkgsBuildBuild = self;
  pkgsBuildHost = self;
  pkgsBuildTarget = self;
  pkgsHostHost = self;
  pkgsHostTarget = self;
  pkgsTargetTarget = self;
  buildPackages = self;
  targetPackages = self;
  path = ./.;
  config = { };
  overlays = [ ];

  stdenv = mkStdenv ccWrapper;
  stdenvNoCC = mkStdenv null;

  callPackage = lib.callPackageWith self;
  newScope = extra: lib.callPackageWith (self // extra);

  splicePackages = splices: splices.pkgsHostTarget;
  makeScopeWithSplicing' =
    {
      otherSplices ? { },
      keep ? _: { },
      extra ? _: { },
      f,
    }:
    lib.makeScope self.newScope f;

  # Trivial builders, with nixpkgs' argument shapes.
  runCommand = runCommandWith self.stdenvNoCC;
  runCommandLocal = runCommandWith self.stdenvNoCC;
  runCommandCC = runCommandWith self.stdenv;
  inherit writeTextFile;
  writeText = name: text: writeTextFile { inherit name text; };
  writeScript =
    name: text:
    writeTextFile {
      inherit name text;
      executable = true;
    };
  writeShellScript = name: text: self.writeScript name "#!${self.bash}/bin/bash\n${text}";
  writeShellApplication =
    {
      name,
      text,
      runtimeInputs ? [ ],
      runtimeEnv ? null,
      meta ? { },
      passthru ? { },
      checkPhase ? null,
      excludeShellChecks ? [ ],
      extraShellCheckFlags ? [ ],
      bashOptions ? [
        "errexit"
        "nounset"
        "pipefail"
      ],
      inheritPath ? true,
      derivationArgs ? { },
    }:
    assert lib.all lib.isDerivation runtimeInputs;
    writeTextFile {
      inherit name passthru;
      executable = true;
      destination = "/bin/${name}";
      meta = {
        mainProgram = name;
      }
      // meta;
      text = ''
        #!${self.bash}/bin/bash
        set -o ${lib.concatStringsSep " -o " bashOptions}
        export PATH="${lib.makeBinPath runtimeInputs}${lib.optionalString inheritPath ":$PATH"}"
        ${text}
      '';
      derivationArgs = derivationArgs // {
        nativeBuildInputs = [ self.shellcheck-minimal ];
      };
    };
  symlinkJoin =
    args@{
      name,
      paths,
      ...
    }:
    self.stdenvNoCC.mkDerivation (
      removeAttrs args [ "paths" ]
      // {
        inherit paths;
        passAsFile = [ "paths" ];
      }
    );
  linkFarm =
    name: entries:
    let
      list = if builtins.isList entries then entries else lib.mapAttrsToList (name: path: { inherit name path; }) entries;
    in
    assert lib.all (e: builtins.isString e.name && (lib.isDerivation e.path || builtins.isPath e.path || builtins.isString e.path)) list;
    self.runCommand name { entries = map (e: "${e.name}=${e.path}") list; } "";
  makeSetupHook =
    {
      name,
      propagatedBuildInputs ? [ ],
      substitutions ? { },
      passthru ? { },
      meta ? { },
      ...
    }:
    script:
    self.runCommand name (
      substitutions
      // {
        inherit script propagatedBuildInputs passthru meta;
      }
    ) "";
  mkShell =
    args@{
      packages ? [ ],
      inputsFrom ? [ ],
      ...
    }:
    let
      fromInputs = attr: lib.concatMap (d: d.${attr} or [ ]) inputsFrom;
    in
    self.stdenv.mkDerivation (
      removeAttrs args [
        "packages"
        "inputsFrom"
      ]
      // {
        name = args.name or "nix-shell";
        nativeBuildInputs = packages ++ (args.nativeBuildInputs or [ ]) ++ fromInputs "nativeBuildInputs";
        buildInputs = (args.buildInputs or [ ]) ++ fromInputs "buildInputs";
      }
    );

  fetchurl =
    {
      url ? null,
      urls ? [ ],
      name ? baseNameOf (toString (if url != null then url else builtins.head urls)),
      hash ? "",
      sha256 ? "",
      ...
    }:
    assert lib.assertMsg (url != null || urls != [ ]) "fetchurl: no url";
    assert lib.assertMsg (hash != "" || sha256 != "") "fetchurl: ${name}: no hash";
    derivation {
      inherit name builder;
      args = builderArgs;
      system = platform.system;
      urls = if url != null then [ url ] else urls;
      outputHashMode = "flat";
      outputHashAlgo = if hash != "" then null else "sha256";
      outputHash = if hash != "" then hash else sha256;
      __ignoreNulls = true;
    };

  rustPlatform.buildRustPackage =
    args@{
      cargoLock ? null,
      cargoHash ? null,
      ...
    }:
    assert lib.assertMsg (
      cargoLock != null || cargoHash != null
    ) "buildRustPackage: ${args.pname}: neither cargoLock nor cargoHash";
    self.stdenv.mkDerivation (
      removeAttrs args [ "cargoLock" ] // lib.optionalAttrs (cargoLock != null) { cargoLock = cargoLock.lockFile; }
    );

  # Placeholder packages (real attribute names).
  bash = tool "bash" { };
  cargo = tool "cargo" { };
  rustc = tool "rustc" { };
  coreutils = tool "coreutils" { };
  diffutils = tool "diffutils" { };
  # The attributes of nixpkgs' bintools-wrapper that rust-overlay reads.
  bintools = tool "bintools-wrapper" {
    passthru = {
      expandResponseParams = "${self.coreutils}/bin/expand-response-params";
      shell = "${self.bash}/bin/bash";
      suffixSalt = lib.replaceStrings [ "-" "." ] [ "_" "_" ] platform.config;
      wrapperName = "BINTOOLS_WRAPPER";
      coreutils_bin = "${self.coreutils}";
    };
  };
  curl = tool "curl" { };
  git = tool "git" { };
  gnutar = tool "gnutar" { meta.mainProgram = "tar"; };
  jq = tool "jq" { };
  just = tool "just" { };
  libiconv = tool "libiconv" { };
  libsecret = tool "libsecret" { };
  lndir = tool "lndir" { };
  rsync = tool "rsync" { };
  shellcheck-minimal = tool "shellcheck" { };
  zlib = tool "zlib" { };
  zstd = tool "zstd" { };
  gccForLibs = tool "gcc" {
    outputs = [
      "out"
      "lib"
    ];
  };
  apple-sdk = tool "apple-sdk" { meta.platforms = lib.platforms.darwin; };
  darwin.signingUtils = tool "signing-utils" { meta.platforms = lib.platforms.darwin; };
  autoPatchelfHook = self.makeSetupHook { name = "auto-patchelf-hook"; } ./standin-hook.sh;
  makeWrapper = self.makeSetupHook { name = "make-wrapper-hook"; } ./standin-hook.sh;
  writableTmpDirAsHomeHook = self.makeSetupHook { name = "writable-tmpdir-as-home-hook"; } ./standin-hook.sh;

  # Interop and generator tools of flake.nix.
  nodejs = tool "nodejs" { meta.mainProgram = "node"; };
  go = tool "go" { };
  protobuf = tool "protobuf" { meta.mainProgram = "protoc"; };
  flatbuffers = tool "flatbuffers" { meta.mainProgram = "flatc"; };
  capnproto = tool "capnproto" { meta.mainProgram = "capnp"; };
  capnproto-rust = tool "capnproto-rust" { meta.mainProgram = "capnpc-rust"; };
  thrift = tool "thrift" { };
  # As nixpkgs' meta: Linux and Darwin, broken on Darwin.
  valgrind = tool "valgrind" {
    meta = {
      platforms = lib.platforms.linux ++ lib.platforms.darwin;
      broken = platform.isDarwin;
    };
  };

  python3 = tool "python3" {
    passthru = {
      pkgs = pythonPackages;
      withPackages = f: tool "python3-env" { propagatedBuildInputs = [ self.python3 ] ++ f pythonPackages; };
    };
  };
  python3Packages = pythonPackages;

  texliveSmall = tool "texlive-small" {
    passthru.withPackages = f: tool "texlive-small-env" { propagatedBuildInputs = f texlivePackages; };
  };
}
