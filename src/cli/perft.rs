//! `qili perft`: leaf counts, the standard check of the move generator.

use std::time::Instant;

use clap::Args;
use miette::Result;

use crate::board::perft::{divide, perft, perft_full};
use crate::board::START_FEN;

#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The position (UCCI FEN); the start position if omitted.
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Depth in plies.
    #[arg(long, short)]
    pub depth: u32,
    /// Print the count below each legal move first.
    #[arg(long)]
    pub divide: bool,
    /// Make every leaf instead of counting the last ply in bulk (slower; a cross-check).
    #[arg(long)]
    pub full: bool,
}

pub fn run(args: &PerftArgs, out: &mut dyn std::io::Write) -> Result<()> {
    let mut pos = super::position_arg(&args.fen)?;
    let start = Instant::now();
    let total = if args.divide {
        let parts = divide(&mut pos, args.depth);
        let mut text = String::new();
        for (m, n) in &parts {
            text.push_str(&format!("{m}: {n}\n"));
        }
        super::emit(out, &text)?;
        parts.iter().map(|(_, n)| n).sum()
    } else if args.full {
        perft_full(&mut pos, args.depth)
    } else {
        perft(&mut pos, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    // Timing goes to stderr so that the last line of stdout is the count alone.
    eprintln!(
        "depth {} · {} nodes · {:.3} s · {:.1} M nodes/s",
        args.depth,
        total,
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    super::emit(out, &format!("{total}\n"))
}
