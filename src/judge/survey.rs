//! Surveys of played games: every repetition in a set of game records,
//! named, ruled under one rulebook, and counted — how often real play
//! repeats, with which patterns, and what the rulebook makes of them.
//! (`diff --games` rules the same repetitions under two rulebooks.)

use std::collections::hash_map::{Entry, HashMap};

use serde::Serialize;

use super::cycle::{repetitions, Repetition};
use super::report::outcome_id;
use super::{judge_cycle, Options, Outcome, Rulebook};
use crate::board::{to_fen, Color, Move};
use crate::notation::pgn::{Game, GameFile};

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
    /// The move named in `id`.
    pub at: usize,
    pub repetition: Repetition,
    /// The side whose move left the repetition in the game (the first
    /// move to a position not seen before), or `None` where the record, as
    /// read, ends with it (a record cut short counts as ending there).
    pub left_by: Option<Color>,
}

/// Every repetition of `files`' games, in file and game order; a record
/// that repeats an earlier one (the same start and moves: a game between
/// two players whose collections are both read) is passed over.
pub fn found_repetitions(files: &[GameFile]) -> Vec<Found> {
    distinct_games(files)
        .games
        .into_iter()
        .flat_map(|(f, g)| game_repetitions(f, g))
        .collect()
}

/// The repetitions of one game of `f`, in order.
pub fn game_repetitions(f: &GameFile, g: &Game) -> Vec<Found> {
    repetitions(&g.start, &g.moves)
        .into_iter()
        .map(|r| {
            let from = r.cycle.offset / 2 + 1;
            let to = (r.last_return - 1) / 2 + 1;
            Found {
                id: format!("{}#{}@{to}", f.stem, g.number),
                title: format!("{}, moves {from}–{to}", g.label()),
                source: where_is(f, g.line, g.number),
                left_by: (g.moves.len() > r.last_return).then(|| r.cycle.start.side_to_move()),
                at: to,
                repetition: r,
            }
        })
        .collect()
}

/// The games of a set of files, each once.
pub struct Distinct<'f> {
    /// Each game with its file, in file and game order.
    pub games: Vec<(&'f GameFile, &'f Game)>,
    /// The records left out: where each is, and where its first copy is.
    pub duplicates: Vec<(String, String)>,
}

/// The games of `files` with the records that repeat an earlier one (the
/// same start and moves) left out.
pub fn distinct_games(files: &[GameFile]) -> Distinct<'_> {
    let mut first: HashMap<(String, &[Move]), String> = HashMap::new();
    let mut games = Vec::new();
    let mut duplicates = Vec::new();
    for f in files {
        for g in &f.games {
            let at = where_is(f, g.line, g.number);
            match first.entry((to_fen(&g.start), g.moves.as_slice())) {
                Entry::Occupied(e) => duplicates.push((at, e.get().clone())),
                Entry::Vacant(e) => {
                    e.insert(at);
                    games.push((f, g));
                }
            }
        }
    }
    Distinct { games, duplicates }
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
    /// Game records read.
    pub games: usize,
    /// Records passed over as copies of an earlier one: where each is, and
    /// where the first copy is.
    pub duplicates: Vec<(String, String)>,
    /// Repetitions ruled.
    pub repetitions: usize,
    pub outcomes: OutcomeCounts,
    /// How many cycle moves have each deciding nature, in the rulebook's
    /// 从重 order (heaviest first), as the rulebook names them.
    pub natures: Vec<NatureCount>,
    /// Each pair of side summaries with the outcome it got, most common
    /// first.
    pub patterns: Vec<Pattern>,
    /// For each outcome, who left the repetition in the game: a check of
    /// the rulebook against what the players did (who played under the
    /// rules of their day, and may change when they need not).
    pub left: Vec<LeftBy>,
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

/// How the repetitions with one outcome ended in the games.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct LeftBy {
    pub outcome: &'static str,
    /// Red's move left the repetition.
    pub red: usize,
    pub black: usize,
    /// The record ends with the repetition.
    pub ended: usize,
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
    /// Who left the repetition in the game (`red`, `black`), or `null`
    /// where the record ends with it.
    pub left_by: Option<Color>,
}

/// Rules every repetition of `files` under `book`; side summaries in
/// Chinese (`zh`) or English.
pub fn survey(book: &Rulebook, files: &[GameFile], zh: bool) -> Survey {
    let prog = &book.program;
    let mut outcomes = OutcomeCounts::default();
    let mut by_nature = vec![0usize; prog.natures.len()];
    let mut patterns: HashMap<(String, String, &'static str), usize> = HashMap::new();
    let mut rulings = Vec::new();
    // Indexed as `slot` below: draw, red must change, black must change.
    let mut left: Vec<LeftBy> = [
        Outcome::Draw,
        Outcome::MustChange(Color::Red),
        Outcome::MustChange(Color::Black),
    ]
    .into_iter()
    .map(|o| LeftBy {
        outcome: outcome_id(o),
        ..LeftBy::default()
    })
    .collect();
    for found in found_repetitions(files) {
        let r = judge_cycle(book, found.repetition.cycle.clone(), Options::default());
        let outcome = outcome_id(r.outcome);
        let (count, slot) = match r.outcome {
            Outcome::Draw => (&mut outcomes.draw, 0),
            Outcome::MustChange(Color::Red) => (&mut outcomes.red_must_change, 1),
            Outcome::MustChange(Color::Black) => (&mut outcomes.black_must_change, 2),
        };
        *count += 1;
        for m in &r.moves {
            if let Some(n) = by_nature.get_mut(m.heaviest) {
                *n += 1;
            }
        }
        if let Some(row) = left.get_mut(slot) {
            match found.left_by {
                Some(Color::Red) => row.red += 1,
                Some(Color::Black) => row.black += 1,
                None => row.ended += 1,
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
            left_by: found.left_by,
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
        duplicates: distinct_games(files).duplicates,
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
        left,
        cut: cut_records(files),
        rulings,
    }
}
