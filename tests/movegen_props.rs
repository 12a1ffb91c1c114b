//! Property tests over random playouts: the fast generator agrees with a
//! slow, independent reading of the rules; make/unmake and the incremental
//! hash are exact; FEN round-trips.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // tests fail by panicking

use proptest::prelude::*;
use qili::board::{parse_fen, to_fen, Color, Kind, Move, Piece, Position, Square};

type Board = [Option<Piece>; 90];

fn at(b: &Board, f: i32, r: i32) -> Option<Piece> {
    if (0..9).contains(&f) && (0..10).contains(&r) {
        b[(r * 9 + f) as usize]
    } else {
        None
    }
}

fn in_palace(color: Color, f: i32, r: i32) -> bool {
    (3..=5).contains(&f)
        && match color {
            Color::Red => (0..=2).contains(&r),
            Color::Black => (7..=9).contains(&r),
        }
}

fn own_half(color: Color, r: i32) -> bool {
    match color {
        Color::Red => r <= 4,
        Color::Black => r >= 5,
    }
}

/// Pieces strictly between two points on one line.
fn between(b: &Board, (f1, r1): (i32, i32), (f2, r2): (i32, i32)) -> usize {
    let (df, dr) = ((f2 - f1).signum(), (r2 - r1).signum());
    let (mut f, mut r) = (f1 + df, r1 + dr);
    let mut n = 0;
    while (f, r) != (f2, r2) {
        n += usize::from(at(b, f, r).is_some());
        f += df;
        r += dr;
    }
    n
}

/// The movement rules read straight from the rulebook, one case per piece,
/// with no tables and no padding: a piece on `from` may go to `to`.
fn can_reach(b: &Board, from: (i32, i32), to: (i32, i32)) -> bool {
    let Some(p) = at(b, from.0, from.1) else {
        return false;
    };
    if at(b, to.0, to.1).is_some_and(|q| q.color == p.color) || from == to {
        return false;
    }
    let (df, dr) = (to.0 - from.0, to.1 - from.1);
    match p.kind {
        Kind::King => df.abs() + dr.abs() == 1 && in_palace(p.color, to.0, to.1),
        Kind::Advisor => df.abs() == 1 && dr.abs() == 1 && in_palace(p.color, to.0, to.1),
        Kind::Elephant => {
            df.abs() == 2
                && dr.abs() == 2
                && own_half(p.color, to.1)
                && at(b, from.0 + df / 2, from.1 + dr / 2).is_none()
        }
        Kind::Horse => {
            let leg = match (df.abs(), dr.abs()) {
                (1, 2) => (from.0, from.1 + dr / 2),
                (2, 1) => (from.0 + df / 2, from.1),
                _ => return false,
            };
            at(b, leg.0, leg.1).is_none()
        }
        Kind::Rook => (df == 0 || dr == 0) && between(b, from, to) == 0,
        Kind::Cannon => {
            (df == 0 || dr == 0)
                && between(b, from, to) == if at(b, to.0, to.1).is_some() { 1 } else { 0 }
        }
        Kind::Pawn => {
            let fwd = if p.color == Color::Red { 1 } else { -1 };
            (df == 0 && dr == fwd) || (dr == 0 && df.abs() == 1 && !own_half(p.color, from.1))
        }
    }
}

fn in_check(b: &Board, color: Color) -> bool {
    let sq = |i: usize| ((i % 9) as i32, (i / 9) as i32);
    let Some(k) = (0..90).find(|&i| b[i] == Some(Piece::new(color, Kind::King))) else {
        return true;
    };
    let Some(ek) = (0..90).find(|&i| b[i] == Some(Piece::new(color.opponent(), Kind::King))) else {
        return false;
    };
    if sq(k).0 == sq(ek).0 && between(b, sq(k), sq(ek)) == 0 {
        return true;
    }
    (0..90).any(|i| b[i].is_some_and(|p| p.color != color) && can_reach(b, sq(i), sq(k)))
}

fn slow_legal(pos: &Position) -> Vec<(usize, usize)> {
    let b = pos.to_setup().board;
    let us = pos.side_to_move();
    let mut out = Vec::new();
    for from in 0..90 {
        if b[from].is_none_or(|p| p.color != us) {
            continue;
        }
        for to in 0..90 {
            let fp = ((from % 9) as i32, (from / 9) as i32);
            let tp = ((to % 9) as i32, (to / 9) as i32);
            if can_reach(&b, fp, tp) {
                let mut after = b;
                after[to] = after[from];
                after[from] = None;
                if !in_check(&after, us) {
                    out.push((from, to));
                }
            }
        }
    }
    out
}

fn check_position(pos: &Position) -> Result<(), TestCaseError> {
    let mut fast: Vec<(usize, usize)> = pos
        .legal_moves()
        .iter()
        .map(|m| (m.from.index(), m.to.index()))
        .collect();
    fast.sort_unstable();
    let slow = slow_legal(pos);
    prop_assert_eq!(&fast, &slow, "legal moves differ in {}", to_fen(pos));
    prop_assert_eq!(pos.count_legal() as usize, slow.len());
    // is_legal agrees on every from/to pair, and explaining never panics.
    for from in Square::all() {
        for to in Square::all() {
            let m = Move::new(from, to);
            let legal = slow.binary_search(&(from.index(), to.index())).is_ok();
            prop_assert_eq!(pos.is_legal(m), legal, "is_legal({}) in {}", m, to_fen(pos));
            if !legal && pos.piece_at(from).is_some() {
                let _ = pos.why_illegal(m).to_string();
            }
        }
    }
    prop_assert_eq!(pos.hash(), pos.hash_from_scratch());
    let reparsed = parse_fen(&to_fen(pos));
    prop_assert!(
        reparsed.as_ref().is_ok_and(|p| p == pos),
        "FEN round trip of {}",
        to_fen(pos)
    );
    prop_assert_eq!(
        pos.is_checkmate(),
        in_check(&pos.to_setup().board, pos.side_to_move()) && slow.is_empty()
    );
    Ok(())
}

const STARTS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_agree_with_the_slow_rules(
        start in 0..STARTS.len(),
        choices in proptest::collection::vec(any::<u16>(), 0..90),
    ) {
        let Ok(mut pos) = parse_fen(STARTS[start]) else {
            return Err(TestCaseError::fail(format!("bad start {start}")));
        };
        let mut history: Vec<(Move, qili::board::Undo, Position)> = Vec::new();
        for c in choices {
            check_position(&pos)?;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[c as usize % moves.len()];
            let before = pos.clone();
            let undo = pos.make(m);
            prop_assert_eq!(pos.hash(), pos.hash_from_scratch());
            prop_assert_eq!(undo.captured(), before.piece_at(m.to));
            history.push((m, undo, before));
        }
        // Unmake every move back to the start: each step restores position and hash exactly.
        while let Some((m, undo, before)) = history.pop() {
            pos.unmake(m, undo);
            prop_assert!(pos == before);
            prop_assert_eq!(pos.hash(), before.hash());
            prop_assert_eq!(pos.repetition_key(), before.repetition_key());
        }
    }
}
