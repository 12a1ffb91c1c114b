//! 将死, 困毙, 连将杀 and the 杀 question.
//!
//! * A side with no legal move has lost, in check (将死, checkmate) or not
//!   (困毙, stalemate is a loss in Xiangqi): [`is_lost`].
//! * 连将杀 (mate by consecutive checks, brief §2.3): the attacker checks on
//!   every one of its moves, the defender answers any way it can, and the
//!   line ends with the defender having no legal move: [`mate_by_checks`].
//! * 杀 (mate threat, §2.3): "had the side that just moved another move now,
//!   could it mate, by one check or by consecutive checks?": [`mate_threat`],
//!   asked through a null move. A quiet mating plan is not a 杀, so only
//!   checking lines are searched.
//! * 立即 (§2.15): "immediately mated" also covers a consecutive-check mate
//!   starting on the next move; ask [`mate_by_checks`] on the position after
//!   the move.
//!
//! The search is an exact AND/OR minimax on mate distance with iterative
//! deepening (shortest mate first), bounded by a [`NodeBudget`]: running out
//! answers [`MateSearch::BudgetExhausted`], never a guess.

use crate::board::{Move, MoveList, Position};

use super::attack::CheckFilter;
use super::{MoveLists, NodeBudget, Pv};

/// The longest line the searches handle, in plies.
pub const MAX_PLIES: usize = 63;

/// The answer of a mate search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateSearch {
    /// A forced mate: the attacker's moves (all checks) with the defender's
    /// longest resistance, ending with the defender left without a legal
    /// move. Always an odd number of plies.
    Mate(Vec<Move>),
    /// No mate by consecutive checks within the ply limit.
    NoMate,
    /// The node budget ran out before the question was settled.
    BudgetExhausted,
}

impl MateSearch {
    pub fn is_mate(&self) -> bool {
        matches!(self, MateSearch::Mate(_))
    }

    /// The mating line, if there is one.
    pub fn line(&self) -> Option<&[Move]> {
        match self {
            MateSearch::Mate(line) => Some(line),
            _ => None,
        }
    }
}

/// Why the 杀 question cannot be asked of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ThreatError {
    /// The side to move is in check: the mover already gives check (将), and
    /// "another move now" would take the king. 将 outweighs 杀 in every
    /// edition, so the question is moot; no null move is made.
    #[error(
        "the side to move is in check, so the mover's next move is not a mate threat but a check"
    )]
    SideToMoveInCheck,
}

/// Checkmated (将死): in check with no legal move.
pub fn is_checkmate(pos: &Position) -> bool {
    pos.is_checkmate()
}

/// Lost on the board: no legal move, in check (将死) or not (困毙).
pub fn is_lost(pos: &Position) -> bool {
    !pos.has_legal_move()
}

/// 连将杀: can the side to move mate by checking on every move within
/// `max_plies` plies (its own moves and the defender's answers counted; a
/// mate in one is 1 ply, a mate with two checks 3 plies)? Shortest mate
/// first; the defender's line is its longest resistance. `max_plies` is
/// capped at [`MAX_PLIES`].
pub fn mate_by_checks(pos: &Position, max_plies: usize, budget: &mut NodeBudget) -> MateSearch {
    let max = max_plies.min(MAX_PLIES);
    let king = pos.king(pos.side_to_move());
    let mut search = MateSearcher::new(budget, max, Move::new(king, king));
    let mut p = pos.clone();
    // One search at the full depth finds the shortest mate: once a mate is
    // found, every later move is searched only for a shorter one. (Deepening
    // one move at a time found the same mates, and searched the shallow
    // depths again each time: a third more positions over the game cycles.)
    let found = search.attack(&mut p, 0, max);
    if search.out_of_budget {
        return MateSearch::BudgetExhausted;
    }
    match found {
        Some(_) => MateSearch::Mate(search.line()),
        None => MateSearch::NoMate,
    }
}

/// Can the side to move force mate within `moves` of its own moves, quiet
/// moves included (a mate in one is `moves = 1`)? Unlike
/// [`mate_by_checks`], the attacker may play any move, so this is the
/// question "is there a mating net", which rules ask when an offer must
/// survive more than the next move. Every answer of the defender is tried;
/// the shortest mate is found first. Bounded by the budget; `moves` is
/// capped so that the line fits [`MAX_PLIES`].
pub fn mate_in(pos: &Position, moves: usize, budget: &mut NodeBudget) -> MateSearch {
    let max = moves.min(MAX_PLIES / 2);
    let king = pos.king(pos.side_to_move());
    let mut search = MateSearcher::new(budget, 2 * max, Move::new(king, king));
    let mut p = pos.clone();
    for n in 1..=max {
        let found = search.any_attack(&mut p, 0, n);
        if search.out_of_budget {
            return MateSearch::BudgetExhausted;
        }
        if found {
            return MateSearch::Mate(search.line());
        }
    }
    MateSearch::NoMate
}

/// 杀 (mate threat): had the side that just moved — the side *not* to move
/// in `pos` — another move now, could it mate by a check or by consecutive
/// checks within `max_plies`? Asked by passing the turn (null move); the
/// returned line starts with that side's move. If the side to move is in
/// check the question is moot ([`ThreatError::SideToMoveInCheck`]).
pub fn mate_threat(
    pos: &Position,
    max_plies: usize,
    budget: &mut NodeBudget,
) -> Result<MateSearch, ThreatError> {
    if pos.in_check() {
        return Err(ThreatError::SideToMoveInCheck);
    }
    let mut p = pos.clone();
    p.pass();
    Ok(mate_by_checks(&p, max_plies, budget))
}

/// The AND/OR search. Lines go to a triangular [`Pv`] table, so the
/// recursion allocates nothing.
struct MateSearcher<'b> {
    budget: &'b mut NodeBudget,
    out_of_budget: bool,
    pv: Pv,
    /// The hash of the position at each ply of the current line.
    hashes: [u64; MAX_PLIES + 2],
    lists: MoveLists,
}

impl<'b> MateSearcher<'b> {
    fn new(budget: &'b mut NodeBudget, plies: usize, filler: Move) -> MateSearcher<'b> {
        MateSearcher {
            budget,
            out_of_budget: false,
            pv: Pv::new(plies, filler),
            hashes: [0; MAX_PLIES + 2],
            lists: MoveLists::new(),
        }
    }

    fn line(&self) -> Vec<Move> {
        self.pv.line(0).to_vec()
    }

    /// Records the position at `ply` and tells whether it already stood at
    /// an earlier ply with the same side to move. A shortest mate never
    /// passes a position twice, so the attacker gains nothing there.
    fn repeats(&mut self, ply: usize, hash: u64) -> bool {
        if let Some(slot) = self.hashes.get_mut(ply) {
            *slot = hash;
        }
        super::earlier_same_side(&self.hashes, ply, hash)
    }

    /// Attacker to move: the fewest plies (≤ `depth`) to force mate with
    /// checks only, or `None`.
    fn attack(&mut self, pos: &mut Position, ply: usize, depth: usize) -> Option<usize> {
        self.pv.clear(ply);
        if depth == 0 || ply >= MAX_PLIES {
            return None;
        }
        if self.repeats(ply, pos.hash()) {
            return None;
        }
        self.with_list(|s, moves| s.attack_with(pos, ply, depth, moves))
    }

    /// Runs `f` with a move list of the search's, given back after.
    fn with_list<T>(&mut self, f: impl FnOnce(&mut Self, &mut MoveList) -> T) -> T {
        let mut moves = self.lists.take();
        let r = f(self, &mut moves);
        self.lists.give(moves);
        r
    }

    /// [`Self::attack`] past its early ends, with a move list to fill.
    fn attack_with(
        &mut self,
        pos: &mut Position,
        ply: usize,
        depth: usize,
        moves: &mut MoveList,
    ) -> Option<usize> {
        // Only moves that may check are made, and tested for legality.
        let checks = CheckFilter::new(pos);
        pos.legal_moves_wanted_into(
            &checks.wanted(pos, false),
            |m| checks.may_check(pos, m),
            moves,
        );
        let mut best: Option<usize> = None;
        for &m in moves.iter() {
            let child_depth = match best {
                Some(b) if b <= 1 => break,
                Some(b) => b - 2,
                None => depth - 1,
            };
            if !self.budget.spend() {
                self.out_of_budget = true;
                return None;
            }
            let undo = pos.make(m);
            if !pos.in_check() {
                pos.unmake(m, undo);
                continue;
            }
            let r = self.defend(pos, ply + 1, child_depth);
            pos.unmake(m, undo);
            if self.out_of_budget {
                return None;
            }
            if let Some(r) = r {
                best = Some(r + 1);
                self.pv.update(ply, m);
            }
        }
        best
    }

    /// Attacker to move, any move allowed: mate within `n` own moves?
    fn any_attack(&mut self, pos: &mut Position, ply: usize, n: usize) -> bool {
        self.pv.clear(ply);
        if n == 0 || ply + 1 >= MAX_PLIES {
            return false;
        }
        let moves = pos.legal_moves();
        for &m in moves.iter() {
            if !self.budget.spend() {
                self.out_of_budget = true;
                return false;
            }
            let undo = pos.make(m);
            let wins = if pos.has_legal_move() {
                n > 1 && self.any_defend(pos, ply + 1, n - 1)
            } else {
                // 将死 or 困毙: the defender has lost.
                self.pv.clear(ply + 1);
                true
            };
            pos.unmake(m, undo);
            if self.out_of_budget {
                return false;
            }
            if wins {
                self.pv.update(ply, m);
                return true;
            }
        }
        false
    }

    /// Defender to move, with a legal move: does every answer lose within
    /// `n` more attacker moves?
    fn any_defend(&mut self, pos: &mut Position, ply: usize, n: usize) -> bool {
        self.pv.clear(ply);
        let moves = pos.legal_moves();
        for &m in moves.iter() {
            if !self.budget.spend() {
                self.out_of_budget = true;
                return false;
            }
            let undo = pos.make(m);
            let lost = self.any_attack(pos, ply + 1, n);
            pos.unmake(m, undo);
            if !lost {
                return false;
            }
            self.pv.update(ply, m);
        }
        true
    }

    /// Defender to move after a check: `Some(0)` if it has no legal move
    /// (将死 or 困毙), else the most plies it can hold out when every answer
    /// still loses within `depth`, or `None` if some answer escapes.
    fn defend(&mut self, pos: &mut Position, ply: usize, depth: usize) -> Option<usize> {
        self.pv.clear(ply);
        if depth < 2 || ply >= MAX_PLIES {
            // The last check of the line: only whether any answer exists
            // matters, and the first legal move found says so.
            if pos.has_legal_move() {
                return None;
            }
            return Some(0);
        }
        self.with_list(|s, moves| s.defend_with(pos, ply, depth, moves))
    }

    /// [`Self::defend`] past its last-check end, with a move list to fill.
    fn defend_with(
        &mut self,
        pos: &mut Position,
        ply: usize,
        depth: usize,
        moves: &mut MoveList,
    ) -> Option<usize> {
        // The answers are tested for legality only as they are tried: the
        // first that escapes ends the node.
        debug_assert!(pos.in_check());
        pos.check_answer_candidates_into(moves);
        // With no legal answer (将死) the loop leaves 0.
        let mut worst = 0;
        // Captures first: taking the checker is the likeliest escape.
        for captures in [true, false] {
            for &m in moves.iter() {
                if pos.piece_at(m.to).is_some() != captures
                    || !pos.keeps_own_king_safe(m.from, m.to)
                {
                    continue;
                }
                if !self.budget.spend() {
                    self.out_of_budget = true;
                    return None;
                }
                let undo = pos.make(m);
                let r = self.attack(pos, ply + 1, depth - 1);
                pos.unmake(m, undo);
                match r {
                    None => return None,
                    Some(r) => {
                        if r + 1 > worst {
                            worst = r + 1;
                            self.pv.update(ply, m);
                        }
                    }
                }
            }
        }
        Some(worst)
    }
}

// Tests state their expectations by panicking.
#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::board::parse_fen;

    fn pos(fen: &str) -> Position {
        parse_fen(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e:?}"))
    }

    fn mv(s: &str) -> Move {
        s.parse().unwrap_or_else(|_| panic!("bad move {s}"))
    }

    fn text(line: &[Move]) -> Vec<String> {
        line.iter().map(|m| m.to_string()).collect()
    }

    /// Plays `line` and checks the rulebook's definition of 连将杀: every
    /// move of the attacker checks, and the defender ends without a move.
    fn is_mating_line(start: &Position, line: &[Move]) -> bool {
        let mut p = start.clone();
        for (i, &m) in line.iter().enumerate() {
            if !p.is_legal(m) {
                return false;
            }
            p.make(m);
            if i % 2 == 0 && !p.in_check() {
                return false;
            }
        }
        line.len() % 2 == 1 && !p.has_legal_move()
    }

    /// Black king d9 may not step to e9 (it would face the red king e0 on
    /// the open e-file, 白脸将) and the red rook a8 holds d8.
    const TWO_ROOKS: &str = "3k5/R8/9/9/9/9/9/9/8R/4K4 w";

    #[test]
    fn mate_in_one_check() {
        // i1i9 checks along rank 9 (e9–h9 empty): d8 is the rook a8's, e9 the
        // rook i9's (and the red king's). i1d1 mates too (d-file, e9 facing).
        let p = pos(TWO_ROOKS);
        let mut budget = NodeBudget::default();
        let found = mate_by_checks(&p, 5, &mut budget);
        let line = found.line().unwrap_or_else(|| panic!("no mate: {found:?}"));
        assert_eq!(line.len(), 1);
        assert!(["i1i9", "i1d1"].contains(&line[0].to_string().as_str()));
        assert!(is_mating_line(&p, line));
        let mut after = p.clone();
        after.make(line[0]);
        assert!(is_checkmate(&after));
        assert!(is_lost(&after));
    }

    #[test]
    fn mate_in_three_plies_by_consecutive_checks() {
        // Black king d9 (e-file barred by the red king), black pawn d3 shuts the
        // d-file, red pawn c7 holds d7. No check mates at once: Ra9+ or Ri9+
        // lets the king out to d8. But 1. Ra9+ Kd8 (forced) 2. Ri8+ mates:
        // d9 is the a9 rook's, d7 the pawn's, e8 the i8 rook's and faces the king.
        let p = pos("3k5/9/2P6/9/9/9/3p5/8R/R8/4K4 w");
        let mut budget = NodeBudget::default();
        assert_eq!(mate_by_checks(&p, 2, &mut budget), MateSearch::NoMate);
        let found = mate_by_checks(&p, 7, &mut budget);
        let line = found.line().unwrap_or_else(|| panic!("no mate: {found:?}"));
        assert_eq!(line.len(), 3, "{:?}", text(line));
        assert!(is_mating_line(&p, line));
        let expected = [["a1a9", "d9d8", "i2i8"], ["i2i9", "d9d8", "a1a8"]];
        assert!(expected.iter().any(|e| text(line) == e), "{:?}", text(line));
    }

    #[test]
    fn no_mate_when_the_only_check_is_taken() {
        // Red's only check is Nd7+ (horse c5, leg c6 empty); the black rook d5
        // takes it, and red, with its king alone, has nothing left.
        let p = pos("4k4/9/9/9/2Nr5/9/9/9/9/5K3 w");
        let mut budget = NodeBudget::default();
        assert_eq!(mate_by_checks(&p, 9, &mut budget), MateSearch::NoMate);
    }

    #[test]
    fn a_search_ends_where_its_lines_end() {
        // Red's only check is Nd7+, and the black rook d5 takes it: every
        // line ends there (no check left to try deeper), so asking for 9
        // plies costs what asking for 1 does.
        let p = pos("4k4/9/9/9/2Nr5/9/9/9/9/5K3 w");
        let mut one = NodeBudget::default();
        assert_eq!(mate_by_checks(&p, 1, &mut one), MateSearch::NoMate);
        let mut nine = NodeBudget::default();
        assert_eq!(mate_by_checks(&p, 9, &mut nine), MateSearch::NoMate);
        assert!(one.used() > 0);
        assert!(
            nine.used() <= 3 * one.used(),
            "{} vs {}",
            nine.used(),
            one.used()
        );
    }

    #[test]
    fn a_mate_in_two_moves_is_found_where_there_is_none_in_one() {
        // The position of the mate-threat test below, before its quiet
        // a0a8: no move mates at once, but a0a8 (rook to rank 8) and then
        // i1i9 does, so there is a mate in two moves with a quiet first one.
        let p = pos("3k5/9/9/9/9/9/3p5/9/8R/R3K4 w");
        let mut budget = NodeBudget::default();
        assert_eq!(mate_by_checks(&p, 1, &mut budget), MateSearch::NoMate);
        assert_eq!(mate_in(&p, 1, &mut budget), MateSearch::NoMate);
        let found = mate_in(&p, 2, &mut budget);
        let line = found.line().unwrap_or_else(|| panic!("no mate: {found:?}"));
        assert_eq!(line.len(), 3, "{:?}", text(line));
        let mut q = p.clone();
        for m in line {
            assert!(q.is_legal(*m));
            q.make(*m);
        }
        assert!(!q.has_legal_move());
    }

    #[test]
    fn a_tiny_budget_is_reported_not_guessed() {
        let p = pos("3k5/9/2P6/9/9/9/3p5/8R/R8/4K4 w");
        let mut budget = NodeBudget::new(3);
        assert_eq!(
            mate_by_checks(&p, 7, &mut budget),
            MateSearch::BudgetExhausted
        );
        assert!(budget.is_exhausted());
    }

    #[test]
    fn a_quiet_rook_move_makes_a_mate_threat() {
        // Black king d9 (e9 barred by the facing red king), black pawn d3
        // shutting the d-file. After the quiet a0a8 the rook holds rank 8: had
        // red another move, i1i9 would mate (d8 the a8 rook's, e9 the i9's).
        let before = pos("3k5/9/9/9/9/9/3p5/9/8R/R3K4 w");
        let after = before.play(mv("a0a8")).unwrap_or_else(|e| panic!("{e}"));
        let mut budget = NodeBudget::default();
        let threat = mate_threat(&after, 5, &mut budget);
        let Ok(MateSearch::Mate(line)) = threat else {
            panic!("expected a threat, got {threat:?}");
        };
        assert_eq!(line.len(), 1);
        // Before the move there was no mate in one: Ra9+ or Ri9+ leave d8 free
        // and the pawn d3 blocks any check on the d-file.
        let mut black_to_move = before.clone();
        black_to_move.pass();
        assert_eq!(
            mate_threat(&black_to_move, 1, &mut budget),
            Ok(MateSearch::NoMate)
        );
    }

    #[test]
    fn no_threat_question_while_in_check() {
        let p = pos("3k5/9/9/9/9/9/9/9/9/R3K4 w");
        let checked = p.play(mv("a0a9")).unwrap_or_else(|e| panic!("{e}"));
        let mut budget = NodeBudget::default();
        assert_eq!(
            mate_threat(&checked, 3, &mut budget),
            Err(ThreatError::SideToMoveInCheck)
        );
    }

    #[test]
    fn a_check_that_leaves_no_move_is_mate_even_with_a_free_king_square() {
        // 困毙 after a check still ends the line: here the check itself mates,
        // which is_lost and is_checkmate agree on.
        let p = pos(TWO_ROOKS);
        let after = p.play(mv("i1i9")).unwrap_or_else(|e| panic!("{e}"));
        assert!(is_checkmate(&after));
    }
}
