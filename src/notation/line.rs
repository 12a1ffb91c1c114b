//! A line of moves as people paste it: `1. 炮二平五 马8进7 2. 马二进三`,
//! `h2e2, h9g7`, `(1)C2=5；H8+7`.

use std::ops::Range;

use crate::board::{Move, Position};

use super::chars::fold_width;
use super::error::{MoveError, Problem};

/// Characters that separate moves (after width folding, so `，` and `；`
/// count as `,` and `;`).
fn is_separator(c: char) -> bool {
    let c = fold_width(c);
    c.is_whitespace() || matches!(c, ',' | ';' | '、' | '。')
}

/// Byte ranges of the separator-delimited pieces of `text`.
fn tokens(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if is_separator(c) {
            if let Some(s) = start.take() {
                out.push(s..i);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push(s..text.len());
    }
    out
}

/// Whether the token is a WXF move whose first characters look like a move
/// number (`33.4`, the middle pawn of three on file 3): it must not lose
/// its `33.` to the move-number rule.
fn is_wxf_with_leading_digits(token: &str) -> bool {
    let c: Vec<char> = token.chars().map(fold_width).collect();
    matches!(c.as_slice(), [a, b, '+' | '-' | '=' | '.', d]
        if a.is_ascii_digit() && (b.is_ascii_digit() || matches!(b, '+' | '-')) && d.is_ascii_digit())
}

/// The part of the token after a leading move number (`1.`, `2．`, `1…`,
/// `(1)`), or `None` when the token is nothing but a move number.
fn strip_move_number(text: &str, token: Range<usize>) -> Option<Range<usize>> {
    let s = text.get(token.clone())?;
    // `...` or `…` alone: the gap before a black move in `1. ... 马8进7`.
    if s.chars().all(|c| matches!(fold_width(c), '.' | '…')) {
        return None;
    }
    if is_wxf_with_leading_digits(s) {
        return Some(token);
    }
    let chars: Vec<(usize, char)> = s.char_indices().map(|(i, c)| (i, fold_width(c))).collect();
    let digits = chars.iter().take_while(|(_, c)| c.is_ascii_digit()).count();
    let rest = if chars.first().map(|&(_, c)| c) == Some('(') {
        let inner = chars[1..]
            .iter()
            .take_while(|(_, c)| c.is_ascii_digit())
            .count();
        match chars.get(1 + inner) {
            Some(&(_, ')')) if inner > 0 => chars.get(2 + inner).map_or(s.len(), |&(i, _)| i),
            _ => 0,
        }
    } else if digits > 0 {
        let dots = chars[digits..]
            .iter()
            .take_while(|(_, c)| matches!(c, '.' | '…'))
            .count();
        match (dots, chars.get(digits + dots)) {
            // Digits then other text with no dot: not a move number.
            (0, Some(_)) => 0,
            (_, Some(&(i, _))) => i,
            // Nothing but the number (and its dots).
            (_, None) => s.len(),
        }
    } else {
        0
    };
    let start = token.start + rest;
    (start < token.end).then_some(start..token.end)
}

pub fn parse_line(pos: &Position, text: &str) -> Result<Vec<Move>, MoveError> {
    match parse_line_prefix(pos, text) {
        (moves, None) => Ok(moves),
        (_, Some(e)) => Err(e),
    }
}

/// The moves of `text` up to the first that cannot be read or played, and
/// the error there: a game record keeps what it played before a bad move.
pub fn parse_line_prefix(pos: &Position, text: &str) -> (Vec<Move>, Option<MoveError>) {
    let mut current = pos.clone();
    let mut moves = Vec::new();
    for token in tokens(text) {
        let Some(span) = strip_move_number(text, token) else {
            continue;
        };
        let ply = moves.len();
        let fail = |p: Problem| MoveError::new(p, text, "moves", span.clone(), Some(ply));
        let m = match super::read_move(&current, text, span.clone()) {
            Ok(m) => m,
            Err(p) => return (moves, Some(fail(p))),
        };
        match current.play(m) {
            Ok(next) => current = next,
            Err(e) => {
                let problem = Problem::new(
                    super::MoveErrorKind::IllegalMove { reasons: vec![e] },
                    span.clone(),
                    e.to_string(),
                    e.to_string(),
                );
                return (moves, Some(fail(problem)));
            }
        }
        moves.push(m);
    }
    (moves, None)
}

#[cfg(test)]
// Tests state their expectations by panicking.
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn pieces(text: &str) -> Vec<&str> {
        tokens(text)
            .into_iter()
            .filter_map(|t| strip_move_number(text, t))
            .filter_map(|r| text.get(r))
            .collect()
    }

    #[test]
    fn separators_and_move_numbers_are_dropped() {
        assert_eq!(pieces("1. h2e2 h9g7 2. h0g2"), ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(
            pieces("1.炮二平五，马8进7；2．马二进三"),
            ["炮二平五", "马8进7", "马二进三"]
        );
        assert_eq!(
            pieces("1、C2=5 H8+7 (2)H2+3 （3）R1+1"),
            ["C2=5", "H8+7", "H2+3", "R1+1"]
        );
        assert_eq!(pieces("1... h9g7"), ["h9g7"]);
        assert_eq!(pieces("1. ... 马8进7 …"), ["马8进7"]);
        assert_eq!(pieces(""), Vec::<&str>::new());
    }

    #[test]
    fn wxf_pawn_forms_keep_their_leading_digits() {
        assert_eq!(pieces("33.4 3+=4 1. 3-.4"), ["33.4", "3+=4", "3-.4"]);
    }
}
