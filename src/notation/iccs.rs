//! ICCS coordinates: `h2e2` — the from and to points, files `a`–`i` from
//! red's left, ranks `0`–`9` from red's side. `H2-E2` (the ICCS server's
//! own form) is read too; we print the UCCI form, lower case without dash.

use std::ops::Range;

use crate::board::{File, IllegalReason, Move, Position, Rank, Square};

use super::error::{MoveErrorKind, Problem};
use super::resolve::{legal_moves_help, short_reason};
use super::text::{Cursor, Item};
use super::Notation;

/// The move in lower-case ICCS, e.g. `h2e2`.
pub fn format(m: Move) -> String {
    m.to_string()
}

/// Whether `items` are shaped like coordinates (`h2e2`, `h2-e2`), letters of
/// any case and file letters possibly out of range: such text is read as
/// ICCS and its mistakes reported as ICCS mistakes.
pub(crate) fn looks_like(items: &[Item]) -> bool {
    let c: Vec<char> = items.iter().map(|(c, _)| *c).collect();
    let coord = |f: char, r: char| f.is_ascii_alphabetic() && r.is_ascii_digit();
    match c.as_slice() {
        [f1, r1, f2, r2] => coord(*f1, *r1) && coord(*f2, *r2),
        [f1, r1, '-', f2, r2] => coord(*f1, *r1) && coord(*f2, *r2),
        _ => false,
    }
}

/// Reads coordinates and checks the move is legal in `pos`.
pub(crate) fn read(
    pos: &Position,
    items: &[Item],
    text: &str,
    span: Range<usize>,
) -> Result<Move, Problem> {
    let mut cur = Cursor::new(items, span.end);
    let (from, from_span) = read_square(&mut cur, text)?;
    if cur.peek() == Some('-') {
        cur.bump();
    }
    let (to, _) = read_square(&mut cur, text)?;
    cur.finish(text)?;
    let m = Move::new(from, to);
    if pos.is_legal(m) {
        return Ok(m);
    }
    let why = pos.why_illegal(m);
    let color = pos.side_to_move();
    Err(match why.reason {
        IllegalReason::NoPiece => Problem::new(
            MoveErrorKind::NoSuchPiece { color, kind: None },
            from_span,
            format!("no piece stands on {from} to play `{text}`"),
            format!("{from} is empty"),
        )
        .with_help(moves_to_help(pos, to)),
        IllegalReason::WrongSide => Problem::new(
            MoveErrorKind::IllegalMove { reasons: vec![why] },
            from_span,
            why.to_string(),
            format!("a {} piece", color.opponent()),
        )
        .with_help(format!("it is {color}'s turn; {}", moves_to_help(pos, to))),
        _ => Problem::new(
            MoveErrorKind::IllegalMove { reasons: vec![why] },
            span,
            why.to_string(),
            short_reason(&why),
        )
        .with_help(legal_moves_help(pos, &[from], Notation::Iccs)),
    })
}

/// "legal moves ending on e3: `h2e3`" — what the writer may have meant.
fn moves_to_help(pos: &Position, to: Square) -> String {
    let moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.to == to)
        .map(|m| format!("`{m}`"))
        .collect();
    if moves.is_empty() {
        format!("no legal move ends on {to}")
    } else {
        format!("legal moves ending on {to}: {}", moves.join(", "))
    }
}

fn read_square(cur: &mut Cursor<'_>, text: &str) -> Result<(Square, Range<usize>), Problem> {
    let start = cur.here();
    let file = match cur.peek().and_then(File::from_char) {
        Some(f) => f,
        None => {
            return Err(Problem::malformed(
                cur.here(),
                "a file letter a–i",
                format!("`{text}` is not a coordinate move: bad file letter"),
            ))
        }
    };
    cur.bump();
    let rank = match cur
        .peek()
        .and_then(|c| c.to_digit(10))
        .and_then(|d| Rank::new(d as u8))
    {
        Some(r) => r,
        None => {
            return Err(Problem::malformed(
                cur.here(),
                "a rank digit 0–9",
                format!("`{text}` is not a coordinate move: bad rank digit"),
            ))
        }
    };
    let end = cur.here();
    cur.bump();
    Ok((Square::new(file, rank), start.start..end.end))
}
