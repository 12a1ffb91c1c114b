//! `qili explain-rules` and `qili diff`: a rulebook resolved with each
//! clause's lineage, and two rulebooks compared clause by clause.

use std::path::{Path, PathBuf};

use clap::Args;
use miette::{miette, Result};

use super::Format;
use crate::lang::diff::{diff, explain, render_text};
use crate::lang::resolve::Resolved;

/// Loads a rulebook named on the command line (see [`crate::judge::resolve_arg`]).
pub fn load(arg: &str, rules: &Path) -> Result<Resolved> {
    crate::judge::resolve_arg(arg, rules)
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A rules file, or an edition id from the rules folder.
    pub rulebook: String,
    /// Where editions named by id are looked up.
    #[arg(long, default_value = "rules")]
    pub rules: PathBuf,
}

pub fn run_explain(args: &ExplainArgs, out: &mut dyn std::io::Write) -> Result<()> {
    let resolved = load(&args.rulebook, &args.rules)?;
    super::emit(out, &explain(&resolved))
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The older rulebook (a file or an edition id).
    pub left: String,
    /// The newer rulebook.
    pub right: String,
    #[arg(long, default_value = "rules")]
    pub rules: PathBuf,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run_diff(args: &DiffArgs, out: &mut dyn std::io::Write) -> Result<()> {
    let left = load(&args.left, &args.rules)?;
    let right = load(&args.right, &args.rules)?;
    let d = diff(&left, &right);
    let text = match args.format {
        Format::Text => render_text(&d),
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&d)
                .map_err(|e| miette!(code = "qili::io", "cannot write JSON: {e}"))?;
            s.push('\n');
            s
        }
    };
    super::emit(out, &text)
}
