//! perft: counting the leaves of the legal-move tree, the standard check of a
//! move generator against published numbers.

use super::position::Position;
use super::types::Move;

/// Leaf count at `depth`, counting the last ply in bulk (legal moves are
/// counted, not made), as the reference engines do.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            let moves = pos.legal_moves();
            let mut total = 0;
            for &m in &moves {
                let undo = pos.make(m);
                total += perft(pos, depth - 1);
                pos.unmake(m, undo);
            }
            total
        }
    }
}

/// Leaf count with every leaf made and taken back: slower, and a check that
/// make/unmake agree with the generator.
pub fn perft_full(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    let mut total = 0;
    for &m in &moves {
        let undo = pos.make(m);
        total += perft_full(pos, depth - 1);
        pos.unmake(m, undo);
    }
    total
}

/// The count below each root move (`--divide`), in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    let mut out = Vec::with_capacity(moves.len());
    for &m in &moves {
        let undo = pos.make(m);
        out.push((m, perft(pos, depth - 1)));
        pos.unmake(m, undo);
    }
    out
}
