//! `qili compare` (one cycle, a column per edition), the corpus and games
//! halves of `qili diff A B --cases/--games`, and `qili coverage` (what no
//! case reaches).

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use miette::{miette, Result};

use super::judge::{case_files, files_under, prepare, Lang};
use super::{emit, position_arg};
use crate::judge::case::Case;
use crate::judge::compare::{
    compare, corpus_diff, coverage, games_diff, CaseChange, Comparison, CorpusDiff, Coverage,
    GamesDiff, ItemRef,
};
use crate::judge::report::outcome_words;
use crate::judge::{last_cycle, Rulebook};
use crate::lang::fmt::width;
use crate::notation::parse_line;
use crate::notation::pgn::GameFile;

/// Output of the committee tools: a terminal table, Markdown to paste into
/// a paper, or JSON for tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum TableFormat {
    #[default]
    Text,
    Md,
    Json,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The rulebooks, comma-separated: edition ids from the rules folder or paths.
    #[arg(long, value_delimiter = ',', required = true)]
    pub rules: Vec<String>,
    /// Where editions named by id are looked up; the editions built into
    /// qili answer for any it does not hold.
    #[arg(long, default_value = "rules")]
    pub rules_dir: PathBuf,
    /// The position the moves start from (UCCI FEN).
    #[arg(long, default_value = crate::board::START_FEN)]
    pub fen: String,
    /// The cycle, or a line ending in one, in any notation (`-`: read it
    /// from standard input).
    #[arg(long, required_unless_present = "case")]
    pub moves: Option<String>,
    /// Compare a corpus case instead (its FEN and moves).
    #[arg(long, conflicts_with_all = ["moves"])]
    pub case: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t)]
    pub lang: Lang,
    #[arg(long, value_enum, default_value_t)]
    pub format: TableFormat,
}

fn load_books(ids: &[String], dir: &std::path::Path) -> Result<Vec<Rulebook>> {
    ids.iter()
        .map(|r| Rulebook::from_folder(r.trim(), dir))
        .collect()
}

pub fn run_compare(args: &CompareArgs, out: &mut dyn std::io::Write) -> Result<()> {
    let (fen, moves) = match &args.case {
        Some(path) => {
            let case = Case::load(path).map_err(miette::Report::new)?;
            (case.fen, case.moves)
        }
        None => (args.fen.clone(), super::moves_arg(args.moves.as_deref())?),
    };
    let books = load_books(&args.rules, &args.rules_dir)?;
    let refs: Vec<&Rulebook> = books.iter().collect();
    let start = position_arg(&fen)?;
    let line = parse_line(&start, &moves).map_err(miette::Report::new)?;
    let cycle = last_cycle(&start, &line, &moves).map_err(miette::Report::new)?;
    let zh = args.lang == Lang::Zh;
    let cmp = compare(&refs, &cycle, zh);
    let text = match args.format {
        TableFormat::Json => json(&cmp)?,
        TableFormat::Md => comparison_md(&cmp, zh),
        TableFormat::Text => comparison_text(&cmp, zh),
    };
    emit(out, &text)
}

fn json<T: serde::Serialize>(v: &T) -> Result<String> {
    let mut s = serde_json::to_string_pretty(v)
        .map_err(|e| miette!(code = "qili::io", "cannot write JSON: {e}"))?;
    s.push('\n');
    Ok(s)
}

fn pad(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(width(s))))
}

fn items(list: &[ItemRef]) -> String {
    list.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Rows of cells, padded into columns; a `*` marks the rows that differ.
fn table(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| width(s))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let cells: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, s)| pad(s, widths[i]))
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

fn side_label(side: &str, zh: bool) -> &'static str {
    match (side, zh) {
        ("red", true) => "红",
        ("red", false) => "Red",
        (_, true) => "黑",
        (_, false) => "Black",
    }
}

/// The comparison as a terminal table; differing rows marked `*`, with the
/// items responsible listed under the table.
pub fn comparison_text(c: &Comparison, zh: bool) -> String {
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut head = vec![
        String::new(),
        (if zh { "着法" } else { "move" }).to_string(),
    ];
    head.extend(c.editions.iter().cloned());
    rows.push(head);
    for m in &c.moves {
        let mut r = vec![
            (if m.differs { "*" } else { "" }).to_string(),
            format!("{}. {} {}", m.ply, side_label(m.side, zh), m.name(zh)),
        ];
        r.extend(m.natures.iter().cloned());
        rows.push(r);
    }
    for (label, side) in [
        (if zh { "红方" } else { "Red" }, &c.red),
        (if zh { "黑方" } else { "Black" }, &c.black),
    ] {
        let mut r = vec![String::new(), label.to_string()];
        r.extend(side.summaries.iter().zip(&side.statuses).map(|(s, st)| {
            let st = match (st.as_str(), zh) {
                ("forbidden", true) => "（禁止）",
                ("allowed", true) => "（允许）",
                ("forbidden", false) => " (forbidden)",
                ("allowed", false) => " (allowed)",
                _ => "",
            };
            format!("{s}{st}")
        }));
        rows.push(r);
    }
    let mut r = vec![
        (if c.outcome_differs { "*" } else { "" }).to_string(),
        (if zh { "裁决" } else { "outcome" }).to_string(),
    ];
    r.extend(c.outcomes.iter().map(|o| outcome_words(o, zh).to_string()));
    rows.push(r);
    let mut out = String::new();
    for (e, t) in c.editions.iter().zip(&c.titles) {
        out.push_str(&format!("{e}: {t}\n"));
    }
    out.push('\n');
    out.push_str(&table(&rows));
    let differing: Vec<_> = c.moves.iter().filter(|m| m.differs).collect();
    if !differing.is_empty() || c.outcome_differs {
        out.push('\n');
        out.push_str(if zh {
            "* 各版本不同之处，及造成不同的条文：\n"
        } else {
            "* where the editions differ, and the items that make them differ:\n"
        });
        for m in differing {
            out.push_str(&format!(
                "  {}. {}: {}\n",
                m.ply,
                m.name(zh),
                if m.responsible.is_empty() {
                    "—".to_string()
                } else {
                    items(&m.responsible)
                }
            ));
            for (e, why) in c.editions.iter().zip(&m.reasons) {
                out.push_str(&format!("      {e}: {why}\n"));
            }
        }
        if c.outcome_differs {
            out.push_str(&format!(
                "  {}: {}\n",
                if zh { "裁决" } else { "outcome" },
                items(&c.outcome_responsible)
            ));
        }
    }
    out.push('\n');
    for (e, w) in c.editions.iter().zip(&c.rulings) {
        out.push_str(&format!("{e}: {w}\n"));
    }
    out
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The comparison as a Markdown table.
pub fn comparison_md(c: &Comparison, zh: bool) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "| {} | {} |\n|---|{}\n",
        if zh { "着法" } else { "move" },
        c.editions.join(" | "),
        "---|".repeat(c.editions.len())
    ));
    for m in &c.moves {
        let cells: Vec<String> = m
            .natures
            .iter()
            .map(|n| {
                if m.differs {
                    format!("**{n}**")
                } else {
                    n.clone()
                }
            })
            .collect();
        out.push_str(&format!(
            "| {}. {} {} | {} |\n",
            m.ply,
            side_label(m.side, zh),
            m.name(zh),
            cells.join(" | ")
        ));
    }
    for (label, side) in [
        (if zh { "红方" } else { "Red" }, &c.red),
        (if zh { "黑方" } else { "Black" }, &c.black),
    ] {
        out.push_str(&format!("| {label} | {} |\n", side.summaries.join(" | ")));
    }
    let outcomes: Vec<String> = c
        .outcomes
        .iter()
        .map(|o| {
            let o = outcome_words(o, zh);
            if c.outcome_differs {
                format!("**{o}**")
            } else {
                o.to_string()
            }
        })
        .collect();
    out.push_str(&format!(
        "| {} | {} |\n",
        if zh { "裁决" } else { "outcome" },
        outcomes.join(" | ")
    ));
    let differing: Vec<_> = c.moves.iter().filter(|m| m.differs).collect();
    if !differing.is_empty() {
        out.push('\n');
        for m in differing {
            out.push_str(&format!(
                "- {}. {} — {}\n",
                m.ply,
                m.name(zh),
                if m.responsible.is_empty() {
                    "—".to_string()
                } else {
                    format!("`{}`", items(&m.responsible).replace(", ", "`, `"))
                }
            ));
            for (e, why) in c.editions.iter().zip(&m.reasons) {
                out.push_str(&format!("  - {e}: {}\n", md_cell(why)));
            }
        }
    }
    if c.outcome_differs && !c.outcome_responsible.is_empty() {
        out.push_str(&format!(
            "- {}: `{}`\n",
            if zh { "裁决" } else { "outcome" },
            items(&c.outcome_responsible).replace(", ", "`, `")
        ));
    }
    out
}

/// Loads every case under `paths` (`.toml` and peer `.jsonl`).
pub fn load_cases(paths: &[PathBuf]) -> Result<Vec<Case>> {
    let mut cases = Vec::new();
    for f in case_files(paths)? {
        cases.extend(f.load_all().map_err(miette::Report::new)?);
    }
    Ok(cases)
}

/// The corpus half of `qili diff A B --cases`.
pub fn corpus(a: &Rulebook, b: &Rulebook, paths: &[PathBuf], zh: bool) -> Result<CorpusDiff> {
    let cases = load_cases(paths)?;
    Ok(corpus_diff(a, b, &cases, prepare, zh))
}

pub fn corpus_text(d: &CorpusDiff, zh: bool, md: bool) -> String {
    let mut out = if md {
        format!("## {} → {}: the corpus\n\n", d.left, d.right)
    } else {
        format!("corpus: {} → {}\n\n", d.left, d.right)
    };
    push_changes(&mut out, &d.changed, zh, md);
    for (id, why) in &d.unjudged {
        out.push_str(&format!("not judged {id}: {why}\n"));
    }
    let bold = if md { "**" } else { "" };
    out.push_str(&format!(
        "{bold}{} of {} cases change ({} outcomes){bold}\n",
        d.changed.len(),
        d.cases,
        d.outcomes_changed
    ));
    out
}

/// Each changed case or repetition: its name, then the comparison.
fn push_changes(out: &mut String, changed: &[CaseChange], zh: bool, md: bool) {
    for c in changed {
        if md {
            out.push_str(&format!("### {} — {}\n\n", c.id, md_cell(&c.title)));
            out.push_str(&comparison_md(&c.comparison, zh));
        } else {
            out.push_str(&format!("== {} — {}\n", c.id, c.title));
            out.push_str(&comparison_text(&c.comparison, zh));
        }
        out.push('\n');
    }
}

/// The game files under `paths` (`.pgn` files and folders of them), read.
pub fn load_games(paths: &[PathBuf]) -> Result<Vec<GameFile>> {
    let files = files_under(paths, &["pgn"], &|p| {
        miette!(
            code = "qili::games::missing",
            help =
                "give PGN files or the folder holding them (data/games holds 2,516 master games)",
            "{} is neither a game file nor a folder",
            p.display()
        )
    })?;
    if files.is_empty() {
        let named: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(miette!(
            code = "qili::games::none",
            help = "a folder is searched for `.pgn` files, its subfolders too; name other files one by one",
            "no game records under {}",
            named.join(", ")
        ));
    }
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f)
                .map_err(|e| miette!(code = "qili::io", "cannot read {}: {e}", f.display()))?;
            Ok(GameFile {
                stem: f
                    .file_stem()
                    .map_or_else(String::new, |s| s.to_string_lossy().into_owned()),
                path: f.display().to_string(),
                games: crate::notation::pgn::read_games(&text),
            })
        })
        .collect()
}

/// The games half of `qili diff A B --games`.
pub fn games(a: &Rulebook, b: &Rulebook, paths: &[PathBuf], zh: bool) -> Result<GamesDiff> {
    let files = load_games(paths)?;
    Ok(games_diff(a, b, &files, prepare, zh))
}

pub fn games_text(d: &GamesDiff, zh: bool, md: bool) -> String {
    let mut out = if md {
        format!("## {} → {}: the games\n\n", d.left, d.right)
    } else {
        format!("games: {} → {}\n\n", d.left, d.right)
    };
    push_changes(&mut out, &d.changed, zh, md);
    for (at, why) in &d.cut {
        out.push_str(&format!("read in part {at}: {why}\n"));
    }
    for (id, why) in &d.unjudged {
        out.push_str(&format!("not judged {id}: {why}\n"));
    }
    let bold = if md { "**" } else { "" };
    if !d.duplicates.is_empty() {
        out.push_str(&format!(
            "{} records repeat an earlier one and are passed over\n",
            d.duplicates.len()
        ));
    }
    out.push_str(&format!(
        "{bold}{} of {} repetitions in {} games change ({} outcomes){bold}\n",
        d.changed.len(),
        d.repetitions,
        d.games,
        d.outcomes_changed
    ));
    out
}

#[derive(Debug, Args)]
pub struct CoverageArgs {
    /// The rulebook: an edition id from the rules folder, or a path.
    #[arg(long, default_value = "2011")]
    pub rules: String,
    /// Where editions named by id are looked up; the editions built into
    /// qili answer for any it does not hold.
    #[arg(long, default_value = "rules")]
    pub rules_dir: PathBuf,
    /// Case files or folders (default: cases).
    #[arg(default_value = "cases")]
    pub cases: Vec<PathBuf>,
    /// Judge only the cases whose expectations name this rulebook's edition
    /// (by default every case is judged under it).
    #[arg(long)]
    pub own: bool,
    #[arg(long, value_enum, default_value_t)]
    pub format: TableFormat,
}

pub fn run_coverage(args: &CoverageArgs, out: &mut dyn std::io::Write) -> Result<()> {
    let book = Rulebook::from_folder(&args.rules, &args.rules_dir)?;
    let mut cases = load_cases(&args.cases)?;
    if args.own {
        cases.retain(|c| {
            c.expect
                .iter()
                .any(|e| e.editions.iter().any(|x| x == book.id()))
        });
    }
    let cov = coverage(&book, &cases, prepare);
    let text = match args.format {
        TableFormat::Json => json(&cov)?,
        TableFormat::Text | TableFormat::Md => coverage_text(&cov, args.format == TableFormat::Md),
    };
    emit(out, &text)
}

pub fn coverage_text(c: &Coverage, md: bool) -> String {
    let mut out = String::new();
    let unreached: Vec<&ItemRef> = c
        .items
        .iter()
        .filter(|(_, by)| by.is_empty())
        .map(|(i, _)| i)
        .collect();
    out.push_str(&format!(
        "{}coverage of {} by {} cases\n\n",
        if md { "## " } else { "" },
        c.rules,
        c.cases
    ));
    for (it, by) in &c.items {
        let mark = if by.is_empty() { "✗" } else { "✓" };
        let shown: Vec<&str> = by.iter().take(6).map(String::as_str).collect();
        let more = if by.len() > shown.len() {
            format!(" …(+{})", by.len() - shown.len())
        } else {
            String::new()
        };
        out.push_str(&format!(
            "{}{mark} {it}: {} {}{more}\n",
            if md { "- " } else { "" },
            by.len(),
            shown.join(" ")
        ));
    }
    out.push_str(&format!(
        "\n{} of {} items reached; not reached: {}\n",
        c.items.len() - unreached.len(),
        c.items.len(),
        if unreached.is_empty() {
            "none".to_string()
        } else {
            unreached
                .iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        }
    ));
    out
}
