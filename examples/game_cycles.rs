//! Ruling what real play repeats: every 4–8-ply repetition cycle of the
//! bundled master games (the benchmark's 3,400 game cycles), each ruled
//! once under the 2011 rules, counted by outcome.
//!
//! `cargo run --release --example game_cycles`
//!
//! It is also the meter for a figure that does not depend on the machine:
//! the instructions the rulings take, counted by callgrind over
//! [`rule_all`] alone (reading the games and finding the cycles left out).
//!
//! ```sh
//! cargo build --release --example game_cycles
//! valgrind --tool=callgrind --toggle-collect='*rule_all*' \
//!     --callgrind-out-file=/dev/null target/release/examples/game_cycles
//! ```
//!
//! valgrind prints the total as `Collected`; divided by the cycles ruled
//! it is the instructions a ruling takes (docs/speed.md).

/// The command line's allocator, so that the count is the command line's.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::{Duration, Instant};

use qili::board::Color;
use qili::judge::{judge_cycle, Cycle, Options, Outcome, Rulebook};

#[path = "shared/game_cycles.rs"]
mod shared;
use shared::game_cycles;

fn main() -> miette::Result<()> {
    let book = Rulebook::bundled("2011")?;
    let cycles = game_cycles();
    let (outcomes, mut times) = rule_all(&book, &cycles);
    times.sort();
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    println!(
        "{} cycles of 4–8 plies ruled under 2011, once each: {} drawn, {} red must change, {} black must change",
        cycles.len(),
        outcomes[0],
        outcomes[1],
        outcomes[2]
    );
    println!(
        "median {} µs a ruling (ruled once, in order: higher than the benchmark's best of five)",
        median.as_micros()
    );
    Ok(())
}

/// Rules each cycle once: the outcomes counted (draws, red must change,
/// black must change) and each ruling's time. Kept out of line so that
/// callgrind can count it alone.
#[inline(never)]
fn rule_all(book: &Rulebook, cycles: &[Cycle]) -> ([usize; 3], Vec<Duration>) {
    let mut outcomes = [0usize; 3];
    let mut times = Vec::with_capacity(cycles.len());
    for cycle in cycles {
        let started = Instant::now();
        let ruling = judge_cycle(book, cycle.clone(), Options::default());
        times.push(started.elapsed());
        outcomes[match ruling.outcome {
            Outcome::Draw => 0,
            Outcome::MustChange(Color::Red) => 1,
            Outcome::MustChange(Color::Black) => 2,
        }] += 1;
    }
    (outcomes, times)
}
