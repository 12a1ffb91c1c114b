//! Finding the cycle to judge in a line of moves.
//!
//! A referee is handed either exactly the repeating moves or the whole line
//! that led to the repetition (a game, or a cycle played twice or three
//! times). Either way the cycle judged is the last one: the moves between
//! the final position and the previous time that same position (placement
//! and side to move) stood on the board.

use miette::{Diagnostic, NamedSource, SourceSpan};

use crate::board::{Move, Position};

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
        src: NamedSource<String>,
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
                src: NamedSource::new("moves", text.to_string()),
                end: (end, trimmed.len().saturating_sub(end)).into(),
            })
        }
    }
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
    fn a_line_without_repetition_says_so() {
        let text = "h2e2 h9g7 h0g2";
        let (p, m) = line(START, text);
        let e = last_cycle(&p, &m, text).unwrap_err();
        assert!(matches!(e, CycleError::NoRepetition { moves: 3, .. }));
        assert!(e.to_string().contains("does not repeat"));
    }
}
