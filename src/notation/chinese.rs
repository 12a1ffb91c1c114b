//! Chinese file notation (纵线记谱): `炮二平五`, `马8进7`, `前车进一`.
//!
//! Four characters: the piece, the file it stands on (each side counts files
//! from its own right; red writes Chinese numerals, black digits), the
//! direction (进 forward, 退 back, 平 across) and either a distance (车 炮
//! 兵 帅 going 进/退) or the destination file (平, and 马 相 仕 always).
//! Crowded files replace the piece's file with a place word; see the module
//! documentation of [`crate::notation`] for which word when.

use crate::board::{Color, File, Kind, Move, Piece, Position, Square};

use super::chars::{action, is_cjk, number_char, numeral, piece_kind, place, place_word};
use super::designate::{label, shape, Label, Selector};
use super::error::{MoveErrorKind, Problem};
use super::resolve::Designation;
use super::text::{Cursor, Item};
use super::Notation;

/// How Chinese notation names the piece on `sq`: `炮二`, `前炮`, `一兵`, `前兵九`.
pub fn piece_name(pos: &Position, sq: Square, color: Color, kind: Kind) -> String {
    let ch = Piece::new(color, kind).chinese();
    let file = number_char(color, sq.file().number_for(color));
    // Room for the move's two more characters too (see `format`).
    let mut out = String::with_capacity(15);
    match label(pos, sq, color, kind) {
        Label::File => out.extend([ch, file]),
        Label::Tandem { index, count } => out.extend([place_word(index, count), ch]),
        Label::TandemOnFile { index, count } => {
            out.extend([place_word(index, count), ch, file]);
        }
    }
    out
}

/// The move in Chinese notation, simplified characters.
pub fn format(pos: &Position, m: Move) -> String {
    let Some(p) = pos.piece_at(m.from) else {
        return m.to_string();
    };
    let s = shape(p.color, p.kind, m);
    let mut out = piece_name(pos, m.from, p.color, p.kind);
    out.push(s.dir.chinese());
    out.push(number_char(p.color, s.number));
    out
}

const FILE_EXPECTED: &str = "a file number (一–九 or 1–9) or 前/后 after the piece";
const NUMBER_EXPECTED: &str = "a number, 一–九 or 1–9";

/// Reads a Chinese move for `color` from `items` (the move `text`, spanning
/// `span` of the source).
pub(crate) fn read(
    items: &[Item],
    color: Color,
    text: &str,
    span: std::ops::Range<usize>,
) -> Result<Designation, Problem> {
    let mut cur = Cursor::new(items, span.end);
    let piece_start = cur.offset();
    let (kind, selector) = read_piece(&mut cur, color, text)?;
    let piece_span = piece_start..cur.offset();
    let shape_start = cur.offset();
    let dir = match cur.peek().and_then(action) {
        Some(d) => {
            cur.bump();
            d
        }
        None => {
            return Err(Problem::malformed(
                cur.here(),
                "进, 退 or 平",
                format!("`{text}` has no direction where 进, 退 or 平 belongs"),
            ))
        }
    };
    let number = read_number(&mut cur, text, NUMBER_EXPECTED)?;
    let shape_span = shape_start..cur.offset().max(shape_start);
    cur.finish(text)?;
    Ok(Designation {
        notation: Notation::Chinese,
        kind,
        selector,
        shape: super::designate::Shape { dir, number },
        piece_span,
        shape_span,
        span,
        text: text.to_string(),
    })
}

/// The piece part: `炮二`, `炮前`, `前炮`, `前炮二`, `前二` (a pawn), `一兵`.
fn read_piece(cur: &mut Cursor<'_>, color: Color, text: &str) -> Result<(Kind, Selector), Problem> {
    let Some((c0, span0)) = cur.bump() else {
        return Err(Problem::malformed(
            cur.here(),
            "a move such as 炮二平五",
            "empty move".to_string(),
        ));
    };
    if let Some(kind) = piece_kind(c0) {
        if let Some(p) = cur.peek().and_then(place) {
            cur.bump();
            return Ok((
                kind,
                Selector::Place {
                    place: p,
                    file: None,
                },
            ));
        }
        let file = read_file(cur, color, text, FILE_EXPECTED)?;
        return Ok((kind, Selector::File(file)));
    }
    if let Some(p) = place(c0) {
        return read_after_place(cur, color, text, p);
    }
    if let Some(n) = numeral(c0) {
        if cur.peek().and_then(piece_kind).is_none() {
            return Err(unexpected_after_ordinal(cur, text));
        }
        if n > 5 {
            return Err(Problem::malformed(
                span0,
                "一–五 counting the pawns from the front",
                format!("`{text}` counts past the fifth piece on a file"),
            ));
        }
        let kind = cur
            .bump()
            .and_then(|(c, _)| piece_kind(c))
            .unwrap_or(Kind::Pawn);
        return Ok((kind, Selector::Ordinal(n)));
    }
    Err(not_a_piece(c0, span0, text))
}

/// After 前/中/后: a piece with an optional file (`前兵九`), or a file alone
/// meaning a pawn (`前九`, the traditional short form).
fn read_after_place(
    cur: &mut Cursor<'_>,
    color: Color,
    text: &str,
    p: super::chars::Place,
) -> Result<(Kind, Selector), Problem> {
    if let Some(kind) = cur.peek().and_then(piece_kind) {
        cur.bump();
        let file = if cur.peek().and_then(numeral).is_some()
            && cur.peek_at(1).and_then(action).is_some()
        {
            Some(read_file(cur, color, text, FILE_EXPECTED)?)
        } else {
            None
        };
        return Ok((kind, Selector::Place { place: p, file }));
    }
    if cur.peek().and_then(numeral).is_some() {
        let file = read_file(cur, color, text, FILE_EXPECTED)?;
        return Ok((
            Kind::Pawn,
            Selector::Place {
                place: p,
                file: Some(file),
            },
        ));
    }
    match cur.bump() {
        Some((c, span)) if action(c).is_none() => Err(not_a_piece(c, span, text)),
        _ => Err(Problem::malformed(
            cur.here(),
            "a piece after the place word",
            format!("`{text}` names no piece after its place word"),
        )),
    }
}

fn unexpected_after_ordinal(cur: &mut Cursor<'_>, text: &str) -> Problem {
    match cur.bump() {
        Some((c, span)) if is_cjk(c) && action(c).is_none() && numeral(c).is_none() => {
            not_a_piece(c, span, text)
        }
        _ => Problem::malformed(
            cur.here(),
            "a piece character such as 炮 or 兵",
            format!("`{text}` does not start with a piece"),
        ),
    }
}

/// A character where a piece belongs. Notation characters in the wrong
/// place are malformed text; anything else is an unknown piece.
fn not_a_piece(c: char, span: std::ops::Range<usize>, text: &str) -> Problem {
    if action(c).is_some() || numeral(c).is_some() {
        return Problem::malformed(
            span,
            "a piece character such as 炮 or 兵",
            format!("`{text}` does not start with a piece"),
        );
    }
    Problem::new(
        MoveErrorKind::UnknownPiece { found: c },
        span,
        format!("unknown piece character `{c}` in `{text}`"),
        "not a piece".to_string(),
    )
    .with_help(
        "pieces are 帅/将 仕/士 相/象 马 车 炮 兵/卒; traditional and variant forms (帥 將 傌 馬 俥 車 砲 包) are read too",
    )
}

fn read_file(
    cur: &mut Cursor<'_>,
    color: Color,
    text: &str,
    expected: &str,
) -> Result<File, Problem> {
    let here = cur.here();
    let n = read_number(cur, text, expected)?;
    File::from_number(n, color)
        .ok_or_else(|| Problem::malformed(here, expected, format!("no file {n} in `{text}`")))
}

fn read_number(cur: &mut Cursor<'_>, text: &str, expected: &str) -> Result<u8, Problem> {
    match cur.peek().and_then(numeral) {
        Some(n) => {
            cur.bump();
            Ok(n)
        }
        None => Err(Problem::malformed(
            cur.here(),
            expected,
            match cur.peek() {
                Some(c) => format!("unexpected `{c}` in `{text}`"),
                None => format!("`{text}` ends too early"),
            },
        )),
    }
}

#[cfg(test)]
// Tests state their expectations by panicking.
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::board::{parse_fen, Position};

    fn mv(s: &str) -> Move {
        s.parse().unwrap_or_else(|_| panic!("bad move {s}"))
    }

    fn pos(fen: &str) -> Position {
        parse_fen(fen).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn opening_moves_print_as_in_the_rulebooks() {
        let start = Position::startpos();
        assert_eq!(format(&start, mv("h2e2")), "炮二平五");
        assert_eq!(format(&start, mv("b0c2")), "马八进七");
        assert_eq!(format(&start, mv("a0a1")), "车九进一");
        assert_eq!(format(&start, mv("g3g4")), "兵三进一");
        assert_eq!(format(&start, mv("g0e2")), "相三进五");
        assert_eq!(format(&start, mv("f0e1")), "仕四进五");
        assert_eq!(format(&start, mv("e0e1")), "帅五进一");
        assert_eq!(format(&start, mv("h2h9")), "炮二进七");
        let black = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b");
        assert_eq!(format(&black, mv("h9g7")), "马8进7");
        assert_eq!(format(&black, mv("h7e7")), "炮8平5");
        assert_eq!(format(&black, mv("c6c5")), "卒3进1");
        assert_eq!(format(&black, mv("d9e8")), "士4进5");
    }

    #[test]
    fn tandem_pieces_take_place_words() {
        // Red rooks on h3 (front) and h0 (rear), red cannons on e4 and e2.
        let p = pos("3k5/9/9/9/9/4C4/7R1/4C4/9/4K2R1 w");
        assert_eq!(format(&p, mv("h3h8")), "前车进五");
        assert_eq!(format(&p, mv("h0h2")), "后车进二");
        assert_eq!(format(&p, mv("e4d4")), "前炮平六");
        assert_eq!(format(&p, mv("e2f2")), "后炮平四");
    }
}
