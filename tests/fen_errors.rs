//! Every way a FEN can be wrong, with the diagnostic a user sees. Each case
//! names the rule it breaks; the snapshots were read against that rule.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // tests fail by panicking

mod common;

use qili::board::parse_fen;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";

/// (snapshot name, FEN, expected code of the first problem, 1-based column of the first problem)
const CASES: &[(&str, &str, &str, usize)] = &[
    ("empty", "", "qili::fen::empty", 1),
    (
        "nine_ranks",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "qili::fen::rank_count",
        1,
    ),
    (
        "rank_too_long",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C2/9/RNBAKABNR w",
        "qili::fen::rank_length",
        47,
    ),
    (
        "rank_too_short",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1/1C5C1/9/RNBAKABNR w",
        "qili::fen::rank_length",
        33,
    ),
    (
        "unknown_letter",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1X/1C5C1/9/RNBAKABNR w",
        "qili::fen::unknown_letter",
        41,
    ),
    (
        "zero_digit",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/09/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "qili::fen::zero_digit",
        31,
    ),
    (
        "missing_side",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        "qili::fen::missing_side",
        59,
    ),
    (
        "bad_side",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
        "qili::fen::bad_side",
        61,
    ),
    (
        "trailing_field",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 extra",
        "qili::fen::trailing_field",
        71,
    ),
    (
        "missing_red_king",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",
        "qili::fen::missing_king",
        1,
    ),
    (
        "extra_black_king",
        "rnbakabnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "qili::fen::extra_king",
        12,
    ),
    (
        "king_outside_palace",
        "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNk w",
        "qili::fen::king_outside_palace",
        59,
    ),
    (
        "advisor_off_points",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2A2C1/9/RNB1KABNR w",
        "qili::fen::advisor_off_points",
        46,
    ),
    (
        "elephant_across_river",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/2B6/9/P1P1P1P1P/1C5C1/9/RN1AKABNR w",
        "qili::fen::elephant_off_points",
        30,
    ),
    (
        "pawn_behind_its_start",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P2/1C5CP/9/RNBAKABNR w",
        "qili::fen::pawn_off_points",
        46,
    ),
    (
        "uncrossed_pawn_off_its_file",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/PP2P1P1P/1C5C1/9/RNBAKABNR w",
        "qili::fen::pawn_off_points",
        34,
    ),
    (
        "three_red_rooks",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4R4/RNBAKABNR w",
        "qili::fen::too_many_pieces",
        61,
    ),
    (
        "kings_facing",
        "3k5/9/9/9/9/9/9/9/9/3K5 w",
        "qili::fen::kings_facing",
        2,
    ),
    (
        "side_not_to_move_in_check",
        "3k5/9/9/9/9/9/9/9/3R5/4K4 w",
        "qili::fen::side_not_to_move_in_check",
        2,
    ),
    (
        "several_problems",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1X/1C5C1/9/RNBAKABNR/ q",
        "qili::fen::rank_count",
        1,
    ),
    (
        "full_width_character",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN車 w",
        "qili::fen::unknown_letter",
        59,
    ),
];

#[test]
fn every_broken_fen_gets_its_diagnostic() {
    for &(name, fen, code, column) in CASES {
        let err = match parse_fen(fen) {
            Ok(_) => panic!("{name}: `{fen}` was accepted"),
            Err(e) => e,
        };
        let first = &err.problems[0];
        assert_eq!(first.code(), code, "{name}");
        assert_eq!(first.column, column, "{name}");
        insta::assert_snapshot!(name, common::render(&err));
    }
}

#[test]
fn accepted_variants_read_the_same_position() {
    let expected = parse_fen(START).map(|p| qili::board::to_fen(&p)).ok();
    for variant in [
        // `r` for red to move, and the full UCCI tail
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1",
        // E and H for elephant and horse
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w",
        // surrounding whitespace
        "  rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR   w  ",
    ] {
        assert_eq!(
            parse_fen(variant).map(|p| qili::board::to_fen(&p)).ok(),
            expected,
            "{variant}"
        );
    }
}

#[test]
fn side_to_move_in_check_is_a_legal_position() {
    // Red's rook checks the black king; black to move is fine.
    assert!(parse_fen("3k5/9/9/9/9/9/9/9/3R5/4K4 b").is_ok());
}
