//! The board core: types, positions, FEN, legal moves and perft.
//!
//! Everything the rules are judged on stands here, so this layer is correct
//! before it is fast and fast because the judge asks it many questions.

pub mod diagram;
pub mod fen;
pub(crate) mod geometry;
pub mod perft;
pub mod position;
pub mod types;
pub mod zobrist;

pub use fen::{parse_fen, to_fen, FenError, START_FEN};
pub(crate) use position::Bits;
pub use position::{
    IllegalMove, IllegalReason, MoveList, Position, RepetitionKey, Setup, SetupError, Undo, Wanted,
};
pub use types::{Color, File, Kind, Move, Piece, Rank, Square};
