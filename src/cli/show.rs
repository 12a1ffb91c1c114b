//! `qili board` and `qili move`: a position drawn, a move shown in every notation.

use clap::Args;
use miette::Result;

use super::Format;
use crate::board::{diagram::diagram, to_fen, START_FEN};
use crate::notation;

#[derive(Debug, Args)]
pub struct BoardArgs {
    /// The position (UCCI FEN); the start position if omitted.
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
}

pub fn run_board(args: &BoardArgs, out: &mut dyn std::io::Write) -> Result<()> {
    let pos = super::position_arg(&args.fen)?;
    super::emit(out, &format!("{}{}\n", diagram(&pos), to_fen(&pos)))
}

#[derive(Debug, Args)]
pub struct MoveArgs {
    /// The position (UCCI FEN); the start position if omitted.
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// The move, in ICCS (`h2e2`), WXF (`C2=5`) or Chinese (`炮二平五`).
    #[arg(long = "move", short = 'm')]
    pub mv: String,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// A move in every notation: the JSON shape is a contract
/// (`{"iccs","wxf","chinese","fen_after"}`), scripts read it.
#[derive(Debug, serde::Serialize)]
pub struct ShownMove {
    pub iccs: String,
    pub wxf: String,
    pub chinese: String,
    pub fen_after: String,
}

pub fn show_move(pos: &crate::board::Position, text: &str) -> Result<ShownMove> {
    let m = notation::parse_move(pos, text).map_err(miette::Report::new)?;
    let after = pos
        .play(m)
        .map_err(|e| miette::miette!(code = "qili::notation::illegal_move", "{e}"))?;
    Ok(ShownMove {
        iccs: notation::iccs(m),
        wxf: notation::wxf(pos, m),
        chinese: notation::chinese(pos, m),
        fen_after: to_fen(&after),
    })
}

pub fn run_move(args: &MoveArgs, out: &mut dyn std::io::Write) -> Result<()> {
    let pos = super::position_arg(&args.fen)?;
    let shown = show_move(&pos, &args.mv)?;
    let text = match args.format {
        Format::Json => {
            let json = serde_json::to_string(&shown)
                .map_err(|e| miette::miette!(code = "qili::io", "cannot write JSON: {e}"))?;
            format!("{json}\n")
        }
        Format::Text => format!(
            "ICCS      {}\nWXF       {}\n中文      {}\nFEN after {}\n",
            shown.iccs, shown.wxf, shown.chinese, shown.fen_after
        ),
    };
    super::emit(out, &text)
}
