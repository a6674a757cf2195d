//! The signed results manifest over a synthetic campaign tree: a fresh
//! manifest verifies; every kind of tampering fails with its own message;
//! keys come from hex, nsec or a private key file.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use binostr::manifest::{self, FailureClass, KeySource, key};
use binostr::model::hex;
use tempfile::TempDir;

const LABEL: &str = "t1";
// NIP-19's example key pair (not the project key).
const NSEC: &str = "nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5";
const NSEC_HEX: &str = "67dea2ed018072d675f5415ecfaed7d2597555e202d85b3d65ea4e58d2d92ffa";
const OTHER_HEX: &str = "0101010101010101010101010101010101010101010101010101010101010101";
const FINGERPRINT: &str = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";

/// A git repository with a complete two-run campaign, a summary and paper
/// inputs, plus a separate config home (so no test touches the real key).
struct Fixture {
    repo: TempDir,
    home: TempDir,
}

fn write(path: &Path, data: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, data).unwrap();
}

fn git(root: &Path, args: &[&str]) {
    let o = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.org"])
        .args(args)
        .current_dir(root)
        .output()
        .unwrap();
    assert!(o.status.success(), "git {args:?}: {}", stderr(&o));
}

/// `campaign.json` as `binostr campaign` writes it, with corpus seed `seed`.
fn campaign_json(seed: Option<u64>) -> String {
    format!(
        r#"{{"schema":2,"label":"{LABEL}","settings":"quick","runs":2,"seed":1,
           "corpus":{{"fingerprint":"{FINGERPRINT}","count":5000,"seed":{},"source":"generated","audit_sha256":"{}","apart":[]}},
           "sequences":[]}}"#,
        seed.map_or("null".to_string(), |s| s.to_string()),
        "ab".repeat(32)
    )
}

fn fixture() -> Fixture {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    write(&root.join("Cargo.lock"), "# lock\n");
    write(&root.join("README.md"), "fixture\n");
    git(root, &["init", "-q"]);
    git(root, &["add", "."]);
    git(root, &["commit", "-q", "--no-gpg-sign", "-m", "fixture"]);
    let c = root.join("results/campaigns").join(LABEL);
    write(&c.join("campaign.json"), &campaign_json(Some(1)));
    for k in 1..=2 {
        let run = c.join(format!("run-{k}"));
        write(
            &run.join("contract.json"),
            &format!(
                r#"{{"schema":2,"contract":{{"git":{{"commit":"{}","dirty":false}},"rustc":"rustc 1.95.0\n",
                   "build_profile":"release","rustflags":"","cargo_lock_sha256":"{}",
                   "corpus":{{"fingerprint":"{FINGERPRINT}","count":5000,"seed":1}},"settings":"quick",
                   "criterion":{{"sample_size":10,"warm_up_ms":5,"measurement_ms":20,"nresamples":100}},
                   "host":{{"id":"h/cpu","hostname":"h","cpu_model":"cpu","cores":2,"governor":"unknown","boost":"unknown","kernel":"k"}}}},
                   "observed":{{"run":{k},"order_seed":{k},"groups":1,"empty_subsets":[],"started":"2026-12-01T00:00:00Z",
                   "finished":"2026-12-01T00:01:00Z","load_before":[],"load_after":[]}}}}"#,
                "c".repeat(40),
                "d".repeat(64)
            ),
        );
        write(
            &run.join("samples.csv"),
            &format!("workload,profile\ndecode,json{k}\n"),
        );
        write(&run.join("criterion/decode/estimates.json"), "{}");
    }
    write(&c.join("summary/summary.csv"), "host,workload\nh,decode\n");
    write(&c.join("summary/plots/decode.svg"), "<svg/>");
    write(
        &root.join("paper/generated/macros.tex"),
        &format!("\\newcommand{{\\CampaignLabel}}{{{LABEL}}}\n\\newcommand{{\\X}}{{1}}\n"),
    );
    write(
        &root.join("paper/generated/speed.csv"),
        "profile,decode_ns\njson,100\n",
    );
    // A side input the paper reads: covered with paper/generated/.
    write(
        &root.join("results/robustness/robustness.md"),
        "# Robustness\n",
    );
    Fixture {
        repo,
        home: tempfile::tempdir().unwrap(),
    }
}

impl Fixture {
    fn root(&self) -> &Path {
        self.repo.path()
    }

    fn campaign(&self) -> PathBuf {
        manifest::campaign_dir(self.root(), LABEL)
    }

    /// `binostr` with a clean key environment: `key` as BINOSTR_SIGNING_KEY
    /// (or none), XDG_CONFIG_HOME inside the fixture's home, so the real key
    /// file is never read.
    fn binostr(&self, key: Option<&str>, args: &[&str]) -> Output {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_binostr"));
        cmd.args(args)
            .env_remove(key::KEY_ENV)
            .env("XDG_CONFIG_HOME", self.home.path().join("config"));
        if let Some(k) = key {
            cmd.env(key::KEY_ENV, k);
        }
        cmd.output().unwrap()
    }

    /// `binostr manifest create` with no key in the environment.
    fn create_command(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_binostr"));
        let root = self.root().to_str().unwrap();
        cmd.args(["manifest", "create", "--root", root, LABEL])
            .env_remove(key::KEY_ENV);
        cmd
    }

    fn create_with(&self, key: Option<&str>) -> Output {
        let root = self.root().to_str().unwrap();
        self.binostr(key, &["manifest", "create", "--root", root, LABEL])
    }

    fn create(&self) -> String {
        let o = self.create_with(Some(NSEC_HEX));
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    }

    fn verify(&self, pinned: Option<&[u8; 32]>) -> manifest::Verification {
        manifest::verify(self.root(), LABEL, pinned)
    }

    fn verify_cli(&self, pin: Option<&str>) -> Output {
        let root = self.root().to_str().unwrap();
        let mut args = vec!["manifest", "verify", "--root", root, LABEL];
        if let Some(p) = pin {
            args.extend(["--pubkey", p]);
        }
        self.binostr(None, &args)
    }

    fn event_path(&self) -> PathBuf {
        self.campaign().join(manifest::EVENT_FILE)
    }
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts exit status 1 with `needle` on stderr; returns stderr.
fn fails_with(o: &Output, needle: &str) -> String {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains(needle), "expected {needle:?} in {err}");
    err
}

fn pubkey_of(hex_key: &str) -> [u8; 32] {
    let dir = tempfile::tempdir().unwrap();
    key::load(&KeySource::Text(hex_key.into()), dir.path())
        .unwrap()
        .pubkey()
}

fn flip_byte(path: &Path, at: usize) {
    let mut bytes = fs::read(path).unwrap();
    bytes[at] ^= 0x01;
    fs::write(path, bytes).unwrap();
}

/// Changes the hex digit `offset` characters into the value of `field` in the
/// event file to another hex digit, keeping the JSON well-formed.
fn flip_event_hex(f: &Fixture, needle: &str, offset: usize) {
    let path = f.event_path();
    let mut text = fs::read_to_string(&path).unwrap();
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} in {text}"))
        + needle.len()
        + offset;
    let old = text.as_bytes()[at];
    let new = if old == b'0' { "1" } else { "0" };
    text.replace_range(at..=at, new);
    fs::write(&path, text).unwrap();
}

fn classes(r: &manifest::Verification) -> Vec<FailureClass> {
    r.failures.iter().map(|x| x.class).collect()
}

fn details(r: &manifest::Verification) -> String {
    r.failures
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn fresh_manifest_verifies() {
    let f = fixture();
    let out = f.create();
    let pubkey = pubkey_of(NSEC_HEX);
    assert!(
        out.contains(&format!("pubkey   {}", hex::encode(&pubkey))),
        "{out}"
    );
    assert!(
        out.contains(&format!("npub     {}", key::npub(&pubkey))),
        "{out}"
    );

    let r = f.verify(Some(&pubkey));
    assert!(r.ok(), "{}", details(&r));
    assert_eq!(r.files_listed, 12);
    assert_eq!(r.files_ok, 12);
    assert_eq!(r.pubkey, Some(pubkey));

    let bytes = fs::read(f.campaign().join(manifest::MANIFEST_FILE)).unwrap();
    let m: manifest::Manifest = serde_json::from_slice(&bytes).unwrap();
    let paths: Vec<&str> = m.files.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "paper/generated/macros.tex",
            "paper/generated/speed.csv",
            "results/campaigns/t1/campaign.json",
            "results/campaigns/t1/run-1/contract.json",
            "results/campaigns/t1/run-1/criterion/decode/estimates.json",
            "results/campaigns/t1/run-1/samples.csv",
            "results/campaigns/t1/run-2/contract.json",
            "results/campaigns/t1/run-2/criterion/decode/estimates.json",
            "results/campaigns/t1/run-2/samples.csv",
            "results/campaigns/t1/summary/plots/decode.svg",
            "results/campaigns/t1/summary/summary.csv",
            "results/robustness/robustness.md",
        ]
    );
    let speed = &m.files[1];
    assert_eq!(speed.bytes, 27);
    assert_eq!(
        speed.sha256,
        hex::encode(&<sha2::Sha256 as sha2::Digest>::digest(
            b"profile,decode_ns\njson,100\n"
        ))
    );
    assert_eq!(m.corpus.fingerprint, FINGERPRINT);
    assert_eq!((m.corpus.count, m.corpus.seed), (5000, Some(1)));
    assert_eq!(m.campaign.runs, [1, 2]);
    assert_eq!(m.toolchain.campaign_rustc, "rustc 1.95.0\n");
    assert!(
        m.toolchain.rustc.starts_with("rustc "),
        "{}",
        m.toolchain.rustc
    );
    assert_eq!(m.git.commit.len(), 40);
    assert!(!m.git.dirty);
    assert_eq!(
        manifest::canonical::to_vec(&serde_json::from_slice(&bytes).unwrap()).unwrap(),
        bytes
    );

    let event = fs::read_to_string(f.event_path()).unwrap();
    let e: serde_json::Value = serde_json::from_str(&event).unwrap();
    assert_eq!(e["kind"], 1063);
    let tags = e["tags"].as_array().unwrap();
    assert!(tags.contains(&serde_json::json!(["m", "application/json"])));
    assert!(tags.contains(&serde_json::json!(["size", bytes.len().to_string()])));
    assert!(tags.contains(&serde_json::json!(["fingerprint", FINGERPRINT])));
    assert!(tags.contains(&serde_json::json!(["commit", m.git.commit])));

    let o = f.verify_cli(Some(&key::npub(&pubkey)));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("ok: t1: 12 files match"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_campaign_over_files_without_a_seed_is_signed() {
    let f = fixture();
    write(&f.campaign().join("campaign.json"), &campaign_json(None));
    f.create();
    let r = f.verify(Some(&pubkey_of(NSEC_HEX)));
    assert!(r.ok(), "{}", details(&r));
    let bytes = fs::read(f.campaign().join(manifest::MANIFEST_FILE)).unwrap();
    let m: manifest::Manifest = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(m.corpus.seed, None);
    assert!(String::from_utf8(bytes).unwrap().contains(r#""seed":null"#));
}

#[test]
fn paper_inputs_of_another_campaign_are_not_covered() {
    let f = fixture();
    write(
        &f.root().join("paper/generated/macros.tex"),
        "\\newcommand{\\CampaignLabel}{other}\n",
    );
    f.create();
    let bytes = fs::read(f.campaign().join(manifest::MANIFEST_FILE)).unwrap();
    let m: manifest::Manifest = serde_json::from_slice(&bytes).unwrap();
    assert!(m.files.iter().all(|e| !e.path.starts_with("paper/")));
    // Rebuilding the paper from yet another campaign does not break this one.
    write(&f.root().join("paper/generated/speed.csv"), "changed\n");
    let r = f.verify(Some(&pubkey_of(NSEC_HEX)));
    assert!(r.ok(), "{}", details(&r));
}

#[test]
fn a_flipped_byte_in_any_listed_file_fails() {
    for (rel, at) in [
        ("paper/generated/macros.tex", 3),
        ("paper/generated/speed.csv", 23),
        ("results/campaigns/t1/campaign.json", 0),
        ("results/campaigns/t1/run-2/samples.csv", 10),
        ("results/campaigns/t1/summary/plots/decode.svg", 1),
        ("results/robustness/robustness.md", 2),
    ] {
        let f = fixture();
        f.create();
        flip_byte(&f.root().join(rel), at);
        let r = f.verify(None);
        assert_eq!(
            classes(&r),
            [FailureClass::Modified],
            "{rel}: {}",
            details(&r)
        );
        assert!(
            r.failures[0].detail.starts_with(&format!("{rel}: sha256 ")),
            "{}",
            details(&r)
        );
        assert_eq!(r.files_ok, 11);

        let o = f.verify_cli(None);
        fails_with(&o, &format!("does not verify: modified: {rel}"));
    }
}

/// Signs a fresh fixture, applies `tamper`, verifies; checks the failure
/// classes in order and that the first failure's text contains `first`.
fn expect_failures(
    tamper: impl FnOnce(&Fixture),
    expected: &[FailureClass],
    first: &str,
) -> Fixture {
    let f = fixture();
    f.create();
    tamper(&f);
    let r = f.verify(None);
    assert_eq!(classes(&r), expected, "{}", details(&r));
    assert!(r.failures[0].detail.contains(first), "{}", details(&r));
    f
}

fn manifest_path(f: &Fixture) -> PathBuf {
    f.campaign().join(manifest::MANIFEST_FILE)
}

#[test]
fn a_flipped_byte_in_the_manifest_fails_the_binding() {
    use FailureClass::{Binding, Manifest};
    // Inside the `label` value ("t1" -> "t0"): still canonical JSON, so
    // only the binding and the label check can notice.
    let label_byte = |f: &Fixture| {
        let text = fs::read_to_string(manifest_path(f)).unwrap();
        flip_byte(
            &manifest_path(f),
            text.find("\"label\":\"t1\"").unwrap() + 10,
        );
    };
    expect_failures(label_byte, &[Binding, Manifest], "tag `x` is ");
    // The opening brace: not JSON at all.
    let f = expect_failures(
        |f| flip_byte(&manifest_path(f), 0),
        &[Binding, Manifest, Manifest],
        "tag `x` is ",
    );
    let all = details(&f.verify(None));
    assert!(
        all.contains("manifest: manifest.json: not valid JSON"),
        "{all}"
    );
    assert!(
        all.contains("manifest: manifest.json: not a valid manifest"),
        "{all}"
    );
}

#[test]
fn a_reformatted_manifest_is_not_canonical() {
    let pretty = |f: &Fixture| {
        let path = manifest_path(f);
        let value: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        fs::write(&path, serde_json::to_vec_pretty(&value).unwrap()).unwrap();
    };
    let f = expect_failures(
        pretty,
        &[
            FailureClass::Binding,
            FailureClass::Binding,
            FailureClass::Manifest,
        ],
        "tag `x` is ",
    );
    let r = f.verify(None);
    assert!(
        details(&r)
            .contains("manifest: manifest.json: not in canonical form: first difference at byte 1"),
        "{}",
        details(&r)
    );
    assert_eq!(r.files_ok, 12);
}

#[test]
fn a_flipped_byte_in_the_event_fails() {
    use FailureClass::{Binding, Event, Signature};
    // The id: no longer the hash, and the signature is over another id.
    let id = |f: &Fixture| flip_event_hex(f, "\"id\":\"", 5);
    expect_failures(id, &[Event, Signature], "is not the NIP-01 id");
    let sig = |f: &Fixture| flip_event_hex(f, "\"sig\":\"", 40);
    expect_failures(sig, &[Signature], "BIP-340 signature over id");
    // A tag value: the id no longer matches.
    let tag = |f: &Fixture| flip_event_hex(f, "[\"fingerprint\",\"", 0);
    expect_failures(tag, &[Event], "is not the NIP-01 id");
    // The `x` tag: the id and the binding.
    let x = |f: &Fixture| flip_event_hex(f, "[\"x\",\"", 63);
    expect_failures(x, &[Event, Binding], "is not the NIP-01 id");
    // A non-hex pubkey: not an event.
    let pubkey = |f: &Fixture| {
        let mut text = fs::read_to_string(f.event_path()).unwrap();
        let at = text.find("\"pubkey\":\"").unwrap() + 10;
        text.replace_range(at..=at, "g");
        fs::write(f.event_path(), text).unwrap();
    };
    let f = expect_failures(pubkey, &[Event], "at byte");
    let o = f.verify_cli(None);
    fails_with(&o, "does not verify: event: manifest.event.json: ");
}

#[test]
fn a_wrong_pinned_key_fails() {
    let f = fixture();
    f.create();
    let other = pubkey_of(OTHER_HEX);
    for pin in [hex::encode(&other), key::npub(&other)] {
        let o = f.verify_cli(Some(&pin));
        let signer = hex::encode(&pubkey_of(NSEC_HEX));
        let err = fails_with(&o, &format!("does not verify: key: signed by {signer}"));
        assert!(
            err.contains(&format!("but the pinned key is {}", hex::encode(&other))),
            "{err}"
        );
    }
    let signer = pubkey_of(NSEC_HEX);
    for pin in [hex::encode(&signer), key::npub(&signer)] {
        assert!(f.verify_cli(Some(&pin)).status.success(), "{pin}");
    }
    let o = f.verify_cli(Some("npub1notakey"));
    fails_with(&o, "bad npub bech32");
}

#[test]
fn missing_and_extra_files_are_all_reported() {
    let f = fixture();
    f.create();
    let c = f.campaign();
    fs::remove_file(c.join("run-2/samples.csv")).unwrap();
    fs::remove_file(f.root().join("paper/generated/speed.csv")).unwrap();
    write(&c.join("summary/late.csv"), "x\n");
    write(&f.root().join("paper/generated/extra.tex"), "%\n");
    fs::create_dir(c.join("run-3.tmp")).unwrap();
    let r = f.verify(None);
    let all = details(&r);
    assert_eq!(
        all,
        "missing: paper/generated/speed.csv\n\
         missing: results/campaigns/t1/run-2/samples.csv\n\
         extra: paper/generated/extra.tex\n\
         extra: results/campaigns/t1/run-3.tmp (unfinished .tmp entry)\n\
         extra: results/campaigns/t1/summary/late.csv"
    );
    let o = f.verify_cli(None);
    let err = fails_with(
        &o,
        "does not verify: missing: paper/generated/speed.csv\n5 failure(s):",
    );
    for line in all.lines() {
        assert!(err.contains(&format!("  {line}")), "{line}: {err}");
    }
}

#[test]
fn refuses_to_sign_an_unfinished_campaign() {
    let f = fixture();
    fs::create_dir(f.campaign().join("run-3.tmp")).unwrap();
    let o = f.create_with(Some(NSEC_HEX));
    fails_with(
        &o,
        "run-3.tmp: an unfinished `.tmp` entry is present; refusing to sign",
    );
    assert!(!manifest_path(&f).exists());

    let f = fixture();
    let contract = f.campaign().join("run-2/contract.json");
    let text = fs::read_to_string(&contract)
        .unwrap()
        .replace("1.95.0", "1.94.0");
    fs::write(&contract, text).unwrap();
    let o = f.create_with(Some(NSEC_HEX));
    fails_with(&o, "contract.rustc differs from run-1's");
}

#[test]
fn nsec_and_hex_keys_sign_as_one_pubkey() {
    let f = fixture();
    let from_hex = stdout(&f.create_with(Some(NSEC_HEX)));
    let from_nsec = stdout(&f.create_with(Some(NSEC)));
    let pubkey_line = |s: &str| {
        s.lines()
            .filter(|l| l.starts_with("pubkey") || l.starts_with("npub"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(pubkey_line(&from_hex), pubkey_line(&from_nsec));
    assert_eq!(
        pubkey_line(&from_hex),
        // NIP-19's example pair.
        format!(
            "pubkey   {}\nnpub     {}",
            hex::encode(&pubkey_of(NSEC_HEX)),
            key::npub(&pubkey_of(NSEC_HEX))
        )
    );
    let o = f.create_with(Some("nsec1qqqq"));
    assert!(fails_with(&o, "bad nsec bech32").starts_with("binostr: BINOSTR_SIGNING_KEY: "));
    assert!(!stderr(&f.create_with(Some(&NSEC_HEX.to_uppercase()))).contains(NSEC_HEX));
}

#[cfg(unix)]
#[test]
fn key_file_is_created_private_and_reused() {
    use std::os::unix::fs::PermissionsExt;
    let f = fixture();
    let first = f.create_with(None);
    assert!(first.status.success(), "{}", stderr(&first));
    let key_path = f.home.path().join("config/binostr/signing-key");
    assert!(stderr(&first).contains(&format!(
        "created a new signing key at {}",
        key_path.display()
    )));
    let mode = fs::metadata(&key_path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let dir_mode = fs::metadata(key_path.parent().unwrap())
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(dir_mode, 0o700);
    let text = fs::read_to_string(&key_path).unwrap();
    assert_eq!(text.len(), 65);
    assert!(!stdout(&first).contains(text.trim()) && !stderr(&first).contains(text.trim()));

    let second = f.create_with(None);
    assert!(second.status.success(), "{}", stderr(&second));
    assert!(!stderr(&second).contains("created"));
    let npub = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("npub"))
            .unwrap()
            .to_owned()
    };
    assert_eq!(npub(&stdout(&first)), npub(&stdout(&second)));
    assert_eq!(
        npub(&stdout(&first)),
        format!("npub     {}", key::npub(&pubkey_of(text.trim())))
    );

    // Without XDG_CONFIG_HOME: ~/.config. rustup finds its toolchains
    // through HOME unless RUSTUP_HOME says where they are.
    let mut cmd = f.create_command();
    cmd.env_remove("XDG_CONFIG_HOME").env("HOME", f.home.path());
    if std::env::var_os("RUSTUP_HOME").is_none()
        && let Some(home) = std::env::var_os("HOME")
    {
        cmd.env("RUSTUP_HOME", Path::new(&home).join(".rustup"));
    }
    let o = cmd.output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(f.home.path().join(".config/binostr/signing-key").exists());
}

#[cfg(unix)]
#[test]
fn a_readable_key_file_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let f = fixture();
    let key_path = f.home.path().join("config/binostr/signing-key");
    write(&key_path, &format!("{NSEC_HEX}\n"));
    for mode in [0o644, 0o640, 0o604] {
        fs::set_permissions(&key_path, fs::Permissions::from_mode(mode)).unwrap();
        let o = f.create_with(None);
        let err = fails_with(
            &o,
            &format!("mode {mode:04o} lets group or others access the signing key; run `chmod 600"),
        );
        assert!(!err.contains(NSEC_HEX));
        assert!(!manifest_path(&f).exists());
    }
    fs::set_permissions(&key_path, fs::Permissions::from_mode(0o600)).unwrap();
    let o = f.create_with(None);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(&hex::encode(&pubkey_of(NSEC_HEX))));
}

#[test]
fn a_key_inside_the_repository_is_refused() {
    let f = fixture();
    let inside = f.root().join("config/binostr/signing-key");
    let err = key::load(&KeySource::File(inside.clone()), f.root()).unwrap_err();
    assert!(
        err.to_string()
            .contains("must not live inside the repository"),
        "{err}"
    );
    assert!(!inside.exists());

    let o = f
        .create_command()
        .env("HOME", f.home.path())
        .env("XDG_CONFIG_HOME", f.root().join("config"))
        .output()
        .unwrap();
    fails_with(&o, "must not live inside the repository");
    assert!(!inside.exists());
}
