//! One cycle under several rulebooks, and two rulebooks over the corpus
//! or over the repetitions of played games:
//! what a committee asks when it compares editions or weighs a proposal.
//!
//! Where the editions rule a move differently, the items responsible are
//! the ones that differ between the two rulebooks *and* that the move's
//! ruling used in either of them: the natures that held, every definition
//! they call (followed through calls), the clauses that fired, `order`,
//! and `values` and `exchange` when a primitive reached reads them.
//! For a different outcome the verdict and the status definition count too.
//! An item that differs but that neither ruling touched is not blamed.

use std::collections::BTreeSet;

use serde::Serialize;

use super::case::Case;
use super::program::{Node, Op, Prim, Program};
use super::report::{outcome_id, reasons, wording};
use super::survey::{cut_records, distinct_games, found_repetitions};
use super::{judge_cycle, Cycle, Options, Rulebook, Ruling};
use crate::board::to_fen;
use crate::lang::diff::{diff, Change};
use crate::notation::iccs;
use crate::notation::pgn::GameFile;

/// An item of a rulebook as the clause diff names it: `define wins`,
/// `clause king-answer`, `verdict`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct ItemRef {
    pub kind: String,
    pub id: String,
}

impl std::fmt::Display for ItemRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.kind == self.id {
            write!(f, "{}", self.kind)
        } else {
            write!(f, "{} {}", self.kind, self.id)
        }
    }
}

fn item(kind: &str, id: &str) -> ItemRef {
    ItemRef {
        kind: kind.to_string(),
        id: id.to_string(),
    }
}

/// The definitions a node calls, directly or through other definitions.
fn calls(prog: &Program, node: &Node, out: &mut BTreeSet<usize>, settings: &mut Settings) {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        match &n.op {
            Op::Def(d, args) => {
                if out.insert(*d) {
                    if let Some(code) = prog.defs.get(*d) {
                        stack.push(&code.body);
                    }
                }
                stack.extend(args.iter());
            }
            Op::Bool(_) | Op::Int(_) | Op::Local(_) | Op::Nature(_) => {}
            Op::Prim(p, args) => {
                settings.note(*p);
                stack.extend(args.iter());
            }
            Op::SetLiteral(args) => stack.extend(args.iter()),
            Op::Not(a) | Op::Neg(a) | Op::Before(a) | Op::Previously(a) | Op::AfterPass(a) => {
                stack.push(a)
            }
            Op::Binary(_, a, b) | Op::AfterLift(a, b) | Op::AfterMove(a, b) => {
                stack.push(a);
                stack.push(b);
            }
            Op::If(a, b, c) | Op::AfterTake(a, b, c) => {
                stack.push(a);
                stack.push(b);
                stack.push(c);
            }
            Op::Quantified {
                set, filter, body, ..
            } => {
                stack.push(set);
                stack.extend(filter.as_deref());
                stack.push(body);
            }
            Op::Count { set, filter, .. } => {
                stack.push(set);
                stack.extend(filter.as_deref());
            }
            Op::SetBuilder { set, filter, .. } => {
                stack.push(set);
                stack.push(filter);
            }
        }
    }
}

/// The edition-wide items a ruling reads through its primitives: the piece
/// values (material counted) and the exchange's horizon.
#[derive(Default)]
struct Settings {
    values: bool,
    exchange: bool,
}

impl Settings {
    fn note(&mut self, p: Prim) {
        let exchange = matches!(
            p,
            Prim::Exchange | Prim::RecaptureExchange | Prim::ExchangeSparing | Prim::BestCapture
        );
        self.exchange |= exchange;
        self.values |= exchange || matches!(p, Prim::Value | Prim::Material);
    }
}

fn with_calls(prog: &Program, own: ItemRef, body: &Node, out: &mut BTreeSet<ItemRef>) {
    out.insert(own);
    let mut defs = BTreeSet::new();
    let mut settings = Settings::default();
    calls(prog, body, &mut defs, &mut settings);
    for d in defs {
        if let Some(code) = prog.defs.get(d) {
            out.insert(item("define", &code.label.id));
        }
    }
    if settings.values {
        out.insert(item("values", "values"));
    }
    if settings.exchange {
        out.insert(item("exchange", "exchange"));
    }
}

/// The items one move's ruling used (see the module notes).
pub fn move_items(book: &Rulebook, r: &Ruling, index: usize) -> BTreeSet<ItemRef> {
    let prog = &book.program;
    let mut out = BTreeSet::new();
    out.insert(item("order", "order"));
    let Some(m) = r.moves.get(index) else {
        return out;
    };
    let mut natures: Vec<usize> = m.held.clone();
    natures.push(m.heaviest);
    for n in natures {
        if let Some(code) = prog.natures.get(n) {
            with_calls(prog, item("nature", &code.label.id), &code.body, &mut out);
        }
    }
    for &c in &m.clauses {
        if let Some(code) = prog.clauses.get(c) {
            with_calls(prog, item("clause", &code.label.id), &code.when, &mut out);
        }
    }
    out
}

/// The items the verdict used: the verdict and what its cases and the
/// status definition call.
pub fn verdict_items(book: &Rulebook) -> BTreeSet<ItemRef> {
    let prog = &book.program;
    let mut out = BTreeSet::new();
    out.insert(item("verdict", "verdict"));
    for c in &prog.cases {
        with_calls(prog, item("verdict", "verdict"), &c.cond, &mut out);
    }
    if let Some(d) = prog.forbidden.and_then(|d| prog.defs.get(d)) {
        with_calls(prog, item("define", &d.label.id), &d.body, &mut out);
    }
    out
}

/// The items that differ between two rulebooks (added, removed, changed).
pub fn changed_items(a: &Rulebook, b: &Rulebook) -> BTreeSet<ItemRef> {
    diff(&a.resolved, &b.resolved)
        .entries
        .iter()
        .filter(|e| e.change != Change::Same)
        .map(|e| item(e.kind, &e.id))
        .collect()
}

/// One move under every edition compared.
#[derive(Clone, Debug, Serialize)]
pub struct CompareMove {
    pub ply: usize,
    pub side: &'static str,
    #[serde(rename = "move")]
    pub chinese: String,
    pub iccs: String,
    /// In WXF notation, for the English text (not in the JSON, whose shape
    /// is kept).
    #[serde(skip)]
    pub wxf: String,
    /// The deciding nature under each edition, in the order given.
    pub natures: Vec<String>,
    /// The one-line reason under each edition.
    pub reasons: Vec<String>,
    pub differs: bool,
    /// Items that differ between the editions and that this move's rulings used.
    pub responsible: Vec<ItemRef>,
}

/// A side's summary and status under each edition.
#[derive(Clone, Debug, Serialize)]
pub struct CompareSide {
    pub summaries: Vec<String>,
    pub statuses: Vec<String>,
}

/// One cycle under several rulebooks.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    pub editions: Vec<String>,
    pub titles: Vec<String>,
    pub moves: Vec<CompareMove>,
    pub red: CompareSide,
    pub black: CompareSide,
    pub outcomes: Vec<String>,
    pub rulings: Vec<String>,
    pub outcome_differs: bool,
    pub outcome_responsible: Vec<ItemRef>,
}

fn join_reasons(book: &Rulebook, r: &Ruling, i: usize, zh: bool) -> String {
    r.moves
        .get(i)
        .map(|m| {
            reasons(book, m)
                .iter()
                .map(|t| if zh { t.zh.clone() } else { t.en.clone() })
                .collect::<Vec<_>>()
                .join(if zh { "；" } else { "; " })
        })
        .unwrap_or_default()
}

/// Rules `cycle` under each book and lines the rulings up.
pub fn compare(books: &[&Rulebook], cycle: &Cycle, zh: bool) -> Comparison {
    let rulings: Vec<Ruling> = books
        .iter()
        .map(|b| judge_cycle(b, cycle.clone(), Options::default()))
        .collect();
    compare_rulings(books, &rulings, zh)
}

impl CompareMove {
    /// The move as the text in that language names it: Chinese notation,
    /// or WXF in English.
    pub fn name(&self, zh: bool) -> &str {
        if zh {
            &self.chinese
        } else {
            &self.wxf
        }
    }
}

/// Lines up rulings of one cycle made under `books` (one each, same order).
pub fn compare_rulings(books: &[&Rulebook], rulings: &[Ruling], zh: bool) -> Comparison {
    let changed: Vec<BTreeSet<ItemRef>> =
        books.iter().map(|b| changed_items(books[0], b)).collect();
    let count = rulings.first().map_or(0, |r| r.moves.len());
    let wxf_names = rulings
        .first()
        .map_or_else(Vec::new, |r| crate::judge::report::wxf_names(&r.cycle));
    let mut moves = Vec::with_capacity(count);
    for i in 0..count {
        let natures: Vec<String> = books
            .iter()
            .zip(rulings)
            .map(|(b, r)| {
                r.moves
                    .get(i)
                    .map_or(String::new(), |m| m.nature(b).to_string())
            })
            .collect();
        let differs = natures.iter().any(|n| *n != natures[0]);
        let mut responsible = BTreeSet::new();
        if differs {
            let first = move_items(books[0], &rulings[0], i);
            for (k, (b, r)) in books.iter().zip(rulings).enumerate().skip(1) {
                if natures[k] == natures[0] {
                    continue;
                }
                let used: BTreeSet<ItemRef> = first.union(&move_items(b, r, i)).cloned().collect();
                responsible.extend(used.intersection(&changed[k]).cloned());
            }
        }
        let m0 = &rulings[0].moves[i];
        let wxf = wxf_names.get(i).cloned().unwrap_or_default();
        moves.push(CompareMove {
            ply: m0.ply,
            side: if m0.side == crate::board::Color::Red {
                "red"
            } else {
                "black"
            },
            chinese: m0.chinese.clone(),
            iccs: m0.mv.to_string(),
            wxf,
            natures,
            reasons: books
                .iter()
                .zip(rulings)
                .map(|(b, r)| join_reasons(b, r, i, zh))
                .collect(),
            differs,
            responsible: responsible.into_iter().collect(),
        });
    }
    let side = |c: crate::board::Color| CompareSide {
        summaries: rulings
            .iter()
            .map(|r| {
                let s = &r.sides[c.index()].summary;
                if zh {
                    s.zh.clone()
                } else {
                    s.en.clone()
                }
            })
            .collect(),
        statuses: rulings
            .iter()
            .map(|r| {
                match r.sides[c.index()].forbidden {
                    Some(true) => "forbidden",
                    Some(false) => "allowed",
                    None => "",
                }
                .to_string()
            })
            .collect(),
    };
    let outcomes: Vec<String> = rulings
        .iter()
        .map(|r| outcome_id(r.outcome).to_string())
        .collect();
    let outcome_differs = outcomes.iter().any(|o| *o != outcomes[0]);
    let mut outcome_responsible = BTreeSet::new();
    if outcome_differs {
        let first = verdict_items(books[0]);
        for (k, b) in books.iter().enumerate().skip(1) {
            if outcomes[k] == outcomes[0] {
                continue;
            }
            let used: BTreeSet<ItemRef> = first.union(&verdict_items(b)).cloned().collect();
            outcome_responsible.extend(used.intersection(&changed[k]).cloned());
        }
        // The moves whose natures changed are the other half of the reason.
        for m in &moves {
            outcome_responsible.extend(m.responsible.iter().cloned());
        }
    }
    Comparison {
        editions: books.iter().map(|b| b.id().to_string()).collect(),
        titles: books
            .iter()
            .map(|b| {
                if zh {
                    b.program.title_zh.clone()
                } else {
                    b.program.title_en.clone()
                }
            })
            .collect(),
        moves,
        red: side(crate::board::Color::Red),
        black: side(crate::board::Color::Black),
        outcomes,
        rulings: rulings
            .iter()
            .map(|r| {
                let w = wording(r);
                if zh {
                    w.zh
                } else {
                    w.en
                }
            })
            .collect(),
        outcome_differs,
        outcome_responsible: outcome_responsible.into_iter().collect(),
    }
}

/// A case whose ruling changes between two rulebooks.
#[derive(Clone, Debug, Serialize)]
pub struct CaseChange {
    pub id: String,
    pub title: String,
    pub comparison: Comparison,
}

/// Two rulebooks over a corpus: the cases whose natures or outcome change.
#[derive(Clone, Debug, Serialize)]
pub struct CorpusDiff {
    pub left: String,
    pub right: String,
    pub cases: usize,
    /// Cases that could not be judged (bad position or moves), with why.
    pub unjudged: Vec<(String, String)>,
    pub changed: Vec<CaseChange>,
    pub outcomes_changed: usize,
}

/// Rules every case under `a` and `b` and keeps those that change.
pub fn corpus_diff(
    a: &Rulebook,
    b: &Rulebook,
    cases: &[Case],
    prepare: impl Fn(&Case) -> Result<Cycle, String>,
    zh: bool,
) -> CorpusDiff {
    let mut out = CorpusDiff {
        left: a.id().to_string(),
        right: b.id().to_string(),
        cases: 0,
        unjudged: Vec::new(),
        changed: Vec::new(),
        outcomes_changed: 0,
    };
    for case in cases {
        let cycle = match prepare(case) {
            Ok(c) => c,
            Err(why) => {
                out.unjudged.push((case.id.clone(), why));
                continue;
            }
        };
        out.cases += 1;
        let cmp = compare(&[a, b], &cycle, zh);
        if cmp.outcome_differs {
            out.outcomes_changed += 1;
        }
        if cmp.outcome_differs || cmp.moves.iter().any(|m| m.differs) {
            out.changed.push(CaseChange {
                id: case.id.clone(),
                title: case.title.clone(),
                comparison: cmp,
            });
        }
    }
    out
}

/// Two rulebooks over the repetitions of played games (`qili diff
/// --games`): how much of real play a revision would rule differently.
#[derive(Clone, Debug, Serialize)]
pub struct GamesDiff {
    pub left: String,
    pub right: String,
    /// Game records read.
    pub games: usize,
    /// Records passed over as copies of an earlier one: where each is, and
    /// where the first copy is (see [`super::survey::distinct_games`]).
    pub duplicates: Vec<(String, String)>,
    /// Repetitions ruled under both rulebooks (see
    /// [`super::survey::found_repetitions`]).
    pub repetitions: usize,
    /// Games read only up to a bad move or tag: where (`file:line, game
    /// N`) and why. Their repetitions before that point are ruled.
    pub cut: Vec<(String, String)>,
    /// Repetitions that could not be ruled, with why.
    pub unjudged: Vec<(String, String)>,
    /// The repetitions whose natures or outcome change, each named
    /// `<file stem>#<game>@<move>` (the move that ends its last cycle).
    pub changed: Vec<CaseChange>,
    pub outcomes_changed: usize,
}

/// Every repetition of `files`' games as a case to rule: its last cycle,
/// from the position it starts at.
pub fn repetition_cases(files: &[GameFile]) -> Vec<Case> {
    found_repetitions(files)
        .into_iter()
        .map(|f| Case {
            id: f.id,
            title: f.title,
            source: f.source,
            fen: to_fen(&f.repetition.cycle.start),
            moves: f
                .repetition
                .cycle
                .moves
                .iter()
                .map(|&m| iccs(m))
                .collect::<Vec<_>>()
                .join(" "),
            line: false,
            composed: None,
            expect: Vec::new(),
        })
        .collect()
}

/// Rules every repetition of `files` under `a` and `b`; keeps those that
/// change.
pub fn games_diff(
    a: &Rulebook,
    b: &Rulebook,
    files: &[GameFile],
    prepare: impl Fn(&Case) -> Result<Cycle, String>,
    zh: bool,
) -> GamesDiff {
    let cases = repetition_cases(files);
    let d = corpus_diff(a, b, &cases, prepare, zh);
    GamesDiff {
        left: d.left,
        right: d.right,
        games: files.iter().map(|f| f.games.len()).sum(),
        duplicates: distinct_games(files).duplicates,
        repetitions: d.cases,
        cut: cut_records(files),
        unjudged: d.unjudged,
        changed: d.changed,
        outcomes_changed: d.outcomes_changed,
    }
}

/// Which items of a rulebook a corpus reaches.
#[derive(Clone, Debug, Serialize)]
pub struct Coverage {
    pub rules: String,
    pub cases: usize,
    /// Every nature, clause, definition and verdict case with the ids of the
    /// cases that reached it (empty: no case does).
    pub items: Vec<(ItemRef, Vec<String>)>,
}

/// For each item of `book`, the cases whose rulings use it: natures that
/// held, clauses that fired, the definitions they call, the verdict case
/// that decided (`verdict case-id`).
pub fn coverage(
    book: &Rulebook,
    cases: &[Case],
    prepare: impl Fn(&Case) -> Result<Cycle, String>,
) -> Coverage {
    let prog = &book.program;
    let mut all: Vec<ItemRef> = Vec::new();
    for n in &prog.natures {
        all.push(item("nature", &n.label.id));
    }
    for c in &prog.clauses {
        all.push(item("clause", &c.label.id));
    }
    for d in &prog.defs {
        all.push(item("define", &d.label.id));
    }
    for c in &prog.cases {
        all.push(item("verdict case", &c.label.id));
    }
    let mut reached: Vec<Vec<String>> = vec![Vec::new(); all.len()];
    let mut judged = 0;
    for case in cases {
        let Ok(cycle) = prepare(case) else {
            continue;
        };
        judged += 1;
        let r = judge_cycle(book, cycle, Options::default());
        let mut used = BTreeSet::new();
        for i in 0..r.moves.len() {
            used.extend(move_items(book, &r, i));
        }
        if let Some(d) = prog.forbidden.and_then(|d| prog.defs.get(d)) {
            with_calls(prog, item("define", &d.label.id), &d.body, &mut used);
        }
        match r.case.and_then(|c| prog.cases.get(c)) {
            Some(c) => {
                with_calls(prog, item("verdict case", &c.label.id), &c.cond, &mut used);
            }
            None => {
                used.insert(item("verdict case", "otherwise"));
            }
        }
        for (k, it) in all.iter().enumerate() {
            if used.contains(it) {
                reached[k].push(case.id.clone());
            }
        }
    }
    Coverage {
        rules: book.id().to_string(),
        cases: judged,
        items: all.into_iter().zip(reached).collect(),
    }
}
