//! The parsers' promise on stable Rust (the `fuzz/` targets make the same
//! one under libFuzzer): any text is either read or rejected with a
//! diagnostic that renders, never a panic.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // tests fail by panicking

mod common;

use proptest::prelude::*;
use qili::board::{parse_fen, to_fen, Position, START_FEN};
use qili::notation::{parse_line, parse_move};

/// Text made mostly of the characters the parsers care about, so that the
/// random inputs get deep into them rather than failing at the first byte.
fn fenish() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            8 => proptest::sample::select("KABNRCPkabnrcpEHeh0123456789/ wbr-".chars().collect::<Vec<_>>()),
            1 => any::<char>(),
        ],
        0..120,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

fn moveish() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            6 => proptest::sample::select(
                "车車俥马馬傌炮砲包帅帥将將仕士相象兵卒进進退平前后後中一二三四五六七八九123456789１２３abcdefghi0+-=.KAEHRCP ,，、()."
                    .chars()
                    .collect::<Vec<_>>()
            ),
            1 => any::<char>(),
        ],
        0..40,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

/// Text shaped like a PGN file: tag lines, move numbers, ICCS moves (some
/// legal from the start), comments, variations and results. Its games are
/// mostly cut short at once; `shuffling_game` is the one whose positions
/// come back.
fn pgnish() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        proptest::sample::select(vec![
            "[Event \"E\"]\n",
            "[FEN \"3k5/R8/9/9/9/9/9/9/9/4K4 w\"]\n",
            "[Red \"a\\\"b\"]\n",
            "[",
            "]",
            "\n",
            "\n\n",
            " ",
            "1. ",
            "2...",
            "(3)",
            "h0g2 ",
            "h9g7 ",
            "g2h0 ",
            "g7h9 ",
            "a0a1 ",
            "a1a0 ",
            "a9a8 ",
            "a8a9 ",
            "a8a9 ",
            "d9d8 ",
            "d8d9 ",
            "{c",
            "}",
            "; x",
            "(",
            ")",
            "$1 ",
            "1-0",
            "*",
            "炮二平五 ",
            "马8进7 ",
            "h2h9 ",
            "zz ",
        ]),
        0..60,
    )
    .prop_map(|parts| parts.concat())
}

/// A game in which every move takes a horse or a rook out from the start or
/// back (each side's two pieces never meet), so positions come back often;
/// written with PGN's extras between the moves. The moves the reader must
/// find, and the text.
fn shuffling_game() -> impl Strategy<Value = (Vec<&'static str>, String)> {
    proptest::collection::vec((any::<bool>(), 0usize..6), 0..40).prop_map(|plies| {
        // Out or home: red horse, red rook, black horse, black rook.
        let mut out = [false; 4];
        let mut moves = Vec::new();
        let mut text = String::from("[Event \"shuffle\"]\n\n");
        for (k, (rook, extra)) in plies.into_iter().enumerate() {
            let i = (k % 2) * 2 + usize::from(rook);
            let m = match (i, out[i]) {
                (0, false) => "h0g2",
                (0, true) => "g2h0",
                (1, false) => "a0a1",
                (1, true) => "a1a0",
                (2, false) => "h9g7",
                (2, true) => "g7h9",
                (_, false) => "a9a8",
                (_, true) => "a8a9",
            };
            out[i] = !out[i];
            if k % 2 == 0 {
                text.push_str(&format!("{}. ", k / 2 + 1));
            }
            text.push_str(m);
            text.push_str([" ", "! ", " {c} ", " $1 ", "\n", " (1... a9a8) "][extra]);
            moves.push(m);
        }
        text.push_str("1/2-1/2\n");
        (moves, text)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_fen_text_is_read_or_diagnosed(text in fenish()) {
        match parse_fen(&text) {
            Ok(pos) => {
                let again = parse_fen(&to_fen(&pos));
                prop_assert!(again.is_ok_and(|p| p == pos));
            }
            Err(e) => {
                prop_assert!(!e.problems.is_empty());
                prop_assert!(!common::render(&e).is_empty());
            }
        }
    }

    #[test]
    fn any_fen_with_one_character_changed_is_read_or_diagnosed(at in 0usize..80, c in any::<char>()) {
        let mut chars: Vec<char> = START_FEN.chars().collect();
        let i = at % chars.len();
        chars[i] = c;
        let text: String = chars.into_iter().collect();
        if let Err(e) = parse_fen(&text) {
            prop_assert!(!common::render(&e).is_empty());
        }
    }

    #[test]
    fn any_move_text_is_read_or_diagnosed(text in moveish()) {
        let pos = Position::startpos();
        if let Err(e) = parse_move(&pos, &text) {
            prop_assert!(!common::render(&e).is_empty());
        }
        if let Err(e) = parse_line(&pos, &text) {
            prop_assert!(!common::render(&e).is_empty());
        }
    }

    #[test]
    fn any_game_text_is_read_and_its_repetitions_come_back(text in pgnish()) {
        for g in qili::notation::pgn::read_games(&text) {
            let mut p = g.start.clone();
            for &m in &g.moves {
                prop_assert!(p.is_legal(m));
                p.make(m);
            }
            for r in qili::judge::cycle::repetitions(&g.start, &g.moves) {
                let mut p = r.cycle.start.clone();
                for &m in &r.cycle.moves {
                    p.make(m);
                }
                prop_assert_eq!(p.repetition_key(), r.cycle.start.repetition_key());
            }
        }
    }

    #[test]
    fn a_shuffling_game_is_read_whole_and_ruled_on_the_cycles_that_come_back(
        (moves, text) in shuffling_game()
    ) {
        use qili::judge::cycle::{recurrences, repetitions};
        let games = qili::notation::pgn::read_games(&text);
        prop_assert_eq!(games.len(), 1);
        let g = &games[0];
        prop_assert_eq!(&g.cut, &None);
        let read: Vec<String> = g.moves.iter().map(|&m| qili::notation::iccs(m)).collect();
        prop_assert_eq!(read, moves);
        let runs = repetitions(&g.start, &g.moves);
        prop_assert_eq!(runs.is_empty(), recurrences(&g.start, &g.moves).is_empty());
        for r in runs {
            let judged = qili::judge::last_cycle(&g.start, &g.moves[..r.last_return], "").unwrap();
            prop_assert_eq!(&judged, &r.cycle);
            let mut p = r.cycle.start.clone();
            for &m in &r.cycle.moves {
                p.make(m);
            }
            prop_assert_eq!(p.repetition_key(), r.cycle.start.repetition_key());
        }
    }
}
