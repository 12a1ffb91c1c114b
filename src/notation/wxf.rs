//! WXF notation: `C2=5`, `H8+7`, `R1-3`, and for crowded files `C+=5`.
//!
//! The same four parts as the Chinese notation with a letter for the piece
//! (`K A E H R C P`) and `+ - =` for 进 退 平; the federation's documents
//! write `.` for `=`, which is read too. The forms for crowded files follow
//! the WXF notation page (see the module documentation of
//! [`crate::notation`]).

use crate::board::{Color, File, Kind, Move, Position, Square};

use super::chars::{digit, wxf_kind, Dir};
use super::designate::{label, shape, Label, Selector, Shape};
use super::error::{MoveErrorKind, Problem};
use super::resolve::Designation;
use super::text::{Cursor, Item};
use super::Notation;

/// How WXF names the piece on `sq`: `C2`, `C+`, `P-`, `++`, `3+`, `33`.
pub fn piece_name(pos: &Position, sq: Square, color: Color, kind: Kind) -> String {
    piece_chars(pos, sq, color, kind).iter().collect()
}

/// [`piece_name`]'s two characters.
fn piece_chars(pos: &Position, sq: Square, color: Color, kind: Kind) -> [char; 2] {
    let letter = kind.wxf_char();
    let file = digit(sq.file().number_for(color));
    match label(pos, sq, color, kind) {
        Label::File => [letter, file],
        Label::Tandem { index, count } if count >= 4 => match index {
            0 => ['+', '+'],
            i if i + 1 == count => ['-', '-'],
            1 => [letter, '+'],
            i if i + 2 == count => [letter, '-'],
            _ => [letter, file],
        },
        Label::Tandem { index, count } => match index {
            0 => [letter, '+'],
            i if i + 1 == count => [letter, '-'],
            _ => [letter, file],
        },
        Label::TandemOnFile { index, count } => match index {
            0 => [file, '+'],
            i if i + 1 == count => [file, '-'],
            _ => [file, file],
        },
    }
}

/// The move in WXF notation, with `=` for sideways moves.
pub fn format(pos: &Position, m: Move) -> String {
    let mut out = String::with_capacity(4);
    push_format(pos, m, &mut out);
    out
}

/// [`format`], written onto the end of `out` (the judge's reasons write
/// whole lines of moves).
pub fn push_format(pos: &Position, m: Move, out: &mut String) {
    let Some(p) = pos.piece_at(m.from) else {
        out.push_str(&m.to_string());
        return;
    };
    let s = shape(p.color, p.kind, m);
    out.extend(piece_chars(pos, m.from, p.color, p.kind));
    out.push(s.dir.wxf());
    out.push(digit(s.number));
}

fn sign(c: char) -> Option<bool> {
    match c {
        '+' => Some(true),
        '-' => Some(false),
        _ => None,
    }
}

fn file_digit(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

/// Reads a WXF move for `color` from `items` (the move `text`, spanning `span`).
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
    let dir = match cur.peek() {
        Some('+') => Dir::Forward,
        Some('-') => Dir::Backward,
        Some('=' | '.') => Dir::Sideways,
        _ => {
            return Err(Problem::malformed(
                cur.here(),
                "`+`, `-` or `=`",
                format!("`{text}` has no direction where `+`, `-` or `=` belongs"),
            ))
        }
    };
    cur.bump();
    let number = match cur.peek().and_then(file_digit) {
        Some(n) => {
            cur.bump();
            n
        }
        None => {
            return Err(Problem::malformed(
                cur.here(),
                "a digit 1–9",
                format!("`{text}` has no number where a digit 1–9 belongs"),
            ))
        }
    };
    let shape_span = shape_start..cur.offset().max(shape_start);
    cur.finish(text)?;
    Ok(Designation {
        notation: Notation::Wxf,
        kind,
        selector,
        shape: Shape { dir, number },
        piece_span,
        shape_span,
        span,
        text: text.to_string(),
    })
}

/// The first two characters: `C2`, `C+`, `+C`, `++`, `3+`, `33`.
fn read_piece(cur: &mut Cursor<'_>, color: Color, text: &str) -> Result<(Kind, Selector), Problem> {
    let file_of = |n: u8| File::from_number(n, color);
    let Some((c0, span0)) = cur.bump() else {
        return Err(Problem::malformed(
            cur.here(),
            "a move such as C2=5",
            "empty move".to_string(),
        ));
    };
    let c1 = cur.peek();
    let here = cur.here();
    if let Some(front) = sign(c0) {
        return match c1 {
            Some(c) if sign(c) == Some(front) => {
                cur.bump();
                Ok((Kind::Pawn, Selector::WxfOuter { front }))
            }
            Some(c) if c.is_ascii_alphabetic() => match wxf_kind(c) {
                Some(kind) => {
                    cur.bump();
                    Ok((kind, Selector::WxfSign { front, file: None }))
                }
                None => Err(unknown_letter(c, here, text)),
            },
            _ => Err(Problem::malformed(
                here,
                "a piece letter, or the same sign again",
                format!("`{text}` names no piece after `{c0}`"),
            )),
        };
    }
    if let Some(n) = file_digit(c0) {
        let file = file_of(n);
        return match (c1, file) {
            (Some(c), Some(file)) if sign(c).is_some() => {
                cur.bump();
                Ok((
                    Kind::Pawn,
                    Selector::WxfSign {
                        front: c == '+',
                        file: Some(file),
                    },
                ))
            }
            (Some(c), Some(file)) if c == c0 => {
                cur.bump();
                Ok((Kind::Pawn, Selector::WxfMiddle(file)))
            }
            _ => Err(Problem::malformed(
                here,
                "`+`, `-` or the same file digit again",
                format!("`{text}` starts with a file but does not say which pawn on it"),
            )),
        };
    }
    let Some(kind) = wxf_kind(c0) else {
        return Err(if c0.is_ascii_alphabetic() || !c0.is_ascii() {
            unknown_letter(c0, span0, text)
        } else {
            Problem::malformed(
                span0,
                "a piece letter",
                format!("`{text}` does not start with a piece"),
            )
        });
    };
    match c1 {
        Some(c) if sign(c).is_some() => {
            cur.bump();
            Ok((
                kind,
                Selector::WxfSign {
                    front: c == '+',
                    file: None,
                },
            ))
        }
        Some(c) => match file_digit(c).and_then(file_of) {
            Some(file) => {
                cur.bump();
                Ok((kind, Selector::WxfFile(file)))
            }
            None => Err(Problem::malformed(
                here,
                "a file digit 1–9, `+` or `-`",
                format!("`{text}` gives no file after the piece letter"),
            )),
        },
        None => Err(Problem::malformed(
            here,
            "a file digit 1–9, `+` or `-`",
            format!("`{text}` ends after the piece letter"),
        )),
    }
}

fn unknown_letter(c: char, span: std::ops::Range<usize>, text: &str) -> Problem {
    Problem::new(
        MoveErrorKind::UnknownPiece { found: c },
        span,
        format!("unknown piece letter `{c}` in `{text}`"),
        "not a piece letter".to_string(),
    )
    .with_help("WXF piece letters are K A E H R C P (B and N are read as E and H)")
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

    #[test]
    fn opening_moves_print_as_the_wxf_page_does() {
        let start = Position::startpos();
        assert_eq!(format(&start, mv("h2e2")), "C2=5");
        assert_eq!(format(&start, mv("h0g2")), "H2+3");
        assert_eq!(format(&start, mv("b0c2")), "H8+7");
        assert_eq!(format(&start, mv("a0a1")), "R9+1");
        assert_eq!(format(&start, mv("g0e2")), "E3+5");
        assert_eq!(format(&start, mv("f0e1")), "A4+5");
        assert_eq!(format(&start, mv("h2h9")), "C2+7");
    }

    #[test]
    fn tandem_pieces_take_signs() {
        let p = parse_fen("3k5/9/9/9/9/4C4/7R1/4C4/9/4K2R1 w").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(format(&p, mv("h3h8")), "R++5");
        assert_eq!(format(&p, mv("h0h2")), "R-+2");
        assert_eq!(format(&p, mv("e4d4")), "C+=6");
        assert_eq!(format(&p, mv("e2f2")), "C-=4");
    }
}
