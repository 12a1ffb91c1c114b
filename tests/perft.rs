//! perft against the published reference counts in `tests/data/perft.epd`.
//!
//! The fast tier runs every count up to a node limit so `cargo test` stays
//! quick; `cargo test --release -- --ignored` runs every count in the file.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // tests fail by panicking

use qili::board::perft::{divide, perft, perft_full};
use qili::board::{parse_fen, to_fen};

struct Line {
    name: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn load() -> Vec<Line> {
    let text = include_str!("data/perft.epd");
    let mut out = Vec::new();
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';').map(str::trim);
        let name = fields.next().unwrap_or_default().to_string();
        let fen = fields.next().unwrap_or_default().to_string();
        let counts = fields
            .map(|f| {
                let (d, n) = f
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("bad field {f:?} in {name}"));
                let d: u32 = d
                    .trim_start_matches('D')
                    .parse()
                    .unwrap_or_else(|_| panic!("bad depth {d}"));
                let n: u64 = n.trim().parse().unwrap_or_else(|_| panic!("bad count {n}"));
                (d, n)
            })
            .collect();
        out.push(Line { name, fen, counts });
    }
    out
}

fn run(limit: u64) -> usize {
    let mut checked = 0;
    for line in load() {
        let mut pos = parse_fen(&line.fen).unwrap_or_else(|e| panic!("{}: {e}", line.name));
        for &(depth, expected) in &line.counts {
            if expected > limit {
                continue;
            }
            assert_eq!(
                perft(&mut pos, depth),
                expected,
                "{} depth {depth}",
                line.name
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn perft_matches_reference_counts_up_to_a_million_nodes() {
    let checked = run(1_500_000);
    assert!(checked >= 45, "only {checked} counts checked");
}

#[test]
#[ignore = "several minutes: run with --release -- --ignored"]
fn perft_matches_every_reference_count() {
    run(u64::MAX);
}

#[test]
fn making_every_leaf_counts_the_same_as_bulk_counting() {
    for line in load() {
        let mut pos = parse_fen(&line.fen).unwrap_or_else(|e| panic!("{}: {e}", line.name));
        let before = to_fen(&pos);
        assert_eq!(perft_full(&mut pos, 3), perft(&mut pos, 3), "{}", line.name);
        // make/unmake left the position as it found it
        assert_eq!(to_fen(&pos), before);
        assert_eq!(pos.hash(), pos.hash_from_scratch());
    }
}

#[test]
fn divide_sums_to_the_total() {
    let mut pos = parse_fen(qili::board::START_FEN).unwrap_or_else(|e| panic!("{e}"));
    let parts = divide(&mut pos, 3);
    assert_eq!(parts.len(), 44);
    assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), 79_666);
}
