//! `qili board` and `qili move`: a position drawn, a move shown in every notation.

use clap::Args;
use miette::Result;

use super::Format;
use crate::board::{diagram::diagram, to_fen, START_FEN};

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

pub fn run_move(args: &MoveArgs, out: &mut dyn std::io::Write) -> Result<()> {
    let _ = (args, out);
    Err(miette::miette!("not yet wired"))
}
