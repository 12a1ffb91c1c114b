//! `qili check`: parse, resolve and statically check rules files, printing
//! every diagnostic, then one summary line per file. Exits non-zero when
//! any file has an error, so it can guard a commit or a CI job.

use std::path::{Path, PathBuf};

use clap::Args;
use miette::{Diagnostic, GraphicalReportHandler, Result};

use crate::lang::check::{check, Report};
use crate::lang::primitives::{self, Scope};
use crate::lang::resolve::{resolve, ResolveErrors, Shelf};
use crate::lang::Source;

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The rules files to check.
    #[arg(required_unless_present = "primitives", num_args = 1..)]
    pub files: Vec<PathBuf>,
    /// Where editions named by `extends "id"` are found, as `<id>.qili`;
    /// those it does not hold come from the editions built into qili.
    #[arg(long, default_value = "rules")]
    pub rules: PathBuf,
    /// Print the board primitives a rules file can call, with their types,
    /// where they may be used and the rule concept each serves.
    #[arg(long)]
    pub primitives: bool,
    /// `json`: one document on stdout, `{"files":[{"file","errors",
    /// "warnings","diagnostics":[…]}]}`, each diagnostic miette's JSON
    /// report (for editors and scripts); text diagnostics otherwise go to
    /// stderr. The `--primitives` table is text only, left out of JSON.
    #[arg(long, value_enum, default_value_t)]
    pub format: super::Format,
}

/// What checking one file came to.
#[derive(Debug)]
pub enum Outcome {
    /// The file could not be read.
    Unreadable(miette::Report),
    /// It did not parse or its `extends` chain did not resolve.
    Unresolved(ResolveErrors),
    /// It resolved; the static checks found this.
    Checked(Report),
}

impl Outcome {
    pub fn errors(&self) -> usize {
        match self {
            Outcome::Unreadable(_) => 1,
            Outcome::Unresolved(e) => e.0.len(),
            Outcome::Checked(r) => r.errors.len(),
        }
    }

    pub fn warnings(&self) -> usize {
        match self {
            Outcome::Checked(r) => r.warnings.len(),
            _ => 0,
        }
    }

    /// Every diagnostic, one by one, in reading order.
    pub fn diagnostics(&self) -> Vec<&dyn Diagnostic> {
        match self {
            Outcome::Unreadable(d) => vec![d.as_ref()],
            Outcome::Unresolved(e) => e.0.iter().map(|d| d as &dyn Diagnostic).collect(),
            Outcome::Checked(r) => r.diagnostics().map(|d| d as &dyn Diagnostic).collect(),
        }
    }
}

/// Parses, resolves and checks one file; `rules` is the library of editions.
pub fn check_file(path: &Path, rules: &Path) -> Outcome {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            let d = miette::miette!(
                code = "qili::check::unreadable",
                help = "give the path of a rules file (`.qili`), relative to where qili runs",
                "cannot read `{}`: {e}",
                path.display()
            );
            return Outcome::Unreadable(d);
        }
    };
    let source = Source::new(path.display().to_string(), text);
    match resolve(source, Some(path.to_path_buf()), &Shelf::new(rules)) {
        Ok(resolved) => Outcome::Checked(check(&resolved)),
        Err(e) => Outcome::Unresolved(e),
    }
}

/// `ok <file>` or `<file>: N errors, M warnings`.
pub fn summary(path: &Path, outcome: &Outcome) -> String {
    let (errors, warnings) = (outcome.errors(), outcome.warnings());
    if errors == 0 && warnings == 0 {
        return format!("ok {}", path.display());
    }
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("1 {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    format!(
        "{}: {}, {}",
        path.display(),
        plural(errors, "error"),
        plural(warnings, "warning")
    )
}

/// Renders a diagnostic as the terminal shows it.
fn render(diag: &dyn Diagnostic) -> String {
    let mut out = String::new();
    if GraphicalReportHandler::new()
        .render_report(&mut out, diag)
        .is_err()
    {
        out = format!("{diag}\n");
    }
    out
}

/// The primitives as a reference table: signature, where usable, meaning.
pub fn primitives_table() -> String {
    let mut text = String::new();
    for p in primitives::all() {
        let scope = match p.scope {
            Scope::Move => "move",
            Scope::Cycle => "cycle",
            Scope::Any => "any",
        };
        let signature = p.signature();
        text.push_str(&format!("{signature:<44} {scope:<5}  {}\n", p.doc));
        text.push_str(&format!("{:<44}        {}\n", "", p.concept));
    }
    text.push_str("\nscope: move = natures and clauses; cycle = the verdict; any = anywhere\n");
    text
}

/// A file's outcome as JSON: its counts and every diagnostic as miette's
/// JSON report.
fn outcome_json(path: &Path, outcome: &Outcome) -> serde_json::Value {
    let diagnostics: Vec<serde_json::Value> = outcome
        .diagnostics()
        .into_iter()
        .map(|d| {
            let mut text = String::new();
            let rendered = miette::JSONReportHandler::new().render_report(&mut text, d);
            match rendered
                .ok()
                .and_then(|()| serde_json::from_str(&text).ok())
            {
                Some(v) => v,
                None => serde_json::json!({ "message": d.to_string() }),
            }
        })
        .collect();
    serde_json::json!({
        "file": path.display().to_string(),
        "errors": outcome.errors(),
        "warnings": outcome.warnings(),
        "diagnostics": diagnostics,
    })
}

/// Checks every file: diagnostics go to stderr, summaries to `out`; with
/// `--format json`, one document to `out` instead.
pub fn run(args: &CheckArgs, out: &mut dyn std::io::Write) -> Result<()> {
    let json = args.format == super::Format::Json;
    crate::judge::shelf(&args.rules)?;
    if args.primitives && !json {
        super::emit(out, &primitives_table())?;
    }
    let mut failed = 0;
    let mut files = Vec::new();
    for path in &args.files {
        let outcome = check_file(path, &args.rules);
        if json {
            files.push(outcome_json(path, &outcome));
        } else {
            for d in outcome.diagnostics() {
                eprint!("{}", render(d));
            }
            super::emit(out, &format!("{}\n", summary(path, &outcome)))?;
        }
        if outcome.errors() > 0 {
            failed += 1;
        }
    }
    if json {
        let doc = serde_json::json!({ "files": files });
        let text = serde_json::to_string_pretty(&doc)
            .map_err(|e| miette::miette!(code = "qili::io", "cannot write the JSON: {e}"))?;
        super::emit(out, &format!("{text}\n"))?;
    }
    if failed > 0 {
        return Err(miette::miette!(
            code = "qili::check::failed",
            "{failed} of {} rules files have errors",
            args.files.len()
        ));
    }
    Ok(())
}
