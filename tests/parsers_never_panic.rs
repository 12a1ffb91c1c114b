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
}
