//! From "which piece, which way, how far" to the one legal move it names, or
//! a precise account of why there is none or more than one.
//!
//! Matching runs over the legal moves, so a sloppy but unambiguous text (the
//! file given where 前/后 was due, 仕六退五 for the front advisor) is still
//! read; only when two legal moves fit does the reader refuse.

use std::ops::Range;

use crate::board::{Color, IllegalMove, IllegalReason, Kind, Move, Position, Square};

use super::chars::{digit, number_char, Dir};
use super::designate::{selects, shape, target, Selector, Shape};
use super::error::{MoveErrorKind, Problem};
use super::{chinese, wxf, Notation};

/// A move as WXF or Chinese text describes it, with where each part was written.
#[derive(Clone, Debug)]
pub struct Designation {
    pub notation: Notation,
    pub kind: Kind,
    pub selector: Selector,
    pub shape: Shape,
    /// The characters that name the piece (kind, file, 前/后…).
    pub piece_span: Range<usize>,
    /// The direction and the number.
    pub shape_span: Range<usize>,
    /// The whole move.
    pub span: Range<usize>,
    /// The move as written, for messages.
    pub text: String,
}

/// The legal move `d` names in `pos`.
pub fn resolve(pos: &Position, d: &Designation) -> Result<Move, Problem> {
    let color = pos.side_to_move();
    let fits: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|&m| fits(pos, d, color, m))
        .collect();
    match fits.as_slice() {
        [m] => Ok(*m),
        [] => Err(diagnose(pos, d, color)),
        _ => Err(ambiguous(pos, d, color, fits)),
    }
}

fn fits(pos: &Position, d: &Designation, color: Color, m: Move) -> bool {
    pos.piece_at(m.from).is_some_and(|p| p.kind == d.kind)
        && selects(pos, m.from, color, d.kind, d.selector)
        && shape(color, d.kind, m) == d.shape
}

/// Several legal moves fit: name the pieces and how to tell them apart, in
/// board order so that the report does not depend on the move generator.
fn ambiguous(pos: &Position, d: &Designation, color: Color, mut moves: Vec<Move>) -> Problem {
    moves.sort();
    let squares: Vec<String> = moves.iter().map(|m| m.from.to_string()).collect();
    let choices: Vec<String> = moves
        .iter()
        .map(|&m| format!("`{}` ({m})", super::format(pos, m, d.notation)))
        .collect();
    Problem::new(
        MoveErrorKind::Ambiguous {
            candidates: moves.clone(),
        },
        d.piece_span.clone(),
        format!("`{}` fits {} legal moves", d.text, moves.len()),
        format!(
            "could be the {} {} on {}",
            color,
            plural(d.kind),
            join_and(&squares)
        ),
    )
    .with_help(format!("write one of {}", join_or(&choices)))
}

/// No legal move fits: either no piece answers the description, or the
/// piece cannot move so.
fn diagnose(pos: &Position, d: &Designation, color: Color) -> Problem {
    let candidates: Vec<Square> = pos
        .pieces_of(color)
        .filter(|&(sq, p)| p.kind == d.kind && selects(pos, sq, color, d.kind, d.selector))
        .map(|(sq, _)| sq)
        .collect();
    if candidates.is_empty() {
        return no_such_piece(pos, d, color);
    }
    let moves: Vec<Move> = candidates
        .iter()
        .filter_map(|&sq| target(color, d.kind, sq, d.shape).map(|to| Move::new(sq, to)))
        .collect();
    if moves.is_empty() {
        return impossible_shape(pos, d, color, &candidates);
    }
    let reasons: Vec<_> = moves.iter().map(|&m| pos.why_illegal(m)).collect();
    let message = match reasons.as_slice() {
        [r] => format!("`{}` is not legal here: {r}", d.text),
        _ => format!(
            "`{}` is not legal for any of the {} {} it could mean: {}",
            d.text,
            reasons.len(),
            plural(d.kind),
            reasons
                .iter()
                .map(|r| r.to_string())
                .collect::<Vec<_>>()
                .join("; ")
        ),
    };
    let label = match reasons.as_slice() {
        [r] => short_reason(r),
        _ => "no such move is legal".to_string(),
    };
    Problem::new(
        MoveErrorKind::IllegalMove { reasons },
        d.span.clone(),
        message,
        label,
    )
    .with_help(legal_moves_help(pos, &candidates, d.notation))
}

/// The piece exists but the text asks for a movement it never makes.
fn impossible_shape(
    pos: &Position,
    d: &Designation,
    color: Color,
    candidates: &[Square],
) -> Problem {
    let kind = d.kind.english();
    let (message, label) = if d.shape.dir == Dir::Sideways && !d.kind.moves_straight() {
        (
            format!(
                "a {kind} never moves sideways, so `{}` cannot be played",
                d.text
            ),
            format!("a {kind} moves diagonally: 进 or 退 to a file"),
        )
    } else if d.kind.moves_straight() && d.shape.dir == Dir::Sideways {
        (
            format!(
                "`{}` moves the {kind} onto the file it already stands on",
                d.text
            ),
            "the destination file is the piece's own file".to_string(),
        )
    } else if d.kind.moves_straight() {
        (
            format!("`{}` would take the {kind} off the board", d.text),
            format!(
                "too far for a {kind} on rank {}",
                candidates.first().map_or(0, |s| s.rank().index())
            ),
        )
    } else {
        (
            format!(
                "no {kind} move goes from its file to file {}",
                number_text(d.notation, color, d.shape.number)
            ),
            format!("a {kind} cannot reach this file in one move"),
        )
    };
    Problem::new(
        MoveErrorKind::IllegalMove {
            reasons: Vec::new(),
        },
        d.shape_span.clone(),
        message,
        label,
    )
    .with_help(legal_moves_help(pos, candidates, d.notation))
}

fn no_such_piece(pos: &Position, d: &Designation, color: Color) -> Problem {
    let all: Vec<Square> = pos
        .pieces_of(color)
        .filter(|&(_, p)| p.kind == d.kind)
        .map(|(sq, _)| sq)
        .collect();
    let kind = d.kind.english();
    let piece_words = d
        .text
        .get(
            d.piece_span.start.saturating_sub(d.span.start)
                ..d.piece_span.end.saturating_sub(d.span.start),
        )
        .unwrap_or(&d.text);
    let message = match (all.is_empty(), d.selector) {
        (true, _) => format!("{color} has no {kind} left to play `{}`", d.text),
        (false, Selector::File(f) | Selector::WxfFile(f)) => format!(
            "{color} has no {kind} on file {} to play `{}`",
            number_text(d.notation, color, f.number_for(color)),
            d.text
        ),
        (false, _) => format!("no {color} {kind} is the one `{piece_words}` names"),
    };
    let label = match d.selector {
        Selector::File(f) | Selector::WxfFile(f) => format!(
            "no {color} {kind} on file {}",
            number_text(d.notation, color, f.number_for(color))
        ),
        _ => format!("names no {color} {kind}"),
    };
    let help = if all.is_empty() {
        format!("{color} has no {kind} on the board")
    } else {
        let named: Vec<String> = all
            .iter()
            .map(|&sq| {
                format!(
                    "`{}` on {sq}",
                    piece_name(pos, sq, color, d.kind, d.notation)
                )
            })
            .collect();
        format!("the {color} {} are {}", plural(d.kind), join_and(&named))
    };
    Problem::new(
        MoveErrorKind::NoSuchPiece {
            color,
            kind: Some(d.kind),
        },
        d.piece_span.clone(),
        message,
        label,
    )
    .with_help(help)
}

/// How the notation names the piece on `sq` (`炮二`, `前炮`, `C+`).
fn piece_name(pos: &Position, sq: Square, color: Color, kind: Kind, notation: Notation) -> String {
    match notation {
        Notation::Chinese => chinese::piece_name(pos, sq, color, kind),
        Notation::Wxf => wxf::piece_name(pos, sq, color, kind),
        Notation::Iccs => sq.to_string(),
    }
}

/// "legal moves of the red horse on h0: `马二进三`, `马二进一`", listed by
/// target point (rank, then file) so the order never depends on the generator.
pub fn legal_moves_help(pos: &Position, squares: &[Square], notation: Notation) -> String {
    let mut legal = pos.legal_moves().to_vec();
    legal.sort_by_key(|m| m.to);
    squares
        .iter()
        .map(|&sq| {
            let piece = pos.piece_at(sq).map_or_else(
                || "piece".to_string(),
                |p| format!("{} {}", p.color, p.kind.english()),
            );
            let moves: Vec<String> = legal
                .iter()
                .filter(|m| m.from == sq)
                .map(|&m| format!("`{}`", super::format(pos, m, notation)))
                .collect();
            if moves.is_empty() {
                format!("the {piece} on {sq} has no legal move")
            } else {
                format!("legal moves of the {piece} on {sq}: {}", moves.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The reason a move is illegal in a few words, for a label under the move
/// (the message has the full sentence).
pub fn short_reason(r: &IllegalMove) -> String {
    match r.reason {
        IllegalReason::NoPiece => format!("{} is empty", r.mv.from),
        IllegalReason::WrongSide => "not the side to move".to_string(),
        IllegalReason::OwnPieceOnTarget => format!("{} holds a piece of the same side", r.mv.to),
        IllegalReason::NotHowThePieceMoves => r.to_string(),
        IllegalReason::LeavesKingInCheck { was_in_check: true } => {
            "does not answer the check".to_string()
        }
        IllegalReason::LeavesKingInCheck {
            was_in_check: false,
        } => "leaves the king in check".to_string(),
        IllegalReason::KingsFace => "leaves the kings facing".to_string(),
    }
}

fn number_text(notation: Notation, color: Color, n: u8) -> char {
    match notation {
        Notation::Chinese => number_char(color, n),
        _ => digit(n),
    }
}

pub fn plural(kind: Kind) -> String {
    format!("{}s", kind.english())
}

fn join_and(items: &[String]) -> String {
    join_with(items, "and")
}

fn join_or(items: &[String]) -> String {
    join_with(items, "or")
}

fn join_with(items: &[String], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {word} {last}", init.join(", ")),
    }
}
