//! The judge: a rulebook evaluated on a repetition cycle, with its reasons.
//!
//! ```
//! use qili::judge::{Rulebook, judge_line, Options};
//!
//! let book = Rulebook::bundled("2011").unwrap();
//! // Both horses go out and come back: four idle moves, a draw.
//! let start = qili::board::parse_fen(qili::board::START_FEN).unwrap();
//! let ruling = judge_line(&book, &start, "马二进三 马8进7 马三退二 马7退8", Options::default()).unwrap();
//! assert_eq!(ruling.outcome, qili::judge::Outcome::Draw);
//! assert_eq!(ruling.moves[0].nature(&book), "闲");
//! ```
//!
//! The steps, each in its own module: [`cycle`] finds the cycle in the line;
//! [`program`] lowers a checked rulebook; [`eval`] evaluates it move by move
//! and over the cycle; [`report`] names each side's pattern, words the
//! ruling as referees do, and renders text and JSON.

pub mod case;
pub mod compare;
pub mod cycle;
pub mod eval;
pub mod profile;
pub mod program;
pub mod report;
pub mod survey;

use std::path::{Path, PathBuf};

use miette::{miette, Result};

use crate::board::{Color, Move, Position};
use crate::lang::check::check;
use crate::lang::resolve::{resolve, Bundled, InMemory, Library, Resolved, Shelf};
use crate::lang::{suggest, Source};
use crate::notation::{chinese, parse_line};
pub use cycle::{last_cycle, Cycle, CycleError};
pub use eval::{Evaluator, Text, Trace};
pub use program::{Outcome, Program};

/// A rulebook whose check found several errors: each is shown.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{name} has {} errors; a rulebook with errors cannot be judged with", errors.len())]
#[diagnostic(
    code(qili::judge::rules_errors),
    help("`qili check {name}` lists the same errors; fix them and judge again")
)]
pub struct RulebookErrors {
    pub name: String,
    #[related]
    pub errors: Vec<crate::lang::check::CheckError>,
}

/// A rulebook ready to judge with: resolved, checked and lowered.
#[derive(Clone, Debug)]
pub struct Rulebook {
    pub resolved: Resolved,
    pub program: Program,
}

impl Rulebook {
    /// Checks and lowers a resolved rulebook; the checker's errors come
    /// back as one diagnostic each.
    pub fn from_resolved(resolved: Resolved) -> Result<Rulebook> {
        let report = check(&resolved);
        let mut errors = report.errors;
        if errors.len() == 1 {
            if let Some(only) = errors.pop() {
                return Err(miette::Report::new(only));
            }
        }
        if !errors.is_empty() {
            return Err(miette::Report::new(RulebookErrors {
                name: resolved
                    .this()
                    .map_or_else(String::new, |l| l.source.name.clone()),
                errors,
            }));
        }
        let program = program::lower(&resolved)?;
        Ok(Rulebook { resolved, program })
    }

    /// An edition id from `folder` (`"2011"`), or from the bundled editions
    /// if the folder does not hold it, or a path to a `.qili` file (see
    /// [`resolve_arg`]).
    pub fn from_folder(arg: &str, folder: impl AsRef<Path>) -> Result<Rulebook> {
        let resolved = resolve_arg(arg, folder.as_ref())?;
        Rulebook::from_resolved(resolved)
    }

    /// A rules file's text; `extends` looks in `library` (a folder, or
    /// [`InMemory`] texts).
    pub fn from_text(name: &str, text: &str, library: &dyn Library) -> Result<Rulebook> {
        let resolved =
            resolve(Source::new(name, text), None, library).map_err(miette::Report::new)?;
        Rulebook::from_resolved(resolved)
    }

    /// A rules file's text with parents from a folder, and from the
    /// bundled editions for those the folder does not hold.
    pub fn from_text_in(name: &str, text: &str, folder: impl Into<PathBuf>) -> Result<Rulebook> {
        Rulebook::from_text(name, text, &Shelf::new(folder))
    }

    /// A bundled edition (`"2011"`, `"axf"`, …, see
    /// [`crate::lang::resolve::BUNDLED`]) from the text compiled into the
    /// program: no file is read, so a program embedding qili needs no
    /// `rules/` folder.
    pub fn bundled(id: &str) -> Result<Rulebook> {
        let Some((source, path)) = Bundled.find(id) else {
            return Err(unknown_edition(id, &Bundled.ids()));
        };
        let resolved = resolve(source, path, &Bundled).map_err(miette::Report::new)?;
        Rulebook::from_resolved(resolved)
    }

    /// A rules file's text that extends nothing, or only the texts given.
    pub fn from_texts(name: &str, text: &str, parents: &[(&str, &str)]) -> Result<Rulebook> {
        let lib = InMemory(
            parents
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        );
        Rulebook::from_text(name, text, &lib)
    }

    pub fn id(&self) -> &str {
        &self.program.id
    }
}

/// How much to explain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Trace every nature and clause, held or not (for `--explain`); by
    /// default only what decided each move is traced.
    pub explain: bool,
    /// Keep every fact of the traces taken. By default a trace keeps what
    /// the reasons read ([`report::reasons`]): the facts under the parts
    /// that hold, and the contexts that failed, named by the definitions
    /// directly in them; a part that failed keeps its truth and, where it
    /// can hold one, the failed contexts beneath it. The other steps keep
    /// their place and truth but no words: a definition's call, a
    /// quantifier's witness, a context that held. The reasons come out the
    /// same either way; the full trace costs the wording of every step and
    /// the searches that only give a failed part's values. `explain`
    /// always keeps everything.
    pub full_trace: bool,
    /// Time every nature, clause, definition and primitive
    /// ([`Ruling::profile`]). The ruling is the same; it takes longer.
    pub profile: bool,
}

/// One move of the cycle, classified.
#[derive(Clone, Debug)]
pub struct MoveRuling {
    /// 1-based, within the cycle.
    pub ply: usize,
    pub side: Color,
    pub mv: Move,
    /// In Chinese notation, in the position it was played.
    pub chinese: String,
    /// Natures whose definitions held, before the clauses.
    pub held: Vec<usize>,
    /// Clauses that fired, in the order they applied.
    pub clauses: Vec<usize>,
    /// Natures after the clauses.
    pub natures: Vec<usize>,
    /// The heaviest of them by the order (从重).
    pub heaviest: usize,
    /// Why: the traces of the deciding nature and the clauses that fired
    /// (every nature and clause with `explain`).
    pub trace: Vec<Trace>,
    /// A search ran out of its node budget while judging this move.
    pub exhausted: bool,
}

impl MoveRuling {
    /// The deciding nature's id, as the rules file names it.
    pub fn nature<'b>(&self, book: &'b Rulebook) -> &'b str {
        book.program.nature_name(self.heaviest)
    }
}

/// A side's pattern over the cycle.
#[derive(Clone, Debug)]
pub struct SideRuling {
    pub side: Color,
    /// 长将, 一将一捉, 两闲 … and in English.
    pub summary: Text,
    /// The rulebook's `forbidden(s)` for this side, if it defines one.
    pub forbidden: Option<bool>,
    /// Why, with [`Options::explain`]; `None` without it (the verdict's
    /// trace names the side's status where it decided).
    pub trace: Option<Trace>,
}

/// The whole ruling on a cycle.
#[derive(Clone, Debug)]
pub struct Ruling {
    pub rules_id: String,
    pub rules_title: Text,
    pub cycle: Cycle,
    pub moves: Vec<MoveRuling>,
    pub sides: [SideRuling; 2],
    pub outcome: Outcome,
    /// The verdict case that decided (index into the program's cases), or
    /// `None` for `otherwise`.
    pub case: Option<usize>,
    /// The cases tried, in order, with their traces; without
    /// [`Options::explain`], only the trace of the case that held (none when
    /// the `otherwise` line ruled).
    pub verdict: Vec<Trace>,
    /// Nodes the searches visited.
    pub nodes: u64,
    /// What the classification cost, counted.
    pub stats: eval::Stats,
    /// Where the time went, when [`Options::profile`] asked.
    pub profile: Option<profile::Profile>,
}

/// Parses `moves` (any notation) from `start`, finds the last cycle and
/// judges it.
pub fn judge_line(book: &Rulebook, start: &Position, moves: &str, opts: Options) -> Result<Ruling> {
    let line = parse_line(start, moves).map_err(miette::Report::new)?;
    let cycle = last_cycle(start, &line, moves).map_err(miette::Report::new)?;
    Ok(judge_cycle(book, cycle, opts))
}

/// Judges a cycle whose moves are known to be legal.
pub fn judge_cycle(book: &Rulebook, cycle: Cycle, opts: Options) -> Ruling {
    let started = opts.profile.then(|| {
        profile::calibrate();
        std::time::Instant::now()
    });
    let prog = &book.program;
    let mut ev = Evaluator::new(prog);
    if opts.profile {
        ev.profile();
    }
    ev.exhaustive = opts.explain;
    ev.lean = !opts.explain && !opts.full_trace;
    let mut moves = Vec::with_capacity(cycle.moves.len());
    let mut positions = Vec::with_capacity(cycle.moves.len() + 1);
    positions.push(cycle.start.clone());
    for &mv in &cycle.moves {
        let mut next = positions[positions.len() - 1].clone();
        next.make(mv);
        positions.push(next);
    }
    let n = cycle.moves.len();
    // The first move's previous move is the cycle's last, when the moves
    // do come back to the start.
    let wraps = n >= 2 && positions[n].repetition_key() == positions[0].repetition_key();
    // Each piece's identity through the cycle: the square it stood on at
    // the start (what `witnesses` names pieces by).
    let mut ident = [u8::MAX; 90];
    for (sq, _) in cycle.start.pieces() {
        ident[sq.index()] = sq.index() as u8;
    }
    let mut witnesses = Vec::with_capacity(n);
    let mut idents = Vec::with_capacity(n);
    for (i, &mv) in cycle.moves.iter().enumerate() {
        ident[mv.to.index()] = ident[mv.from.index()];
        ident[mv.from.index()] = u8::MAX;
        idents.push(ident);
        let previous = eval::previous_move(&positions, &cycle.moves, wraps, i);
        moves.push(classify(
            &mut ev,
            prog,
            &positions[i],
            mv,
            previous,
            i + 1,
            opts,
        ));
        witnesses.push(if prog.needs_witnesses {
            let heaviest = moves[i].heaviest;
            ev.witnesses(heaviest)
                .into_iter()
                .filter_map(|id| ident.get(id as usize).copied().filter(|c| *c != u8::MAX))
                .collect()
        } else {
            Vec::new()
        });
    }
    let nodes = ev.nodes();
    let stats = ev.stats;
    let searches = ev.take_searches();
    let mut steps = ev.profile_rows();
    let mut clock_ns = ev.profile_clock_ns();
    drop(ev);
    let facts = eval::CycleFacts {
        sides: moves.iter().map(|m| m.side).collect(),
        natures: moves
            .iter()
            .map(|m| m.natures.iter().fold(0u64, |b, n| b | (1u64 << n)))
            .collect(),
        heaviest: moves.iter().map(|m| m.heaviest).collect(),
        witnesses,
        moves: cycle.moves.clone(),
        positions: positions[..n].to_vec(),
        wraps,
        idents,
    };
    let mut ev = Evaluator::new(prog);
    if opts.profile {
        ev.profile();
    }
    ev.lean = !opts.explain && !opts.full_trace;
    ev.give_searches(searches);
    ev.start_cycle(&facts);
    // Without `explain`, the verdict is traced as the moves are: only what
    // decided it (the case that held), the rest asked without a trace.
    let lean = !opts.explain;
    let sides = Color::ALL.map(|side| {
        let judged = prog.forbidden.map(|d| ev.side_definition(d, side, !lean));
        SideRuling {
            side,
            summary: report::summary(prog, &moves, side),
            forbidden: judged.as_ref().map(|e| e.holds),
            trace: judged.and_then(|e| e.trace),
        }
    });
    let mut verdict = Vec::new();
    let mut outcome = prog.otherwise;
    let mut case = None;
    'cases: for (c, code) in prog.cases.iter().enumerate() {
        let tries: &[Option<Color>] = if code.for_side {
            &[Some(Color::Red), Some(Color::Black)]
        } else {
            &[None]
        };
        for &side in tries {
            let e = ev.case(c, side, !lean);
            verdict.extend(e.trace);
            if e.holds {
                if lean {
                    verdict.extend(ev.case(c, side, true).trace);
                }
                outcome = match (&code.ruling, side) {
                    (program::CaseRuling::Draw, _) => Outcome::Draw,
                    (program::CaseRuling::ForSide, Some(s)) => Outcome::MustChange(s),
                    (program::CaseRuling::Fixed(s), _) => Outcome::MustChange(*s),
                    (program::CaseRuling::ForSide, None) => Outcome::Draw,
                };
                case = Some(c);
                break 'cases;
            }
        }
    }
    let profile = started.map(|t| {
        steps.extend(ev.profile_rows());
        clock_ns = clock_ns.saturating_add(ev.profile_clock_ns());
        // The ruling's time, less what timing its steps cost.
        let total_ns = u64::try_from(t.elapsed().as_nanos())
            .unwrap_or(u64::MAX)
            .saturating_sub(clock_ns);
        profile::Profile::of_ruling(total_ns, std::mem::take(&mut steps))
    });
    Ruling {
        rules_id: prog.id.clone(),
        rules_title: Text::new(prog.title_zh.clone(), prog.title_en.clone()),
        cycle,
        moves,
        sides,
        outcome,
        case,
        verdict,
        nodes,
        stats,
        profile,
    }
}

fn classify(
    ev: &mut Evaluator<'_>,
    prog: &Program,
    before: &Position,
    mv: Move,
    previous: Option<(&Position, Move)>,
    ply: usize,
    opts: Options,
) -> MoveRuling {
    ev.start_move(before, mv, previous);
    // A clause's condition is asked only when its action would change the
    // natures that hold (explained: every condition, up front).
    let mut when: Vec<Option<bool>> = vec![None; prog.clauses.len()];
    let mut clause_traces = Vec::new();
    if opts.explain {
        for (c, slot) in when.iter_mut().enumerate() {
            let e = ev.clause(c, true);
            *slot = Some(e.holds);
            clause_traces.extend(e.trace);
        }
    }
    let mut held = Vec::new();
    let mut traces = Vec::new();
    let mut natures = Vec::new();
    // What a clause's action would make of `natures` (reused, not
    // allocated per clause).
    let mut changed = Vec::new();
    let mut fired = Vec::new();
    let lazy = prog.lazy && !opts.explain;
    for &n in &prog.by_weight {
        let e = ev.nature(n, opts.explain);
        traces.extend(e.trace);
        if !e.holds {
            continue;
        }
        held.push(n);
        natures.clear();
        natures.extend_from_slice(&held);
        fired.clear();
        for (c, code) in prog.clauses.iter().enumerate() {
            if !apply(&code.action, &natures, &mut changed) {
                continue;
            }
            let holds = match when[c] {
                Some(h) => h,
                None => {
                    let h = ev.clause(c, false).holds;
                    when[c] = Some(h);
                    h
                }
            };
            if holds {
                std::mem::swap(&mut natures, &mut changed);
                fired.push(c);
            }
        }
        if lazy && natures.contains(&n) {
            // It survived the clauses, and nothing lighter can outweigh it.
            break;
        }
    }
    if !opts.explain {
        for &c in &fired {
            clause_traces.extend(ev.clause(c, true).trace);
        }
    }
    let heaviest = prog
        .by_weight
        .iter()
        .copied()
        .find(|n| natures.contains(n))
        .unwrap_or_else(|| prog.by_weight.last().copied().unwrap_or(0));
    if !opts.explain {
        // Only the deciding nature is explained: its trace is taken again,
        // cheaply, from the caches the classification filled.
        let e = ev.nature(heaviest, true);
        traces.extend(e.trace);
        if let Some(&first) = held.iter().find(|n| !natures.contains(n)) {
            // A nature a clause took away: show what the clause overrode.
            if first != heaviest {
                traces.extend(ev.nature(first, true).trace);
            }
        }
    }
    traces.extend(clause_traces);
    natures.sort_by_key(|n| (prog.weight[*n], *n));
    MoveRuling {
        ply,
        side: before.side_to_move(),
        mv,
        chinese: chinese::format(before, mv),
        held,
        clauses: fired,
        natures,
        heaviest,
        trace: traces,
        exhausted: ev.exhausted,
    }
}

/// A clause's action applied to `before`, into `natures`; `true` if it
/// changed anything.
fn apply(action: &program::Action, before: &[usize], natures: &mut Vec<usize>) -> bool {
    use program::Action;
    natures.clear();
    natures.extend_from_slice(before);
    match action {
        Action::Recast { from, to } => {
            if natures.iter().any(|n| from.contains(n)) {
                natures.retain(|n| !from.contains(n));
                if !natures.contains(to) {
                    natures.push(*to);
                }
            }
        }
        Action::Drop(ids) => natures.retain(|n| !ids.contains(n)),
        Action::Add(ids) => {
            for n in ids {
                if !natures.contains(n) {
                    natures.push(*n);
                }
            }
        }
    }
    natures.as_slice() != before
}

/// The rules folder the command line reads when none is named.
pub const DEFAULT_RULES_DIR: &str = "rules";

/// The rules folder `rules` names, in front of the bundled editions.
/// Without the default folder (qili run outside its checkout, or
/// installed) the bundled editions alone answer; a folder named on purpose
/// must exist, so that a mistyped one does not quietly give the bundled
/// texts instead.
pub fn shelf(rules: &Path) -> Result<Shelf> {
    if rules != Path::new(DEFAULT_RULES_DIR) && !rules.is_dir() {
        return Err(miette!(
            code = "qili::rules::no_folder",
            help = "name an existing folder of `.qili` files, or leave the option out: qili then \
                    reads the folder `rules` where there is one, and its built-in editions",
            "no rules folder `{}`",
            rules.display()
        ));
    }
    Ok(Shelf::new(rules))
}

/// Loads a rulebook named on the command line: a path to a `.qili` file, or
/// an edition id looked up in the rules folder and then among the bundled
/// editions (see [`shelf`]).
pub fn resolve_arg(arg: &str, rules: &Path) -> Result<Resolved> {
    let shelf = shelf(rules)?;
    let path = PathBuf::from(arg);
    let (source, path) = if path.is_file() {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| miette!(code = "qili::io", "cannot read {}: {e}", path.display()))?;
        (Source::new(path.display().to_string(), text), Some(path))
    } else if let Some(found) = shelf.find(arg) {
        found
    } else {
        return Err(unknown_edition(arg, &shelf.ids()));
    };
    resolve(source, path, &shelf).map_err(miette::Report::new)
}

/// "No such edition", with the closest id or the list of them.
fn unknown_edition(arg: &str, ids: &[String]) -> miette::Report {
    let hint = match suggest::closest(arg, ids.iter().map(String::as_str)) {
        Some(s) => format!("did you mean `{s}`?"),
        None => format!(
            "give a path to a `.qili` file, or one of the editions: {}",
            ids.join(", ")
        ),
    };
    miette!(
        code = "qili::rules::unknown_edition",
        help = hint,
        "no rules file or edition `{arg}`"
    )
}
