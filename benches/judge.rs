//! Criterion benchmarks of the judge: ruling a cycle under the 2011 rules
//! (classification, verdict and reasons, no text rendering).
//!
//! `cargo bench --bench judge` · single thread · inputs: every repetition
//! cycle of 4 to 8 plies in the bundled master games
//! (`data/games/wukong-xqdb`, 2,516 games) and the case corpus (`cases/`);
//! and `qili survey`'s work over the same games (each repetition of the
//! distinct games ruled once, any length).
//!
//! Before the criterion groups run, each cycle is ruled on its own (best of
//! 5) and the distribution is printed: `game cycles: N, median X µs, p99 Y
//! µs, max Z µs (…)`, then the corpus's, then that of the middlegame
//! shuffles (four-ply cycles made at plies 20, 30 and 40 of the same
//! games, see [`shuffle_cycles`]), which no criterion group times. The
//! issue's targets are a median of 20 µs and a p99 of 1 ms per cycle.

/// The allocator the command line uses (see `src/main.rs`).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use qili::board::{Move, Position};
use qili::judge::case::Case;
use qili::judge::survey::{found_repetitions, survey};
use qili::judge::{judge_cycle, Cycle, Options, Rulebook};
use qili::notation::pgn::{read_games, GameFile};

#[path = "../examples/shared/game_cycles.rs"]
mod shared;
use shared::{game_cycles, GAMES};

/// Cycles no game played, for the judge's tail on busy boards: at plies
/// 20, 30 and 40 of every game, red shuffles a piece out and black
/// another, then both go back (`a b a' b'`): the first such pair in the
/// generator's order whose moves take nothing and give no check. The
/// games' own repetitions mostly come in simplified positions; these
/// stand in the middlegame, with most of the pieces still on the board.
fn shuffle_cycles() -> Vec<Cycle> {
    GAMES
        .iter()
        .flat_map(|text| read_games(text))
        .flat_map(|g| {
            let mut p = g.start.clone();
            let mut out = Vec::new();
            for (k, &m) in g.moves.iter().enumerate().take(40) {
                p.make(m);
                if (k + 1) % 10 == 0 && k >= 19 {
                    out.extend(shuffle(&p));
                }
            }
            out
        })
        .collect()
}

/// The first out-and-back shuffle of both sides from `start`, if any.
fn shuffle(start: &Position) -> Option<Cycle> {
    let quiet = |p: &Position, m: Move| {
        if p.piece_at(m.to).is_some() {
            return None;
        }
        let mut next = p.clone();
        next.make(m);
        (!next.in_check()).then_some(next)
    };
    for a in start.legal_moves().iter().copied() {
        let Some(after_a) = quiet(start, a) else {
            continue;
        };
        for b in after_a.legal_moves().iter().copied() {
            let Some(after_b) = quiet(&after_a, b) else {
                continue;
            };
            let moves = vec![a, b, Move::new(a.to, a.from), Move::new(b.to, b.from)];
            let mut p = after_b;
            let back = moves[2..].iter().all(|&m| {
                let legal = p.is_legal(m);
                if legal {
                    p.make(m);
                }
                legal
            });
            if back && p.repetition_key() == start.repetition_key() {
                return Some(Cycle {
                    start: start.clone(),
                    moves,
                    offset: 0,
                });
            }
        }
    }
    None
}

fn corpus_cycles() -> Vec<Cycle> {
    let Ok(dir) = std::fs::read_dir("cases") else {
        return Vec::new();
    };
    let mut files: Vec<_> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    files
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .filter_map(|p| Case::load(p).ok())
        .filter_map(|c| qili::cli::judge::prepare(&c).ok())
        .collect()
}

fn distribution(name: &str, book: &Rulebook, cycles: &[Cycle]) {
    let mut times: Vec<(Duration, usize)> = cycles
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let best = (0..5)
                .map(|_| {
                    let t = Instant::now();
                    black_box(judge_cycle(book, c.clone(), Options::default()));
                    t.elapsed()
                })
                .min()
                .unwrap_or_default();
            (best, i)
        })
        .collect();
    if times.is_empty() {
        return;
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize].0;
    let (max, worst) = times[times.len() - 1];
    eprintln!(
        "{name}: {} cycles, median {} µs, p99 {} µs, max {} µs (cycle {worst}: {})",
        times.len(),
        at(0.5).as_micros(),
        at(0.99).as_micros(),
        max.as_micros(),
        qili::board::to_fen(&cycles[worst].start),
    );
}

/// Where the rulings' time goes, by the rulebook's steps (one profiled
/// pass; the profiler's clock readings make it slower than the timed runs).
fn profile(name: &str, book: &Rulebook, cycles: &[Cycle]) {
    let mut all = qili::judge::profile::Profile::default();
    for c in cycles {
        let opts = Options {
            profile: true,
            ..Options::default()
        };
        if let Some(p) = judge_cycle(book, c.clone(), opts).profile {
            all.merge(&p);
        }
    }
    eprintln!("{name}: {}", all.to_text(false, 25));
}

fn bench_judge(c: &mut Criterion) {
    let Ok(book) = Rulebook::from_folder("2011", "rules") else {
        return;
    };
    let games = game_cycles();
    let corpus = corpus_cycles();
    distribution("game cycles", &book, &games);
    distribution("corpus", &book, &corpus);
    distribution("middlegame shuffles", &book, &shuffle_cycles());
    profile("game cycles", &book, &games);
    let mut g = c.benchmark_group("judge");
    g.sample_size(10);
    g.throughput(Throughput::Elements(games.len() as u64));
    g.bench_function("2011/game-cycles", |b| {
        b.iter(|| {
            for cy in &games {
                black_box(judge_cycle(&book, cy.clone(), Options::default()));
            }
        })
    });
    if !corpus.is_empty() {
        g.throughput(Throughput::Elements(corpus.len() as u64));
        g.bench_function("2011/corpus", |b| {
            b.iter(|| {
                for cy in &corpus {
                    black_box(judge_cycle(&book, cy.clone(), Options::default()));
                }
            })
        });
    }
    // `qili survey`'s work: every repetition of the distinct games found
    // and ruled once (1,057 rulings), the records already read.
    let files: Vec<GameFile> = GAMES
        .iter()
        .enumerate()
        .map(|(i, text)| GameFile {
            stem: format!("games{i}"),
            path: String::new(),
            games: read_games(text),
        })
        .collect();
    g.throughput(Throughput::Elements(found_repetitions(&files).len() as u64));
    g.bench_function("2011/survey of the game records", |b| {
        b.iter(|| black_box(survey(&book, &files, true)))
    });
    g.finish();
}

criterion_group!(benches, bench_judge);
criterion_main!(benches);
