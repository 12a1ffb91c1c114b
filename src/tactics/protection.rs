//! 有根 / 无根 / 少根, 真根 / 假根 — protection (brief §2.4).
//!
//! Serves 捉 (a chase on a rooted piece is no chase unless the exchange wins
//! material), 兑 (only a rooted piece offers an exchange) and 献 (an unrooted
//! piece is offered).
//!
//! A **root** (根) of the piece on `sq` is an own piece that could recapture
//! on `sq` after an enemy captured there. It is **real** (真根) when that
//! recapture is legal in the position after the capture, and **fake** (假根)
//! when it only looks like protection: a protector by the movement rules
//! that cannot recapture legally — it is pinned, or the recapture would
//! leave the kings facing or the own king attacked, or it is a cannon whose
//! screen was the capturer and is gone.
//!
//! Protection depends on the capture: a rook whose line opens because the
//! capturer left it, or a cannon that gains its screen when the capturer
//! lands between, is a real root against that capture only. So the answer
//! is given per capturer ([`CaptureDefence`]), plus once for a capture "from
//! nowhere" (an enemy piece supposed on `sq`, nothing else moved), which is
//! what a referee means by "the piece is rooted" when nothing attacks it yet.
//!
//! **暗根 (hidden roots)** are not recaptures but tactics: after the capture,
//! a check that forks and wins the capturer back, or a recapture that also
//! uncovers a check. They are found by the capture-exchange search:
//! [`exchange_for`](super::exchange::exchange_for) with the capture as
//! first move sees every check and answer. A piece is rooted *including*
//! hidden roots when no capture of it wins material by that search; this
//! module answers the direct, board-level question only.

use std::ops::ControlFlow;

use crate::board::{Color, Kind, Piece, Position, Square};

use super::attack::{
    capture_keeps_king_safe, grid_attackers, grid_pseudo_attackers, visit_pseudo_attackers,
    Attacker, Grid, Occupancy,
};

/// Who protects a piece, against each possible capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Protection {
    pub square: Square,
    pub piece: Piece,
    /// Real roots against a capture from nowhere (an enemy piece supposed on
    /// the square, nothing else changed).
    pub real: Vec<Square>,
    /// Own pieces that protect the square by the movement rules but could
    /// not legally recapture there.
    pub fake: Vec<Square>,
    /// One entry per enemy piece that can legally capture the piece now.
    pub captures: Vec<CaptureDefence>,
}

/// The roots of a piece against one particular capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureDefence {
    /// The enemy piece that captures, and where it stands before capturing.
    pub capturer: Attacker,
    /// Own pieces that can legally recapture after this capture, including
    /// those the capture itself unmasks.
    pub real: Vec<Square>,
    /// Own pieces that seemed to protect (by the movement rules, before or
    /// after the capture) but cannot legally recapture after it.
    pub fake: Vec<Square>,
}

impl Protection {
    /// 有根: every enemy piece that can take the piece now meets a real
    /// root; if none can take it, a real root against a capture from
    /// nowhere. Direct recaptures only (no 暗根, see the module notes).
    pub fn is_rooted(&self) -> bool {
        if self.captures.is_empty() {
            !self.real.is_empty()
        } else {
            self.captures.iter().all(|c| !c.real.is_empty())
        }
    }

    /// 少根 (under-rooted, E1 24.15): more enemy pieces can take it than it
    /// has real roots against a capture from nowhere.
    pub fn is_under_rooted(&self) -> bool {
        self.captures.len() > self.real.len()
    }

    /// The roots against the capture by the piece on `capturer`, if that
    /// piece can legally capture.
    pub fn against(&self, capturer: Square) -> Option<&CaptureDefence> {
        self.captures.iter().find(|c| c.capturer.square == capturer)
    }
}

/// The protection of the piece on `sq`; `None` if the point is empty or
/// holds a king (a king is never captured, so it has no roots).
pub fn protection(pos: &Position, sq: Square) -> Option<Protection> {
    let piece = pos.piece_at(sq)?;
    if piece.kind == Kind::King {
        return None;
    }
    let own = piece.color;
    let grid = Grid::of(pos);
    let (before, real, fake) = roots_on(&grid, sq, own, |from, to| {
        capture_keeps_king_safe(&grid, from, to, own)
    });
    let captures = grid_attackers(&grid, sq, own.opponent())
        .into_iter()
        .map(|capturer| {
            let mut after = grid.clone();
            after.apply(capturer.square, sq);
            let real: Vec<Square> = grid_attackers(&after, sq, own)
                .iter()
                .map(|a| a.square)
                .collect();
            let mut seeming = before.clone();
            seeming.extend(grid_pseudo_attackers(&after, sq, own));
            CaptureDefence {
                capturer,
                fake: missing(&seeming, &real),
                real,
            }
        })
        .collect();
    Some(Protection {
        square: sq,
        piece,
        real,
        fake,
        captures,
    })
}

/// The real and fake roots of the piece on `sq` against a capture from
/// nowhere ([`Protection::real`] and [`Protection::fake`]), without the
/// per-capturer analysis: what the rules language's `real_roots` and
/// `fake_roots` ask, at a fraction of [`protection`]'s cost. `None` if the
/// point is empty or holds a king.
pub fn roots(pos: &Position, sq: Square) -> Option<(Vec<Square>, Vec<Square>)> {
    let piece = pos.piece_at(sq)?;
    if piece.kind == Kind::King {
        return None;
    }
    // As `roots_on` sorts them, without keeping the pseudo-protectors.
    let (mut real, mut fake) = (Vec::new(), Vec::new());
    let _ = visit_pseudo_attackers(pos, sq, piece.color, &mut |s, _| {
        if pos.keeps_own_king_safe(s, sq) {
            real.push(s);
        } else {
            fake.push(s);
        }
        ControlFlow::Continue(())
    });
    fake.sort();
    fake.dedup();
    Some((real, fake))
}

/// The real roots of the piece on `sq` against the capture by the enemy
/// piece on `capturer` ([`CaptureDefence::real`]), without the other
/// captures [`protection`] also weighs: what the rules language's
/// `roots_against` asks. `None` if the point is empty or holds a king, or
/// if that piece cannot legally capture there.
pub fn roots_against(pos: &Position, sq: Square, capturer: Square) -> Option<Vec<Square>> {
    let piece = pos.piece_at(sq)?;
    let by = pos.piece_at(capturer)?;
    if piece.kind == Kind::King || by.color == piece.color {
        return None;
    }
    let mut legal = false;
    super::attack::visit_attackers(pos, sq, by.color, |a| legal |= a.square == capturer);
    legal.then(|| recapturers(pos, capturer, sq))
}

/// The own pieces that can legally retake on `sq` once the piece on
/// `capturer` has taken there, whoever is to move; the capture itself is
/// not tested (see [`roots_against`]).
pub fn recapturers(pos: &Position, capturer: Square, sq: Square) -> Vec<Square> {
    let (Some(by), Some(piece)) = (pos.piece_at(capturer), pos.piece_at(sq)) else {
        return Vec::new();
    };
    let mut after = pos.clone();
    if after.side_to_move() != by.color {
        after.pass();
    }
    after.make(crate::board::Move::new(capturer, sq));
    let mut out = Vec::new();
    super::attack::visit_attackers(&after, sq, piece.color, |a| out.push(a.square));
    out
}

/// The pseudo-protectors of `sq` by `own` on any placement, and of them the
/// real and the fake roots; `safe(from, to)` tells whether retaking from
/// `from` leaves the king safe (the placement's own test, the fastest there
/// is for it).
fn roots_on<B: Occupancy + ?Sized>(
    grid: &B,
    sq: Square,
    own: Color,
    safe: impl Fn(Square, Square) -> bool,
) -> (Vec<Attacker>, Vec<Square>, Vec<Square>) {
    let before = grid_pseudo_attackers(grid, sq, own);
    // A pseudo-protector is a real root when retaking leaves its king
    // safe (what `grid_attackers` asks of each), a fake one otherwise.
    let (mut real, mut fake) = (Vec::new(), Vec::new());
    for a in &before {
        if safe(a.square, sq) {
            real.push(a.square);
        } else {
            fake.push(a.square);
        }
    }
    fake.sort();
    fake.dedup();
    (before, real, fake)
}

/// 有根: see [`Protection::is_rooted`]. `false` for an empty point or a king.
pub fn is_rooted(pos: &Position, sq: Square) -> bool {
    protection(pos, sq).is_some_and(|p| p.is_rooted())
}

/// Whether the piece on `sq` has a real root against the capture by the
/// enemy piece on `capturer`; `false` if that piece cannot legally capture.
pub fn is_rooted_against(pos: &Position, sq: Square, capturer: Square) -> bool {
    protection(pos, sq)
        .and_then(|p| p.against(capturer).map(|c| !c.real.is_empty()))
        .unwrap_or(false)
}

/// The squares of `seeming` not in `real`, each once, in board order.
fn missing(seeming: &[Attacker], real: &[Square]) -> Vec<Square> {
    let mut out: Vec<Square> = seeming
        .iter()
        .map(|a| a.square)
        .filter(|s| !real.contains(s))
        .collect();
    out.sort();
    out.dedup();
    out
}

// Tests state their expectations by panicking.
#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::board::{parse_fen, Move};

    fn pos(fen: &str) -> Position {
        parse_fen(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e:?}"))
    }

    fn sq(s: &str) -> Square {
        s.parse().unwrap_or_else(|_| panic!("bad square {s}"))
    }

    fn names(v: &[Square]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn sorted(v: &[Square]) -> Vec<String> {
        let mut n = names(v);
        n.sort();
        n
    }

    /// `roots` and `roots_against` (the fast paths the rules language asks)
    /// name the same roots, in the same order, as the full `protection` on
    /// the placement-generic board, for every piece and every capture of it
    /// in every position of 200 bundled master games.
    #[test]
    fn roots_agree_with_the_full_protection_in_master_games() {
        let path = format!(
            "{}/data/games/wukong-xqdb/Liu_Dahua_1125_UCI_games.pgn",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let (mut pieces, mut with_fake, mut captures) = (0, 0, 0);
        for block in text
            .split("\n\n")
            .filter(|b| !b.trim().is_empty() && !b.trim_start().starts_with('['))
            .take(200)
        {
            let mut p = Position::startpos();
            for token in block
                .split_whitespace()
                .filter(|t| t.len() == 4 && !t.ends_with('.'))
            {
                for (at, _) in p.pieces() {
                    let whole = protection(&p, at);
                    for c in whole.iter().flat_map(|w| &w.captures) {
                        let sq = c.capturer.square;
                        assert_eq!(
                            roots_against(&p, at, sq).as_ref(),
                            Some(&c.real),
                            "{p:?} {at}"
                        );
                        captures += 1;
                    }
                    let full = whole.map(|r| (r.real, r.fake));
                    assert_eq!(roots(&p, at), full, "{p:?} {at}");
                    pieces += 1;
                    with_fake += usize::from(full.is_some_and(|(_, f)| !f.is_empty()));
                }
                let m: Move = token.parse().unwrap_or_else(|_| panic!("bad move {token}"));
                p.make(m);
            }
        }
        assert!(pieces > 100_000, "only {pieces} pieces");
        assert!(captures > 10_000, "only {captures} captures");
        assert!(with_fake > 100, "only {with_fake} pieces with a fake root");
    }

    #[test]
    fn a_rook_on_the_file_is_a_real_root() {
        // Red horse a5, red rook a0 below it (a1–a4 empty), black rook a9
        // above (a6–a8 empty): the black rook can take, the red rook retakes.
        let p = pos("r2k5/9/9/9/N8/9/9/9/9/R3K4 w");
        let prot = protection(&p, sq("a5")).unwrap_or_else(|| panic!("no piece"));
        assert_eq!(names(&prot.real), ["a0"]);
        assert!(prot.fake.is_empty());
        assert_eq!(prot.captures.len(), 1);
        let c = prot
            .against(sq("a9"))
            .unwrap_or_else(|| panic!("no capture"));
        assert_eq!(names(&c.real), ["a0"]);
        assert!(is_rooted(&p, sq("a5")));
        assert!(is_rooted_against(&p, sq("a5"), sq("a9")));
        assert!(!prot.is_under_rooted());
    }

    #[test]
    fn a_protector_that_would_leave_the_kings_facing_is_a_fake_root() {
        // Kings e0 and e9 with only a red horse e4 between them. The horse
        // "protects" the red pawn c5 (jump e4→c5, leg d4 empty), but if the
        // black rook c8 takes c5, the horse may not leave the e-file (飞将).
        let p = pos("4k4/2r6/9/9/2P6/4N4/9/9/9/4K4 w");
        let prot = protection(&p, sq("c5")).unwrap_or_else(|| panic!("no piece"));
        assert!(prot.real.is_empty());
        assert_eq!(names(&prot.fake), ["e4"]);
        let c = prot
            .against(sq("c8"))
            .unwrap_or_else(|| panic!("c8 cannot take"));
        assert!(c.real.is_empty());
        assert_eq!(names(&c.fake), ["e4"]);
        assert!(!is_rooted(&p, sq("c5")));
        assert!(prot.is_under_rooted());
        // The roots alone, as the rules language asks for them.
        assert_eq!(roots(&p, sq("c5")), Some((Vec::new(), vec![sq("e4")])));
        assert_eq!(roots(&p, sq("e0")), None, "a king has no roots");
        // A red advisor on e1 shields the kings: the same horse is a real root.
        let shielded = pos("4k4/2r6/9/9/2P6/4N4/9/9/4A4/4K4 w");
        assert!(is_rooted(&shielded, sq("c5")));
        assert!(is_rooted_against(&shielded, sq("c5"), sq("c8")));
    }

    #[test]
    fn a_pinned_protector_is_a_fake_root() {
        // The red rook e3 guards the red horse a3 along rank 3, but the black
        // rook e8 pins it to the red king e0. The black rook a9 takes a3 freely.
        let p = pos("r4k3/4r4/9/9/9/9/N3R4/9/9/4K4 w");
        let prot = protection(&p, sq("a3")).unwrap_or_else(|| panic!("no piece"));
        assert!(prot.real.is_empty());
        assert_eq!(names(&prot.fake), ["e3"]);
        let c = prot
            .against(sq("a9"))
            .unwrap_or_else(|| panic!("a9 cannot take"));
        assert!(c.real.is_empty());
        assert_eq!(names(&c.fake), ["e3"]);
        assert!(!is_rooted(&p, sq("a3")));
    }

    #[test]
    fn a_cannon_whose_screen_is_the_capturer_is_a_fake_root() {
        // Red cannon a0, black rook a3, red horse a5: the cannon covers a5
        // through the rook as screen — against any capture from nowhere. But
        // the rook itself captures a5, and the screen is gone.
        let p = pos("3k5/9/9/9/N8/9/r8/9/9/C3K4 w");
        let prot = protection(&p, sq("a5")).unwrap_or_else(|| panic!("no piece"));
        assert_eq!(names(&prot.real), ["a0"]);
        let c = prot
            .against(sq("a3"))
            .unwrap_or_else(|| panic!("a3 cannot take"));
        assert!(c.real.is_empty());
        assert_eq!(names(&c.fake), ["a0"]);
        assert!(!is_rooted(&p, sq("a5")));
        assert!(!is_rooted_against(&p, sq("a5"), sq("a3")));
        assert_eq!(roots_against(&p, sq("a5"), sq("a3")), Some(Vec::new()));
        // An own piece is no capturer: no answer.
        assert_eq!(
            roots_against(&p, sq("a5"), sq("a0")),
            None,
            "an own piece does not capture"
        );
    }

    #[test]
    fn protection_that_appears_only_after_the_capture_counts() {
        // The red rook a0 is blocked from a5 by the black rook a2 — until that
        // rook moves up to take a5: then a1–a4 are open and the red rook retakes.
        let p = pos("3k5/9/9/9/N8/9/9/r8/9/R3K4 w");
        let prot = protection(&p, sq("a5")).unwrap_or_else(|| panic!("no piece"));
        assert!(prot.real.is_empty());
        let c = prot
            .against(sq("a2"))
            .unwrap_or_else(|| panic!("a2 cannot take"));
        assert_eq!(names(&c.real), ["a0"]);
        assert!(is_rooted(&p, sq("a5")));
        assert_eq!(roots_against(&p, sq("a5"), sq("a2")), Some(vec![sq("a0")]));
        // A cannon with two screens (red horse a2, black rook a3) gains its
        // single screen when the rook leaves a3 to take a5.
        let q = pos("3k5/9/9/9/N8/9/r8/N8/9/C3K4 w");
        let prot = protection(&q, sq("a5")).unwrap_or_else(|| panic!("no piece"));
        assert!(prot.real.is_empty());
        let c = prot
            .against(sq("a3"))
            .unwrap_or_else(|| panic!("a3 cannot take"));
        assert_eq!(sorted(&c.real), ["a0"]);
        assert!(is_rooted(&q, sq("a5")));
    }

    #[test]
    fn a_piece_protected_only_through_a_cannon_screen() {
        // Red cannon c0, red pawn c3 as its screen, red horse c5 (c1, c2, c4
        // empty): the horse is guarded through the screen. The black rook c9
        // (c6–c8 empty) can take it, and the cannon retakes.
        let p = pos("2rk5/9/9/9/2N6/9/2P6/9/9/2C1K4 w");
        let prot = protection(&p, sq("c5")).unwrap_or_else(|| panic!("no piece"));
        assert_eq!(names(&prot.real), ["c0"]);
        let c = prot
            .against(sq("c9"))
            .unwrap_or_else(|| panic!("c9 cannot take"));
        assert_eq!(names(&c.real), ["c0"]);
        assert!(is_rooted(&p, sq("c5")));
    }

    #[test]
    fn empty_points_and_kings_have_no_protection() {
        let p = pos("3k5/9/9/9/9/9/9/9/9/4K4 w");
        assert!(protection(&p, sq("e5")).is_none());
        assert!(protection(&p, sq("e0")).is_none());
        assert!(!is_rooted(&p, sq("e5")));
    }
}
