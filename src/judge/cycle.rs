//! Finding the cycle to judge in a line of moves.
//!
//! A referee is handed either exactly the repeating moves or the whole line
//! that led to the repetition (a game, or a cycle played twice or three
//! times). Either way the cycle judged is the last one: the moves between
//! the final position and the previous time that same position (placement
//! and side to move) stood on the board.

use miette::{Diagnostic, SourceSpan};

use crate::board::{Move, Position};
use crate::diagnostic::SourceText;

/// The cycle to judge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// The position the cycle starts from (and returns to).
    pub start: Position,
    /// The moves of the cycle, in order.
    pub moves: Vec<Move>,
    /// How many moves of the line came before the cycle.
    pub offset: usize,
}

/// Why a line of moves holds no cycle to judge.
#[derive(Debug, thiserror::Error, Diagnostic)]
pub enum CycleError {
    #[error("no moves were given")]
    #[diagnostic(
        code(qili::judge::no_moves),
        help("give the moves of the repetition cycle, e.g. --moves \"车二平三 车8平7 车三平二 车7平8\"")
    )]
    NoMoves,
    #[error("the line does not repeat: the position after its last move ({moves} moves) never stood on the board before")]
    #[diagnostic(
        code(qili::judge::no_repetition),
        help("give the moves of a cycle that returns to an earlier position (same pieces on the same points, same side to move); {closest}")
    )]
    NoRepetition {
        moves: usize,
        closest: String,
        #[source_code]
        src: SourceText,
        #[label("the line ends here, in a position not seen before")]
        end: SourceSpan,
    },
}

/// The last cycle of `moves` played from `start`. `text` is the moves as
/// the user wrote them, for the diagnostic.
pub fn last_cycle(start: &Position, moves: &[Move], text: &str) -> Result<Cycle, CycleError> {
    if moves.is_empty() {
        return Err(CycleError::NoMoves);
    }
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut p = start.clone();
    positions.push(p.clone());
    for m in moves {
        p.make(*m);
        positions.push(p.clone());
    }
    let last = positions.len() - 1;
    let key = positions[last].repetition_key();
    let earlier = (0..last)
        .rev()
        .find(|&i| positions[i].repetition_key() == key);
    match earlier {
        Some(i) => Ok(Cycle {
            start: positions[i].clone(),
            moves: moves[i..].to_vec(),
            offset: i,
        }),
        None => {
            let closest = closest_repeat(&positions);
            let trimmed = text.trim_end();
            let end = trimmed.rfind(char::is_whitespace).map_or(0, |i| i + 1);
            Err(CycleError::NoRepetition {
                moves: moves.len(),
                closest,
                src: SourceText::new("moves", text.to_string()),
                end: (end, trimmed.len().saturating_sub(end)).into(),
            })
        }
    }
}

/// Every recurrence in a line, in order: each time a position stands
/// again, the cycle since it last stood ([`Cycle::offset`] is where in the
/// line that was). One repetition played round three times gives a
/// recurrence at every ply from its first return on.
pub fn recurrences(start: &Position, moves: &[Move]) -> Vec<Cycle> {
    let mut seen = std::collections::HashMap::with_capacity(moves.len() + 1);
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut p = start.clone();
    seen.insert(p.repetition_key(), 0);
    positions.push(p.clone());
    let mut out = Vec::new();
    for (k, &m) in moves.iter().enumerate() {
        p.make(m);
        if let Some(i) = seen.insert(p.repetition_key(), k + 1) {
            out.push(Cycle {
                start: positions[i].clone(),
                moves: moves[i..=k].to_vec(),
                offset: i,
            });
        }
        positions.push(p.clone());
    }
    out
}

/// One repetition in a played line: a run of recurrences at consecutive
/// plies (see [`recurrences`]), which a referee rules once, on its last
/// cycle, as [`last_cycle`] does for a line that stops there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repetition {
    /// Moves played when the position first came back.
    pub first_return: usize,
    /// Moves played when it last came back in this run: the line stops
    /// here for the ruling.
    pub last_return: usize,
    /// The last cycle, `moves[cycle.offset..last_return]`.
    pub cycle: Cycle,
}

/// The repetitions of a line, in order. A run ends at the first move that
/// reaches a position not seen before in the line.
pub fn repetitions(start: &Position, moves: &[Move]) -> Vec<Repetition> {
    let mut out: Vec<Repetition> = Vec::new();
    for cycle in recurrences(start, moves) {
        let at = cycle.offset + cycle.moves.len();
        match out.last_mut() {
            Some(run) if run.last_return + 1 == at => {
                run.last_return = at;
                run.cycle = cycle;
            }
            _ => out.push(Repetition {
                first_return: at,
                last_return: at,
                cycle,
            }),
        }
    }
    out
}

/// Where the line did repeat, if anywhere, to point the user at it.
fn closest_repeat(positions: &[Position]) -> String {
    for j in (1..positions.len()).rev() {
        let key = positions[j].repetition_key();
        if let Some(i) = (0..j).rev().find(|&i| positions[i].repetition_key() == key) {
            return format!(
                "the position after move {j} repeats the one after move {i}: \
                 end the line there to judge that cycle"
            );
        }
    }
    "no position of this line occurs twice".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen::parse_fen;
    use crate::notation::parse_line;

    fn line(fen: &str, moves: &str) -> (Position, Vec<Move>) {
        let p = parse_fen(fen).unwrap();
        let m = parse_line(&p, moves).unwrap();
        (p, m)
    }

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    #[test]
    fn an_exact_cycle_is_judged_whole() {
        let text = "h0g2 h9g7 g2h0 g7h9";
        let (p, m) = line(START, text);
        let c = last_cycle(&p, &m, text).unwrap();
        assert_eq!(c.offset, 0);
        assert_eq!(c.moves.len(), 4);
    }

    #[test]
    fn a_longer_line_is_judged_by_its_last_cycle() {
        let text = "h2e2 h9g7 h0g2 g7h9 g2h0 h9g7 h0g2 g7h9";
        let (p, m) = line(START, text);
        let c = last_cycle(&p, &m, text).unwrap();
        assert_eq!(c.offset, 4);
        assert_eq!(c.moves.len(), 4);
        assert_eq!(c.moves[0].to_string(), "g2h0");
    }

    #[test]
    fn a_game_s_repetitions_are_runs_of_returns_each_ruled_on_its_last_cycle() {
        // The horses go out and back twice (the start returns after moves
        // 4 and 8, and every position between returns too), then the rooks
        // go up and back: a new position, then a second run.
        let (p, m) = line(
            START,
            "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9 i0i1 i9i8 i1i0 i8i9 h0g2 h9g7",
        );
        let runs = repetitions(&p, &m);
        assert_eq!(runs.len(), 2, "{runs:?}");
        assert_eq!((runs[0].first_return, runs[0].last_return), (4, 8));
        assert_eq!(runs[0].cycle.offset, 4);
        assert_eq!(runs[0].cycle.moves, m[4..8]);
        assert_eq!(runs[0].cycle.start.repetition_key(), p.repetition_key());
        // i1i0 i8i9 brings back the position after move 8 (at 12), then
        // h0g2 h9g7 those after moves 5 and 6: the last cycle is 6..14.
        assert_eq!((runs[1].first_return, runs[1].last_return), (12, 14));
        assert_eq!(runs[1].cycle.offset, 6);
        assert_eq!(runs[1].cycle.moves, m[6..14]);
        let each: Vec<(usize, usize)> = recurrences(&p, &m[..5])
            .iter()
            .map(|c| (c.offset, c.offset + c.moves.len()))
            .collect();
        assert_eq!(each, [(0, 4), (1, 5)]);
        assert!(repetitions(&p, &m[..3]).is_empty());
    }

    #[test]
    fn a_line_without_repetition_says_so() {
        let text = "h2e2 h9g7 h0g2";
        let (p, m) = line(START, text);
        let e = last_cycle(&p, &m, text).unwrap_err();
        assert!(matches!(e, CycleError::NoRepetition { moves: 3, .. }));
        assert!(e.to_string().contains("does not repeat"));
    }
}
