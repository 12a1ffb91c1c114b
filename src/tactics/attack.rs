//! Who attacks a point: the ground of 将 (check, brief §2.1) and of every
//! "can take" in 捉 (chase, §2.4), 兑 and 献 (§2.5–2.6).
//!
//! Two notions, because the rules need both:
//!
//! * a **pseudo-attacker** could move onto the point by the movement rules
//!   alone: the horse's leg (蹩马腿) and the elephant's eye (塞象眼) empty,
//!   the cannon with exactly one screen (炮架), the rook's line open, the
//!   elephant on its own half, advisor and king inside their palace, the
//!   pawn forward (and sideways once across the river);
//! * an **attacker** is a pseudo-attacker whose capture is also legal: it
//!   does not leave its own king attacked — so a pinned piece, a king that
//!   would step into an attack, and a capture that opens the file between
//!   the two kings (对脸/飞将) do not attack.
//!
//! A fake root (假根, §2.4) is exactly a pseudo-attacker of a piece's own
//! point that is not an attacker.
//!
//! **What "attacks `sq`" means for any occupant.** Both notions answer "could
//! a piece of `by` capture an enemy piece standing on `sq`?". When `sq`
//! holds an enemy of `by` that is the literal question. When `sq` is empty or
//! holds a piece of `by`'s own colour, it is asked of the hypothetical
//! position where an enemy piece stands on `sq` instead: this is "could
//! recapture there" (protection) and "controls the point". So a cannon needs
//! a screen to attack even an empty point (it moves there without one, but
//! it could not capture there), and the kind of the hypothetical piece never
//! matters, because the capturer replaces it. The flying king (飞将) is
//! counted only when `sq` holds the enemy king.
//!
//! The side to move does not matter: the question is asked as if `by` were
//! to move. The board core's [`Position`] API is used only through its
//! public surface; hypothetical boards are a private copy of the placement.

use std::ops::ControlFlow;

use crate::board::position::CheckSquares;
use crate::board::{Color, Kind, Move, Piece, Position, Square, Wanted};

/// A piece that attacks a point, and where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Attacker {
    pub square: Square,
    pub piece: Piece,
}

/// Read access to a placement: the real position or a hypothetical grid.
pub(crate) trait Occupancy {
    fn at(&self, sq: Square) -> Option<Piece>;
    /// Where `color`'s king stands, if it is on the board.
    fn king_square(&self, color: Color) -> Option<Square>;

    /// The first two occupied points from `sq` (not counting it) along the
    /// line `(df, dr)`: a rook's target and a cannon's.
    #[inline]
    fn blockers(&self, sq: Square, df: i8, dr: i8) -> [Option<Square>; 2] {
        let mut found = [None, None];
        let mut n = 0;
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            cur = next;
            if self.at(cur).is_some() {
                found[n] = Some(cur);
                n += 1;
                if n == 2 {
                    break;
                }
            }
        }
        found
    }
}

impl Occupancy for Position {
    #[inline]
    fn at(&self, sq: Square) -> Option<Piece> {
        self.piece_at(sq)
    }

    /// From the line occupancy bits, without stepping point by point.
    #[inline]
    fn blockers(&self, sq: Square, df: i8, dr: i8) -> [Option<Square>; 2] {
        self.line_blockers(sq, df, dr)
    }

    #[inline]
    fn king_square(&self, color: Color) -> Option<Square> {
        Some(self.king(color))
    }
}

/// A placement seen with one capture played on it (whatever stands on
/// `from` moved to `to`), without copying it: the king-safety test of every
/// candidate attacker looks at the board this way.
struct Moved<'a, B: ?Sized> {
    base: &'a B,
    from: Square,
    to: Square,
    moving: Option<Piece>,
}

impl<B: Occupancy + ?Sized> Occupancy for Moved<'_, B> {
    #[inline]
    fn at(&self, sq: Square) -> Option<Piece> {
        if sq == self.to {
            self.moving
        } else if sq == self.from {
            None
        } else {
            self.base.at(sq)
        }
    }

    #[inline]
    fn king_square(&self, color: Color) -> Option<Square> {
        if self
            .moving
            .is_some_and(|p| p.kind == Kind::King && p.color == color)
        {
            return Some(self.to);
        }
        // A king standing on `to` is the one taken.
        self.base.king_square(color).filter(|&k| k != self.to)
    }
}

/// A plain copy of a placement on which hypothetical captures are played
/// without any legality requirement (a piece may be put anywhere, the side
/// to move is irrelevant). Used to ask "after this capture, is the king
/// safe?" and "after the enemy captures here, who can recapture?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Grid {
    cells: [Option<Piece>; 90],
    kings: [Option<Square>; 2],
}

impl Occupancy for Grid {
    #[inline]
    fn at(&self, sq: Square) -> Option<Piece> {
        self.cells.get(sq.index()).copied().flatten()
    }

    #[inline]
    fn king_square(&self, color: Color) -> Option<Square> {
        self.kings[color.index()]
    }
}

impl Grid {
    pub(crate) fn of(pos: &Position) -> Grid {
        let mut cells = [None; 90];
        for (sq, p) in pos.pieces() {
            if let Some(slot) = cells.get_mut(sq.index()) {
                *slot = Some(p);
            }
        }
        Grid {
            cells,
            kings: [Some(pos.king(Color::Red)), Some(pos.king(Color::Black))],
        }
    }

    /// Moves whatever stands on `from` to `to`, capturing what stood there.
    pub(crate) fn apply(&mut self, from: Square, to: Square) {
        let moving = self.at(from);
        if let Some(captured) = self.at(to) {
            if captured.kind == Kind::King {
                self.kings[captured.color.index()] = None;
            }
        }
        if let Some(p) = moving {
            if p.kind == Kind::King {
                self.kings[p.color.index()] = Some(to);
            }
        }
        if let Some(slot) = self.cells.get_mut(to.index()) {
            *slot = moving;
        }
        if let Some(slot) = self.cells.get_mut(from.index()) {
            *slot = None;
        }
    }
}

const ORTH: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// Where a horse attacking a point may stand, relative to the point. Its
/// leg is the point's diagonal neighbour towards the horse:
/// `(signum(df), signum(dr))`.
const HORSE_FROM: [(i8, i8); 8] = [
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

/// Calls `f` for every pseudo-attacker of `sq` belonging to `by` (see the
/// module notes for what that means whatever stands on `sq`). Stops as soon
/// as `f` breaks.
pub(crate) fn visit_pseudo_attackers<B: Occupancy + ?Sized>(
    b: &B,
    sq: Square,
    by: Color,
    f: &mut impl FnMut(Square, Piece) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let own = |p: Piece, kind: Kind| p.color == by && p.kind == kind;
    let enemy_king_here = b.at(sq) == Some(Piece::new(by.opponent(), Kind::King));
    // Rooks, cannons and the flying king, along the four lines: the first
    // piece each way may be a rook (or the facing king), the second a
    // cannon over its screen.
    for (df, dr) in ORTH {
        let [first, second] = b.blockers(sq, df, dr);
        if let Some((s, p)) = first.and_then(|s| Some((s, b.at(s)?))) {
            if own(p, Kind::Rook) || (own(p, Kind::King) && df == 0 && enemy_king_here) {
                f(s, p)?;
            }
        }
        if let Some((s, p)) = second.and_then(|s| Some((s, b.at(s)?))) {
            if own(p, Kind::Cannon) {
                f(s, p)?;
            }
        }
    }
    // Horses, whose leg must be empty.
    for (df, dr) in HORSE_FROM {
        let Some(hsq) = sq.offset(df, dr) else {
            continue;
        };
        let Some(p) = b.at(hsq) else { continue };
        if !own(p, Kind::Horse) {
            continue;
        }
        let leg_empty = sq
            .offset(df.signum(), dr.signum())
            .is_some_and(|leg| b.at(leg).is_none());
        if leg_empty {
            f(hsq, p)?;
        }
    }
    // Pawns: from behind, and from the side once across the river.
    if let Some(behind) = sq.offset(0, -by.forward()) {
        if let Some(p) = b.at(behind) {
            if own(p, Kind::Pawn) {
                f(behind, p)?;
            }
        }
    }
    if sq.crossed_river(by) {
        for df in [1, -1] {
            if let Some(side) = sq.offset(df, 0) {
                if let Some(p) = b.at(side) {
                    if own(p, Kind::Pawn) {
                        f(side, p)?;
                    }
                }
            }
        }
    }
    // Advisors and the king inside their palace.
    if sq.is_advisor_point(by) {
        for (df, dr) in DIAG {
            if let Some(a) = sq.offset(df, dr) {
                if let Some(p) = b.at(a) {
                    if own(p, Kind::Advisor) {
                        f(a, p)?;
                    }
                }
            }
        }
    }
    if sq.in_palace(by) {
        for (df, dr) in ORTH {
            if let Some(k) = sq.offset(df, dr) {
                if let Some(p) = b.at(k) {
                    if own(p, Kind::King) && k.in_palace(by) {
                        f(k, p)?;
                    }
                }
            }
        }
    }
    // Elephants on their own half, whose eye must be empty.
    if sq.is_elephant_point(by) {
        for (df, dr) in DIAG {
            let eye_empty = sq.offset(df, dr).is_some_and(|e| b.at(e).is_none());
            if !eye_empty {
                continue;
            }
            if let Some(e) = sq.offset(2 * df, 2 * dr) {
                if let Some(p) = b.at(e) {
                    if own(p, Kind::Elephant) {
                        f(e, p)?;
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// Whether any piece of `by` pseudo-attacks `sq` on `b` (the flying king
/// included when `sq` holds the other king). This is "is that king in
/// check" when `sq` is a king's point.
pub(crate) fn pseudo_attacked<B: Occupancy + ?Sized>(b: &B, sq: Square, by: Color) -> bool {
    visit_pseudo_attackers(b, sq, by, &mut |_, _| ControlFlow::Break(())).is_break()
}

/// Whether the piece on `from` (of colour `mover`) may capture on `to` on
/// `g` without leaving its own king attacked. Assumes it pseudo-attacks `to`.
pub(crate) fn capture_keeps_king_safe<B: Occupancy + ?Sized>(
    g: &B,
    from: Square,
    to: Square,
    mover: Color,
) -> bool {
    let after = Moved {
        base: g,
        from,
        to,
        moving: g.at(from),
    };
    match after.king_square(mover) {
        Some(k) => !pseudo_attacked(&after, k, mover.opponent()),
        None => true,
    }
}

/// Legal attackers of `sq` by `by` on any placement.
pub(crate) fn grid_attackers<B: Occupancy + ?Sized>(g: &B, sq: Square, by: Color) -> Vec<Attacker> {
    let mut out = Vec::new();
    visit_grid_attackers(g, sq, by, |a| out.push(a));
    out
}

/// Calls `f` for each legal attacker of `sq` by `by` on any placement.
fn visit_grid_attackers<B: Occupancy + ?Sized>(
    g: &B,
    sq: Square,
    by: Color,
    mut f: impl FnMut(Attacker),
) {
    let _ = visit_pseudo_attackers(g, sq, by, &mut |s, p| {
        if capture_keeps_king_safe(g, s, sq, by) {
            f(Attacker {
                square: s,
                piece: p,
            });
        }
        ControlFlow::Continue(())
    });
}

/// Pseudo-attackers of `sq` by `by` on any placement.
pub(crate) fn grid_pseudo_attackers<B: Occupancy + ?Sized>(
    b: &B,
    sq: Square,
    by: Color,
) -> Vec<Attacker> {
    let mut out = Vec::new();
    let _ = visit_pseudo_attackers(b, sq, by, &mut |s, p| {
        out.push(Attacker {
            square: s,
            piece: p,
        });
        ControlFlow::Continue(())
    });
    out
}

/// The pieces of `by` that could move onto `sq` by the movement rules alone
/// (pins and the own king ignored). Serves 假根: a fake root is a
/// pseudo-attacker of a piece's point that is not in [`attackers`].
pub fn pseudo_attackers(pos: &Position, sq: Square, by: Color) -> Vec<Attacker> {
    grid_pseudo_attackers(pos, sq, by)
}

/// The pieces of `by` that could really, legally capture an enemy piece on
/// `sq` if `by` were to move: movement rules respected and the own king left
/// safe (no pinned piece, no facing kings). Serves 捉 ("the piece can take"),
/// 有根 ("a protector can recapture") and 兑/献 ("the opponent can take").
pub fn attackers(pos: &Position, sq: Square, by: Color) -> Vec<Attacker> {
    let mut out = Vec::new();
    visit_attackers(pos, sq, by, |a| out.push(a));
    out
}

/// Calls `f` for each of [`attackers`], in the same order, without
/// collecting them.
pub fn visit_attackers(pos: &Position, sq: Square, by: Color, mut f: impl FnMut(Attacker)) {
    // The position's own legality test (its sliding tables) rather than the
    // placement-generic one: the same answer, at a fraction of the cost.
    // Whether `by`'s king stands attacked, asked once and only if some
    // piece could take: out of check, each capture's legality is the cheap
    // test of the lines it touches.
    let mut in_check = None;
    let _ = visit_pseudo_attackers(pos, sq, by, &mut |s, p| {
        let checked = *in_check.get_or_insert_with(|| pos.is_in_check(by));
        if pos.keeps_own_king_safe_given(s, sq, checked) {
            f(Attacker {
                square: s,
                piece: p,
            });
        }
        ControlFlow::Continue(())
    });
}

/// Whether some piece of `by` legally attacks `sq` (see [`attackers`]).
pub fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool {
    visit_pseudo_attackers(pos, sq, by, &mut |s, _| {
        if pos.keeps_own_king_safe(s, sq) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .is_break()
}

/// Whether the piece on `from` could legally capture on `to` if its side
/// were to move (`to` as in [`attackers`]: an enemy there, or one supposed
/// there). The `can_take(a, b)` primitive of the rules language.
pub fn can_take(pos: &Position, from: Square, to: Square) -> bool {
    let Some(p) = pos.piece_at(from) else {
        return false;
    };
    attackers(pos, to, p.color).iter().any(|a| a.square == from)
}

/// The enemy pieces giving check to the side to move: 将 (§2.1) is a matter
/// of movement rules, so a pinned piece still gives check.
pub fn checkers(pos: &Position) -> Vec<Square> {
    let us = pos.side_to_move();
    grid_pseudo_attackers(pos, pos.king(us), us.opponent())
        .into_iter()
        .map(|a| a.square)
        .collect()
}

/// Whether the legal move `m` gives check (将, §2.1); `false` for a move
/// that is not legal here.
pub fn gives_check(pos: &Position, m: Move) -> bool {
    if !pos.is_legal(m) {
        return false;
    }
    let mut next = pos.clone();
    next.make(m);
    next.in_check()
}

/// A cheap necessary condition for a legal move of the side to move to give
/// check, for the searches that ask it of every move of a node: where a
/// check could come from is looked up once ([`Position::check_squares`]),
/// then each move is asked against it. The survivors are tested exactly
/// with make and `in_check`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CheckFilter {
    points: CheckSquares,
    /// Where a pawn of the mover's may check from: the king's orthogonal
    /// neighbours.
    beside: u128,
    /// Every point a check needs the move to leave or land on: a move
    /// touching none of them is rejected at once.
    touched: u128,
}

#[inline]
fn bit(sq: Square) -> u128 {
    sq.bit()
}

/// The orthogonal neighbours of each point (bit `i` for square index `i`).
const BESIDE: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut k = 0;
    while k < 90 {
        let (f, r) = ((k % 9) as i8, (k / 9) as i8);
        let mut i = 0;
        while i < ORTH.len() {
            let (nf, nr) = (f + ORTH[i].0, r + ORTH[i].1);
            if nf >= 0 && nf < 9 && nr >= 0 && nr < 10 {
                t[k] |= 1u128 << (nr as usize * 9 + nf as usize);
            }
            i += 1;
        }
        k += 1;
    }
    t
};

impl CheckFilter {
    /// For the side to move, against the enemy king.
    pub(crate) fn new(pos: &Position) -> CheckFilter {
        let points = pos.check_squares();
        let beside = BESIDE[pos.king(pos.side_to_move().opponent()).index()];
        CheckFilter {
            points,
            beside,
            touched: points.rook
                | points.cannon
                | points.horse
                | points.discover
                | points.screen
                | beside,
        }
    }

    /// The moves [`Self::may_check`] may accept, as targets for
    /// [`Position::legal_moves_wanted`] (a superset: each move still goes
    /// through `may_check`), with every capture of an enemy piece too when
    /// `captures`.
    pub(crate) fn wanted(&self, pos: &Position, captures: bool) -> Wanted {
        let p = &self.points;
        let mut w = Wanted {
            to: p.screen,
            free_from: p.discover,
            ..Wanted::default()
        };
        if captures {
            w.to |= pos.occupancy(pos.side_to_move().opponent());
        }
        w.to_by_kind[Kind::Rook.index()] = p.rook;
        w.to_by_kind[Kind::Cannon.index()] = p.cannon;
        w.to_by_kind[Kind::Horse.index()] = p.horse;
        w.to_by_kind[Kind::Pawn.index()] = self.beside;
        w
    }

    /// Whether the legal move `m` may give check: `false` only when it
    /// certainly does not.
    #[inline(always)]
    pub(crate) fn may_check(&self, pos: &Position, m: Move) -> bool {
        let (from, to) = (bit(m.from), bit(m.to));
        if (from | to) & self.touched == 0 {
            return false;
        }
        let p = &self.points;
        if from & p.discover != 0 || to & p.screen != 0 {
            return true;
        }
        let direct = match pos.piece_at(m.from).map(|p| p.kind) {
            Some(Kind::Rook) => p.rook,
            Some(Kind::Cannon) => p.cannon,
            Some(Kind::Horse) => p.horse,
            Some(Kind::Pawn) => self.beside,
            _ => 0,
        };
        to & direct != 0
    }
}

// Tests state their expectations by panicking.
#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::board::{parse_fen, MoveList};

    fn pos(fen: &str) -> Position {
        parse_fen(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e:?}"))
    }

    fn sq(s: &str) -> Square {
        s.parse().unwrap_or_else(|_| panic!("bad square {s}"))
    }

    fn squares(v: &[Attacker]) -> Vec<String> {
        let mut s: Vec<String> = v.iter().map(|a| a.square.to_string()).collect();
        s.sort();
        s
    }

    /// The position's line blockers, read from its occupancy bits, are the
    /// ones a step-by-step walk finds, on every point and line of boards
    /// from a thinned-out opening through a played-out middle game.
    #[test]
    fn line_blockers_from_occupancy_bits_match_a_walk() {
        let mut boards = vec![
            Position::startpos(),
            pos("3k5/9/9/9/9/9/9/2N6/9/4K4 w"),
            pos("r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b"),
        ];
        // A deterministic playout: always the (7k mod n)-th legal move.
        let mut p = Position::startpos();
        for k in 0..120 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.make(moves[(7 * k) % moves.len()]);
            boards.push(p.clone());
        }
        for b in &boards {
            let grid = Grid::of(b);
            for sq in Square::all() {
                for (df, dr) in ORTH {
                    assert_eq!(
                        b.blockers(sq, df, dr),
                        grid.blockers(sq, df, dr),
                        "{} from {sq} along ({df}, {dr})",
                        crate::board::to_fen(b)
                    );
                }
            }
        }
    }

    #[test]
    fn a_horse_with_its_leg_blocked_does_not_attack() {
        // Red horse c2 eyes d4 (one file right, two ranks up); its leg is c3.
        // With a red pawn on c3 the horse is hobbled (蹩马腿).
        let free = pos("3k5/9/9/9/9/9/9/2N6/9/4K4 w");
        let hobbled = pos("3k5/9/9/9/9/9/2P6/2N6/9/4K4 w");
        assert_eq!(squares(&attackers(&free, sq("d4"), Color::Red)), ["c2"]);
        assert!(attackers(&hobbled, sq("d4"), Color::Red).is_empty());
        assert!(pseudo_attackers(&hobbled, sq("d4"), Color::Red).is_empty());
        // The pawn on c3 shuts only the upward jumps; e3 (leg d2) stays open.
        assert_eq!(squares(&attackers(&hobbled, sq("e3"), Color::Red)), ["c2"]);
    }

    #[test]
    fn a_cannon_needs_exactly_one_screen() {
        // Red cannon b2, black horse b7 on the same file, nothing between.
        let bare = pos("3k5/9/1n7/9/9/9/9/1C7/9/4K4 w");
        assert!(attackers(&bare, sq("b7"), Color::Red).is_empty());
        // A red horse on b5 is the screen (炮架).
        let screened = pos("3k5/9/1n7/9/1N7/9/9/1C7/9/4K4 w");
        assert_eq!(squares(&attackers(&screened, sq("b7"), Color::Red)), ["b2"]);
        // Two screens (b3 and b5): no attack.
        let two = pos("3k5/9/1n7/9/1N7/9/1N7/1C7/9/4K4 w");
        assert!(attackers(&two, sq("b7"), Color::Red).is_empty());
        // An empty point is asked as "could it capture there": the bare cannon
        // may move to b7 but does not attack it; the screened one attacks b6.
        let alone = pos("3k5/9/9/9/9/9/9/1C7/9/4K4 w");
        assert!(attackers(&alone, sq("b7"), Color::Red).is_empty());
        assert_eq!(squares(&attackers(&screened, sq("b6"), Color::Red)), ["b2"]);
    }

    #[test]
    fn a_pinned_rook_does_not_attack_across_the_file() {
        // Red king e0, red rook e3, black rook e8 pins it on the e-file
        // (black king f9, so the kings do not face). The red rook eyes the
        // black horse a3 along rank 3, but leaving the file exposes its king.
        let p = pos("5k3/4r4/9/9/9/9/n3R4/9/9/4K4 w");
        assert_eq!(squares(&pseudo_attackers(&p, sq("a3"), Color::Red)), ["e3"]);
        assert!(attackers(&p, sq("a3"), Color::Red).is_empty());
        // Along the pin line it still attacks: it may take the pinner.
        assert_eq!(squares(&attackers(&p, sq("e8"), Color::Red)), ["e3"]);
    }

    #[test]
    fn a_piece_between_the_two_kings_may_not_leave_the_file() {
        // Red king e0, black king e9, a red horse e4 alone between them: if it
        // jumped to d6 the kings would face (飞将), so it does not attack d6.
        let p = pos("4k4/9/9/9/9/4N4/9/9/9/4K4 b");
        assert_eq!(squares(&pseudo_attackers(&p, sq("d6"), Color::Red)), ["e4"]);
        assert!(attackers(&p, sq("d6"), Color::Red).is_empty());
    }

    #[test]
    fn the_king_does_not_attack_a_point_it_could_not_safely_take() {
        // Red king e0, black horse e1, black rook e8 watching the e-file
        // (e2–e7 empty): taking the horse would put the king in check.
        let p = pos("3k5/4r4/9/9/9/9/9/9/4n4/4K4 w");
        assert_eq!(squares(&pseudo_attackers(&p, sq("e1"), Color::Red)), ["e0"]);
        assert!(attackers(&p, sq("e1"), Color::Red).is_empty());
        // With the black rook on d8 instead, the king may take.
        let q = pos("3k5/3r5/9/9/9/9/9/9/4n4/4K4 w");
        assert_eq!(squares(&attackers(&q, sq("e1"), Color::Red)), ["e0"]);
    }

    #[test]
    fn elephants_and_pawns_keep_their_geometry() {
        // Red elephant c0 reaches e2 through its eye d1.
        let p = pos("3k5/9/9/9/9/9/9/9/9/2B1K4 w");
        assert_eq!(squares(&attackers(&p, sq("e2"), Color::Red)), ["c0"]);
        // A red horse on d1 fills the eye (塞象眼).
        let eyed = pos("3k5/9/9/9/9/9/9/9/3N5/2B1K4 w");
        assert!(attackers(&eyed, sq("e2"), Color::Red).is_empty());
        // A crossed red pawn on c5 attacks c6, b5 and d5, never c4 behind it.
        let pawn = pos("3k5/9/9/9/2P6/9/9/9/9/4K4 w");
        assert_eq!(squares(&attackers(&pawn, sq("c6"), Color::Red)), ["c5"]);
        assert_eq!(squares(&attackers(&pawn, sq("d5"), Color::Red)), ["c5"]);
        assert!(attackers(&pawn, sq("c4"), Color::Red).is_empty());
        // Before the river (c4) it attacks only straight ahead.
        let home = pos("3k5/9/9/9/9/2P6/9/9/9/4K4 w");
        assert_eq!(squares(&attackers(&home, sq("c5"), Color::Red)), ["c4"]);
        assert!(attackers(&home, sq("d4"), Color::Red).is_empty());
    }

    #[test]
    fn checkers_and_gives_check() {
        // Red rook a0 to a9 checks the black king d9 along rank 9.
        let p = pos("3k5/9/9/9/9/9/9/9/9/R3K4 w");
        let m = Move::new(sq("a0"), sq("a9"));
        assert!(gives_check(&p, m));
        assert!(!gives_check(&p, Move::new(sq("a0"), sq("a8"))));
        // A move that is not legal is never a check.
        assert!(!gives_check(&p, Move::new(sq("a0"), sq("b1"))));
        let after = p.play(m).unwrap_or_else(|e| panic!("{e}"));
        let c: Vec<String> = checkers(&after).iter().map(|s| s.to_string()).collect();
        assert_eq!(c, ["a9"]);
        assert!(checkers(&p).is_empty());
    }

    #[test]
    fn can_take_is_legal_capture_whoever_is_to_move() {
        // Same pin as above, black to move: the red rook still cannot take a3.
        let p = pos("5k3/4r4/9/9/9/9/n3R4/9/9/4K4 b");
        assert!(!can_take(&p, sq("e3"), sq("a3")));
        assert!(can_take(&p, sq("e3"), sq("e8")));
        assert!(!can_take(&p, sq("d5"), sq("e8")));
    }

    #[test]
    fn the_check_prefilter_never_misses_a_check() {
        // Random playouts from the start: every move that gives check passes
        // the cheap filter the searches rely on, and most others do not.
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let (mut checks, mut quiet, mut rejected) = (0, 0, 0);
        for _ in 0..200 {
            let mut p = Position::startpos();
            for _ in 0..120 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let filter = CheckFilter::new(&p);
                for &m in moves.iter() {
                    let mut q = p.clone();
                    q.make(m);
                    if q.in_check() {
                        checks += 1;
                        assert!(filter.may_check(&p, m), "{p:?} {m}");
                    } else {
                        quiet += 1;
                        rejected += usize::from(!filter.may_check(&p, m));
                    }
                }
                let pick = moves[(next() % moves.len() as u64) as usize];
                p.make(pick);
            }
        }
        assert!(checks > 100, "only {checks} checks seen");
        assert!(
            rejected * 2 > quiet,
            "the filter let through {} of {quiet} moves that do not check",
            quiet - rejected
        );
    }

    /// A small pseudo-random sequence (xorshift64), the same on every run.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// Every position of the bundled games in `file` that a move was played
    /// from, in game order.
    fn game_positions(file: &str) -> Vec<Position> {
        let path = format!(
            "{}/data/games/wukong-xqdb/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut out = Vec::new();
        for block in text
            .split("\n\n")
            .filter(|b| !b.trim().is_empty() && !b.trim_start().starts_with('['))
        {
            let mut p = Position::startpos();
            for token in block
                .split_whitespace()
                .filter(|t| t.len() == 4 && !t.ends_with('.'))
            {
                out.push(p.clone());
                let (Ok(from), Ok(to)) = (token[..2].parse(), token[2..].parse()) else {
                    panic!("unreadable move {token}");
                };
                p.make(Move::new(from, to));
            }
        }
        out
    }

    /// A king has pseudo-attackers exactly when it is in check: the judge's
    /// `checkers` asks the cheap attack test first and makes the list only
    /// for a king in check. Every fifth position of 1,125 master games and
    /// every position one legal move later, each king: 721,067 boards,
    /// 14,773 kings in check.
    #[test]
    fn a_king_has_pseudo_attackers_exactly_when_it_is_in_check() {
        let (mut boards, mut checked) = (0, 0);
        let mut agree = |board: &Position| {
            boards += 1;
            for c in Color::ALL {
                let listed = !pseudo_attackers(board, board.king(c), c.opponent()).is_empty();
                assert_eq!(listed, board.is_in_check(c), "{board:?} {c:?}");
                checked += usize::from(listed);
            }
        };
        for p in game_positions("Liu_Dahua_1125_UCI_games.pgn")
            .iter()
            .step_by(5)
        {
            agree(p);
            for &m in p.legal_moves().iter() {
                let mut q = p.clone();
                q.make(m);
                agree(&q);
            }
        }
        assert!(
            checked > 10_000,
            "only {checked} kings in check among {boards} boards"
        );
    }

    /// The attackers of every occupied point, by either side, are the same
    /// whether each capture gets the full legality test or, for a side not
    /// in check, the test of the lines it touches: on every position of
    /// the 1,125 bundled games of one master, including the positions where
    /// the side that has just moved is asked about (not to move, so its
    /// check state is read, not assumed).
    #[test]
    fn attackers_are_the_same_with_the_out_of_check_test() {
        let (mut asked, mut pinned) = (0usize, 0usize);
        for p in game_positions("Liu_Dahua_1125_UCI_games.pgn") {
            for (sq, _) in p.pieces() {
                for by in [Color::Red, Color::Black] {
                    let mut fast = Vec::new();
                    visit_attackers(&p, sq, by, |a| fast.push(a.square));
                    let mut full = Vec::new();
                    let _ = visit_pseudo_attackers(&p, sq, by, &mut |s, _| {
                        if p.keeps_own_king_safe(s, sq) {
                            full.push(s);
                        } else {
                            pinned += 1;
                        }
                        ControlFlow::Continue(())
                    });
                    assert_eq!(fast, full, "{p:?} {sq} by {by:?}");
                    asked += 1;
                }
            }
        }
        assert!(asked > 2_000_000, "only {asked} points asked");
        assert!(pinned > 1_000, "only {pinned} illegal captures seen");
    }

    #[test]
    fn the_check_prefilter_never_misses_a_check_in_master_games() {
        // Every legal move of every position of 1,125 bundled master games
        // (69,222 of them check).
        let (mut checks, mut quiet, mut passed) = (0, 0, 0);
        for p in game_positions("Liu_Dahua_1125_UCI_games.pgn") {
            let filter = CheckFilter::new(&p);
            for &m in p.legal_moves().iter() {
                let mut q = p.clone();
                q.make(m);
                if q.in_check() {
                    checks += 1;
                    assert!(filter.may_check(&p, m), "{p:?} {m}");
                } else {
                    quiet += 1;
                    passed += usize::from(filter.may_check(&p, m));
                }
            }
        }
        assert!(checks > 60_000, "only {checks} checks seen");
        // And it is sharp: of about 3.4 million moves that do not check, it
        // lets through fewer than half as many as there are checks (17,552
        // against 69,222; the king's whole file and rank let 453,472 through).
        assert!(
            passed * 2 < checks,
            "{passed} of {quiet} moves that do not check passed"
        );
    }

    /// `Position::capture_targets` is, for each side, exactly the set of
    /// enemy-held points with a pseudo-attacker, on every position of the
    /// 1,391 bundled games of one master and on boards with the kings on
    /// one file, with and without a piece between them.
    #[test]
    fn capture_targets_are_the_pseudo_attacked_enemy_points() {
        let mut boards = vec![
            pos("3k5/9/9/9/3R5/9/9/9/9/3K5 b"),
            pos("3k5/9/9/9/3r5/9/9/9/9/3K5 w"),
            pos("3k5/9/9/3c5/9/9/3N5/9/9/3K5 w"),
        ];
        boards.extend(game_positions("Hu_Ronghua_1391_UCI_games.pgn"));
        let mut attacked = 0;
        for b in &boards {
            for by in [Color::Red, Color::Black] {
                let mut expected = 0u128;
                for (sq, _) in b.pieces_of(by.opponent()) {
                    if !pseudo_attackers(b, sq, by).is_empty() {
                        expected |= 1u128 << sq.index();
                        attacked += 1;
                    }
                }
                assert_eq!(b.capture_targets(by), expected, "{b:?}, {by:?}");
            }
        }
        assert!(boards.len() > 100_000, "only {} boards", boards.len());
        assert!(attacked > 100_000, "only {attacked} attacked pieces");
    }

    /// The generation `CheckFilter::wanted` narrows gives exactly the moves
    /// the filter would pick out of all legal moves, with and without every
    /// capture, on every position of 1,125 bundled master games.
    #[test]
    fn wanted_generation_picks_the_same_checks_and_captures_in_master_games() {
        let sorted = |mut v: Vec<Move>| {
            v.sort_by_key(|m| (m.from.index(), m.to.index()));
            v
        };
        let (mut positions, mut picked) = (0, 0);
        for p in game_positions("Liu_Dahua_1125_UCI_games.pgn") {
            let filter = CheckFilter::new(&p);
            for captures in [false, true] {
                let keep =
                    |m: Move| (captures && p.piece_at(m.to).is_some()) || filter.may_check(&p, m);
                let all = sorted(p.legal_moves_where(keep).to_vec());
                let (narrow, in_check) = p.legal_moves_wanted(&filter.wanted(&p, captures), keep);
                assert_eq!(sorted(narrow.to_vec()), all, "{p:?}, captures {captures}");
                assert_eq!(in_check, p.in_check());
                picked += all.len();
            }
            positions += 1;
        }
        assert!(positions > 100_000, "only {positions} positions");
        assert!(picked > 300_000, "only {picked} moves picked");
    }

    /// Generation towards arbitrary targets (`Position::legal_moves_wanted`
    /// with a pseudo-random `Wanted` per position) gives exactly the legal
    /// moves the targets admit, in the order of the full generation, on
    /// every position of 1,125 bundled master games.
    #[test]
    fn wanted_generation_matches_the_full_generation_for_any_targets() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let mut mask = || {
            // Sparse sets, as the searches ask: about one point in eight.
            let (a, b, c) = (next(), next(), next());
            let bits = (u128::from(a & b & c) << 64) | u128::from(next() & next() & next());
            bits & ((1u128 << 90) - 1)
        };
        let (mut positions, mut picked) = (0, 0);
        for p in game_positions("Liu_Dahua_1125_UCI_games.pgn") {
            let mut w = Wanted {
                to: mask(),
                free_from: mask() & mask(),
                ..Wanted::default()
            };
            for k in &mut w.to_by_kind {
                *k = mask();
            }
            let admits = |m: Move| {
                let kind = p.piece_at(m.from).map_or(0, |x| x.kind.index());
                p.in_check()
                    || w.free_from & bit(m.from) != 0
                    || (w.to | w.to_by_kind[kind]) & bit(m.to) != 0
            };
            let all = p.legal_moves_where(admits).to_vec();
            let (narrow, in_check) = p.legal_moves_wanted(&w, |_| true);
            assert_eq!(narrow.to_vec(), all, "{p:?} {w:?}");
            assert_eq!(in_check, p.in_check());
            picked += all.len();
            positions += 1;
        }
        assert!(positions > 100_000, "only {positions} positions");
        assert!(picked > 500_000, "only {picked} moves picked");
    }

    /// Out of check, the quick test for a legal move agrees with the full
    /// generation: on every position of 1,125 master games not in check,
    /// and on 困毙 positions, where it must look at every move.
    #[test]
    fn the_out_of_check_legal_move_test_agrees_with_the_generation() {
        let mut asked = 0;
        for p in game_positions("Liu_Dahua_1125_UCI_games.pgn") {
            if !p.in_check() {
                assert_eq!(p.has_legal_move_out_of_check(), p.has_legal_move(), "{p:?}");
                asked += 1;
            }
        }
        assert!(asked > 90_000, "only {asked} positions");
        // The lone king hemmed in by a crossed pawn (困毙), and a king whose
        // only piece is pinned on its file by a rook (the king still moves).
        for fen in [
            "3k5/2P6/9/9/9/9/9/9/9/4K4 b",
            "4k4/4n4/9/9/9/9/9/9/4R4/3K5 b",
        ] {
            let p = pos(fen);
            assert!(!p.in_check(), "{fen}");
            assert_eq!(p.has_legal_move_out_of_check(), p.has_legal_move(), "{fen}");
        }
        assert!(!pos("3k5/2P6/9/9/9/9/9/9/9/4K4 b").has_legal_move_out_of_check());
    }

    /// In check, the candidate answers that keep the king safe are the
    /// legal moves, in their order: after every check playable in 1,125
    /// master games (the mate and capture searches test their answers one by
    /// one that way).
    #[test]
    fn check_answer_candidates_that_keep_the_king_safe_are_the_legal_moves() {
        let mut checks = 0;
        for p in game_positions("Liu_Dahua_1125_UCI_games.pgn") {
            let filter = CheckFilter::new(&p);
            for &m in p.legal_moves().iter() {
                if !filter.may_check(&p, m) {
                    continue;
                }
                let q = p.play(m).unwrap_or_else(|e| panic!("{e}"));
                if !q.in_check() {
                    continue;
                }
                let mut candidates = MoveList::new();
                q.check_answer_candidates_into(&mut candidates);
                let answers: Vec<Move> = candidates
                    .iter()
                    .copied()
                    .filter(|a| q.keeps_own_king_safe(a.from, a.to))
                    .collect();
                assert_eq!(answers, q.legal_moves().to_vec(), "{q:?}");
                // The capture search's generation gives the same untested
                // answers in check, whatever it wants out of check.
                let wanted = CheckFilter::new(&q).wanted(&q, true);
                let mut untested = MoveList::new();
                let in_check = q.candidates_wanted_into(&wanted, &mut untested);
                assert!(in_check, "{q:?}");
                assert_eq!(untested.as_slice(), candidates.as_slice(), "{q:?}");
                checks += 1;
            }
        }
        assert!(checks > 50_000, "only {checks} checks");
    }

    #[test]
    fn the_check_prefilter_sees_discovered_checks() {
        let checks = |fen: &str, m: &str| {
            let p = pos(fen);
            let m: Move = m.parse().unwrap_or_else(|_| panic!("bad move {m}"));
            let after = p.play(m).unwrap_or_else(|e| panic!("{e}"));
            (CheckFilter::new(&p).may_check(&p, m), after.in_check())
        };
        // The horse lands between the cannon e2 and the king e9: a screen.
        let screen = "4k4/9/9/9/9/2N6/9/9/4C4/3K5 w";
        assert_eq!(checks(screen, "c4e5"), (true, true));
        // The pawn takes along the cannon's file: one screen fewer.
        let fewer = "4k4/9/9/9/4p4/4P4/9/9/4C4/3K5 w";
        assert_eq!(checks(fewer, "e4e5"), (true, true));
        // The horse leaves the rook's file.
        let uncover = "4k4/9/9/9/9/4N4/9/9/4R4/3K5 w";
        assert_eq!(checks(uncover, "e4c5"), (true, true));
        // The pawn steps off the leg of the horse f7.
        let leg = "4k4/5P3/5N3/9/9/9/9/9/9/3K5 w";
        assert_eq!(checks(leg, "f8g8"), (true, true));
        // An advisor at home checks nothing and is not tested.
        let start = Position::startpos();
        let m = Move::new(sq("d0"), sq("e1"));
        assert!(!CheckFilter::new(&start).may_check(&start, m));
    }
}
