//! A checked rulebook lowered for evaluation: every name bound once.
//!
//! The AST keeps names as text, which is right for the formatter and the
//! checker but slow for the judge, which evaluates the same natures on every
//! move of every cycle. Lowering resolves each name to what it means — a
//! local slot, a definition, a nature, a primitive — so evaluation never
//! looks a string up. Lowering runs only on a rulebook that `check`
//! accepted; whatever it still cannot bind is an internal error reported as
//! such, never a panic.

use std::collections::HashMap;

use crate::board::{Color, Kind};
use crate::lang::ast::{
    BinOp, Cite, ClauseAction, Context, Expr, ExprKind, Item, Names, Quantifier, Ruling, Span,
};
use crate::lang::resolve::Resolved;
use crate::tactics::{ExchangeLimits, ValueTable};

/// A board primitive, as the evaluator knows it (see `lang::primitives`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prim {
    Mover,
    Opponent,
    Moved,
    AnswersCheck,
    Captured,
    Side(Color),
    Kind(Kind),
    Pieces,
    PiecesOf,
    SideOf,
    KindOf,
    Value,
    Crossed,
    CanTake,
    Attackers,
    RealRoots,
    FakeRoots,
    RootsAgainst,
    Exchange,
    RecaptureExchange,
    ExchangeSparing,
    BestCapture,
    CheckGain,
    MatesIn,
    Witnesses,
    Material,
    InCheck,
    Mated,
    MateByChecks,
    ThreatensMate,
    Checkers,
    Other,
    Moves,
    NatureOf,
    NaturesOf,
}

/// Every primitive by the name the rules language calls it.
const PRIM_NAMES: [(&str, Prim); 42] = [
    ("mover", Prim::Mover),
    ("opponent", Prim::Opponent),
    ("moved", Prim::Moved),
    ("answers_check", Prim::AnswersCheck),
    ("captured", Prim::Captured),
    ("red", Prim::Side(Color::Red)),
    ("black", Prim::Side(Color::Black)),
    ("king", Prim::Kind(Kind::King)),
    ("advisor", Prim::Kind(Kind::Advisor)),
    ("elephant", Prim::Kind(Kind::Elephant)),
    ("horse", Prim::Kind(Kind::Horse)),
    ("rook", Prim::Kind(Kind::Rook)),
    ("cannon", Prim::Kind(Kind::Cannon)),
    ("pawn", Prim::Kind(Kind::Pawn)),
    ("pieces", Prim::Pieces),
    ("pieces_of", Prim::PiecesOf),
    ("side_of", Prim::SideOf),
    ("kind", Prim::KindOf),
    ("value", Prim::Value),
    ("crossed", Prim::Crossed),
    ("can_take", Prim::CanTake),
    ("attackers", Prim::Attackers),
    ("real_roots", Prim::RealRoots),
    ("fake_roots", Prim::FakeRoots),
    ("roots_against", Prim::RootsAgainst),
    ("exchange", Prim::Exchange),
    ("recapture_exchange", Prim::RecaptureExchange),
    ("exchange_sparing", Prim::ExchangeSparing),
    ("best_capture", Prim::BestCapture),
    ("check_gain", Prim::CheckGain),
    ("mates_in", Prim::MatesIn),
    ("witnesses", Prim::Witnesses),
    ("material", Prim::Material),
    ("in_check", Prim::InCheck),
    ("mated", Prim::Mated),
    ("mate_by_checks", Prim::MateByChecks),
    ("threatens_mate", Prim::ThreatensMate),
    ("checkers", Prim::Checkers),
    ("other", Prim::Other),
    ("moves", Prim::Moves),
    ("nature_of", Prim::NatureOf),
    ("natures_of", Prim::NaturesOf),
];

impl Prim {
    fn of(name: &str) -> Option<Prim> {
        PRIM_NAMES.iter().find(|(n, _)| *n == name).map(|(_, p)| *p)
    }

    /// The name the rules language calls it by.
    pub fn name(self) -> &'static str {
        PRIM_NAMES
            .iter()
            .find(|(_, p)| *p == self)
            .map_or("?", |(n, _)| n)
    }

    /// Its place among all primitives, below [`Prim::COUNT`]: a table index.
    pub fn slot(self) -> usize {
        PRIM_NAMES.iter().position(|(_, p)| *p == self).unwrap_or(0)
    }

    /// How many primitives there are.
    pub const COUNT: usize = PRIM_NAMES.len();

    /// The primitive at `slot`.
    pub fn at(slot: usize) -> Option<Prim> {
        PRIM_NAMES.get(slot).map(|(_, p)| *p)
    }
}

/// A lowered expression. `span` points into the source of `edition`.
#[derive(Clone, Debug)]
pub struct Node {
    pub op: Op,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Op {
    Bool(bool),
    Int(i64),
    /// A local variable: a parameter, a quantifier's variable or the case's
    /// side, by slot in the current frame.
    Local(usize),
    Nature(usize),
    Prim(Prim, Vec<Node>),
    Def(usize, Vec<Node>),
    Not(Box<Node>),
    Neg(Box<Node>),
    Binary(BinOp, Box<Node>, Box<Node>),
    Quantified {
        quantifier: Quantifier,
        slot: usize,
        var: String,
        set: Box<Node>,
        filter: Option<Box<Node>>,
        body: Box<Node>,
        /// Members that fail it make the filter or the body false, so an
        /// `exists` passes over them unasked.
        guard: Option<Guard>,
    },
    Count {
        slot: usize,
        set: Box<Node>,
        filter: Option<Box<Node>>,
        /// Members that fail it fail the filter.
        guard: Option<Guard>,
    },
    SetBuilder {
        slot: usize,
        set: Box<Node>,
        filter: Box<Node>,
        /// Members that fail it fail the filter.
        guard: Option<Guard>,
    },
    SetLiteral(Vec<Node>),
    If(Box<Node>, Box<Node>, Box<Node>),
    Before(Box<Node>),
    Previously(Box<Node>),
    /// `after move(m) { … }`: the body judged as move m was.
    AfterMove(Box<Node>, Box<Node>),
    AfterTake(Box<Node>, Box<Node>, Box<Node>),
    AfterPass(Box<Node>),
    AfterLift(Box<Node>, Box<Node>),
}

/// A cheap test a quantifier's member must pass for its filter or body to
/// hold, found by looking through the body when the rulebook is lowered.
///
/// Most of a side's pieces are attacked by nothing, and the 2011 natures
/// ask of every piece whether its attackers can win it, offer an exchange
/// to it or take it as a sacrifice. Passing over the unattacked ones
/// before their definitions are called changes no answer and saves most
/// of the interpreter's work on a quiet move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guard {
    /// The member is a piece with at least one attacker (`attackers(x)` is
    /// not empty) in the position the quantifier is asked in.
    Attacked,
}

/// Names and citation shared by definitions, natures, clauses and cases.
#[derive(Clone, Debug, Default)]
pub struct Label {
    pub id: String,
    pub zh: Option<String>,
    pub en: Option<String>,
    pub cite: Option<String>,
    /// The edition (index into the resolved chain) whose text is in force.
    pub edition: usize,
}

impl Label {
    /// The name to show in `lang`: Chinese or English, else the id.
    pub fn name(&self, zh: bool) -> &str {
        let preferred = if zh { &self.zh } else { &self.en };
        preferred.as_deref().unwrap_or(&self.id)
    }
}

#[derive(Clone, Debug)]
pub struct DefinitionCode {
    pub label: Label,
    pub params: Vec<String>,
    /// Slots the body needs: parameters first, then quantifier variables.
    pub frame: usize,
    pub body: Node,
}

#[derive(Clone, Debug)]
pub struct NatureCode {
    pub label: Label,
    pub frame: usize,
    pub body: Node,
}

#[derive(Clone, Debug)]
pub enum Action {
    Recast { from: Vec<usize>, to: usize },
    Drop(Vec<usize>),
    Add(Vec<usize>),
}

#[derive(Clone, Debug)]
pub struct ClauseCode {
    pub label: Label,
    pub frame: usize,
    pub when: Node,
    pub action: Action,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Draw,
    MustChange(Color),
}

#[derive(Clone, Debug)]
pub enum CaseRuling {
    Draw,
    /// The side named by the case's `for` variable.
    ForSide,
    Fixed(Color),
}

#[derive(Clone, Debug)]
pub struct CaseCode {
    pub label: Label,
    /// `for s`: the case is tried with s = red, then s = black (slot 0).
    pub for_side: bool,
    pub frame: usize,
    pub cond: Node,
    pub ruling: CaseRuling,
}

/// A rulebook ready to judge with.
#[derive(Clone, Debug)]
pub struct Program {
    pub id: String,
    pub title_zh: String,
    pub title_en: String,
    pub values: ValueTable,
    /// How far `exchange(a, b)` and its kin look (the edition's `exchange`
    /// block, or 16 plies and two quiet checks without one).
    pub exchange: ExchangeLimits,
    pub defs: Vec<DefinitionCode>,
    pub natures: Vec<NatureCode>,
    pub clauses: Vec<ClauseCode>,
    /// For each nature, its weight: 0 is the heaviest group.
    pub weight: Vec<usize>,
    /// Natures heaviest first; within a group, in the order written.
    pub by_weight: Vec<usize>,
    pub cases: Vec<CaseCode>,
    pub otherwise: Outcome,
    /// The definition the verdict vocabulary calls `forbidden(s: side)`, if
    /// the rulebook has one: it gives each side's status in the report.
    pub forbidden: Option<usize>,
    /// A move's natures may be found heaviest first, stopping at the first
    /// that survives the clauses: no clause recasts a nature to a heavier
    /// one, and the verdict never asks for a move's every nature.
    pub lazy: bool,
    /// The verdict asks `witnesses(m)`, so each move's deciding nature is
    /// asked for every piece it names.
    pub needs_witnesses: bool,
    /// For each definition, whether it is cheap: its body reads only facts
    /// of the judged move and of single pieces (no set, no search, no other
    /// position), so evaluating it again costs less than remembering it.
    pub cheap: Vec<bool>,
    /// For each definition, whether its trace can hold a context
    /// (`before`, `previously`, `after …`), in its body or in the
    /// definitions it calls. The reasons read a failed context wherever it
    /// stands, even under a definition that failed; a failed definition
    /// without one is traced by its name alone.
    pub has_context: Vec<bool>,
}

impl Program {
    pub fn nature_name(&self, n: usize) -> &str {
        self.natures.get(n).map_or("?", |c| c.label.id.as_str())
    }

    pub fn nature_en(&self, n: usize) -> &str {
        self.natures
            .get(n)
            .and_then(|c| c.label.en.as_deref())
            .unwrap_or_else(|| self.nature_name(n))
    }

    pub fn nature_index(&self, name: &str) -> Option<usize> {
        self.natures.iter().position(|n| n.label.id == name)
    }

    /// Takes every quantifier's [`Guard`] away, so each member is asked in
    /// full: the evaluation guards are checked against.
    pub fn clear_guards(&mut self) {
        fn clear(n: &mut Node) {
            if let Op::Quantified { guard, .. }
            | Op::Count { guard, .. }
            | Op::SetBuilder { guard, .. } = &mut n.op
            {
                *guard = None;
            }
            visit_children_mut(n, clear);
        }
        self.defs.iter_mut().for_each(|d| clear(&mut d.body));
        self.natures.iter_mut().for_each(|n| clear(&mut n.body));
        self.clauses.iter_mut().for_each(|c| clear(&mut c.when));
        self.cases.iter_mut().for_each(|c| clear(&mut c.cond));
    }
}

/// Calls `$f` on each direct child of the node whose op is `$op` (taken by
/// `&` or `&mut`): one walk for both visitors below.
macro_rules! for_each_child {
    ($op:expr, $f:ident) => {
        match $op {
            Op::Bool(_) | Op::Int(_) | Op::Local(_) | Op::Nature(_) => {}
            Op::Prim(_, args) | Op::Def(_, args) | Op::SetLiteral(args) => {
                for a in args {
                    $f(a);
                }
            }
            Op::Not(a) | Op::Neg(a) | Op::Before(a) | Op::Previously(a) | Op::AfterPass(a) => $f(a),
            Op::Binary(_, a, b) | Op::AfterLift(a, b) | Op::AfterMove(a, b) => {
                $f(a);
                $f(b);
            }
            Op::If(a, b, c) | Op::AfterTake(a, b, c) => {
                $f(a);
                $f(b);
                $f(c);
            }
            Op::Quantified {
                set, filter, body, ..
            } => {
                $f(set);
                if let Some(x) = filter {
                    $f(x);
                }
                $f(body);
            }
            Op::Count { set, filter, .. } => {
                $f(set);
                if let Some(x) = filter {
                    $f(x);
                }
            }
            Op::SetBuilder { set, filter, .. } => {
                $f(set);
                $f(filter);
            }
        }
    };
}

/// Calls `f` on each direct child of `n`.
fn visit_children(n: &Node, mut f: impl FnMut(&Node)) {
    for_each_child!(&n.op, f)
}

/// Calls `f` on each direct child of `n`, mutably.
fn visit_children_mut(n: &mut Node, mut f: impl FnMut(&mut Node)) {
    for_each_child!(&mut n.op, f)
}

/// Something the checker should have refused but lowering met anyway.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[error("the rulebook cannot be judged with: {0}")]
#[diagnostic(
    code(qili::judge::lowering),
    help("`qili check` should have reported this; please report it as a bug in qili")
)]
pub struct LowerError(pub String);

struct Bindings<'a> {
    defs: HashMap<&'a str, usize>,
    natures: HashMap<&'a str, usize>,
}

/// Frame layout while lowering one body.
struct Frame {
    locals: Vec<(String, usize)>,
    size: usize,
}

impl Frame {
    fn new(params: &[String]) -> Frame {
        Frame {
            locals: params.iter().cloned().zip(0..).collect(),
            size: params.len(),
        }
    }

    fn lookup(&self, name: &str) -> Option<usize> {
        self.locals
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, s)| *s)
    }

    fn push(&mut self, name: &str) -> usize {
        let slot = self.locals.len();
        self.locals.push((name.to_string(), slot));
        self.size = self.size.max(self.locals.len());
        slot
    }

    fn pop(&mut self) {
        self.locals.pop();
    }
}

fn label(id: &str, names: &Names, cite: Option<&Cite>, edition: usize) -> Label {
    Label {
        id: id.to_string(),
        zh: names.zh.clone(),
        en: names.en.clone(),
        cite: cite.map(|c| c.id.clone()),
        edition,
    }
}

/// `red` or `black`, as a ruling names the side that must change.
fn side(name: &str) -> Result<Color, LowerError> {
    match name {
        "red" => Ok(Color::Red),
        "black" => Ok(Color::Black),
        other => Err(LowerError(format!("`{other}` is not a side"))),
    }
}

/// Lowers a resolved rulebook that `check` accepted.
pub fn lower(resolved: &Resolved) -> Result<Program, LowerError> {
    let mut names = Bindings {
        defs: HashMap::new(),
        natures: HashMap::new(),
    };
    let mut def_items = Vec::new();
    let mut nature_items = Vec::new();
    let mut clause_items = Vec::new();
    let mut order = None;
    let mut verdict = None;
    let mut values = None;
    let mut horizon = None;
    for it in resolved.items.values() {
        match &it.item {
            Item::Define(d) => {
                names.defs.insert(&d.name.name, def_items.len());
                def_items.push((d, it.edition));
            }
            Item::Nature(n) => {
                names.natures.insert(&n.name.name, nature_items.len());
                nature_items.push((n, it.edition));
            }
            Item::Clause(c) => clause_items.push((c, it.edition)),
            Item::Order(o) => order = Some(o),
            Item::Verdict(v) => verdict = Some((v, it.edition)),
            Item::Values(v) => values = Some(v),
            Item::Exchange(h) => horizon = Some(h),
            Item::Remove(_) => {}
        }
    }
    let missing = |what: &str| LowerError(format!("the rulebook has no {what}"));
    let values = value_table(values.ok_or_else(|| missing("values"))?)?;
    let exchange = horizon.map_or(Ok(ExchangeLimits::default()), exchange_limits)?;
    let order = order.ok_or_else(|| missing("order"))?;
    let (verdict, verdict_edition) = verdict.ok_or_else(|| missing("verdict"))?;

    let mut defs = Vec::new();
    for (d, edition) in &def_items {
        let params: Vec<String> = d.params.iter().map(|p| p.name.name.clone()).collect();
        let mut frame = Frame::new(&params);
        let body = lower_expr(&d.body, &mut frame, &names)?;
        defs.push(DefinitionCode {
            label: label(&d.name.name, &d.names, d.cite.as_ref(), *edition),
            params,
            frame: frame.size,
            body,
        });
    }
    let mut natures = Vec::new();
    for (n, edition) in &nature_items {
        let mut frame = Frame::new(&[]);
        let body = lower_expr(&n.body, &mut frame, &names)?;
        natures.push(NatureCode {
            label: label(
                &n.name.name,
                &Names {
                    zh: Some(n.name.name.clone()),
                    en: n.en.clone(),
                },
                n.cite.as_ref(),
                *edition,
            ),
            frame: frame.size,
            body,
        });
    }
    let nature = |id: &crate::lang::ast::Ident| {
        names
            .natures
            .get(id.name.as_str())
            .copied()
            .ok_or_else(|| LowerError(format!("`{}` is not a nature", id.name)))
    };
    let natures_of = |ids: &[crate::lang::ast::Ident]| -> Result<Vec<usize>, LowerError> {
        ids.iter().map(nature).collect()
    };
    let mut clauses = Vec::new();
    for (c, edition) in &clause_items {
        let mut frame = Frame::new(&[]);
        let when = lower_expr(&c.when, &mut frame, &names)?;
        let action = match &c.action {
            ClauseAction::Recast { from, to } => Action::Recast {
                from: natures_of(from)?,
                to: nature(to)?,
            },
            ClauseAction::Drop(ids) => Action::Drop(natures_of(ids)?),
            ClauseAction::Add(ids) => Action::Add(natures_of(ids)?),
        };
        clauses.push(ClauseCode {
            label: label(&c.id.name, &c.names, c.cite.as_ref(), *edition),
            frame: frame.size,
            when,
            action,
        });
    }
    let mut weight = vec![usize::MAX; natures.len()];
    let mut by_weight = Vec::new();
    for (w, group) in order.groups.iter().enumerate() {
        for id in group {
            let n = nature(id)?;
            weight[n] = w;
            by_weight.push(n);
        }
    }
    if let Some(n) = weight.iter().position(|w| *w == usize::MAX) {
        return Err(LowerError(format!(
            "nature `{}` is not in the order",
            natures[n].label.id
        )));
    }
    let mut cases = Vec::new();
    for case in &verdict.cases {
        let params: Vec<String> = case.for_side.iter().map(|s| s.name.clone()).collect();
        let mut frame = Frame::new(&params);
        let cond = lower_expr(&case.cond, &mut frame, &names)?;
        let ruling = match &case.ruling {
            Ruling::Draw => CaseRuling::Draw,
            Ruling::MustChange(s) if params.first() == Some(&s.name) => CaseRuling::ForSide,
            Ruling::MustChange(s) => CaseRuling::Fixed(side(&s.name)?),
        };
        cases.push(CaseCode {
            label: label(
                &case.id.name,
                &case.names,
                case.cite.as_ref(),
                verdict_edition,
            ),
            for_side: !params.is_empty(),
            frame: frame.size,
            cond,
            ruling,
        });
    }
    let otherwise = match &verdict.otherwise {
        Ruling::Draw => Outcome::Draw,
        Ruling::MustChange(s) => Outcome::MustChange(side(&s.name)?),
    };
    let forbidden = names.defs.get("forbidden").copied().filter(|&d| {
        defs[d].params.len() == 1 && def_items[d].0.params[0].ty == crate::lang::ast::TypeName::Side
    });
    let needs_witnesses = mentions(Prim::Witnesses, &defs, &cases);
    let lazy = !mentions_natures_of(&defs, &cases)
        && clauses.iter().all(|c| match &c.action {
            // An added nature does not hang on which lighter ones hold: the
            // clause is asked at the first nature that holds, as at any later.
            Action::Add(_) => true,
            Action::Drop(_) => true,
            Action::Recast { from, to } => from.iter().all(|f| weight[*f] <= weight[*to]),
        });
    let cheap = cheap_definitions(&defs);
    let has_context = context_definitions(&defs);
    place_guards(&mut defs, &mut natures, &mut clauses, &mut cases);
    let this = resolved.this();
    let header = this.map(|l| &l.book.header);
    Ok(Program {
        id: header.map_or_else(String::new, |h| h.edition.name.clone()),
        title_zh: header.and_then(|h| h.title_zh.clone()).unwrap_or_default(),
        title_en: header.and_then(|h| h.title_en.clone()).unwrap_or_default(),
        values,
        exchange,
        defs,
        natures,
        clauses,
        weight,
        by_weight,
        cases,
        otherwise,
        forbidden,
        lazy,
        needs_witnesses,
        cheap,
        has_context,
    })
}

/// Which definitions can trace a context (see [`Program::has_context`]).
fn context_definitions(defs: &[DefinitionCode]) -> Vec<bool> {
    fn node(n: &Node, defs: &[DefinitionCode], memo: &mut [Option<bool>]) -> bool {
        match &n.op {
            Op::Before(_)
            | Op::Previously(_)
            | Op::AfterPass(_)
            | Op::AfterLift(..)
            | Op::AfterTake(..)
            | Op::AfterMove(..) => return true,
            Op::Def(d, _) if def(*d, defs, memo) => return true,
            _ => {}
        }
        let mut found = false;
        visit_children(n, |c| found = found || node(c, defs, memo));
        found
    }
    fn def(d: usize, defs: &[DefinitionCode], memo: &mut [Option<bool>]) -> bool {
        match memo.get(d) {
            Some(Some(known)) => return *known,
            // Out of range: say yes, which only costs tracing.
            None => return true,
            Some(None) => {}
        }
        // While being looked at (a cycle, which the checker refuses anyway),
        // a definition counts as having none; its own body decides.
        memo[d] = Some(false);
        let found = node(&defs[d].body, defs, memo);
        memo[d] = Some(found);
        found
    }
    let mut memo = vec![None; defs.len()];
    (0..defs.len()).map(|d| def(d, defs, &mut memo)).collect()
}

/// Which definitions are cheap (see [`Program::cheap`]).
fn cheap_definitions(defs: &[DefinitionCode]) -> Vec<bool> {
    fn node(n: &Node, defs: &[DefinitionCode], memo: &mut [Option<bool>]) -> bool {
        match &n.op {
            Op::Bool(_) | Op::Int(_) | Op::Local(_) | Op::Nature(_) => true,
            Op::Prim(p, args) => {
                matches!(
                    p,
                    Prim::Mover
                        | Prim::Opponent
                        | Prim::Moved
                        | Prim::AnswersCheck
                        | Prim::Captured
                        | Prim::Side(_)
                        | Prim::Kind(_)
                        | Prim::SideOf
                        | Prim::KindOf
                        | Prim::Value
                        | Prim::Crossed
                        | Prim::Other
                ) && args.iter().all(|a| node(a, defs, memo))
            }
            Op::Def(d, args) => def(*d, defs, memo) && args.iter().all(|a| node(a, defs, memo)),
            Op::Not(a) | Op::Neg(a) => node(a, defs, memo),
            Op::Binary(_, a, b) => node(a, defs, memo) && node(b, defs, memo),
            Op::If(c, a, b) => node(c, defs, memo) && node(a, defs, memo) && node(b, defs, memo),
            _ => false,
        }
    }
    fn def(d: usize, defs: &[DefinitionCode], memo: &mut [Option<bool>]) -> bool {
        match memo.get(d) {
            Some(Some(known)) => return *known,
            None => return false,
            Some(None) => {}
        }
        // Not cheap while being looked at: a cycle (which the checker
        // refuses anyway) is never taken for cheap.
        memo[d] = Some(false);
        let cheap = node(&defs[d].body, defs, memo);
        memo[d] = Some(cheap);
        cheap
    }
    let mut memo = vec![None; defs.len()];
    (0..defs.len()).map(|d| def(d, defs, &mut memo)).collect()
}

/// Sets each quantifier's [`Guard`] where its filter or body demands one.
fn place_guards(
    defs: &mut [DefinitionCode],
    natures: &mut [NatureCode],
    clauses: &mut [ClauseCode],
    cases: &mut [CaseCode],
) {
    let needs = attacked_params(defs);
    let mut bodies: Vec<&mut Node> = defs.iter_mut().map(|d| &mut d.body).collect();
    bodies.extend(natures.iter_mut().map(|n| &mut n.body));
    bodies.extend(clauses.iter_mut().map(|c| &mut c.when));
    bodies.extend(cases.iter_mut().map(|c| &mut c.cond));
    for body in bodies {
        guard_node(body, &needs);
    }
}

fn guard_node(n: &mut Node, needs: &[Vec<bool>]) {
    match &mut n.op {
        Op::Quantified {
            quantifier,
            slot,
            filter,
            body,
            guard,
            ..
        } => {
            // A member the filter refuses counts for neither quantifier; one
            // whose body is false cannot be an `exists`'s witness.
            let in_filter = filter
                .as_deref()
                .is_some_and(|f| demands_attacker(f, *slot, needs));
            let in_body = demands_attacker(body, *slot, needs);
            if in_filter || (*quantifier == Quantifier::Exists && in_body) {
                *guard = Some(Guard::Attacked);
            }
        }
        Op::Count {
            slot,
            filter: Some(filter),
            guard,
            ..
        }
        | Op::SetBuilder {
            slot,
            filter,
            guard,
            ..
        } if demands_attacker(filter, *slot, needs) => *guard = Some(Guard::Attacked),
        _ => {}
    }
    visit_children_mut(n, |c| guard_node(c, needs));
}

/// For each definition and parameter: whether the body is false whenever
/// that parameter has no attacker (see [`demands_attacker`]).
fn attacked_params(defs: &[DefinitionCode]) -> Vec<Vec<bool>> {
    fn def(d: usize, defs: &[DefinitionCode], needs: &mut [Vec<bool>], seen: &mut [bool]) {
        if seen[d] {
            return;
        }
        // A cycle (which the checker refuses anyway) finds this
        // definition's parameters demanding nothing: no guard is placed.
        seen[d] = true;
        let mut callees = Vec::new();
        collect_calls(&defs[d].body, &mut callees);
        for c in callees.into_iter().filter(|&c| c < defs.len()) {
            def(c, defs, needs, seen);
        }
        let found = (0..defs[d].params.len())
            .map(|slot| demands_attacker(&defs[d].body, slot, needs))
            .collect();
        needs[d] = found;
    }
    let mut needs: Vec<Vec<bool>> = defs.iter().map(|d| vec![false; d.params.len()]).collect();
    let mut seen = vec![false; defs.len()];
    for d in 0..defs.len() {
        def(d, defs, &mut needs, &mut seen);
    }
    needs
}

fn collect_calls(n: &Node, out: &mut Vec<usize>) {
    if let Op::Def(d, _) = &n.op {
        out.push(*d);
    }
    visit_children(n, |c| collect_calls(c, out));
}

/// Whether `n` is false, in the position it is asked in, whenever the piece
/// in `slot` has no attacker there: it asks `exists … in attackers(x)` or
/// `(count … in attackers(x) …) > k` (k ≥ 0), directly, under `and`, on
/// both sides of an `or` or `if`, in the filter or body of an `exists`, or
/// through a definition called with x whose body demands it of that
/// parameter. A different position (`before`, `after …`) demands nothing.
fn demands_attacker(n: &Node, slot: usize, needs: &[Vec<bool>]) -> bool {
    let is_x = |a: &Node| matches!(a.op, Op::Local(s) if s == slot);
    let attackers_of_x = |set: &Node| matches!(&set.op, Op::Prim(Prim::Attackers, args) if args.len() == 1 && is_x(&args[0]));
    match &n.op {
        Op::Binary(BinOp::And, a, b) => {
            demands_attacker(a, slot, needs) || demands_attacker(b, slot, needs)
        }
        Op::Binary(BinOp::Or, a, b) | Op::If(_, a, b) => {
            demands_attacker(a, slot, needs) && demands_attacker(b, slot, needs)
        }
        Op::Binary(op @ (BinOp::Gt | BinOp::Ge), a, b) => {
            let counts_attackers = matches!(&a.op, Op::Count { set, .. } if attackers_of_x(set));
            let floor = match (op, &b.op) {
                (BinOp::Gt, Op::Int(k)) => *k >= 0,
                (BinOp::Ge, Op::Int(k)) => *k >= 1,
                _ => false,
            };
            counts_attackers && floor
        }
        Op::Quantified {
            quantifier: Quantifier::Exists,
            set,
            filter,
            body,
            ..
        } => {
            attackers_of_x(set)
                || filter
                    .as_deref()
                    .is_some_and(|f| demands_attacker(f, slot, needs))
                || demands_attacker(body, slot, needs)
        }
        Op::Def(d, args) => args.iter().enumerate().any(|(i, a)| {
            is_x(a)
                && needs
                    .get(*d)
                    .and_then(|p| p.get(i))
                    .copied()
                    .unwrap_or(false)
        }),
        _ => false,
    }
}

fn mentions_natures_of(defs: &[DefinitionCode], cases: &[CaseCode]) -> bool {
    mentions(Prim::NaturesOf, defs, cases)
}

/// Whether the verdict side (definitions or cases) calls primitive `p`.
fn mentions(p: Prim, defs: &[DefinitionCode], cases: &[CaseCode]) -> bool {
    fn walk(n: &Node, p: Prim) -> bool {
        let walk = |n: &Node| walk(n, p);
        match &n.op {
            Op::Prim(q, _) if *q == p => true,
            Op::Bool(_) | Op::Int(_) | Op::Local(_) | Op::Nature(_) => false,
            Op::Prim(_, args) | Op::Def(_, args) | Op::SetLiteral(args) => args.iter().any(walk),
            Op::Not(a) | Op::Neg(a) | Op::Before(a) | Op::Previously(a) | Op::AfterPass(a) => {
                walk(a)
            }
            Op::Binary(_, a, b) | Op::AfterLift(a, b) | Op::AfterMove(a, b) => walk(a) || walk(b),
            Op::If(a, b, c) | Op::AfterTake(a, b, c) => walk(a) || walk(b) || walk(c),
            Op::Quantified {
                set, filter, body, ..
            } => walk(set) || filter.as_deref().is_some_and(walk) || walk(body),
            Op::Count { set, filter, .. } => walk(set) || filter.as_deref().is_some_and(walk),
            Op::SetBuilder { set, filter, .. } => walk(set) || walk(filter),
        }
    }
    defs.iter().any(|d| walk(&d.body, p)) || cases.iter().any(|c| walk(&c.cond, p))
}

/// The edition's `exchange` block as the searches' limits (any captures,
/// nothing spared: what `exchange(a, b)` asks; the other primitives of the
/// family change only the scope and the spared points).
fn exchange_limits(h: &crate::lang::ast::Horizon) -> Result<ExchangeLimits, LowerError> {
    let mut limits = ExchangeLimits::default();
    for e in &h.entries {
        let n = usize::try_from(e.value)
            .map_err(|_| LowerError(format!("exchange setting {} is out of range", e.value)))?;
        match e.key.name.as_str() {
            "plies" => limits.max_plies = n,
            "quiet-checks" => limits.max_quiet_checks = n,
            other => return Err(LowerError(format!("unknown exchange setting `{other}`"))),
        }
    }
    Ok(limits)
}

fn value_table(v: &crate::lang::ast::Values) -> Result<ValueTable, LowerError> {
    let mut t = ValueTable::conventional();
    for e in &v.entries {
        let n = i32::try_from(e.value)
            .map_err(|_| LowerError(format!("value {} is too large", e.value)))?;
        match e.key.name.as_str() {
            "king" => t.king = n,
            "advisor" => t.advisor = n,
            "elephant" => t.elephant = n,
            "horse" => t.horse = n,
            "rook" => t.rook = n,
            "cannon" => t.cannon = n,
            "pawn.crossed" => t.pawn_crossed = n,
            "pawn.uncrossed" => t.pawn_uncrossed = n,
            other => return Err(LowerError(format!("unknown value key `{other}`"))),
        }
    }
    Ok(t)
}

fn boxed(e: &Expr, frame: &mut Frame, names: &Bindings<'_>) -> Result<Box<Node>, LowerError> {
    lower_expr(e, frame, names).map(Box::new)
}

fn lower_expr(e: &Expr, frame: &mut Frame, names: &Bindings<'_>) -> Result<Node, LowerError> {
    let op = match &e.kind {
        ExprKind::Bool(b) => Op::Bool(*b),
        ExprKind::Int(n) => Op::Int(*n),
        ExprKind::Name(id) => {
            if let Some(slot) = frame.lookup(&id.name) {
                Op::Local(slot)
            } else {
                call(&id.name, &[], frame, names)?
            }
        }
        ExprKind::Call(id, args) => call(&id.name, args, frame, names)?,
        ExprKind::Not(a) => Op::Not(boxed(a, frame, names)?),
        ExprKind::Neg(a) => Op::Neg(boxed(a, frame, names)?),
        ExprKind::Binary(op, a, b) => {
            Op::Binary(*op, boxed(a, frame, names)?, boxed(b, frame, names)?)
        }
        ExprKind::Quantified {
            quantifier,
            var,
            set,
            filter,
            body,
        } => {
            let set = boxed(set, frame, names)?;
            let slot = frame.push(&var.name);
            let filter = filter
                .as_ref()
                .map(|f| boxed(f, frame, names))
                .transpose()?;
            let body = boxed(body, frame, names)?;
            frame.pop();
            Op::Quantified {
                quantifier: *quantifier,
                slot,
                var: var.name.clone(),
                set,
                filter,
                body,
                guard: None,
            }
        }
        ExprKind::Count { var, set, filter } => {
            let set = boxed(set, frame, names)?;
            let slot = frame.push(&var.name);
            let filter = filter
                .as_ref()
                .map(|f| boxed(f, frame, names))
                .transpose()?;
            frame.pop();
            Op::Count {
                slot,
                set,
                filter,
                guard: None,
            }
        }
        ExprKind::SetBuilder { var, set, filter } => {
            let set = boxed(set, frame, names)?;
            let slot = frame.push(&var.name);
            let filter = boxed(filter, frame, names)?;
            frame.pop();
            Op::SetBuilder {
                slot,
                set,
                filter,
                guard: None,
            }
        }
        ExprKind::SetLiteral(items) => Op::SetLiteral(
            items
                .iter()
                .map(|i| lower_expr(i, frame, names))
                .collect::<Result<_, _>>()?,
        ),
        ExprKind::If(c, a, b) => Op::If(
            boxed(c, frame, names)?,
            boxed(a, frame, names)?,
            boxed(b, frame, names)?,
        ),
        ExprKind::Context(ctx, body) => {
            let body = boxed(body, frame, names)?;
            match &**ctx {
                Context::Before => Op::Before(body),
                Context::Previously => Op::Previously(body),
                Context::AfterPass => Op::AfterPass(body),
                Context::AfterLift(p) => Op::AfterLift(boxed(p, frame, names)?, body),
                Context::AfterMove(m) => Op::AfterMove(boxed(m, frame, names)?, body),
                Context::AfterTake(a, b) => {
                    Op::AfterTake(boxed(a, frame, names)?, boxed(b, frame, names)?, body)
                }
            }
        }
    };
    Ok(Node { op, span: e.span })
}

fn call(
    name: &str,
    args: &[Expr],
    frame: &mut Frame,
    names: &Bindings<'_>,
) -> Result<Op, LowerError> {
    let args: Vec<Node> = args
        .iter()
        .map(|a| lower_expr(a, frame, names))
        .collect::<Result<_, _>>()?;
    if let Some(&n) = names.natures.get(name) {
        if args.is_empty() {
            return Ok(Op::Nature(n));
        }
    }
    if let Some(&d) = names.defs.get(name) {
        return Ok(Op::Def(d, args));
    }
    if let Some(p) = Prim::of(name) {
        return Ok(Op::Prim(p, args));
    }
    Err(LowerError(format!("`{name}` names nothing")))
}
