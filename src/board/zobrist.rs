//! Zobrist keys: one random 64-bit key per (piece, square) and one for the
//! side to move. Generated at compile time by splitmix64 so that hashes are
//! the same on every machine and in every build.

use super::types::{Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn build() -> ([[u64; 90]; 14], u64) {
    let mut keys = [[0u64; 90]; 14];
    let mut state = 0x71_6C_69_u64; // "qli"
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < 90 {
            let (st, k) = splitmix(state);
            state = st;
            keys[p][s] = k;
            s += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix(state);
    (keys, side)
}

const TABLES: ([[u64; 90]; 14], u64) = build();

/// Key of a piece standing on a square.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    TABLES.0[piece.index()][sq.index()]
}

/// Key by dense piece index (0–13) and square index, for the hot paths.
#[inline]
pub(crate) fn piece_key_raw(piece_index: usize, sq_index: usize) -> u64 {
    TABLES.0[piece_index][sq_index]
}

/// Key XORed in when black is to move.
pub const BLACK_TO_MOVE: u64 = TABLES.1;
