//! A legal Xiangqi position: placement, side to move and Zobrist hash, with
//! move generation and make/unmake.
//!
//! A [`Position`] can only be built from a [`Setup`] that passed
//! [`Setup::validate`], so every function here may assume one king per side,
//! pieces on their reachable points, and the side not to move not in check.

use std::fmt;

use super::geometry::{
    cell_of, home_flag, offset, palace_flag, square_of, Cell, CELL_OF_INDEX, DIAG, E, EMPTY,
    FILE_SLIDES, FLAGS, HORSE_ATTACKERS, HORSE_JUMPS, N, OFF, ON_BOARD, ORTH, RANK_SLIDES, S, W,
};
use super::types::{Color, Kind, Move, Piece, Square};
use super::zobrist;

/// Cell code of a piece: `1 + piece.index()`, so red is 1–7 and black 8–14.
#[inline]
const fn code(piece: Piece) -> u8 {
    piece.index() as u8 + 1
}

#[inline]
const fn code_of(color: Color, kind: Kind) -> u8 {
    (color as u8) * 7 + kind as u8 + 1
}

/// Kind index of each cell code (0 for empty and border cells, never asked).
const KIND_OF_CODE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 1;
    while c <= 14 {
        t[c] = ((c - 1) % 7) as u8;
        c += 1;
    }
    t
};

#[inline]
const fn kind_code(c: u8) -> u8 {
    KIND_OF_CODE[c as usize]
}

#[inline]
fn decode(c: u8) -> Option<Piece> {
    DECODED[c as usize]
}

/// [`decode`] for every cell code: asked on every look at a point, where
/// the remainder by 7 the piece index needs was a cost of its own.
const DECODED: [Option<Piece>; 256] = {
    let mut t = [None; 256];
    let mut c = 1;
    while c < 255 {
        t[c] = Piece::from_index(c - 1);
        c += 1;
    }
    t
};

/// Lowest and highest cell code of `color`'s pieces.
#[inline]
const fn code_range(color: Color) -> (u8, u8) {
    match color {
        Color::Red => (1, 7),
        Color::Black => (8, 14),
    }
}

/// A square's bit (see [`Square::bit`]).
#[inline]
fn bit(sq_index: usize) -> u128 {
    Square::from_index_unchecked(sq_index as u8).bit()
}

/// The bit of the square on cell `c` (nothing for the border cells).
#[inline]
fn cell_bit(c: Cell) -> u128 {
    CELL_BIT[c & 0xFF]
}

static CELL_BIT: [u128; 256] = {
    let mut t = [0u128; 256];
    let mut i = 0;
    while i < 90 {
        t[CELL_OF_INDEX[i] as usize] = 1u128 << i;
        i += 1;
    }
    t
};

/// The square indices of a board set's bits, lowest first, walked as two
/// 64-bit halves: 128-bit bit tricks take several instructions each.
#[derive(Clone, Copy)]
pub(crate) struct Bits {
    lo: u64,
    hi: u64,
}

impl Bits {
    #[inline]
    pub(crate) fn of(set: u128) -> Bits {
        Bits {
            lo: set as u64,
            hi: (set >> 64) as u64,
        }
    }
}

impl Iterator for Bits {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.lo != 0 {
            let i = self.lo.trailing_zeros() as usize;
            self.lo &= self.lo - 1;
            Some(i)
        } else if self.hi != 0 {
            let i = self.hi.trailing_zeros() as usize;
            self.hi &= self.hi - 1;
            Some(64 + i)
        } else {
            None
        }
    }
}

/// The fixed-capacity list of moves the generator fills. No position has more
/// than 119 pseudo-legal moves (2×17 rook, 2×17 cannon, 2×8 horse, 2×4
/// elephant, 2×4 advisor, 4 king, 5×3 pawn), so 128 slots always suffice.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; 128],
    len: usize,
}

impl MoveList {
    pub fn new() -> MoveList {
        let zero = Square::from_index_unchecked(0);
        MoveList {
            moves: [Move::new(zero, zero); 128],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, m: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = m;
            self.len += 1;
        }
    }

    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// Empties the list for another generation (a search reuses one list
    /// per ply rather than making and zeroing one per position).
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// What [`Position::make`] needs to take a move back.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: u8,
    hash: u64,
}

impl Undo {
    /// The piece the move captured, if any.
    pub fn captured(&self) -> Option<Piece> {
        decode(self.captured)
    }
}

/// Identity of a position for the repetition rules: the placement and the
/// side to move, compared exactly (not by hash), so that two positions are
/// "the same" only when a referee would say so.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct RepetitionKey {
    placement: [u8; 90],
    side: Color,
}

/// A legal position.
#[derive(Clone)]
pub struct Position {
    cells: [u8; 256],
    occupied: [u128; 2],
    /// Occupancy of each rank (bit = file) and each file (bit = rank), the
    /// indices into the sliding tables for rooks and cannons.
    rank_occ: [u16; 10],
    file_occ: [u16; 9],
    kings: [Cell; 2],
    side: Color,
    hash: u64,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.side == other.side && self.cells == other.cells
    }
}
impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", super::fen::to_fen(self))
    }
}

impl Position {
    /// The standard opening position, red to move.
    pub fn startpos() -> Position {
        // The literal is well formed; a failure here would be a bug caught by the tests.
        match super::fen::parse_fen(super::fen::START_FEN) {
            Ok(p) => p,
            Err(_) => unreachable!("the start FEN is valid"),
        }
    }

    /// Builds a position without validation; only [`Setup::validate`] calls it.
    fn from_board_unchecked(board: &[Option<Piece>; 90], side: Color) -> Position {
        let mut cells = [OFF; 256];
        let mut occupied = [0u128; 2];
        let mut rank_occ = [0u16; 10];
        let mut file_occ = [0u16; 9];
        let mut kings = [0usize; 2];
        let mut hash = 0u64;
        for sq in Square::all() {
            let c = cell_of(sq);
            match board[sq.index()] {
                Some(p) => {
                    cells[c] = code(p);
                    occupied[p.color.index()] |= bit(sq.index());
                    rank_occ[sq.rank().index() as usize] |= 1 << sq.file().index();
                    file_occ[sq.file().index() as usize] |= 1 << sq.rank().index();
                    hash ^= zobrist::piece_key(p, sq);
                    if p.kind == Kind::King {
                        kings[p.color.index()] = c;
                    }
                }
                None => cells[c] = EMPTY,
            }
        }
        if side == Color::Black {
            hash ^= zobrist::BLACK_TO_MOVE;
        }
        Position {
            cells,
            occupied,
            rank_occ,
            file_occ,
            kings,
            side,
            hash,
        }
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        decode(self.cells[cell_of(sq)])
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Where `color`'s king stands.
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        square_of(self.kings[color.index()])
    }

    /// The incremental Zobrist hash of placement and side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash recomputed from scratch; equals [`Position::hash`] always.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.side == Color::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        for (sq, p) in self.pieces() {
            h ^= zobrist::piece_key(p, sq);
        }
        h
    }

    /// Placement and side to move, for detecting repetitions exactly.
    pub fn repetition_key(&self) -> RepetitionKey {
        let mut placement = [0u8; 90];
        for (i, slot) in placement.iter_mut().enumerate() {
            *slot = self.cells[CELL_OF_INDEX[i] as usize];
        }
        RepetitionKey {
            placement,
            side: self.side,
        }
    }

    /// Every piece with its square, rank 0 first.
    /// The first two occupied points from `sq` (not counting it) along the
    /// line `(df, dr)` (one of the four orthogonal steps), read from the
    /// rank and file occupancy bits.
    pub(crate) fn line_blockers(&self, sq: Square, df: i8, dr: i8) -> [Option<Square>; 2] {
        let (f, r) = (sq.index() % 9, sq.index() / 9);
        // The line's occupancy, the point's place on it, and the square of
        // place i.
        let (occ, at) = if df == 0 {
            (u32::from(self.file_occ[f]), r)
        } else {
            (u32::from(self.rank_occ[r]), f)
        };
        let square = |i: u32| {
            let i = i as usize;
            Square::from_index(if df == 0 { i * 9 + f } else { r * 9 + i })
        };
        if df + dr > 0 {
            // Towards higher files or ranks: the lowest bits above `at`.
            let mut m = occ & !((2u32 << at) - 1);
            let first = (m != 0).then(|| m.trailing_zeros());
            m &= m.wrapping_sub(1);
            let second = (m != 0).then(|| m.trailing_zeros());
            [first.and_then(square), second.and_then(square)]
        } else {
            let mut m = occ & ((1u32 << at) - 1);
            let first = (m != 0).then(|| 31 - m.leading_zeros());
            if let Some(x) = first {
                m &= !(1 << x);
            }
            let second = (m != 0).then(|| 31 - m.leading_zeros());
            [first.and_then(square), second.and_then(square)]
        }
    }

    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.pieces_in(self.occupied[0] | self.occupied[1])
    }

    /// The pieces of one side, rank 0 first.
    pub fn pieces_of(&self, color: Color) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.pieces_in(self.occupied[color.index()])
    }

    /// The squares `color`'s pieces stand on (bit `i` for square index `i`).
    #[inline]
    pub fn occupancy(&self, color: Color) -> u128 {
        self.occupied[color.index()]
    }

    /// The pieces on the squares of `bits`, in square order.
    fn pieces_in(&self, bits: u128) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let mut bits = Bits::of(bits);
        std::iter::from_fn(move || loop {
            let i = bits.next()? as u8;
            let sq = Square::from_index_unchecked(i);
            if let Some(p) = self.piece_at(sq) {
                return Some((sq, p));
            }
        })
    }

    /// How many pieces of `piece`'s colour and kind are on the board.
    pub fn count(&self, piece: Piece) -> usize {
        self.pieces().filter(|&(_, p)| p == piece).count()
    }

    /// The unchecked form of this position.
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; 90];
        for (sq, p) in self.pieces() {
            board[sq.index()] = Some(p);
        }
        Setup {
            board,
            side: self.side,
        }
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.is_in_check(self.side)
    }

    /// Whether `color`'s king is attacked (including by the facing king).
    pub fn is_in_check(&self, color: Color) -> bool {
        self.king_attacked(self.kings[color.index()], color.opponent())
    }

    /// Whether a piece of `by` could move to `sq` by the movement rules alone
    /// (legs, eyes, screens, the river and the palace respected; pins and the
    /// mover's own king not considered). The facing kings count: a king
    /// "attacks" the other king along an open file.
    pub fn is_attacked_by(&self, sq: Square, by: Color) -> bool {
        let c = cell_of(sq);
        self.king_attacked(c, by) || palace_step_attacked(&self.cells, c, by)
    }

    /// Whether a piece of `by` attacks the point `sq` by rook, cannon, horse
    /// or pawn movement, or by the facing king along the file. Kings,
    /// advisors and elephants' steps are left out: they can never reach the
    /// other side's king. The rank and file are read from the sliding
    /// tables, as for a move that changes nothing (`sq` onto itself).
    #[inline]
    fn king_attacked(&self, sq: Cell, by: Color) -> bool {
        let still = After {
            cells: &self.cells,
            from: sq,
            to: sq,
            piece: self.cells[sq],
        };
        self.line_attacked_after(&still, sq, by, true, true) || step_attacked(&self.cells, sq, by)
    }

    /// All legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.for_each_legal(|m| list.push(m));
        list
    }

    /// The legal moves and whether the side to move is in check: the
    /// generation finds the check anyway, so a search that needs both asks
    /// once.
    pub fn legal_moves_and_check(&self) -> (MoveList, bool) {
        let mut list = MoveList::new();
        let in_check = self.generate_legal(
            |_| true,
            |m| {
                list.push(m);
                true
            },
        );
        (list, in_check)
    }

    /// The number of legal moves, without building a list (perft's bulk count).
    pub fn count_legal(&self) -> u64 {
        let mut n = 0u64;
        self.for_each_legal(|_| n += 1);
        n
    }

    /// Whether the side to move has a legal move. In Xiangqi a side without
    /// one has lost, whether it is in check (将死) or not (困毙).
    pub fn has_legal_move(&self) -> bool {
        // A king step usually is one: tried first, each with the full test
        // alone, before the setup the generation of every move needs.
        if self.king_can_step() {
            return true;
        }
        let mut found = false;
        self.generate_legal(
            |_| true,
            |_| {
                found = true;
                false
            },
        );
        found
    }

    /// Whether the king of the side to move has a legal step.
    fn king_can_step(&self) -> bool {
        let us = self.side;
        let ksq = self.kings[us.index()];
        let (lo, hi) = code_range(us);
        let palace = palace_flag(us);
        ORTH.iter().any(|&d| {
            let t = offset(ksq, d);
            let c = self.cells[t];
            FLAGS[t] & palace != 0
                && !(c >= lo && c <= hi)
                && self.leaves_king_safe(ksq, t, ksq, us.opponent(), true)
        })
    }

    /// [`Self::has_legal_move`] for a side known not to be in check, as the
    /// capture search knows it at every node it stands pat on. Out of check,
    /// a move other than the king's is legal unless it opens a line or a
    /// horse leg onto the king, which one look tells; so the moves are
    /// tested one by one until one passes, with none of the setup the
    /// generation of every legal move needs first.
    pub(crate) fn has_legal_move_out_of_check(&self) -> bool {
        debug_assert!(!self.in_check());
        let us = self.side;
        let them = us.opponent();
        let ksq = self.kings[us.index()];
        for i in Bits::of(self.occupied[us.index()]) {
            let mut found = false;
            self.generate_from(CELL_OF_INDEX[i] as usize, &mut |from, to| {
                found = found || self.leaves_king_safe(from, to, ksq, them, false);
            });
            if found {
                return true;
            }
        }
        false
    }

    /// Checkmated: in check with no legal move.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        let from = cell_of(m.from);
        let to = cell_of(m.to);
        let c = self.cells[from];
        let (lo, hi) = code_range(self.side);
        if c < lo || c > hi {
            return false;
        }
        let mut pseudo = false;
        self.generate_from(from, &mut |f, t| {
            if f == from && t == to {
                pseudo = true;
            }
        });
        if !pseudo {
            return false;
        }
        self.leaves_king_safe(
            from,
            to,
            self.kings[self.side.index()],
            self.side.opponent(),
            self.in_check(),
        )
    }

    /// Plays a legal move and returns what is needed to take it back. The
    /// move must come from [`Position::legal_moves`] (or pass
    /// [`Position::is_legal`]); anything else leaves a meaningless position.
    #[inline]
    pub fn make(&mut self, m: Move) -> Undo {
        let from = cell_of(m.from);
        let to = cell_of(m.to);
        let pc = self.cells[from];
        let cap = self.cells[to];
        let undo = Undo {
            captured: cap,
            hash: self.hash,
        };
        let us = self.side.index();
        let pi = pc as usize - 1;
        let mut h = self.hash
            ^ zobrist::piece_key_raw(pi, m.from.index())
            ^ zobrist::piece_key_raw(pi, m.to.index())
            ^ zobrist::BLACK_TO_MOVE;
        if cap != EMPTY {
            h ^= zobrist::piece_key_raw(cap as usize - 1, m.to.index());
            self.occupied[1 - us] &= !bit(m.to.index());
        } else {
            self.toggle_line_occupancy(m.to);
        }
        self.toggle_line_occupancy(m.from);
        self.occupied[us] ^= bit(m.from.index()) | bit(m.to.index());
        self.cells[to] = pc;
        self.cells[from] = EMPTY;
        if kind_code(pc) == Kind::King as u8 {
            self.kings[us] = to;
        }
        self.side = self.side.opponent();
        self.hash = h;
        undo
    }

    #[inline]
    fn toggle_line_occupancy(&mut self, sq: Square) {
        let (f, r) = (sq.file().index(), sq.rank().index());
        self.rank_occ[r as usize] ^= 1 << f;
        self.file_occ[f as usize] ^= 1 << r;
    }

    /// Takes back `m`, which must be the last move made.
    #[inline]
    pub fn unmake(&mut self, m: Move, undo: Undo) {
        let from = cell_of(m.from);
        let to = cell_of(m.to);
        self.side = self.side.opponent();
        let us = self.side.index();
        let pc = self.cells[to];
        self.cells[from] = pc;
        self.cells[to] = undo.captured;
        self.occupied[us] ^= bit(m.from.index()) | bit(m.to.index());
        if undo.captured != EMPTY {
            self.occupied[1 - us] |= bit(m.to.index());
        } else {
            self.toggle_line_occupancy(m.to);
        }
        self.toggle_line_occupancy(m.from);
        if kind_code(pc) == Kind::King as u8 {
            self.kings[us] = from;
        }
        self.hash = undo.hash;
    }

    /// Passes the turn without moving (a "null move"), for questions such as
    /// the mate threat's "had the mover another move now". The result may
    /// leave the new side to move's opponent in check; callers that search
    /// from it must treat such a position as "the king can be taken".
    #[inline]
    pub fn pass(&mut self) {
        self.side = self.side.opponent();
        self.hash ^= zobrist::BLACK_TO_MOVE;
    }

    /// Plays `m` on a copy after checking that it is legal.
    pub fn play(&self, m: Move) -> Result<Position, IllegalMove> {
        if !self.is_legal(m) {
            return Err(self.why_illegal(m));
        }
        let mut next = self.clone();
        next.make(m);
        Ok(next)
    }

    /// Explains why `m` is not legal here.
    pub fn why_illegal(&self, m: Move) -> IllegalMove {
        let piece = self.piece_at(m.from);
        let reason = match piece {
            None => IllegalReason::NoPiece,
            Some(p) if p.color != self.side => IllegalReason::WrongSide,
            Some(p) => {
                if self.piece_at(m.to).map(|q| q.color) == Some(p.color) {
                    IllegalReason::OwnPieceOnTarget
                } else {
                    let mut pseudo = false;
                    let from = cell_of(m.from);
                    let to = cell_of(m.to);
                    self.generate_from(from, &mut |f, t| pseudo |= f == from && t == to);
                    if !pseudo {
                        IllegalReason::NotHowThePieceMoves
                    } else if self.in_check() {
                        IllegalReason::LeavesKingInCheck { was_in_check: true }
                    } else {
                        let mut scratch = self.cells;
                        let kc = if p.kind == Kind::King {
                            to
                        } else {
                            self.kings[self.side.index()]
                        };
                        scratch[to] = scratch[from];
                        scratch[from] = EMPTY;
                        if p.kind == Kind::King || !kings_face(&scratch, kc) {
                            IllegalReason::LeavesKingInCheck {
                                was_in_check: false,
                            }
                        } else {
                            IllegalReason::KingsFace
                        }
                    }
                }
            }
        };
        IllegalMove {
            mv: m,
            piece,
            reason,
        }
    }

    /// The pseudo-legal moves of the piece on `from` (square index `i`, the
    /// side to move's) that land on `targets` (bit per square index), in the
    /// order [`Self::generate_from`] gives them. A rook or cannon looks only
    /// at the targets on its own rank and file; another piece whose reach
    /// misses every target is passed over without a move made.
    #[inline(always)]
    fn generate_wanted(&self, from: Cell, i: usize, targets: u128, f: &mut impl FnMut(Cell, Cell)) {
        if targets == u128::MAX {
            return self.generate_from(from, f);
        }
        let code = kind_code(self.cells[from]);
        if code == 4 || code == 5 {
            return self.slide_to(from, code == 4, targets, f);
        }
        let reach = match code {
            3 => REACH[i].horse,
            2 => REACH[i].elephant,
            1 => REACH[i].advisor,
            _ => REACH[i].beside,
        };
        if reach & targets == 0 {
            return;
        }
        self.generate_from(from, &mut |fr, to| {
            if targets & cell_bit(to) != 0 {
                f(fr, to);
            }
        });
    }

    /// [`Self::generate_wanted`] for a rook (`rook`) or a cannon: the
    /// sliding tables give its rank and file, masked by the targets there.
    #[inline(always)]
    fn slide_to(&self, from: Cell, rook: bool, targets: u128, f: &mut impl FnMut(Cell, Cell)) {
        let cells = &self.cells;
        let (lo, hi) = code_range(self.side.opponent());
        let r = (from >> 4) - 3;
        let fl = (from & 15) - 3;
        let row = from & !15;
        let col = from & 15;
        // The targets on the piece's rank and file, as line bits.
        let on_rank = ((targets >> (r * 9)) as u32) & 0x1FF;
        let mut on_file = 0u32;
        for i in Bits::of(targets & FILE_MASK[fl]) {
            on_file |= 1 << (i / 9);
        }
        let (rank_occ, file_occ) = (self.rank_occ[r] as u32, self.file_occ[fl] as u32);
        let along_rank = if on_rank != 0 {
            RANK_SLIDES[fl][rank_occ as usize]
        } else {
            0
        };
        let along_file = if on_file != 0 {
            FILE_SLIDES[r][file_occ as usize]
        } else {
            0
        };
        let mut quiet = along_rank & !rank_occ & on_rank;
        while quiet != 0 {
            f(from, row + 3 + quiet.trailing_zeros() as usize);
            quiet &= quiet - 1;
        }
        let mut quiet = along_file & !file_occ & on_file;
        while quiet != 0 {
            f(from, ((quiet.trailing_zeros() as usize + 3) << 4) + col);
            quiet &= quiet - 1;
        }
        let (mut rank_caps, mut file_caps) = if rook {
            (
                along_rank & rank_occ & on_rank,
                along_file & file_occ & on_file,
            )
        } else {
            ((along_rank >> 16) & on_rank, (along_file >> 16) & on_file)
        };
        while rank_caps != 0 {
            let t = row + 3 + rank_caps.trailing_zeros() as usize;
            if cells[t] >= lo && cells[t] <= hi {
                f(from, t);
            }
            rank_caps &= rank_caps - 1;
        }
        while file_caps != 0 {
            let t = ((file_caps.trailing_zeros() as usize + 3) << 4) + col;
            if cells[t] >= lo && cells[t] <= hi {
                f(from, t);
            }
            file_caps &= file_caps - 1;
        }
    }

    /// Pseudo-legal moves of the piece on `from` (which must belong to the side to move).
    #[inline]
    fn generate_from(&self, from: Cell, f: &mut impl FnMut(Cell, Cell)) {
        self.generate_from_as(self.side, from, f);
    }

    /// The points holding a piece of `by`'s opponent that some piece of
    /// `by` could capture by the movement rules alone, were `by` to move
    /// (bit `i` for square index `i`; pins and the own king ignored, the
    /// facing kings included). A superset of the points with an attacker in
    /// [`crate::tactics::attack::attackers`]: one pass over `by`'s pieces
    /// tells which of the enemy pieces are worth asking about at all.
    pub fn capture_targets(&self, by: Color) -> u128 {
        let enemy = self.occupied[by.opponent().index()];
        let mut out = 0u128;
        for i in Bits::of(self.occupied[by.index()]) {
            let from = CELL_OF_INDEX[i] as usize;
            let code = kind_code(self.cells[from]);
            if code == 4 || code == 5 {
                // A rook takes the first piece each way, a cannon the first
                // beyond the screen: the sliding tables give both, and only
                // the captures are wanted, not the quiet moves.
                let (r, fl) = (i / 9, i % 9);
                let along_rank = RANK_SLIDES[fl][self.rank_occ[r] as usize];
                let along_file = FILE_SLIDES[r][self.file_occ[fl] as usize];
                let (rank_caps, file_caps) = if code == 4 {
                    (
                        along_rank & u32::from(self.rank_occ[r]),
                        along_file & u32::from(self.file_occ[fl]),
                    )
                } else {
                    (along_rank >> 16, along_file >> 16)
                };
                out |= ((u128::from(rank_caps) << (r * 9))
                    | (FILE_SPREAD[file_caps as usize] << fl))
                    & enemy;
                continue;
            }
            let reach = match code {
                3 => REACH[i].horse,
                2 => REACH[i].elephant,
                1 => REACH[i].advisor,
                _ => REACH[i].beside,
            };
            if reach & enemy == 0 {
                continue;
            }
            self.generate_from_as(by, from, &mut |_, to| {
                if self.cells[to] != EMPTY {
                    out |= cell_bit(to);
                }
            });
        }
        let (ours, theirs) = (self.kings[by.index()], self.kings[by.opponent().index()]);
        if ours & 15 == theirs & 15 {
            let (lo, hi) = (ours.min(theirs), ours.max(theirs));
            if (lo + 16..hi).step_by(16).all(|c| self.cells[c] == EMPTY) {
                out |= cell_bit(theirs);
            }
        }
        out
    }

    /// Where a move of the side to move may check the enemy king, on the
    /// board as it stands (see [`CheckSquares`]): the first three pieces
    /// each way along the king's rank and file, read off the occupancy
    /// bits, and the king's four diagonal neighbours.
    pub(crate) fn check_squares(&self) -> CheckSquares {
        let us = self.side;
        let k = self.kings[us.opponent().index()];
        let (lo, hi) = code_range(us);
        let ours = |c: u8| c >= lo && c <= hi;
        let rook = code_of(us, Kind::Rook);
        let cannon = code_of(us, Kind::Cannon);
        let horse = code_of(us, Kind::Horse);
        let (kr, kf) = ((k >> 4) - 3, (k & 15) - 3);
        let mut out = CheckSquares::default();
        let codes = [rook, cannon];
        let rocc = u32::from(self.rank_occ[kr]);
        let focc = u32::from(self.file_occ[kf]);
        // The king's rank (line bit i is file i) and file (line bit i is
        // rank i), each both ways; written out so that each way's `up` is
        // a constant.
        let rank = |bits: u32| u128::from(bits) << (kr * 9);
        let rank_cell = |i: u32| (k & !15) + 3 + i as usize;
        let file = |bits: u32| FILE_SPREAD[bits as usize] << kf;
        let file_cell = |i: u32| ((i as usize + 3) << 4) + (k & 15);
        let (rf, ff) = (kf as u32, kr as u32);
        // Each line's two ways are gathered as line bits and spread onto
        // the board once: a 128-bit shift costs more than the rest.
        macro_rules! way {
            ($occ:expr, $at:expr, $len:expr, $up:expr, $cell:expr, $acc:expr) => {
                self.check_line(line_way($occ, $at, $len, $up), $cell, ours, codes, $acc)
            };
        }
        let (mut on_rank, mut on_file) = (LineChecks::default(), LineChecks::default());
        way!(rocc, rf, 9, true, rank_cell, &mut on_rank);
        way!(rocc, rf, 9, false, rank_cell, &mut on_rank);
        way!(focc, ff, 10, true, file_cell, &mut on_file);
        way!(focc, ff, 10, false, file_cell, &mut on_file);
        out.rook = rank(on_rank.rook) | file(on_file.rook);
        out.cannon = rank(on_rank.cannon) | file(on_file.cannon);
        if on_rank.screen | on_file.screen != 0 {
            out.screen = rank(on_rank.screen) | file(on_file.screen);
        }
        if on_rank.discover | on_file.discover != 0 {
            out.discover = rank(on_rank.discover) | file(on_file.discover);
        }
        // A horse checks from the two points beyond an empty leg; our piece
        // on the leg of our horse there discovers a check by leaving.
        for (j, d) in DIAG.into_iter().enumerate() {
            let leg = offset(k, d);
            let x = self.cells[leg];
            if x == OFF {
                continue;
            }
            let points = HORSE_BEYOND[square_of(leg).index()][j];
            if x == EMPTY {
                out.horse |= points.0;
            } else if ours(x)
                && (self.cells[points.1[0]] == horse || self.cells[points.1[1]] == horse)
            {
                out.discover |= cell_bit(leg);
            }
        }
        out
    }

    /// [`Self::check_squares`] along one way of one of the king's lines,
    /// into `out` as line bits: `cell` turns a line bit index into a cell;
    /// `codes` are our rook's and cannon's.
    #[inline(always)]
    fn check_line(
        &self,
        way: LineWay,
        cell: impl Fn(u32) -> Cell,
        ours: impl Fn(u8) -> bool,
        [rook, cannon]: [u8; 2],
        out: &mut LineChecks,
    ) {
        let piece = |n: usize| {
            if n < way.count {
                self.cells[cell(way.pieces[n])]
            } else {
                EMPTY
            }
        };
        let one = |n: usize| {
            if n < way.count {
                1u32 << way.pieces[n]
            } else {
                0
            }
        };
        // A rook checks from the empty points up to the first piece, or by
        // taking it; a cannon from beyond it up to the second.
        out.rook |= way.near | one(0);
        out.cannon |= way.far | one(1);
        let first = piece(0);
        if first == cannon {
            // Our cannon with nothing before it: a piece entering the gap is
            // its screen; the cannon itself checks by taking the third piece
            // over the second.
            out.screen |= way.near;
            out.cannon |= one(2);
        }
        if ours(first) && piece(1) == rook {
            // Our piece alone between our rook and the king.
            out.discover |= one(0);
        }
        if piece(2) == cannon {
            // Two pieces before our cannon: either of ours leaving (or taking
            // the other along the line) leaves it one screen.
            let mine = (u32::from(ours(first)) * one(0)) | (u32::from(ours(piece(1))) * one(1));
            out.discover |= mine;
        }
    }

    /// Pseudo-legal moves of the piece on `from`, which belongs to `us`.
    #[inline]
    fn generate_from_as(&self, us: Color, from: Cell, f: &mut impl FnMut(Cell, Cell)) {
        let cells = &self.cells;
        let (lo, hi) = code_range(us.opponent());
        let target_ok = |c: u8| c == EMPTY || (c >= lo && c <= hi);
        let c = cells[from];
        if c == EMPTY || c == OFF {
            return;
        }
        match kind_code(c) {
            // Rook and cannon: the sliding tables give the whole rank and
            // file at once; only captures need the colour of the target.
            4 | 5 => {
                let r = (from >> 4) - 3;
                let fl = (from & 15) - 3;
                let rank_occ = self.rank_occ[r] as u32;
                let file_occ = self.file_occ[fl] as u32;
                let along_rank = RANK_SLIDES[fl][rank_occ as usize];
                let along_file = FILE_SLIDES[r][file_occ as usize];
                let row = from & !15;
                let col = from & 15;
                let mut quiet = along_rank & !rank_occ & 0x1FF;
                while quiet != 0 {
                    f(from, row + 3 + quiet.trailing_zeros() as usize);
                    quiet &= quiet - 1;
                }
                let mut quiet = along_file & !file_occ & 0x3FF;
                while quiet != 0 {
                    f(from, ((quiet.trailing_zeros() as usize + 3) << 4) + col);
                    quiet &= quiet - 1;
                }
                let (mut rank_caps, mut file_caps) = if kind_code(c) == 4 {
                    (along_rank & rank_occ & 0x1FF, along_file & file_occ & 0x3FF)
                } else {
                    (along_rank >> 16, along_file >> 16)
                };
                while rank_caps != 0 {
                    let t = row + 3 + rank_caps.trailing_zeros() as usize;
                    let x = cells[t];
                    if x >= lo && x <= hi {
                        f(from, t);
                    }
                    rank_caps &= rank_caps - 1;
                }
                while file_caps != 0 {
                    let t = ((file_caps.trailing_zeros() as usize + 3) << 4) + col;
                    let x = cells[t];
                    if x >= lo && x <= hi {
                        f(from, t);
                    }
                    file_caps &= file_caps - 1;
                }
            }
            // Horse
            3 => {
                for (leg, jump) in HORSE_JUMPS {
                    if cells[offset(from, leg)] == EMPTY {
                        let t = offset(from, jump);
                        if target_ok(cells[t]) {
                            f(from, t);
                        }
                    }
                }
            }
            // Pawn
            6 => {
                let fwd = if us == Color::Red { N } else { S };
                let t = offset(from, fwd);
                if target_ok(cells[t]) {
                    f(from, t);
                }
                if FLAGS[from] & home_flag(us) == 0 {
                    for d in [1isize, -1] {
                        let t = offset(from, d);
                        if target_ok(cells[t]) {
                            f(from, t);
                        }
                    }
                }
            }
            // Elephant
            2 => {
                let home = home_flag(us);
                for d in DIAG {
                    if cells[offset(from, d)] == EMPTY {
                        let t = offset(from, 2 * d);
                        if FLAGS[t] & home != 0 && target_ok(cells[t]) {
                            f(from, t);
                        }
                    }
                }
            }
            // Advisor
            1 => {
                let palace = palace_flag(us);
                for d in DIAG {
                    let t = offset(from, d);
                    if FLAGS[t] & palace != 0 && target_ok(cells[t]) {
                        f(from, t);
                    }
                }
            }
            // King
            _ => {
                let palace = palace_flag(us);
                for d in ORTH {
                    let t = offset(from, d);
                    if FLAGS[t] & palace != 0 && target_ok(cells[t]) {
                        f(from, t);
                    }
                }
            }
        }
    }

    /// Calls `f` for every legal move. Most moves cannot change whether the
    /// mover's king is attacked, so only the moves [`Position::fill_risk`]
    /// flags are tested on the board as it would be after them; a piece whose
    /// point is not flagged, when no entry point is flagged either, has all
    /// its pseudo-legal moves legal.
    #[inline]
    fn for_each_legal(&self, mut f: impl FnMut(Move)) {
        let _ = self.generate_legal(
            |_| true,
            |m| {
                f(m);
                true
            },
        );
    }

    /// The legal moves `keep` accepts, `keep` asked before the legality
    /// test (searches that want only captures and checks skip the test for
    /// every other move). `f` returns `false` to stop the generation.
    #[inline]
    /// Returns whether the side to move is in check (found on the way).
    fn generate_legal(&self, keep: impl FnMut(Move) -> bool, f: impl FnMut(Move) -> bool) -> bool {
        self.generate_legal_in(None, false, keep, f)
    }

    /// [`Self::generate_legal`], out of check only towards what `wanted`
    /// admits (see [`Self::legal_moves_wanted`]).
    #[inline]
    fn generate_legal_in(
        &self,
        wanted: Option<&Wanted>,
        untested_answers: bool,
        mut keep: impl FnMut(Move) -> bool,
        mut f: impl FnMut(Move) -> bool,
    ) -> bool {
        let us = self.side;
        let them = us.opponent();
        let ksq = self.kings[us.index()];
        let mut risk = Risk {
            flags: [0; 256],
            any_entry: false,
            resolve: 0,
        };
        let in_check = self.fill_risk(ksq, them, &mut risk);
        if in_check {
            self.fill_resolvers(ksq, them, &mut risk);
        }
        let r = &risk;
        let mut go = true;
        let mut bits = Bits::of(self.occupied[us.index()]);
        while go {
            let Some(i) = bits.next() else {
                break;
            };
            let from = CELL_OF_INDEX[i] as usize;
            let sq = Square::from_index_unchecked(i as u8);
            // Out of check, the targets `wanted` admits from here.
            let targets = match wanted {
                Some(w) if !in_check => {
                    // Rarely any piece is free (a discovered check's).
                    if w.free_from != 0 && w.free_from & bit(i) != 0 {
                        u128::MAX
                    } else {
                        w.to | w.to_by_kind[kind_code(self.cells[from]) as usize]
                    }
                }
                _ => u128::MAX,
            };
            if targets == 0 {
                continue;
            }
            let mut emit = |to: Cell, test: bool, in_check: bool| {
                if !go {
                    return;
                }
                let m = Move::new(sq, square_of(to));
                if keep(m)
                    && (!test
                        || (in_check && untested_answers)
                        || self.leaves_king_safe(from, to, ksq, them, in_check))
                {
                    go = f(m);
                }
            };
            if in_check {
                if from == ksq || r.flags[from] & RESOLVE != 0 {
                    self.generate_from(from, &mut |_, to| emit(to, true, true));
                } else {
                    self.generate_wanted(from, i, r.resolve, &mut |_, to| emit(to, true, true));
                }
            } else if r.flags[from] & LEAVE != 0 {
                self.generate_wanted(from, i, targets, &mut |_, to| {
                    emit(to, true, false);
                });
            } else if r.any_entry {
                self.generate_wanted(from, i, targets, &mut |_, to| {
                    emit(to, r.flags[to] & ENTER != 0, false);
                });
            } else {
                self.generate_wanted(from, i, targets, &mut |_, to| {
                    emit(to, false, false);
                });
            }
        }
        in_check
    }

    /// For a side in check: the moves that may answer the check, before
    /// the legality test, in the order of [`Self::legal_moves`] (whose
    /// moves are exactly those of them that pass
    /// [`Self::keeps_own_king_safe`]). A search that stops at the first
    /// answer that works tests only the answers it tries. Into `list`,
    /// emptied first (a search keeps one list per ply).
    pub(crate) fn check_answer_candidates_into(&self, list: &mut MoveList) {
        list.clear();
        self.generate_legal(
            |m| {
                list.push(m);
                false
            },
            |_| true,
        );
    }

    /// The legal moves `keep` accepts; `keep` is asked before the (more
    /// costly) legality test.
    pub fn legal_moves_where(&self, keep: impl FnMut(Move) -> bool) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(keep, |m| {
            list.push(m);
            true
        });
        list
    }

    /// The legal moves `keep` accepts among those `wanted` admits, and
    /// whether the side to move is in check. In check, `wanted` is not
    /// looked at (every answer to check counts). Out of check, a piece whose
    /// `wanted` targets are empty is passed over, and the others' moves
    /// elsewhere are never made into moves: the searches that want only
    /// captures and checks skip most of the generation that way.
    pub fn legal_moves_wanted(
        &self,
        wanted: &Wanted,
        keep: impl FnMut(Move) -> bool,
    ) -> (MoveList, bool) {
        let mut list = MoveList::new();
        let in_check = self.legal_moves_wanted_into(wanted, keep, &mut list);
        (list, in_check)
    }

    /// [`Self::legal_moves_wanted`] into `list`, emptied first; returns
    /// whether the side to move is in check.
    pub(crate) fn legal_moves_wanted_into(
        &self,
        wanted: &Wanted,
        keep: impl FnMut(Move) -> bool,
        list: &mut MoveList,
    ) -> bool {
        list.clear();
        self.generate_legal_in(Some(wanted), false, keep, |m| {
            list.push(m);
            true
        })
    }

    /// [`Self::legal_moves_wanted`] for a search that stops at the first
    /// answer to check that works: in check, the answers come untested, as
    /// [`Self::check_answer_candidates_into`] gives them, for the search to test
    /// with [`Self::keeps_own_king_safe`] as it tries them. Out of check the
    /// moves are legal, as there. Fills `list`, emptied first, and returns
    /// whether the side to move is in check.
    pub(crate) fn candidates_wanted_into(&self, wanted: &Wanted, list: &mut MoveList) -> bool {
        list.clear();
        self.generate_legal_in(
            Some(wanted),
            true,
            |_| true,
            |m| {
                list.push(m);
                true
            },
        )
    }

    /// Whether moving the piece on `from` to `to` leaves its own king
    /// unattacked, whichever side is to move (`true` for an empty `from`):
    /// the legality test of a capture asked of either side, as the attack
    /// questions ask it.
    pub(crate) fn keeps_own_king_safe(&self, from: Square, to: Square) -> bool {
        self.keeps_own_king_safe_given(from, to, true)
    }

    /// [`Self::keeps_own_king_safe`] for a caller that knows whether the
    /// mover's king stands attacked now (`in_check`). Out of check the
    /// test looks only at the king's lines and the horse leg the move
    /// touches, as the legal generation does: a capture asked of a side not
    /// in check, the common case of the attack questions, costs a fraction
    /// of the full test.
    pub(crate) fn keeps_own_king_safe_given(
        &self,
        from: Square,
        to: Square,
        in_check: bool,
    ) -> bool {
        let f = cell_of(from);
        let Some(p) = decode(self.cells[f]) else {
            return true;
        };
        let us = p.color;
        self.leaves_king_safe(
            f,
            cell_of(to),
            self.kings[us.index()],
            us.opponent(),
            in_check,
        )
    }

    /// Whether the move `from → to` leaves the mover's king (on `ksq`) safe.
    /// Out of check, a move other than the king's can only open or close the
    /// king's rank and file and the horse leg it leaves, so only those are
    /// looked at; a king move or an answer to check gets the full test.
    #[inline]
    fn leaves_king_safe(
        &self,
        from: Cell,
        to: Cell,
        ksq: Cell,
        them: Color,
        in_check: bool,
    ) -> bool {
        let after = After {
            cells: &self.cells,
            from,
            to,
            piece: self.cells[from],
        };
        let king = if from == ksq { to } else { ksq };
        let full = in_check || from == ksq;
        // Out of check, a line through the king changes only if the move
        // touches it.
        let rank = full || from & !15 == ksq & !15 || to & !15 == ksq & !15;
        let file = full || from & 15 == ksq & 15 || to & 15 == ksq & 15;
        if (rank || file) && self.line_attacked_after(&after, king, them, rank, file) {
            return false;
        }
        let horse = code_of(them, Kind::Horse);
        if full {
            for (leg, h) in HORSE_ATTACKERS {
                if after.get(offset(king, h)) == horse && after.get(offset(king, leg)) == EMPTY {
                    return false;
                }
            }
            let pawn = code_of(them, Kind::Pawn);
            let behind = if them == Color::Red { S } else { N };
            return !(after.get(offset(king, behind)) == pawn
                || (FLAGS[king] & home_flag(them) == 0
                    && (after.get(offset(king, 1)) == pawn
                        || after.get(offset(king, -1)) == pawn)));
        }
        let leg = from as isize - ksq as isize;
        if matches!(leg, 15 | 17 | -15 | -17) {
            for (l, h) in HORSE_ATTACKERS {
                if l == leg && after.get(offset(ksq, h)) == horse {
                    return false;
                }
            }
        }
        true
    }

    /// Rook, cannon and facing-king attacks on `k` along its rank and file
    /// on the board `after` a move, read from the sliding tables with the
    /// two lines' occupancy patched for the move.
    #[inline(always)]
    fn line_attacked_after(
        &self,
        after: &After<'_>,
        k: Cell,
        them: Color,
        rank: bool,
        file: bool,
    ) -> bool {
        let (from, to) = (after.from, after.to);
        let kr = (k >> 4) - 3;
        let kf = (k & 15) - 3;
        let row = k & !15;
        let col = k & 15;
        let mut rocc = self.rank_occ[kr] as u32;
        let mut focc = self.file_occ[kf] as u32;
        if from & !15 == row {
            rocc &= !(1 << ((from & 15) - 3));
        }
        if from & 15 == col {
            focc &= !(1 << ((from >> 4) - 3));
        }
        if to & !15 == row {
            rocc |= 1 << ((to & 15) - 3);
        }
        if to & 15 == col {
            focc |= 1 << ((to >> 4) - 3);
        }
        let rook = code_of(them, Kind::Rook);
        let cannon = code_of(them, Kind::Cannon);
        let king = code_of(them, Kind::King);
        let e = if rank {
            RANK_SLIDES[kf][rocc as usize]
        } else {
            0
        };
        let mut first = e & rocc & 0x1FF;
        while first != 0 {
            if after.get(row + 3 + first.trailing_zeros() as usize) == rook {
                return true;
            }
            first &= first - 1;
        }
        let mut second = e >> 16;
        while second != 0 {
            if after.get(row + 3 + second.trailing_zeros() as usize) == cannon {
                return true;
            }
            second &= second - 1;
        }
        if !file {
            return false;
        }
        let e = FILE_SLIDES[kr][focc as usize];
        let mut first = e & focc & 0x3FF;
        while first != 0 {
            let x = after.get(((first.trailing_zeros() as usize + 3) << 4) + col);
            if x == rook || x == king {
                return true;
            }
            first &= first - 1;
        }
        let mut second = e >> 16;
        while second != 0 {
            if after.get(((second.trailing_zeros() as usize + 3) << 4) + col) == cannon {
                return true;
            }
            second &= second - 1;
        }
        false
    }

    /// The rank and the file through the point `k`, as the sliding tables
    /// see them.
    #[inline(always)]
    fn lines_through(
        &self,
        k: Cell,
    ) -> (
        Line<512, impl Fn(u32) -> Cell>,
        Line<1024, impl Fn(u32) -> Cell>,
    ) {
        let kr = (k >> 4) - 3;
        let kf = (k & 15) - 3;
        let row = k & !15;
        let col = k & 15;
        let rank = Line {
            slides: &RANK_SLIDES[kf],
            occ: self.rank_occ[kr] as u32,
            pos: kf,
            vertical: false,
            cell: move |b: u32| row + 3 + b as usize,
        };
        let file = Line {
            slides: &FILE_SLIDES[kr],
            occ: self.file_occ[kf] as u32,
            pos: kr,
            vertical: true,
            cell: move |b: u32| ((b as usize + 3) << 4) + col,
        };
        (rank, file)
    }

    /// For a king not in check: the points a piece may not leave, and the
    /// points a piece may not enter, without possibly exposing the king.
    /// Leaving: the king itself, the first piece on a line towards an enemy
    /// rook or the facing king, the two pieces in front of an enemy cannon
    /// two pieces away, and the leg of an enemy horse aimed at the king.
    /// Entering: the empty points between the king and an enemy cannon with
    /// no screen (the newcomer would become the screen). `None` when the
    /// king is in check: then every move is tested. The same table look-ups
    /// answer both questions, which is why they live in one function.
    #[inline]
    fn fill_risk(&self, k: Cell, them: Color, risk: &mut Risk) -> bool {
        let cells = &self.cells;
        risk.flags[k] |= LEAVE;
        let (rank, file) = self.lines_through(k);
        let codes = LineCodes::of(them);
        if line_risk(cells, &rank, &codes, risk) || line_risk(cells, &file, &codes, risk) {
            return true;
        }
        let horse = code_of(them, Kind::Horse);
        for (leg, h) in HORSE_ATTACKERS {
            if cells[offset(k, h)] == horse {
                if cells[offset(k, leg)] == EMPTY {
                    return true;
                }
                risk.flags[offset(k, leg)] |= LEAVE;
            }
        }
        let pawn = code_of(them, Kind::Pawn);
        let behind = if them == Color::Red { S } else { N };
        cells[offset(k, behind)] == pawn
            || (FLAGS[k] & home_flag(them) == 0
                && (cells[offset(k, 1)] == pawn || cells[offset(k, -1)] == pawn))
    }

    /// For a king in check: marks every point a move must leave or reach to
    /// have a chance of answering the check — each checker's point, the
    /// points between a rook, cannon or facing king and the king (a cannon's
    /// screen among them), the leg of a checking horse. A move of another
    /// piece touching none of them cannot be legal, so only the others are
    /// tested.
    fn fill_resolvers(&self, k: Cell, them: Color, risk: &mut Risk) {
        let cells = &self.cells;
        let (rank, file) = self.lines_through(k);
        let codes = LineCodes::of(them);
        line_resolvers(cells, &rank, &codes, risk);
        line_resolvers(cells, &file, &codes, risk);
        let horse = code_of(them, Kind::Horse);
        for (leg, h) in HORSE_ATTACKERS {
            if cells[offset(k, h)] == horse && cells[offset(k, leg)] == EMPTY {
                risk.resolve(offset(k, h));
                risk.resolve(offset(k, leg));
            }
        }
        let pawn = code_of(them, Kind::Pawn);
        for d in ORTH {
            if cells[offset(k, d)] == pawn {
                risk.resolve(offset(k, d));
            }
        }
    }
}

/// Leaving this point may expose the king.
const LEAVE: u8 = 1;
/// Entering this point may expose the king (as a cannon's new screen).
const ENTER: u8 = 2;
/// In check: a move must leave or reach this point to answer the check.
const RESOLVE: u8 = 4;

/// The moves a search wants from a position out of check (see
/// [`Position::legal_moves_wanted`]), as points by square index (bit `i`
/// for square index `i`): moves landing on `to`, moves of a piece of kind
/// `k` landing on `to_by_kind[k]` (by [`Kind::index`]), and every move of a
/// piece standing on `free_from`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wanted {
    pub to: u128,
    pub to_by_kind: [u128; 7],
    pub free_from: u128,
}

/// One way along a line from a point: the first three pieces (line bit
/// indices), the empty points before the first (`near`) and between the
/// first and the second (`far`), as line bits.
struct LineWay {
    pieces: [u32; 3],
    count: usize,
    near: u32,
    far: u32,
}

/// The line with occupancy `occ` (`len` points), from point `at` towards
/// higher indices (`up`) or lower ones.
#[inline(always)]
fn line_way(occ: u32, at: u32, len: u32, up: bool) -> LineWay {
    let all = (1u32 << len) - 1;
    // The points beyond `at` that way.
    let ahead = if up {
        all & !((2u32 << at) - 1)
    } else {
        (1u32 << at) - 1
    };
    let mut rest = occ & ahead;
    let mut pieces = [0u32; 3];
    let mut count = 0;
    while rest != 0 && count < 3 {
        let i = if up {
            rest.trailing_zeros()
        } else {
            31 - rest.leading_zeros()
        };
        pieces[count] = i;
        count += 1;
        rest &= !(1u32 << i);
    }
    // The points of `ahead` strictly nearer than the n-th piece (all of
    // them when there is none).
    let before = |n: usize| {
        if n >= count {
            ahead
        } else if up {
            ahead & ((1u32 << pieces[n]) - 1)
        } else {
            ahead & !((2u32 << pieces[n]) - 1)
        }
    };
    let near = before(0);
    let far = if count == 0 {
        0
    } else {
        before(1) & !near & !(1u32 << pieces[0])
    };
    LineWay {
        pieces,
        count,
        near,
        far,
    }
}

/// File bits (bit `r` for rank `r`) as square bits on file a; shifted left
/// by the file for the others.
static FILE_SPREAD: [u128; 1024] = {
    let mut t = [0u128; 1024];
    let mut bits = 0;
    while bits < 1024 {
        let mut r = 0;
        while r < 10 {
            if bits & (1 << r) != 0 {
                t[bits] |= 1u128 << (r * 9);
            }
            r += 1;
        }
        bits += 1;
    }
    t
};

/// Each file's squares (bit `i` for square index `i`).
static FILE_MASK: [u128; 9] = {
    let mut t = [0u128; 9];
    let mut f = 0;
    while f < 9 {
        t[f] = FILE_SPREAD[0x3FF] << f;
        f += 1;
    }
    t
};

/// Where a piece on a point could ever move to in one move, by kind, side
/// and palace aside (bit per square index): what [`Position::generate_wanted`]
/// asks before generating a piece's moves at all.
#[derive(Clone, Copy)]
struct Reach {
    horse: u128,
    elephant: u128,
    advisor: u128,
    /// The orthogonal neighbours: a king's or a pawn's moves.
    beside: u128,
}

/// The square bit of the point `d` away from cell `c`, if on the board.
const fn point_bit(c: Cell, d: isize) -> u128 {
    let x = (c as isize + d) as usize;
    if FLAGS[x] & ON_BOARD != 0 {
        1u128 << square_of(x).index()
    } else {
        0
    }
}

static REACH: [Reach; 90] = {
    let mut t = [Reach {
        horse: 0,
        elephant: 0,
        advisor: 0,
        beside: 0,
    }; 90];
    let mut i = 0;
    while i < 90 {
        let c = CELL_OF_INDEX[i] as usize;
        let mut j = 0;
        while j < 8 {
            t[i].horse |= point_bit(c, HORSE_JUMPS[j].1);
            j += 1;
        }
        let mut j = 0;
        while j < 4 {
            t[i].elephant |= point_bit(c, 2 * DIAG[j]);
            t[i].advisor |= point_bit(c, DIAG[j]);
            t[i].beside |= point_bit(c, ORTH[j]);
            j += 1;
        }
        i += 1;
    }
    t
};

/// For a point and the diagonal step `DIAG[j]` (indexed `j`) that leads
/// to it from a king: the two points a horse checks that king from over
/// this point as its leg, one step further along each of the step's two
/// parts — as square bits, and as cells (a cell off the board where the
/// point lies at the edge).
static HORSE_BEYOND: [[(u128, [Cell; 2]); 4]; 90] = {
    const DIAG_PARTS: [(isize, isize); 4] = [(N, E), (N, W), (S, E), (S, W)];
    let mut t = [[(0u128, [0usize; 2]); 4]; 90];
    let mut i = 0;
    while i < 90 {
        let leg = CELL_OF_INDEX[i] as usize;
        let mut j = 0;
        while j < 4 {
            let (a, b) = DIAG_PARTS[j];
            let points = [(leg as isize + a) as usize, (leg as isize + b) as usize];
            let mut bits = 0u128;
            let mut n = 0;
            while n < 2 {
                if FLAGS[points[n]] & ON_BOARD != 0 {
                    bits |= 1u128 << square_of(points[n]).index();
                }
                n += 1;
            }
            t[i][j] = (bits, points);
            j += 1;
        }
        i += 1;
    }
    t
};

/// Where a move of the side to move may give check (bit `i` for square
/// index `i`), see [`Position::check_squares`]. A check is new (the enemy
/// king is not in check before the move), so it is direct, by the moved
/// piece from where it lands, or discovered, by what the move changes on a
/// line or a horse leg aimed at the king. The move changes the board only
/// where it leaves and lands, so every check is one of:
/// * a rook landing on `rook`, a cannon on `cannon`, a horse on `horse`
///   (a pawn beside the king is the caller's);
/// * a move of the piece on a `discover` point: the only piece between our
///   rook and the king, one of the two before our cannon (leaving, or taking
///   the other along the line), or the piece on the leg of our horse;
/// * a piece landing on a `screen` point, between the king and our cannon
///   with nothing between them.
///
/// Kings never give check by moving: facing kings would be the mover's own
/// illegal move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CheckSquares {
    pub(crate) rook: u128,
    pub(crate) cannon: u128,
    pub(crate) horse: u128,
    pub(crate) discover: u128,
    pub(crate) screen: u128,
}

/// [`CheckSquares`] along one of the king's lines, as line bits.
#[derive(Clone, Copy, Default)]
struct LineChecks {
    rook: u32,
    cannon: u32,
    screen: u32,
    discover: u32,
}

/// Per-point risk flags for one position's king, see [`Position::fill_risk`].
struct Risk {
    flags: [u8; 256],
    any_entry: bool,
    /// The points flagged [`RESOLVE`], as square bits: the targets of a
    /// piece that does not stand on one of them.
    resolve: u128,
}

impl Risk {
    /// Flags a point a move must leave or reach to answer the check.
    #[inline]
    fn resolve(&mut self, c: Cell) {
        self.flags[c] |= RESOLVE;
        self.resolve |= cell_bit(c);
    }
}

/// The enemy's line pieces, by cell code.
struct LineCodes {
    rook: u8,
    cannon: u8,
    king: u8,
}

impl LineCodes {
    #[inline(always)]
    fn of(them: Color) -> LineCodes {
        LineCodes {
            rook: code_of(them, Kind::Rook),
            cannon: code_of(them, Kind::Cannon),
            king: code_of(them, Kind::King),
        }
    }
}

/// One line (a rank or a file) through a point, as the sliding tables see
/// it: `slides[occ]` gives the first piece each way and, from bit 16, the
/// one beyond it.
struct Line<const L: usize, F: Fn(u32) -> Cell> {
    slides: &'static [u32; L],
    /// The line's occupancy, a bit per point.
    occ: u32,
    /// The point's bit on the line.
    pos: usize,
    /// A file, where the facing kings count.
    vertical: bool,
    /// The cell of a bit of the line.
    cell: F,
}

impl<const L: usize, F: Fn(u32) -> Cell> Line<L, F> {
    /// The table entry, the bits below and above the point, and the first
    /// piece each way.
    #[inline(always)]
    fn read(&self) -> (u32, [u32; 2], u32) {
        let e = self.slides[self.occ as usize];
        let point = 1u32 << self.pos;
        let below = point - 1;
        let above = !below & !point & 0xFFFF;
        (e, [below, above], e & self.occ & 0xFFFF)
    }
}

/// Fills the risk flags for one line (rank or file) through the king, both
/// ways, from the sliding tables: the line's entry gives the first piece
/// each way (P1) and the one beyond it (P2); the entry with P1 taken out
/// gives the next (P3). Returns `true` if the king is attacked on it.
#[inline]
fn line_risk<const L: usize>(
    cells: &[u8; 256],
    line: &Line<L, impl Fn(u32) -> Cell>,
    codes: &LineCodes,
    risk: &mut Risk,
) -> bool {
    let (e, sides, first_all) = line.read();
    let (occ, vertical, cell) = (line.occ, line.vertical, &line.cell);
    let e3 = line.slides[(occ & !first_all) as usize];
    for side in sides {
        let first = first_all & side;
        if first == 0 {
            continue;
        }
        let p1 = cell(first.trailing_zeros());
        let x1 = cells[p1];
        if x1 == codes.rook || (vertical && x1 == codes.king) {
            return true;
        }
        if x1 == codes.cannon {
            let mut empties = e & !occ & side & 0xFFFF;
            while empties != 0 {
                risk.flags[cell(empties.trailing_zeros())] |= ENTER;
                risk.any_entry = true;
                empties &= empties - 1;
            }
        }
        let second = (e >> 16) & side;
        if second == 0 {
            continue;
        }
        let p2 = cell(second.trailing_zeros());
        let x2 = cells[p2];
        if x2 == codes.cannon {
            return true;
        }
        if x2 == codes.rook || (vertical && x2 == codes.king) {
            risk.flags[p1] |= LEAVE;
        }
        let third = (e3 >> 16) & side;
        if third != 0 && cells[cell(third.trailing_zeros())] == codes.cannon {
            risk.flags[p1] |= LEAVE;
            risk.flags[p2] |= LEAVE;
        }
    }
    false
}

/// [`Position::fill_resolvers`] along one line through the king, read
/// from the sliding tables: towards a
/// checking rook or facing king (the first piece) or cannon (the second),
/// every point from the king to the checker, the checker's own included.
#[inline(always)]
fn line_resolvers<const L: usize>(
    cells: &[u8; 256],
    line: &Line<L, impl Fn(u32) -> Cell>,
    codes: &LineCodes,
    risk: &mut Risk,
) {
    let (e, [below, above], first_all) = line.read();
    let (king, vertical, cell) = (1u32 << line.pos, line.vertical, &line.cell);
    for side in [below, above] {
        let first = first_all & side;
        if first == 0 {
            continue;
        }
        let x1 = cells[cell(first.trailing_zeros())];
        let checker = if x1 == codes.rook || (vertical && x1 == codes.king) {
            first
        } else {
            let second = (e >> 16) & side;
            if second == 0 || cells[cell(second.trailing_zeros())] != codes.cannon {
                continue;
            }
            second
        };
        // The span from the king (excluded) to the checker (included).
        let mut span = if checker < king {
            below & !(checker - 1)
        } else {
            ((checker << 1) - 1) & above
        };
        while span != 0 {
            risk.resolve(cell(span.trailing_zeros()));
            span &= span - 1;
        }
    }
}

/// Read access to a board's cells, so that attack tests can run on the
/// real board or on the board one hypothetical move later without copying it.
trait Cells {
    fn get(&self, c: Cell) -> u8;
}

impl Cells for [u8; 256] {
    #[inline(always)]
    fn get(&self, c: Cell) -> u8 {
        self[c]
    }
}

/// The board after `from → to`, seen through the original cells.
struct After<'a> {
    cells: &'a [u8; 256],
    from: Cell,
    to: Cell,
    piece: u8,
}

impl Cells for After<'_> {
    #[inline(always)]
    fn get(&self, c: Cell) -> u8 {
        if c == self.to {
            self.piece
        } else if c == self.from {
            EMPTY
        } else {
            self.cells[c]
        }
    }
}

/// Whether the king on `k` sees the other king along an open file.
fn kings_face(cells: &[u8; 256], k: Cell) -> bool {
    for d in [N, S] {
        let mut t = offset(k, d);
        while cells[t] == EMPTY {
            t = offset(t, d);
        }
        let x = cells[t];
        if x != OFF && kind_code(x) == Kind::King as u8 {
            return true;
        }
    }
    false
}

/// Whether a horse or pawn of `by` attacks the point `sq`.
#[inline]
fn step_attacked(cells: &[u8; 256], sq: Cell, by: Color) -> bool {
    let horse = code_of(by, Kind::Horse);
    for (leg, h) in HORSE_ATTACKERS {
        if cells[offset(sq, h)] == horse && cells[offset(sq, leg)] == EMPTY {
            return true;
        }
    }
    let pawn = code_of(by, Kind::Pawn);
    let behind = if by == Color::Red { S } else { N };
    if cells[offset(sq, behind)] == pawn {
        return true;
    }
    FLAGS[sq] & home_flag(by) == 0
        && (cells[offset(sq, 1)] == pawn || cells[offset(sq, -1)] == pawn)
}

/// Attacks by king, advisor and elephant steps (the pieces that stay home).
fn palace_step_attacked(cells: &[u8; 256], sq: Cell, by: Color) -> bool {
    let home = home_flag(by);
    if FLAGS[sq] & home == 0 {
        return false;
    }
    let palace = palace_flag(by);
    if FLAGS[sq] & palace != 0 {
        let king = code_of(by, Kind::King);
        let advisor = code_of(by, Kind::Advisor);
        if ORTH.iter().any(|&d| cells[offset(sq, d)] == king)
            || DIAG.iter().any(|&d| cells[offset(sq, d)] == advisor)
        {
            return true;
        }
    }
    let elephant = code_of(by, Kind::Elephant);
    DIAG.iter()
        .any(|&d| cells[offset(sq, 2 * d)] == elephant && cells[offset(sq, d)] == EMPTY)
}

/// Why a move is not legal, for diagnostics.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    NoPiece,
    WrongSide,
    OwnPieceOnTarget,
    NotHowThePieceMoves,
    LeavesKingInCheck { was_in_check: bool },
    KingsFace,
}

/// A move that is not legal in a position, with the reason.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    pub mv: Move,
    pub piece: Option<Piece>,
    pub reason: IllegalReason,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.mv;
        match (self.reason, self.piece) {
            (IllegalReason::NoPiece, _) => write!(f, "no piece stands on {} to play `{m}`", m.from),
            (IllegalReason::WrongSide, Some(p)) => write!(
                f,
                "`{m}` moves a {} {} but it is {}'s turn",
                p.color,
                p.kind.english(),
                p.color.opponent()
            ),
            (IllegalReason::OwnPieceOnTarget, _) => {
                write!(f, "`{m}` lands on a piece of the mover's own side")
            }
            (IllegalReason::NotHowThePieceMoves, Some(p)) => {
                write!(
                    f,
                    "a {} cannot move {} to {}",
                    p.kind.english(),
                    m.from,
                    m.to
                )
            }
            (IllegalReason::LeavesKingInCheck { was_in_check: true }, _) => {
                write!(f, "`{m}` does not answer the check")
            }
            (IllegalReason::LeavesKingInCheck { .. }, _) => {
                write!(f, "`{m}` leaves the mover's king in check")
            }
            (IllegalReason::KingsFace, _) => {
                write!(f, "`{m}` leaves the two kings facing on an open file")
            }
            (_, None) => write!(f, "`{m}` is not legal"),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// An unvalidated position: any placement, any side to move. Turn it into a
/// [`Position`] with [`Setup::validate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub board: [Option<Piece>; 90],
    pub side: Color,
}

impl Setup {
    pub fn empty() -> Setup {
        Setup {
            board: [None; 90],
            side: Color::Red,
        }
    }

    pub fn put(&mut self, sq: Square, piece: Option<Piece>) {
        self.board[sq.index()] = piece;
    }

    /// Checks every rule a real position obeys and returns all the
    /// violations found, in the order a FEN writes the board, or the position.
    pub fn validate(&self) -> Result<Position, Vec<SetupError>> {
        let mut errors = Vec::new();
        let mut counts = [0usize; 14];
        let mut kings: [Option<Square>; 2] = [None, None];
        // FEN order (rank 9 first), so that "the second king" is the second one written.
        let fen_order = (0..10u8)
            .rev()
            .flat_map(|r| (0..9u8).map(move |f| r * 9 + f));
        for sq in fen_order.filter_map(|i| Square::from_index(i as usize)) {
            let Some(p) = self.board[sq.index()] else {
                continue;
            };
            counts[p.index()] += 1;
            let limit = match p.kind {
                Kind::King => 1,
                Kind::Pawn => 5,
                _ => 2,
            };
            if counts[p.index()] > limit {
                errors.push(SetupError::TooMany {
                    piece: p,
                    square: sq,
                    limit,
                });
                continue;
            }
            let placed_ok = match p.kind {
                Kind::King => sq.in_palace(p.color),
                Kind::Advisor => sq.is_advisor_point(p.color),
                Kind::Elephant => sq.is_elephant_point(p.color),
                Kind::Pawn => sq.is_pawn_point(p.color),
                _ => true,
            };
            if !placed_ok {
                errors.push(SetupError::Misplaced {
                    piece: p,
                    square: sq,
                });
            }
            if p.kind == Kind::King {
                kings[p.color.index()] = Some(sq);
            }
        }
        for color in Color::ALL {
            if kings[color.index()].is_none() {
                errors.push(SetupError::MissingKing { color });
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let pos = Position::from_board_unchecked(&self.board, self.side);
        let red = pos.king(Color::Red);
        let black = pos.king(Color::Black);
        if kings_face(&pos.cells, pos.kings[0]) {
            errors.push(SetupError::KingsFacing { red, black });
        } else if pos.is_in_check(self.side.opponent()) {
            errors.push(SetupError::OpponentInCheck {
                color: self.side.opponent(),
                king: pos.king(self.side.opponent()),
            });
        }
        if errors.is_empty() {
            Ok(pos)
        } else {
            Err(errors)
        }
    }
}

/// A rule of the board that a [`Setup`] breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    MissingKing {
        color: Color,
    },
    TooMany {
        piece: Piece,
        square: Square,
        limit: usize,
    },
    Misplaced {
        piece: Piece,
        square: Square,
    },
    KingsFacing {
        red: Square,
        black: Square,
    },
    OpponentInCheck {
        color: Color,
        king: Square,
    },
}

impl SetupError {
    /// The square the error is about, for pointing at it.
    pub fn square(&self) -> Option<Square> {
        match *self {
            SetupError::MissingKing { .. } => None,
            SetupError::TooMany { square, .. } | SetupError::Misplaced { square, .. } => {
                Some(square)
            }
            SetupError::KingsFacing { black, .. } => Some(black),
            SetupError::OpponentInCheck { king, .. } => Some(king),
        }
    }

    /// A stable code, `qili::fen::…`.
    pub fn code(&self) -> &'static str {
        match self {
            SetupError::MissingKing { .. } => "qili::fen::missing_king",
            SetupError::TooMany { piece, .. } if piece.kind == Kind::King => {
                "qili::fen::extra_king"
            }
            SetupError::TooMany { .. } => "qili::fen::too_many_pieces",
            SetupError::Misplaced { piece, .. } => match piece.kind {
                Kind::King => "qili::fen::king_outside_palace",
                Kind::Advisor => "qili::fen::advisor_off_points",
                Kind::Elephant => "qili::fen::elephant_off_points",
                _ => "qili::fen::pawn_off_points",
            },
            SetupError::KingsFacing { .. } => "qili::fen::kings_facing",
            SetupError::OpponentInCheck { .. } => "qili::fen::side_not_to_move_in_check",
        }
    }

    /// What to do about it.
    pub fn help(&self) -> String {
        match self {
            SetupError::MissingKing { color } => format!(
                "every position has exactly one {} king ({})",
                color,
                Piece::new(*color, Kind::King).fen_char()
            ),
            SetupError::TooMany { piece, limit, .. } => format!(
                "a side has at most {limit} {}; Xiangqi has no promotion",
                plural(piece.kind, *limit)
            ),
            SetupError::Misplaced { piece, .. } => match piece.kind {
                Kind::King => "the king never leaves its palace: files d–f, ranks 0–2 for red, 7–9 for black".into(),
                Kind::Advisor => "an advisor stands only on the palace's four corners and its centre".into(),
                Kind::Elephant => "an elephant stands only on its seven points and never crosses the river".into(),
                _ => "a pawn never moves back; before the river it stands on files a, c, e, g, i, ranks 3–4 from its side".into(),
            },
            SetupError::KingsFacing { .. } => {
                "the kings may not face each other on an open file (飞将); put a piece between them".into()
            }
            SetupError::OpponentInCheck { color, .. } => format!(
                "{color} is in check although it is not {color}'s turn; check the side-to-move field"
            ),
        }
    }
}

fn plural(kind: Kind, n: usize) -> String {
    if n == 1 {
        kind.english().to_string()
    } else {
        format!("{}s", kind.english())
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::MissingKing { color } => write!(f, "the {color} king is missing"),
            SetupError::TooMany { piece, square, .. } if piece.kind == Kind::King => {
                write!(f, "a second {} king on {square}", piece.color)
            }
            SetupError::TooMany {
                piece,
                square,
                limit,
            } => write!(
                f,
                "too many {} {}: the one on {square} is number {}",
                piece.color,
                plural(piece.kind, 2),
                limit + 1
            ),
            SetupError::Misplaced { piece, square } => match piece.kind {
                Kind::King => write!(
                    f,
                    "the {} king on {square} is outside its palace",
                    piece.color
                ),
                Kind::Pawn => write!(f, "a {} pawn can never stand on {square}", piece.color),
                _ => write!(
                    f,
                    "a {} {} can never stand on {square}",
                    piece.color,
                    piece.kind.english()
                ),
            },
            SetupError::KingsFacing { red, black } => {
                write!(
                    f,
                    "the kings face each other on an open file ({red} and {black})"
                )
            }
            SetupError::OpponentInCheck { color, king } => {
                write!(
                    f,
                    "the {color} king on {king} is in check but it is not {color} to move"
                )
            }
        }
    }
}

impl std::error::Error for SetupError {}

// Tests state their expectations by panicking.
#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    /// The walk over a board set's bits gives exactly its set squares,
    /// lowest first, across the two 64-bit halves; and each square's bit
    /// from the tables is the shifted one.
    #[test]
    fn a_board_set_walks_its_squares_in_order() {
        let sets: [u128; 6] = [
            0,
            1,
            1 << 63 | 1 << 64,
            1 << 89,
            (1u128 << 90) - 1,
            0x0123_4567_89ab_cdef_0123_4567_89ab_cdef & ((1u128 << 90) - 1),
        ];
        for set in sets {
            let walked: Vec<usize> = Bits::of(set).collect();
            let expected: Vec<usize> = (0..128).filter(|&i| set >> i & 1 == 1).collect();
            assert_eq!(walked, expected, "{set:#x}");
        }
        for i in 0..90 {
            let sq = Square::from_index_unchecked(i as u8);
            assert_eq!(sq.bit(), 1u128 << i);
            assert_eq!(bit(i), 1u128 << i);
            assert_eq!(cell_bit(cell_of(sq)), 1u128 << i);
        }
        assert!((0..256)
            .filter(|&c| FLAGS[c] & ON_BOARD == 0)
            .all(|c| cell_bit(c) == 0));
    }
}
