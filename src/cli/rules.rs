//! `qili explain-rules` and `qili diff`: a rulebook resolved with each
//! clause's lineage, and two rulebooks compared clause by clause.

use std::path::{Path, PathBuf};

use clap::Args;
use miette::{miette, Result};

use super::compare::TableFormat;
use super::judge::Lang;
use crate::judge::Rulebook;
use crate::lang::diff::{diff, explain, explain_data, render_text};
use crate::lang::resolve::Resolved;

/// Loads a rulebook named on the command line (see [`crate::judge::resolve_arg`]).
pub fn load(arg: &str, rules: &Path) -> Result<Resolved> {
    crate::judge::resolve_arg(arg, rules)
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A rules file, or an edition id from the rules folder.
    pub rulebook: String,
    /// Where editions named by id are looked up; the editions built into
    /// qili answer for any it does not hold.
    #[arg(long, default_value = "rules")]
    pub rules: PathBuf,
    /// `json`: the chain, and each item in force with its lineage and text.
    #[arg(long, value_enum, default_value_t)]
    pub format: super::Format,
}

pub fn run_explain(args: &ExplainArgs, out: &mut dyn std::io::Write) -> Result<()> {
    let resolved = load(&args.rulebook, &args.rules)?;
    match args.format {
        super::Format::Text => super::emit(out, &explain(&resolved)),
        super::Format::Json => {
            let json = serde_json::to_string_pretty(&explain_data(&resolved))
                .map_err(|e| miette!(code = "qili::io", "cannot write JSON: {e}"))?;
            super::emit(out, &format!("{json}\n"))
        }
    }
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The older rulebook (a file or an edition id).
    pub left: String,
    /// The newer rulebook.
    pub right: String,
    /// Where editions named by id are looked up; the editions built into
    /// qili answer for any it does not hold.
    #[arg(long, default_value = "rules")]
    pub rules: PathBuf,
    /// Also rule every case under both rulebooks (case files or folders) and
    /// report the cases whose natures or outcome change.
    #[arg(long, num_args = 1..)]
    pub cases: Vec<PathBuf>,
    /// Also rule every repetition in these games (PGN files or folders,
    /// moves in any notation) under both rulebooks and report those whose
    /// natures or outcome change.
    #[arg(long, num_args = 1..)]
    pub games: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t)]
    pub lang: Lang,
    #[arg(long, value_enum, default_value_t = TableFormat::Text)]
    pub format: TableFormat,
}

/// The clause diff and, with `--cases` or `--games`, the corpus and games
/// diffs, as one JSON object.
#[derive(serde::Serialize)]
struct FullDiff {
    clauses: crate::lang::diff::RulebookDiff,
    #[serde(skip_serializing_if = "Option::is_none")]
    corpus: Option<crate::judge::compare::CorpusDiff>,
    #[serde(skip_serializing_if = "Option::is_none")]
    games: Option<crate::judge::compare::GamesDiff>,
}

pub fn run_diff(args: &DiffArgs, out: &mut dyn std::io::Write) -> Result<()> {
    let left = load(&args.left, &args.rules)?;
    let right = load(&args.right, &args.rules)?;
    let d = diff(&left, &right);
    let zh = args.lang == Lang::Zh;
    let books = if args.cases.is_empty() && args.games.is_empty() {
        None
    } else {
        Some((
            Rulebook::from_resolved(left.clone())?,
            Rulebook::from_resolved(right.clone())?,
        ))
    };
    let corpus = match &books {
        Some((a, b)) if !args.cases.is_empty() => {
            Some(super::compare::corpus(a, b, &args.cases, zh)?)
        }
        _ => None,
    };
    let games = match &books {
        Some((a, b)) if !args.games.is_empty() => {
            Some(super::compare::games(a, b, &args.games, zh)?)
        }
        _ => None,
    };
    let text = match args.format {
        TableFormat::Text | TableFormat::Md => {
            let md = args.format == TableFormat::Md;
            let mut t = if md {
                format!(
                    "## {} → {}: the clauses\n\n```\n{}```\n\n",
                    d.left,
                    d.right,
                    render_text(&d)
                )
            } else {
                render_text(&d)
            };
            if let Some(c) = &corpus {
                if !md {
                    t.push('\n');
                }
                t.push_str(&super::compare::corpus_text(c, zh, md));
            }
            if let Some(g) = &games {
                if !md {
                    t.push('\n');
                }
                t.push_str(&super::compare::games_text(g, zh, md));
            }
            t
        }
        TableFormat::Json => {
            // Without `--cases` or `--games` the clause diff alone, as it
            // always was.
            let json = if corpus.is_none() && games.is_none() {
                serde_json::to_string_pretty(&d)
            } else {
                serde_json::to_string_pretty(&FullDiff {
                    clauses: d,
                    corpus,
                    games,
                })
            };
            let mut s = json.map_err(|e| miette!(code = "qili::io", "cannot write JSON: {e}"))?;
            s.push('\n');
            s
        }
    };
    super::emit(out, &text)
}
