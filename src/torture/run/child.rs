//! The hidden `binostr torture child` process: decodes a window of a
//! subject's in-process cases, or one isolated case, and prints what
//! happened as JSON lines for the supervisor.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::Path;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::subjects::{Subject, bomb_limits, install_panic_counter, subject};
use super::{Finding, Outcome};
use crate::codec::Limits;
use crate::torture::{Case, Class, Recipe, isolated};

/// The in-process cases of a subject: concrete non-isolated cases, then
/// `mutations` generated ones.
pub(super) struct Batch {
    cases: Vec<Case>,
    bases: Vec<Vec<u8>>,
    seed: u64,
    mutations: u64,
}

impl Batch {
    pub(super) fn load(dir: &Path, s: &Subject) -> io::Result<Batch> {
        let m = crate::torture::read_manifest(dir)?;
        let p = s.cases_of();
        let cases: Vec<Case> = crate::torture::read_cases(dir, p.id)?
            .into_iter()
            .filter(|c| !isolated(c.class))
            .collect();
        let written = m.profiles.iter().any(|id| id == p.id);
        Ok(Batch {
            cases,
            bases: crate::torture::bases(p),
            seed: m.seed,
            mutations: if written { m.mutations } else { 0 },
        })
    }

    pub(super) fn len(&self) -> u64 {
        self.cases.len() as u64 + self.mutations
    }

    pub(super) fn get(&self, s: &Subject, i: u64) -> (Class, String, Vec<u8>) {
        match self.cases.get(i as usize) {
            Some(c) => (c.class, c.name.clone(), c.bytes.clone()),
            None => {
                let m = i - self.cases.len() as u64;
                let id = s.cases_of().id;
                (
                    Class::Mutation,
                    format!("mutation-{m}"),
                    crate::torture::mutation(&self.bases, id, self.seed, m),
                )
            }
        }
    }
}

/// A batch child's report line.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct Report {
    pub(super) done: u64,
    pub(super) counts: Vec<(Class, Outcome, u64)>,
    pub(super) findings: Vec<Finding>,
    pub(super) mutation_nanos: u64,
}

/// What an isolated child prints.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Isolated {
    pub(super) outcome: Outcome,
    pub(super) detail: Option<String>,
    pub(super) input_bytes: u64,
    pub(super) vmhwm_kib: u64,
}

pub(super) fn vmhwm_kib(pid: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

pub(super) fn hex_prefix(b: &[u8]) -> String {
    crate::model::hex::encode(&b[..b.len().min(64)])
}

/// The hidden child: runs in-process cases `from..to` of a subject, or one
/// isolated case (`index` into the isolated concrete cases, then recipes).
pub fn child(
    dir: &Path,
    id: &str,
    isolated: Option<usize>,
    range: (u64, u64),
    every: u64,
    mem_limit_mib: u64,
) -> io::Result<()> {
    let limit = mem_limit_mib << 20;
    rlimit::setrlimit(rlimit::Resource::AS, limit, limit)?;
    install_panic_counter();
    let s = subject(id).ok_or_else(|| io::Error::other(format!("unknown subject {id}")))?;
    let out = io::stdout();
    let mut out = out.lock();
    if let Some(index) = isolated {
        let (bytes, limits) = isolated_input(dir, &s, index)?;
        let (outcome, detail) = s.verdict(&bytes, &limits);
        let line = Isolated {
            outcome,
            detail,
            input_bytes: bytes.len() as u64,
            vmhwm_kib: vmhwm_kib("self").unwrap_or(0),
        };
        writeln!(out, "{}", serde_json::to_string(&line)?)?;
        return out.flush();
    }
    let batch = Batch::load(dir, &s)?;
    let limits = Limits::default();
    let mut report = Report::default();
    let mut counts: BTreeMap<(Class, Outcome), u64> = BTreeMap::new();
    let (from, to) = (range.0, range.1.min(batch.len()));
    for i in from..to {
        let (class, name, bytes) = batch.get(&s, i);
        let t = Instant::now();
        let (outcome, detail) = s.verdict(&bytes, &limits);
        if class == Class::Mutation {
            report.mutation_nanos += t.elapsed().as_nanos() as u64;
        }
        *counts.entry((class, outcome)).or_default() += 1;
        let kept = report.findings.iter().filter(|f| f.class == class).count();
        if outcome != Outcome::CleanError && outcome != Outcome::Accepted && kept < 4 {
            report.findings.push(Finding {
                class,
                case: name,
                outcome,
                detail: detail.unwrap_or_default(),
                input_hex: hex_prefix(&bytes),
            });
        }
        if (i + 1 - from) % every == 0 || i + 1 == to {
            report.done = i + 1;
            report.counts = std::mem::take(&mut counts)
                .into_iter()
                .map(|((c, o), n)| (c, o, n))
                .collect();
            writeln!(out, "{}", serde_json::to_string(&report)?)?;
            out.flush()?;
            report = Report::default();
        }
    }
    Ok(())
}

/// Isolated inputs of a subject: the isolated concrete cases, then the
/// recipe bombs expanded here.
pub(super) fn isolated_cases(dir: &Path, s: &Subject) -> io::Result<(Vec<Case>, Vec<Recipe>)> {
    let p = s.cases_of();
    let cases = crate::torture::read_cases(dir, p.id)?
        .into_iter()
        .filter(|c| isolated(c.class))
        .collect();
    Ok((cases, crate::torture::read_recipes(dir, p.id)?))
}

fn isolated_input(dir: &Path, s: &Subject, index: usize) -> io::Result<(Vec<u8>, Limits)> {
    let (cases, recipes) = isolated_cases(dir, s)?;
    let written = cases.len();
    if let Some(c) = cases.into_iter().nth(index) {
        return Ok((c.bytes, bomb_limits()));
    }
    let r = recipes
        .get(index - written)
        .ok_or_else(|| io::Error::other("no such isolated case"))?;
    let bytes = crate::torture::expand(s.cases_of(), r)
        .ok_or_else(|| io::Error::other("no bomb builder"))?;
    Ok((bytes, bomb_limits()))
}
