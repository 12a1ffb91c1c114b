//! Xiangqi FEN as UCCI engines write it: ten ranks from black's back rank
//! (rank 9) down to red's (rank 0), `K A B N R C P` for red and lower case for
//! black (`E`/`H` accepted for elephant/horse), then `w` (or `r`) or `b`.
//!
//! Every problem is reported with the byte span of the character that causes
//! it, so a diagnostic can underline it and name its column.

use std::fmt;
use std::ops::Range;

use miette::{Diagnostic, LabeledSpan, SourceCode};

use crate::diagnostic::SourceText;

use super::position::{Position, Setup, SetupError};
use super::types::{Color, File, Piece, Rank, Square};

/// The opening position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Parses and validates a FEN.
pub fn parse_fen(fen: &str) -> Result<Position, FenError> {
    let (setup, spans, placement_span) = parse_setup(fen)?;
    setup.validate().map_err(|errors| {
        FenError::new(
            fen,
            errors
                .into_iter()
                .map(|e| {
                    let span = e
                        .square()
                        .and_then(|sq| spans[sq.index()].clone())
                        .unwrap_or_else(|| placement_span.clone());
                    FenProblem::new(fen, span, FenProblemKind::Setup(e))
                })
                .collect(),
        )
    })
}

type Spans = Vec<Option<Range<usize>>>;

/// Parses a FEN's syntax into an unvalidated [`Setup`], with the span of the
/// letter that put each piece on its square.
pub fn parse_setup(fen: &str) -> Result<(Setup, Spans, Range<usize>), FenError> {
    let mut problems = Vec::new();
    let fields = fields(fen);
    let Some((placement, pstart)) = fields.first().copied() else {
        return Err(FenError::new(
            fen,
            vec![FenProblem::new(fen, 0..fen.len(), FenProblemKind::Empty)],
        ));
    };
    let placement_span = pstart..pstart + placement.len();
    let mut setup = Setup::empty();
    let mut spans: Spans = vec![None; 90];

    let ranks: Vec<(usize, &str)> = {
        let mut v = Vec::new();
        let mut start = 0;
        for (i, ch) in placement.char_indices() {
            if ch == '/' {
                v.push((pstart + start, &placement[start..i]));
                start = i + 1;
            }
        }
        v.push((pstart + start, &placement[start..]));
        v
    };
    if ranks.len() != 10 {
        problems.push(FenProblem::new(
            fen,
            placement_span.clone(),
            FenProblemKind::RankCount { found: ranks.len() },
        ));
    }
    for (row, &(start, text)) in ranks.iter().enumerate().take(10) {
        let rank = Rank::new(9 - row as u8);
        let mut file = 0usize;
        let mut overflow_reported = false;
        for (i, ch) in text.char_indices() {
            let span = start + i..start + i + ch.len_utf8();
            let width = match ch {
                '1'..='9' => ch as usize - '0' as usize,
                '0' => {
                    problems.push(FenProblem::new(fen, span, FenProblemKind::ZeroDigit));
                    continue;
                }
                _ => match Piece::from_fen_char(ch) {
                    Some(piece) => {
                        if let (Some(f), Some(r)) = (File::new(file as u8), rank) {
                            let sq = Square::new(f, r);
                            setup.put(sq, Some(piece));
                            spans[sq.index()] = Some(span.clone());
                        }
                        1
                    }
                    None => {
                        problems.push(FenProblem::new(
                            fen,
                            span.clone(),
                            FenProblemKind::UnknownLetter { ch },
                        ));
                        1
                    }
                },
            };
            file += width;
            if file > 9 && !overflow_reported {
                overflow_reported = true;
                let total = count_files(text);
                problems.push(FenProblem::new(
                    fen,
                    span,
                    FenProblemKind::RankLength {
                        rank: 9 - row as u8,
                        found: total,
                    },
                ));
            }
        }
        if file < 9 {
            let span = if text.is_empty() {
                start.saturating_sub(1)..start.max(1).min(fen.len())
            } else {
                start..start + text.len()
            };
            problems.push(FenProblem::new(
                fen,
                span,
                FenProblemKind::RankLength {
                    rank: 9 - row as u8,
                    found: file,
                },
            ));
        }
    }

    match fields.get(1) {
        None => problems.push(FenProblem::new(
            fen,
            placement_span.end.saturating_sub(1)..placement_span.end,
            FenProblemKind::MissingSide,
        )),
        Some(&(side, start)) => match side {
            "w" | "r" | "W" | "R" => setup.side = Color::Red,
            "b" | "B" => setup.side = Color::Black,
            _ => problems.push(FenProblem::new(
                fen,
                start..start + side.len(),
                FenProblemKind::BadSide {
                    found: side.to_string(),
                },
            )),
        },
    }
    if let Some(&(extra, start)) = fields.get(6) {
        problems.push(FenProblem::new(
            fen,
            start..start + extra.len(),
            FenProblemKind::TrailingField,
        ));
    }

    if problems.is_empty() {
        Ok((setup, spans, placement_span))
    } else {
        Err(FenError::new(fen, problems))
    }
}

/// Whitespace-separated fields with their byte offsets.
fn fields(s: &str) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in s.char_indices() {
        if ch.is_whitespace() {
            if let Some(st) = start.take() {
                out.push((&s[st..i], st));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(st) = start {
        out.push((&s[st..], st));
    }
    out
}

fn count_files(text: &str) -> usize {
    text.chars()
        .map(|c| match c {
            '1'..='9' => c as usize - '0' as usize,
            '0' => 0,
            _ => 1,
        })
        .sum()
}

/// The FEN of a position, in the full UCCI form (`… w - - 0 1`).
pub fn to_fen(pos: &Position) -> String {
    let mut s = String::with_capacity(90);
    for r in (0..10u8).rev() {
        let mut empty = 0;
        for f in 0..9u8 {
            let sq = match (File::new(f), Rank::new(r)) {
                (Some(f), Some(r)) => Square::new(f, r),
                _ => continue,
            };
            match pos.piece_at(sq) {
                Some(p) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(p.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if r > 0 {
            s.push('/');
        }
    }
    s.push_str(match pos.side_to_move() {
        Color::Red => " w - - 0 1",
        Color::Black => " b - - 0 1",
    });
    s
}

/// One thing wrong with a FEN, at one place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenProblem {
    pub kind: FenProblemKind,
    /// Byte range in the FEN.
    pub span: Range<usize>,
    /// 1-based column (in characters) of the span's start.
    pub column: usize,
}

impl FenProblem {
    fn new(fen: &str, span: Range<usize>, kind: FenProblemKind) -> FenProblem {
        let start = span.start.min(fen.len());
        let column = fen.get(..start).map_or(start, |p| p.chars().count()) + 1;
        FenProblem { kind, span, column }
    }

    pub fn code(&self) -> &'static str {
        match &self.kind {
            FenProblemKind::Empty => "qili::fen::empty",
            FenProblemKind::RankCount { .. } => "qili::fen::rank_count",
            FenProblemKind::RankLength { .. } => "qili::fen::rank_length",
            FenProblemKind::UnknownLetter { .. } => "qili::fen::unknown_letter",
            FenProblemKind::ZeroDigit => "qili::fen::zero_digit",
            FenProblemKind::MissingSide => "qili::fen::missing_side",
            FenProblemKind::BadSide { .. } => "qili::fen::bad_side",
            FenProblemKind::TrailingField => "qili::fen::trailing_field",
            FenProblemKind::Setup(e) => e.code(),
        }
    }

    pub fn help(&self) -> String {
        match &self.kind {
            FenProblemKind::Empty => format!("a FEN looks like `{START_FEN}`"),
            FenProblemKind::RankCount { .. } => {
                "a Xiangqi board has ten ranks separated by `/`, black's back rank first".into()
            }
            FenProblemKind::RankLength { .. } => {
                "each rank covers nine files: letters count one, a digit counts that many empty points".into()
            }
            FenProblemKind::UnknownLetter { .. } => {
                "pieces are K A B N R C P (red) and k a b n r c p (black); E/H are read as B/N".into()
            }
            FenProblemKind::ZeroDigit => "empty points are counted with the digits 1–9".into(),
            FenProblemKind::MissingSide => "add ` w` (red to move) or ` b` (black to move) after the placement".into(),
            FenProblemKind::BadSide { .. } => "the side to move is `w` (or `r`) for red, `b` for black".into(),
            FenProblemKind::TrailingField => "after the side to move, a FEN has at most four fields (`- - 0 1`)".into(),
            FenProblemKind::Setup(e) => e.help(),
        }
    }

    fn label(&self) -> String {
        match &self.kind {
            FenProblemKind::Empty => "expected a FEN here".into(),
            FenProblemKind::RankCount { found } => format!("{found} ranks, expected 10"),
            FenProblemKind::RankLength { found, .. } if *found > 9 => {
                "the rank overflows here".into()
            }
            FenProblemKind::RankLength { found, .. } => format!("{found} files, expected 9"),
            FenProblemKind::UnknownLetter { .. } => "not a piece letter".into(),
            FenProblemKind::ZeroDigit => "expected 1–9 or a piece letter".into(),
            FenProblemKind::MissingSide => "expected `w` or `b` after this".into(),
            FenProblemKind::BadSide { .. } => "expected `w`, `r` or `b`".into(),
            FenProblemKind::TrailingField => "unexpected field".into(),
            FenProblemKind::Setup(SetupError::MissingKing { .. }) => {
                "no king in this placement".into()
            }
            FenProblemKind::Setup(SetupError::KingsFacing { red, .. }) => {
                format!("faces the red king on {red}")
            }
            FenProblemKind::Setup(SetupError::OpponentInCheck { .. }) => {
                "this king is in check".into()
            }
            FenProblemKind::Setup(e) => match e.square() {
                Some(sq) => format!("this piece, on {sq}"),
                None => "here".into(),
            },
        }
    }
}

impl fmt::Display for FenProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            FenProblemKind::Empty => write!(f, "empty FEN"),
            FenProblemKind::RankCount { found } => {
                write!(
                    f,
                    "the placement has {found} rank{} instead of 10 (column {})",
                    if *found == 1 { "" } else { "s" },
                    self.column
                )
            }
            FenProblemKind::RankLength { rank, found } => write!(
                f,
                "rank {rank} covers {found} files instead of 9 (column {})",
                self.column
            ),
            FenProblemKind::UnknownLetter { ch } => {
                write!(f, "unknown piece letter `{ch}` at column {}", self.column)
            }
            FenProblemKind::ZeroDigit => write!(
                f,
                "`0` is not an empty-point count (column {})",
                self.column
            ),
            FenProblemKind::MissingSide => write!(
                f,
                "the side to move is missing after column {}",
                self.column
            ),
            FenProblemKind::BadSide { found } => {
                write!(
                    f,
                    "unknown side to move `{found}` at column {}",
                    self.column
                )
            }
            FenProblemKind::TrailingField => {
                write!(f, "unexpected extra field at column {}", self.column)
            }
            FenProblemKind::Setup(SetupError::MissingKing { color }) => {
                write!(f, "the {color} king is missing")
            }
            FenProblemKind::Setup(e) => write!(f, "{e} (column {})", self.column),
        }
    }
}

/// What is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenProblemKind {
    Empty,
    RankCount { found: usize },
    RankLength { rank: u8, found: usize },
    UnknownLetter { ch: char },
    ZeroDigit,
    MissingSide,
    BadSide { found: String },
    TrailingField,
    Setup(SetupError),
}

/// A FEN that could not be read, with every problem found in it. As a
/// miette diagnostic it shows the first problem and lists the others.
#[derive(Debug)]
pub struct FenError {
    pub fen: String,
    pub problems: Vec<FenProblem>,
    source: SourceText,
}

impl FenError {
    fn new(fen: &str, problems: Vec<FenProblem>) -> FenError {
        FenError {
            fen: fen.to_string(),
            problems,
            source: named_source(fen),
        }
    }

    fn first(&self) -> Option<&FenProblem> {
        self.problems.first()
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.first() {
            Some(p) => write!(f, "invalid FEN: {p}"),
            None => write!(f, "invalid FEN"),
        }
    }
}

impl std::error::Error for FenError {}

impl Diagnostic for FenError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.first()
            .map(|p| Box::new(p.code()) as Box<dyn fmt::Display>)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.first()
            .map(|p| Box::new(p.help()) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let p = self.first()?;
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(Some(p.label()), (p.span.start, p.span.len())),
        )))
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        if self.problems.len() < 2 {
            return None;
        }
        Some(Box::new(
            self.problems[1..].iter().map(|p| p as &dyn Diagnostic),
        ))
    }
}

impl std::error::Error for FenProblem {}

impl Diagnostic for FenProblem {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(FenProblem::code(self)))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(FenProblem::help(self)))
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(
                Some(self.label()),
                (self.span.start, self.span.len()),
            ),
        )))
    }
}

/// The FEN as a named source, for callers that build their own reports.
pub fn named_source(fen: &str) -> SourceText {
    SourceText::new("fen", fen.to_string())
}
