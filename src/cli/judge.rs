//! `qili judge` (one cycle, explained) and `qili test` (the case corpus).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use miette::{miette, Result};

use super::{emit, position_arg, Format};
use crate::board::START_FEN;
use crate::judge::case::{self, compare, Case};
use crate::judge::profile::Profile;
use crate::judge::report::{to_json, to_text};
use crate::judge::survey::{game_repetitions, Found};
use crate::judge::{judge_cycle, last_cycle, Options, Rulebook};
use crate::notation::parse_line;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Lang {
    #[default]
    Zh,
    En,
}

#[derive(Debug, Args)]
pub struct JudgeArgs {
    /// The rulebook: an edition id from the rules folder, or a path to a `.qili` file.
    #[arg(long, default_value = "2011")]
    pub rules: String,
    /// Where editions named by id are looked up; the editions built into
    /// qili answer for any it does not hold.
    #[arg(long, default_value = "rules")]
    pub rules_dir: PathBuf,
    /// The position the moves start from (UCCI FEN).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// The cycle, or a line ending in one, in any notation (`-`: read it
    /// from standard input).
    #[arg(long, required_unless_present_any = ["case", "pgn"])]
    pub moves: Option<String>,
    /// Judge a case file of the corpus instead (its FEN and moves).
    #[arg(long, conflicts_with_all = ["moves"])]
    pub case: Option<PathBuf>,
    /// Judge a repetition of a game record instead: a PGN file (see `--game`
    /// and `--at`).
    #[arg(long, conflicts_with_all = ["moves", "case"])]
    pub pgn: Option<PathBuf>,
    /// With `--pgn`: which game of the file, from 1 (default 1).
    #[arg(long, requires = "pgn", conflicts_with_all = ["moves", "case"])]
    pub game: Option<usize>,
    /// With `--pgn`: the repetition whose position came back the last time
    /// at this move, as `qili survey` names it (`…#<game>@<move>`); by
    /// default the game's last repetition.
    #[arg(long, requires = "pgn", conflicts_with_all = ["moves", "case"])]
    pub at: Option<usize>,
    /// Print the whole trace: every nature and clause, held or not, and the verdict's cases.
    #[arg(long)]
    pub explain: bool,
    #[arg(long, value_enum, default_value_t)]
    pub lang: Lang,
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// Also time every nature, clause, definition and primitive of the
    /// rulebook, and show where the ruling's time went.
    #[arg(long)]
    pub profile: bool,
}

/// Steps a profile table shows before it sums up the rest.
const PROFILE_ROWS: usize = 20;

pub fn run_judge(args: &JudgeArgs, out: &mut dyn std::io::Write) -> Result<()> {
    let book = Rulebook::from_folder(&args.rules, &args.rules_dir)?;
    let (cycle, case, header) = match (&args.case, &args.pgn) {
        (Some(path), _) => {
            let case = case_arg(path)?;
            let start = position_arg(&case.fen)?;
            let line = parse_line(&start, &case.moves).map_err(miette::Report::new)?;
            let cycle = last_cycle(&start, &line, &case.moves).map_err(miette::Report::new)?;
            let header = format!("{} — {}\n{}\n\n", case.id, case.title, case.source);
            (cycle, Some(case), Some(header))
        }
        (None, Some(path)) => {
            let found = game_repetition(path, args.game.unwrap_or(1), args.at)?;
            let header = format!("{} — {}\n{}\n\n", found.id, found.title, found.source);
            (found.repetition.cycle, None, Some(header))
        }
        (None, None) => {
            let moves = super::moves_arg(args.moves.as_deref())?;
            let start = position_arg(&args.fen)?;
            let line = parse_line(&start, &moves).map_err(miette::Report::new)?;
            let cycle = last_cycle(&start, &line, &moves).map_err(miette::Report::new)?;
            (cycle, None, None)
        }
    };
    let ruling = judge_cycle(
        &book,
        cycle,
        Options {
            explain: args.explain,
            profile: args.profile,
            ..Options::default()
        },
    );
    let zh = args.lang == Lang::Zh;
    match args.format {
        Format::Json => {
            let json = serde_json::to_string_pretty(&to_json(&book, &ruling, zh))
                .map_err(|e| miette!(code = "qili::io", "cannot write JSON: {e}"))?;
            emit(out, &format!("{json}\n"))?;
        }
        Format::Text => {
            if let Some(header) = &header {
                emit(out, header)?;
            }
            emit(out, &to_text(&book, &ruling, zh, args.explain))?;
            if let Some(case) = &case {
                for e in case
                    .expect
                    .iter()
                    .filter(|e| e.editions.contains(&book.program.id))
                {
                    let diffs = compare(&book, &ruling, e);
                    let edition = e.stated_for.as_deref().unwrap_or(&book.program.id);
                    let line = match (zh, diffs.is_empty()) {
                        (true, true) => format!("文章（{edition}）：与本裁决一致"),
                        (true, false) => {
                            let d: Vec<String> = diffs.iter().map(|d| d.zh()).collect();
                            format!("文章（{edition}）：{}", d.join("；"))
                        }
                        (false, true) => format!("Article ({edition}): the article agrees"),
                        (false, false) => {
                            let d: Vec<String> = diffs.iter().map(ToString::to_string).collect();
                            format!("Article ({edition}): {}", d.join("; "))
                        }
                    };
                    emit(out, &format!("\n{line}\n"))?;
                }
            }
            if let Some(p) = &ruling.profile {
                emit(out, &format!("\n{}", p.to_text(zh, PROFILE_ROWS)))?;
            }
        }
    }
    Ok(())
}

/// Game `game` (from 1) of the PGN file at `path`, and its repetition
/// that ends at move `at` (by default its last).
fn game_repetition(path: &Path, game: usize, at: Option<usize>) -> Result<Found> {
    let files = super::compare::load_games(&[path.to_path_buf()])?;
    let Some(file) = files.first() else {
        return Err(miette!(
            code = "qili::games::none",
            "no game records in {}",
            path.display()
        ));
    };
    let Some(g) = file.games.iter().find(|g| g.number == game) else {
        return Err(miette!(
            code = "qili::games::no_game",
            help = format!("the games are numbered 1 to {}", file.games.len()),
            "{} holds {} games: there is no game {game}",
            path.display(),
            file.games.len()
        ));
    };
    let mut found = game_repetitions(file, g);
    let ends: Vec<String> = found.iter().map(|f| f.at.to_string()).collect();
    let picked = match at {
        Some(m) => found.iter().position(|f| f.at == m),
        None => found.len().checked_sub(1),
    };
    match picked {
        Some(i) => Ok(found.swap_remove(i)),
        None if ends.is_empty() => Err(miette!(
            code = "qili::games::no_repetition",
            help = g.cut.as_ref().map_or_else(
                || "a repetition is a position that stands again, the same side to move"
                    .to_string(),
                |why| format!("the record was read only up to {why}")
            ),
            "game {game} of {} ({}) has no repetition: no position stands twice",
            path.display(),
            g.label()
        )),
        None => Err(miette!(
            code = "qili::games::no_repetition",
            help = format!("its repetitions end at moves {}", ends.join(", ")),
            "no repetition of game {game} ends at move {}",
            at.unwrap_or_default()
        )),
    }
}

#[derive(Debug, Args)]
pub struct TestArgs {
    /// Run only the expectations of this edition (an id, or a path to a rules file).
    #[arg(long)]
    pub rules: Option<String>,
    /// Where editions named by id are looked up; the editions built into
    /// qili answer for any it does not hold.
    #[arg(long, default_value = "rules")]
    pub rules_dir: PathBuf,
    /// Case files or folders of them.
    #[arg(default_value = "cases")]
    pub cases: Vec<PathBuf>,
    /// Also rule every case once more with a profiler, and show for each
    /// edition where the time went, by nature, clause, definition and
    /// primitive (the timing line still measures the unprofiled rulings).
    #[arg(long)]
    pub profile: bool,
    /// `json`: one document with every result, the timing and the counts
    /// (README, "qili test").
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// The outcome of running the corpus.
#[derive(Debug, Default)]
pub struct TestSummary {
    pub passed: usize,
    pub failed: usize,
    pub known: usize,
    pub skipped: usize,
    pub times: Vec<Duration>,
}

/// How one ruling of the corpus went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The ruling agrees with the article.
    Pass,
    /// It disagrees, and the case says why (a known failure).
    Known,
    /// It disagrees, or it could not be ruled.
    Fail,
    /// No rulebook for the edition.
    Skip,
}

/// What a ruling has, or an article states: the heaviest nature of each
/// move and the outcome.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Natures {
    pub natures: Vec<String>,
    pub outcome: String,
}

/// One line of `qili test`'s report: a case under one edition, or a case
/// file that did not load (`case` and `edition` then empty). Its JSON is
/// an element of `results` in `qili test --format json`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CaseResult {
    pub case: Option<String>,
    pub file: String,
    pub edition: Option<String>,
    pub status: Status,
    /// Why it failed to be ruled, why it is a known failure, or that a
    /// known failure agrees now.
    pub note: Option<String>,
    /// The article's expectation (only for a case that was ruled).
    pub expected: Option<Natures>,
    /// The ruling's.
    pub found: Option<Natures>,
    /// Each difference, in words (as the text report prints them).
    pub differences: Vec<String>,
    /// The ruling's time, in microseconds.
    pub micros: Option<u64>,
}

impl CaseResult {
    /// Its lines in the text report.
    fn text(&self) -> String {
        let status = match self.status {
            Status::Pass => "PASS",
            Status::Known => "KNOWN",
            Status::Fail => "FAIL",
            Status::Skip => "SKIP",
        };
        let mut out = match (&self.case, &self.edition) {
            (Some(case), Some(edition)) => format!("{status} {case} [{edition}]"),
            _ => format!("{status} {}", self.file),
        };
        match (self.status, &self.note) {
            (Status::Pass, Some(note)) => out.push_str(&format!(" ({note})")),
            (_, Some(note)) => out.push_str(&format!(": {note}")),
            _ => {}
        }
        out.push('\n');
        for d in &self.differences {
            out.push_str(&format!("    {d}\n"));
        }
        out
    }
}

/// `qili test --format json`: every result, the timing line's figures and
/// the counts.
#[derive(Debug, serde::Serialize)]
struct CorpusJson<'a> {
    results: &'a [CaseResult],
    timing: Timing,
    passed: usize,
    failed: usize,
    known: usize,
    skipped: usize,
    /// With `--profile`: by edition, where the time went.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    profiles: BTreeMap<String, Profile>,
}

#[derive(Debug, serde::Serialize)]
struct Timing {
    cycles: usize,
    median_us: u64,
    p99_us: u64,
}

/// A case file: on disk, or built into the program
/// ([`crate::judge::case::BUNDLED_CASES`]).
#[derive(Clone, Debug)]
pub enum CaseFile {
    Disk(PathBuf),
    BuiltIn {
        /// The path from the project root (`cases/s3-2.toml`).
        path: &'static str,
        text: &'static str,
    },
}

impl CaseFile {
    /// As reports and diagnostics name it: a built-in file as
    /// `<built-in>/cases/s3-2.toml`.
    pub fn name(&self) -> String {
        match self {
            CaseFile::Disk(p) => p.display().to_string(),
            CaseFile::BuiltIn { path, .. } => format!("{}/{path}", case::BUILT_IN),
        }
    }

    /// Every case it holds (see [`Case::load_all`]).
    pub fn load_all(&self) -> std::result::Result<Vec<Case>, case::CaseError> {
        match self {
            CaseFile::Disk(p) => Case::load_all(p),
            CaseFile::BuiltIn { text, .. } => Case::parse_all(&self.name(), text),
        }
    }
}

/// The case files under `paths`: `.toml` cases and `.jsonl` peer files,
/// folders searched recursively, each folder's files in name order. A path
/// that is not on disk names the built-in corpus where it can (`cases`,
/// the default, run outside the checkout: the whole corpus built in).
pub fn case_files(paths: &[PathBuf]) -> Result<Vec<CaseFile>> {
    let mut out = Vec::new();
    for p in paths {
        if p.exists() {
            out.extend(
                files_under(std::slice::from_ref(p), &["toml", "jsonl"], &no_cases)?
                    .into_iter()
                    .map(CaseFile::Disk),
            );
            continue;
        }
        let built_in = p.to_str().map(case::bundled_under).unwrap_or_default();
        if built_in.is_empty() {
            return Err(no_cases(p));
        }
        out.extend(
            built_in
                .into_iter()
                .map(|(path, text)| CaseFile::BuiltIn { path, text }),
        );
    }
    Ok(out)
}

fn no_cases(p: &std::path::Path) -> miette::Report {
    miette!(
        code = "qili::test::no_cases",
        help = "give case files or the folder holding them (default: cases; outside the \
                checkout, the corpus built into qili)",
        "{} is neither a case file nor a folder, nor a part of the built-in corpus",
        p.display()
    )
}

/// The case `--case` names: a file on disk, else a built-in one by its
/// path, file name, stem or id (`cases/s3-2.toml`, `s3-2`, `S3-2`).
pub fn case_arg(arg: &std::path::Path) -> Result<Case> {
    if !arg.exists() {
        if let Some((path, text)) = arg.to_str().and_then(case::bundled_case) {
            let name = CaseFile::BuiltIn { path, text }.name();
            return Case::parse(&name, text).map_err(miette::Report::new);
        }
    }
    Case::load(arg).map_err(|e| {
        let wanted = arg.to_string_lossy();
        let wanted = wanted.trim_end_matches(".toml");
        let wanted = wanted.rsplit('/').next().unwrap_or(wanted).to_lowercase();
        let hint = match crate::lang::suggest::closest(&wanted, case::bundled_stems()) {
            Some(near) => format!(" (did you mean `{near}`?)"),
            None => " (a path such as cases/s3-2.toml, or an id such as s3-2)".to_string(),
        };
        miette::Report::new(e).wrap_err(format!(
            "no such case file, and no case of the built-in corpus by that name{hint}"
        ))
    })
}

/// The files named, and those under the folders named (sorted, into
/// subfolders) whose extension is one of `exts`; `missing` says what a path
/// that is neither is.
pub fn files_under(
    paths: &[PathBuf],
    exts: &[&str],
    missing: &dyn Fn(&std::path::Path) -> miette::Report,
) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let entries = std::fs::read_dir(p)
                .map_err(|e| miette!(code = "qili::io", "cannot read {}: {e}", p.display()))?;
            let mut found: Vec<PathBuf> =
                entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            found.sort();
            let (dirs, found): (Vec<PathBuf>, Vec<PathBuf>) =
                found.into_iter().partition(|p| p.is_dir());
            files.extend(found.into_iter().filter(|p| {
                p.extension()
                    .and_then(|x| x.to_str())
                    .is_some_and(|x| exts.contains(&x))
            }));
            files.extend(files_under(&dirs, exts, missing)?);
        } else if p.is_file() {
            files.push(p.clone());
        } else {
            return Err(missing(p));
        }
    }
    Ok(files)
}

/// Runs the corpus and writes the report (as it goes in text, at the end
/// in JSON); the summary says how it went.
pub fn run_corpus(args: &TestArgs, out: &mut dyn std::io::Write) -> Result<TestSummary> {
    let json = args.format == Format::Json;
    crate::judge::shelf(&args.rules_dir)?;
    let files = case_files(&args.cases)?;
    let only = match &args.rules {
        Some(r) => Some(Rulebook::from_folder(r, &args.rules_dir)?),
        None => None,
    };
    let mut books: BTreeMap<String, Loaded> = BTreeMap::new();
    let mut sum = TestSummary::default();
    let mut results: Vec<CaseResult> = Vec::new();
    let mut report = |r: CaseResult, sum: &mut TestSummary| -> Result<()> {
        match r.status {
            Status::Pass => sum.passed += 1,
            Status::Known => sum.known += 1,
            Status::Fail => sum.failed += 1,
            Status::Skip => sum.skipped += 1,
        }
        if !json {
            emit(out, &r.text())?;
        }
        results.push(r);
        Ok(())
    };
    let mut to_profile = Vec::new();
    let mut cases = Vec::new();
    for file in files {
        let name = file.name();
        match file.load_all() {
            Ok(c) => cases.extend(c.into_iter().map(|c| (name.clone(), c))),
            Err(e) => report(
                CaseResult {
                    case: None,
                    file: name,
                    edition: None,
                    status: Status::Fail,
                    note: Some(e.to_string()),
                    expected: None,
                    found: None,
                    differences: Vec::new(),
                    micros: None,
                },
                &mut sum,
            )?,
        }
    }
    for (file, case) in cases {
        for e in &case.expect {
            for edition in &e.editions {
                let result = |status, note: Option<String>| CaseResult {
                    case: Some(case.id.clone()),
                    file: file.clone(),
                    edition: Some(edition.clone()),
                    status,
                    note,
                    expected: None,
                    found: None,
                    differences: Vec::new(),
                    micros: None,
                };
                let loaded = match &only {
                    Some(b) if b.program.id == *edition => None,
                    Some(_) => continue,
                    None => Some(
                        books
                            .entry(edition.clone())
                            .or_insert_with(|| load(edition, &args.rules_dir)),
                    ),
                };
                let book = match (loaded, &only) {
                    (None, Some(b)) => b,
                    (Some(Loaded::Book(b)), _) => b,
                    (Some(Loaded::Broken(why)), _) => {
                        // A rules file that does not load is a failure, not
                        // a skip: every case under it would otherwise pass
                        // silently.
                        report(result(Status::Fail, Some(why.clone())), &mut sum)?;
                        continue;
                    }
                    _ => {
                        let note = "no rules file for this edition".to_string();
                        report(result(Status::Skip, Some(note)), &mut sum)?;
                        continue;
                    }
                };
                let cycle = match prepare(&case) {
                    Ok(c) => c,
                    Err(why) => {
                        report(result(Status::Fail, Some(why)), &mut sum)?;
                        continue;
                    }
                };
                if args.profile {
                    // Profiled after the corpus, not to disturb its timing.
                    to_profile.push((edition.clone(), cycle.clone()));
                }
                let t = Instant::now();
                let ruling = judge_cycle(book, cycle, Options::default());
                let took = t.elapsed();
                sum.times.push(took);
                let diffs = compare(book, &ruling, e);
                let (status, note) = match (&e.known_failure, diffs.is_empty()) {
                    (None, true) => (Status::Pass, None),
                    (Some(_), true) => (
                        Status::Pass,
                        Some(
                            "marked as a known failure, but it agrees now: remove the mark"
                                .to_string(),
                        ),
                    ),
                    (Some(why), false) => (Status::Known, Some(why.clone())),
                    (None, false) => (Status::Fail, None),
                };
                let found = Natures {
                    natures: ruling
                        .moves
                        .iter()
                        .map(|m| book.program.nature_name(m.heaviest).to_string())
                        .collect(),
                    outcome: crate::judge::report::outcome_id(ruling.outcome).to_string(),
                };
                let r = CaseResult {
                    expected: Some(Natures {
                        natures: e.natures.clone(),
                        outcome: e.outcome.clone(),
                    }),
                    found: Some(found),
                    differences: diffs.iter().map(ToString::to_string).collect(),
                    micros: Some(u64::try_from(took.as_micros()).unwrap_or(u64::MAX)),
                    ..result(status, note)
                };
                report(r, &mut sum)?;
            }
        }
    }
    let mut profiles: BTreeMap<String, Profile> = BTreeMap::new();
    for (edition, cycle) in to_profile {
        let book = match (&only, books.get(&edition)) {
            (Some(b), _) => b,
            (None, Some(Loaded::Book(b))) => b,
            _ => continue,
        };
        let opts = Options {
            profile: true,
            ..Options::default()
        };
        if let Some(p) = judge_cycle(book, cycle, opts).profile {
            profiles.entry(edition).or_default().merge(&p);
        }
    }
    let (median, p99) = percentiles(&mut sum.times);
    let micros = |d: Duration| u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
    if json {
        let doc = CorpusJson {
            results: &results,
            timing: Timing {
                cycles: sum.times.len(),
                median_us: micros(median),
                p99_us: micros(p99),
            },
            passed: sum.passed,
            failed: sum.failed,
            known: sum.known,
            skipped: sum.skipped,
            profiles,
        };
        let text = serde_json::to_string_pretty(&doc)
            .map_err(|e| miette!(code = "qili::json", "cannot write JSON: {e}"))?;
        emit(out, &format!("{text}\n"))?;
        return Ok(sum);
    }
    for (edition, p) in &profiles {
        emit(
            out,
            &format!("\n[{edition}] {}", p.to_text(false, PROFILE_ROWS)),
        )?;
    }
    if !profiles.is_empty() {
        emit(out, "\n")?;
    }
    emit(
        out,
        &format!(
            "ruled {} cycles: median {} µs, p99 {} µs\n",
            sum.times.len(),
            median.as_micros(),
            p99.as_micros()
        ),
    )?;
    if sum.known + sum.skipped > 0 {
        emit(
            out,
            &format!("{} known failures, {} skipped\n", sum.known, sum.skipped),
        )?;
    }
    emit(
        out,
        &format!("{} passed, {} failed\n", sum.passed, sum.failed),
    )?;
    Ok(sum)
}

/// An edition's rulebook as `qili test` found it.
enum Loaded {
    Book(Box<Rulebook>),
    /// No `<edition>.qili` in the rules folder nor built in: its cases are
    /// skipped.
    Missing,
    /// The file is there but does not load; the text says why.
    Broken(String),
}

/// The edition from the rules folder, or else built into qili.
fn load(edition: &str, dir: &Path) -> Loaded {
    let path = dir.join(format!("{edition}.qili"));
    let bundled = crate::lang::resolve::BUNDLED
        .iter()
        .any(|(id, _)| *id == edition);
    if !path.is_file() && !bundled {
        return Loaded::Missing;
    }
    match Rulebook::from_folder(edition, dir) {
        Ok(b) => Loaded::Book(Box::new(b)),
        Err(e) if path.is_file() => Loaded::Broken(format!(
            "{} does not load ({e}); `qili check {}` shows where",
            path.display(),
            path.display()
        )),
        Err(e) => Loaded::Broken(format!(
            "the built-in edition {edition} does not load ({e})"
        )),
    }
}

/// The case's position and cycle, or why they cannot be judged.
pub fn prepare(case: &Case) -> std::result::Result<crate::judge::Cycle, String> {
    let start = crate::board::parse_fen(&case.fen).map_err(|e| format!("bad FEN: {e}"))?;
    let line = parse_line(&start, &case.moves).map_err(|e| format!("bad moves: {e}"))?;
    let cycle = last_cycle(&start, &line, &case.moves).map_err(|e| e.to_string())?;
    if cycle.offset != 0 && !case.line {
        return Err(format!(
            "the moves do not return to the start position (the cycle starts after move {})",
            cycle.offset
        ));
    }
    Ok(cycle)
}

fn percentiles(times: &mut [Duration]) -> (Duration, Duration) {
    if times.is_empty() {
        return (Duration::ZERO, Duration::ZERO);
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99))
}

pub fn run_test(args: &TestArgs, out: &mut dyn std::io::Write) -> Result<()> {
    let sum = run_corpus(args, out)?;
    if sum.failed > 0 {
        return Err(miette!(
            code = "qili::test::failed",
            "{} of {} rulings disagree with their articles",
            sum.failed,
            sum.failed + sum.passed + sum.known
        ));
    }
    Ok(())
}
