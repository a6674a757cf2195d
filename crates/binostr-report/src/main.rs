//! `binostr-report`: summaries, paper inputs and plots from campaign run
//! records (`docs/RESULTS.md`).
#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Aggregate the complete runs of one or more campaign labels (possibly
    /// from different hosts) into results/campaigns/<first label>/summary/
    /// (with plots) and paper/generated/.
    Aggregate {
        /// Campaign labels; the first names the output directory and the
        /// primary host (paper tables, macros and plots).
        #[arg(required = true)]
        labels: Vec<String>,
        /// Repository root holding results/ and paper/.
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Skip the plots.
        #[arg(long)]
        no_plots: bool,
        /// Mark each claim with whether it also holds on this label's
        /// campaign (typically the other corpus: real events or generated).
        #[arg(long)]
        holds_on: Option<String>,
    },
    /// Write the self-contained results page of one label into
    /// results/campaigns/<label>/site/index.html (needs its summary/plots/,
    /// written by aggregate).
    Page {
        /// Campaign label.
        label: String,
        /// Repository root holding results/ and paper/.
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Write index.html into this directory instead.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Mark each claim with whether it also holds on this label's campaign
        /// [default: the label summary.json records, from aggregate --holds-on].
        #[arg(long)]
        holds_on: Option<String>,
    },
    /// Draw only the plots of one or more labels.
    Plots {
        /// Campaign labels, as for aggregate.
        #[arg(required = true)]
        labels: Vec<String>,
        /// Repository root holding results/.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Aggregate {
            labels,
            root,
            no_plots,
            holds_on,
        } => binostr_report::aggregate_holding(&root, &labels, !no_plots, holds_on.as_deref()),
        Command::Plots { labels, root } => binostr_report::plots_only(&root, &labels),
        Command::Page {
            label,
            root,
            out,
            holds_on,
        } => binostr_report::page_holding(&root, &label, out.as_deref(), holds_on.as_deref())
            .map(|p| vec![p]),
    };
    match result {
        Ok(files) => {
            for f in files {
                println!("{}", f.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("binostr-report: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
