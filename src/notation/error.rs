//! Why a move could not be read, pointing at the exact characters.
//!
//! A referee pastes a move list from a scoresheet; when one move is wrong
//! the diagnostic has to say which characters, what was expected there, and
//! what would have been right (the legal moves of that piece, or the pieces
//! the text could have meant), in the notation the referee used.

use std::fmt;
use std::ops::Range;

use miette::{Diagnostic, LabeledSpan, SourceCode};

use crate::board::{Color, IllegalMove, Kind, Move};
use crate::diagnostic::SourceText;

/// What went wrong, with the facts a caller may want to act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveErrorKind {
    /// The text is not shaped like a move; `expected` says what should have
    /// stood at the labelled place.
    Malformed { expected: String },
    /// A character stands where a piece is named but names no piece.
    UnknownPiece { found: char },
    /// The side to move has no piece answering the description (`kind` is
    /// `None` for coordinates naming an empty point).
    NoSuchPiece { color: Color, kind: Option<Kind> },
    /// The text fits several legal moves.
    Ambiguous { candidates: Vec<Move> },
    /// The piece is there but cannot move so. `reasons` holds the board's
    /// explanation for each piece that was meant; it is empty when the text
    /// describes no movement such a piece can make at all (a horse going
    /// three files across).
    IllegalMove { reasons: Vec<IllegalMove> },
}

impl MoveErrorKind {
    /// The stable diagnostic code, `qili::notation::…`.
    pub fn code(&self) -> &'static str {
        match self {
            MoveErrorKind::Malformed { .. } => "qili::notation::malformed",
            MoveErrorKind::UnknownPiece { .. } => "qili::notation::unknown_piece",
            MoveErrorKind::NoSuchPiece { .. } => "qili::notation::no_such_piece",
            MoveErrorKind::Ambiguous { .. } => "qili::notation::ambiguous",
            MoveErrorKind::IllegalMove { .. } => "qili::notation::illegal_move",
        }
    }
}

/// A problem found while reading one move, before it is placed in its
/// source text. Spans are byte ranges of the whole source.
#[derive(Clone, Debug)]
pub(crate) struct Problem {
    pub kind: MoveErrorKind,
    pub message: String,
    pub label: String,
    pub help: Option<String>,
    pub span: Range<usize>,
}

impl Problem {
    pub fn new(kind: MoveErrorKind, span: Range<usize>, message: String, label: String) -> Problem {
        Problem {
            kind,
            message,
            label,
            help: None,
            span,
        }
    }

    pub fn malformed(span: Range<usize>, expected: &str, message: String) -> Problem {
        Problem::new(
            MoveErrorKind::Malformed {
                expected: expected.to_string(),
            },
            span,
            message,
            format!("expected {expected}"),
        )
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Problem {
        self.help = Some(help.into());
        self
    }
}

/// A move that could not be read or played, as a miette diagnostic over the
/// text it came from. Boxed inside so that `Result<Move, MoveError>` stays
/// small on the happy path.
#[derive(Debug)]
pub struct MoveError(Box<Inner>);

#[derive(Debug)]
struct Inner {
    kind: MoveErrorKind,
    message: String,
    label: String,
    help: Option<String>,
    span: Range<usize>,
    move_span: Range<usize>,
    ply: Option<usize>,
    source: SourceText,
}

impl MoveError {
    /// Places `problem` in `text` (named `name` in the report), the move
    /// occupying `move_span`, at index `ply` of a line if it came from one.
    pub(crate) fn new(
        problem: Problem,
        text: &str,
        name: &str,
        move_span: Range<usize>,
        ply: Option<usize>,
    ) -> MoveError {
        let clamp = |r: Range<usize>| {
            let end = r.end.min(text.len());
            r.start.min(end)..end
        };
        MoveError(Box::new(Inner {
            kind: problem.kind,
            message: problem.message,
            label: problem.label,
            help: problem.help,
            span: clamp(problem.span),
            move_span: clamp(move_span),
            ply,
            source: SourceText::new(name, text.to_string()),
        }))
    }

    pub fn kind(&self) -> &MoveErrorKind {
        &self.0.kind
    }

    /// The stable code, `qili::notation::…`.
    pub fn code(&self) -> &'static str {
        self.0.kind.code()
    }

    /// Byte range of the offending characters in the source text.
    pub fn span(&self) -> Range<usize> {
        self.0.span.clone()
    }

    /// Byte range of the whole offending move in the source text.
    pub fn move_span(&self) -> Range<usize> {
        self.0.move_span.clone()
    }

    /// Index (0-based ply) of the offending move in a line; `None` for a
    /// single move.
    pub fn ply(&self) -> Option<usize> {
        self.0.ply
    }

    /// The text the move was read from.
    pub fn source_text(&self) -> &str {
        self.0.source.inner()
    }

    /// What should have stood at the span.
    pub fn label(&self) -> &str {
        &self.0.label
    }

    pub fn help_text(&self) -> Option<&str> {
        self.0.help.as_deref()
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.ply {
            Some(ply) => write!(f, "move {} of the line: {}", ply + 1, self.0.message),
            None => f.write_str(&self.0.message),
        }
    }
}

impl std::error::Error for MoveError {}

impl Diagnostic for MoveError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.0.kind.code()))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.0
            .help
            .as_ref()
            .map(|h| Box::new(h.as_str()) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.0.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(
                Some(self.0.label.clone()),
                (self.0.span.start, self.0.span.len()),
            ),
        )))
    }
}
