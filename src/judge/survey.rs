//! Surveys of played games: every repetition in a set of game records,
//! named, ruled under one rulebook, and counted — how often real play
//! repeats, with which patterns, and what the rulebook makes of them.
//! (`diff --games` rules the same repetitions under two rulebooks.)

use std::collections::HashMap;

use serde::Serialize;

use super::cycle::{repetitions, Repetition};
use super::report::outcome_id;
use super::{judge_cycle, Options, Rulebook};
use crate::board::{to_fen, Color};
use crate::notation::pgn::GameFile;

/// A repetition found in a game, with the names a report gives it.
#[derive(Clone, Debug)]
pub struct Found {
    /// `<file stem>#<game>@<move>`: the move that brought the position
    /// back the last time (two runs of one game can share the move their
    /// last cycles start at, never this one).
    pub id: String,
    /// The game's label and the moves the cycle spans.
    pub title: String,
    /// `<path>:<line>, game <n>`.
    pub source: String,
    pub repetition: Repetition,
}

/// Every repetition of `files`' games, in file and game order.
pub fn found_repetitions(files: &[GameFile]) -> Vec<Found> {
    let mut out = Vec::new();
    for f in files {
        for g in &f.games {
            for r in repetitions(&g.start, &g.moves) {
                let from = r.cycle.offset / 2 + 1;
                let to = (r.last_return - 1) / 2 + 1;
                out.push(Found {
                    id: format!("{}#{}@{to}", f.stem, g.number),
                    title: format!("{}, moves {from}–{to}", g.label()),
                    source: where_is(f, g.line, g.number),
                    repetition: r,
                });
            }
        }
    }
    out
}

/// The records read only in part: where, and why.
pub fn cut_records(files: &[GameFile]) -> Vec<(String, String)> {
    files
        .iter()
        .flat_map(|f| {
            f.games.iter().filter_map(|g| {
                let why = g.cut.clone()?;
                Some((where_is(f, g.line, g.number), why))
            })
        })
        .collect()
}

fn where_is(f: &GameFile, line: usize, number: usize) -> String {
    format!("{}:{line}, game {number}", f.path)
}

/// One rulebook over the repetitions of a set of games.
#[derive(Clone, Debug, Serialize)]
pub struct Survey {
    pub rules: SurveyRules,
    /// Games read.
    pub games: usize,
    /// Repetitions ruled.
    pub repetitions: usize,
    pub outcomes: OutcomeCounts,
    /// How many cycle moves have each deciding nature, in the rulebook's
    /// 从重 order (heaviest first), as the rulebook names them.
    pub natures: Vec<NatureCount>,
    /// Each pair of side summaries with the outcome it got, most common
    /// first.
    pub patterns: Vec<Pattern>,
    /// Records read only in part: where, and why.
    pub cut: Vec<(String, String)>,
    /// Every repetition's ruling, in file and game order.
    pub rulings: Vec<Surveyed>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SurveyRules {
    pub id: String,
    pub title: String,
}

#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct OutcomeCounts {
    pub draw: usize,
    pub red_must_change: usize,
    pub black_must_change: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct NatureCount {
    pub nature: String,
    pub nature_en: String,
    pub moves: usize,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Pattern {
    pub red: String,
    pub black: String,
    pub outcome: &'static str,
    pub count: usize,
}

/// One repetition's ruling, in brief.
#[derive(Clone, Debug, Serialize)]
pub struct Surveyed {
    pub id: String,
    pub title: String,
    pub source: String,
    /// Where the cycle starts (UCCI FEN): with `moves`, what `qili judge
    /// --fen … --moves …` takes to explain the ruling in full.
    pub fen: String,
    /// The cycle's moves in Chinese notation.
    pub moves: Vec<String>,
    /// Each move's deciding nature.
    pub natures: Vec<String>,
    pub red: String,
    pub black: String,
    pub outcome: &'static str,
}

/// Rules every repetition of `files` under `book`; side summaries in
/// Chinese (`zh`) or English.
pub fn survey(book: &Rulebook, files: &[GameFile], zh: bool) -> Survey {
    let prog = &book.program;
    let mut outcomes = OutcomeCounts::default();
    let mut by_nature = vec![0usize; prog.natures.len()];
    let mut patterns: HashMap<(String, String, &'static str), usize> = HashMap::new();
    let mut rulings = Vec::new();
    for found in found_repetitions(files) {
        let r = judge_cycle(book, found.repetition.cycle.clone(), Options::default());
        let outcome = outcome_id(r.outcome);
        match outcome {
            "draw" => outcomes.draw += 1,
            "red_must_change" => outcomes.red_must_change += 1,
            _ => outcomes.black_must_change += 1,
        }
        for m in &r.moves {
            if let Some(n) = by_nature.get_mut(m.heaviest) {
                *n += 1;
            }
        }
        let summary = |c: Color| r.sides[c.index()].summary.get(zh).to_string();
        let (red, black) = (summary(Color::Red), summary(Color::Black));
        *patterns
            .entry((red.clone(), black.clone(), outcome))
            .or_default() += 1;
        rulings.push(Surveyed {
            id: found.id,
            title: found.title,
            source: found.source,
            fen: to_fen(&found.repetition.cycle.start),
            moves: r.moves.iter().map(|m| m.chinese.clone()).collect(),
            natures: r
                .moves
                .iter()
                .map(|m| prog.nature_name(m.heaviest).to_string())
                .collect(),
            red,
            black,
            outcome,
        });
    }
    let mut patterns: Vec<Pattern> = patterns
        .into_iter()
        .map(|((red, black, outcome), count)| Pattern {
            red,
            black,
            outcome,
            count,
        })
        .collect();
    // Most common first; ties in a fixed order, so reports compare.
    patterns.sort_by(|a, b| {
        (b.count, &a.red, &a.black, a.outcome).cmp(&(a.count, &b.red, &b.black, b.outcome))
    });
    Survey {
        rules: SurveyRules {
            id: prog.id.clone(),
            title: if zh {
                prog.title_zh.clone()
            } else {
                prog.title_en.clone()
            },
        },
        games: files.iter().map(|f| f.games.len()).sum(),
        repetitions: rulings.len(),
        outcomes,
        natures: prog
            .by_weight
            .iter()
            .map(|&n| NatureCount {
                nature: prog.nature_name(n).to_string(),
                nature_en: prog.nature_en(n).to_string(),
                moves: by_nature.get(n).copied().unwrap_or(0),
            })
            .collect(),
        patterns,
        cut: cut_records(files),
        rulings,
    }
}
