//! The robustness suite: deterministic hostile inputs for every registry
//! profile, run against each decoder and against upstream libraries.
//!
//! Rule: a clean error passes; a panic, abort, signal, stack overflow,
//! timeout or out-of-memory fails. [`generate`] writes the cases; [`run`]
//! runs them (see that module for process isolation and classification).
//!
//! # Case directory
//!
//! ```text
//! DIR/manifest.json                 seed, mutation count, bomb depth, profiles
//! DIR/<profile>/<class>.frames      the class's cases, 4-byte BE length framed
//! DIR/<profile>/<class>.names       one case name per line, in frame order
//! DIR/<profile>/nesting-bomb.recipes.json   the 10,000,000-deep bombs
//! ```
//!
//! Every `.frames` file is a stream `binostr decode --profile P` reads, so
//! the CLI is exercised on the same bytes. Mutations are not written out:
//! the manifest's seed and count regenerate them ([`mutation`]), which keeps
//! a million cases per profile off the disk. The 10,000,000-deep nesting
//! bombs (10 to 150 MB each) are likewise recipes, expanded in the child
//! process that decodes them; 20,000-deep bombs are written out in full
//! (framed, inside the default 512,000-byte event limit).

pub mod agreement;
pub mod run;

use std::fs;
use std::io;
use std::path::Path;

pub use binostr_records::robustness::{CaseManifest, Class};
use serde::{Deserialize, Serialize};

use crate::codec::Profile;
use crate::codec::framing::{Frames, write_frame};
use crate::codec::hostile::Nest;
use crate::model::Event;

/// Depth of the nesting bombs kept as recipes.
pub const BOMB_DEPTH: usize = 10_000_000;
/// Depth of the nesting bombs written out in full.
pub const SMALL_BOMB_DEPTH: usize = 20_000;
/// The default seed of the mutations.
pub const SEED: u64 = 0xB1_0057;
/// The default number of mutations per profile.
pub const MUTATIONS: u64 = 1_000_000;
/// Events from the generator (seed 1) used as mutation bases beside the golden.
const GENERATED_BASES: usize = 8;

/// Cases of `class` run one per child process (they may allocate without
/// bound or recurse); the others run in-process in batches.
pub fn isolated(class: Class) -> bool {
    matches!(class, Class::LengthBomb | Class::NestingBomb)
}

/// A nesting bomb kept as a recipe and expanded where it is decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recipe {
    /// Arrays or maps.
    pub nest: Nest,
    /// Nesting depth.
    pub depth: usize,
}

impl Recipe {
    /// The case name (`array-10000000`).
    pub fn name(&self) -> String {
        format!("{}-{}", self.nest.name(), self.depth)
    }
}

/// One concrete hostile case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The kind of damage: truncation, mutation, length inflation, …
    pub class: Class,
    /// A name unique within the class.
    pub name: String,
    /// The record to decode.
    pub bytes: Vec<u8>,
}

/// The golden event of the conformance suite (`tests/conformance.rs` pins
/// its encodings).
pub use crate::model::golden::golden_event;

fn encode(p: &Profile, e: &Event) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    p.codec.encode(e, &mut out).ok()?;
    Some(out)
}

/// The profile's golden encoding (every profile must represent it).
pub fn golden(p: &Profile) -> Vec<u8> {
    encode(p, &golden_event())
        .unwrap_or_else(|| panic!("{}: the golden event must be representable", p.id))
}

/// Mutation bases: the golden encoding, then the representable ones among
/// the first generated events.
pub fn bases(p: &Profile) -> Vec<Vec<u8>> {
    let mut out = vec![golden(p)];
    out.extend(
        crate::corpus::generate::generate(1, GENERATED_BASES)
            .iter()
            .filter_map(|e| encode(p, e)),
    );
    out
}

/// SplitMix64: a small, fast, well-mixed generator; the mutation stream is
/// part of the suite's definition, so it is spelled out here.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform-ish in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// FNV-1a of a profile id, so each profile gets its own mutation stream.
fn stream_of(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Mutation `i` of `bases` for profile `id`: one to four stacked operations
/// (bit flip, byte insert, byte delete, random overwrite, length-field
/// inflation with `ff` runs or a maximal varint, chunk duplication).
pub fn mutation(bases: &[Vec<u8>], id: &str, seed: u64, i: u64) -> Vec<u8> {
    let mut rng = SplitMix::new(seed ^ stream_of(id) ^ i.wrapping_mul(0xa076_1d64_78bd_642f));
    let mut b = bases[rng.below(bases.len())].clone();
    let ops = 1 + rng.below(4);
    for _ in 0..ops {
        let at = rng.below(b.len() + 1);
        match rng.below(7) {
            0 if at < b.len() => b[at] ^= 1 << rng.below(8),
            1 => b.insert(at, rng.next_u64() as u8),
            2 if at < b.len() => {
                b.remove(at);
            }
            3 if at < b.len() => b[at] = rng.next_u64() as u8,
            4 => {
                let n = [1, 2, 4, 8][rng.below(4)];
                let end = (at + n).min(b.len());
                b[at..end].fill(0xff);
            }
            5 => {
                let varint = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
                b.splice(at..at, varint);
            }
            _ if at < b.len() => {
                let end = (at + 1 + rng.below(32)).min(b.len());
                let chunk = b[at..end].to_vec();
                b.splice(at..at, chunk);
            }
            _ => b.push(rng.next_u64() as u8),
        }
    }
    b
}

/// Replaces `bytes[at..at + n]` with `with`.
fn spliced(bytes: &[u8], at: usize, n: usize, with: &[u8]) -> Vec<u8> {
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(with);
    out.extend_from_slice(&bytes[(at + n).min(bytes.len())..]);
    out
}

fn find(bytes: &[u8], needle: &[u8]) -> Option<usize> {
    bytes.windows(needle.len()).position(|w| w == needle)
}

/// Every concrete case for `p` (mutations and recipe bombs excluded), by
/// class in [`Class::ALL`] order.
pub fn concrete_cases(p: &Profile) -> Vec<Case> {
    let g = golden(p);
    let mut cases = Vec::new();
    let mut push = |class, name: String, bytes| cases.push(Case { class, name, bytes });

    for cut in 0..g.len() {
        push(Class::Truncation, format!("cut-{cut}"), g[..cut].to_vec());
    }
    for at in 0..g.len() {
        for (name, with, n) in [
            ("ff4", &[0xff; 4][..], 4),
            ("ff8", &[0xff; 8][..], 8),
            (
                "varint-max",
                &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01][..],
                0,
            ),
        ] {
            push(
                Class::LengthInflation,
                format!("{name}-at-{at}"),
                spliced(&g, at, n, with),
            );
        }
    }
    for (needle, what) in [(&b"gm "[..], "content"), (&b"root"[..], "tag")] {
        let Some(at) = find(&g, needle) else { continue };
        for (name, bad) in [
            ("ff", &[0xff][..]),
            ("overlong-nul", &[0xc0, 0x80][..]),
            ("surrogate", &[0xed, 0xa0, 0x80][..]),
            ("above-10ffff", &[0xf4, 0x90, 0x80][..]),
            ("cut-sequence", &[0xe6, 0x97][..]),
        ] {
            push(
                Class::BadUtf8,
                format!("{what}-{name}"),
                spliced(&g, at, bad.len(), bad),
            );
        }
    }
    push(Class::Fields, "record-twice".into(), [&g[..], &g].concat());
    push(
        Class::Fields,
        "trailing-zero".into(),
        [&g[..], &[0]].concat(),
    );
    push(
        Class::Fields,
        "trailing-64k".into(),
        [&g[..], &[0; 65_536]].concat(),
    );
    for at in 0..g.len() {
        if g[at] < 0x80 {
            push(
                Class::NonCanonical,
                format!("overlong-varint-at-{at}"),
                spliced(&g, at, 1, &[g[at] | 0x80, 0x00]),
            );
        }
    }
    if let Some(h) = p.codec.hostile() {
        for (name, bytes) in h.variants(&g) {
            let class = if name.contains("duplicate") || name.contains("unknown") {
                Class::Fields
            } else {
                Class::NonCanonical
            };
            push(class, name.into(), bytes);
        }
    }
    let ff = |n| vec![0xff; n];
    push(Class::LengthBomb, "ff-4".into(), ff(4));
    push(Class::LengthBomb, "ff-8".into(), ff(8));
    push(Class::LengthBomb, "ff-16".into(), ff(16));
    for at in (0..g.len()).step_by(16) {
        push(
            Class::LengthBomb,
            format!("golden-prefix-{at}-then-ff8"),
            [&g[..at], &[0xff; 8]].concat(),
        );
    }
    if let Some(h) = p.codec.hostile() {
        for (name, bytes) in h.length_bombs() {
            push(Class::LengthBomb, format!("{}-{name}", h.format()), bytes);
        }
        for nest in Nest::ALL {
            let mut b = Vec::new();
            h.nesting_bomb(nest, SMALL_BOMB_DEPTH, &mut b);
            push(
                Class::NestingBomb,
                format!("{}-{}-{SMALL_BOMB_DEPTH}", h.format(), nest.name()),
                b,
            );
        }
    }
    cases.sort_by_key(|c| c.class);
    cases
}

/// The recipe nesting bombs for `p` (none unless it is self-describing).
pub fn recipes(p: &Profile, depth: usize) -> Vec<Recipe> {
    if p.codec.hostile().is_none() {
        return Vec::new();
    }
    Nest::ALL
        .iter()
        .map(|&nest| Recipe { nest, depth })
        .collect()
}

/// Expands a recipe with `p`'s bomb builder.
pub fn expand(p: &Profile, recipe: &Recipe) -> Option<Vec<u8>> {
    let h = p.codec.hostile()?;
    let mut out = Vec::new();
    h.nesting_bomb(recipe.nest, recipe.depth, &mut out);
    Some(out)
}

/// What `torture generate` wrote.
#[derive(Clone, Debug, Serialize)]
pub struct GenerateSummary {
    /// Profiles covered.
    pub profiles: usize,
    /// Concrete cases written.
    pub cases: usize,
    /// Recipe bombs written.
    pub recipes: usize,
    /// Bytes written.
    pub bytes: u64,
}

/// Writes the cases for every registry profile under `dir`.
pub fn generate(
    dir: &Path,
    seed: u64,
    mutations: u64,
    bomb_depth: usize,
) -> io::Result<GenerateSummary> {
    fs::create_dir_all(dir)?;
    let mut summary = GenerateSummary {
        profiles: 0,
        cases: 0,
        recipes: 0,
        bytes: 0,
    };
    for p in crate::profiles::PROFILES {
        let pdir = dir.join(p.id);
        fs::create_dir_all(&pdir)?;
        let cases = concrete_cases(p);
        for class in Class::ALL {
            let mut frames = Vec::new();
            let mut names = String::new();
            for c in cases.iter().filter(|c| c.class == class) {
                write_frame(&mut frames, &c.bytes).map_err(io::Error::other)?;
                names.push_str(&c.name);
                names.push('\n');
            }
            if names.is_empty() {
                continue;
            }
            summary.bytes += frames.len() as u64;
            fs::write(pdir.join(format!("{}.frames", class.name())), &frames)?;
            fs::write(pdir.join(format!("{}.names", class.name())), names)?;
        }
        summary.cases += cases.len();
        let recipes = recipes(p, bomb_depth);
        if !recipes.is_empty() {
            summary.recipes += recipes.len();
            fs::write(
                pdir.join("nesting-bomb.recipes.json"),
                serde_json::to_vec_pretty(&recipes)?,
            )?;
        }
        summary.profiles += 1;
    }
    let manifest = CaseManifest {
        seed,
        mutations,
        bomb_depth,
        profiles: crate::profiles::PROFILES
            .iter()
            .map(|p| p.id.to_string())
            .collect(),
    };
    fs::write(
        dir.join("manifest.json"),
        serde_json::to_vec_pretty(&manifest)?,
    )?;
    Ok(summary)
}

/// Reads `manifest.json` from a case directory.
pub fn read_manifest(dir: &Path) -> io::Result<CaseManifest> {
    let bytes = fs::read(dir.join("manifest.json"))?;
    serde_json::from_slice(&bytes).map_err(io::Error::other)
}

/// Reads the concrete cases written for profile `id` (empty when the
/// directory has none, e.g. a profile added after it was generated).
pub fn read_cases(dir: &Path, id: &str) -> io::Result<Vec<Case>> {
    let pdir = dir.join(id);
    let mut cases = Vec::new();
    for class in Class::ALL {
        let frames_path = pdir.join(format!("{}.frames", class.name()));
        let Ok(frames) = fs::read(&frames_path) else {
            continue;
        };
        let names = fs::read_to_string(pdir.join(format!("{}.names", class.name())))?;
        let mut names = names.lines();
        for frame in Frames::new(&frames, usize::MAX) {
            let (_, bytes) = frame.map_err(|e| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{}: {e}", frames_path.display()),
                )
            })?;
            let name = names.next().unwrap_or("unnamed").to_string();
            cases.push(Case {
                class,
                name,
                bytes: bytes.to_vec(),
            });
        }
    }
    Ok(cases)
}

/// Reads the recipe bombs written for profile `id`.
pub fn read_recipes(dir: &Path, id: &str) -> io::Result<Vec<Recipe>> {
    match fs::read(dir.join(id).join("nesting-bomb.recipes.json")) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(io::Error::other),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::PROFILES;

    #[test]
    fn mutations_are_deterministic_and_vary() {
        let bases = vec![b"abcdefgh".to_vec()];
        let a = mutation(&bases, "json", 1, 7);
        assert_eq!(a, mutation(&bases, "json", 1, 7));
        let distinct: std::collections::HashSet<Vec<u8>> =
            (0..1000).map(|i| mutation(&bases, "json", 1, i)).collect();
        assert!(distinct.len() > 800, "{}", distinct.len());
        assert_ne!(
            mutation(&bases, "json", 1, 7),
            mutation(&bases, "cbor-packed", 1, 7)
        );
    }

    #[test]
    fn every_profile_has_every_class_it_should() {
        for p in PROFILES {
            let cases = concrete_cases(p);
            let has = |c: Class| cases.iter().any(|x| x.class == c);
            for c in [
                Class::Truncation,
                Class::LengthInflation,
                Class::BadUtf8,
                Class::Fields,
                Class::LengthBomb,
            ] {
                assert!(has(c), "{}: no {} case", p.id, c.name());
            }
            assert_eq!(
                has(Class::NestingBomb),
                p.capabilities.self_describing,
                "{}: nesting bombs exactly for self-describing profiles",
                p.id
            );
        }
    }

    #[test]
    fn generated_cases_read_back() {
        let dir = std::env::temp_dir().join(format!("binostr-torture-unit-{}", std::process::id()));
        let s = generate(&dir, 1, 10, 100).unwrap();
        assert_eq!(s.profiles, PROFILES.len());
        let json = crate::profiles::find("json").unwrap();
        assert_eq!(read_cases(&dir, "json").unwrap(), concrete_cases(json));
        assert_eq!(read_recipes(&dir, "json").unwrap(), recipes(json, 100));
        assert_eq!(read_manifest(&dir).unwrap().mutations, 10);
        fs::remove_dir_all(&dir).unwrap();
    }
}
