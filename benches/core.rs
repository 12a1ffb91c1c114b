//! Criterion benchmarks of the board core: perft (bulk and full), make/unmake
//! and legal move generation over middlegame positions.
//!
//! `cargo bench --bench core` · single thread · compare with the peers'
//! figures in the project notes (Pikafish, Fairy-Stockfish on the same kind
//! of machine).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use qili::board::perft::{perft, perft_full};
use qili::board::{parse_fen, Move, Position, START_FEN};
use qili::tactics::{
    attackers, exchange, is_rooted, mate_by_checks, mate_threat, protection, ExchangeLimits,
    NodeBudget, ValueTable,
};

/// Middlegame positions: CPW perft positions 2, 3, 5, 10, 11 and two from
/// engines' test suites (see tests/data/perft.epd).
const MIDDLEGAMES: &[&str] = &[
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w",
    "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w",
];

fn positions() -> Vec<Position> {
    MIDDLEGAMES
        .iter()
        .filter_map(|f| parse_fen(f).ok())
        .collect()
}

fn bench_perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    let cases = [
        ("start_d4", START_FEN, 4u32, 3_290_240u64),
        ("cpw2_d4", MIDDLEGAMES[0], 4, 1_339_047),
        ("fol_d4", MIDDLEGAMES[5], 4, 2_605_437),
        ("fsf_d4", MIDDLEGAMES[6], 4, 4_485_547),
    ];
    for (name, fen, depth, nodes) in cases {
        let Ok(pos) = parse_fen(fen) else { continue };
        g.throughput(Throughput::Elements(nodes));
        g.bench_function(format!("bulk/{name}"), |b| {
            let mut p = pos.clone();
            b.iter(|| perft(&mut p, black_box(depth)));
        });
    }
    if let Ok(pos) = parse_fen(START_FEN) {
        g.throughput(Throughput::Elements(3_290_240));
        g.bench_function("every_leaf_made/start_d4", |b| {
            let mut p = pos.clone();
            b.iter(|| perft_full(&mut p, black_box(4)));
        });
    }
    g.finish();
}

fn bench_generation(c: &mut Criterion) {
    let positions = positions();
    let mut g = c.benchmark_group("movegen");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("legal_moves/middlegame", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                n += black_box(p).legal_moves().len();
            }
            n
        })
    });
    g.bench_function("count_legal/middlegame", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).count_legal())
                .sum::<u64>()
        })
    });
    let moves: Vec<_> = positions.iter().map(|p| p.legal_moves()).collect();
    let total: usize = moves.iter().map(|m| m.len()).sum();
    g.throughput(Throughput::Elements(total as u64));
    g.bench_function("make_unmake/every_move", |b| {
        let mut ps = positions.clone();
        b.iter(|| {
            let mut h = 0u64;
            for (p, ms) in ps.iter_mut().zip(&moves) {
                for &m in ms.iter() {
                    let u = p.make(m);
                    h ^= p.hash();
                    p.unmake(m, u);
                }
            }
            h
        })
    });
    g.finish();
}

fn mv(s: &str) -> Option<Move> {
    Some(Move::new(
        s.get(..2)?.parse().ok()?,
        s.get(2..)?.parse().ok()?,
    ))
}

/// The tactical queries a ruling asks, on the small positions of the
/// tactics tests (each documented there with its hand-checked answer).
fn bench_tactics(c: &mut Criterion) {
    let mut g = c.benchmark_group("tactics");
    let values = ValueTable::conventional();
    let exchanges = [
        (
            "rook_takes_protected_cannon",
            "r2k5/9/9/9/c8/9/9/9/9/R3K4 w",
            "a0a5",
        ),
        (
            "rook_takes_free_cannon",
            "3k5/9/9/9/c8/9/9/9/9/R3K4 w",
            "a0a5",
        ),
        (
            "forking_check_hidden_root",
            "5k3/9/1R7/9/9/9/1c1n5/9/9/4K4 w",
            "b7b3",
        ),
        (
            "horse_takes_protected_rook",
            "4k4/r2r5/9/2N6/9/9/9/9/9/5K3 w",
            "c6b8",
        ),
    ];
    for (name, fen, first) in exchanges {
        let (Ok(pos), Some(first)) = (parse_fen(fen), mv(first)) else {
            continue;
        };
        if !pos.is_legal(first) {
            continue;
        }
        g.bench_function(format!("exchange/{name}"), |b| {
            b.iter(|| {
                let mut budget = NodeBudget::new(100_000);
                exchange(
                    black_box(&pos),
                    first,
                    &values,
                    ExchangeLimits::default(),
                    &mut budget,
                )
            })
        });
    }
    let mates = [
        (
            "double_cannon_mate_in_1",
            "3aka3/9/9/9/7C1/9/4C4/9/9/3K5 w",
            5,
        ),
        ("mate_in_3_plies", "3k5/9/2P6/9/9/9/3p5/8R/R8/4K4 w", 5),
        (
            "no_mate_only_check_taken",
            "4k4/9/9/9/2Nr5/9/9/9/9/5K3 w",
            5,
        ),
    ];
    for (name, fen, plies) in mates {
        let Ok(pos) = parse_fen(fen) else { continue };
        g.bench_function(format!("mate_by_checks/{name}"), |b| {
            b.iter(|| mate_by_checks(black_box(&pos), plies, &mut NodeBudget::new(100_000)))
        });
    }
    if let Some(after) = parse_fen("3k5/9/9/9/9/9/3p5/9/8R/R3K4 w")
        .ok()
        .and_then(|p| p.play(mv("a0a8")?).ok())
    {
        g.bench_function("mate_threat/quiet_rook_move", |b| {
            b.iter(|| mate_threat(black_box(&after), 5, &mut NodeBudget::new(100_000)))
        });
    }
    let positions = positions();
    g.bench_function("protection/every_piece_middlegame", |b| {
        b.iter(|| {
            let mut rooted = 0;
            for p in &positions {
                for (sq, _) in p.pieces() {
                    if protection(black_box(p), sq).is_some_and(|pr| pr.is_rooted()) {
                        rooted += 1;
                    }
                }
            }
            rooted
        })
    });
    g.bench_function("is_rooted/every_piece_middlegame", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| {
                    p.pieces()
                        .filter(|&(sq, _)| is_rooted(black_box(p), sq))
                        .count()
                })
                .sum::<usize>()
        })
    });
    g.bench_function("attackers/every_piece_middlegame", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| {
                    let us = p.side_to_move();
                    p.pieces()
                        .map(|(sq, _)| attackers(black_box(p), sq, us).len())
                        .sum::<usize>()
                })
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench_perft, bench_generation, bench_tactics);
criterion_main!(benches);
