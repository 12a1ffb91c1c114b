//! The interpreter: a lowered rulebook evaluated against the board.
//!
//! One [`Evaluator`] judges one move at a time. The position after the move
//! is the root context; `before { … }`, `after take(a, b) { … }` and
//! `after pass { … }` derive further contexts, kept in an arena and shared:
//! the same hypothetical capture asked twice is built once, and every board
//! fact (attackers, roots, exchanges, mate searches) is cached per context.
//!
//! Pieces keep their identity across contexts. A piece is named by where it
//! stands in the root position; a piece the judged move captured, which
//! stands only in the position before, gets an id of its own. Each context
//! maps ids to squares and back, so `moved` is the piece that moved, on its
//! origin before the move and gone after a hypothetical capture of it.
//!
//! Tracing: the fast path computes values only. Asked to trace, the same
//! evaluation records why — which definitions held, which piece was the
//! witness of an `exists`, and the board facts with their lines — reusing
//! the caches, so explaining a result costs little more than finding it.

use std::fmt::Write;
use std::rc::Rc;

use rustc_hash::FxHashMap as HashMap;

use serde::Serialize;

use super::profile::{JudgeStep, Profiler, Timed};
use super::program::{Guard, Node, Op, Prim, Program};
use crate::board::{Bits, Color, Kind, Move, Piece, Position, Square};
use crate::lang::ast::{BinOp, Quantifier};
use crate::notation::{chinese, wxf};
use crate::tactics::{self, CaptureScope, ExchangeLimits, MateSearch, NodeBudget};

/// How many members of a failing `exists` an exhaustive explanation shows.
const MEMBERS_SHOWN: usize = 8;

/// Nodes one search may visit (a mate search or one capture exchange).
pub const SEARCH_NODES: u64 = 40_000;
/// Nodes all searches of one judgement may visit together.
pub const JUDGEMENT_NODES: u64 = 4_000_000;

const NONE: u8 = u8::MAX;
/// Ids 0–89 are root squares; 90–179 pieces absent from the root (the
/// judged move's capture, by its square); 180 the piece the opponent's
/// previous move captured.
const IDS: usize = 181;
const PREVIOUS_GHOST: usize = 180;

/// A piece's identity within one judged move.
pub type PieceId = u8;

thread_local! {
    static NO_MEMBERS: Rc<Vec<Value>> = Rc::new(Vec::new());
    static NO_LINE: Rc<Vec<Move>> = Rc::new(Vec::new());
}

/// The empty set, shared: most pieces have no attacker and no root, and
/// their sets cost no allocation.
fn no_members() -> Rc<Vec<Value>> {
    NO_MEMBERS.with(Rc::clone)
}

/// The empty line of a search answered without one.
fn no_line() -> Rc<Vec<Move>> {
    NO_LINE.with(Rc::clone)
}

/// A text joined from its parts (`&str`, `String`, `char`, numbers) without
/// the formatting machinery: the traces word dozens of facts per ruling,
/// and `format!` cost several times what copying the parts does.
macro_rules! cat {
    ($($part:expr),+ $(,)?) => {{
        let parts: &[&dyn Part] = &[$(&$part),+];
        let mut out = String::with_capacity(parts.iter().map(|p| p.size()).sum());
        for part in parts {
            part.push_to(&mut out);
        }
        out
    }};
}

/// A part of a [`cat!`] text.
trait Part {
    /// Bytes it takes, as a capacity hint.
    fn size(&self) -> usize;
    fn push_to(&self, out: &mut String);
}

impl Part for str {
    fn size(&self) -> usize {
        self.len()
    }
    fn push_to(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Part for String {
    fn size(&self) -> usize {
        self.len()
    }
    fn push_to(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Part for char {
    fn size(&self) -> usize {
        self.len_utf8()
    }
    fn push_to(&self, out: &mut String) {
        out.push(*self);
    }
}

/// Numbers, written digit by digit: a formatter call costs more than the
/// rest of a trace line.
fn push_int(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    let mut digits = [0u8; 20];
    let mut m = n.unsigned_abs();
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        out.push(char::from(d));
    }
}

impl Part for i64 {
    fn size(&self) -> usize {
        4
    }
    fn push_to(&self, out: &mut String) {
        push_int(out, *self);
    }
}

impl Part for usize {
    fn size(&self) -> usize {
        4
    }
    fn push_to(&self, out: &mut String) {
        push_int(out, i64::try_from(*self).unwrap_or(i64::MAX));
    }
}

/// A number with its sign always shown, as `{:+}` writes it (`+0`, `+5`,
/// `-3`).
struct Signed(i64);

impl Part for Signed {
    fn size(&self) -> usize {
        5
    }
    fn push_to(&self, out: &mut String) {
        if self.0 >= 0 {
            out.push('+');
        }
        push_int(out, self.0);
    }
}

impl<T: Part + ?Sized> Part for &T {
    fn size(&self) -> usize {
        (**self).size()
    }
    fn push_to(&self, out: &mut String) {
        (**self).push_to(out);
    }
}

/// A value of the rules language.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Piece(PieceId),
    Side(Color),
    Kind(Kind),
    Nature(usize),
    /// A move of the cycle, by index.
    Move(usize),
    Set(Rc<Vec<Value>>),
}

impl Value {
    fn truth(&self) -> bool {
        matches!(self, Value::Bool(true))
    }

    /// The truth a trace step shows: none for a value that is not one.
    fn holds(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    fn int(&self) -> i64 {
        match self {
            Value::Int(n) => *n,
            _ => 0,
        }
    }

    /// A small code for memo keys; `None` for sets.
    fn code(&self) -> Option<u32> {
        Some(match self {
            Value::Bool(b) => u32::from(*b),
            Value::Int(n) => 0x0100_0000 | (*n as u32 & 0xff_ffff),
            Value::Piece(p) => 0x0200_0000 | u32::from(*p),
            Value::Side(c) => 0x0300_0000 | c.index() as u32,
            Value::Kind(k) => 0x0400_0000 | k.index() as u32,
            Value::Nature(n) => 0x0500_0000 | *n as u32,
            Value::Move(m) => 0x0600_0000 | *m as u32,
            Value::Set(_) => return None,
        })
    }
}

/// A text in both languages the reports speak.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Text {
    pub zh: String,
    pub en: String,
}

impl Text {
    pub fn new(zh: impl Into<String>, en: impl Into<String>) -> Text {
        Text {
            zh: zh.into(),
            en: en.into(),
        }
    }

    pub fn get(&self, zh: bool) -> &str {
        if zh {
            &self.zh
        } else {
            &self.en
        }
    }
}

/// What a traced step is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    Nature,
    Clause,
    Case,
    Definition,
    Witness,
    Context,
    Fact,
}

/// One step of an explanation: what was asked, what it came to, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Trace {
    pub step: Step,
    pub what: Text,
    pub holds: Option<bool>,
    /// The clause the step's text cites (`24.3`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cite: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Trace>,
}

/// What a nature, clause or case came to, and its trace if one was asked.
#[derive(Clone, Debug)]
pub struct Evaluated {
    pub holds: bool,
    pub trace: Option<Trace>,
}

/// The judged move, as the evaluator needs it.
#[derive(Clone, Copy, Debug)]
pub struct JudgedMove {
    pub mv: Move,
    pub mover: Color,
    pub answers_check: bool,
    pub captured: Option<Piece>,
}

/// The natures of the cycle's moves, for the verdict.
#[derive(Clone, Debug, Default)]
pub struct CycleFacts {
    pub sides: Vec<Color>,
    /// Natures after the clauses, as a bit set.
    pub natures: Vec<u64>,
    pub heaviest: Vec<usize>,
    /// For each move, the pieces its deciding nature names (see
    /// [`Evaluator::witnesses`]), by their identity in the cycle: the
    /// square each stood on at the cycle's start.
    pub witnesses: Vec<Vec<u8>>,
    /// The position before each move, and the moves: `after move(m)`
    /// judges its body as move m was judged.
    pub positions: Vec<Position>,
    pub moves: Vec<Move>,
    /// Whether the last move brings the start back (the first move's
    /// previous move is then the last).
    pub wraps: bool,
    /// For each move, the cycle identity of the piece on each square of
    /// the position after it (`u8::MAX`: empty).
    pub idents: Vec<[u8; 90]>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Derive {
    Before,
    Previously,
    Pass,
    Take(PieceId, PieceId),
    Lift(PieceId),
}

/// Real and fake roots of a piece.
type Roots = (Vec<Square>, Vec<Square>);

/// A context's `attackers(p)` sets by one side, by square. One table a
/// side keeps each under a kilobyte: the allocator serves a larger block
/// only after tidying all its small free ones, which cost more than the
/// table itself. Tables are used again from context to context (see
/// [`Evaluator::spare_tables`]): emptying one costs only the points it
/// filled, which `filled` remembers.
struct AttackTable {
    slots: Box<[Option<Rc<Vec<Value>>>; 90]>,
    filled: u128,
}

impl AttackTable {
    fn new() -> AttackTable {
        AttackTable {
            slots: Box::new([const { None }; 90]),
            filled: 0,
        }
    }

    /// Empties the points that were filled.
    fn clear(&mut self) {
        for i in Bits::of(std::mem::take(&mut self.filled)) {
            if let Some(slot) = self.slots.get_mut(i) {
                *slot = None;
            }
        }
    }
}

struct Ctx {
    pos: Position,
    id_at: [u8; 90],
    sq_of: [u8; IDS],
    /// `attackers(p)` of each point by each side (by colour, then square),
    /// as the language's sets of pieces; a side's table is made on the
    /// first question.
    attackers: [Option<AttackTable>; 2],
    /// `pieces(s)`, by side.
    pieces: [Option<Rc<Vec<Value>>>; 2],
    /// The enemy-held points each side could capture on by the movement
    /// rules (see [`Position::capture_targets`]), by side, made on the
    /// first question: what `attackers_of` looks up before working out a
    /// point's attackers.
    targets: [Option<u128>; 2],
    best: [Option<Searched>; 2],
    check_best: [Option<Searched>; 2],
}

/// The searches and roots asked in the contexts of the current move, by
/// context: kept by the evaluator, not by each context, so that their room
/// outlives the contexts (a context of its own would grow each table from
/// nothing, move after move).
#[derive(Default)]
struct CtxCaches {
    exchanges: HashMap<(usize, u8, u8, Ask), Searched>,
    mates: HashMap<(usize, Color, i64, bool, bool), Searched>,
    roots: HashMap<(usize, u8), Rc<Roots>>,
    against: HashMap<(usize, u8, u8), Rc<Vec<Square>>>,
}

impl CtxCaches {
    fn clear(&mut self) {
        self.exchanges.clear();
        self.mates.clear();
        self.roots.clear();
        self.against.clear();
    }
}

/// A search's answer: the value, its line, and whether a budget cut it.
#[derive(Clone, Debug)]
struct Searched {
    value: i64,
    line: Rc<Vec<Move>>,
    /// The position the line starts from (after any pass).
    start: Option<Rc<Position>>,
    exhausted: bool,
    /// Why the question could not be asked, if it could not.
    refused: Option<&'static str>,
}

impl Searched {
    /// An answer with no line to show.
    fn bare(value: i64, exhausted: bool) -> Searched {
        Searched {
            value,
            line: no_line(),
            start: None,
            exhausted,
            refused: None,
        }
    }
}

impl Ctx {
    fn root(pos: Position) -> Ctx {
        let mut id_at = [NONE; 90];
        let mut sq_of = [NONE; IDS];
        for (sq, _) in pos.pieces() {
            id_at[sq.index()] = sq.index() as u8;
            sq_of[sq.index()] = sq.index() as u8;
        }
        Ctx::with(pos, id_at, sq_of)
    }

    fn with(pos: Position, id_at: [u8; 90], sq_of: [u8; IDS]) -> Ctx {
        Ctx {
            pos,
            id_at,
            sq_of,
            attackers: [None, None],
            pieces: [None, None],
            targets: [None, None],
            best: [None, None],
            check_best: [None, None],
        }
    }

    fn square(&self, id: PieceId) -> Option<Square> {
        match self.sq_of.get(id as usize) {
            Some(&s) if s != NONE => Square::from_index(s as usize),
            _ => None,
        }
    }

    fn id(&self, sq: Square) -> PieceId {
        self.id_at[sq.index()]
    }
}

/// Evaluates one rulebook, move by move, then over the cycle.
pub struct Evaluator<'p> {
    prog: &'p Program,
    stack: Vec<Value>,
    ctxs: Vec<Ctx>,
    derived: HashMap<(usize, Derive), Option<usize>>,
    ids: [Option<Piece>; IDS],
    judged: Option<JudgedMove>,
    /// The opponent's previous move and the position it was played in.
    previous: Option<(Position, Move)>,
    moved: PieceId,
    memo: Memo,
    cycle: Option<&'p CycleFacts>,
    budget: NodeBudget,
    /// A search ran out of nodes while judging the current move.
    pub exhausted: bool,
    tracing: bool,
    /// What of the trace being taken the reasons will read (always
    /// [`Reading::Full`] when `exhaustive`).
    reading: Reading,
    traces: Vec<Vec<Trace>>,
    /// Work done, for profiling: exchange searches, mate searches, contexts.
    pub stats: Stats,
    /// Explain failures too: a failing `exists` shows each member it tried
    /// (`--explain`), not only that none qualified.
    pub exhaustive: bool,
    /// Cut traces to what the reasons read (see [`Reading`]); never when
    /// `exhaustive`.
    pub lean: bool,
    /// Search results by position (Zobrist hash), shared by every context
    /// of the judgement: the cycle's positions come back as the root of
    /// one move and the `before` of the next, and hypothetical captures
    /// meet the same positions again.
    searches: HashMap<SearchKey, Searched>,
    /// Times every step when a profile is asked for.
    profiler: Option<Box<Profiler>>,
    /// Emptied attack tables of the contexts of earlier moves, for the
    /// next contexts to fill.
    spare_tables: Vec<AttackTable>,
    /// What the contexts of the current move have asked (see [`CtxCaches`]).
    cached: CtxCaches,
}

impl Drop for Evaluator<'_> {
    fn drop(&mut self) {
        self.recycle_contexts();
        let mut scratch = Box::new(Scratch {
            stack: std::mem::take(&mut self.stack),
            ctxs: std::mem::take(&mut self.ctxs),
            derived: std::mem::take(&mut self.derived),
            memo: std::mem::take(&mut self.memo),
            traces: std::mem::take(&mut self.traces),
            searches: std::mem::take(&mut self.searches),
            spare_tables: std::mem::take(&mut self.spare_tables),
            cached: std::mem::take(&mut self.cached),
        });
        scratch.stack.clear();
        scratch.ctxs.clear();
        scratch.derived.clear();
        scratch.memo.clear();
        scratch.traces.clear();
        scratch.searches.clear();
        // Emptying a table costs its size: the room one giant ruling grew
        // is not kept for the ordinary ones after it.
        scratch.stack.shrink_to(KEPT_ROOM);
        scratch.ctxs.shrink_to(KEPT_ROOM / 16);
        scratch.derived.shrink_to(KEPT_ROOM);
        scratch.traces.shrink_to(KEPT_ROOM / 16);
        scratch.searches.shrink_to(KEPT_ROOM);
        scratch.cached.exchanges.shrink_to(KEPT_ROOM);
        scratch.cached.mates.shrink_to(KEPT_ROOM);
        scratch.cached.roots.shrink_to(KEPT_ROOM);
        SCRATCH.with(|s| s.set(Some(scratch)));
    }
}

/// Which exchange is asked: `exchange`, `recapture_exchange` or
/// `exchange_sparing` (the spared squares, bit per square index).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Ask {
    recapture: bool,
    spared: u128,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum SearchKey {
    Exchange(u64, u8, u8, Ask),
    Mate(u64, Color, i64, bool),
    Above(u64, u8, u8, Ask, i64),
    BestAbove(u64, Color, i64),
}

/// How much of a trace is taken. Without `explain`, a trace is kept for
/// the reasons ([`crate::judge::report::reasons`]), which read the facts
/// under the parts that hold and, anywhere, the contexts that failed with
/// the names of the definitions directly in them. The rest is never worded:
/// under a failed part no fact is written and no search is run only to show
/// a value (comparisons are asked as thresholds, as when not tracing); a
/// definition's call elsewhere, a witness and a context that held keep
/// their steps with empty words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reading {
    /// Every fact: the part holds (or `explain` asked for everything).
    Full,
    /// Under a part that failed: only contexts and the definitions that
    /// can hold one.
    Failed,
    /// Directly under a context that failed: only the names of the
    /// definitions its body calls.
    Names,
}

/// Search results by position, handed from one evaluator to the next.
#[derive(Default)]
pub struct Searches(HashMap<SearchKey, Searched>);

/// What a judgement cost, counted.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub exchanges: u64,
    pub mates: u64,
    pub contexts: u64,
    pub mate_nodes: u64,
    pub exchange_nodes: u64,
}

/// The containers an evaluator fills while it judges, kept by the thread
/// between evaluators once emptied: a ruling then starts with the room the
/// last one grew, instead of growing every table from nothing again.
#[derive(Default)]
struct Scratch {
    stack: Vec<Value>,
    ctxs: Vec<Ctx>,
    derived: HashMap<(usize, Derive), Option<usize>>,
    memo: Memo,
    traces: Vec<Vec<Trace>>,
    searches: HashMap<SearchKey, Searched>,
    spare_tables: Vec<AttackTable>,
    cached: CtxCaches,
}

/// Attack tables kept for reuse: more than the contexts of one move use.
const SPARE_TABLES: usize = 64;

/// Entries each scratch table keeps room for between rulings (see
/// [`Scratch`]): more than an ordinary cycle fills.
const KEPT_ROOM: usize = 1024;

thread_local! {
    static SCRATCH: std::cell::Cell<Option<Box<Scratch>>> = const { std::cell::Cell::new(None) };
}

impl<'p> Evaluator<'p> {
    pub fn new(prog: &'p Program) -> Evaluator<'p> {
        let scratch = SCRATCH.with(std::cell::Cell::take).unwrap_or_default();
        let Scratch {
            stack,
            ctxs,
            derived,
            memo,
            traces,
            searches,
            spare_tables,
            cached,
        } = *scratch;
        Evaluator {
            prog,
            stack,
            ctxs,
            derived,
            ids: [None; IDS],
            judged: None,
            previous: None,
            moved: NONE,
            memo,
            cycle: None,
            budget: NodeBudget::new(JUDGEMENT_NODES),
            exhausted: false,
            tracing: false,
            reading: Reading::Full,
            traces,
            stats: Stats::default(),
            searches,
            profiler: None,
            spare_tables,
            cached,
            exhaustive: false,
            lean: false,
        }
    }

    /// Times every nature, clause, definition and primitive from now on.
    pub fn profile(&mut self) {
        self.profiler = Some(Box::new(Profiler::new(self.prog)));
    }

    /// The tallies so far by name (empty unless [`Self::profile`] was asked).
    pub fn profile_rows(&self) -> Vec<super::profile::ProfileRow> {
        self.profiler
            .as_ref()
            .map(|p| p.rows(self.prog))
            .unwrap_or_default()
    }

    /// What timing the steps has cost so far (see [`Self::profile`]).
    pub fn profile_clock_ns(&self) -> u64 {
        self.profiler.as_ref().map_or(0, |p| p.clock_ns())
    }

    /// `f`, timed as `what` when profiling.
    #[inline(always)]
    fn timed<T>(&mut self, what: Timed, f: impl FnOnce(&mut Self) -> T) -> T {
        let Some(p) = self.profiler.as_mut() else {
            return f(self);
        };
        let mark = p.enter();
        let v = f(self);
        if let Some(p) = self.profiler.as_mut() {
            p.leave(mark, what);
        }
        v
    }

    /// The search results found so far, to hand to the verdict's evaluator.
    pub fn take_searches(&mut self) -> Searches {
        Searches(std::mem::take(&mut self.searches))
    }

    /// Starts from search results found before (see [`Self::take_searches`]).
    pub fn give_searches(&mut self, searches: Searches) {
        self.searches = searches.0;
    }

    /// Nodes the searches have spent so far.
    pub fn nodes(&self) -> u64 {
        self.budget.used()
    }

    /// Sets up the judgement of one move: `before` is the position before
    /// it, `mv` a legal move there, `previous` the opponent's move that led
    /// to `before` with the position it was played in (for `previously`).
    pub fn start_move(&mut self, before: &Position, mv: Move, previous: Option<(&Position, Move)>) {
        self.timed(Timed::Judge(JudgeStep::MoveSetup), |ev| {
            ev.start_move_untimed(before, mv, previous);
        });
    }

    fn start_move_untimed(
        &mut self,
        before: &Position,
        mv: Move,
        previous: Option<(&Position, Move)>,
    ) {
        self.previous = previous.map(|(p, m)| (p.clone(), m));
        let mover = before.side_to_move();
        let mut after = before.clone();
        let undo = after.make(mv);
        let captured = undo.captured();
        self.recycle_contexts();
        self.derived.clear();
        self.memo.clear();
        self.exhausted = false;
        self.ids = [None; IDS];
        for (sq, p) in after.pieces() {
            self.ids[sq.index()] = Some(p);
        }
        let root = Ctx::root(after);
        // Before: the moved piece back on its origin, the captured piece
        // (if any) under an id of its own.
        // Every other piece stands where it stands after the move.
        let mut id_at = root.id_at;
        let mut sq_of = root.sq_of;
        id_at[mv.from.index()] = mv.to.index() as u8;
        id_at[mv.to.index()] = NONE;
        sq_of[mv.to.index()] = mv.from.index() as u8;
        if let Some(c) = captured {
            let ghost = 90 + mv.to.index();
            self.ids[ghost] = Some(c);
            id_at[mv.to.index()] = ghost as u8;
            sq_of[ghost] = mv.to.index() as u8;
        }
        self.ctxs.push(root);
        self.ctxs.push(Ctx::with(before.clone(), id_at, sq_of));
        self.derived.insert((0, Derive::Before), Some(1));
        self.moved = mv.to.index() as u8;
        self.judged = Some(JudgedMove {
            mv,
            mover,
            answers_check: before.in_check(),
            captured,
        });
        self.cycle = None;
    }

    /// Drops the contexts of the last move, keeping their attack tables,
    /// emptied, for the next move's (up to [`SPARE_TABLES`]).
    fn recycle_contexts(&mut self) {
        self.cached.clear();
        // The tables are taken out in place: moving each context out of the
        // list first copied the whole context, position and all.
        for c in &mut self.ctxs {
            for slot in &mut c.attackers {
                if let Some(mut t) = slot.take() {
                    if self.spare_tables.len() < SPARE_TABLES {
                        t.clear();
                        self.spare_tables.push(t);
                    }
                }
            }
        }
        self.ctxs.clear();
    }

    /// Switches to the verdict: cycle primitives read these facts.
    pub fn start_cycle(&mut self, facts: &'p CycleFacts) {
        self.judged = None;
        self.recycle_contexts();
        self.derived.clear();
        self.memo.clear();
        self.cycle = Some(facts);
    }

    pub fn nature(&mut self, n: usize, trace: bool) -> Evaluated {
        self.timed(Timed::Nature(n), |ev| ev.nature_untimed(n, trace))
    }

    #[inline(always)]
    fn nature_untimed(&mut self, n: usize, trace: bool) -> Evaluated {
        let code = &self.prog.natures[n];
        let label = || {
            let what = Text::new(
                code.label.id.to_string(),
                cat!(
                    code.label.en.as_deref().unwrap_or(""),
                    " (",
                    code.label.id,
                    ")"
                ),
            );
            (what, code.label.cite.clone())
        };
        self.run(&code.body, code.frame, &[], trace, Step::Nature, label)
    }

    /// The pieces nature `n` names on the judged move: when its body is an
    /// `exists` over pieces (optionally under `and`), every member for which
    /// the filter and the body hold — e.g. every piece a 捉 chases. Ids are
    /// the move's (squares after it). Empty for any other body.
    pub fn witnesses(&mut self, n: usize) -> Vec<PieceId> {
        self.timed(Timed::Judge(JudgeStep::Witnesses), |ev| {
            ev.witnesses_untimed(n)
        })
    }

    fn witnesses_untimed(&mut self, n: usize) -> Vec<PieceId> {
        let code = &self.prog.natures[n];
        let mut node = &code.body;
        // Look through conjunctions to the first `exists`.
        let found = loop {
            match &node.op {
                Op::Quantified {
                    quantifier: Quantifier::Exists,
                    slot,
                    set,
                    filter,
                    body,
                    guard,
                    ..
                } => break Some((*slot, &**set, filter.as_deref(), &**body, *guard)),
                Op::Binary(BinOp::And, a, b) => {
                    node = if matches!(a.op, Op::Quantified { .. }) {
                        a
                    } else {
                        b
                    };
                }
                _ => break None,
            }
        };
        let Some((slot, set, filter, body, guard)) = found else {
            return Vec::new();
        };
        let base = self.stack.len();
        self.stack.resize(base + code.frame, Value::Bool(false));
        let was = self.tracing;
        self.tracing = false;
        let members = self.members(set, 0, base);
        let mut out = Vec::new();
        for m in members.iter() {
            let Value::Piece(p) = m else {
                continue;
            };
            if !self.passes(guard, m, 0) {
                continue;
            }
            self.stack[base + slot] = m.clone();
            if filter.is_none_or(|f| self.eval(f, 0, base).truth())
                && self.eval(body, 0, base).truth()
            {
                out.push(*p);
            }
        }
        self.tracing = was;
        self.stack.truncate(base);
        out
    }

    pub fn clause(&mut self, c: usize, trace: bool) -> Evaluated {
        self.timed(Timed::Clause(c), |ev| ev.clause_untimed(c, trace))
    }

    #[inline(always)]
    fn clause_untimed(&mut self, c: usize, trace: bool) -> Evaluated {
        let code = &self.prog.clauses[c];
        let label = || {
            let what = Text::new(
                cat!(code.label.id, " ", code.label.zh.as_deref().unwrap_or("")),
                cat!(code.label.id, " ", code.label.en.as_deref().unwrap_or("")),
            );
            (what, code.label.cite.clone())
        };
        self.run(&code.when, code.frame, &[], trace, Step::Clause, label)
    }

    /// A verdict case, with `side` bound to its `for` variable.
    pub fn case(&mut self, c: usize, side: Option<Color>, trace: bool) -> Evaluated {
        self.timed(Timed::Judge(JudgeStep::Verdict), |ev| {
            ev.case_untimed(c, side, trace)
        })
    }

    fn case_untimed(&mut self, c: usize, side: Option<Color>, trace: bool) -> Evaluated {
        let code = &self.prog.cases[c];
        let args: Vec<Value> = side.into_iter().map(Value::Side).collect();
        let label = || {
            let who = side.map_or(Text::default(), |s| {
                Text::new(
                    cat!("（", s.chinese(), "方）"),
                    cat!(" (", s.english(), ")"),
                )
            });
            let what = Text::new(
                cat!(
                    code.label.id,
                    " ",
                    code.label.zh.as_deref().unwrap_or(""),
                    who.zh
                ),
                cat!(
                    code.label.id,
                    " ",
                    code.label.en.as_deref().unwrap_or(""),
                    who.en
                ),
            );
            (what, code.label.cite.clone())
        };
        self.run(&code.cond, code.frame, &args, trace, Step::Case, label)
    }

    /// A definition of one side over the cycle (`forbidden(s)`).
    pub fn side_definition(&mut self, d: usize, side: Color, trace: bool) -> Evaluated {
        self.timed(Timed::Definition(d), |ev| {
            ev.side_definition_untimed(d, side, trace)
        })
    }

    #[inline(always)]
    fn side_definition_untimed(&mut self, d: usize, side: Color, trace: bool) -> Evaluated {
        let code = &self.prog.defs[d];
        let label = || {
            let what = Text::new(
                cat!(
                    code.label.zh.as_deref().unwrap_or(&code.label.id),
                    "（",
                    side.chinese(),
                    "方）"
                ),
                cat!(
                    code.label.en.as_deref().unwrap_or(&code.label.id),
                    " (",
                    side.english(),
                    ")"
                ),
            );
            (what, code.label.cite.clone())
        };
        self.run(
            &code.body,
            code.frame,
            &[Value::Side(side)],
            trace,
            Step::Definition,
            label,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        body: &'p Node,
        frame: usize,
        args: &[Value],
        trace: bool,
        step: Step,
        label: impl FnOnce() -> (Text, Option<String>),
    ) -> Evaluated {
        let base = self.stack.len();
        self.stack.extend(args.iter().cloned());
        self.stack
            .resize(base + frame.max(args.len()), Value::Bool(false));
        self.tracing = trace;
        self.reading = Reading::Full;
        if trace {
            self.traces.push(Vec::new());
        }
        let holds = self.eval(body, 0, base).truth();
        let trace = if trace {
            let children = self.traces.pop().unwrap_or_default();
            let (what, cite) = label();
            Some(Trace {
                step,
                what,
                holds: Some(holds),
                cite,
                children,
            })
        } else {
            None
        };
        self.tracing = false;
        self.traces.clear();
        self.stack.truncate(base);
        Evaluated { holds, trace }
    }

    // ---- tracing helpers -------------------------------------------------

    /// Whether facts are worded now: tracing, and the reasons would read
    /// them.
    fn wording(&self) -> bool {
        self.tracing && self.reading == Reading::Full
    }

    /// Whether the trace is cut to what the reasons read.
    fn lean(&self) -> bool {
        self.tracing && self.lean && !self.exhaustive
    }

    fn note(&mut self, t: Trace) {
        if let Some(top) = self.traces.last_mut() {
            top.push(t);
        }
    }

    fn fact(&mut self, what: Text, holds: Option<bool>) {
        if self.wording() {
            self.note(Trace {
                step: Step::Fact,
                what,
                holds,
                cite: None,
                children: Vec::new(),
            });
        }
    }

    fn open(&mut self) {
        if self.tracing {
            self.traces.push(Vec::new());
        }
    }

    /// A step of a lean trace the reasons do not read: its place and
    /// truth, no words.
    fn note_unworded(&mut self, step: Step, v: &Value, children: Vec<Trace>) {
        self.note(Trace {
            step,
            what: Text::default(),
            holds: v.holds(),
            cite: None,
            children,
        });
    }

    fn close(&mut self) -> Vec<Trace> {
        if self.tracing {
            self.traces.pop().unwrap_or_default()
        } else {
            Vec::new()
        }
    }

    // ---- the evaluator ---------------------------------------------------

    fn eval(&mut self, node: &'p Node, ctx: usize, base: usize) -> Value {
        match &node.op {
            Op::Bool(b) => Value::Bool(*b),
            Op::Int(n) => Value::Int(*n),
            Op::Local(slot) => self
                .stack
                .get(base + slot)
                .cloned()
                .unwrap_or(Value::Bool(false)),
            Op::Nature(n) => Value::Nature(*n),
            Op::Not(a) => Value::Bool(!self.operand(a, ctx, base).truth()),
            Op::Neg(a) => Value::Int(-self.eval(a, ctx, base).int()),
            Op::Binary(op, a, b) => self.binary(*op, a, b, ctx, base),
            Op::If(c, a, b) => {
                if self.eval(c, ctx, base).truth() {
                    self.eval(a, ctx, base)
                } else {
                    self.eval(b, ctx, base)
                }
            }
            Op::SetLiteral(items) => {
                let mut out = Vec::with_capacity(items.len());
                for i in items {
                    let v = self.eval(i, ctx, base);
                    if !out.contains(&v) {
                        out.push(v);
                    }
                }
                Value::Set(Rc::new(out))
            }
            Op::Quantified {
                quantifier,
                slot,
                var,
                set,
                filter,
                body,
                guard,
            } => self.quantified(
                *quantifier,
                *slot,
                var,
                set,
                filter.as_deref(),
                body,
                *guard,
                ctx,
                base,
            ),
            Op::Count {
                slot,
                set,
                filter,
                guard,
            } => {
                let members = self.members(set, ctx, base);
                if guard.is_none()
                    && filter
                        .as_ref()
                        .is_none_or(|f| matches!(f.op, Op::Bool(true)))
                {
                    // `count x in s where true`: the set's size, no walk.
                    return Value::Int(members.len() as i64);
                }
                let mut n = 0;
                let was = self.tracing;
                self.tracing = false;
                for m in members.iter() {
                    if !self.passes(*guard, m, ctx) {
                        continue;
                    }
                    self.stack[base + slot] = m.clone();
                    if filter
                        .as_ref()
                        .is_none_or(|f| self.eval(f, ctx, base).truth())
                    {
                        n += 1;
                    }
                }
                self.tracing = was;
                Value::Int(n)
            }
            Op::SetBuilder {
                slot,
                set,
                filter,
                guard,
            } => {
                let members = self.members(set, ctx, base);
                let mut out = Vec::new();
                let was = self.tracing;
                self.tracing = false;
                for m in members.iter() {
                    if !self.passes(*guard, m, ctx) {
                        continue;
                    }
                    self.stack[base + slot] = m.clone();
                    if self.eval(filter, ctx, base).truth() {
                        out.push(m.clone());
                    }
                }
                self.tracing = was;
                Value::Set(Rc::new(out))
            }
            Op::Def(d, args) if self.profiler.is_some() => self.call_timed(*d, args, ctx, base),
            Op::Def(d, args) => self.call(*d, args, ctx, base),
            Op::Prim(p, args) if self.profiler.is_some() => self.prim_timed(*p, args, ctx, base),
            Op::Prim(p, args) => self.prim(*p, args, ctx, base),
            Op::Before(body) => self.in_context(Derive::Before, body, ctx, base),
            Op::Previously(body) => self.in_context(Derive::Previously, body, ctx, base),
            Op::AfterMove(m, body) => self.after_move(m, body, ctx, base),
            Op::AfterPass(body) => self.in_context(Derive::Pass, body, ctx, base),
            Op::AfterLift(p, body) => {
                let Value::Piece(p) = self.operand(p, ctx, base) else {
                    return Value::Bool(false);
                };
                self.in_context(Derive::Lift(p), body, ctx, base)
            }
            Op::AfterTake(a, b, body) => {
                let (Value::Piece(a), Value::Piece(b)) =
                    (self.operand(a, ctx, base), self.operand(b, ctx, base))
                else {
                    return Value::Bool(false);
                };
                self.in_context(Derive::Take(a, b), body, ctx, base)
            }
        }
    }

    /// `node`'s value, a leaf read in place: most arguments and operands
    /// are a local or a constant, and calling [`Self::eval`] for each one
    /// cost a frame of the interpreter's largest function. Leaves leave no
    /// trace, so nothing else changes. `eval` keeps its own copy of the
    /// leaf arms: delegating them here, or sharing them through a function
    /// returning an `Option`, measured 0.4–1.2% more instructions.
    #[inline(always)]
    fn operand(&mut self, node: &'p Node, ctx: usize, base: usize) -> Value {
        match &node.op {
            Op::Local(slot) => self
                .stack
                .get(base + slot)
                .cloned()
                .unwrap_or(Value::Bool(false)),
            Op::Int(n) => Value::Int(*n),
            Op::Bool(b) => Value::Bool(*b),
            Op::Nature(n) => Value::Nature(*n),
            Op::Def(d, args) if self.profiler.is_none() => self.call(*d, args, ctx, base),
            Op::Prim(p, args) if self.profiler.is_none() => self.prim(*p, args, ctx, base),
            _ => self.eval(node, ctx, base),
        }
    }

    fn binary(&mut self, op: BinOp, a: &'p Node, b: &'p Node, ctx: usize, base: usize) -> Value {
        match op {
            BinOp::And => Value::Bool(
                self.operand(a, ctx, base).truth() && self.operand(b, ctx, base).truth(),
            ),
            BinOp::Or => Value::Bool(
                self.operand(a, ctx, base).truth() || self.operand(b, ctx, base).truth(),
            ),
            BinOp::Le | BinOp::Lt if !self.wording() => {
                // x <= t is not x > t; x < t is not x >= t.
                let flipped = if op == BinOp::Le {
                    BinOp::Gt
                } else {
                    BinOp::Ge
                };
                if let Some(v) = self.threshold(flipped, a, b, ctx, base) {
                    return Value::Bool(!v);
                }
                let x = self.operand(a, ctx, base).int();
                let y = self.operand(b, ctx, base).int();
                Value::Bool(if op == BinOp::Le { x <= y } else { x < y })
            }
            BinOp::Gt | BinOp::Ge if !self.wording() => {
                if let Some(v) = self.threshold(op, a, b, ctx, base) {
                    return Value::Bool(v);
                }
                let x = self.operand(a, ctx, base);
                let y = self.operand(b, ctx, base);
                Value::Bool(if op == BinOp::Gt {
                    x.int() > y.int()
                } else {
                    x.int() >= y.int()
                })
            }
            BinOp::In if !self.tracing => {
                let x = self.operand(a, ctx, base);
                if let Op::SetLiteral(items) = &b.op {
                    // Membership in a set the rules spell out, asked item by
                    // item: no set is built for it.
                    for i in items {
                        if self.operand(i, ctx, base) == x {
                            return Value::Bool(true);
                        }
                    }
                    return Value::Bool(false);
                }
                Value::Bool(match self.operand(b, ctx, base) {
                    Value::Set(s) => s.contains(&x),
                    _ => false,
                })
            }
            BinOp::Eq | BinOp::Ne if !self.tracing => {
                if let Some(same) = self.kind_is(a, b, ctx, base) {
                    return Value::Bool(same == (op == BinOp::Eq));
                }
                let x = self.operand(a, ctx, base);
                let y = self.operand(b, ctx, base);
                Value::Bool((x == y) == (op == BinOp::Eq))
            }
            _ => {
                let x = self.operand(a, ctx, base);
                let y = self.operand(b, ctx, base);
                match op {
                    BinOp::Eq => Value::Bool(x == y),
                    BinOp::Ne => Value::Bool(x != y),
                    BinOp::Lt => Value::Bool(x.int() < y.int()),
                    BinOp::Le => Value::Bool(x.int() <= y.int()),
                    BinOp::Gt => Value::Bool(x.int() > y.int()),
                    BinOp::Ge => Value::Bool(x.int() >= y.int()),
                    BinOp::Add => Value::Int(x.int().saturating_add(y.int())),
                    BinOp::Sub => Value::Int(x.int().saturating_sub(y.int())),
                    BinOp::Mul => Value::Int(x.int().saturating_mul(y.int())),
                    BinOp::In => Value::Bool(match &y {
                        Value::Set(s) => s.contains(&x),
                        _ => false,
                    }),
                    BinOp::And | BinOp::Or => Value::Bool(false),
                }
            }
        }
    }

    /// `kind(x) = k` for a kind named in the rules, and `kind(x) =
    /// kind(y)`, the most asked comparisons (the king and pawn exemptions,
    /// material, same-type contact): the pieces' kinds read directly,
    /// without the primitive calls. As there, something not a piece has no
    /// kind, and two such are equal. `None` for any other comparison.
    #[inline(always)]
    fn kind_is(&mut self, a: &'p Node, b: &'p Node, ctx: usize, base: usize) -> Option<bool> {
        let Op::Prim(Prim::KindOf, xs) = &a.op else {
            return None;
        };
        let [x] = xs.as_slice() else {
            return None;
        };
        /// What `x`'s kind is compared with.
        enum Other<'n> {
            Named(Kind),
            KindOf(&'n Node),
        }
        let other = match &b.op {
            Op::Prim(Prim::Kind(k), _) => Other::Named(*k),
            Op::Prim(Prim::KindOf, ys) => match ys.as_slice() {
                [y] => Other::KindOf(y),
                _ => return None,
            },
            _ => return None,
        };
        let v = self.operand(x, ctx, base);
        let kind = self.piece_of(&v).map(|pc| pc.kind);
        let other = match other {
            Other::Named(k) => Some(k),
            Other::KindOf(y) => {
                let w = self.operand(y, ctx, base);
                self.piece_of(&w).map(|pc| pc.kind)
            }
        };
        Some(kind == other)
    }

    /// `exchange(a, b) > t` and `best_capture(s) > t` (or `>=`) asked as
    /// threshold questions: a null-window search answers them with far
    /// fewer nodes than the full value. `None` for any other comparison.
    fn threshold(
        &mut self,
        op: BinOp,
        a: &'p Node,
        b: &'p Node,
        ctx: usize,
        base: usize,
    ) -> Option<bool> {
        let Op::Prim(p, args) = &a.op else {
            return None;
        };
        if !matches!(
            p,
            Prim::Exchange | Prim::RecaptureExchange | Prim::ExchangeSparing | Prim::BestCapture
        ) {
            return None;
        }
        if args.len() > 3 {
            return None;
        }
        let p = *p;
        self.timed(Timed::Primitive(p), |ev| {
            ev.threshold_untimed(p, args, op, b, ctx, base)
        })
    }

    /// [`Self::threshold`] for an exchange or best-capture primitive.
    #[inline(always)]
    fn threshold_untimed(
        &mut self,
        p: Prim,
        args: &'p [Node],
        op: BinOp,
        b: &'p Node,
        ctx: usize,
        base: usize,
    ) -> Option<bool> {
        let mut vals: [Value; 3] = [Value::Bool(false), Value::Bool(false), Value::Bool(false)];
        let n = args.len();
        for (slot, x) in vals.iter_mut().zip(args) {
            *slot = self.operand(x, ctx, base);
        }
        let t = self.operand(b, ctx, base).int();
        let t = if op == BinOp::Ge { t - 1 } else { t };
        Some(match (p, &vals[..n]) {
            (Prim::BestCapture, [Value::Side(s)]) => self.best_above(ctx, *s, t),
            (Prim::ExchangeSparing, [Value::Piece(x), Value::Piece(y), Value::Set(spared)]) => {
                let ask = self.sparing(ctx, spared);
                self.exchange_above(ctx, *x, *y, ask, t)
            }
            (_, [Value::Piece(x), Value::Piece(y)]) => {
                let ask = Ask {
                    recapture: p == Prim::RecaptureExchange,
                    spared: 0,
                };
                self.exchange_above(ctx, *x, *y, ask, t)
            }
            _ => return None,
        })
    }

    /// Whether the exchange `a` takes `b` nets more than `t` for a's side.
    fn exchange_above(&mut self, ctx: usize, a: PieceId, b: PieceId, ask: Ask, t: i64) -> bool {
        let Some(c) = self.ctxs.get(ctx) else {
            return false;
        };
        let (Some(from), Some(to)) = (c.square(a), c.square(b)) else {
            return 0 > t;
        };
        let key = (from.index() as u8, to.index() as u8, ask);
        if let Some(s) = self.cached.exchanges.get(&(ctx, key.0, key.1, ask)) {
            return s.value > t;
        }
        if !self.can_take_sq(ctx, from, to) {
            return 0 > t;
        }
        let c = &self.ctxs[ctx];
        let global = SearchKey::Above(c.pos.hash(), key.0, key.1, ask, t);
        if let Some(s) = self.searches.get(&global) {
            return s.value != 0;
        }
        let limits = limits(self.prog.exchange, ask);
        let mut budget = self.search_budget();
        self.stats.exchanges += 1;
        let king = i64::from(self.prog.values.king);
        let c = &self.ctxs[ctx];
        let (above, exhausted) = match tactics::exchange::exceeds(
            &c.pos,
            Move::new(from, to),
            &self.prog.values,
            limits,
            &mut budget,
            t.clamp(-king + 1, king - 1),
            // `can_take_sq` above found the capture legal.
            tactics::exchange::FirstMove::KnownLegal,
        ) {
            Ok((above, cut)) => (above, cut && budget.is_exhausted()),
            Err(_) => (0 > t, false),
        };
        self.stats.exchange_nodes += budget.used();
        self.charge(&budget, exhausted);
        self.searches
            .insert(global, Searched::bare(i64::from(above), exhausted));
        above
    }

    /// The ask of `exchange_sparing`: the squares the spared pieces stand
    /// on in the context (pieces no longer on the board spare nothing).
    fn sparing(&self, ctx: usize, spared: &[Value]) -> Ask {
        let mut bits = 0u128;
        if let Some(c) = self.ctxs.get(ctx) {
            for v in spared {
                if let Value::Piece(p) = v {
                    if let Some(sq) = c.square(*p) {
                        bits |= sq.bit();
                    }
                }
            }
        }
        Ask {
            recapture: false,
            spared: bits,
        }
    }

    /// Every capture `side` could make in the context: (capturer, target).
    fn captures_of(&mut self, ctx: usize, side: Color) -> Vec<(PieceId, PieceId)> {
        let Some(c) = self.ctxs.get(ctx) else {
            return Vec::new();
        };
        let enemies: Vec<Square> = c
            .pos
            .pieces_of(side.opponent())
            .filter(|(_, p)| p.kind != Kind::King)
            .map(|(sq, _)| sq)
            .collect();
        let mut out = Vec::new();
        for t in enemies {
            for a in self.attackers_of(ctx, t, side).iter() {
                if let Value::Piece(a) = a {
                    out.push((*a, self.ctxs[ctx].id(t)));
                }
            }
        }
        out
    }

    /// Whether `side` has a capture whose exchange nets more than `t`.
    fn best_above(&mut self, ctx: usize, side: Color, t: i64) -> bool {
        if let Some(s) = self
            .ctxs
            .get(ctx)
            .and_then(|c| c.best[side.index()].clone())
        {
            return s.value > t;
        }
        let Some(c) = self.ctxs.get(ctx) else {
            return false;
        };
        if t < 0 {
            // Not capturing at all nets 0.
            return true;
        }
        let global = SearchKey::BestAbove(c.pos.hash(), side, t);
        if let Some(s) = self.searches.get(&global) {
            return s.value != 0;
        }
        let pairs = self.captures_of(ctx, side);
        let mut found = false;
        for (a, b) in pairs {
            if self.exchange_above(ctx, a, b, Ask::default(), t) {
                found = true;
                break;
            }
        }
        self.searches
            .insert(global, Searched::bare(i64::from(found), false));
        found
    }

    /// Whether member `m` passes a quantifier's guard in the context: a
    /// member that fails it would make the filter or body false.
    fn passes(&mut self, guard: Option<Guard>, m: &Value, ctx: usize) -> bool {
        match guard {
            None => true,
            Some(Guard::Attacked) => {
                let Value::Piece(id) = *m else {
                    return true;
                };
                // As `attackers(x)` answers: nothing attacks a piece that
                // is not on the board.
                let (Some(sq), Some(pc)) = (
                    self.ctxs.get(ctx).and_then(|c| c.square(id)),
                    self.ids.get(id as usize).copied().flatten(),
                ) else {
                    return false;
                };
                self.attacked(ctx, sq, pc.color.opponent())
            }
        }
    }

    /// Whether `by` attacks the point (`attackers_of` is not empty). The
    /// common answer, an enemy piece out of reach, comes before any attack
    /// table is touched.
    fn attacked(&mut self, ctx: usize, sq: Square, by: Color) -> bool {
        let Some(Ctx { pos, targets, .. }) = self.ctxs.get_mut(ctx) else {
            return false;
        };
        if out_of_reach(pos, targets, sq, by) {
            return false;
        }
        !self.attackers_of(ctx, sq, by).is_empty()
    }

    fn members(&mut self, set: &'p Node, ctx: usize, base: usize) -> Rc<Vec<Value>> {
        match self.eval(set, ctx, base) {
            Value::Set(s) => s,
            _ => no_members(),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn quantified(
        &mut self,
        q: Quantifier,
        slot: usize,
        var: &str,
        set: &'p Node,
        filter: Option<&'p Node>,
        body: &'p Node,
        guard: Option<Guard>,
        ctx: usize,
        base: usize,
    ) -> Value {
        let members = self.members(set, ctx, base);
        let want = q == Quantifier::Exists;
        // Tracing explains only the member that decided (the witness of an
        // `exists`, the counterexample of a `forall`): it is found first
        // without tracing, then evaluated again, traced.
        let tracing = self.tracing;
        self.tracing = false;
        let mut decided = None;
        for (i, m) in members.iter().enumerate() {
            if !self.passes(guard, m, ctx) {
                continue;
            }
            self.stack[base + slot] = m.clone();
            if !filter.is_none_or(|f| self.eval(f, ctx, base).truth()) {
                continue;
            }
            if self.eval(body, ctx, base).truth() == want {
                decided = Some(i);
                break;
            }
        }
        self.tracing = tracing;
        if !tracing || (self.lean() && self.reading == Reading::Names) {
            return Value::Bool(if decided.is_some() { want } else { !want });
        }
        let Some(i) = decided else {
            if self.exhaustive && want {
                // Why nothing qualified: each member that passed the filter,
                // with the trace of its failure (the first few).
                let mut shown = 0;
                for m in members.iter() {
                    self.stack[base + slot] = m.clone();
                    self.tracing = false;
                    let selected = filter.is_none_or(|f| self.eval(f, ctx, base).truth());
                    self.tracing = true;
                    if !selected {
                        continue;
                    }
                    if shown == MEMBERS_SHOWN {
                        self.fact(Text::new("……", "…"), None);
                        break;
                    }
                    shown += 1;
                    self.open();
                    let holds = self.eval(body, ctx, base).truth();
                    let children = self.close();
                    let t = self.show(m, ctx);
                    self.note(Trace {
                        step: Step::Witness,
                        what: Text::new(
                            cat!(var, " = ", t.zh, "：不成立"),
                            cat!(var, " = ", t.en, ": fails"),
                        ),
                        holds: Some(holds),
                        cite: None,
                        children,
                    });
                }
            }
            let (zh, en) = if want {
                (
                    cat!("没有满足条件的 ", var),
                    cat!("no ", var, " satisfies it"),
                )
            } else {
                (
                    cat!("每个 ", var, " 都满足"),
                    cat!("every ", var, " satisfies it"),
                )
            };
            self.fact(Text::new(zh, en), Some(!want));
            return Value::Bool(!want);
        };
        let m = members[i].clone();
        self.stack[base + slot] = m.clone();
        let outer = self.reading;
        if self.lean() && !want {
            // A `forall`'s counterexample fails.
            self.reading = Reading::Failed;
        }
        self.open();
        if let Some(f) = filter {
            self.eval(f, ctx, base);
        }
        let holds = self.eval(body, ctx, base).truth();
        let children = self.close();
        self.reading = outer;
        // A lean trace leaves the witness unworded: the reasons read the
        // facts under it, not its name.
        let what = if self.lean() {
            Text::default()
        } else {
            let shown = self.show(&m, ctx);
            if want {
                Text::new(
                    cat!(var, " = ", shown.zh, "：成立"),
                    cat!(var, " = ", shown.en, ": holds"),
                )
            } else {
                Text::new(
                    cat!(var, " = ", shown.zh, "：不成立"),
                    cat!(var, " = ", shown.en, ": fails"),
                )
            }
        };
        self.note(Trace {
            step: Step::Witness,
            what,
            holds: Some(holds),
            cite: None,
            children,
        });
        Value::Bool(want)
    }

    /// [`Self::call`], timed.
    #[cold]
    #[inline(never)]
    fn call_timed(&mut self, d: usize, args: &'p [Node], ctx: usize, base: usize) -> Value {
        self.timed(Timed::Definition(d), |ev| ev.call(d, args, ctx, base))
    }

    #[inline(never)]
    fn call(&mut self, d: usize, args: &'p [Node], ctx: usize, base: usize) -> Value {
        let code = &self.prog.defs[d];
        // The arguments go straight into the callee's frame: each argument's
        // evaluation leaves the stack as it found it.
        let inner = self.stack.len();
        for a in args {
            let v = self.operand(a, ctx, base);
            self.stack.push(v);
        }
        let key = if self.prog.cheap.get(d).copied().unwrap_or(false) {
            None
        } else {
            memo_key(d, ctx, &self.stack[inner..])
        };
        if !self.tracing {
            // The common case, and the one the classification runs: no
            // trace to take, so only the memo and the body.
            if let Some(v) = key.and_then(|k| self.memo.get(&k)) {
                let v = v.clone();
                self.stack.truncate(inner);
                return v;
            }
            self.grow_frame(inner + code.frame.max(args.len()));
            let v = self.eval(&code.body, ctx, inner);
            self.stack.truncate(inner);
            if let Some(k) = key {
                self.memo.insert(k, v.clone());
            }
            return v;
        }
        // A lean trace words only a definition the reasons read: one
        // directly in a failed context, named there (see `Reading`);
        // elsewhere its node keeps its place and truth, unworded.
        let worded = self.tracing && (!self.lean() || self.reading == Reading::Names);
        let values: Vec<Value> = if worded {
            self.stack[inner..].to_vec()
        } else {
            Vec::new()
        };
        self.grow_frame(inner + code.frame.max(args.len()));
        let (v, children) = if self.lean() {
            // Whether the definition holds decides what of its body the
            // reasons read; the untraced value mostly comes from the memo.
            let found = self.untraced_body(&code.body, ctx, inner, key);
            let outer = self.reading;
            // Under a failure, only a definition that can hold a context
            // is looked into.
            let failed = || {
                let has_context = self.prog.has_context.get(d).copied().unwrap_or(true);
                has_context.then_some(Reading::Failed)
            };
            let reading = match outer {
                Reading::Names => None,
                Reading::Failed => failed(),
                Reading::Full if matches!(found, Value::Bool(false)) => failed(),
                Reading::Full => Some(Reading::Full),
            };
            match reading {
                None => (found, Vec::new()),
                Some(r) => {
                    self.reading = r;
                    self.open();
                    let v = self.eval(&code.body, ctx, inner);
                    let children = self.close();
                    self.reading = outer;
                    (v, children)
                }
            }
        } else {
            self.open();
            let v = self.eval(&code.body, ctx, inner);
            (v, self.close())
        };
        self.stack.truncate(inner);
        if self.tracing && !worded {
            self.note_unworded(Step::Definition, &v, children);
        } else if self.tracing {
            // `name(args)`, and ` = value` when it is not a truth; the
            // English adds the definition's gloss, and names each argument
            // by its parameter, since the gloss speaks of the parameters:
            // `wins(a = black rook h5, t = red cannon h8) — a taking t wins
            // material`.
            let zh_name = code.label.zh.as_deref().unwrap_or(&code.label.id);
            let en_name = code.label.en.as_deref().unwrap_or(&code.label.id);
            let mut what = Text {
                zh: String::with_capacity(64),
                en: String::with_capacity(96),
            };
            what.zh.push_str(zh_name);
            what.en.push_str(&code.label.id);
            // A definition without parameters is named bare, as it is called.
            if !values.is_empty() {
                what.zh.push('(');
                what.en.push('(');
                for (i, a) in values.iter().enumerate() {
                    if i > 0 {
                        what.zh.push_str(", ");
                        what.en.push_str(", ");
                    }
                    if let Some(name) = code.params.get(i) {
                        what.en.push_str(name);
                        what.en.push_str(" = ");
                    }
                    self.show_into(a, ctx, &mut what);
                }
                what.zh.push(')');
                what.en.push(')');
            }
            let holds = v.holds();
            if holds.is_none() {
                what.zh.push_str(" = ");
                what.en.push_str(" = ");
                self.show_into(&v, ctx, &mut what);
            }
            what.en.push_str(" — ");
            what.en.push_str(en_name);
            self.note(Trace {
                step: Step::Definition,
                what,
                holds,
                cite: code.label.cite.clone(),
                children,
            });
        }
        if let Some(k) = key {
            self.memo.insert(k, v.clone());
        }
        v
    }

    /// Room on the stack up to `frame`, for a body's own locals past its
    /// arguments, if it has any.
    #[inline(always)]
    fn grow_frame(&mut self, frame: usize) {
        if self.stack.len() < frame {
            self.stack.resize(frame, Value::Bool(false));
        }
    }

    /// A definition's body evaluated without tracing (its frame in place),
    /// through the memo.
    fn untraced_body(
        &mut self,
        body: &'p Node,
        ctx: usize,
        inner: usize,
        key: Option<MemoKey>,
    ) -> Value {
        if let Some(v) = key.and_then(|k| self.memo.get(&k)) {
            return v.clone();
        }
        let v = self.untraced(body, ctx, inner);
        if let Some(k) = key {
            self.memo.insert(k, v.clone());
        }
        v
    }

    /// `node` evaluated without tracing.
    fn untraced(&mut self, node: &'p Node, ctx: usize, base: usize) -> Value {
        self.without_tracing(|ev| ev.eval(node, ctx, base))
    }

    /// `f` run with tracing off, and tracing as it was afterwards.
    fn without_tracing<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let was = self.tracing;
        self.tracing = false;
        let v = f(self);
        self.tracing = was;
        v
    }

    fn in_context(&mut self, how: Derive, body: &'p Node, ctx: usize, base: usize) -> Value {
        if self.lean() && self.reading == Reading::Names {
            // Only definitions directly under the failed context are named.
            return self.without_tracing(|ev| ev.in_context(how, body, ctx, base));
        }
        let Some(inner) = self.derive(ctx, how) else {
            if self.wording() {
                let (zh, en) = match how {
                    Derive::Take(a, b) => (
                        cat!(
                            self.piece_text(a, ctx).zh,
                            "不能吃",
                            self.piece_text(b, ctx).zh
                        ),
                        cat!(
                            self.piece_text(a, ctx).en,
                            " cannot take ",
                            self.piece_text(b, ctx).en
                        ),
                    ),
                    Derive::Lift(p) => (
                        cat!("拿掉", self.piece_text(p, ctx).zh, "后的局面不合法"),
                        cat!(
                            "the position without ",
                            self.piece_text(p, ctx).en,
                            " is not a legal one"
                        ),
                    ),
                    Derive::Previously => (
                        "对方上一着不详".to_string(),
                        "the opponent's previous move is not known".to_string(),
                    ),
                    _ => (
                        "此时不能停着（被将军）".to_string(),
                        "no pass is possible here (in check)".to_string(),
                    ),
                };
                self.fact(Text::new(zh, en), Some(false));
            }
            return Value::Bool(false);
        };
        let outer = self.reading;
        if self.lean() && matches!(self.untraced(body, inner, base), Value::Bool(false)) {
            // A failed context is read by the definitions directly in it.
            self.reading = Reading::Names;
        }
        self.open();
        let v = self.eval(body, inner, base);
        let children = self.close();
        self.reading = outer;
        // A lean trace words a context only where the reasons read it:
        // where it failed, or held with facts found in it.
        let worded = !self.lean() || matches!(v, Value::Bool(_));
        if self.tracing && !worded {
            self.note_unworded(Step::Context, &v, children);
        } else if self.tracing {
            let what = match how {
                Derive::Before => Text::new("着法之前", "before the move"),
                Derive::Previously => {
                    Text::new("对方上一着之前", "before the opponent's previous move")
                }
                Derive::Pass => Text::new("停着一步后", "after a pass"),
                Derive::Lift(p) => {
                    let pt = self.piece_text(p, ctx);
                    Text::new(cat!("拿掉", pt.zh), cat!("with ", pt.en, " lifted off"))
                }
                Derive::Take(a, b) => {
                    let pa = self.piece_text(a, ctx);
                    let pb = self.piece_text(b, ctx);
                    Text::new(
                        cat!(pa.zh, "吃", pb.zh, "之后"),
                        cat!("after ", pa.en, " takes ", pb.en),
                    )
                }
            };
            let holds = v.holds();
            self.note(Trace {
                step: Step::Context,
                what,
                holds,
                cite: None,
                children,
            });
        }
        v
    }

    /// `after move(m) { … }` in the verdict: the body judged as move m was
    /// (the position after it the root, `before` and `previously` as
    /// then), and the pieces it gives back named as the cycle names them.
    /// The move's contexts replace the verdict's for the while; searches
    /// are shared by position, so a fact the judgement found is not
    /// searched again.
    #[inline(never)]
    fn after_move(&mut self, m: &'p Node, body: &'p Node, ctx: usize, base: usize) -> Value {
        if self.lean() && self.reading == Reading::Names {
            return self.without_tracing(|ev| ev.after_move(m, body, ctx, base));
        }
        let Value::Move(i) = self.eval(m, ctx, base) else {
            return Value::Bool(false);
        };
        let Some(cycle) = self.cycle else {
            return Value::Bool(false);
        };
        let (Some(before), Some(&mv), Some(ident)) = (
            cycle.positions.get(i),
            cycle.moves.get(i),
            cycle.idents.get(i),
        ) else {
            return Value::Bool(false);
        };
        let previous = previous_move(&cycle.positions, &cycle.moves, cycle.wraps, i);
        // Whatever was being judged (the verdict, or another move when
        // blocks nest) is put back afterwards.
        let ctxs = std::mem::take(&mut self.ctxs);
        let derived = std::mem::take(&mut self.derived);
        let memo = std::mem::take(&mut self.memo);
        let ids = self.ids;
        let judged = self.judged;
        let previous_move = self.previous.take();
        let moved = self.moved;
        let exhausted = self.exhausted;
        self.start_move(before, mv, previous);
        self.cycle = Some(cycle);
        self.open();
        let v = self.eval(body, 0, base);
        let children = self.close();
        self.ctxs = ctxs;
        self.derived = derived;
        self.memo = memo;
        self.ids = ids;
        self.judged = judged;
        self.previous = previous_move;
        self.moved = moved;
        self.exhausted |= exhausted;
        let as_cycle = |v: &Value| match v {
            Value::Piece(p) => ident
                .get(*p as usize)
                .copied()
                .filter(|c| *c != u8::MAX)
                .map(Value::Piece),
            other => Some(other.clone()),
        };
        let v = match &v {
            Value::Set(members) => {
                Value::Set(Rc::new(members.iter().filter_map(as_cycle).collect()))
            }
            other => as_cycle(other).unwrap_or(Value::Bool(false)),
        };
        if self.tracing {
            let holds = v.holds();
            self.note(Trace {
                step: Step::Context,
                what: Text::new(cat!("第", i + 1, "着之后"), cat!("after move ", i + 1)),
                holds,
                cite: None,
                children,
            });
        }
        v
    }

    /// The context `how` derives from `ctx`, built once; `None` when it
    /// cannot be (a capture that is not legal, a pass in check).
    fn derive(&mut self, ctx: usize, how: Derive) -> Option<usize> {
        if how == Derive::Before {
            return Some(1);
        }
        // Like `before`, `previously` is the judged move's, however nested.
        let ctx = if how == Derive::Previously { 1 } else { ctx };
        if let Some(found) = self.derived.get(&(ctx, how)) {
            return *found;
        }
        let made = self.build(ctx, how);
        self.stats.contexts += 1;
        let index = made.map(|c| {
            self.ctxs.push(c);
            self.ctxs.len() - 1
        });
        self.derived.insert((ctx, how), index);
        index
    }

    fn build(&mut self, ctx: usize, how: Derive) -> Option<Ctx> {
        let c = self.ctxs.get(ctx)?;
        match how {
            Derive::Before => None,
            Derive::Previously => {
                // Back from `before` over the opponent's previous move: the
                // piece it moved returns to its origin, a piece it took
                // comes back under an id of its own.
                let (pos, pm) = self.previous.as_ref()?;
                let (pos, pm) = (pos.clone(), *pm);
                let mut replay = pos.clone();
                let undo = replay.make(pm);
                if replay.repetition_key() != c.pos.repetition_key() {
                    return None;
                }
                let mut id_at = c.id_at;
                id_at[pm.from.index()] = c.id_at[pm.to.index()];
                id_at[pm.to.index()] = NONE;
                if let Some(taken) = undo.captured() {
                    self.ids[PREVIOUS_GHOST] = Some(taken);
                    id_at[pm.to.index()] = PREVIOUS_GHOST as u8;
                }
                let mut sq_of = [NONE; IDS];
                for (sq, id) in id_at.iter().enumerate() {
                    if *id != NONE {
                        sq_of[*id as usize] = sq as u8;
                    }
                }
                Some(Ctx::with(pos, id_at, sq_of))
            }
            Derive::Pass => {
                if c.pos.in_check() {
                    return None;
                }
                let mut pos = c.pos.clone();
                pos.pass();
                Some(Ctx::with(pos, c.id_at, c.sq_of))
            }
            Derive::Lift(p) => {
                let sq = c.square(p)?;
                if c.pos.piece_at(sq).is_some_and(|pc| pc.kind == Kind::King) {
                    return None;
                }
                let mut setup = c.pos.to_setup();
                setup.put(sq, None);
                let pos = setup.validate().ok()?;
                let mut id_at = c.id_at;
                let mut sq_of = c.sq_of;
                id_at[sq.index()] = NONE;
                sq_of[p as usize] = NONE;
                Some(Ctx::with(pos, id_at, sq_of))
            }
            Derive::Take(a, b) => {
                let from = c.square(a)?;
                let to = c.square(b)?;
                if !self.can_take_sq(ctx, from, to) {
                    return None;
                }
                let c = &self.ctxs[ctx];
                let mover = c.pos.piece_at(from)?.color;
                let mut pos = c.pos.clone();
                if pos.side_to_move() != mover {
                    if pos.in_check() {
                        return None;
                    }
                    pos.pass();
                }
                pos.make(Move::new(from, to));
                let mut id_at = c.id_at;
                let mut sq_of = c.sq_of;
                id_at[to.index()] = a;
                id_at[from.index()] = NONE;
                sq_of[b as usize] = NONE;
                sq_of[a as usize] = to.index() as u8;
                Some(Ctx::with(pos, id_at, sq_of))
            }
        }
    }

    // ---- primitives ------------------------------------------------------

    /// [`Self::prim`], timed; the constants are not worth a clock reading.
    #[cold]
    #[inline(never)]
    fn prim_timed(&mut self, p: Prim, args: &'p [Node], ctx: usize, base: usize) -> Value {
        if matches!(
            p,
            Prim::Mover | Prim::Opponent | Prim::Moved | Prim::Side(_) | Prim::Kind(_)
        ) {
            return self.prim(p, args, ctx, base);
        }
        self.timed(Timed::Primitive(p), |ev| ev.prim(p, args, ctx, base))
    }

    fn prim(&mut self, p: Prim, args: &'p [Node], ctx: usize, base: usize) -> Value {
        // The constants and the judged move's facts, a third of all calls,
        // before the argument slots are set up.
        let judged = self.judged;
        match p {
            Prim::Mover => {
                return judged.map_or(Value::Bool(false), |j| Value::Side(j.mover));
            }
            Prim::Opponent => {
                return judged.map_or(Value::Bool(false), |j| Value::Side(j.mover.opponent()));
            }
            Prim::Moved => return Value::Piece(self.moved),
            Prim::Side(c) => return Value::Side(c),
            Prim::Kind(k) => return Value::Kind(k),
            _ => {}
        }
        let mut v: [Value; 3] = [Value::Bool(false), Value::Bool(false), Value::Bool(false)];
        for (i, a) in args.iter().take(3).enumerate() {
            v[i] = self.operand(a, ctx, base);
        }
        let out = self.prim_on(p, &v, ctx, judged);
        // Only a set needs dropping: the other values are plain data, and
        // the array's drop was a call of its own on every primitive.
        if v.iter().any(|x| matches!(x, Value::Set(_))) {
            drop(v);
        } else {
            std::mem::forget(v);
        }
        out
    }

    /// [`Self::prim`] once its arguments are worked out.
    #[inline(always)]
    fn prim_on(
        &mut self,
        p: Prim,
        v: &[Value; 3],
        ctx: usize,
        judged: Option<JudgedMove>,
    ) -> Value {
        match p {
            // Answered above.
            Prim::Mover | Prim::Opponent | Prim::Moved | Prim::Side(_) | Prim::Kind(_) => {
                Value::Bool(false)
            }
            Prim::AnswersCheck => Value::Bool(judged.is_some_and(|j| j.answers_check)),
            Prim::Captured => Value::Bool(judged.is_some_and(|j| j.captured.is_some())),
            Prim::Other => match v[0] {
                Value::Side(s) => Value::Side(s.opponent()),
                _ => Value::Bool(false),
            },
            Prim::Pieces | Prim::PiecesOf => {
                let Some(c) = self.ctxs.get(ctx) else {
                    return Value::Set(no_members());
                };
                let Value::Side(side) = v[0] else {
                    return Value::Set(no_members());
                };
                let kind = match (&p, &v[1]) {
                    (Prim::PiecesOf, Value::Kind(k)) => Some(*k),
                    _ => None,
                };
                if kind.is_none() {
                    if let Some(set) = &c.pieces[side.index()] {
                        return Value::Set(set.clone());
                    }
                }
                let set: Rc<Vec<Value>> = Rc::new(
                    c.pos
                        .pieces_of(side)
                        .filter(|(_, pc)| kind.is_none_or(|k| pc.kind == k))
                        .map(|(sq, _)| Value::Piece(c.id(sq)))
                        .collect(),
                );
                if kind.is_none() {
                    self.ctxs[ctx].pieces[side.index()] = Some(set.clone());
                }
                Value::Set(set)
            }
            Prim::SideOf => self
                .piece_of(&v[0])
                .map_or(Value::Bool(false), |pc| Value::Side(pc.color)),
            Prim::KindOf => self
                .piece_of(&v[0])
                .map_or(Value::Bool(false), |pc| Value::Kind(pc.kind)),
            Prim::Value => {
                let Value::Piece(id) = v[0] else {
                    return Value::Int(0);
                };
                Value::Int(self.value_of(id, ctx))
            }
            Prim::Crossed => {
                let Value::Piece(id) = v[0] else {
                    return Value::Bool(false);
                };
                let on = self.ctxs.get(ctx).and_then(|c| c.square(id));
                Value::Bool(match (on, self.ids[id as usize]) {
                    (Some(sq), Some(pc)) => sq.crossed_river(pc.color),
                    _ => false,
                })
            }
            Prim::Material => {
                let (Value::Side(s), Some(c)) = (&v[0], self.ctxs.get(ctx)) else {
                    return Value::Int(0);
                };
                let t = &self.prog.values;
                let sum: i64 = c
                    .pos
                    .pieces_of(*s)
                    .filter(|(_, p)| p.kind != Kind::King)
                    .map(|(sq, p)| i64::from(t.value_of(p, sq)))
                    .sum();
                Value::Int(sum)
            }
            Prim::CanTake => {
                let (Value::Piece(a), Value::Piece(b)) = (&v[0], &v[1]) else {
                    return Value::Bool(false);
                };
                let (a, b) = (*a, *b);
                let sqs = self
                    .ctxs
                    .get(ctx)
                    .and_then(|c| Some((c.square(a)?, c.square(b)?)));
                let yes = sqs.is_some_and(|(f, t)| self.can_take_sq(ctx, f, t));
                if self.wording() {
                    let (pa, pb) = (self.piece_text(a, ctx), self.piece_text(b, ctx));
                    let t = if yes {
                        Text::new(
                            cat!(pa.zh, "可以吃", pb.zh),
                            cat!(pa.en, " can take ", pb.en),
                        )
                    } else {
                        Text::new(
                            cat!(pa.zh, "不能吃", pb.zh),
                            cat!(pa.en, " cannot take ", pb.en),
                        )
                    };
                    self.fact(t, Some(yes));
                }
                Value::Bool(yes)
            }
            Prim::Attackers => {
                let Value::Piece(id) = v[0] else {
                    return Value::Set(no_members());
                };
                let (Some(sq), Some(pc)) = (
                    self.ctxs.get(ctx).and_then(|c| c.square(id)),
                    self.ids[id as usize],
                ) else {
                    return Value::Set(no_members());
                };
                Value::Set(self.attackers_of(ctx, sq, pc.color.opponent()))
            }
            Prim::RealRoots | Prim::FakeRoots => {
                let Value::Piece(id) = v[0] else {
                    return Value::Set(no_members());
                };
                let Some(sq) = self.ctxs.get(ctx).and_then(|c| c.square(id)) else {
                    return Value::Set(no_members());
                };
                let roots = self.roots(ctx, sq);
                let list = if p == Prim::RealRoots {
                    &roots.0
                } else {
                    &roots.1
                };
                let set = self.piece_set(ctx, list);
                if self.wording() {
                    let pt = self.piece_text(id, ctx);
                    let (zh, en) = self.piece_names(ctx, list);
                    let t = match (p, list.is_empty()) {
                        (Prim::RealRoots, true) => {
                            Text::new(cat!(pt.zh, "无根"), cat!(pt.en, " has no root"))
                        }
                        (Prim::RealRoots, false) => {
                            Text::new(cat!(pt.zh, "有根：", zh), cat!(pt.en, " is rooted by ", en))
                        }
                        (_, true) => {
                            Text::new(cat!(pt.zh, "无假根"), cat!(pt.en, " has no fake root"))
                        }
                        _ => Text::new(
                            cat!(pt.zh, "的假根：", zh),
                            cat!(pt.en, " has fake roots ", en),
                        ),
                    };
                    self.fact(t, None);
                }
                Value::Set(set)
            }
            Prim::RootsAgainst => {
                let (Some(Value::Piece(id)), Some(Value::Piece(a))) = (v.first(), v.get(1)) else {
                    return Value::Set(no_members());
                };
                let (id, a) = (*id, *a);
                let c = &self.ctxs[ctx];
                let (Some(sq), Some(from)) = (c.square(id), c.square(a)) else {
                    return Value::Set(no_members());
                };
                // The roots against this one capture: the capturer leaves its
                // point (a cannon's screen, a rook's blocker) and lands on p's.
                let list = self.roots_against(ctx, sq, from);
                let set = self.piece_set(ctx, &list);
                if self.wording() {
                    let pt = self.piece_text(id, ctx);
                    let at = self.piece_text(a, ctx);
                    let (zh, en) = self.piece_names(ctx, &list);
                    let t = if list.is_empty() {
                        Text::new(
                            cat!(at.zh, "吃", pt.zh, "后无根可还吃"),
                            cat!(pt.en, " has no root against ", at.en),
                        )
                    } else {
                        Text::new(
                            cat!(at.zh, "吃", pt.zh, "后可还吃：", zh),
                            cat!(pt.en, " is rooted against ", at.en, " by ", en),
                        )
                    };
                    self.fact(t, None);
                }
                Value::Set(set)
            }
            Prim::Exchange | Prim::RecaptureExchange | Prim::ExchangeSparing => {
                let (Some(Value::Piece(a)), Some(Value::Piece(b))) = (v.first(), v.get(1)) else {
                    return Value::Int(0);
                };
                let (a, b) = (*a, *b);
                let ask = match v.get(2) {
                    Some(Value::Set(spared)) => {
                        let spared = spared.clone();
                        self.sparing(ctx, &spared)
                    }
                    _ => Ask {
                        recapture: p == Prim::RecaptureExchange,
                        spared: 0,
                    },
                };
                let s = self.exchange(ctx, a, b, ask);
                if self.wording() {
                    let (pa, pb) = (self.piece_text(a, ctx), self.piece_text(b, ctx));
                    let mut line = line_text(s.start.as_deref(), &s.line);
                    // What the English says before the line: the pieces the
                    // question leaves aside, if any.
                    let mut aside = String::new();
                    if let Some(Value::Set(spared)) = v.get(2) {
                        let names: Vec<Text> = spared
                            .iter()
                            .filter_map(|x| match x {
                                // The capturer leaves its square: sparing it says nothing.
                                Value::Piece(q)
                                    if *q != a && self.ctxs[ctx].square(*q).is_some() =>
                                {
                                    Some(self.piece_text(*q, ctx))
                                }
                                _ => None,
                            })
                            .collect();
                        if !names.is_empty() {
                            let zh: Vec<&str> = names.iter().map(|t| t.zh.as_str()).collect();
                            let en: Vec<&str> = names.iter().map(|t| t.en.as_str()).collect();
                            line.zh.push_str(&cat!("（不计吃", zh.join("、"), "）"));
                            aside = cat!(", taking ", en.join(", "), " left aside");
                        }
                    }
                    let t = match s.refused {
                        Some(why) => Text::new(
                            cat!(pa.zh, "吃", pb.zh, "无从谈起：", why),
                            cat!(pa.en, " taking ", pb.en, ": not possible (", why, ")"),
                        ),
                        None => Text::new(
                            cat!(
                                pa.zh,
                                "吃",
                                pb.zh,
                                "的完整交换",
                                line.zh,
                                "：净得",
                                Signed(s.value),
                                if s.exhausted {
                                    "（搜索预算用尽）"
                                } else {
                                    ""
                                }
                            ),
                            cat!(
                                "exchange ",
                                pa.en,
                                " takes ",
                                pb.en,
                                aside,
                                ": ",
                                line.en,
                                ", net ",
                                Signed(s.value),
                                if s.exhausted {
                                    " (search budget ran out)"
                                } else {
                                    ""
                                }
                            ),
                        ),
                    };
                    self.fact(t, None);
                }
                Value::Int(s.value)
            }
            Prim::BestCapture | Prim::CheckGain => {
                let Value::Side(side) = v[0] else {
                    return Value::Int(0);
                };
                let check = p == Prim::CheckGain;
                let s = if check {
                    self.check_gain(ctx, side)
                } else {
                    self.best_capture(ctx, side)
                };
                if self.wording() {
                    let line = line_text(s.start.as_deref(), &s.line);
                    let (zh, en) = (side.chinese(), side.english());
                    let t = match (check, s.value > 0) {
                        (false, true) => Text::new(
                            cat!(zh, "方最好的吃子", line.zh, "净得", Signed(s.value)),
                            cat!(en, "'s best capture nets ", Signed(s.value), ": ", line.en),
                        ),
                        (true, true) => Text::new(
                            cat!(zh, "方可先将军得子", line.zh, "净得", Signed(s.value)),
                            cat!(
                                en,
                                " wins material starting with a check, net ",
                                Signed(s.value),
                                ": ",
                                line.en
                            ),
                        ),
                        (false, false) => Text::new(
                            cat!(zh, "方没有得子的吃法"),
                            cat!(en, " has no capture that wins material"),
                        ),
                        (true, false) => Text::new(
                            cat!(zh, "方没有将军得子的着法"),
                            cat!(en, " has no check that wins material"),
                        ),
                    };
                    self.fact(t, None);
                }
                Value::Int(s.value)
            }
            Prim::InCheck => {
                let Value::Side(side) = v[0] else {
                    return Value::Bool(false);
                };
                let yes = self.ctxs.get(ctx).is_some_and(|c| c.pos.is_in_check(side));
                if self.wording() && yes {
                    self.fact(
                        Text::new(
                            cat!(side.chinese(), "方被将军"),
                            cat!(side.english(), " is in check"),
                        ),
                        Some(true),
                    );
                }
                Value::Bool(yes)
            }
            Prim::Mated => {
                let Value::Side(side) = v[0] else {
                    return Value::Bool(false);
                };
                let Some(c) = self.ctxs.get(ctx) else {
                    return Value::Bool(false);
                };
                let yes = if c.pos.side_to_move() == side {
                    !c.pos.has_legal_move()
                } else if c.pos.in_check() {
                    false
                } else {
                    let mut p = c.pos.clone();
                    p.pass();
                    !p.has_legal_move()
                };
                if self.wording() {
                    self.fact(
                        if yes {
                            Text::new(
                                cat!(side.chinese(), "方无着可走"),
                                cat!(side.english(), " has no legal move"),
                            )
                        } else {
                            Text::new(
                                cat!(side.chinese(), "方有着可走"),
                                cat!(side.english(), " has a legal move"),
                            )
                        },
                        Some(yes),
                    );
                }
                Value::Bool(yes)
            }
            Prim::MatesIn | Prim::MateByChecks | Prim::ThreatensMate => {
                let (Value::Side(side), n) = (&v[0], v[1].int()) else {
                    return Value::Bool(false);
                };
                let side = *side;
                // `mates_in` counts the side's own moves, quiet ones included;
                // the others count plies of consecutive checks.
                let any = p == Prim::MatesIn;
                let s = self.mate(ctx, side, n, p == Prim::ThreatensMate, any);
                let yes = s.value != 0;
                if self.wording() {
                    let line = line_text(s.start.as_deref(), &s.line);
                    let (zh, en) = (side.chinese(), side.english());
                    let t = match (yes, s.exhausted, any) {
                        (true, _, true) => Text::new(
                            cat!(zh, "方", n, "步内可以杀棋：", line.zh),
                            cat!(en, " mates within ", n, " moves: ", line.en),
                        ),
                        (true, _, false) => Text::new(
                            cat!(zh, "方有连将杀：", line.zh),
                            cat!(en, " mates by checks: ", line.en),
                        ),
                        (false, true, _) => Text::new(
                            cat!(zh, "方杀棋搜索预算用尽，按无杀论"),
                            cat!(
                                "the mate search for ",
                                en,
                                " ran out of budget: taken as no mate"
                            ),
                        ),
                        (false, false, true) => Text::new(
                            cat!(zh, "方", n, "步内无杀"),
                            cat!(en, " has no mate within ", n, " moves"),
                        ),
                        (false, false, false) => Text::new(
                            cat!(zh, "方", n.div_euclid(2) + 1, "步内无连将杀"),
                            cat!(en, " has no mate by checks within ", n, " plies"),
                        ),
                    };
                    self.fact(t, Some(yes));
                }
                Value::Bool(yes)
            }
            Prim::Checkers => {
                let (Value::Side(side), Some(c)) = (&v[0], self.ctxs.get(ctx)) else {
                    return Value::Set(no_members());
                };
                // Mostly the side is not in check: one attack test on the
                // king says so before any list is made.
                if !c.pos.is_in_check(*side) {
                    return Value::Set(no_members());
                }
                let king = c.pos.king(*side);
                let list = tactics::attack::pseudo_attackers(&c.pos, king, side.opponent());
                if list.is_empty() {
                    return Value::Set(no_members());
                }
                Value::Set(Rc::new(
                    list.iter().map(|a| Value::Piece(c.id(a.square))).collect(),
                ))
            }
            Prim::Moves => {
                let (Value::Side(side), Some(cycle)) = (&v[0], self.cycle) else {
                    return Value::Set(no_members());
                };
                Value::Set(Rc::new(
                    cycle
                        .sides
                        .iter()
                        .enumerate()
                        .filter(|(_, s)| *s == side)
                        .map(|(i, _)| Value::Move(i))
                        .collect(),
                ))
            }
            Prim::NatureOf => {
                let (Value::Move(m), Some(cycle)) = (&v[0], self.cycle) else {
                    return Value::Bool(false);
                };
                cycle
                    .heaviest
                    .get(*m)
                    .map_or(Value::Bool(false), |n| Value::Nature(*n))
            }
            Prim::Witnesses => {
                let (Value::Move(m), Some(cycle)) = (&v[0], self.cycle) else {
                    return Value::Set(no_members());
                };
                Value::Set(Rc::new(
                    cycle
                        .witnesses
                        .get(*m)
                        .map(|w| w.iter().map(|p| Value::Piece(*p)).collect())
                        .unwrap_or_default(),
                ))
            }
            Prim::NaturesOf => {
                let (Value::Move(m), Some(cycle)) = (&v[0], self.cycle) else {
                    return Value::Set(no_members());
                };
                let bits = cycle.natures.get(*m).copied().unwrap_or(0);
                Value::Set(Rc::new(
                    (0..64)
                        .filter(|i| bits & (1u64 << i) != 0)
                        .map(Value::Nature)
                        .collect(),
                ))
            }
        }
    }

    fn piece_of(&self, v: &Value) -> Option<Piece> {
        match v {
            Value::Piece(id) => self.ids.get(*id as usize).copied().flatten(),
            _ => None,
        }
    }

    fn value_of(&self, id: PieceId, ctx: usize) -> i64 {
        let Some(pc) = self.ids.get(id as usize).copied().flatten() else {
            return 0;
        };
        let sq = self
            .ctxs
            .get(ctx)
            .and_then(|c| c.square(id))
            .or_else(|| Square::from_index(id as usize % 90));
        sq.map_or(0, |sq| i64::from(self.prog.values.value_of(pc, sq)))
    }

    /// The pieces of `by` that can take on `sq` in the context, by id.
    fn attackers_of(&mut self, ctx: usize, sq: Square, by: Color) -> Rc<Vec<Value>> {
        let Ctx {
            pos,
            id_at,
            attackers,
            targets,
            ..
        } = &mut self.ctxs[ctx];
        let table = attackers[by.index()]
            .get_or_insert_with(|| self.spare_tables.pop().unwrap_or_else(AttackTable::new));
        let Some(entry) = table.slots.get_mut(sq.index()) else {
            return no_members();
        };
        table.filled |= sq.bit();
        if let Some(found) = entry {
            return found.clone();
        }
        if out_of_reach(pos, targets, sq, by) {
            let none = no_members();
            *entry = Some(none.clone());
            return none;
        }
        let mut list = Vec::new();
        tactics::attack::visit_attackers(pos, sq, by, |a| {
            list.push(Value::Piece(id_at[a.square.index()]));
        });
        let list = if list.is_empty() {
            no_members()
        } else {
            Rc::new(list)
        };
        *entry = Some(list.clone());
        list
    }

    fn can_take_sq(&mut self, ctx: usize, from: Square, to: Square) -> bool {
        let Some(c) = self.ctxs.get(ctx) else {
            return false;
        };
        let (Some(a), Some(b)) = (c.pos.piece_at(from), c.pos.piece_at(to)) else {
            return false;
        };
        if a.color == b.color || b.kind == Kind::King {
            return false;
        }
        let id = self.ctxs[ctx].id(from);
        self.attackers_of(ctx, to, a.color)
            .contains(&Value::Piece(id))
    }

    /// The pieces on `squares` in context `ctx`, as a set value.
    fn piece_set(&self, ctx: usize, squares: &[Square]) -> Rc<Vec<Value>> {
        if squares.is_empty() {
            return no_members();
        }
        let c = &self.ctxs[ctx];
        Rc::new(squares.iter().map(|s| Value::Piece(c.id(*s))).collect())
    }

    /// The pieces on `squares` named in both languages, joined as a list.
    fn piece_names(&self, ctx: usize, squares: &[Square]) -> (String, String) {
        let names: Vec<Text> = squares
            .iter()
            .map(|s| self.piece_text(self.ctxs[ctx].id(*s), ctx))
            .collect();
        let zh: Vec<&str> = names.iter().map(|t| t.zh.as_str()).collect();
        let en: Vec<&str> = names.iter().map(|t| t.en.as_str()).collect();
        (zh.join("、"), en.join(", "))
    }

    fn roots_against(&mut self, ctx: usize, sq: Square, from: Square) -> Rc<Vec<Square>> {
        let key = (ctx, sq.index() as u8, from.index() as u8);
        if let Some(r) = self.cached.against.get(&key) {
            return r.clone();
        }
        // Only a legal capture has roots against it; which captures are
        // legal the attack table of the context knows already.
        let c = &self.ctxs[ctx];
        let (Some(by), id) = (c.pos.piece_at(from), c.id(from)) else {
            return Rc::new(Vec::new());
        };
        let legal = self
            .attackers_of(ctx, sq, by.color)
            .contains(&Value::Piece(id));
        let r = Rc::new(if legal {
            tactics::protection::recapturers(&self.ctxs[ctx].pos, from, sq)
        } else {
            Vec::new()
        });
        self.cached.against.insert(key, r.clone());
        r
    }

    fn roots(&mut self, ctx: usize, sq: Square) -> Rc<Roots> {
        let key = (ctx, sq.index() as u8);
        if let Some(r) = self.cached.roots.get(&key) {
            return r.clone();
        }
        let r = Rc::new(tactics::protection::roots(&self.ctxs[ctx].pos, sq).unwrap_or_default());
        self.cached.roots.insert(key, r.clone());
        r
    }

    fn search_budget(&mut self) -> NodeBudget {
        NodeBudget::new(SEARCH_NODES.min(self.budget.remaining()))
    }

    fn charge(&mut self, spent: &NodeBudget, exhausted: bool) {
        self.budget.spend_many(spent.used());
        if exhausted {
            self.exhausted = true;
        }
    }

    fn exchange(&mut self, ctx: usize, a: PieceId, b: PieceId, ask: Ask) -> Searched {
        let refused = |why| Searched {
            value: 0,
            line: no_line(),
            start: None,
            exhausted: false,
            refused: Some(why),
        };
        let Some(c) = self.ctxs.get(ctx) else {
            return refused("no position");
        };
        let (Some(from), Some(to)) = (c.square(a), c.square(b)) else {
            return refused("棋子不在盘上 / a piece is not on the board");
        };
        let key = (ctx, from.index() as u8, to.index() as u8, ask);
        if let Some(s) = self.cached.exchanges.get(&key) {
            return s.clone();
        }
        let global = SearchKey::Exchange(c.pos.hash(), key.1, key.2, ask);
        if let Some(s) = self.searches.get(&global) {
            let s = s.clone();
            self.cached.exchanges.insert(key, s.clone());
            return s;
        }
        if !self.can_take_sq(ctx, from, to) {
            let s = refused("不能吃 / the capture is not legal");
            self.cached.exchanges.insert(key, s.clone());
            return s;
        }
        self.stats.exchanges += 1;
        let limits = limits(self.prog.exchange, ask);
        let mut budget = self.search_budget();
        let c = &self.ctxs[ctx];
        let start = {
            let mut p = c.pos.clone();
            if p.side_to_move() != c.pos.piece_at(from).map_or(p.side_to_move(), |pc| pc.color) {
                p.pass();
            }
            p
        };
        let king = i64::from(self.prog.values.king);
        let s = match tactics::exchange_for(
            &c.pos,
            Move::new(from, to),
            &self.prog.values,
            limits,
            &mut budget,
        ) {
            Ok(r) => {
                let value = match r.mated {
                    Some(m) if m == r.starter => -king,
                    Some(_) => king,
                    None => i64::from(r.net),
                };
                Searched {
                    value,
                    line: Rc::new(r.line),
                    start: Some(Rc::new(start)),
                    exhausted: r.exhausted && budget.is_exhausted(),
                    refused: None,
                }
            }
            Err(_) => refused("对方被将军，不能停着 / the other side is in check"),
        };
        let exhausted = s.exhausted;
        self.stats.exchange_nodes += budget.used();
        self.charge(&budget, exhausted);
        self.cached.exchanges.insert(key, s.clone());
        self.searches.insert(global, s.clone());
        s
    }

    fn best_capture(&mut self, ctx: usize, side: Color) -> Searched {
        if let Some(s) = self
            .ctxs
            .get(ctx)
            .and_then(|c| c.best[side.index()].clone())
        {
            return s;
        }
        let mut best = Searched::bare(0, false);
        let targets = self.captures_of(ctx, side);
        for (a, b) in targets {
            // A null-window question first: only a capture that beats the
            // best so far is searched for its full value and line.
            if !self.exchange_above(ctx, a, b, Ask::default(), best.value) {
                continue;
            }
            let s = self.exchange(ctx, a, b, Ask::default());
            if s.refused.is_none() && s.value > best.value {
                best = s;
            }
        }
        if let Some(c) = self.ctxs.get_mut(ctx) {
            c.best[side.index()] = Some(best.clone());
        }
        best
    }

    /// 24.3's "from the next move, by check or consecutive checks": the
    /// best segment `side` could open with a check that takes nothing, as
    /// [`Self::best_capture`] does with captures. Only a check that beats
    /// the best so far is searched for its value and line.
    fn check_gain(&mut self, ctx: usize, side: Color) -> Searched {
        let Some(c) = self.ctxs.get(ctx) else {
            return Searched::bare(0, false);
        };
        if let Some(s) = c.check_best[side.index()].clone() {
            return s;
        }
        let mut start = c.pos.clone();
        let mut best = Searched::bare(0, false);
        if start.side_to_move() != side {
            if start.in_check() {
                return best;
            }
            start.pass();
        }
        // Only the moves that may check are generated (the search's own
        // filter); each is then made to see that it does.
        let filter = tactics::attack::CheckFilter::new(&start);
        let wanted = filter.wanted(&start, false);
        let (quiet, _) = start.legal_moves_wanted(&wanted, |m| {
            start.piece_at(m.to).is_none() && filter.may_check(&start, m)
        });
        let mut probe = start.clone();
        let checks: Vec<Move> = quiet
            .iter()
            .copied()
            .filter(|&m| {
                let undo = probe.make(m);
                let check = probe.in_check();
                probe.unmake(m, undo);
                check
            })
            .collect();
        // The check that opens the segment is its one quiet move: after it
        // only captures (checking or not) and answers to check follow, so a
        // win through several quiet checks in a row is not seen. Allowing
        // the edition's two quiet checks here made the rulings of the master
        // games' cycles take 1.6 ms at the 99th percentile and 14.5 ms at
        // worst (0.36 and 1.0 ms without them).
        let limits = ExchangeLimits {
            max_quiet_checks: 0,
            ..limits(self.prog.exchange, Ask::default())
        };
        let king = i64::from(self.prog.values.king);
        for m in checks {
            let mut budget = self.search_budget();
            self.stats.exchanges += 1;
            let above = tactics::exchange::exceeds(
                &start,
                m,
                &self.prog.values,
                limits,
                &mut budget,
                best.value.clamp(-king + 1, king - 1),
                tactics::exchange::FirstMove::KnownLegal,
            );
            self.stats.exchange_nodes += budget.used();
            let cut = matches!(above, Ok((_, true))) && budget.is_exhausted();
            self.charge(&budget, cut);
            if !matches!(above, Ok((true, _))) {
                continue;
            }
            let mut budget = self.search_budget();
            let r = tactics::exchange::exchange(&start, m, &self.prog.values, limits, &mut budget);
            self.stats.exchange_nodes += budget.used();
            let exhausted = matches!(&r, Ok(r) if r.exhausted) && budget.is_exhausted();
            self.charge(&budget, exhausted);
            if let Ok(r) = r {
                // A line that mates is a mate threat (杀), which weighs more
                // and is asked apart: here only material counts.
                let value = match r.mated {
                    Some(m) if m == r.starter => -king,
                    Some(_) => continue,
                    None => i64::from(r.net),
                };
                if value > best.value {
                    best = Searched {
                        value,
                        line: Rc::new(r.line),
                        start: Some(Rc::new(start.clone())),
                        exhausted,
                        refused: None,
                    };
                }
            }
        }
        if let Some(c) = self.ctxs.get_mut(ctx) {
            c.check_best[side.index()] = Some(best.clone());
        }
        best
    }

    /// `any`: a mate within `plies` own moves, quiet moves included
    /// (`mates_in`); otherwise by consecutive checks within `plies` plies.
    fn mate(&mut self, ctx: usize, side: Color, plies: i64, threat: bool, any: bool) -> Searched {
        let no = |exhausted, refused| Searched {
            value: 0,
            line: no_line(),
            start: None,
            exhausted,
            refused,
        };
        let Some(c) = self.ctxs.get(ctx) else {
            return no(false, Some("no position"));
        };
        let key = (ctx, side, plies, threat, any);
        if let Some(s) = self.cached.mates.get(&key) {
            return s.clone();
        }
        let global = SearchKey::Mate(c.pos.hash(), side, plies, any);
        if let Some(s) = self.searches.get(&global) {
            let s = s.clone();
            self.cached.mates.insert(key, s.clone());
            return s;
        }
        let mut start = c.pos.clone();
        if start.side_to_move() != side {
            if start.in_check() {
                let s = no(false, Some("对方被将军 / the other side is in check"));
                self.cached.mates.insert(key, s.clone());
                return s;
            }
            start.pass();
        }
        let plies = usize::try_from(plies.max(0)).unwrap_or(0);
        let mut budget = self.search_budget();
        self.stats.mates += 1;
        let r = if any {
            tactics::mate_in(&start, plies, &mut budget)
        } else {
            tactics::mate_by_checks(&start, plies, &mut budget)
        };
        self.stats.mate_nodes += budget.used();
        let s = match r {
            MateSearch::Mate(line) => Searched {
                value: 1,
                line: Rc::new(line),
                start: Some(Rc::new(start)),
                exhausted: false,
                refused: None,
            },
            MateSearch::NoMate => no(false, None),
            MateSearch::BudgetExhausted => no(true, None),
        };
        let exhausted = s.exhausted;
        self.charge(&budget, exhausted);
        self.cached.mates.insert(key, s.clone());
        self.searches.insert(global, s.clone());
        s
    }

    // ---- showing values ----------------------------------------------------

    fn piece_text(&self, id: PieceId, ctx: usize) -> Text {
        let mut t = Text::default();
        self.piece_into(id, ctx, &mut t);
        t
    }

    /// Appends the piece's name in both languages (`红车d9`, `red rook d9`).
    fn piece_into(&self, id: PieceId, ctx: usize, out: &mut Text) {
        let Some(pc) = self.ids.get(id as usize).copied().flatten() else {
            out.zh.push('?');
            out.en.push('?');
            return;
        };
        let sq = self
            .ctxs
            .get(ctx)
            .and_then(|c| c.square(id))
            .or_else(|| Square::from_index(id as usize % 90));
        match sq {
            Some(sq) => {
                let (zh, en) = piece_name(pc, sq);
                out.zh.push_str(zh);
                out.en.push_str(en);
            }
            None => {
                out.zh.push_str(pc.color.chinese());
                out.zh.push_str(piece_zh(pc));
                out.en.push_str(pc.color.english());
                out.en.push(' ');
                out.en.push_str(kind_en(pc.kind));
                out.en.push(' ');
            }
        }
    }

    fn show(&self, v: &Value, ctx: usize) -> Text {
        let mut t = Text::default();
        self.show_into(v, ctx, &mut t);
        t
    }

    /// Appends a value as the explanations show it, in both languages.
    fn show_into(&self, v: &Value, ctx: usize, out: &mut Text) {
        let mut both = |zh: &str, en: &str| {
            out.zh.push_str(zh);
            out.en.push_str(en);
        };
        match v {
            Value::Bool(true) => both("成立", "true"),
            Value::Bool(false) => both("不成立", "false"),
            Value::Int(n) => {
                let _ = write!(out.zh, "{n}");
                let _ = write!(out.en, "{n}");
            }
            Value::Piece(id) => self.piece_into(*id, ctx, out),
            Value::Side(s) => {
                both(s.chinese(), s.english());
                out.zh.push('方');
            }
            Value::Kind(k) => both(kind_zh(*k), kind_en(*k)),
            Value::Nature(n) => both(self.prog.nature_name(*n), self.prog.nature_en(*n)),
            Value::Move(m) => {
                let _ = write!(out.zh, "第{}着", m + 1);
                let _ = write!(out.en, "move {}", m + 1);
            }
            Value::Set(items) => {
                both("{", "{");
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.zh.push('、');
                        out.en.push_str(", ");
                    }
                    self.show_into(item, ctx, out);
                }
                out.zh.push('}');
                out.en.push('}');
            }
        }
    }
}

/// The exchange limits of `exchange` (any captures),
/// `recapture_exchange` (recaptures only) or `exchange_sparing`, within
/// the edition's horizon (`base`, from its `exchange` block).
fn limits(base: ExchangeLimits, ask: Ask) -> ExchangeLimits {
    ExchangeLimits {
        scope: if ask.recapture {
            CaptureScope::RecaptureOnly
        } else {
            CaptureScope::Any
        },
        spared: ask.spared,
        ..base
    }
}

/// Whether `sq` holds an enemy piece of `by` that no piece of `by` could
/// capture by the movement rules. Most enemy pieces have no attacker at
/// all: one pass over `by`'s moves (`targets`, made on the first question
/// in a context) says so for all of them at once.
#[inline]
fn out_of_reach(pos: &Position, targets: &mut [Option<u128>; 2], sq: Square, by: Color) -> bool {
    pos.piece_at(sq).is_some_and(|p| p.color != by)
        && *targets[by.index()].get_or_insert_with(|| pos.capture_targets(by)) & sq.bit() == 0
}

/// A definition's memo key: the definition, the context, its arguments'
/// codes.
type MemoKey = (usize, usize, [u32; 3]);

/// Slots of the [`Memo`] (a power of two): more than the definition calls
/// of an ordinary move.
const MEMO_SLOTS: usize = 1024;

/// The values of the definitions called while judging one move, by
/// [`MemoKey`]. A direct-mapped cache rather than a hash map: a lookup is
/// one multiply and one compare, and emptying it between moves is one
/// counter. Two keys that meet on a slot take turns; an evicted value is
/// worked out again, as a miss is (the searches under it have their own
/// caches, so no node is searched twice).
struct Memo {
    slots: Vec<(u32, MemoKey, Value)>,
    /// The generation whose entries count; older ones are empty.
    now: u32,
}

impl Default for Memo {
    fn default() -> Memo {
        Memo {
            slots: Vec::new(),
            now: 1,
        }
    }
}

impl Memo {
    #[inline]
    fn slot(k: &MemoKey) -> usize {
        let mut h = (k.0 as u64) << 32 ^ k.1 as u64;
        for c in k.2 {
            h = (h.rotate_left(5) ^ u64::from(c)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
        (h >> 40) as usize & (MEMO_SLOTS - 1)
    }

    #[inline]
    fn get(&self, k: &MemoKey) -> Option<&Value> {
        match self.slots.get(Memo::slot(k)) {
            Some((at, key, v)) if *at == self.now && key == k => Some(v),
            _ => None,
        }
    }

    #[inline]
    fn insert(&mut self, k: MemoKey, v: Value) {
        if self.slots.is_empty() {
            self.slots = vec![(0, (0, 0, [0; 3]), Value::Bool(false)); MEMO_SLOTS];
        }
        let i = Memo::slot(&k);
        if let Some(slot) = self.slots.get_mut(i) {
            *slot = (self.now, k, v);
        }
    }

    /// Empties the memo.
    fn clear(&mut self) {
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            // The counter came round: old stamps could count again.
            self.slots.clear();
            self.now = 1;
        }
    }
}

fn memo_key(d: usize, ctx: usize, args: &[Value]) -> Option<MemoKey> {
    if args.len() > 3 {
        return None;
    }
    let mut k = [u32::MAX; 3];
    for (i, a) in args.iter().enumerate() {
        k[i] = a.code()?;
    }
    Some((d, ctx, k))
}

/// The opponent's move before move `i` of a cycle and the position it was
/// played in: the cycle's last move for its first, when the moves come
/// back to the start (`wraps`), else nothing. `positions[k]` is the
/// position move `k` was played in.
pub fn previous_move<'a>(
    positions: &'a [Position],
    moves: &[Move],
    wraps: bool,
    i: usize,
) -> Option<(&'a Position, Move)> {
    let k = match i {
        0 if wraps => moves.len().checked_sub(1)?,
        0 => return None,
        _ => i - 1,
    };
    positions.get(k).zip(moves.get(k).copied())
}

/// A line of moves from `start`: in Chinese notation, and in English as
/// WXF with each move's ICCS in brackets; without a start, ICCS alone in both.
pub fn line_text(start: Option<&Position>, line: &[Move]) -> Text {
    let iccs = |m: &Move, out: &mut String| {
        out.extend(m.from.iccs());
        out.extend(m.to.iccs());
    };
    let Some(p) = start else {
        // No position to name the pieces from: the moves as ICCS alone.
        let mut out = String::with_capacity(5 * line.len());
        for (i, m) in line.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            iccs(m, &mut out);
        }
        return Text::new(out.clone(), out);
    };
    // Chinese notation, and for the English WXF with the ICCS in brackets,
    // as the judged moves themselves are shown (`R8+1 (b8b9)`).
    let mut p = p.clone();
    let mut zh = String::with_capacity(13 * line.len());
    let mut en = String::with_capacity(12 * line.len());
    for (i, m) in line.iter().enumerate() {
        if i > 0 {
            zh.push(' ');
            en.push(' ');
        }
        zh.push_str(&chinese::format(&p, *m));
        wxf::push_format(&p, *m, &mut en);
        en.push_str(" (");
        iccs(m, &mut en);
        en.push(')');
        if !p.is_legal(*m) {
            break;
        }
        p.make(*m);
    }
    Text::new(zh, en)
}

/// A piece on a point as the traces name it, in both languages (`红车d9`,
/// `red rook d9`): written once for every piece and point, since the
/// traces name pieces thousands of times a second.
fn piece_name(pc: Piece, sq: Square) -> (&'static str, &'static str) {
    static NAMES: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
    let names = NAMES.get_or_init(|| {
        let mut v = Vec::with_capacity(2 * 7 * 90);
        // In the order of `Piece::index`: red pieces first, by kind.
        for color in Color::ALL {
            for kind in Kind::ALL {
                let pc = Piece { color, kind };
                for i in 0..90 {
                    let [f, r] = Square::from_index(i).map_or([' ', ' '], |s| s.iccs());
                    let zh = cat!(color.chinese(), piece_zh(pc), f, r);
                    let en = cat!(color.english(), " ", kind_en(kind), " ", f, r);
                    v.push((zh, en));
                }
            }
        }
        v
    });
    let i = pc.index() * 90 + sq.index();
    names
        .get(i)
        .map_or(("?", "?"), |(zh, en)| (zh.as_str(), en.as_str()))
}

/// A piece's name as the side's own set writes it: 帅 兵 for red, 将 卒 for black.
pub fn piece_zh(p: Piece) -> &'static str {
    match (p.color, p.kind) {
        (Color::Red, Kind::King) => "帅",
        (Color::Black, Kind::Pawn) => "卒",
        (Color::Red, Kind::Elephant) => "相",
        (Color::Red, Kind::Advisor) => "仕",
        (_, k) => kind_zh(k),
    }
}

pub fn kind_zh(k: Kind) -> &'static str {
    match k {
        Kind::King => "将",
        Kind::Advisor => "士",
        Kind::Elephant => "象",
        Kind::Horse => "马",
        Kind::Rook => "车",
        Kind::Cannon => "炮",
        Kind::Pawn => "兵",
    }
}

pub fn kind_en(k: Kind) -> &'static str {
    match k {
        Kind::King => "king",
        Kind::Advisor => "advisor",
        Kind::Elephant => "elephant",
        Kind::Horse => "horse",
        Kind::Rook => "rook",
        Kind::Cannon => "cannon",
        Kind::Pawn => "pawn",
    }
}

// Tests state their expectations by panicking.
#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    /// The memo gives back what was put under a key and nothing else; a key
    /// meeting another on its slot evicts it (a miss, never a wrong value);
    /// emptying it forgets everything.
    #[test]
    fn numbers_in_trace_lines_read_as_the_formatter_writes_them() {
        let mut samples = vec![
            0,
            1,
            -1,
            9,
            10,
            -10,
            99,
            100,
            1000,
            -1000,
            i64::MAX,
            i64::MIN,
        ];
        samples.extend((-300..300).map(|k| k * 37));
        for n in samples {
            let mut plain = String::new();
            n.push_to(&mut plain);
            assert_eq!(plain, format!("{n}"));
            let mut signed = String::new();
            Signed(n).push_to(&mut signed);
            assert_eq!(signed, format!("{n:+}"));
        }
        let mut count = String::new();
        12_345usize.push_to(&mut count);
        assert_eq!(count, "12345");
    }

    #[test]
    fn the_memo_answers_only_for_its_own_keys() {
        let mut memo = Memo::default();
        let keys: Vec<MemoKey> = (0..4 * MEMO_SLOTS)
            .map(|i| (i % 37, i / 37, [i as u32, u32::MAX, 7]))
            .collect();
        for (i, k) in keys.iter().enumerate() {
            memo.insert(*k, Value::Int(i as i64));
        }
        let mut kept = 0;
        for (i, k) in keys.iter().enumerate() {
            if let Some(v) = memo.get(k) {
                assert_eq!(*v, Value::Int(i as i64), "{k:?}");
                kept += 1;
            }
        }
        // Four keys a slot at most are kept once each; most slots are used.
        assert!(kept <= MEMO_SLOTS && kept > MEMO_SLOTS / 2, "{kept}");
        let last = keys[keys.len() - 1];
        assert!(memo.get(&last).is_some());
        memo.clear();
        assert!(keys.iter().all(|k| memo.get(k).is_none()));
        memo.insert(last, Value::Bool(true));
        assert_eq!(memo.get(&last), Some(&Value::Bool(true)));
    }
}
