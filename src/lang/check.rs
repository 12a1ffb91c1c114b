//! Static checks of a resolved rulebook: names, arities, types, scopes,
//! natures and the `order`, `values`, the verdict table, and recursion
//! among definitions — everything the judge would otherwise find only
//! half-way through a game, reported all at once and before it runs.
//!
//! The checks run on the flat rulebook ([`Resolved`]), because an edition
//! is only meaningful with what it inherits: a nature defined in the parent
//! must still appear in the child's `order`. Items of one rulebook come
//! from different files of the chain, so every diagnostic carries the
//! source of the file its item was written in ([`Place`]).
//!
//! Errors make a rulebook unusable; warnings (`unused`, `unreachable`,
//! `dead_clause`) point at text that changes nothing.

use std::collections::{HashMap, HashSet};
use std::fmt;

use indexmap::IndexMap;
use miette::{Diagnostic, LabeledSpan, SourceCode};

use super::ast::{
    BinOp, Case, Clause, ClauseAction, Context, Definition, Expr, ExprKind, Horizon, Ident,
    ItemKind, Nature, Order, Ruling, Span, ValueEntry, Values, Verdict,
};
use super::parse::Source;
use super::primitives::{self, Primitive, Scope, Ty};
use super::resolve::{Place, Resolved, ResolvedItem};
use super::suggest::closest;

/// The settings of `exchange`, each required exactly once: the longest
/// line in plies (the first capture included) and the checks that capture
/// nothing.
pub const EXCHANGE_KEYS: [&str; 2] = ["plies", "quiet-checks"];
/// The range each of [`EXCHANGE_KEYS`] accepts, in order: `plies` up to the
/// searches' own limit (`tactics::exchange::MAX_PLIES`, held by a test: the
/// language does not depend on the searches); a few quiet checks at most.
pub const EXCHANGE_RANGES: [(i64, i64); 2] = [(1, 63), (0, 8)];

/// The keys of `values`, each required exactly once.
pub const VALUE_KEYS: [&str; 8] = [
    "rook",
    "horse",
    "cannon",
    "advisor",
    "elephant",
    "king",
    "pawn.crossed",
    "pawn.uncrossed",
];

/// Whether a finding makes the rulebook unusable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// Everything the checks found, errors and warnings apart, each list in
/// reading order (the checked file first, then the editions it extends).
#[derive(Debug, Default)]
pub struct Report {
    pub errors: Vec<CheckError>,
    pub warnings: Vec<CheckError>,
}

impl Report {
    /// True when the rulebook can be judged with (warnings allowed).
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty()
    }

    /// Errors first, then warnings.
    pub fn diagnostics(&self) -> impl Iterator<Item = &CheckError> {
        self.errors.iter().chain(self.warnings.iter())
    }
}

/// What a rules file says that it should not, with the data its message needs.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    UnknownName {
        name: String,
        /// Written as a call `name(…)`: only definitions and primitives fit.
        call: bool,
        suggestion: Option<String>,
        /// The natures in force, named in the help when nothing is near.
        natures: Vec<String>,
    },
    NotCallable {
        name: String,
        what: Binding,
    },
    MissingArguments {
        name: String,
        signature: String,
    },
    WrongArgumentCount {
        name: String,
        signature: String,
        expected: usize,
        found: usize,
    },
    Type {
        role: String,
        expected: String,
        found: Ty,
        hint: Option<String>,
    },
    ResultType {
        name: String,
        declared: Ty,
        found: Ty,
    },
    Scope {
        /// The name written at the place of the error (a primitive, a
        /// context form or a definition).
        name: String,
        /// The primitive or context form that has the scope.
        primitive: String,
        /// True when `name` is a definition that uses `primitive`.
        via: bool,
        scope: Scope,
        site: Site,
    },
    MixedScope {
        name: String,
        move_use: String,
        cycle_use: String,
    },
    /// A piece of the cycle named inside `after move(m) { … }`, where
    /// pieces are the move's.
    PieceAcrossMove {
        name: String,
    },
    UnknownNature {
        name: String,
        suggestion: Option<String>,
        role: &'static str,
        natures: Vec<String>,
    },
    NotInOrder {
        name: String,
    },
    OrderDuplicate {
        name: String,
    },
    MissingItem {
        kind: ItemKind,
    },
    /// No `values`, but a primitive that counts material is called.
    ValuesNeeded {
        primitive: String,
    },
    NoNatures,
    ValueMissing {
        keys: Vec<&'static str>,
    },
    ValueDuplicate {
        key: String,
    },
    ValueUnknown {
        key: String,
        suggestion: Option<String>,
    },
    SettingMissing {
        keys: Vec<&'static str>,
    },
    SettingDuplicate {
        key: String,
    },
    SettingUnknown {
        key: String,
        suggestion: Option<String>,
    },
    /// A setting of `exchange` outside the range the searches accept.
    SettingRange {
        key: String,
        value: i64,
        range: (i64, i64),
    },
    RulingSide {
        name: String,
        for_var: Option<String>,
        suggestion: Option<String>,
    },
    DuplicateCase {
        id: String,
    },
    Recursion {
        cycle: Vec<String>,
    },
    Shadow {
        name: String,
        shadows: Binding,
    },
    Unused {
        name: String,
        inherited_from: Option<String>,
    },
    Unreachable {
        id: String,
        after: String,
    },
    DeadClause {
        id: String,
    },
}

/// What a name is bound to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    Variable,
    Nature,
    Definition,
    Primitive,
}

impl Binding {
    fn word(self) -> &'static str {
        match self {
            Binding::Variable => "variable",
            Binding::Nature => "nature",
            Binding::Definition => "definition",
            Binding::Primitive => "board primitive",
        }
    }
}

/// Where an expression is judged, for scope messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    Nature,
    Clause,
    Case,
}

impl Site {
    fn words(self) -> &'static str {
        match self {
            Site::Nature => "a nature",
            Site::Clause => "a clause",
            Site::Case => "a verdict case",
        }
    }

    fn scope(self) -> Scope {
        match self {
            Site::Nature | Site::Clause => Scope::Move,
            Site::Case => Scope::Cycle,
        }
    }
}

impl Problem {
    /// The diagnostic code, `qili::check::<what>`.
    pub fn code(&self) -> &'static str {
        match self {
            Problem::UnknownName { .. } => "qili::check::unknown_name",
            Problem::NotCallable { .. } => "qili::check::not_callable",
            Problem::MissingArguments { .. } | Problem::WrongArgumentCount { .. } => {
                "qili::check::arity"
            }
            Problem::Type { .. } => "qili::check::type",
            Problem::ResultType { .. } => "qili::check::result_type",
            Problem::Scope { .. } | Problem::MixedScope { .. } => "qili::check::scope",
            Problem::UnknownNature { .. } => "qili::check::unknown_nature",
            Problem::NotInOrder { .. } => "qili::check::order_missing",
            Problem::OrderDuplicate { .. } => "qili::check::order_duplicate",
            Problem::MissingItem { .. } | Problem::ValuesNeeded { .. } => {
                "qili::check::missing_item"
            }
            Problem::NoNatures => "qili::check::no_natures",
            Problem::ValueMissing { .. } => "qili::check::value_missing",
            Problem::ValueDuplicate { .. } => "qili::check::value_duplicate",
            Problem::ValueUnknown { .. } => "qili::check::value_unknown",
            Problem::SettingMissing { .. } => "qili::check::exchange_missing",
            Problem::SettingDuplicate { .. } => "qili::check::exchange_duplicate",
            Problem::SettingUnknown { .. } => "qili::check::exchange_unknown",
            Problem::SettingRange { .. } => "qili::check::exchange_range",
            Problem::RulingSide { .. } => "qili::check::ruling_side",
            Problem::DuplicateCase { .. } => "qili::check::duplicate_case",
            Problem::Recursion { .. } => "qili::check::recursion",
            Problem::Shadow { .. } => "qili::check::shadow",
            Problem::PieceAcrossMove { .. } => "qili::check::piece_across_move",
            Problem::Unused { .. } => "qili::check::unused",
            Problem::Unreachable { .. } => "qili::check::unreachable",
            Problem::DeadClause { .. } => "qili::check::dead_clause",
        }
    }

    /// What the primary label says at the span.
    fn label(&self) -> String {
        match self {
            Problem::UnknownName { call: true, .. } => "not a definition or primitive".into(),
            Problem::UnknownName { .. } => "not a variable, nature, definition or primitive".into(),
            Problem::NotCallable { what, .. } => {
                format!("a {}, called like a function", what.word())
            }
            Problem::MissingArguments { .. } => "used without its arguments".into(),
            Problem::WrongArgumentCount {
                expected, found, ..
            } => {
                format!("expected {}, found {found}", arguments(*expected))
            }
            Problem::Type {
                expected, found, ..
            } => format!("expected {expected}, found `{found}`"),
            Problem::ResultType {
                declared, found, ..
            } => format!("expected `{declared}`, found `{found}`"),
            Problem::Scope {
                via: false, scope, ..
            } => format!("judged {}", scope.judged()),
            Problem::Scope {
                primitive, scope, ..
            } => {
                format!("uses `{primitive}`, judged {}", scope.judged())
            }
            Problem::MixedScope { .. } => "judged over the whole cycle".into(),
            Problem::UnknownNature { .. } => "expected a nature".into(),
            Problem::NotInOrder { .. } => "not in the `order`".into(),
            Problem::OrderDuplicate { .. } => "written again here".into(),
            Problem::MissingItem { kind } => {
                format!("no `{}` here or in any edition it extends", kind.keyword())
            }
            Problem::ValuesNeeded { .. } => "counts material by the edition's `values`".into(),
            Problem::NoNatures => "no `nature` here or in any edition it extends".into(),
            Problem::ValueMissing { keys } => format!("missing {}", backticked(keys)),
            Problem::ValueDuplicate { .. } => "given again here".into(),
            Problem::ValueUnknown { .. } => "not a piece value".into(),
            Problem::SettingMissing { keys } => format!("missing {}", backticked(keys)),
            Problem::SettingDuplicate { .. } => "given again here".into(),
            Problem::SettingUnknown { .. } => "not a setting of the exchange".into(),
            Problem::SettingRange {
                range: (lo, hi), ..
            } => format!("expected {lo} to {hi}"),
            Problem::RulingSide {
                for_var: Some(v), ..
            } => format!("expected `red`, `black` or `{v}`"),
            Problem::RulingSide { .. } => "expected `red` or `black`".into(),
            Problem::DuplicateCase { .. } => "written again here".into(),
            Problem::Recursion { cycle } => match cycle.as_slice() {
                [a, b, ..] => format!("`{a}` calls `{b}`"),
                _ => "calls itself".into(),
            },
            Problem::Shadow {
                shadows: Binding::Variable,
                ..
            } => "bound again here".into(),
            Problem::Shadow { shadows, .. } => format!("hides the {}", shadows.word()),
            Problem::PieceAcrossMove { .. } => "a piece of the cycle, used in one move".into(),
            Problem::Unused { .. } => "nothing uses this".into(),
            Problem::Unreachable { .. } => "never tried".into(),
            Problem::DeadClause { .. } => "never holds".into(),
        }
    }

    /// The did-you-mean of the problems that have one.
    fn suggestion(&self) -> Option<&str> {
        match self {
            Problem::UnknownName { suggestion, .. }
            | Problem::ValueUnknown { suggestion, .. }
            | Problem::SettingUnknown { suggestion, .. }
            | Problem::RulingSide { suggestion, .. }
            | Problem::UnknownNature { suggestion, .. } => suggestion.as_deref(),
            _ => None,
        }
    }

    fn help(&self) -> String {
        if let Some(s) = self.suggestion() {
            return format!("did you mean `{s}`?");
        }
        match self {
            Problem::UnknownName {
                call: true, name, ..
            } => format!(
                "define it (`define {name}(…) : bool = …`), or call a board primitive \
                 (`qili check --primitives` lists them)"
            ),
            Problem::UnknownName { natures, .. } => {
                let natures = if natures.is_empty() {
                    "none yet".to_string()
                } else {
                    backticked(natures)
                };
                format!(
                    "a name is a board primitive, a nature ({natures}), a definition, \
                     or a variable bound by a parameter, a quantifier or `for`"
                )
            }
            Problem::NotCallable {
                what: Binding::Nature,
                name,
            } => format!(
                "a nature is a value of type `nature`, not a test; the verdict asks for it \
                 with `nature_of(m) = {name}` or `{name} in natures_of(m)`"
            ),
            Problem::NotCallable { .. } => "a variable holds a value; drop the parentheses".into(),
            Problem::MissingArguments { signature, .. } => format!("call it as `{signature}`"),
            Problem::WrongArgumentCount { signature, .. } => {
                format!("its signature is `{signature}`")
            }
            Problem::Type { hint: Some(h), .. } => h.clone(),
            Problem::Type { expected, role, .. } => format!("{role} takes {expected}"),
            Problem::ResultType {
                declared, found, ..
            } => {
                format!("declare it `: {found}`, or change the body so that it gives `{declared}`")
            }
            Problem::Scope {
                primitive,
                site: Site::Case,
                ..
            } => format!(
                "`{primitive}` belongs in {}; the verdict sees the moves only through \
                 `moves(s)`, `nature_of(m)` and `natures_of(m)`",
                Scope::Move.allowed_in()
            ),
            Problem::Scope { primitive, .. } => format!(
                "`{primitive}` belongs in {}; a nature or clause sees only the move being \
                 judged and the positions around it",
                Scope::Cycle.allowed_in()
            ),
            Problem::MixedScope { .. } => HELP_MIXED.into(),
            Problem::UnknownNature { natures, .. } if natures.is_empty() => {
                "this rulebook defines no nature yet".into()
            }
            Problem::UnknownNature { natures, .. } => {
                format!("the natures are {}", backticked(natures))
            }
            Problem::NotInOrder { name } => format!(
                "every nature needs a weight for 从重: add `{name}` to the `order`, \
                 alone or in a group with `=`"
            ),
            Problem::OrderDuplicate { .. } => "a nature has one weight; keep one of the two".into(),
            Problem::MissingItem {
                kind: ItemKind::Order,
            } => "add `order 将 > 杀 > 捉 > 闲` naming every nature, heaviest first".into(),
            Problem::MissingItem {
                kind: ItemKind::Verdict,
            } => HELP_VERDICT.into(),
            Problem::MissingItem { .. } | Problem::ValuesNeeded { .. } => HELP_VALUES.into(),
            Problem::NoNatures => HELP_NATURES.into(),
            Problem::ValueMissing { .. } => format!(
                "every edition gives all eight values: {}",
                VALUE_KEYS.join(" ")
            ),
            Problem::ValueDuplicate { .. } => "a piece has one value; keep one of the two".into(),
            Problem::ValueUnknown { .. } => format!("the keys are {}", VALUE_KEYS.join(" ")),
            Problem::SettingMissing { .. } => format!(
                "an `exchange` block states its whole horizon: {}",
                EXCHANGE_KEYS.join(" ")
            ),
            Problem::SettingDuplicate { .. } => "keep one of the two".into(),
            Problem::SettingUnknown { .. } => {
                format!("the settings are {}", EXCHANGE_KEYS.join(" "))
            }
            Problem::SettingRange { key, .. } if key == "plies" => {
                "the line counts its first capture; the searches stop at 63 plies".into()
            }
            Problem::SettingRange { .. } => {
                "each quiet check multiplies the positions an exchange searches; the \
                 node budget bounds them, and past a few it cuts searches short"
                    .into()
            }
            Problem::RulingSide {
                for_var: Some(v), ..
            } => format!(
                "this case is judged `for {v}`: write `{v} must change`, \
                 `red must change` or `black must change`"
            ),
            Problem::RulingSide { .. } => HELP_RULING.into(),
            Problem::DuplicateCase { .. } => {
                "explanations cite verdict cases by id; give each its own".into()
            }
            Problem::Recursion { .. } => HELP_RECURSION.into(),
            Problem::Shadow {
                shadows: Binding::Variable,
                ..
            } => "use another name for the inner variable".into(),
            Problem::Shadow { .. } => {
                "rename it: a name means one thing throughout a rulebook".into()
            }
            Problem::PieceAcrossMove { .. } => {
                "inside `after move(m) { … }` pieces are named as that move sees them; \
                 ask about the move's own pieces there (`pieces(mover)`, `moved`), \
                 and compare the pieces the block gives back outside it"
                    .into()
            }
            Problem::Unused {
                name,
                inherited_from: Some(parent),
            } => format!(
                "it is inherited from `{parent}`; `remove define {name}` drops it from this edition"
            ),
            Problem::Unused { .. } => HELP_UNUSED.into(),
            Problem::Unreachable { after, .. } => format!(
                "cases are tried in order and `{after}` always holds; \
                 move it last or give it a real condition"
            ),
            Problem::DeadClause { id } => format!(
                "a clause that never applies changes nothing; \
                 delete it, or `remove clause {id}` if it is inherited"
            ),
        }
    }
}

const HELP_MIXED: &str = "no context evaluates both: split it into a definition for the \
                          natures and one for the verdict";
const HELP_VERDICT: &str = "add `verdict { case id for s: … => s must change  otherwise => draw }`";
const HELP_VALUES: &str = "add `values { rook 10 horse 5 cannon 5 advisor 2 elephant 2 \
                           king 1000 pawn.crossed 2 pawn.uncrossed 0 }`";
const HELP_NATURES: &str =
    "moves are classified by natures, e.g. `nature 将 \"check\" = in_check(opponent)`";
const HELP_RULING: &str = "write `red must change`, `black must change`, or add `for s` to \
                           the case and write `s must change`";
const HELP_RECURSION: &str = "the judge evaluates a definition by expanding it, so none may \
                              depend on itself; range over a set with `exists`, `forall` or \
                              `count` instead";
const HELP_UNUSED: &str = "no nature, clause, verdict case or other definition refers to it; \
                           delete it or use it";

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::UnknownName { name, .. } => write!(f, "unknown name `{name}`"),
            Problem::NotCallable { name, what } => {
                write!(f, "`{name}` is a {}, not something to call", what.word())
            }
            Problem::MissingArguments { name, .. } => write!(f, "`{name}` needs arguments"),
            Problem::WrongArgumentCount {
                name,
                expected,
                found,
                ..
            } => write!(f, "`{name}` takes {}, not {found}", arguments(*expected)),
            Problem::Type {
                role,
                expected,
                found,
                ..
            } => write!(f, "{role} must be {expected}, not `{found}`"),
            Problem::ResultType {
                name,
                declared,
                found,
            } => {
                write!(
                    f,
                    "`{name}` is declared `{declared}` but its body is `{found}`"
                )
            }
            Problem::Scope {
                name,
                primitive,
                via,
                scope,
                site,
            } => {
                if *via {
                    write!(
                        f,
                        "`{name}` cannot be used in {}: it uses `{primitive}`, which is judged {}",
                        site.words(),
                        scope.judged()
                    )
                } else {
                    write!(
                        f,
                        "`{name}` cannot be used in {}: it is judged {}",
                        site.words(),
                        scope.judged()
                    )
                }
            }
            Problem::MixedScope {
                name,
                move_use,
                cycle_use,
            } => write!(
                f,
                "`{name}` mixes `{move_use}` (judged one move at a time) \
                 with `{cycle_use}` (judged over the whole cycle)"
            ),
            Problem::UnknownNature { name, role, .. } => {
                write!(f, "`{name}` in {role} is not a nature")
            }
            Problem::NotInOrder { name } => {
                write!(f, "nature `{name}` is missing from the `order`")
            }
            Problem::OrderDuplicate { name } => {
                write!(f, "nature `{name}` appears twice in the `order`")
            }
            Problem::MissingItem { kind } => write!(f, "the rulebook has no `{}`", kind.keyword()),
            Problem::ValuesNeeded { primitive } => {
                write!(f, "the rulebook has no `values`, which `{primitive}` needs")
            }
            Problem::NoNatures => write!(f, "the rulebook defines no nature"),
            Problem::ValueMissing { keys } => write!(f, "`values` lacks {}", backticked(keys)),
            Problem::ValueDuplicate { key } => write!(f, "`{key}` is given twice in `values`"),
            Problem::ValueUnknown { key, .. } => write!(f, "unknown piece value `{key}`"),
            Problem::SettingMissing { keys } => write!(f, "`exchange` lacks {}", backticked(keys)),
            Problem::SettingDuplicate { key } => {
                write!(f, "`{key}` is given twice in `exchange`")
            }
            Problem::SettingUnknown { key, .. } => write!(f, "unknown exchange setting `{key}`"),
            Problem::SettingRange { key, value, .. } => {
                write!(f, "`{key} {value}` is out of range")
            }
            Problem::RulingSide { name, .. } => write!(f, "`{name} must change` names no side"),
            Problem::DuplicateCase { id } => write!(f, "verdict case `{id}` is written twice"),
            Problem::Recursion { cycle } => write!(
                f,
                "definitions depend on themselves: {}",
                cycle
                    .iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(" → ")
            ),
            Problem::Shadow {
                name,
                shadows: Binding::Variable,
            } => write!(f, "`{name}` is already bound"),
            Problem::Shadow { name, shadows } => {
                write!(f, "`{name}` hides the {} of the same name", shadows.word())
            }
            Problem::PieceAcrossMove { name } => write!(
                f,
                "`{name}` is a piece of the cycle and cannot be used inside `after move(…) {{ … }}`"
            ),
            Problem::Unused { name, .. } => write!(f, "definition `{name}` is never used"),
            Problem::Unreachable { id, .. } => {
                write!(f, "verdict case `{id}` can never be reached")
            }
            Problem::DeadClause { id } => {
                write!(f, "clause `{id}` never applies: its condition is `false`")
            }
        }
    }
}

/// "Did you mean", refusing candidates that share nothing with the name:
/// for a one-character nature such as `捉`, every other one-character name
/// is one edit away, and suggesting `将` for `捉` misleads.
fn near<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let len = name.chars().count();
    let candidates: Vec<&str> = candidates.into_iter().collect();
    closest(name, candidates).filter(|c| strsim::levenshtein(name, c) < len.max(c.chars().count()))
}

fn arguments(n: usize) -> String {
    match n {
        1 => "1 argument".into(),
        n => format!("{n} arguments"),
    }
}

fn backticked<S: AsRef<str>>(names: &[S]) -> String {
    names
        .iter()
        .map(|n| format!("`{}`", n.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A second place a finding points at. Shown as a secondary label when it
/// is in the same file, else as a related note with that file's snippet.
#[derive(Debug)]
pub struct Note(pub Place);

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::error::Error for Note {}

impl Diagnostic for Note {
    fn severity(&self) -> Option<miette::Severity> {
        Some(miette::Severity::Advice)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.0.source_code()
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.0.labels()
    }
}

/// One finding, at one place, with the other places it involves.
#[derive(Debug)]
pub struct CheckError {
    pub problem: Problem,
    pub severity: Severity,
    pub at: Place,
    pub also: Vec<Note>,
    /// Index into [`Resolved::chain`] of the file `at` is in, for ordering.
    edition: usize,
}

impl CheckError {
    pub fn code(&self) -> &'static str {
        self.problem.code()
    }
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.problem)
    }
}

impl std::error::Error for CheckError {}

impl Diagnostic for CheckError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.problem.code()))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.problem.help()))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.at.source_code()
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let primary = LabeledSpan::new_primary_with_span(Some(self.problem.label()), self.at.span);
        let secondary = self
            .also
            .iter()
            .filter(|n| n.0.file == self.at.file)
            .map(|n| LabeledSpan::new_with_span(Some(n.0.label.clone()), n.0.span));
        Some(Box::new(std::iter::once(primary).chain(secondary)))
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        let mut elsewhere = self
            .also
            .iter()
            .filter(|n| n.0.file != self.at.file)
            .peekable();
        elsewhere.peek()?;
        Some(Box::new(elsewhere.map(|n| n as &dyn Diagnostic)))
    }
}

// -----------------------------------------------------------------------------
// The rulebook, sorted by kind
// -----------------------------------------------------------------------------

/// An item of the resolved rulebook with the edition whose text it is.
struct In<'r, T> {
    edition: usize,
    node: &'r T,
}

// Not derived: a derive would require `T: Copy`, and only the reference is copied.
impl<T> Clone for In<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for In<'_, T> {}

/// The items in force, by kind.
struct Book<'r> {
    resolved: &'r Resolved,
    defs: IndexMap<&'r str, In<'r, Definition>>,
    natures: IndexMap<&'r str, In<'r, Nature>>,
    clauses: Vec<In<'r, Clause>>,
    order: Option<In<'r, Order>>,
    verdict: Option<In<'r, Verdict>>,
    values: Option<In<'r, Values>>,
    exchange: Option<In<'r, Horizon>>,
    /// Stands in for a source that is missing from the chain (never, for a
    /// rulebook built by `resolve`).
    empty: Source,
}

impl<'r> Book<'r> {
    fn new(resolved: &'r Resolved) -> Book<'r> {
        use super::ast::Item;
        let mut book = Book {
            resolved,
            defs: IndexMap::new(),
            natures: IndexMap::new(),
            clauses: Vec::new(),
            order: None,
            verdict: None,
            values: None,
            exchange: None,
            empty: Source::new("<unknown>", ""),
        };
        for ResolvedItem { item, edition, .. } in resolved.items.values() {
            let edition = *edition;
            match item {
                Item::Define(d) => {
                    book.defs.insert(&d.name.name, In { edition, node: d });
                }
                Item::Nature(n) => {
                    book.natures.insert(&n.name.name, In { edition, node: n });
                }
                Item::Clause(c) => book.clauses.push(In { edition, node: c }),
                Item::Order(o) => book.order = Some(In { edition, node: o }),
                Item::Verdict(v) => book.verdict = Some(In { edition, node: v }),
                Item::Values(v) => book.values = Some(In { edition, node: v }),
                Item::Exchange(h) => book.exchange = Some(In { edition, node: h }),
                Item::Remove(_) => {}
            }
        }
        book
    }

    fn source(&self, edition: usize) -> &Source {
        self.resolved
            .chain
            .get(edition)
            .map_or(&self.empty, |l| &l.source)
    }

    fn place(&self, edition: usize, span: Span, label: &str) -> Place {
        Place::labelled(self.source(edition), span, label)
    }

    fn finding(
        &self,
        severity: Severity,
        problem: Problem,
        edition: usize,
        span: Span,
        also: Vec<Note>,
    ) -> CheckError {
        CheckError {
            problem,
            severity,
            at: self.place(edition, span, "here"),
            also,
            edition,
        }
    }

    fn error(&self, problem: Problem, edition: usize, span: Span) -> CheckError {
        self.finding(Severity::Error, problem, edition, span, Vec::new())
    }

    fn note(&self, edition: usize, span: Span, label: &str) -> Note {
        Note(self.place(edition, span, label))
    }

    /// What a free name (not a local variable) refers to.
    fn target(&self, name: &str) -> Target<'r> {
        if self.natures.contains_key(name) {
            Target::Nature
        } else if let Some(d) = self.defs.get(name) {
            Target::Definition(*d)
        } else if let Some(p) = primitives::lookup(name) {
            Target::Primitive(p)
        } else {
            Target::Unknown
        }
    }

    /// The last file of the chain, where "the rulebook lacks …" is said.
    fn this(&self) -> usize {
        self.resolved.chain.len().saturating_sub(1)
    }

    fn header_span(&self) -> Span {
        self.resolved
            .this()
            .map_or(Span::default(), |l| l.book.header.edition.span)
    }
}

#[derive(Clone, Copy)]
enum Target<'r> {
    Nature,
    Definition(In<'r, Definition>),
    Primitive(&'static Primitive),
    Unknown,
}

// -----------------------------------------------------------------------------
// Free names: what an expression refers to outside itself
// -----------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RefKind {
    Name,
    Call,
    /// `before { … }`, `after take(…) { … }`, `after pass { … }`: judged
    /// one move at a time like a Move-scope primitive.
    Context,
}

/// A name an expression uses that no quantifier or parameter inside it binds.
#[derive(Clone, Copy, Debug)]
struct Ref<'a> {
    name: &'a str,
    span: Span,
    kind: RefKind,
    /// Inside `after move(m) { … }`: judged as a move, whatever the scope
    /// around it.
    shielded: bool,
}

fn free_refs<'a>(e: &'a Expr, bound: &mut Vec<&'a str>, out: &mut Vec<Ref<'a>>) {
    let under =
        |var: &'a Ident, parts: &[&'a Expr], bound: &mut Vec<&'a str>, out: &mut Vec<Ref<'a>>| {
            bound.push(&var.name);
            for p in parts {
                free_refs(p, bound, out);
            }
            bound.pop();
        };
    match &e.kind {
        ExprKind::Bool(_) | ExprKind::Int(_) => {}
        ExprKind::Name(id) | ExprKind::Call(id, _) => {
            if !bound.contains(&id.name.as_str()) {
                let kind = if matches!(e.kind, ExprKind::Call(..)) {
                    RefKind::Call
                } else {
                    RefKind::Name
                };
                out.push(Ref {
                    name: &id.name,
                    span: id.span,
                    kind,
                    shielded: false,
                });
            }
            if let ExprKind::Call(_, args) = &e.kind {
                for a in args {
                    free_refs(a, bound, out);
                }
            }
        }
        ExprKind::Not(x) | ExprKind::Neg(x) => free_refs(x, bound, out),
        ExprKind::Binary(_, a, b) => {
            free_refs(a, bound, out);
            free_refs(b, bound, out);
        }
        ExprKind::Quantified {
            var,
            set,
            filter,
            body,
            ..
        } => {
            free_refs(set, bound, out);
            let mut parts: Vec<&Expr> = filter.iter().map(|f| &**f).collect();
            parts.push(body);
            under(var, &parts, bound, out);
        }
        ExprKind::Count { var, set, filter } => {
            free_refs(set, bound, out);
            let parts: Vec<&Expr> = filter.iter().map(|f| &**f).collect();
            under(var, &parts, bound, out);
        }
        ExprKind::SetBuilder { var, set, filter } => {
            free_refs(set, bound, out);
            under(var, &[filter], bound, out);
        }
        ExprKind::SetLiteral(xs) => {
            for x in xs {
                free_refs(x, bound, out);
            }
        }
        ExprKind::If(c, t, f) => {
            for x in [c, t, f] {
                free_refs(x, bound, out);
            }
        }
        ExprKind::Context(ctx, body) => {
            let name = context_name(ctx);
            out.push(Ref {
                name,
                span: context_keyword(e.span, ctx),
                kind: RefKind::Context,
                shielded: false,
            });
            match &**ctx {
                Context::AfterTake(a, b) => {
                    free_refs(a, bound, out);
                    free_refs(b, bound, out);
                }
                Context::AfterLift(p) => free_refs(p, bound, out),
                Context::AfterMove(m) => {
                    free_refs(m, bound, out);
                    // The body is judged as a move: what it reaches is
                    // not the verdict's reach, only its dependencies.
                    let mut inner = Vec::new();
                    free_refs(body, bound, &mut inner);
                    out.extend(inner.into_iter().map(|r| Ref {
                        shielded: true,
                        ..r
                    }));
                    return;
                }
                Context::Before | Context::Previously | Context::AfterPass => {}
            }
            free_refs(body, bound, out);
        }
    }
}

fn context_name(ctx: &Context) -> &'static str {
    match ctx {
        Context::Before => "before { … }",
        Context::Previously => "previously { … }",
        Context::AfterTake(..) => "after take(…) { … }",
        Context::AfterPass => "after pass { … }",
        Context::AfterLift(..) => "after lift(…) { … }",
        Context::AfterMove(..) => AFTER_MOVE,
    }
}

/// The one context judged over the cycle: its body is judged as a move.
const AFTER_MOVE: &str = "after move(…) { … }";

/// The span of the `before` / `after` keyword that opens a context, so a
/// diagnostic points at one word rather than a whole block.
fn context_keyword(whole: Span, ctx: &Context) -> Span {
    let len = match ctx {
        Context::Before => "before".len(),
        Context::Previously => "previously".len(),
        Context::AfterTake(..)
        | Context::AfterPass
        | Context::AfterLift(..)
        | Context::AfterMove(..) => "after".len(),
    };
    Span::new(whole.start, (whole.start + len).min(whole.end))
}

fn refs_of<'a>(e: &'a Expr, params: &[&'a str]) -> Vec<Ref<'a>> {
    let mut bound: Vec<&str> = params.to_vec();
    let mut out = Vec::new();
    free_refs(e, &mut bound, &mut out);
    out
}

fn def_refs<'r>(d: &'r Definition) -> Vec<Ref<'r>> {
    let params: Vec<&str> = d.params.iter().map(|p| p.name.name.as_str()).collect();
    refs_of(&d.body, &params)
}

// -----------------------------------------------------------------------------
// The definition graph: recursion, evaluation order, unused definitions
// -----------------------------------------------------------------------------

/// For each definition, the definitions its body refers to, with where.
type Graph<'r> = IndexMap<&'r str, Vec<(&'r str, Span)>>;

fn graph<'r>(book: &Book<'r>) -> Graph<'r> {
    book.defs
        .iter()
        .map(|(name, d)| {
            let edges = def_refs(d.node)
                .into_iter()
                .filter(|r| {
                    r.kind != RefKind::Context
                        && matches!(book.target(r.name), Target::Definition(_))
                })
                .map(|r| (r.name, r.span))
                .collect();
            (*name, edges)
        })
        .collect()
}

/// Definitions in an order where each comes after those it uses (callees
/// first); members of a cycle come in some order.
fn postorder<'r>(g: &Graph<'r>) -> Vec<&'r str> {
    fn visit<'r>(n: &'r str, g: &Graph<'r>, seen: &mut HashSet<&'r str>, out: &mut Vec<&'r str>) {
        if !seen.insert(n) {
            return;
        }
        for (m, _) in g.get(n).map(Vec::as_slice).unwrap_or(&[]) {
            visit(m, g, seen, out);
        }
        out.push(n);
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for n in g.keys() {
        visit(n, g, &mut seen, &mut out);
    }
    out
}

/// One cycle per strongly connected group of definitions, each as the
/// edges `(caller, callee, where the call is)`, starting from the caller
/// written first.
fn cycles<'r>(g: &Graph<'r>) -> Vec<Vec<(&'r str, &'r str, Span)>> {
    fn walk<'r>(
        n: &'r str,
        g: &Graph<'r>,
        stack: &mut Vec<(&'r str, &'r str, Span)>,
        on_stack: &mut Vec<&'r str>,
        done: &mut HashSet<&'r str>,
        found: &mut Vec<Vec<(&'r str, &'r str, Span)>>,
    ) {
        on_stack.push(n);
        for &(m, span) in g.get(n).map(Vec::as_slice).unwrap_or(&[]) {
            stack.push((n, m, span));
            if let Some(at) = on_stack.iter().position(|s| *s == m) {
                found.push(stack[stack.len() - (on_stack.len() - at)..].to_vec());
            } else if !done.contains(m) {
                walk(m, g, stack, on_stack, done, found);
            }
            stack.pop();
        }
        on_stack.pop();
        done.insert(n);
    }
    let mut found = Vec::new();
    let mut done = HashSet::new();
    for n in g.keys() {
        if !done.contains(n) {
            walk(
                n,
                g,
                &mut Vec::new(),
                &mut Vec::new(),
                &mut done,
                &mut found,
            );
        }
    }
    // Keep one cycle per set of members; rotate each to start where it is
    // first written, so the report is stable.
    let position = |n: &str| g.get_index_of(n).unwrap_or(usize::MAX);
    let mut seen_sets: HashSet<Vec<&str>> = HashSet::new();
    let mut out = Vec::new();
    for mut c in found {
        let mut members: Vec<&str> = c.iter().map(|e| e.0).collect();
        members.sort_unstable();
        if !seen_sets.insert(members) {
            continue;
        }
        if let Some(first) = (0..c.len()).min_by_key(|i| position(c[*i].0)) {
            c.rotate_left(first);
        }
        out.push(c);
    }
    out
}

// -----------------------------------------------------------------------------
// Scopes
// -----------------------------------------------------------------------------

/// The first scoped primitive a definition reaches, and through which
/// definitions (outermost first).
#[derive(Clone, Debug)]
struct Trail {
    primitive: &'static str,
    via: Vec<String>,
    edition: usize,
    span: Span,
}

/// What a definition needs to be evaluated: a judged move, a cycle, or both.
#[derive(Clone, Debug, Default)]
struct Reach {
    moves: Option<Trail>,
    cycle: Option<Trail>,
}

impl Reach {
    fn get(&self, scope: Scope) -> Option<&Trail> {
        match scope {
            Scope::Move => self.moves.as_ref(),
            Scope::Cycle => self.cycle.as_ref(),
            Scope::Any => None,
        }
    }
}

/// The scope a reference needs directly (primitives and contexts), if any.
fn direct_scope(book: &Book<'_>, r: &Ref<'_>) -> Option<(Scope, &'static str)> {
    if r.shielded {
        return None;
    }
    if r.kind == RefKind::Context {
        if r.name == AFTER_MOVE {
            return Some((Scope::Cycle, AFTER_MOVE));
        }
        return Some((Scope::Move, context_static(r.name)));
    }
    match book.target(r.name) {
        Target::Primitive(p) if p.scope != Scope::Any => Some((p.scope, p.name)),
        _ => None,
    }
}

fn context_static(name: &str) -> &'static str {
    match name {
        "before { … }" => "before { … }",
        "after pass { … }" => "after pass { … }",
        _ => "after take(…) { … }",
    }
}

fn reach_of(
    book: &Book<'_>,
    refs: &[Ref<'_>],
    edition: usize,
    known: &HashMap<&str, Reach>,
) -> Reach {
    let mut reach = Reach::default();
    for r in refs.iter().filter(|r| !r.shielded) {
        let mut set = |scope: Scope, trail: Trail| {
            let slot = match scope {
                Scope::Move => &mut reach.moves,
                Scope::Cycle => &mut reach.cycle,
                Scope::Any => return,
            };
            if slot.is_none() {
                *slot = Some(trail);
            }
        };
        if let Some((scope, primitive)) = direct_scope(book, r) {
            set(
                scope,
                Trail {
                    primitive,
                    via: Vec::new(),
                    edition,
                    span: r.span,
                },
            );
        } else if let (Target::Definition(_), Some(inner)) =
            (book.target(r.name), known.get(r.name))
        {
            for scope in [Scope::Move, Scope::Cycle] {
                if let Some(t) = inner.get(scope) {
                    let mut t = t.clone();
                    t.via.insert(0, r.name.to_string());
                    set(scope, t);
                }
            }
        }
    }
    reach
}

fn reaches<'r>(book: &Book<'r>, order: &[&'r str]) -> HashMap<&'r str, Reach> {
    let mut known = HashMap::new();
    for name in order {
        if let Some(d) = book.defs.get(name) {
            let r = reach_of(book, &def_refs(d.node), d.edition, &known);
            known.insert(*name, r);
        }
    }
    known
}

/// Scope errors for the references of a nature, clause or case.
fn scope_errors(
    book: &Book<'_>,
    refs: &[Ref<'_>],
    edition: usize,
    site: Site,
    known: &HashMap<&str, Reach>,
) -> Vec<CheckError> {
    let wrong = match site.scope() {
        Scope::Move => Scope::Cycle,
        _ => Scope::Move,
    };
    let mut out = Vec::new();
    for r in refs.iter().filter(|r| !r.shielded) {
        if let Some((scope, primitive)) = direct_scope(book, r) {
            if scope == wrong {
                let problem = Problem::Scope {
                    name: primitive.to_string(),
                    primitive: primitive.to_string(),
                    via: false,
                    scope,
                    site,
                };
                out.push(book.error(problem, edition, r.span));
            }
        } else if let Some(t) = known.get(r.name).and_then(|k| k.get(wrong)) {
            // A definition that mixes both scopes is reported once, on itself.
            let mixed = known
                .get(r.name)
                .is_some_and(|k| k.moves.is_some() && k.cycle.is_some());
            if !mixed && matches!(book.target(r.name), Target::Definition(_)) {
                let problem = Problem::Scope {
                    name: r.name.to_string(),
                    primitive: t.primitive.to_string(),
                    via: true,
                    scope: wrong,
                    site,
                };
                let label = format!("`{}` is used here", t.primitive);
                let note = book.note(t.edition, t.span, &label);
                out.push(book.finding(Severity::Error, problem, edition, r.span, vec![note]));
            }
        }
    }
    out
}

// -----------------------------------------------------------------------------
// Types
// -----------------------------------------------------------------------------

/// What a call calls: parameter names and types, result, signature.
struct Callee {
    params: Vec<(String, Ty)>,
    result: Option<Ty>,
    signature: String,
}

/// A variable in scope.
struct Local<'r> {
    name: &'r str,
    ty: Option<Ty>,
    span: Span,
}

/// Type-checks the expressions of one item. `None` types are unknown
/// (an error already reported, or an empty set), and silence follow-on
/// errors about the same expression.
struct Walk<'b, 'r> {
    book: &'b Book<'r>,
    results: &'b HashMap<&'r str, Option<Ty>>,
    edition: usize,
    locals: Vec<Local<'r>>,
    /// Inside `after move(m) { … }`: how many locals were bound outside it
    /// (their pieces are the cycle's, not the move's).
    barrier: Option<usize>,
    out: Vec<CheckError>,
}

fn quoted(t: Ty) -> String {
    format!("`{t}`")
}

const HINT_IN: &str = "`x in S` asks whether x is a member of S, \
                       so x has the type of S's members";

/// A hint for the commonest type confusions.
fn type_hint(expected: Option<Ty>, found: Ty) -> Option<&'static str> {
    Some(match (expected, found) {
        (Some(Ty::Bool), Ty::Nature) => {
            "a nature's name is a value of type `nature`, not a test; \
             the verdict asks `X in natures_of(m)`"
        }
        (Some(Ty::Bool), Ty::Set(_)) => {
            "test a set with `exists x in S: …`, or compare `count x in S` with a number"
        }
        (Some(Ty::Bool), Ty::Int) => "compare the number, e.g. `… > 0`",
        (Some(Ty::Bool), _) => "compare it with `=` or `!=` to get a `bool`",
        (Some(Ty::Int), Ty::Set(_)) => "the size of a set is `count x in S`",
        (Some(Ty::Int), Ty::Piece) => "the value of a piece is `value(p)`",
        (Some(Ty::Int), Ty::Bool) => {
            "a `bool` is not a number; count what holds with `count x in S where …`"
        }
        (Some(Ty::Side), Ty::Piece) => "the side of a piece is `side_of(p)`",
        (Some(Ty::Piece), Ty::Side) => {
            "a side is not a piece: `moved` is the piece that moved, \
             `pieces(s)` the pieces of a side"
        }
        (Some(Ty::Kind), Ty::Piece) => "the kind of a piece is `kind(p)`",
        (Some(Ty::Nature), Ty::Move) => "the nature of a move is `nature_of(m)`",
        (Some(e), Ty::Set(_)) if e.set_of().is_some() => {
            "pick a member with `exists x in S: …` or `forall x in S: …`"
        }
        (None, t) if t.set_of().is_some() => {
            "a set comes from a primitive such as `pieces(s)`, \
             a set builder `{ x in S where … }` or braces `{a, b}`"
        }
        _ => return None,
    })
}

impl<'b, 'r> Walk<'b, 'r> {
    fn new(
        book: &'b Book<'r>,
        results: &'b HashMap<&'r str, Option<Ty>>,
        edition: usize,
    ) -> Walk<'b, 'r> {
        Walk {
            book,
            results,
            edition,
            locals: Vec::new(),
            barrier: None,
            out: Vec::new(),
        }
    }

    fn error(&mut self, problem: Problem, span: Span) {
        let e = self.book.error(problem, self.edition, span);
        self.out.push(e);
    }

    /// Reports a type mismatch; `fallback` is the hint when no common
    /// confusion explains it.
    fn mismatch(
        &mut self,
        role: String,
        expected: String,
        want: Option<Ty>,
        found: Ty,
        span: Span,
        fallback: Option<String>,
    ) {
        let problem = Problem::Type {
            role,
            expected,
            found,
            hint: type_hint(want, found).map(str::to_string).or(fallback),
        };
        self.error(problem, span);
    }

    /// Checks `e` has type `want`; returns its type as found.
    fn expect(&mut self, e: &'r Expr, want: Ty, role: impl FnOnce() -> String) -> Option<Ty> {
        self.expect_or(e, want, role, None)
    }

    fn expect_or(
        &mut self,
        e: &'r Expr,
        want: Ty,
        role: impl FnOnce() -> String,
        fallback: Option<String>,
    ) -> Option<Ty> {
        let t = self.ty(e);
        if let Some(found) = t {
            if found != want {
                self.mismatch(role(), quoted(want), Some(want), found, e.span, fallback);
            }
        }
        t
    }

    /// Checks `e` is a set; returns its element type.
    fn expect_set(&mut self, e: &'r Expr, role: impl FnOnce() -> String) -> Option<Ty> {
        match self.ty(e) {
            Some(Ty::Set(elem)) => Some(Ty::from(elem)),
            Some(found) => {
                self.mismatch(role(), "a set".into(), None, found, e.span, None);
                None
            }
            None => None,
        }
    }

    /// Brings a variable into scope, refusing names that already mean something.
    fn bind(&mut self, id: &'r Ident, ty: Option<Ty>) {
        let name = id.name.as_str();
        if let Some(prev) = self.locals.iter().rev().find(|l| l.name == name) {
            let note = self.book.note(self.edition, prev.span, "first bound here");
            let problem = Problem::Shadow {
                name: name.to_string(),
                shadows: Binding::Variable,
            };
            let e = self
                .book
                .finding(Severity::Error, problem, self.edition, id.span, vec![note]);
            self.out.push(e);
        } else {
            let shadows = match self.book.target(name) {
                Target::Nature => Some(Binding::Nature),
                Target::Definition(_) => Some(Binding::Definition),
                Target::Primitive(_) => Some(Binding::Primitive),
                Target::Unknown => None,
            };
            if let Some(shadows) = shadows {
                let problem = Problem::Shadow {
                    name: name.to_string(),
                    shadows,
                };
                self.error(problem, id.span);
            }
        }
        self.locals.push(Local {
            name,
            ty,
            span: id.span,
        });
    }

    fn unbind(&mut self) {
        self.locals.pop();
    }

    fn local(&self, name: &str) -> Option<&Local<'r>> {
        self.locals.iter().rev().find(|l| l.name == name)
    }

    /// Every name that could be meant here, for "did you mean".
    fn visible(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.locals.iter().map(|l| l.name).collect();
        names.extend(self.book.natures.keys().copied());
        names.extend(self.book.defs.keys().copied());
        names.extend(primitives::all().iter().map(|p| p.name));
        names
    }

    /// Reports an unknown name; a call is compared with callables only.
    fn unknown(&mut self, id: &Ident, call: bool) {
        let candidates = if call {
            let mut names: Vec<&str> = self.book.defs.keys().copied().collect();
            names.extend(primitives::all().iter().map(|p| p.name));
            names
        } else {
            self.visible()
        };
        let problem = Problem::UnknownName {
            name: id.name.clone(),
            call,
            suggestion: near(&id.name, candidates),
            natures: self.book.natures.keys().map(|k| k.to_string()).collect(),
        };
        self.error(problem, id.span);
    }

    fn def_result(&self, name: &str) -> Option<Ty> {
        self.results.get(name).copied().flatten()
    }

    /// A bare name: a variable, a nature, or a constant.
    fn name(&mut self, id: &'r Ident) -> Option<Ty> {
        if let Some(at) = self.locals.iter().rposition(|l| l.name == id.name) {
            let ty = self.locals[at].ty;
            let piece = matches!(ty, Some(t) if t == Ty::Piece || Some(t) == Ty::Piece.set_of());
            if piece && self.barrier.is_some_and(|b| at < b) {
                let problem = Problem::PieceAcrossMove {
                    name: id.name.clone(),
                };
                self.error(problem, id.span);
            }
            return ty;
        }
        match self.book.target(&id.name) {
            Target::Nature => Some(Ty::Nature),
            Target::Definition(d) if d.node.params.is_empty() => self.def_result(&id.name),
            Target::Definition(d) => {
                let signature = def_signature(d.node, self.def_result(&id.name));
                self.error(
                    Problem::MissingArguments {
                        name: id.name.clone(),
                        signature,
                    },
                    id.span,
                );
                self.def_result(&id.name)
            }
            Target::Primitive(p) if p.params.is_empty() => Some(p.result),
            Target::Primitive(p) => {
                self.error(
                    Problem::MissingArguments {
                        name: id.name.clone(),
                        signature: p.signature(),
                    },
                    id.span,
                );
                Some(p.result)
            }
            Target::Unknown => {
                self.unknown(id, false);
                None
            }
        }
    }

    /// What `id(…)` calls, or `None` (reported) when it is not callable.
    fn callee(&mut self, id: &'r Ident) -> Option<Callee> {
        let not_callable = |what| Problem::NotCallable {
            name: id.name.clone(),
            what,
        };
        if self.local(&id.name).is_some() {
            self.error(not_callable(Binding::Variable), id.span);
            return None;
        }
        match self.book.target(&id.name) {
            Target::Nature => {
                self.error(not_callable(Binding::Nature), id.span);
                None
            }
            Target::Definition(d) => {
                let result = self.def_result(&id.name);
                Some(Callee {
                    params: d
                        .node
                        .params
                        .iter()
                        .map(|p| (p.name.name.clone(), Ty::from(p.ty)))
                        .collect(),
                    result,
                    signature: def_signature(d.node, result),
                })
            }
            Target::Primitive(p) => Some(Callee {
                params: p
                    .param_names
                    .iter()
                    .map(|n| n.to_string())
                    .zip(p.params.iter().copied())
                    .collect(),
                result: Some(p.result),
                signature: p.signature(),
            }),
            Target::Unknown => {
                self.unknown(id, true);
                None
            }
        }
    }

    /// `f(args)`: a definition or a primitive, with its arguments checked.
    fn call(&mut self, id: &'r Ident, args: &'r [Expr], span: Span) -> Option<Ty> {
        let callee = self.callee(id);
        let Some(Callee {
            params,
            result,
            signature,
        }) = callee
        else {
            for a in args {
                self.ty(a);
            }
            return None;
        };
        if params.len() != args.len() {
            for a in args {
                self.ty(a);
            }
            self.error(
                Problem::WrongArgumentCount {
                    name: id.name.clone(),
                    signature,
                    expected: params.len(),
                    found: args.len(),
                },
                span,
            );
            return result;
        }
        for (arg, (pname, pty)) in args.iter().zip(params) {
            let fallback = Some(format!("the signature is `{signature}`"));
            self.expect_or(
                arg,
                pty,
                || format!("argument `{pname}` of `{}`", id.name),
                fallback,
            );
        }
        result
    }

    fn binary(&mut self, op: BinOp, a: &'r Expr, b: &'r Expr) -> Option<Ty> {
        let sym = op.symbol();
        match op {
            BinOp::And | BinOp::Or => {
                self.expect(a, Ty::Bool, || format!("the left side of `{sym}`"));
                self.expect(b, Ty::Bool, || format!("the right side of `{sym}`"));
                Some(Ty::Bool)
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul => {
                self.expect(a, Ty::Int, || format!("the left side of `{sym}`"));
                self.expect(b, Ty::Int, || format!("the right side of `{sym}`"));
                Some(Ty::Int)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                self.expect(a, Ty::Int, || format!("the left side of `{sym}`"));
                self.expect(b, Ty::Int, || format!("the right side of `{sym}`"));
                Some(Ty::Bool)
            }
            BinOp::Eq | BinOp::Ne => {
                let left = self.ty(a);
                let right = self.ty(b);
                if let (Some(l), Some(r)) = (left, right) {
                    if l != r {
                        self.mismatch(
                            format!("the right side of `{sym}`"),
                            format!("`{l}` like the left side"),
                            Some(l),
                            r,
                            b.span,
                            Some(format!("`{sym}` compares two values of one type")),
                        );
                    }
                }
                Some(Ty::Bool)
            }
            BinOp::In => {
                let left = self.ty(a);
                let elem = self.expect_set(b, || "the right side of `in`".into());
                if let (Some(l), Some(e)) = (left, elem) {
                    if l != e {
                        self.mismatch(
                            "the left side of `in`".into(),
                            format!("`{e}`, the members' type"),
                            Some(e),
                            l,
                            a.span,
                            Some(HINT_IN.into()),
                        );
                    }
                }
                Some(Ty::Bool)
            }
        }
    }

    fn set_literal(&mut self, items: &'r [Expr]) -> Option<Ty> {
        let mut elem: Option<Ty> = None;
        for x in items {
            let Some(t) = self.ty(x) else { continue };
            if t.set_of().is_none() {
                self.mismatch(
                    "a member of a set".into(),
                    "a single value".into(),
                    None,
                    t,
                    x.span,
                    Some("sets do not nest; write the members themselves".into()),
                );
                continue;
            }
            match elem {
                None => elem = Some(t),
                Some(e) if e != t => self.mismatch(
                    "a member of this set".into(),
                    format!("`{e}` like the first member"),
                    Some(e),
                    t,
                    x.span,
                    Some("all members of a set have one type".into()),
                ),
                Some(_) => {}
            }
        }
        elem.and_then(Ty::set_of)
    }

    /// `exists`/`forall`/`count`/set builder: the source is a set, the
    /// variable its element, the filter a `bool`.
    fn binder(
        &mut self,
        what: &str,
        var: &'r Ident,
        set: &'r Expr,
        filter: Option<&'r Expr>,
    ) -> Option<Ty> {
        let elem = self.expect_set(set, || format!("what `{what}` ranges over"));
        self.bind(var, elem);
        if let Some(f) = filter {
            self.expect(f, Ty::Bool, || "the `where` condition".into());
        }
        elem
    }

    /// The type of an expression, reporting what is wrong inside it.
    fn ty(&mut self, e: &'r Expr) -> Option<Ty> {
        match &e.kind {
            ExprKind::Bool(_) => Some(Ty::Bool),
            ExprKind::Int(_) => Some(Ty::Int),
            ExprKind::Name(id) => self.name(id),
            ExprKind::Call(id, args) => self.call(id, args, e.span),
            ExprKind::Not(x) => {
                self.expect(x, Ty::Bool, || "the operand of `not`".into());
                Some(Ty::Bool)
            }
            ExprKind::Neg(x) => {
                self.expect(x, Ty::Int, || "the operand of `-`".into());
                Some(Ty::Int)
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b),
            ExprKind::Quantified {
                quantifier,
                var,
                set,
                filter,
                body,
            } => {
                let word = quantifier.keyword();
                self.binder(word, var, set, filter.as_deref());
                self.expect(body, Ty::Bool, || format!("the body of `{word}`"));
                self.unbind();
                Some(Ty::Bool)
            }
            ExprKind::Count { var, set, filter } => {
                self.binder("count", var, set, filter.as_deref());
                self.unbind();
                Some(Ty::Int)
            }
            ExprKind::SetBuilder { var, set, filter } => {
                let elem = self.binder("{ … in … }", var, set, Some(filter));
                self.unbind();
                elem.and_then(Ty::set_of)
            }
            ExprKind::SetLiteral(items) => self.set_literal(items),
            ExprKind::If(c, t, f) => {
                self.expect(c, Ty::Bool, || "the condition of `if`".into());
                let then = self.ty(t);
                let other = self.ty(f);
                if let (Some(a), Some(b)) = (then, other) {
                    if a != b {
                        self.mismatch(
                            "the `else` branch".into(),
                            format!("`{a}` like the `then` branch"),
                            Some(a),
                            b,
                            f.span,
                            Some("both branches of `if` give a value of one type".into()),
                        );
                    }
                }
                then.or(other)
            }
            ExprKind::Context(ctx, body) => {
                match &**ctx {
                    Context::AfterTake(a, b) => {
                        self.expect(a, Ty::Piece, || "the capturer in `after take(a, b)`".into());
                        self.expect(b, Ty::Piece, || {
                            "the captured piece in `after take(a, b)`".into()
                        });
                    }
                    Context::AfterLift(p) => {
                        self.expect(p, Ty::Piece, || "the piece in `after lift(p)`".into());
                    }
                    Context::AfterMove(m) => {
                        self.expect(m, Ty::Move, || "the move in `after move(m)`".into());
                        let outer = self.barrier.replace(self.locals.len());
                        let ty = self.ty(body);
                        self.barrier = outer;
                        return ty;
                    }
                    Context::Before | Context::Previously | Context::AfterPass => {}
                }
                self.ty(body)
            }
        }
    }
}

fn def_signature(d: &Definition, result: Option<Ty>) -> String {
    let params: Vec<String> = d
        .params
        .iter()
        .map(|p| format!("{}: {}", p.name, p.ty))
        .collect();
    let head = if d.params.is_empty() {
        d.name.name.clone()
    } else {
        format!("{}({})", d.name, params.join(", "))
    };
    match result {
        Some(t) => format!("{head}: {t}"),
        None => head,
    }
}

/// The result type of every definition: as declared, else as its body
/// gives (callees first, so one pass suffices outside cycles).
fn result_types<'r>(book: &Book<'r>, order: &[&'r str]) -> HashMap<&'r str, Option<Ty>> {
    let mut results: HashMap<&'r str, Option<Ty>> = HashMap::new();
    for name in order {
        let Some(d) = book.defs.get(name) else {
            continue;
        };
        let ty = match d.node.ty {
            Some(t) => Some(Ty::from(t)),
            None => {
                let mut walk = Walk::new(book, &results, d.edition);
                for p in &d.node.params {
                    walk.locals.push(Local {
                        name: &p.name.name,
                        ty: Some(Ty::from(p.ty)),
                        span: p.name.span,
                    });
                }
                walk.ty(&d.node.body)
            }
        };
        results.insert(*name, ty);
    }
    results
}

// -----------------------------------------------------------------------------
// The checks, item by item
// -----------------------------------------------------------------------------

/// A name written where a name of another kind already means something.
fn name_clashes(book: &Book<'_>) -> Vec<CheckError> {
    let mut out = Vec::new();
    for (name, d) in &book.defs {
        if primitives::lookup(name).is_some() {
            let problem = Problem::Shadow {
                name: name.to_string(),
                shadows: Binding::Primitive,
            };
            out.push(book.error(problem, d.edition, d.node.name.span));
        }
    }
    for (name, n) in &book.natures {
        let shadows = if primitives::lookup(name).is_some() {
            Some(Binding::Primitive)
        } else if book.defs.contains_key(name) {
            Some(Binding::Definition)
        } else {
            None
        };
        if let Some(shadows) = shadows {
            let problem = Problem::Shadow {
                name: name.to_string(),
                shadows,
            };
            out.push(book.error(problem, n.edition, n.node.name.span));
        }
    }
    out
}

fn check_definition<'r>(
    book: &Book<'r>,
    d: In<'r, Definition>,
    results: &HashMap<&'r str, Option<Ty>>,
    known: &HashMap<&str, Reach>,
) -> Vec<CheckError> {
    let mut walk = Walk::new(book, results, d.edition);
    for p in &d.node.params {
        walk.bind(&p.name, Some(Ty::from(p.ty)));
    }
    let found = walk.ty(&d.node.body);
    let mut out = walk.out;
    if let (Some(declared), Some(found)) = (d.node.ty, found) {
        if declared != found {
            let problem = Problem::ResultType {
                name: d.node.name.name.clone(),
                declared,
                found,
            };
            out.push(book.error(problem, d.edition, d.node.body.span));
        }
    }
    out.extend(mixed_scope(book, d, known));
    out
}

/// A definition that needs both a judged move and a whole cycle can be
/// evaluated nowhere. Reported where its own body makes the mix, not on
/// every definition that calls it.
fn mixed_scope(
    book: &Book<'_>,
    d: In<'_, Definition>,
    known: &HashMap<&str, Reach>,
) -> Vec<CheckError> {
    let Some(reach) = known.get(d.node.name.name.as_str()) else {
        return Vec::new();
    };
    let (Some(m), Some(c)) = (&reach.moves, &reach.cycle) else {
        return Vec::new();
    };
    let inherited = |t: &Trail| {
        t.via
            .first()
            .and_then(|callee| known.get(callee.as_str()))
            .is_some_and(|k| k.moves.is_some() && k.cycle.is_some())
    };
    if inherited(m) || inherited(c) {
        return Vec::new();
    }
    let problem = Problem::MixedScope {
        name: d.node.name.name.clone(),
        move_use: m.primitive.to_string(),
        cycle_use: c.primitive.to_string(),
    };
    let note = book.note(m.edition, m.span, "judged one move at a time");
    vec![book.finding(Severity::Error, problem, c.edition, c.span, vec![note])]
}

fn check_nature<'r>(
    book: &Book<'r>,
    n: In<'r, Nature>,
    results: &HashMap<&'r str, Option<Ty>>,
    known: &HashMap<&str, Reach>,
) -> Vec<CheckError> {
    let mut walk = Walk::new(book, results, n.edition);
    let name = &n.node.name.name;
    walk.expect(&n.node.body, Ty::Bool, || {
        format!("the body of nature `{name}`")
    });
    let mut out = walk.out;
    out.extend(scope_errors(
        book,
        &refs_of(&n.node.body, &[]),
        n.edition,
        Site::Nature,
        known,
    ));
    out
}

fn check_clause<'r>(
    book: &Book<'r>,
    c: In<'r, Clause>,
    results: &HashMap<&'r str, Option<Ty>>,
    known: &HashMap<&str, Reach>,
) -> (Vec<CheckError>, Vec<CheckError>) {
    let mut walk = Walk::new(book, results, c.edition);
    let id = &c.node.id.name;
    walk.expect(&c.node.when, Ty::Bool, || {
        format!("the `when` condition of clause `{id}`")
    });
    let mut errors = walk.out;
    errors.extend(scope_errors(
        book,
        &refs_of(&c.node.when, &[]),
        c.edition,
        Site::Clause,
        known,
    ));
    let named: Vec<&Ident> = match &c.node.action {
        ClauseAction::Recast { from, to } => from.iter().chain(std::iter::once(to)).collect(),
        ClauseAction::Drop(list) | ClauseAction::Add(list) => list.iter().collect(),
    };
    for n in named {
        if let Some(e) = unknown_nature(book, n, c.edition, "a clause action") {
            errors.push(e);
        }
    }
    let mut warnings = Vec::new();
    if c.node.when.kind == ExprKind::Bool(false) {
        let problem = Problem::DeadClause { id: id.clone() };
        warnings.push(book.finding(
            Severity::Warning,
            problem,
            c.edition,
            c.node.when.span,
            Vec::new(),
        ));
    }
    (errors, warnings)
}

fn unknown_nature(
    book: &Book<'_>,
    n: &Ident,
    edition: usize,
    role: &'static str,
) -> Option<CheckError> {
    if book.natures.contains_key(n.name.as_str()) {
        return None;
    }
    let problem = Problem::UnknownNature {
        name: n.name.clone(),
        suggestion: near(&n.name, book.natures.keys().copied()),
        role,
        natures: book.natures.keys().map(|k| k.to_string()).collect(),
    };
    Some(book.error(problem, edition, n.span))
}

fn check_order(book: &Book<'_>) -> Vec<CheckError> {
    let Some(o) = book.order else {
        return vec![book.error(
            Problem::MissingItem {
                kind: ItemKind::Order,
            },
            book.this(),
            book.header_span(),
        )];
    };
    let mut out = Vec::new();
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for n in o.node.groups.iter().flatten() {
        if book.natures.is_empty() {
            // `no_natures` says it once; an error per name would repeat it.
            break;
        }
        if let Some(e) = unknown_nature(book, n, o.edition, "the `order`") {
            out.push(e);
        } else if let Some(first) = seen.get(n.name.as_str()) {
            let note = book.note(o.edition, *first, "first here");
            let problem = Problem::OrderDuplicate {
                name: n.name.clone(),
            };
            out.push(book.finding(Severity::Error, problem, o.edition, n.span, vec![note]));
        } else {
            seen.insert(&n.name, n.span);
        }
    }
    for (name, n) in &book.natures {
        if !seen.contains_key(name) {
            let note = book.note(
                o.edition,
                keyword_span(book.source(o.edition), o.node.span, "order"),
                "the order",
            );
            let problem = Problem::NotInOrder {
                name: name.to_string(),
            };
            out.push(book.finding(
                Severity::Error,
                problem,
                n.edition,
                n.node.name.span,
                vec![note],
            ));
        }
    }
    out
}

/// The span of `word` where it first occurs inside `within` (the keyword
/// that opens an item whose span also covers `override`).
fn keyword_span(src: &Source, within: Span, word: &str) -> Span {
    let text = src.text.get(within.start..within.end).unwrap_or("");
    match text.find(word) {
        Some(at) => Span::new(within.start + at, within.start + at + word.len()),
        None => within,
    }
}

/// Every free name of the rulebook's expressions, with the edition it is written in.
fn all_refs<'r>(book: &Book<'r>) -> Vec<(usize, Ref<'r>)> {
    let mut out = Vec::new();
    for d in book.defs.values() {
        out.extend(def_refs(d.node).into_iter().map(|r| (d.edition, r)));
    }
    for n in book.natures.values() {
        out.extend(
            refs_of(&n.node.body, &[])
                .into_iter()
                .map(|r| (n.edition, r)),
        );
    }
    for c in &book.clauses {
        out.extend(
            refs_of(&c.node.when, &[])
                .into_iter()
                .map(|r| (c.edition, r)),
        );
    }
    if let Some(v) = book.verdict {
        for case in &v.node.cases {
            let bound: Vec<&str> = case.for_side.iter().map(|s| s.name.as_str()).collect();
            out.extend(
                refs_of(&case.cond, &bound)
                    .into_iter()
                    .map(|r| (v.edition, r)),
            );
        }
    }
    out
}

/// Without `values`, the first call of a primitive that counts material
/// is an error; a rulebook that never counts material needs none.
fn values_needed(book: &Book<'_>) -> Option<CheckError> {
    let (edition, r, p) = all_refs(book)
        .into_iter()
        .filter(|(_, r)| r.kind != RefKind::Context)
        .filter_map(|(e, r)| match book.target(r.name) {
            Target::Primitive(p) if p.needs_values => Some((e, r, p)),
            _ => None,
        })
        .min_by_key(|(e, r, _)| (std::cmp::Reverse(*e), r.span.start))?;
    let problem = Problem::ValuesNeeded {
        primitive: p.name.to_string(),
    };
    Some(book.error(problem, edition, r.span))
}

fn check_values(book: &Book<'_>) -> Vec<CheckError> {
    let Some(v) = book.values else {
        return values_needed(book).into_iter().collect();
    };
    let block = Keyed {
        keyword: "values",
        keys: &VALUE_KEYS,
        entries: &v.node.entries,
        span: v.node.span,
        edition: v.edition,
    };
    check_keys(
        book,
        &block,
        |key, suggestion| Problem::ValueUnknown { key, suggestion },
        |key| Problem::ValueDuplicate { key },
        |keys| Problem::ValueMissing { keys },
    )
}

/// An `exchange` block is optional (without one the searches look 16 plies
/// deep with two quiet checks, as docs/language.md says); one that is
/// written names both settings, each within its range.
fn check_exchange(book: &Book<'_>) -> Vec<CheckError> {
    let Some(h) = book.exchange else {
        return Vec::new();
    };
    let block = Keyed {
        keyword: "exchange",
        keys: &EXCHANGE_KEYS,
        entries: &h.node.entries,
        span: h.node.span,
        edition: h.edition,
    };
    let mut out = check_keys(
        book,
        &block,
        |key, suggestion| Problem::SettingUnknown { key, suggestion },
        |key| Problem::SettingDuplicate { key },
        |keys| Problem::SettingMissing { keys },
    );
    for e in &h.node.entries {
        let Some(i) = EXCHANGE_KEYS.iter().position(|k| *k == e.key.name) else {
            continue;
        };
        let (lo, hi) = EXCHANGE_RANGES[i];
        if !(lo..=hi).contains(&e.value) {
            let problem = Problem::SettingRange {
                key: e.key.name.clone(),
                value: e.value,
                range: (lo, hi),
            };
            out.push(book.error(problem, h.edition, e.value_span));
        }
    }
    out
}

/// A block of `key integer` entries as the checker sees it.
struct Keyed<'a> {
    keyword: &'static str,
    keys: &'static [&'static str],
    entries: &'a [ValueEntry],
    span: Span,
    edition: usize,
}

/// Every key of the block known, none twice, none missing: a misspelt key
/// is reported once, as misspelt, not again as missing.
fn check_keys(
    book: &Book<'_>,
    b: &Keyed<'_>,
    unknown: impl Fn(String, Option<String>) -> Problem,
    duplicate: impl Fn(String) -> Problem,
    missing: impl Fn(Vec<&'static str>) -> Problem,
) -> Vec<CheckError> {
    let mut out = Vec::new();
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for entry in b.entries {
        let key = entry.key.name.as_str();
        if !b.keys.contains(&key) {
            let problem = unknown(key.to_string(), near(key, b.keys.iter().copied()));
            out.push(book.error(problem, b.edition, entry.key.span));
        } else if let Some(first) = seen.get(key) {
            let note = book.note(b.edition, *first, "first here");
            out.push(book.finding(
                Severity::Error,
                duplicate(key.to_string()),
                b.edition,
                entry.key.span,
                vec![note],
            ));
        } else {
            seen.insert(key, entry.key.span);
        }
    }
    let meant: HashSet<&str> = b
        .entries
        .iter()
        .filter_map(|e| near(&e.key.name, b.keys.iter().copied()))
        .filter(|k| !seen.contains_key(k.as_str()))
        .filter_map(|k| b.keys.iter().copied().find(|v| *v == k))
        .collect();
    let lacking: Vec<&'static str> = b
        .keys
        .iter()
        .copied()
        .filter(|k| !seen.contains_key(k) && !meant.contains(k))
        .collect();
    if !lacking.is_empty() {
        let at = keyword_span(book.source(b.edition), b.span, b.keyword);
        out.push(book.error(missing(lacking), b.edition, at));
    }
    out
}

fn check_ruling(
    book: &Book<'_>,
    ruling: &Ruling,
    for_var: Option<&Ident>,
    edition: usize,
) -> Option<CheckError> {
    let Ruling::MustChange(side) = ruling else {
        return None;
    };
    let name = side.name.as_str();
    if name == "red" || name == "black" || for_var.is_some_and(|v| v.name == name) {
        return None;
    }
    let mut candidates = vec!["red", "black"];
    candidates.extend(for_var.map(|v| v.name.as_str()));
    let problem = Problem::RulingSide {
        name: name.to_string(),
        for_var: for_var.map(|v| v.name.clone()),
        suggestion: near(name, candidates),
    };
    Some(book.error(problem, edition, side.span))
}

fn check_case<'r>(
    book: &Book<'r>,
    case: &'r Case,
    edition: usize,
    results: &HashMap<&'r str, Option<Ty>>,
    known: &HashMap<&str, Reach>,
) -> Vec<CheckError> {
    let mut walk = Walk::new(book, results, edition);
    if let Some(v) = &case.for_side {
        walk.bind(v, Some(Ty::Side));
    }
    let id = &case.id.name;
    walk.expect(&case.cond, Ty::Bool, || {
        format!("the condition of case `{id}`")
    });
    let mut out = walk.out;
    let bound: Vec<&str> = case.for_side.iter().map(|v| v.name.as_str()).collect();
    out.extend(scope_errors(
        book,
        &refs_of(&case.cond, &bound),
        edition,
        Site::Case,
        known,
    ));
    out.extend(check_ruling(
        book,
        &case.ruling,
        case.for_side.as_ref(),
        edition,
    ));
    out
}

fn check_verdict<'r>(
    book: &Book<'r>,
    results: &HashMap<&'r str, Option<Ty>>,
    known: &HashMap<&str, Reach>,
) -> (Vec<CheckError>, Vec<CheckError>) {
    let Some(v) = book.verdict else {
        let e = book.error(
            Problem::MissingItem {
                kind: ItemKind::Verdict,
            },
            book.this(),
            book.header_span(),
        );
        return (vec![e], Vec::new());
    };
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let mut ids: HashMap<&str, Span> = HashMap::new();
    let mut always: Option<&Case> = None;
    for case in &v.node.cases {
        errors.extend(check_case(book, case, v.edition, results, known));
        if let Some(first) = ids.get(case.id.name.as_str()) {
            let note = book.note(v.edition, *first, "first here");
            let problem = Problem::DuplicateCase {
                id: case.id.name.clone(),
            };
            errors.push(book.finding(
                Severity::Error,
                problem,
                v.edition,
                case.id.span,
                vec![note],
            ));
        } else {
            ids.insert(&case.id.name, case.id.span);
        }
        if let Some(t) = always {
            let note = book.note(v.edition, t.cond.span, "this always holds");
            let problem = Problem::Unreachable {
                id: case.id.name.clone(),
                after: t.id.name.clone(),
            };
            warnings.push(book.finding(
                Severity::Warning,
                problem,
                v.edition,
                case.id.span,
                vec![note],
            ));
        } else if case.cond.kind == ExprKind::Bool(true) {
            always = Some(case);
        }
    }
    errors.extend(check_ruling(book, &v.node.otherwise, None, v.edition));
    (errors, warnings)
}

fn check_recursion(book: &Book<'_>, g: &Graph<'_>) -> Vec<CheckError> {
    let mut out = Vec::new();
    for cycle in cycles(g) {
        let Some(&(first, _, first_span)) = cycle.first() else {
            continue;
        };
        let mut names: Vec<String> = cycle.iter().map(|e| e.0.to_string()).collect();
        names.push(first.to_string());
        let edition_of = |n: &str| book.defs.get(n).map_or(0, |d| d.edition);
        let notes = cycle
            .iter()
            .skip(1)
            .map(|(caller, callee, span)| {
                book.note(
                    edition_of(caller),
                    *span,
                    &format!("`{caller}` calls `{callee}`"),
                )
            })
            .collect();
        let problem = Problem::Recursion { cycle: names };
        out.push(book.finding(
            Severity::Error,
            problem,
            edition_of(first),
            first_span,
            notes,
        ));
    }
    out
}

fn within(outer: Span, inner: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// Definitions nothing else refers to.
fn unused(book: &Book<'_>) -> Vec<CheckError> {
    let used: HashSet<&str> = all_refs(book)
        .into_iter()
        .filter(|(e, r)| {
            // A definition's reference to itself does not use it.
            book.defs
                .get(r.name)
                .is_none_or(|d| d.edition != *e || !within(d.node.span, r.span))
        })
        .map(|(_, r)| r.name)
        .collect();
    let this = book.this();
    book.defs
        .iter()
        .filter(|(name, _)| !used.contains(*name))
        .map(|(name, d)| {
            let problem = Problem::Unused {
                name: name.to_string(),
                inherited_from: (d.edition != this)
                    .then(|| book.resolved.edition_id(d.edition).to_string()),
            };
            book.finding(
                Severity::Warning,
                problem,
                d.edition,
                d.node.name.span,
                Vec::new(),
            )
        })
        .collect()
}

/// Checks a resolved rulebook; every problem at once.
pub fn check(resolved: &Resolved) -> Report {
    let book = Book::new(resolved);
    let g = graph(&book);
    let order = postorder(&g);
    let results = result_types(&book, &order);
    let known = reaches(&book, &order);

    let mut errors = name_clashes(&book);
    let mut warnings = Vec::new();
    errors.extend(check_recursion(&book, &g));
    for d in book.defs.values() {
        errors.extend(check_definition(&book, *d, &results, &known));
    }
    if book.natures.is_empty() {
        errors.push(book.error(Problem::NoNatures, book.this(), book.header_span()));
    }
    for n in book.natures.values() {
        errors.extend(check_nature(&book, *n, &results, &known));
    }
    for c in &book.clauses {
        let (e, w) = check_clause(&book, *c, &results, &known);
        errors.extend(e);
        warnings.extend(w);
    }
    errors.extend(check_order(&book));
    errors.extend(check_values(&book));
    errors.extend(check_exchange(&book));
    let (e, w) = check_verdict(&book, &results, &known);
    errors.extend(e);
    warnings.extend(w);
    warnings.extend(unused(&book));

    sort(&mut errors);
    sort(&mut warnings);
    Report { errors, warnings }
}

/// Reading order: the checked file first, then its parents; by position
/// within a file.
fn sort(list: &mut [CheckError]) {
    list.sort_by_key(|e| (std::cmp::Reverse(e.edition), e.at.span.start));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::resolve::{resolve, InMemory};

    fn report(text: &str) -> Report {
        match resolve(Source::new("t.qili", text), None, &InMemory::default()) {
            Ok(r) => check(&r),
            Err(e) => panic!("does not resolve: {e}"),
        }
    }

    const FRAME: &str = r#"edition "t" {}
values { rook 10 horse 5 cannon 5 advisor 2 elephant 2 king 1000 pawn.crossed 2 pawn.uncrossed 0 }
order 将 > 闲
verdict { otherwise => draw }
nature 闲 "idle" = not captured
"#;

    fn codes(text: &str) -> Vec<&'static str> {
        report(&format!("{FRAME}{text}"))
            .diagnostics()
            .map(CheckError::code)
            .collect()
    }

    #[test]
    fn a_small_rulebook_is_clean() {
        assert_eq!(codes("nature 将 = in_check(opponent)"), Vec::<&str>::new());
    }

    #[test]
    fn values_are_needed_only_to_count_material() {
        let tiny =
            "edition \"tiny\" {}\nnature 闲 = true\norder 闲\nverdict { otherwise => draw }\n";
        assert_eq!(report(tiny).errors.len(), 0);
        let counting = tiny.replace("= true", "= value(moved) > 0");
        let codes: Vec<&str> = report(&counting)
            .diagnostics()
            .map(CheckError::code)
            .collect();
        assert_eq!(codes, vec!["qili::check::missing_item"]);
    }

    #[test]
    fn definitions_infer_their_result_type() {
        let c = codes("define n(s: side) = count p in pieces(s)\nnature 将 = n(mover) > 1");
        assert_eq!(c, Vec::<&str>::new());
        let c = codes("define n(s: side) = count p in pieces(s)\nnature 将 = n(mover)");
        assert_eq!(c, vec!["qili::check::type"]);
    }

    #[test]
    fn recursion_is_reported_once_per_cycle() {
        let c = codes(
            "define a(p: piece): bool = b(p)\n\
             define b(p: piece): bool = a(p)\n\
             nature 将 = a(moved)",
        );
        assert_eq!(c, vec!["qili::check::recursion"]);
    }

    #[test]
    fn scope_follows_definitions() {
        let c = codes(
            "define f(s: side): bool = forall m in moves(s): true\n\
             nature 将 = f(mover)",
        );
        assert_eq!(c, vec!["qili::check::scope"]);
    }
}
