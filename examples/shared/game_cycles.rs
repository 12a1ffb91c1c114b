//! The bundled master games and their repetition cycles, shared by the
//! judge's benchmark (`benches/judge.rs`) and `examples/game_cycles.rs`
//! (each includes this file with `#[path]`), so that the benchmark's 3,400
//! game cycles and the example's instruction count are the same cycles.
//! Not a target of its own: cargo looks for examples only at
//! `examples/*.rs` and `examples/*/main.rs`.

use qili::judge::cycle::recurrences;
use qili::judge::Cycle;
use qili::notation::pgn::read_games;

/// The two game collections, read in at build time: the programs run
/// from any folder.
pub const GAMES: [&str; 2] = [
    include_str!("../../data/games/wukong-xqdb/Hu_Ronghua_1391_UCI_games.pgn"),
    include_str!("../../data/games/wukong-xqdb/Liu_Dahua_1125_UCI_games.pgn"),
];

/// Every cycle of 4–8 plies in the games: the moves between a position and
/// its next occurrence.
pub fn game_cycles() -> Vec<Cycle> {
    GAMES
        .iter()
        .flat_map(|text| read_games(text))
        .flat_map(|g| recurrences(&g.start, &g.moves))
        .filter(|c| (4..=8).contains(&c.moves.len()))
        .collect()
}
