//! The padded mailbox the move generator walks on, and its constant tables.
//!
//! Squares are laid out 16 to a row with three rows and columns of border on
//! every side, so that a rook's ray, a horse's jump or an elephant's leap can
//! step blindly and stop at a border cell instead of testing bounds. The
//! public [`Square`](super::Square) (0–89) is converted at the edges.

use super::types::{Color, Square};

/// Index into the padded 256-cell board.
pub(crate) type Cell = usize;

/// A cell outside the 90 points.
pub(crate) const OFF: u8 = 0xFF;
/// An empty point.
pub(crate) const EMPTY: u8 = 0;

pub(crate) const N: isize = 16;
pub(crate) const S: isize = -16;
pub(crate) const E: isize = 1;
pub(crate) const W: isize = -1;

pub(crate) const ORTH: [isize; 4] = [N, S, E, W];
pub(crate) const DIAG: [isize; 4] = [N + E, N + W, S + E, S + W];

/// A horse's eight jumps, each with its leg (the orthogonal neighbour that
/// must be empty): `(leg, target)` relative to the horse.
pub(crate) const HORSE_JUMPS: [(isize, isize); 8] = [
    (N, 2 * N + E),
    (N, 2 * N + W),
    (S, 2 * S + E),
    (S, 2 * S + W),
    (E, 2 * E + N),
    (E, 2 * E + S),
    (W, 2 * W + N),
    (W, 2 * W + S),
];

/// Where a horse attacking a given point may stand, with the leg it needs
/// empty: `(leg, horse)` relative to the attacked point. The leg of a horse
/// attacking X is the diagonal neighbour of X towards the horse, not a
/// neighbour of X on the line — this is the classic trap in attack tests.
pub(crate) const HORSE_ATTACKERS: [(isize, isize); 8] = [
    (N + E, 2 * N + E),
    (N + W, 2 * N + W),
    (S + E, 2 * S + E),
    (S + W, 2 * S + W),
    (N + E, 2 * E + N),
    (S + E, 2 * E + S),
    (N + W, 2 * W + N),
    (S + W, 2 * W + S),
];

/// Read from [`CELL_OF_INDEX`]: `piece_at` and the attack questions ask
/// this on every look at the board, and the division and remainder by 9
/// were 2.7% of a ruling's instructions (callgrind, the median band of the
/// game cycles).
#[inline]
pub(crate) const fn cell_of(sq: Square) -> Cell {
    CELL_OF_INDEX[sq.index()] as Cell
}

/// [`cell_of`] worked out, for the table that answers it.
const fn cell_of_index(i: usize) -> Cell {
    (i / 9 + 3) * 16 + (i % 9 + 3)
}

#[inline]
pub(crate) const fn square_of(cell: Cell) -> Square {
    Square::from_index_unchecked(((cell >> 4) - 3) as u8 * 9 + ((cell & 15) - 3) as u8)
}

#[inline]
pub(crate) const fn offset(cell: Cell, d: isize) -> Cell {
    (cell as isize + d) as usize
}

const fn build_flags() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 90 {
        let sq = Square::from_index_unchecked(i as u8);
        let c = cell_of(sq);
        let mut f = ON_BOARD;
        if sq.in_palace(Color::Red) {
            f |= PALACE_RED;
        }
        if sq.in_palace(Color::Black) {
            f |= PALACE_BLACK;
        }
        if !sq.crossed_river(Color::Red) {
            f |= HOME_RED;
        } else {
            f |= HOME_BLACK;
        }
        t[c] = f;
        i += 1;
    }
    t
}

pub(crate) const ON_BOARD: u8 = 1;
pub(crate) const PALACE_RED: u8 = 2;
pub(crate) const PALACE_BLACK: u8 = 4;
pub(crate) const HOME_RED: u8 = 8;
pub(crate) const HOME_BLACK: u8 = 16;

/// Per-cell flags: on the board, in either palace, on either side's half.
pub(crate) const FLAGS: [u8; 256] = build_flags();

#[inline]
pub(crate) const fn palace_flag(color: Color) -> u8 {
    match color {
        Color::Red => PALACE_RED,
        Color::Black => PALACE_BLACK,
    }
}

#[inline]
pub(crate) const fn home_flag(color: Color) -> u8 {
    match color {
        Color::Red => HOME_RED,
        Color::Black => HOME_BLACK,
    }
}

const fn build_cell_of_index() -> [u8; 90] {
    let mut t = [0u8; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = cell_of_index(i) as u8;
        i += 1;
    }
    t
}

/// Square index (0–89) to padded cell, as a table for the hot loops.
pub(crate) const CELL_OF_INDEX: [u8; 90] = build_cell_of_index();

/// What a rook or cannon standing at `pos` of a line of `len` points sees,
/// given the line's occupancy `occ` (one bit a point): the low 16 bits are
/// the points a rook reaches (the empty run each way plus the first piece),
/// the high 16 bits the cannon's capture points (the first piece beyond the
/// screen each way).
const fn slide_entry(pos: usize, occ: u32, len: usize) -> u32 {
    let mut reach = 0u32;
    let mut cap = 0u32;
    let mut i = pos + 1;
    while i < len && occ & (1 << i) == 0 {
        reach |= 1 << i;
        i += 1;
    }
    if i < len {
        reach |= 1 << i;
        i += 1;
        while i < len && occ & (1 << i) == 0 {
            i += 1;
        }
        if i < len {
            cap |= 1 << i;
        }
    }
    let mut j = pos as isize - 1;
    while j >= 0 && occ & (1 << j) == 0 {
        reach |= 1 << j;
        j -= 1;
    }
    if j >= 0 {
        reach |= 1 << j;
        j -= 1;
        while j >= 0 && occ & (1 << j) == 0 {
            j -= 1;
        }
        if j >= 0 {
            cap |= 1 << j;
        }
    }
    reach | (cap << 16)
}

const fn build_rank_slides() -> [[u32; 512]; 9] {
    let mut t = [[0u32; 512]; 9];
    let mut f = 0;
    while f < 9 {
        let mut occ = 0;
        while occ < 512 {
            t[f][occ] = slide_entry(f, occ as u32, 9);
            occ += 1;
        }
        f += 1;
    }
    t
}

const fn build_file_slides() -> [[u32; 1024]; 10] {
    let mut t = [[0u32; 1024]; 10];
    let mut r = 0;
    while r < 10 {
        let mut occ = 0;
        while occ < 1024 {
            t[r][occ] = slide_entry(r, occ as u32, 10);
            occ += 1;
        }
        r += 1;
    }
    t
}

/// Sliding along a rank: `[file][rank occupancy]`, see [`slide_entry`].
pub(crate) static RANK_SLIDES: [[u32; 512]; 9] = build_rank_slides();
/// Sliding along a file: `[rank][file occupancy]`, see [`slide_entry`].
pub(crate) static FILE_SLIDES: [[u32; 1024]; 10] = build_file_slides();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip_and_borders_are_wide_enough() {
        for sq in Square::all() {
            let c = cell_of(sq);
            assert_eq!(square_of(c), sq);
            assert_eq!(FLAGS[c] & ON_BOARD, ON_BOARD);
            // Every horse jump and elephant leap from a point lands inside the array.
            for (_, t) in HORSE_JUMPS {
                let x = c as isize + t;
                assert!((0..256).contains(&x));
            }
        }
        assert_eq!(FLAGS.iter().filter(|&&f| f & ON_BOARD != 0).count(), 90);
    }

    #[test]
    fn horse_attacker_legs_match_the_horses_own_legs() {
        // A horse standing at X + h and jumping back to X uses the leg next to itself.
        for (leg_from_target, h) in HORSE_ATTACKERS {
            let jump = -h;
            let found = HORSE_JUMPS.iter().find(|(_, t)| *t == jump);
            assert_eq!(
                found.map(|(leg_from_horse, _)| h + leg_from_horse),
                Some(leg_from_target)
            );
        }
    }

    #[test]
    fn sliding_tables_see_the_first_piece_and_the_cannon_target() {
        // A rook on file a of a rank `R . x . . y . . .`: it reaches b, c (the
        // first piece); a cannon there captures on f (beyond the screen c).
        let occ = 0b0_0010_0101;
        let e = RANK_SLIDES[0][occ];
        assert_eq!(e & 0xFFFF, 0b110);
        assert_eq!(e >> 16, 0b10_0000);
        // From the middle of a file, both ways at once.
        let occ = 0b00_1001_0001; // ranks 0, 4, 7
        let e = FILE_SLIDES[4][occ];
        assert_eq!(e & 0xFFFF, 0b00_1110_1111 & !(1 << 4));
        assert_eq!(e >> 16, 0);
    }
}
