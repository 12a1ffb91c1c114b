//! Move notation: known examples checked against the conventions, round
//! trips over many positions, reading variants, and the diagnostics.
//!
//! Expected strings are written from the conventions (CXA rulebook file
//! numbering, the WXF notation page, xqbase's 中文纵线格式, Chinese
//! Wikipedia's 中式记谱法), never copied from the program's output.

// Tests state their expectations by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashSet;

use miette::{GraphicalReportHandler, GraphicalTheme};
use proptest::prelude::*;
use qili::board::{parse_fen, Color, File, Kind, Move, Piece, Position, Rank, Setup, Square};
use qili::notation::{self, parse_line, parse_move, MoveError, MoveErrorKind, Notation};

fn sq(s: &str) -> Square {
    s.parse().unwrap_or_else(|_| panic!("bad square {s}"))
}

fn mv(s: &str) -> Move {
    s.parse().unwrap_or_else(|_| panic!("bad move {s}"))
}

fn pos(fen: &str) -> Position {
    parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Checks that `iccs` is legal in `p`, prints as `wxf` and `chinese`, and
/// that all three texts read back as the move.
#[track_caller]
fn check(p: &Position, iccs: &str, wxf: &str, chinese: &str) {
    let m = mv(iccs);
    assert!(p.is_legal(m), "{iccs} is not legal in {p:?}");
    assert_eq!(notation::iccs(m), iccs);
    assert_eq!(notation::wxf(p, m), wxf, "WXF of {iccs}");
    assert_eq!(notation::chinese(p, m), chinese, "Chinese of {iccs}");
    for text in [iccs, wxf, chinese] {
        match parse_move(p, text) {
            Ok(read) => assert_eq!(read, m, "reading `{text}`"),
            Err(e) => panic!("reading `{text}`: {e}"),
        }
    }
}

#[track_caller]
fn reads(p: &Position, text: &str, iccs: &str) {
    match parse_move(p, text) {
        Ok(m) => assert_eq!(m, mv(iccs), "reading `{text}`"),
        Err(e) => panic!("reading `{text}`: {e}"),
    }
}

#[track_caller]
fn fails(p: &Position, text: &str) -> MoveError {
    match parse_move(p, text) {
        Ok(m) => panic!("`{text}` was read as {m}"),
        Err(e) => e,
    }
}

// ---------------------------------------------------------------------------
// Known examples
// ---------------------------------------------------------------------------

#[test]
fn opening_moves() {
    let start = Position::startpos();
    // 炮二平五: red's file 二 is h, 五 is e.
    check(&start, "h2e2", "C2=5", "炮二平五");
    // Red's H8 stands on file b; 马八进七 goes to file c (red's 七).
    check(&start, "b0c2", "H8+7", "马八进七");
    check(&start, "h0g2", "H2+3", "马二进三");
    check(&start, "a0a1", "R9+1", "车九进一");
    check(&start, "i0i2", "R1+2", "车一进二");
    check(&start, "g3g4", "P3+1", "兵三进一");
    check(&start, "c0e2", "E7+5", "相七进五");
    check(&start, "d0e1", "A6+5", "仕六进五");
    check(&start, "e0e1", "K5+1", "帅五进一");
    // The cannon takes the horse: a distance of seven ranks.
    check(&start, "h2h9", "C2+7", "炮二进七");

    let after = start.play(mv("h2e2")).unwrap();
    // Black counts from its own right: h is black's 8, g its 7.
    check(&after, "h9g7", "H8+7", "马8进7");
    check(&after, "b9c7", "H2+3", "马2进3");
    check(&after, "h7e7", "C8=5", "炮8平5");
    check(&after, "i9i8", "R9+1", "车9进1");
    check(&after, "c6c5", "P3+1", "卒3进1");
    check(&after, "f9e8", "A6+5", "士6进5");
    check(&after, "e9e8", "K5+1", "将5进1");
    // Black goes back by going up the board: 炮2退1 is b7 → b8.
    check(&after, "b7b8", "C2-1", "炮2退1");
}

#[test]
fn tandem_rooks_and_cannons() {
    // Red rooks h3 (front) and h0 (rear); red cannons e4 (front) and e2.
    let p = pos("3k5/9/9/9/9/4C4/7R1/4C4/9/4K2R1 w");
    check(&p, "h3h8", "R++5", "前车进五");
    check(&p, "h3g3", "R+=3", "前车平三");
    check(&p, "h0h2", "R-+2", "后车进二");
    check(&p, "h0g0", "R-=3", "后车平三");
    check(&p, "e4d4", "C+=6", "前炮平六");
    check(&p, "e2f2", "C-=4", "后炮平四");
    check(&p, "e2e3", "C-+1", "后炮进一");
    // The sign before the letter, as some software writes it.
    reads(&p, "+R+5", "h3h8");
    reads(&p, "-C=4", "e2f2");
    // The file given where 前/后 was due: read when only one move fits.
    reads(&p, "车二进五", "h3h8");
    reads(&p, "R2+5", "h3h8");
    // The older order with the place word after the piece (WXF page: 車前平三).
    reads(&p, "车前平三", "h3g3");
    // But when both rooks can make the move, the file alone is ambiguous
    // (candidates in board order).
    let e = fails(&p, "车二平三");
    assert_eq!(e.code(), "qili::notation::ambiguous");
    assert_eq!(
        e.kind(),
        &MoveErrorKind::Ambiguous {
            candidates: vec![mv("h0g0"), mv("h3g3")]
        }
    );

    // Black: rooks a7 (front, nearer red) and a9 (rear).
    let b = pos("r3k4/9/r8/9/9/9/9/9/9/3K5 b");
    check(&b, "a7a1", "R++6", "前车进6");
    check(&b, "a9b9", "R-=2", "后车平2");
    check(&b, "a7a8", "R+-1", "前车退1");
}

#[test]
fn tandem_horses_advisors_and_elephants() {
    // Red horses e3 (front) and e1; a horse's number is always a file.
    let h = pos("5k3/9/9/9/9/9/4N4/9/4N4/3K5 w");
    check(&h, "e3d5", "H++6", "前马进六");
    check(&h, "e1c0", "H--7", "后马退七");
    // Advisors d2 (front) and d0 on red's file 六; elephants c4 and c0 (七).
    let a = pos("3k5/9/9/9/9/2B6/9/3A5/9/2BAK4 w");
    check(&a, "d2e1", "A+-5", "前仕退五");
    check(&a, "d0e1", "A-+5", "后仕进五");
    check(&a, "c4e2", "E+-5", "前相退五");
    check(&a, "c0a2", "E-+9", "后相进九");
    // xqbase writes these with the file: only the front one can go back.
    reads(&a, "仕六退五", "d2e1");
    reads(&a, "仕六进五", "d0e1");
    reads(&a, "相七退五", "c4e2");
}

#[test]
fn three_pawns_on_a_file() {
    // Red pawns e7 (front), e6, e5 on red's file 五.
    let p = pos("3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w");
    check(&p, "e7e8", "P++1", "前兵进一");
    check(&p, "e7d7", "P+=6", "前兵平六");
    // WXF keeps the plain file for the middle pawn (WXF page: P3.4).
    check(&p, "e6d6", "P5=6", "中兵平六");
    check(&p, "e5f5", "P-=4", "后兵平四");
    reads(&p, "P5.6", "e6d6");

    // Black pawns e2 (front: nearer red's side), e3, e4 on black's file 5.
    let b = pos("5k3/9/9/9/9/4p4/4p4/4p4/9/3K5 b");
    check(&b, "e2e1", "P++1", "前卒进1");
    check(&b, "e3d3", "P5=4", "中卒平4");
    check(&b, "e4f4", "P-=6", "后卒平6");
}

#[test]
fn four_and_five_pawns_on_a_file() {
    // Four red pawns e8 e7 e6 e5: 一兵…四兵 from the front; WXF ++ P+ P- --.
    let four = pos("3k5/4P4/4P4/4P4/4P4/9/9/9/9/5K3 w");
    check(&four, "e8e9", "+++1", "一兵进一");
    check(&four, "e8d8", "++=6", "一兵平六");
    check(&four, "e7d7", "P+=6", "二兵平六");
    check(&four, "e6f6", "P-=4", "三兵平四");
    check(&four, "e5d5", "--=6", "四兵平六");
    // Traditional 前 and 后 for the first and last (Chinese Wikipedia).
    reads(&four, "前兵平六", "e8d8");
    reads(&four, "后兵平六", "e5d5");

    // Five: e8 … e4; the middle one keeps its file in WXF (P5).
    let five = pos("3k5/4P4/4P4/4P4/4P4/4P4/9/9/9/5K3 w");
    check(&five, "e8f8", "++=4", "一兵平四");
    check(&five, "e7f7", "P+=4", "二兵平四");
    check(&five, "e6f6", "P5=4", "三兵平四");
    check(&five, "e5f5", "P-=4", "四兵平四");
    // The fifth, e4, has not crossed the river and cannot move at all.
    assert!(five.legal_moves().iter().all(|m| m.from != sq("e4")));
    let e = fails(&five, "五兵进一");
    assert_eq!(e.code(), "qili::notation::illegal_move");

    // Black ordinals are Chinese too (xqbase: 一卒平５).
    let b = pos("5k3/9/9/9/9/4p4/4p4/4p4/4p4/3K5 b");
    check(&b, "e1d1", "++=4", "一卒平4");
    check(&b, "e4f4", "--=6", "四卒平6");
}

#[test]
fn pawns_crowding_two_files() {
    // Red pawns c6 c5 (file 七), e6 e5 (file 五), g3 (file 三).
    let p = pos("3k5/9/9/2P1P4/2P1P4/9/6P2/9/9/5K3 w");
    // 前兵 alone would name two pawns: the file follows the piece.
    check(&p, "e6e7", "5++1", "前兵五进一");
    check(&p, "e5d5", "5-=6", "后兵五平六");
    check(&p, "c6b6", "7+=8", "前兵七平八");
    check(&p, "c5d5", "7-=6", "后兵七平六");
    check(&p, "g3g4", "P3+1", "兵三进一");
    // The traditional short form drops the piece.
    reads(&p, "前五进一", "e6e7");
    // xqbase's series: files from red's right (五 before 七), front to back.
    reads(&p, "一兵进一", "e6e7");
    reads(&p, "二兵平六", "e5d5");
    reads(&p, "三兵平八", "c6b6");
    reads(&p, "四兵平六", "c5d5");
    // Without the file, 前兵进一 fits both front pawns.
    let e = fails(&p, "前兵进一");
    assert_eq!(e.code(), "qili::notation::ambiguous");
    match e.kind() {
        MoveErrorKind::Ambiguous { candidates } => {
            let set: HashSet<Move> = candidates.iter().copied().collect();
            assert_eq!(set, HashSet::from([mv("e6e7"), mv("c6c7")]));
        }
        other => panic!("{other:?}"),
    }

    // Three on file 五 and two on 七: the middle one is 中兵五, WXF `55`.
    let q = pos("3k5/9/4P4/2P1P4/2P1P4/9/9/9/9/5K3 w");
    check(&q, "e7e8", "5++1", "前兵五进一");
    check(&q, "e6d6", "55=6", "中兵五平六");
    check(&q, "e5f5", "5-=4", "后兵五平四");
    check(&q, "c6c7", "7++1", "前兵七进一");
    check(&q, "c5b5", "7-=8", "后兵七平八");
}

// ---------------------------------------------------------------------------
// Variants
// ---------------------------------------------------------------------------

#[test]
fn traditional_characters_and_full_width_digits() {
    let start = Position::startpos();
    for text in [
        "砲二平五",
        "炮２平５",
        "包二平五",
        "炮2平5",
        "炮 二 平 五",
        "C2.5",
        "c2=5",
        "Ｃ２＝５",
        "h2-e2",
        "H2E2",
        "H2-E2",
    ] {
        reads(&start, text, "h2e2");
    }
    for text in ["傌八進七", "馬八進七", "㐷八进七", "马8进7", "H8+7", "N8+7"] {
        reads(&start, text, "b0c2");
    }
    for text in ["俥九進一", "車九进一", "伡九进一", "车9进1", "R9+1"] {
        reads(&start, text, "a0a1");
    }
    for text in ["帥五進一", "將五进一", "帅５进１", "K5+1"] {
        reads(&start, text, "e0e1");
    }
    for text in ["仕六進五", "士六进五", "A6+5"] {
        reads(&start, text, "d0e1");
    }
    for text in ["相三進五", "象三进五", "E3+5", "B3+5"] {
        reads(&start, text, "g0e2");
    }
    // 卒 in a red move: the colour is whoever is to move.
    reads(&start, "卒三进一", "g3g4");
    let after = start.play(mv("h2e2")).unwrap();
    // Black written with Chinese numerals, or with red's characters.
    for text in ["马八进七", "傌8進7", "馬８进７"] {
        reads(&after, text, "h9g7");
    }
    let tandem = pos("3k5/9/9/9/9/4C4/7R1/4C4/9/4K2R1 w");
    reads(&tandem, "後車進二", "h0h2");
    reads(&tandem, "前砲平六", "e4d4");
}

#[test]
fn illegal_moves_carry_the_boards_reason() {
    use qili::board::IllegalReason;
    let reasons = |p: &Position, text: &str| match fails(p, text).kind().clone() {
        MoveErrorKind::IllegalMove { reasons } => {
            reasons.iter().map(|r| (r.mv, r.reason)).collect::<Vec<_>>()
        }
        other => panic!("`{text}`: {other:?}"),
    };
    let start = Position::startpos();
    // 马八进六 would be b0 → d1, but the elephant on c0 blocks the leg.
    assert_eq!(
        reasons(&start, "马八进六"),
        [(mv("b0d1"), IllegalReason::NotHowThePieceMoves)]
    );
    // The same for black, going down the board: 马8进6 is h9 → f8, blocked by g9.
    let after = start.play(mv("h2e2")).unwrap();
    assert_eq!(
        reasons(&after, "马8进6"),
        [(mv("h9f8"), IllegalReason::NotHowThePieceMoves)]
    );
    assert_eq!(
        reasons(&after, "车1进4"),
        [(mv("a9a5"), IllegalReason::NotHowThePieceMoves)]
    );
    assert_eq!(
        reasons(&after, "a9a6"),
        [(mv("a9a6"), IllegalReason::OwnPieceOnTarget)]
    );
    // A horse three files across is no horse move at all: no board reason.
    assert_eq!(reasons(&start, "马八进五"), []);
    let facing = pos("4k4/9/9/9/4C4/9/9/9/9/4K4 w");
    assert_eq!(
        reasons(&facing, "C5=4"),
        [(mv("e5f5"), IllegalReason::KingsFace)]
    );
}

#[test]
fn lines_are_read_move_by_move() {
    let start = Position::startpos();
    let expected: Vec<Move> = ["h2e2", "h9g7", "h0g2", "i9h9"]
        .iter()
        .map(|s| mv(s))
        .collect();
    for text in [
        "1. 炮二平五 马8进7 2. 马二进三 车9平8",
        "1.炮二平五，马8进7；2．马二进三、车9平8",
        "1、C2=5 H8+7 2、H2+3 R9=8",
        "(1) h2e2 h9g7 (2) h0g2 i9h9",
        "h2-e2, H8+7, 马二进三, 車9平8",
    ] {
        match parse_line(&start, text) {
            Ok(moves) => assert_eq!(moves, expected, "{text}"),
            Err(e) => panic!("{text}: {e}"),
        }
    }
    assert_eq!(parse_line(&start, "").ok(), Some(Vec::new()));
    assert_eq!(parse_line(&start, " 1. ").ok(), Some(Vec::new()));
}

#[test]
fn a_line_error_points_into_the_whole_text() {
    let start = Position::startpos();
    let text = "1. 炮二平五 马8进7 2. 马二进三 马8进7";
    let e = match parse_line(&start, text) {
        Ok(moves) => panic!("read {moves:?}"),
        Err(e) => e,
    };
    assert_eq!(e.ply(), Some(3));
    let last = text.rfind("马8进7").unwrap();
    assert_eq!(e.move_span(), last..text.len());
    // The horse on black's file 8 has gone to 7: no such piece, pointing at 马8.
    assert_eq!(e.code(), "qili::notation::no_such_piece");
    assert_eq!(&text[e.span()], "马8");
}

// ---------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------

/// Traditional characters and full-width digits for a printed Chinese move.
fn traditional(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '车' => '車',
            '马' => '馬',
            '炮' => '砲',
            '帅' => '帥',
            '将' => '將',
            '进' => '進',
            '后' => '後',
            '1'..='9' => char::from_u32(c as u32 + 0xFEE0).unwrap_or(c),
            _ => c,
        })
        .collect()
}

/// Every legal move reads back from its own printing in every notation, the
/// printings are unique, and the traditional spelling reads the same.
fn round_trip(p: &Position) {
    let legal = p.legal_moves();
    for n in Notation::ALL {
        let mut seen = HashSet::new();
        for &m in legal.iter() {
            let text = notation::format(p, m, n);
            assert!(
                seen.insert(text.clone()),
                "{n} `{text}` printed twice in {p:?}"
            );
            match parse_move(p, &text) {
                Ok(read) => assert_eq!(read, m, "{n} `{text}` in {p:?}"),
                Err(e) => panic!("{n} `{text}` in {p:?}: {e}"),
            }
            if n == Notation::Chinese {
                let variant = traditional(&text);
                assert_eq!(
                    parse_move(p, &variant).ok(),
                    Some(m),
                    "`{variant}` in {p:?}"
                );
            }
        }
    }
}

#[test]
fn round_trip_start_and_perft_positions() {
    round_trip(&Position::startpos());
    let data = include_str!("data/perft.epd");
    let mut count = 0;
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fen = line.split(';').nth(1).unwrap().trim();
        let p = pos(fen);
        round_trip(&p);
        // And from the other side's point of view where that is a position.
        let mut setup = p.to_setup();
        setup.side = Color::Black;
        if let Ok(b) = setup.validate() {
            round_trip(&b);
        }
        count += 1;
    }
    assert!(count >= 10, "only {count} perft positions");
}

#[test]
fn round_trip_crowded_positions() {
    for fen in [
        "3k5/9/9/9/9/4C4/7R1/4C4/9/4K2R1 w",
        "r3k4/9/r8/9/9/9/9/9/9/3K5 b",
        "5k3/9/9/9/9/9/4N4/9/4N4/3K5 w",
        "3k5/9/9/9/9/2B6/9/3A5/9/2BAK4 w",
        "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w",
        "3k5/4P4/4P4/4P4/4P4/9/9/9/9/5K3 w",
        "3k5/4P4/4P4/4P4/4P4/4P4/9/9/9/5K3 w",
        "3k5/9/9/2P1P4/2P1P4/9/6P2/9/9/5K3 w",
        "3k5/9/4P4/2P1P4/2P1P4/9/9/9/9/5K3 w",
        "5k3/9/9/9/9/4p4/4p4/4p4/9/3K5 b",
        "5k3/9/9/9/9/4p4/4p4/4p4/4p4/3K5 b",
        "5k3/9/9/9/9/2p1p4/2p1p4/4p4/9/3K5 b",
    ] {
        round_trip(&pos(fen));
    }
}

/// Plays the moves the seed picks from the start, checking the round trip
/// every few plies on the way.
fn playout_round_trip(seed: &[u16]) {
    let mut p = Position::startpos();
    for (ply, &s) in seed.iter().enumerate() {
        if ply % 8 == 0 {
            round_trip(&p);
        }
        let moves = p.legal_moves();
        if moves.is_empty() {
            return;
        }
        let m = moves[usize::from(s) % moves.len()];
        p.make(m);
    }
    round_trip(&p);
}

/// A position with pawns packed on few files, to reach the crowded cases.
fn crowded_setup(
    red: &[(u8, u8)],
    black: &[(u8, u8)],
    rooks: &[(u8, u8)],
    side: Color,
) -> Option<Position> {
    let mut setup = Setup::empty();
    let at = |f: u8, r: u8| Some(Square::new(File::new(f)?, Rank::new(r)?));
    setup.put(at(3, 0)?, Some(Piece::new(Color::Red, Kind::King)));
    setup.put(at(5, 9)?, Some(Piece::new(Color::Black, Kind::King)));
    for &(f, r) in red {
        setup.put(at(f, 5 + r % 5)?, Some(Piece::new(Color::Red, Kind::Pawn)));
    }
    for &(f, r) in black {
        setup.put(at(f, r % 5)?, Some(Piece::new(Color::Black, Kind::Pawn)));
    }
    for (i, &(f, r)) in rooks.iter().enumerate() {
        let color = if i % 2 == 0 { Color::Red } else { Color::Black };
        let square = at(f % 9, r % 10)?;
        if setup.board[square.index()].is_none() {
            setup.put(square, Some(Piece::new(color, Kind::Rook)));
        }
    }
    setup.side = side;
    setup.validate().ok()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn round_trip_after_random_playouts(seed in prop::collection::vec(any::<u16>(), 0..120)) {
        playout_round_trip(&seed);
    }

    #[test]
    fn round_trip_with_crowded_pawns(
        red_files in prop::sample::subsequence(vec![2u8, 4, 6], 1..=2),
        red in prop::collection::vec((0usize..2, 0u8..5), 2..=5),
        black_files in prop::sample::subsequence(vec![2u8, 4, 6], 1..=2),
        black in prop::collection::vec((0usize..2, 0u8..5), 2..=5),
        rooks in prop::collection::vec((0u8..9, 0u8..10), 0..4),
        black_to_move in any::<bool>(),
    ) {
        // Pawns packed on one or two files per side, to reach the crowded cases.
        let place = |files: &[u8], pawns: &[(usize, u8)]| -> Vec<(u8, u8)> {
            pawns.iter().map(|&(i, r)| (files[i % files.len()], r)).collect()
        };
        let side = if black_to_move { Color::Black } else { Color::Red };
        let p = crowded_setup(&place(&red_files, &red), &place(&black_files, &black), &rooks, side);
        prop_assume!(p.is_some());
        if let Some(p) = p {
            round_trip(&p);
        }
    }

    #[test]
    fn reading_never_panics(text in "\\PC{0,12}|[+\\-=.0-9A-Za-z]{0,6}|[前中后一二三四五六七八九车马炮兵卒进退平0-9]{0,6}") {
        let start = Position::startpos();
        let _ = parse_move(&start, &text);
        let _ = parse_line(&start, &text);
    }
}

#[test]
fn odd_inputs_fail_without_panicking() {
    let start = Position::startpos();
    let huge = "炮".repeat(100_000);
    for text in [
        "",
        " ",
        "\u{301}",
        "炮\u{301}二平五",
        "1.",
        "(",
        "（１",
        "++",
        "33",
        "h",
        "h2e",
        &huge,
    ] {
        let _ = parse_move(&start, text);
        let _ = parse_line(&start, text);
    }
    assert_eq!(fails(&start, "").code(), "qili::notation::malformed");
    assert_eq!(fails(&start, "\u{301}").code(), "qili::notation::malformed");
    assert_eq!(fails(&start, &huge).code(), "qili::notation::malformed");
}

// ---------------------------------------------------------------------------
// Diagnostics
// ---------------------------------------------------------------------------

fn render(e: &MoveError) -> String {
    let mut out = String::new();
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(100)
        .render_report(&mut out, e)
        .unwrap();
    out
}

#[track_caller]
fn snapshot_error(name: &str, p: &Position, text: &str, code: &str) {
    let e = fails(p, text);
    assert_eq!(e.code(), code, "{text}: {e}");
    insta::assert_snapshot!(name, render(&e));
}

#[test]
fn diagnostics() {
    let start = Position::startpos();
    snapshot_error(
        "unknown_piece_chinese",
        &start,
        "兔二平五",
        "qili::notation::unknown_piece",
    );
    snapshot_error(
        "unknown_piece_wxf",
        &start,
        "X2=5",
        "qili::notation::unknown_piece",
    );
    snapshot_error(
        "no_such_piece_on_file",
        &start,
        "炮三平五",
        "qili::notation::no_such_piece",
    );
    snapshot_error(
        "no_piece_on_square",
        &start,
        "h3e3",
        "qili::notation::no_such_piece",
    );
    snapshot_error(
        "horse_leg_blocked",
        &start,
        "马八进六",
        "qili::notation::illegal_move",
    );
    snapshot_error(
        "horse_cannot_reach_file",
        &start,
        "H8+5",
        "qili::notation::illegal_move",
    );
    snapshot_error("wrong_side", &start, "h7e7", "qili::notation::illegal_move");
    snapshot_error(
        "malformed_direction",
        &start,
        "炮二走五",
        "qili::notation::malformed",
    );
    snapshot_error(
        "malformed_iccs_file",
        &start,
        "h2x2",
        "qili::notation::malformed",
    );
    snapshot_error("empty", &start, "", "qili::notation::malformed");
    let facing = pos("4k4/9/9/9/4C4/9/9/9/9/4K4 w");
    snapshot_error(
        "kings_facing",
        &facing,
        "炮五平四",
        "qili::notation::illegal_move",
    );
    let crowded = pos("3k5/9/9/2P1P4/2P1P4/9/6P2/9/9/5K3 w");
    snapshot_error(
        "ambiguous_front_pawn",
        &crowded,
        "前兵进一",
        "qili::notation::ambiguous",
    );

    let text = "1. 炮二平五 马8进7 2. 马二进三 马8进7";
    let e = match parse_line(&start, text) {
        Ok(moves) => panic!("read {moves:?}"),
        Err(e) => e,
    };
    insta::assert_snapshot!("line_no_such_piece", render(&e));
}
