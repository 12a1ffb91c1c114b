//! The syntax tree of a rules file, as written (before `extends` is
//! resolved). Every node carries the [`Span`] it came from so that later
//! phases can point at it; spans never take part in equality, so two trees
//! that differ only in layout compare equal (the formatter relies on that).

use std::fmt;

/// A byte range in a source file. Equality ignores it on purpose.
#[derive(Clone, Copy, Debug, Default, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl PartialEq for Span {
    fn eq(&self, _: &Span) -> bool {
        true
    }
}

/// Consistent with equality: all spans are equal, so all hash alike.
impl std::hash::Hash for Span {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> miette::SourceSpan {
        (s.start, s.len()).into()
    }
}

/// A name as written, with where.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

impl fmt::Display for Ident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// A whole rules file.
#[derive(Clone, Debug, PartialEq)]
pub struct Rulebook {
    pub header: Header,
    pub items: Vec<Item>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    pub edition: Ident,
    pub title_zh: Option<String>,
    pub title_en: Option<String>,
    pub year: Option<u32>,
    pub source: Option<String>,
    pub status: Option<String>,
    pub extends: Option<Extends>,
}

/// `extends "2011-trial"` (an edition id looked up in `rules/`) or
/// `extends path "x.qili"`, optionally pinned by the parent's content hash.
#[derive(Clone, Debug, PartialEq)]
pub struct Extends {
    pub target: String,
    pub by_path: bool,
    pub pin: Option<String>,
    pub span: Span,
}

/// A rulebook citation such as `@26.1.2`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cite {
    pub id: String,
    pub span: Span,
}

/// The Chinese and English names of a term.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    pub zh: Option<String>,
    pub en: Option<String>,
}

/// What an item does to the edition it extends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amend {
    /// A new item; an error if the parent already has one of that id.
    Add,
    /// Replaces the parent's item of that id; an error if there is none.
    Override,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Values(Values),
    Exchange(Horizon),
    Define(Definition),
    Nature(Nature),
    Clause(Clause),
    Order(Order),
    Verdict(Verdict),
    Remove(Removal),
}

/// The kinds of item that have their own ids and can be removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ItemKind {
    Values,
    Exchange,
    Define,
    Nature,
    Clause,
    Order,
    Verdict,
}

impl ItemKind {
    pub fn keyword(self) -> &'static str {
        match self {
            ItemKind::Values => "values",
            ItemKind::Exchange => "exchange",
            ItemKind::Define => "define",
            ItemKind::Nature => "nature",
            ItemKind::Clause => "clause",
            ItemKind::Order => "order",
            ItemKind::Verdict => "verdict",
        }
    }
}

impl Item {
    pub fn kind(&self) -> ItemKind {
        match self {
            Item::Values(_) => ItemKind::Values,
            Item::Exchange(_) => ItemKind::Exchange,
            Item::Define(_) => ItemKind::Define,
            Item::Nature(_) => ItemKind::Nature,
            Item::Clause(_) => ItemKind::Clause,
            Item::Order(_) => ItemKind::Order,
            Item::Verdict(_) => ItemKind::Verdict,
            Item::Remove(r) => r.kind,
        }
    }

    /// The stable id: the name of a definition, nature or clause; the
    /// keyword of the singletons (`values`, `exchange`, `order`, `verdict`).
    pub fn id(&self) -> &str {
        match self {
            Item::Values(_) => "values",
            Item::Exchange(_) => "exchange",
            Item::Order(_) => "order",
            Item::Verdict(_) => "verdict",
            Item::Define(d) => &d.name.name,
            Item::Nature(n) => &n.name.name,
            Item::Clause(c) => &c.id.name,
            Item::Remove(r) => &r.id.name,
        }
    }

    pub fn amend(&self) -> Amend {
        match self {
            Item::Values(v) => v.amend,
            Item::Exchange(h) => h.amend,
            Item::Define(d) => d.amend,
            Item::Nature(n) => n.amend,
            Item::Clause(c) => c.amend,
            Item::Order(o) => o.amend,
            Item::Verdict(v) => v.amend,
            Item::Remove(_) => Amend::Override,
        }
    }

    /// Where the item's id is written (for pointing at it).
    pub fn id_span(&self) -> Span {
        match self {
            Item::Values(v) => v.span,
            Item::Exchange(h) => h.span,
            Item::Order(o) => o.span,
            Item::Verdict(v) => v.span,
            Item::Define(d) => d.name.span,
            Item::Nature(n) => n.name.span,
            Item::Clause(c) => c.id.span,
            Item::Remove(r) => r.id.span,
        }
    }

    /// The whole item.
    pub fn span(&self) -> Span {
        match self {
            Item::Values(v) => v.span,
            Item::Exchange(h) => h.span,
            Item::Order(o) => o.span,
            Item::Verdict(v) => v.span,
            Item::Define(d) => d.span,
            Item::Nature(n) => n.span,
            Item::Clause(c) => c.span,
            Item::Remove(r) => r.span,
        }
    }

    pub fn cite(&self) -> Option<&Cite> {
        match self {
            Item::Define(d) => d.cite.as_ref(),
            Item::Nature(n) => n.cite.as_ref(),
            Item::Clause(c) => c.cite.as_ref(),
            _ => None,
        }
    }
}

/// `values { rook 10  pawn.crossed 2 … }` — 子力价值.
#[derive(Clone, Debug, PartialEq)]
pub struct Values {
    pub amend: Amend,
    pub entries: Vec<ValueEntry>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ValueEntry {
    pub key: Ident,
    pub value: i64,
    /// Where the number is written.
    pub value_span: Span,
}

/// `exchange { plies 16  quiet-checks 2 }` — how far the capture exchange
/// behind `exchange(a, b)` and its kin looks: the longest line in plies,
/// and how many checks that capture nothing the line may hold. The
/// rulebooks say "the complete exchange" and set no bound; the bound is
/// the reader's, so an edition can state it. Without a block anywhere in
/// its chain the searches' defaults apply (16 plies, 2 quiet checks,
/// docs/language.md §4.7).
#[derive(Clone, Debug, PartialEq)]
pub struct Horizon {
    pub amend: Amend,
    pub entries: Vec<ValueEntry>,
    pub span: Span,
}

/// `define name(params) : type "中文" "english" @cite = body`
#[derive(Clone, Debug, PartialEq)]
pub struct Definition {
    pub amend: Amend,
    pub name: Ident,
    pub params: Vec<Param>,
    pub ty: Option<TypeName>,
    pub names: Names,
    pub cite: Option<Cite>,
    pub body: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: Ident,
    pub ty: TypeName,
}

/// The types a rules file can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypeName {
    Bool,
    Int,
    Piece,
    Side,
    Kind,
    Nature,
    Move,
    Set(SetOf),
}

/// Element types of sets (sets do not nest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetOf {
    Bool,
    Int,
    Piece,
    Side,
    Kind,
    Nature,
    Move,
}

impl fmt::Display for TypeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeName::Bool => f.write_str("bool"),
            TypeName::Int => f.write_str("int"),
            TypeName::Piece => f.write_str("piece"),
            TypeName::Side => f.write_str("side"),
            TypeName::Kind => f.write_str("kind"),
            TypeName::Nature => f.write_str("nature"),
            TypeName::Move => f.write_str("move"),
            TypeName::Set(e) => write!(f, "set<{}>", TypeName::from(*e)),
        }
    }
}

impl From<SetOf> for TypeName {
    fn from(e: SetOf) -> TypeName {
        match e {
            SetOf::Bool => TypeName::Bool,
            SetOf::Int => TypeName::Int,
            SetOf::Piece => TypeName::Piece,
            SetOf::Side => TypeName::Side,
            SetOf::Kind => TypeName::Kind,
            SetOf::Nature => TypeName::Nature,
            SetOf::Move => TypeName::Move,
        }
    }
}

/// `nature 捉 "chase" @24.3 = body` — the id is the Chinese name.
#[derive(Clone, Debug, PartialEq)]
pub struct Nature {
    pub amend: Amend,
    pub name: Ident,
    pub en: Option<String>,
    pub cite: Option<Cite>,
    pub body: Expr,
    pub span: Span,
}

/// A special clause: when its condition holds for a move, it changes the
/// move's natures (`recast 捉, 杀 -> 闲`, `drop 捉`, `add 捉`).
#[derive(Clone, Debug, PartialEq)]
pub struct Clause {
    pub amend: Amend,
    pub id: Ident,
    pub names: Names,
    pub cite: Option<Cite>,
    pub when: Expr,
    pub action: ClauseAction,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ClauseAction {
    Recast { from: Vec<Ident>, to: Ident },
    Drop(Vec<Ident>),
    Add(Vec<Ident>),
}

/// The 从重 order, heaviest group first; natures in one group weigh the same.
#[derive(Clone, Debug, PartialEq)]
pub struct Order {
    pub amend: Amend,
    pub groups: Vec<Vec<Ident>>,
    pub span: Span,
}

/// The verdict table: cases tried in order; the first that holds decides.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub amend: Amend,
    pub cases: Vec<Case>,
    pub otherwise: Ruling,
    pub span: Span,
}

/// `case id "中文" "english" @cite for s: condition => s must change`
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    pub id: Ident,
    pub names: Names,
    pub cite: Option<Cite>,
    pub for_side: Option<Ident>,
    pub cond: Expr,
    pub ruling: Ruling,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Ruling {
    Draw,
    MustChange(Ident),
}

/// `remove clause king-answer`
#[derive(Clone, Debug, PartialEq)]
pub struct Removal {
    pub kind: ItemKind,
    pub id: Ident,
    pub span: Span,
}

/// An expression with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Bool(bool),
    Int(i64),
    /// A variable, a nature, a side or kind constant, or a nullary primitive.
    Name(Ident),
    Call(Ident, Vec<Expr>),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `exists x in set where filter: body` / `forall …`
    Quantified {
        quantifier: Quantifier,
        var: Ident,
        set: Box<Expr>,
        filter: Option<Box<Expr>>,
        body: Box<Expr>,
    },
    /// `count x in set where filter`
    Count {
        var: Ident,
        set: Box<Expr>,
        filter: Option<Box<Expr>>,
    },
    /// `{ x in set where filter }`
    SetBuilder {
        var: Ident,
        set: Box<Expr>,
        filter: Box<Expr>,
    },
    SetLiteral(Vec<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Evaluate `body` in another position: before the move, after a
    /// hypothetical capture, or with the turn passed back.
    Context(Box<Context>, Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    Exists,
    Forall,
}

impl Quantifier {
    /// The word a rules file writes.
    pub fn keyword(self) -> &'static str {
        match self {
            Quantifier::Exists => "exists",
            Quantifier::Forall => "forall",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Context {
    Before,
    /// `previously { … }`: the position before the opponent's previous
    /// move (two plies back; a cycle's moves wrap round).
    Previously,
    AfterTake(Expr, Expr),
    AfterPass,
    /// `after lift(p) { … }`: the position with piece p taken off the
    /// board, the same side to move.
    AfterLift(Expr),
    /// `after move(m) { … }`, in the verdict: the body judged as move m of
    /// the cycle was, in the position after it; the pieces it names come
    /// back as the cycle knows them (each the same piece all through).
    AfterMove(Expr),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    Add,
    Sub,
    Mul,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "=",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::In => "in",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
        }
    }

    /// Binding strength, loosest 1; used by the formatter to place parentheses.
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::Or => 1,
            BinOp::And => 2,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::In => 4,
            BinOp::Add | BinOp::Sub => 5,
            BinOp::Mul => 6,
        }
    }
}
