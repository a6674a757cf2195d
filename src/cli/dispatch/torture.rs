//! `binostr torture generate|run|child`.

use std::io::{self, IsTerminal};

use anyhow::{Context, Result, bail};

use crate::cli::args::TortureCommand;
use crate::files::write_atomically;

pub(super) fn run_torture(command: TortureCommand) -> Result<()> {
    use crate::torture::{self, run};
    match command {
        TortureCommand::Generate {
            seed,
            mutations,
            bomb_depth,
            dir,
        } => {
            let s = torture::generate(&dir, seed, mutations, bomb_depth)
                .with_context(|| dir.display().to_string())?;
            println!(
                "wrote {} cases and {} bomb recipes ({} bytes) for {} profiles to {}; {mutations} mutations per profile (seed {seed}) are regenerated at run time",
                s.cases,
                s.recipes,
                s.bytes,
                s.profiles,
                dir.display()
            );
            Ok(())
        }
        TortureCommand::Run {
            json,
            out,
            timeout,
            mem_limit_mib,
            jobs,
            subject,
            dir,
        } => {
            let opts = run::RunOptions {
                dir: dir.clone(),
                timeout: std::time::Duration::from_secs(timeout),
                mem_limit_mib,
                jobs: jobs
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                only: subject,
                progress: io::stderr().is_terminal(),
            };
            let report = run::run(&opts).with_context(|| dir.display().to_string())?;
            let md = run::render_markdown(&report);
            write_atomically(
                &out.join("robustness.json"),
                (serde_json::to_string_pretty(&report)? + "\n").as_bytes(),
            )?;
            write_atomically(&out.join("robustness.md"), md.as_bytes())?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{md}");
            }
            if report.failures > 0 {
                bail!(
                    "{} failures in our profiles; see {}",
                    report.failures,
                    out.join("robustness.md").display()
                );
            }
            Ok(())
        }
        TortureCommand::Child {
            subject,
            isolated,
            from,
            to,
            every,
            mem_limit_mib,
            dir,
        } => Ok(run::child(
            &dir,
            &subject,
            isolated,
            (from, to),
            every.max(1),
            mem_limit_mib,
        )?),
    }
}
