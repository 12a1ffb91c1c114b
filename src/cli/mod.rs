//! The `qili` command line: one subcommand per job, each a thin layer over
//! the library that turns its typed errors into miette diagnostics.

mod check;
pub mod compare;
mod fmt;
pub mod judge;
mod perft;
pub(crate) mod rules;
mod show;
pub mod survey;

use clap::{Parser, Subcommand, ValueEnum};
use miette::Result;

/// qili — rules on Xiangqi repetition positions (棋例) under every rulebook edition.
#[derive(Debug, Parser)]
#[command(name = "qili", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaves of the legal-move tree (the last line printed is the total).
    Perft(perft::PerftArgs),
    /// Parse a move in any notation and show it in every notation.
    Move(show::MoveArgs),
    /// Validate a FEN and draw the position.
    Board(show::BoardArgs),
    /// Parse, resolve and check rules files; every error at once.
    Check(check::CheckArgs),
    /// Format rules files canonically (`--check`: only report).
    Fmt(fmt::FmtArgs),
    /// Show a rulebook resolved through its `extends` chain, each clause with its lineage.
    ExplainRules(rules::ExplainArgs),
    /// Compare two rulebooks clause by clause.
    Diff(rules::DiffArgs),
    /// Rule on a repetition cycle under a rulebook, move by move, with reasons.
    Judge(judge::JudgeArgs),
    /// Run the case corpus (seed figures) and compare each ruling with its article.
    Test(judge::TestArgs),
    /// Rule one cycle under several rulebooks side by side, the differences marked.
    Compare(compare::CompareArgs),
    /// Which natures, clauses and definitions of a rulebook no case reaches.
    Coverage(compare::CoverageArgs),
    /// Rule every repetition in game records (PGN) under a rulebook and count the outcomes, natures and patterns.
    Survey(survey::SurveyArgs),
    /// Print a shell's completion script for qili (e.g. `qili completions bash > /etc/bash_completion.d/qili`).
    Completions(CompletionsArgs),
}

#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    pub shell: clap_complete::Shell,
}

impl Cli {
    /// Whether the command asked for JSON output (`--format json`). Its
    /// errors are then JSON too, for the scripts that read it.
    pub fn json_output(&self) -> bool {
        use compare::TableFormat as Table;
        match &self.command {
            Command::Check(a) => a.format == Format::Json,
            Command::Move(a) => a.format == Format::Json,
            Command::Judge(a) => a.format == Format::Json,
            Command::Test(a) => a.format == Format::Json,
            Command::ExplainRules(a) => a.format == Format::Json,
            Command::Compare(a) => a.format == Table::Json,
            Command::Coverage(a) => a.format == Table::Json,
            Command::Survey(a) => a.format == Table::Json,
            Command::Diff(a) => a.format == Table::Json,
            _ => false,
        }
    }
}

/// An error as one line of JSON (miette's JSON report: `message`, `code`,
/// `severity`, `help`, `filename`, `labels` with byte `offset` and
/// `length`, `related`), for a command run with `--format json`.
pub fn error_json(report: &miette::Report) -> String {
    let mut out = String::new();
    if miette::JSONReportHandler::new()
        .render_report(&mut out, report.as_ref())
        .is_err()
    {
        out = serde_json::json!({ "message": report.to_string() }).to_string();
    }
    out
}

/// Output format shared by the subcommands that have a machine-readable form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Format {
    #[default]
    Text,
    Json,
}

/// Runs the parsed command line, writing to stdout.
pub fn run(cli: Cli) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match cli.command {
        Command::Perft(args) => perft::run(&args, &mut out),
        Command::Move(args) => show::run_move(&args, &mut out),
        Command::Board(args) => show::run_board(&args, &mut out),
        Command::Check(args) => check::run(&args, &mut out),
        Command::Fmt(args) => fmt::run(&args, &mut out),
        Command::ExplainRules(args) => rules::run_explain(&args, &mut out),
        Command::Diff(args) => rules::run_diff(&args, &mut out),
        Command::Judge(args) => judge::run_judge(&args, &mut out),
        Command::Test(args) => judge::run_test(&args, &mut out),
        Command::Compare(args) => compare::run_compare(&args, &mut out),
        Command::Survey(args) => survey::run_survey(&args, &mut out),
        Command::Coverage(args) => compare::run_coverage(&args, &mut out),
        Command::Completions(args) => {
            use clap::CommandFactory;
            let mut script = Vec::new();
            clap_complete::generate(args.shell, &mut Cli::command(), "qili", &mut script);
            emit(&mut out, &String::from_utf8_lossy(&script))
        }
    }
}

/// Parses a FEN given on the command line into a position, or a diagnostic.
pub(crate) fn position_arg(fen: &str) -> Result<crate::board::Position> {
    crate::board::parse_fen(fen).map_err(miette::Report::new)
}

/// The `--moves` text; `-` reads it from standard input, for a game line
/// too long for the command line or piped from another program.
pub(crate) fn moves_arg(moves: Option<&str>) -> Result<String> {
    match moves {
        Some("-") => {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).map_err(|e| {
                miette::miette!(
                    code = "qili::io",
                    help = "`--moves -` reads the moves as UTF-8 text from standard input",
                    "cannot read the moves from standard input: {e}"
                )
            })?;
            Ok(text)
        }
        Some(text) => Ok(text.to_string()),
        None => Ok(String::new()),
    }
}

/// Writes to the output, turning an I/O failure (a closed pipe) into a diagnostic.
pub(crate) fn emit(out: &mut dyn std::io::Write, text: &str) -> Result<()> {
    out.write_all(text.as_bytes())
        .map_err(|e| miette::miette!(code = "qili::io", "cannot write the output: {e}"))
}
