//! 完整互吃交换 — the complete capture exchange ("segment theory", 捉的片段论,
//! brief §2.4), which decides 得子 (winning material) for 捉, and "immediate
//! material loss" for 兑 and 献 (§2.5, §2.6, §2.15).
//!
//! **The segment.** It starts with a given first move (normally a capture
//! or a check) by the side to move, the *starter*; that move is forced.
//! Afterwards only captures, checks and answers to check may follow, each
//! side in turn, and the segment ends as soon as a side plays anything else.
//! The net material for the starter at the end of the segment, by the
//! caller's [`ValueTable`], is the answer.
//!
//! **Stand pat.** Both sides play it as a minimax: at every node after the
//! first move, a side that is *not in check* may stop (stand pat, i.e. play
//! some quiet move that ends the segment) and keep the material as it
//! stands; or it may capture or give check if that does better. A side *in
//! check* may not stop: it must answer, with any legal move (a capture, a
//! king move, a block). So the opponent may decline to recapture, and the
//! starter may decline to go on after a recapture.
//!
//! **Decisive ends.** A side left without a legal move inside the segment
//! (将死 or 困毙) has lost; the result says so in [`ExchangeResult::mated`]
//! (internally it outranks any material, and a quicker mate is preferred by
//! the winner, a later one by the loser). Checks are part of the segment,
//! so a mate by consecutive checks inside it is seen.
//!
//! **Hidden roots (暗根).** Because the opponent's replies include checks,
//! and the starter's answers to check are all legal evasions, a capture that
//! is "unprotected" but loses the capturer to a forking check (S0 L56 图1:
//! 马4进3 一将就能把吃子的红车抽吃回来), or to a recapture that uncovers a
//! check, is scored as the loss it is. [`protection`](mod@super::protection)
//! sees only direct recaptures; "rooted including hidden roots" is the
//! question "does the capture gain nothing here".
//!
//! **Scope.** [`CaptureScope::Any`] follows the 2011/2020 wording (any
//! captures and checks alternate). [`CaptureScope::RecaptureOnly`] follows
//! the 2007 trial's 完整的互吃交换过程 ("each capturing piece is immediately
//! recaptured, not each side taking something else"): outside of check, a
//! side may only capture the enemy piece that made the last capture; checks
//! and answers to check stay free.
//!
//! With [`CaptureScope::Any`] a capture available elsewhere on the board
//! (a piece already hanging before the first move) takes part in the
//! segment too. Which threats are *new* (从没捉到捉, §2.4) is a comparison
//! the judge makes between two questions, not something this search decides.
//!
//! **Bounds.** A ply limit and a [`NodeBudget`]; when either cuts the
//! search, the result is the best estimate with `exhausted: true`. A line
//! that comes back to a position it already passed through (checks going
//! round in a circle) ends there with the material it has: a cycle wins
//! nothing (positions compared by Zobrist hash).

use crate::board::{Color, Move, MoveList, Position, Square, Wanted};

use super::attack::CheckFilter;
use super::values::ValueTable;
use super::{earlier_same_side, MoveLists, NodeBudget, Pv};

/// The longest segment searched, in plies (the first move included).
pub const MAX_PLIES: usize = 63;

/// Which captures may continue the segment (see the module notes).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum CaptureScope {
    /// Any capture or check (2011, 2020).
    #[default]
    Any,
    /// Outside of check, only the enemy piece that made the last capture may
    /// be taken (2007 trial: 每个吃子都被立即吃回).
    RecaptureOnly,
}

/// How far the exchange search may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExchangeLimits {
    /// The longest segment in plies, first move included; capped at [`MAX_PLIES`].
    pub max_plies: usize,
    pub scope: CaptureScope,
    /// How many checks that capture nothing the line may contain after the
    /// first move (both sides together; answers to check never count).
    /// Captures are always allowed. Quiet checks are what makes a capture
    /// search explode in real middlegames, and a hidden root needs one.
    pub max_quiet_checks: usize,
    /// Squares (bit `i` for square index `i`) whose starter's pieces the
    /// other side may not take outside of check: the question "does the
    /// capture win, counter-captures of these pieces aside". A piece loses
    /// the protection once it moves, and a square once anything lands on
    /// it. Empty by default.
    pub spared: u128,
}

impl Default for ExchangeLimits {
    /// 16 plies, any captures, two quiet checks: longer than any real
    /// exchange on one point, and enough for a fork or a discovered check
    /// before the win back.
    fn default() -> ExchangeLimits {
        ExchangeLimits {
            max_plies: 16,
            scope: CaptureScope::Any,
            max_quiet_checks: QUIET_CHECKS,
            spared: 0,
        }
    }
}

/// Default for [`ExchangeLimits::max_quiet_checks`]: a fork or a
/// discovered check by each side. Measured on every capture of 9,000
/// positions from master games (16 plies): with 2 the search averages about
/// 60 µs a capture, worst about 26,000 nodes; with 4 about 135 µs and
/// 550,000 nodes; unlimited, 330 µs with some captures hitting a million.
const QUIET_CHECKS: usize = 2;

/// The outcome of a capture segment, from the starter's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExchangeResult {
    /// The side that played the first move.
    pub starter: Color,
    /// Material won minus material lost by the starter along [`line`](Self::line).
    pub net: i32,
    /// The principal line, first move included, as both sides play it best.
    pub line: Vec<Move>,
    /// The side left without a legal move at the end of the line (将死 or
    /// 困毙), if the segment ends that way.
    pub mated: Option<Color>,
    /// The ply limit or the node budget cut the search somewhere: the result
    /// is then only an estimate.
    pub exhausted: bool,
}

impl ExchangeResult {
    /// Whether the starter comes out ahead: mates, or wins material without
    /// being mated. This is 得子 for 捉 when the first move is the capture.
    pub fn starter_wins(&self) -> bool {
        match self.mated {
            Some(c) => c != self.starter,
            None => self.net > 0,
        }
    }

    /// Whether the starter comes out behind: is mated, or loses material.
    pub fn starter_loses(&self) -> bool {
        match self.mated {
            Some(c) => c == self.starter,
            None => self.net < 0,
        }
    }
}

/// Why an exchange cannot be searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExchangeError {
    /// The first move is not legal for the side that would play it.
    #[error("`{0}` is not a legal move here")]
    IllegalFirstMove(Move),
    /// The first move needs the other side to move, which would need a null
    /// move, but the side to move is in check.
    #[error("the side to move is in check, so the other side cannot be given the move")]
    PassInCheck,
    /// No piece on the first move's origin.
    #[error("no piece stands on {0}")]
    NoPiece(Square),
}

/// The segment starting with `first` played by the side to move.
pub fn exchange(
    pos: &Position,
    first: Move,
    values: &ValueTable,
    limits: ExchangeLimits,
    budget: &mut NodeBudget,
) -> Result<ExchangeResult, ExchangeError> {
    if !pos.is_legal(first) {
        return Err(ExchangeError::IllegalFirstMove(first));
    }
    let mut p = pos.clone();
    Ok(run(&mut p, first, values, limits, budget))
}

/// The segment starting with `first` played by the owner of the piece on
/// `first.from`, whoever is to move: if it is the other side's turn, the
/// turn is passed first (a null move), which is the question 捉 asks after
/// the chaser's move ("had it another move now, would the capture win?").
/// Refused if that needs a pass while the side to move is in check.
pub fn exchange_for(
    pos: &Position,
    first: Move,
    values: &ValueTable,
    limits: ExchangeLimits,
    budget: &mut NodeBudget,
) -> Result<ExchangeResult, ExchangeError> {
    let mover = pos
        .piece_at(first.from)
        .ok_or(ExchangeError::NoPiece(first.from))?
        .color;
    if mover == pos.side_to_move() {
        return exchange(pos, first, values, limits, budget);
    }
    if pos.in_check() {
        return Err(ExchangeError::PassInCheck);
    }
    let mut p = pos.clone();
    p.pass();
    if !p.is_legal(first) {
        return Err(ExchangeError::IllegalFirstMove(first));
    }
    Ok(run(&mut p, first, values, limits, budget))
}

/// Whether the starter's net from the segment that `first` opens is more
/// than `threshold` (a mate of the other side counts as more than any
/// material, being mated as less). The same search as [`exchange_for`]
/// with a null window around the threshold, so it stops as soon as the
/// answer is known: the question "does taking win material" costs far
/// fewer nodes than "how much does it win". The second value says whether
/// a limit cut the search (the answer is then an estimate).
pub fn exchange_exceeds(
    pos: &Position,
    first: Move,
    values: &ValueTable,
    limits: ExchangeLimits,
    budget: &mut NodeBudget,
    threshold: i64,
) -> Result<(bool, bool), ExchangeError> {
    exceeds(
        pos,
        first,
        values,
        limits,
        budget,
        threshold,
        FirstMove::Untested,
    )
}

/// Whether [`exceeds`] must test the first move's legality.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FirstMove {
    /// It may be anything: tested, and refused if illegal.
    Untested,
    /// The caller already found it a legal capture for the owner of the
    /// moving piece (an attack table entry, see
    /// [`super::attack::attackers`]): not tested again.
    KnownLegal,
}

/// [`exchange_exceeds`], with the first move's legality test skipped when
/// the caller vouches for it.
pub(crate) fn exceeds(
    pos: &Position,
    first: Move,
    values: &ValueTable,
    limits: ExchangeLimits,
    budget: &mut NodeBudget,
    threshold: i64,
    first_move: FirstMove,
) -> Result<(bool, bool), ExchangeError> {
    let mover = pos
        .piece_at(first.from)
        .ok_or(ExchangeError::NoPiece(first.from))?
        .color;
    let mut p = pos.clone();
    if mover != pos.side_to_move() {
        if pos.in_check() {
            return Err(ExchangeError::PassInCheck);
        }
        p.pass();
    }
    debug_assert!(first_move == FirstMove::Untested || p.is_legal(first));
    if first_move == FirstMove::Untested && !p.is_legal(first) {
        return Err(ExchangeError::IllegalFirstMove(first));
    }
    // Only the answer is asked: no line is kept.
    let mut search = Search::new(values, budget, limits, None, p.hash());
    let Some(state) = search.open(&mut p, first, limits) else {
        return Ok((false, true));
    };
    // Starter's net > t  <=>  the reply side's score < -t, i.e. <= -t - 1.
    let t = threshold.clamp(-MATE / 2, MATE / 2);
    let score = search.node(&mut p, 1, -t - 1, -t, state);
    Ok((score < -t, search.exhausted))
}

/// Plays the forced first move and searches the replies; `first` is legal.
fn run(
    pos: &mut Position,
    first: Move,
    values: &ValueTable,
    limits: ExchangeLimits,
    budget: &mut NodeBudget,
) -> ExchangeResult {
    let start = pos.clone();
    let starter = pos.side_to_move();
    let mut search = Search::new(values, budget, limits, Some(first), pos.hash());
    let mut line = vec![first];
    match search.open(pos, first, limits) {
        Some(state) => {
            search.node(pos, 1, -INF, INF, state);
            line.extend_from_slice(search.pv.line(1));
        }
        None => search.exhausted = true,
    }
    let (net, mated) = replay(&start, &line, values);
    ExchangeResult {
        starter,
        net,
        line,
        mated,
        exhausted: search.exhausted,
    }
}

#[inline]
fn square_bit(sq: Square) -> u128 {
    sq.bit()
}

/// The squares a move leaves and lands on.
#[inline]
fn touched(m: Move) -> u128 {
    square_bit(m.from) | square_bit(m.to)
}

fn gain_is_capture(pos: &Position, m: Move) -> bool {
    pos.piece_at(m.to).is_some()
}

/// Walks `line` from `start`: the starter's net material and who, if
/// anyone, is left without a legal move at its end.
fn replay(start: &Position, line: &[Move], values: &ValueTable) -> (i32, Option<Color>) {
    let starter = start.side_to_move();
    let mut p = start.clone();
    let mut net: i64 = 0;
    for &m in line {
        let v = i64::from(captured_value(&p, m, values));
        if p.side_to_move() == starter {
            net += v;
        } else {
            net -= v;
        }
        p.make(m);
    }
    let mated = if p.has_legal_move() {
        None
    } else {
        Some(p.side_to_move())
    };
    (
        net.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
        mated,
    )
}

/// Whether a node's move is legal: in check the node's moves are
/// untested answers ([`Position::candidates_wanted_into`]), otherwise legal.
#[inline]
fn is_legal_answer(pos: &Position, in_check: bool, m: Move) -> bool {
    !in_check || pos.keeps_own_king_safe(m.from, m.to)
}

#[inline]
fn captured_value(pos: &Position, m: Move, values: &ValueTable) -> i32 {
    pos.piece_at(m.to).map_or(0, |v| values.value_of(v, m.to))
}

/// Scores are from the side to move's view; material fits far below MATE.
const INF: i64 = 1 << 50;
const MATE: i64 = 1 << 40;

/// For [`CaptureScope::RecaptureOnly`]: where the enemy piece that made the
/// last capture now stands, for each side (indexed by the hunting colour).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Targets {
    hunt: [Option<Square>; 2],
}

impl Targets {
    /// The targets after `m` is played by the side to move `mover`; the
    /// caller passes whether `m` captures. Indexed by who hunts.
    #[inline]
    fn after_by(self, mover: Color, m: Move, captures: bool) -> Targets {
        let me = mover.index();
        let them = mover.opponent().index();
        let mut t = self;
        if captures {
            // The capturer is now the opponent's target; if it took the piece
            // the mover was hunting, that hunt is over.
            t.hunt[them] = Some(m.to);
            if t.hunt[me] == Some(m.to) {
                t.hunt[me] = None;
            }
        } else if t.hunt[them] == Some(m.from) {
            // The hunted capturer stepped away (e.g. answering a check).
            t.hunt[them] = Some(m.to);
        }
        t
    }
}

/// What a node inherits from the line above it.
#[derive(Clone, Copy, Debug)]
struct LineState {
    /// The material balance so far, from the side to move's view.
    material: i64,
    targets: Targets,
    /// Quiet checks still allowed.
    quiet_checks: usize,
    /// What is left of [`ExchangeLimits::spared`].
    spared: u128,
}

struct Search<'a> {
    values: &'a ValueTable,
    budget: &'a mut NodeBudget,
    max_ply: usize,
    scope: CaptureScope,
    /// The side that played the first move.
    starter: Color,
    exhausted: bool,
    pv: Pv,
    /// The hash of the position at each ply of the current line.
    hashes: [u64; MAX_PLIES + 2],
    /// Move ordering: (score, index in the node's move list, must check)
    /// for the nodes of the current line, each node's run after its
    /// parent's.
    cands: Vec<(i64, u8, bool)>,
    lists: MoveLists,
}

thread_local! {
    /// The candidate stack of the thread's last search, kept emptied: most
    /// searches visit a handful of nodes, and growing a stack for each was a
    /// good part of their cost.
    static CANDS: std::cell::Cell<Vec<(i64, u8, bool)>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Drop for Search<'_> {
    fn drop(&mut self) {
        let mut cands = std::mem::take(&mut self.cands);
        cands.clear();
        CANDS.with(|c| c.set(cands));
    }
}

impl<'a> Search<'a> {
    fn new(
        values: &'a ValueTable,
        budget: &'a mut NodeBudget,
        limits: ExchangeLimits,
        line_from: Option<Move>,
        hash: u64,
    ) -> Search<'a> {
        let max_ply = limits.max_plies.clamp(1, MAX_PLIES);
        let mut hashes = [0; MAX_PLIES + 2];
        hashes[0] = hash;
        Search {
            values,
            budget,
            max_ply,
            scope: limits.scope,
            starter: Color::Red,
            exhausted: false,
            // A line table only for a search whose line is asked for.
            pv: line_from.map_or_else(Pv::none, |first| Pv::new(max_ply, first)),
            hashes,
            cands: CANDS.with(std::cell::Cell::take),
            lists: MoveLists::new(),
        }
    }

    /// Plays the forced first move (one node of the budget) and returns the
    /// state the replies start from; `None` when the budget is already spent.
    fn open(
        &mut self,
        pos: &mut Position,
        first: Move,
        limits: ExchangeLimits,
    ) -> Option<LineState> {
        if !self.budget.spend() {
            return None;
        }
        let starter = pos.side_to_move();
        self.starter = starter;
        let gain = captured_value(pos, first, self.values);
        let targets = Targets::default().after_by(starter, first, gain_is_capture(pos, first));
        pos.make(first);
        Some(LineState {
            material: -i64::from(gain),
            targets,
            quiet_checks: limits.max_quiet_checks,
            spared: limits.spared & !touched(first),
        })
    }
}

impl Search<'_> {
    /// Whether the position at `ply` already stood at an earlier ply of the
    /// line with the same side to move.
    fn repeats(&self, ply: usize) -> bool {
        let Some(&h) = self.hashes.get(ply) else {
            return false;
        };
        earlier_same_side(&self.hashes, ply, h)
    }

    /// Negamax with alpha-beta. The state's material is the balance so far
    /// from the side to move's view. Returns the value for the side to move.
    fn node(
        &mut self,
        pos: &mut Position,
        ply: usize,
        alpha: i64,
        beta: i64,
        state: LineState,
    ) -> i64 {
        let mut moves = self.lists.take();
        let score = self.node_with(pos, ply, alpha, beta, state, &mut moves);
        self.lists.give(moves);
        score
    }

    /// [`Self::node`] with a move list to generate into.
    fn node_with(
        &mut self,
        pos: &mut Position,
        ply: usize,
        mut alpha: i64,
        beta: i64,
        state: LineState,
        moves: &mut MoveList,
    ) -> i64 {
        let LineState {
            material,
            targets,
            quiet_checks,
            spared,
        } = state;
        self.pv.clear(ply);
        if let Some(slot) = self.hashes.get_mut(ply) {
            *slot = pos.hash();
        }
        if self.repeats(ply) {
            // Checks that go round in a circle win nothing: the line ends here.
            return material;
        }
        let mut checks = None;
        let in_check = if material >= beta {
            if !pos.in_check() {
                // Standing pat already refutes the line above; only a side
                // with no move at all (困毙) cannot stand.
                return if pos.has_legal_move_out_of_check() {
                    material
                } else {
                    -(MATE - ply as i64)
                };
            }
            pos.check_answer_candidates_into(moves);
            true
        } else {
            // Out of check, only captures and (while quiet checks remain)
            // moves that may check are candidates, and only they are
            // generated; in check, every answer is.
            checks = (quiet_checks > 0).then(|| CheckFilter::new(pos));
            let wanted = match &checks {
                Some(c) => c.wanted(pos, true),
                None => Wanted {
                    to: pos.occupancy(pos.side_to_move().opponent()),
                    ..Wanted::default()
                },
            };
            pos.candidates_wanted_into(&wanted, moves)
        };
        // In check, `moves` are the answers before the legality test, which
        // each gets as it is tried: the first answer that holds often ends
        // the node. Out of check they are legal.
        if moves.is_empty() && (in_check || !pos.has_legal_move_out_of_check()) {
            // 将死 or 困毙: the side to move has lost, the later the better for it.
            return -(MATE - ply as i64);
        }
        let us = pos.side_to_move();
        let hunted = match self.scope {
            CaptureScope::Any => None,
            CaptureScope::RecaptureOnly => Some(targets.hunt[us.index()]),
        };
        let spared = if us == self.starter { 0 } else { spared };
        let capture_allowed = |to: Square| {
            spared & square_bit(to) == 0
                && match hunted {
                    None => true,
                    Some(t) => t == Some(to),
                }
        };
        if ply >= self.max_ply {
            if in_check {
                if !moves.iter().any(|&m| is_legal_answer(pos, in_check, m)) {
                    return -(MATE - ply as i64);
                }
                self.exhausted = true;
            } else if moves
                .iter()
                .any(|m| pos.piece_at(m.to).is_some() && capture_allowed(m.to))
            {
                self.exhausted = true;
            }
            return material;
        }
        let mut best = -INF;
        if !in_check {
            // Stand pat: stop here and keep the material.
            best = material;
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        // Candidates, best first: captures by most valuable victim then least
        // valuable capturer, then possible checks (or, in check, all answers).
        let checks = if in_check { None } else { checks };
        // The candidates of every node of the line share one stack: this
        // node's are the entries from `first` on, and the nodes below push
        // theirs after them and take them off again.
        let first = self.cands.len();
        for (i, &m) in moves.iter().enumerate() {
            let entry = match pos.piece_at(m.to) {
                Some(victim) if in_check || capture_allowed(m.to) => {
                    let v = i64::from(self.values.value_of(victim, m.to));
                    let a = pos
                        .piece_at(m.from)
                        .map_or(0, |p| i64::from(self.values.value_of(p, m.from)));
                    (v.saturating_mul(1 << 20).saturating_sub(a), false)
                }
                _ if in_check => (i64::MIN, false),
                _ if checks.is_some_and(|c| c.may_check(pos, m)) => (i64::MIN, true),
                _ => continue,
            };
            self.cands.push((entry.0, i as u8, entry.1));
        }
        let last = self.cands.len();
        // Whether an answer to check passed the legality test.
        let mut answered = false;
        // Stable: equal scores keep the generation's order, so the line
        // found among equal ones does not hang on the sort's algorithm.
        self.cands[first..last].sort_by_key(|c| std::cmp::Reverse(c.0));
        for k in first..last {
            let Some(&(_, i, needs_check)) = self.cands.get(k) else {
                break;
            };
            let Some(&m) = moves.get(i as usize) else {
                continue;
            };
            if !is_legal_answer(pos, in_check, m) {
                continue;
            }
            answered = true;
            if !self.budget.spend() {
                self.exhausted = true;
                break;
            }
            let captured = pos.piece_at(m.to).is_some();
            let victim_value = i64::from(captured_value(pos, m, self.values));
            let undo = pos.make(m);
            if needs_check && !pos.in_check() {
                // A move that turned out not to check: not part of the segment.
                pos.unmake(m, undo);
                continue;
            }
            let next = LineState {
                material: -(material + victim_value),
                targets: targets.after_by(us, m, captured),
                quiet_checks: quiet_checks.saturating_sub(usize::from(needs_check)),
                spared: state.spared & !touched(m),
            };
            let score = -self.node(pos, ply + 1, -beta, -alpha, next);
            pos.unmake(m, undo);
            if score > best {
                best = score;
                self.pv.update(ply, m);
            }
            if best > alpha {
                alpha = best;
                if alpha >= beta {
                    break;
                }
            }
        }
        self.cands.truncate(first);
        if best == -INF {
            if !answered && !moves.iter().any(|&m| is_legal_answer(pos, in_check, m)) {
                // In check with no legal answer: 将死.
                return -(MATE - ply as i64);
            }
            // In check, and the budget ran out before any answer was tried.
            self.exhausted = true;
            return material;
        }
        best
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

    fn run_exchange(fen: &str, first: &str, limits: ExchangeLimits) -> ExchangeResult {
        let p = pos(fen);
        let mut budget = NodeBudget::default();
        exchange(
            &p,
            mv(first),
            &ValueTable::conventional(),
            limits,
            &mut budget,
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn rook_takes_a_protected_cannon_and_loses_five() {
        // Red rook a0 takes the black cannon a5 (+5); the black rook a9 retakes
        // down the open file (−10); nothing red can take back: 5 − 10 = −5.
        let r = run_exchange(
            "r2k5/9/9/9/c8/9/9/9/9/R3K4 w",
            "a0a5",
            ExchangeLimits::default(),
        );
        assert_eq!(r.net, -5);
        assert_eq!(text(&r.line), ["a0a5", "a9a5"]);
        assert_eq!(r.mated, None);
        assert!(!r.exhausted);
        assert!(r.starter_loses());
    }

    #[test]
    fn rook_takes_an_unprotected_cannon_and_wins_five() {
        let r = run_exchange(
            "3k5/9/9/9/c8/9/9/9/9/R3K4 w",
            "a0a5",
            ExchangeLimits::default(),
        );
        assert_eq!(r.net, 5);
        assert_eq!(text(&r.line), ["a0a5"]);
        assert!(r.starter_wins());
    }

    #[test]
    fn a_forking_check_is_a_hidden_root() {
        // The black cannon b3 has no direct root. But after Rb7xb3 (+5) the
        // black horse d3 jumps to c1 (leg d2 empty) with check (leg d1 empty)
        // and attacks b3: the red king must step aside (e1 or d0; f0 would
        // face the black king f9) and the horse takes the rook (−10): −5.
        let fen = "5k3/9/1R7/9/9/9/1c1n5/9/9/4K4 w";
        let p = pos(fen);
        assert!(!crate::tactics::is_rooted(&p, mv("b3a3").from));
        let r = run_exchange(fen, "b7b3", ExchangeLimits::default());
        assert_eq!(r.net, -5);
        assert_eq!(r.line.len(), 4, "{:?}", text(&r.line));
        assert_eq!(text(&r.line[..2]), ["b7b3", "d3c1"]);
        assert!(["e0e1", "e0d0"].contains(&r.line[2].to_string().as_str()));
        assert_eq!(r.line[3].to_string(), "c1b3");
        // A search that allows no quiet check does not see the hidden root.
        let blind = ExchangeLimits {
            max_quiet_checks: 0,
            ..ExchangeLimits::default()
        };
        assert_eq!(run_exchange(fen, "b7b3", blind).net, 5);
        // Without the horse, the same capture is a clean +5.
        let r = run_exchange(
            "5k3/9/1R7/9/9/9/1c7/9/9/4K4 w",
            "b7b3",
            ExchangeLimits::default(),
        );
        assert_eq!(r.net, 5);
    }

    #[test]
    fn a_capture_into_a_mate_by_checks_is_decisive() {
        // Black's only moves are with the pawn g3 (the king d9 is boxed in by
        // the rook a8 and the facing red king). g3xh3 wins a horse, but then
        // red i1i9 mates.
        let r = run_exchange(
            "3k5/R8/9/9/9/9/6pN1/9/8R/4K4 b",
            "g3h3",
            ExchangeLimits::default(),
        );
        assert_eq!(r.mated, Some(Color::Black));
        assert_eq!(r.line.len(), 2, "{:?}", text(&r.line));
        assert!(r.starter_loses());
        assert!(!r.starter_wins());
    }

    #[test]
    fn the_2007_scope_allows_only_recaptures_of_the_capturer() {
        // Red Ra0xa5 wins the unprotected cannon (+5). Black cannot retake,
        // but its horse g6 can take the unprotected red horse h4 (leg g5
        // empty; the red horse's own jump back is blocked at h5). Red has no
        // capture or check after that (the black king is walled in by its
        // advisors and the elephant e7).
        let fen = "3aka3/9/4b4/6n2/c6P1/7N1/9/9/9/R3K4 w";
        let any = run_exchange(fen, "a0a5", ExchangeLimits::default());
        assert_eq!(any.net, 0, "{:?}", text(&any.line));
        assert_eq!(text(&any.line), ["a0a5", "g6h4"]);
        let limits = ExchangeLimits {
            scope: CaptureScope::RecaptureOnly,
            ..ExchangeLimits::default()
        };
        let strict = run_exchange(fen, "a0a5", limits);
        assert_eq!(strict.net, 5);
        assert_eq!(text(&strict.line), ["a0a5"]);
    }

    #[test]
    fn a_spared_piece_may_not_be_counter_captured() {
        // The position of the 2007-scope test: with the red horse h4 spared,
        // black's only answer to Ra0xa5 is gone and the capture nets +5,
        // though any other capture or check stays allowed. Sparing the rook's
        // own square changes nothing: the rook has left it.
        let fen = "3aka3/9/4b4/6n2/c6P1/7N1/9/9/9/R3K4 w";
        let spare = |sq: &str| ExchangeLimits {
            spared: 1u128 << sq.parse::<Square>().unwrap().index(),
            ..ExchangeLimits::default()
        };
        let r = run_exchange(fen, "a0a5", spare("h4"));
        assert_eq!(r.net, 5, "{:?}", text(&r.line));
        assert_eq!(text(&r.line), ["a0a5"]);
        let r = run_exchange(fen, "a0a5", spare("a0"));
        assert_eq!(r.net, 0, "{:?}", text(&r.line));
    }

    #[test]
    fn an_illegal_first_move_is_refused() {
        let p = pos("3k5/9/9/9/c8/9/9/9/9/R3K4 w");
        let mut budget = NodeBudget::default();
        let values = ValueTable::conventional();
        let e = exchange(
            &p,
            mv("a0b1"),
            &values,
            ExchangeLimits::default(),
            &mut budget,
        );
        assert_eq!(e, Err(ExchangeError::IllegalFirstMove(mv("a0b1"))));
    }

    #[test]
    fn exchange_for_passes_the_turn_to_ask_the_chasers_question() {
        // Black to move; had red another move, Ra0xa5 would win 5.
        let p = pos("3k5/9/9/9/c8/9/9/9/9/R3K4 b");
        let mut budget = NodeBudget::default();
        let values = ValueTable::conventional();
        let r = exchange_for(
            &p,
            mv("a0a5"),
            &values,
            ExchangeLimits::default(),
            &mut budget,
        );
        assert_eq!(r.map(|r| r.net), Ok(5));
        assert_eq!(
            exchange_for(
                &p,
                mv("b2b3"),
                &values,
                ExchangeLimits::default(),
                &mut budget
            ),
            Err(ExchangeError::NoPiece(mv("b2b3").from))
        );
    }

    #[test]
    fn a_spent_budget_marks_the_result_as_an_estimate() {
        let p = pos("r2k5/9/9/9/c8/9/9/9/9/R3K4 w");
        let mut budget = NodeBudget::new(1);
        let values = ValueTable::conventional();
        let r = exchange(
            &p,
            mv("a0a5"),
            &values,
            ExchangeLimits::default(),
            &mut budget,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(r.exhausted);
        assert_eq!(r.net, 5);
    }
}
