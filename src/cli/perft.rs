//! `qili perft`: leaf counts, the standard check of the move generator.

use std::time::Instant;

use clap::Args;
use miette::{miette, Result};

use crate::board::perft::{divide, perft, perft_full};
use crate::board::{parse_fen, START_FEN};

#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The position (UCCI FEN); the start position if omitted.
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Depth in plies.
    #[arg(long, short, required_unless_present = "suite")]
    pub depth: Option<u32>,
    /// Print the count below each legal move first.
    #[arg(long)]
    pub divide: bool,
    /// Make every leaf instead of counting the last ply in bulk (slower; a cross-check).
    #[arg(long)]
    pub full: bool,
    /// Check every count of a reference file (`name ; FEN ; D1 n ; D2 n …` lines) instead.
    #[arg(long, conflicts_with_all = ["depth", "divide"])]
    pub suite: Option<std::path::PathBuf>,
    /// With --suite: skip reference counts above this many nodes.
    #[arg(long, default_value_t = 5_000_000)]
    pub max_nodes: u64,
}

pub fn run(args: &PerftArgs, out: &mut dyn std::io::Write) -> Result<()> {
    if let Some(path) = &args.suite {
        return run_suite(path, args.max_nodes, out);
    }
    let depth = args.depth.unwrap_or(1);
    let mut pos = super::position_arg(&args.fen)?;
    let start = Instant::now();
    let total = if args.divide {
        let parts = divide(&mut pos, depth);
        let mut text = String::new();
        for (m, n) in &parts {
            text.push_str(&format!("{m}: {n}\n"));
        }
        super::emit(out, &text)?;
        parts.iter().map(|(_, n)| n).sum()
    } else if args.full {
        perft_full(&mut pos, depth)
    } else {
        perft(&mut pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    // Timing goes to stderr so that the last line of stdout is the count alone.
    eprintln!(
        "depth {depth} · {total} nodes · {secs:.3} s · {:.1} M nodes/s",
        total as f64 / secs.max(1e-9) / 1e6
    );
    super::emit(out, &format!("{total}\n"))
}

/// One reference line: a name, a FEN and `(depth, count)` pairs.
struct SuiteLine {
    line_no: usize,
    name: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn parse_suite(text: &str) -> Result<Vec<SuiteLine>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';').map(str::trim);
        let name = fields.next().unwrap_or_default().to_string();
        let fen = fields.next().unwrap_or_default().to_string();
        let mut counts = Vec::new();
        for field in fields {
            let parsed = field.split_once(' ').and_then(|(d, n)| {
                Some((d.strip_prefix('D')?.parse().ok()?, n.trim().parse().ok()?))
            });
            match parsed {
                Some(c) => counts.push(c),
                None => {
                    return Err(miette!(
                        code = "qili::perft::suite_syntax",
                        help = "each count is written `D<depth> <nodes>`, e.g. `D3 79666`",
                        "line {}: cannot read the count `{field}`",
                        i + 1
                    ))
                }
            }
        }
        out.push(SuiteLine {
            line_no: i + 1,
            name,
            fen,
            counts,
        });
    }
    Ok(out)
}

fn run_suite(path: &std::path::Path, max_nodes: u64, out: &mut dyn std::io::Write) -> Result<()> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        miette!(
            code = "qili::perft::suite_unreadable",
            "cannot read {}: {e}",
            path.display()
        )
    })?;
    let (mut passed, mut failed, mut nodes) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    for line in parse_suite(&text)? {
        let mut pos = match parse_fen(&line.fen) {
            Ok(p) => p,
            Err(e) => {
                failed += 1;
                super::emit(
                    out,
                    &format!("FAIL {} (line {}): {e}\n", line.name, line.line_no),
                )?;
                continue;
            }
        };
        for &(depth, expected) in line.counts.iter().filter(|(_, n)| *n <= max_nodes) {
            let got = perft(&mut pos, depth);
            nodes += got;
            if got == expected {
                passed += 1;
                super::emit(out, &format!("ok   {} depth {depth}: {got}\n", line.name))?;
            } else {
                failed += 1;
                super::emit(
                    out,
                    &format!(
                        "FAIL {} depth {depth}: {got}, expected {expected}\n",
                        line.name
                    ),
                )?;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{nodes} nodes in {secs:.2} s · {:.1} M nodes/s",
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    super::emit(out, &format!("{passed} passed, {failed} failed\n"))?;
    if failed > 0 {
        return Err(miette!(
            code = "qili::perft::mismatch",
            "{failed} perft counts differ from the reference"
        ));
    }
    Ok(())
}
