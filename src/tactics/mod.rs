//! The board facts the rulebooks ask about.
//!
//! Every function here is a pure question about a [`Position`](crate::board::Position):
//! it never changes the caller's position (searches work on a clone) and
//! never panics on a legal position. Each serves a rule concept of the
//! referee's vocabulary (brief §2):
//!
//! * [`values`] — 子力价值 (§2.14): material values, given as data by the rules file.
//! * [`attack`] — who really attacks a point: the ground of 将 (§2.1) and 捉 (§2.4).
//! * [`protection`](mod@protection) — 有根 / 真根 / 假根 (§2.4): which pieces protect a piece, and
//!   which of those protections are real for each possible capture.
//! * [`mate`] — 将死, 困毙, 连将杀 and the 杀 question "had the mover another
//!   move now, could it mate?" (§2.3, §2.15).
//! * [`exchange`](mod@exchange) — 完整互吃交换 / 捉的片段论 (§2.4): the net material of a capture
//!   segment, which also sees 暗根 (hidden roots).
//!
//! Searches are bounded by a [`NodeBudget`] so that no input can stall the
//! judge; running out is always reported as such, never silently turned
//! into an answer.

pub mod attack;
pub mod exchange;
pub mod mate;
pub mod protection;
pub mod values;

pub use attack::{
    attackers, can_take, checkers, gives_check, is_attacked, pseudo_attackers, Attacker,
};
pub use exchange::{
    exchange, exchange_exceeds, exchange_for, CaptureScope, ExchangeError, ExchangeLimits,
    ExchangeResult,
};
pub use mate::{
    is_checkmate, is_lost, mate_by_checks, mate_in, mate_threat, MateSearch, ThreatError,
};
pub use protection::{is_rooted, is_rooted_against, protection, CaptureDefence, Protection};
pub use values::ValueTable;

/// A bound on the work of one search, counted in positions visited
/// (one per move made). Shared across calls when the caller wants one
/// budget for a whole judgement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeBudget {
    remaining: u64,
    used: u64,
}

impl NodeBudget {
    /// A budget of `nodes` positions.
    pub const fn new(nodes: u64) -> NodeBudget {
        NodeBudget {
            remaining: nodes,
            used: 0,
        }
    }

    /// Takes one node from the budget; `false` when none was left.
    #[inline]
    pub fn spend(&mut self) -> bool {
        if self.remaining == 0 {
            false
        } else {
            self.remaining -= 1;
            self.used += 1;
            true
        }
    }

    /// Takes up to `nodes` from the budget (what another budget spent);
    /// `false` when fewer were left.
    #[inline]
    pub fn spend_many(&mut self, nodes: u64) -> bool {
        let taken = nodes.min(self.remaining);
        self.remaining -= taken;
        self.used += taken;
        taken == nodes
    }

    /// Nodes still available.
    pub const fn remaining(&self) -> u64 {
        self.remaining
    }

    /// Nodes spent so far.
    pub const fn used(&self) -> u64 {
        self.used
    }

    /// Whether nothing is left.
    pub const fn is_exhausted(&self) -> bool {
        self.remaining == 0
    }
}

impl Default for NodeBudget {
    /// One million nodes: far more than any exchange or short mate needs,
    /// a few tens of milliseconds at worst.
    fn default() -> NodeBudget {
        NodeBudget::new(1_000_000)
    }
}

/// Whether `hash` stands in `hashes` at an earlier ply than `ply` with the
/// same side to move (an even number of plies back): the searches' test of
/// a line that comes round. A plain loop: every position searched asks it,
/// and a stepped range cost more than the comparisons.
#[inline]
pub(crate) fn earlier_same_side(hashes: &[u64], ply: usize, hash: u64) -> bool {
    let mut i = ply;
    while i >= 2 {
        i -= 2;
        if hashes.get(i) == Some(&hash) {
            return true;
        }
    }
    false
}

/// The move lists a search's nodes generate into, one per node of the
/// current line, kept by the thread from one search to the next: a list
/// made per position (zeroed, then moved out of the generator) cost as much
/// as a position's captures. Boxed, so a node takes and gives back a
/// pointer, not 258 bytes.
#[allow(clippy::vec_box)]
pub(crate) struct MoveLists(Vec<Box<crate::board::MoveList>>);

thread_local! {
    #[allow(clippy::vec_box)]
    static MOVE_LISTS: std::cell::Cell<Vec<Box<crate::board::MoveList>>> =
        const { std::cell::Cell::new(Vec::new()) };
}

impl MoveLists {
    /// The lists the thread's last search left.
    pub(crate) fn new() -> MoveLists {
        MoveLists(MOVE_LISTS.with(std::cell::Cell::take))
    }

    /// A list for a node, to be given back with [`Self::give`].
    #[inline]
    pub(crate) fn take(&mut self) -> Box<crate::board::MoveList> {
        self.0.pop().unwrap_or_default()
    }

    #[inline]
    pub(crate) fn give(&mut self, list: Box<crate::board::MoveList>) {
        self.0.push(list);
    }
}

impl Drop for MoveLists {
    fn drop(&mut self) {
        let lists = std::mem::take(&mut self.0);
        MOVE_LISTS.with(|l| l.set(lists));
    }
}

/// A triangular principal-variation table: row `ply` holds the best line
/// found from `ply` on. One allocation per search, made up front, so the
/// recursion copies lines without allocating.
pub(crate) struct Pv {
    width: usize,
    moves: Vec<crate::board::Move>,
    lens: Vec<usize>,
}

impl Pv {
    /// A table for lines of up to `plies` plies; `filler` is any move (the
    /// slots beyond a row's length are never read).
    pub(crate) fn new(plies: usize, filler: crate::board::Move) -> Pv {
        let width = plies + 2;
        Pv {
            width,
            moves: vec![filler; width * width],
            lens: vec![0; width],
        }
    }

    /// No table at all: a search asked only for its value keeps no line.
    pub(crate) fn none() -> Pv {
        Pv {
            width: 0,
            moves: Vec::new(),
            lens: Vec::new(),
        }
    }

    /// Empties the line at `ply` (the node has no continuation yet).
    #[inline]
    pub(crate) fn clear(&mut self, ply: usize) {
        if let Some(len) = self.lens.get_mut(ply) {
            *len = 0;
        }
    }

    /// The line at `ply` becomes `m` followed by the line at `ply + 1`.
    #[inline]
    pub(crate) fn update(&mut self, ply: usize, m: crate::board::Move) {
        let w = self.width;
        if ply + 1 >= w {
            return;
        }
        let child_len = self.lens[ply + 1].min(w - 1);
        let (head, tail) = self.moves.split_at_mut((ply + 1) * w);
        let row = &mut head[ply * w..];
        row[0] = m;
        row[1..=child_len].copy_from_slice(&tail[..child_len]);
        self.lens[ply] = child_len + 1;
    }

    /// The line found from `ply`.
    pub(crate) fn line(&self, ply: usize) -> &[crate::board::Move] {
        let len = self.lens.get(ply).copied().unwrap_or(0);
        self.moves
            .get(ply * self.width..ply * self.width + len)
            .unwrap_or(&[])
    }
}

// Tests state their expectations by panicking.
#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::earlier_same_side;

    /// Only the positions an even number of plies back count: the same
    /// placement with the other side to move is another position.
    #[test]
    fn a_line_comes_round_only_with_the_same_side_to_move() {
        let (a, b, c) = (11, 22, 33);
        // The line's positions by ply: a, b, c, b, a.
        let line = [a, b, c, b, a];
        assert!(earlier_same_side(&line, 3, b), "b at plies 1 and 3");
        assert!(earlier_same_side(&line, 4, a), "a at plies 0 and 4");
        assert!(!earlier_same_side(&line, 2, c), "c stands only at ply 2");
        assert!(
            !earlier_same_side(&line, 3, a),
            "a stands three plies back: the other side to move"
        );
        assert!(
            !earlier_same_side(&line, 1, b),
            "ply 1 has no earlier ply with the same side to move"
        );
        assert!(!earlier_same_side(&line, 0, a), "ply 0 has no earlier ply");
    }
}
