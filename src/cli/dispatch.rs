//! From parsed arguments to the library call of each subcommand.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};

use super::args::{Cli, Command};
use crate::campaign;
use crate::files::write_atomically;

mod codec;
mod corpus;
mod evolution;
mod links;
mod maintenance;
mod manifest;
mod relay;
mod release;
mod torture;
mod transport;

use codec::{run_decode, run_encode, run_filters, run_sizes};
use corpus::run_corpus;
use evolution::run_evolution;
use maintenance::run_maintenance;
use manifest::run_manifest;
use relay::run_relay;
use release::run_release;
use torture::run_torture;
use transport::run_transport;

/// `campaign --profile X` and `BINOSTR_CAMPAIGN_PROFILE` were the campaign
/// settings' old spellings; `--profile` now names a wire profile. Both are
/// refused, naming the new spelling, rather than silently ignored.
fn refuse_old_settings_spelling(profile: Option<&str>) -> Result<()> {
    if let Some(p) = profile {
        bail!(
            "`binostr campaign --profile {p}` is now `--settings {p}` \
             (quick|publication|smoke); `--profile` names a wire profile"
        );
    }
    if std::env::var_os("BINOSTR_CAMPAIGN_PROFILE").is_some() {
        bail!(
            "BINOSTR_CAMPAIGN_PROFILE is now BINOSTR_CAMPAIGN_SETTINGS \
             (quick|publication|smoke); unset it"
        );
    }
    Ok(())
}

pub(super) fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Corpus(c) => run_corpus(c),
        Command::Campaign {
            settings,
            profile,
            label,
            corpus,
            real,
            runs,
            seed,
            generate,
            campaigns,
        } => {
            refuse_old_settings_spelling(profile.as_deref())?;
            if runs == 0 {
                bail!("--runs must be at least 1");
            }
            campaign::run(&campaign::Options {
                settings,
                label: label
                    .unwrap_or_else(|| binostr_records::label::default_label(settings.name())),
                corpus: match (corpus, real) {
                    (Some(path), _) => campaign::CorpusChoice::File(path),
                    (None, true) => campaign::CorpusChoice::Real,
                    (None, false) => campaign::CorpusChoice::Generated,
                },
                runs,
                seed,
                campaigns,
                generate: generate.map(|g| (g[0], g[1])),
            })?;
            Ok(())
        }
        Command::CampaignChild(task) => {
            print!("{}", campaign::child::run(&task)?.line());
            Ok(())
        }
        Command::Profiles { json } => {
            super::render::print_profiles(json)?;
            Ok(())
        }
        Command::Encode {
            profile,
            output,
            input,
        } => run_encode(&profile, output.as_deref(), &input),
        Command::Decode { profile, input } => run_decode(&profile, &input),
        Command::Filters {
            seed,
            count,
            inputs,
        } => run_filters(seed, count, &inputs),
        Command::Sizes { json, all, inputs } => run_sizes(json, all, &inputs),
        Command::Evolution {
            out,
            enabled_only,
            max_events,
            inputs,
        } => run_evolution(&out, enabled_only, max_events, &inputs),
        Command::Torture(t) => run_torture(t),
        Command::Manifest(m) => run_manifest(m),
        Command::Release(r) => run_release(r),
        Command::Maintenance { root, out, check } => run_maintenance(&root, out, check),
        Command::Transport {
            profiles,
            events,
            rounds,
            seed,
            out,
        } => run_transport(profiles, &events, rounds, seed, &out),
        Command::Links {
            profiles,
            real,
            events,
            count,
            publish,
            sensitivity,
            links,
            rtt_ms,
            min_rounds,
            max_rounds,
            budget_s,
            seed,
            out,
        } => links::run_links(links::Args {
            profiles,
            real,
            events: &events,
            count,
            publish,
            sensitivity,
            links: &links,
            rtt_ms: &rtt_ms,
            min_rounds,
            max_rounds,
            budget_s,
            seed,
            out: &out,
        }),
        Command::Relay {
            listen,
            profiles,
            events,
            seed,
            limits,
        } => run_relay(&listen, &profiles, &events, seed, &limits),
        Command::Vectors { output, check } => run_vectors(output.as_deref(), check.as_deref()),
    }
}
fn run_vectors(output: Option<&Path>, check: Option<&Path>) -> Result<()> {
    let text = crate::vectors::render(&crate::vectors::vectors());
    if let Some(path) = check {
        let found = fs::read_to_string(path).with_context(|| path.display().to_string())?;
        crate::vectors::check(&found, &text).with_context(|| {
            format!(
                "{} differs from the generated vectors (regenerate with `binostr vectors -o {}`)",
                path.display(),
                path.display()
            )
        })?;
        println!("{}: up to date", path.display());
        return Ok(());
    }
    match output {
        Some(path) => Ok(write_atomically(path, text.as_bytes())?),
        None => Ok(io::stdout().lock().write_all(text.as_bytes())?),
    }
}
