//! The board primitives a rules file can call, as data.
//!
//! Every edition's definitions, natures and verdict bottom out in these
//! names. They are general board facts ("can `a` legally take `b`", "the
//! net of the complete capture exchange") and never edition switches: when
//! an edition's text cannot be written with them, the language lacks a
//! board fact, and the fix is a new primitive here, not a flag.
//!
//! The checker reads this table for names, arities, types and scopes; the
//! judge evaluates exactly these names; `doc` and `concept` feed the
//! language reference, so a primitive is documented in one place only.

use super::ast::{SetOf, TypeName};

/// The type of a value in a rules file: the same vocabulary the file writes
/// (`TypeName`), so the checker and the syntax can never disagree on it.
/// Sets hold values of one simple type and do not nest, which is why the
/// element is a [`SetOf`].
pub type Ty = TypeName;

impl TypeName {
    /// The element type of a set type, `None` for anything else.
    pub fn elem(self) -> Option<Ty> {
        match self {
            Ty::Set(e) => Some(Ty::from(e)),
            _ => None,
        }
    }

    /// The set of this type, `None` for a set (sets do not nest).
    pub fn set_of(self) -> Option<Ty> {
        let elem = match self {
            Ty::Bool => SetOf::Bool,
            Ty::Int => SetOf::Int,
            Ty::Piece => SetOf::Piece,
            Ty::Side => SetOf::Side,
            Ty::Kind => SetOf::Kind,
            Ty::Nature => SetOf::Nature,
            Ty::Move => SetOf::Move,
            Ty::Set(_) => return None,
        };
        Some(Ty::Set(elem))
    }
}

/// Where a primitive can be evaluated.
///
/// Natures and clauses are judged one move at a time, in the position after
/// that move (or a context derived from it); the verdict looks at the whole
/// cycle and has no "current move". A primitive of one scope has no meaning
/// in the other, which the checker reports before the judge ever runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Natures and clauses: judged one move at a time.
    Move,
    /// The verdict: over the whole cycle.
    Cycle,
    /// Anywhere: constants and pure functions of their arguments.
    Any,
}

impl Scope {
    /// Where a primitive of this scope may be used, in the words of a rules
    /// file's author.
    pub fn allowed_in(self) -> &'static str {
        match self {
            Scope::Move => "natures, clauses and the definitions they use",
            Scope::Cycle => "verdict cases and the definitions they use",
            Scope::Any => "anywhere",
        }
    }

    /// How it is judged, for messages: "judged one move at a time".
    pub fn judged(self) -> &'static str {
        match self {
            Scope::Move => "one move at a time",
            Scope::Cycle => "over the whole cycle",
            Scope::Any => "anywhere",
        }
    }
}

/// One board primitive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Primitive {
    pub name: &'static str,
    /// Parameter types, in order; empty for a constant.
    pub params: &'static [Ty],
    /// Parameter names, for signatures in messages and docs (same length
    /// as `params`).
    pub param_names: &'static [&'static str],
    pub result: Ty,
    pub scope: Scope,
    /// It counts material by the edition's `values`, so a rulebook that
    /// calls it must give them.
    pub needs_values: bool,
    /// What it means, in English.
    pub doc: &'static str,
    /// The rule concept it serves.
    pub concept: &'static str,
}

impl Primitive {
    /// `pieces_of(s: side, k: kind): set<piece>`, or `mover: side`.
    pub fn signature(&self) -> String {
        let result = self.result;
        if self.params.is_empty() {
            return format!("{}: {result}", self.name);
        }
        let params: Vec<String> = self
            .params
            .iter()
            .zip(self.param_names)
            .map(|(t, n)| format!("{n}: {t}"))
            .collect();
        format!("{}({}): {result}", self.name, params.join(", "))
    }
}

const fn constant(
    name: &'static str,
    result: Ty,
    scope: Scope,
    doc: &'static str,
    concept: &'static str,
) -> Primitive {
    Primitive {
        name,
        params: &[],
        param_names: &[],
        result,
        scope,
        needs_values: false,
        doc,
        concept,
    }
}

const fn kind(name: &'static str, concept: &'static str) -> Primitive {
    constant(name, Ty::Kind, Scope::Any, "a kind of piece", concept)
}

const SET_PIECE: Ty = Ty::Set(SetOf::Piece);

static PRIMITIVES: &[Primitive] = &[
    // ---- nullary, judged one move at a time -------------------------------
    constant(
        "mover",
        Ty::Side,
        Scope::Move,
        "the side that made the judged move",
        "the side whose move is classified",
    ),
    constant(
        "opponent",
        Ty::Side,
        Scope::Move,
        "the side that did not make the judged move",
        "the side a chase or a check is aimed at",
    ),
    constant(
        "moved",
        Ty::Piece,
        Scope::Move,
        "the piece that made the judged move, where it stands in the current context",
        "the chasing, checking or offered piece",
    ),
    constant(
        "answers_check",
        Ty::Bool,
        Scope::Move,
        "the judged move was made while the mover was in check",
        "应将 answering a check, 26.1.2",
    ),
    constant(
        "captured",
        Ty::Bool,
        Scope::Move,
        "the judged move captured a piece",
        "吃子 a capture",
    ),
    // ---- nullary constants -------------------------------------------------
    constant("red", Ty::Side, Scope::Any, "the red side", "红方"),
    constant("black", Ty::Side, Scope::Any, "the black side", "黑方"),
    kind("king", "帅/将 king"),
    kind("advisor", "仕/士 advisor"),
    kind("elephant", "相/象 elephant"),
    kind("horse", "马 horse"),
    kind("rook", "车 rook"),
    kind("cannon", "炮 cannon"),
    kind("pawn", "兵/卒 pawn"),
    // ---- board facts in the current context's position ---------------------
    Primitive {
        name: "pieces",
        params: &[Ty::Side],
        param_names: &["s"],
        result: SET_PIECE,
        scope: Scope::Move,
        needs_values: false,
        doc: "every piece of side s on the board",
        concept: "the pieces a nature ranges over",
    },
    Primitive {
        name: "pieces_of",
        params: &[Ty::Side, Ty::Kind],
        param_names: &["s", "k"],
        result: SET_PIECE,
        scope: Scope::Move,
        needs_values: false,
        doc: "the pieces of side s of kind k",
        concept: "同类子 pieces of one kind (兑, 献 of the same kind)",
    },
    Primitive {
        name: "side_of",
        params: &[Ty::Piece],
        param_names: &["p"],
        result: Ty::Side,
        scope: Scope::Move,
        needs_values: false,
        doc: "the side piece p belongs to",
        concept: "己方/对方 own or enemy",
    },
    Primitive {
        name: "kind",
        params: &[Ty::Piece],
        param_names: &["p"],
        result: Ty::Kind,
        scope: Scope::Move,
        needs_values: false,
        doc: "the kind of piece p",
        concept: "兵种 kind of piece",
    },
    Primitive {
        name: "value",
        params: &[Ty::Piece],
        param_names: &["p"],
        result: Ty::Int,
        scope: Scope::Move,
        needs_values: true,
        doc: "the value of p from the edition's `values`, \
              a pawn counted as crossed or not where it stands",
        concept: "子力价值 piece values",
    },
    Primitive {
        name: "crossed",
        params: &[Ty::Piece],
        param_names: &["p"],
        result: Ty::Bool,
        scope: Scope::Move,
        needs_values: false,
        doc: "p stands on the enemy's half of the board",
        concept: "过河兵 a crossed pawn",
    },
    Primitive {
        name: "can_take",
        params: &[Ty::Piece, Ty::Piece],
        param_names: &["a", "b"],
        result: Ty::Bool,
        scope: Scope::Move,
        needs_values: false,
        doc: "a could legally capture b now, whoever is to move (pins and facing kings respected)",
        concept: "捉 the threat to take, 24.3",
    },
    Primitive {
        name: "attackers",
        params: &[Ty::Piece],
        param_names: &["p"],
        result: SET_PIECE,
        scope: Scope::Move,
        needs_values: false,
        doc: "the enemy pieces that can legally take p",
        concept: "被捉 pieces under attack",
    },
    Primitive {
        name: "real_roots",
        params: &[Ty::Piece],
        param_names: &["p"],
        result: SET_PIECE,
        scope: Scope::Move,
        needs_values: false,
        doc: "own pieces that could legally recapture on p's point after an enemy took p",
        concept: "真根 real roots; 有根 rooted, 24.15",
    },
    Primitive {
        name: "fake_roots",
        params: &[Ty::Piece],
        param_names: &["p"],
        result: SET_PIECE,
        scope: Scope::Move,
        needs_values: false,
        doc: "own pieces that protect p by the movement rules but could not legally recapture",
        concept: "假根 fake roots, 24.15",
    },
    Primitive {
        name: "roots_against",
        params: &[Ty::Piece, Ty::Piece],
        param_names: &["p", "a"],
        result: SET_PIECE,
        scope: Scope::Move,
        needs_values: false,
        doc: "own pieces that could legally recapture on p's point after the enemy piece a took it, those the capture unmasks included; empty if a cannot take p",
        concept: "真根 against one capture: a cannon whose screen is the capturer is no root against it, 24.15",
    },
    Primitive {
        name: "exchange",
        params: &[Ty::Piece, Ty::Piece],
        param_names: &["a", "b"],
        result: Ty::Int,
        scope: Scope::Move,
        needs_values: true,
        doc: "net material for a's side of the complete capture exchange \
              that starts with a taking b \
              (captures, checks and answers to check; hidden roots included)",
        concept: "完整互吃交换 the complete capture exchange; 得子 winning material",
    },
    Primitive {
        name: "recapture_exchange",
        params: &[Ty::Piece, Ty::Piece],
        param_names: &["a", "b"],
        result: Ty::Int,
        scope: Scope::Move,
        needs_values: true,
        doc: "as `exchange`, but outside of check only recaptures on the same point follow",
        concept: "完整的互吃交换过程 of the 2007 trial",
    },
    Primitive {
        name: "exchange_sparing",
        params: &[Ty::Piece, Ty::Piece, SET_PIECE],
        param_names: &["a", "b", "spared"],
        result: Ty::Int,
        scope: Scope::Move,
        needs_values: true,
        doc: "as `exchange`, but outside of check b's side may not take the pieces in \
              `spared` (a piece loses that once it moves)",
        concept: "并发式 concurrent contacts: 献是献，捉是捉 — a chase judged apart from \
                  the offers the same move makes (S0 L58)",
    },
    Primitive {
        name: "best_capture",
        params: &[Ty::Side],
        param_names: &["s"],
        result: Ty::Int,
        scope: Scope::Move,
        needs_values: true,
        doc: "the best net gain s could make by starting a capture exchange now (0 if none gains)",
        concept: "立即丢子 immediate material loss of the other side (献, 兑)",
    },
    Primitive {
        name: "check_gain",
        params: &[Ty::Side],
        param_names: &["s"],
        result: Ty::Int,
        scope: Scope::Move,
        needs_values: true,
        doc: "the best net gain s could make by a segment that opens with a check capturing nothing: material won from the next move by check or consecutive checks (0 if none gains; a line that mates is a mate threat and is not counted)",
        concept: "要抽吃, 捉 by check, 24.3",
    },
    Primitive {
        name: "material",
        params: &[Ty::Side],
        param_names: &["s"],
        result: Ty::Int,
        scope: Scope::Move,
        needs_values: true,
        doc: "the total value of s's pieces on the board",
        concept: "子力 material",
    },
    Primitive {
        name: "in_check",
        params: &[Ty::Side],
        param_names: &["s"],
        result: Ty::Bool,
        scope: Scope::Move,
        needs_values: false,
        doc: "s's king is attacked",
        concept: "将 check, 24.1",
    },
    Primitive {
        name: "mated",
        params: &[Ty::Side],
        param_names: &["s"],
        result: Ty::Bool,
        scope: Scope::Move,
        needs_values: false,
        doc: "s, to move, has no legal move",
        concept: "将死 checkmate or 困毙 stalemate",
    },
    Primitive {
        name: "mate_by_checks",
        params: &[Ty::Side, Ty::Int],
        param_names: &["s", "plies"],
        result: Ty::Bool,
        scope: Scope::Move,
        needs_values: false,
        doc: "s, to move, mates by consecutive checks within `plies` plies",
        concept: "连将杀 mate by consecutive checks",
    },
    Primitive {
        name: "mates_in",
        params: &[Ty::Side, Ty::Int],
        param_names: &["s", "moves"],
        result: Ty::Bool,
        scope: Scope::Move,
        needs_values: false,
        doc: "s (given the move if need be) forces mate within `moves` of its own moves, \
              quiet moves included",
        concept:
            "杀棋 a mating net, not only consecutive checks (for rules that look further than 立即)",
    },
    Primitive {
        name: "witnesses",
        params: &[Ty::Move],
        param_names: &["m"],
        result: SET_PIECE,
        scope: Scope::Cycle,
        needs_values: false,
        doc: "the pieces m's deciding nature names: every member for which its `exists` \
              over pieces held (the pieces a 捉 chases); a piece is the same piece all \
              through the cycle",
        concept: "被捉之子 the chased pieces (AXF rule 32: one piece chasing several in turn; \
                  2007 细则9)",
    },
    Primitive {
        name: "threatens_mate",
        params: &[Ty::Side, Ty::Int],
        param_names: &["s", "plies"],
        result: Ty::Bool,
        scope: Scope::Move,
        needs_values: false,
        doc: "had s another move now, it could mate within `plies` plies",
        concept: "杀 mate threat, 24.2",
    },
    Primitive {
        name: "checkers",
        params: &[Ty::Side],
        param_names: &["s"],
        result: SET_PIECE,
        scope: Scope::Move,
        needs_values: false,
        doc: "the enemy pieces giving check to side s",
        concept: "将 the checking pieces; 自毙 the check set aside with `after lift(c)`, 24.18",
    },
    // ---- pure functions ----------------------------------------------------
    Primitive {
        name: "other",
        params: &[Ty::Side],
        param_names: &["s"],
        result: Ty::Side,
        scope: Scope::Any,
        needs_values: false,
        doc: "the side that is not s",
        concept: "双方 the two sides",
    },
    // ---- over the whole cycle ----------------------------------------------
    Primitive {
        name: "moves",
        params: &[Ty::Side],
        param_names: &["s"],
        result: Ty::Set(SetOf::Move),
        scope: Scope::Cycle,
        needs_values: false,
        doc: "s's judged moves in the repeating cycle",
        concept: "循环 the repetition cycle",
    },
    Primitive {
        name: "nature_of",
        params: &[Ty::Move],
        param_names: &["m"],
        result: Ty::Nature,
        scope: Scope::Cycle,
        needs_values: false,
        doc: "the heaviest nature of move m after the clauses, by the `order`",
        concept: "从重 the heavier nature decides",
    },
    Primitive {
        name: "natures_of",
        params: &[Ty::Move],
        param_names: &["m"],
        result: Ty::Set(SetOf::Nature),
        scope: Scope::Cycle,
        needs_values: false,
        doc: "every nature that held for move m after the clauses",
        concept: "兼 a move with several natures",
    },
];

/// The primitive of that name.
pub fn lookup(name: &str) -> Option<&'static Primitive> {
    PRIMITIVES.iter().find(|p| p.name == name)
}

/// Every primitive, in the order of the language reference.
pub fn all() -> &'static [Primitive] {
    PRIMITIVES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_primitive_names_each_parameter_once() {
        for p in all() {
            assert_eq!(p.params.len(), p.param_names.len(), "{}", p.name);
            assert_eq!(lookup(p.name), Some(p), "{} is listed twice", p.name);
            assert!(!p.doc.is_empty() && !p.concept.is_empty(), "{}", p.name);
        }
    }

    #[test]
    fn signatures_read_like_the_language() {
        assert_eq!(
            lookup("pieces_of").map(Primitive::signature).as_deref(),
            Some("pieces_of(s: side, k: kind): set<piece>")
        );
        assert_eq!(
            lookup("mover").map(Primitive::signature).as_deref(),
            Some("mover: side")
        );
        assert_eq!(lookup("gives_check"), None);
    }

    #[test]
    fn types_convert_from_what_a_file_writes() {
        assert_eq!(
            Ty::from(TypeName::Set(SetOf::Nature)),
            Ty::Set(SetOf::Nature)
        );
        assert_eq!(Ty::Piece.set_of(), Some(Ty::Set(SetOf::Piece)));
        assert_eq!(Ty::Set(SetOf::Piece).set_of(), None);
        assert_eq!(Ty::Set(SetOf::Move).elem(), Some(Ty::Move));
        assert_eq!(Ty::Set(SetOf::Int).to_string(), "set<int>");
    }
}
