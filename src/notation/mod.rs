//! Move notations: ICCS coordinates, WXF and Chinese, read and written.
//!
//! Rulebook cases, scoresheets and engines write moves three ways, and a
//! referee tool has to read all of them and answer in the one its reader
//! uses:
//!
//! | notation | example | module |
//! |---|---|---|
//! | ICCS coordinates | `h2e2` (also `H2-E2`) | [`mod@iccs`] |
//! | WXF | `C2=5` (also `C2.5`) | [`mod@wxf`] |
//! | Chinese | `炮二平五`, `马8进7` | [`mod@chinese`] |
//!
//! [`parse_move`] tells them apart by shape (Chinese characters → Chinese;
//! `a0a0` → ICCS; otherwise WXF) and returns the legal move or a
//! [`MoveError`] that points at the offending characters.
//!
//! # Crowded files: the conventions chosen
//!
//! Two pieces of one kind on a file are told apart by place, not file:
//! 前/后 in Chinese, `+`/`-` in WXF (`前炮平五` = `C+=5`). This holds for
//! advisors and elephants too: the 2020 CXA rulebook (第7条 7.5) gives the
//! rule for any "相同兵种的子", and the WXF page for any tandem pieces.
//! (xqbase writes `仕六退五` there instead, since only the front one can go
//! back; that form is still read.)
//!
//! Pawns can crowd further. The CXA rulebook stops at 前/中/后; we follow:
//!
//! * Chinese, three on a file: 前/中/后. Four or five: 一兵…五兵 counted from
//!   the front, written with Chinese ordinals for both sides — the xqbase
//!   "中国象棋电脑应用规范（二）：着法表示", 中文纵线格式 (2006). On input 前 and
//!   后 also name the first and last of four or five (the traditional
//!   前/二/三/四/后 of Chinese Wikipedia's 象棋 article).
//! * Chinese, two files each with two or more pawns: the place word alone
//!   would name two pawns, so the file is added after the piece:
//!   `前兵九平八` — the traditional form (Chinese Wikipedia, 象棋 §
//!   中式记谱法), chosen over xqbase's single 一…五 series across both
//!   files because it says which file without counting. On input xqbase's
//!   series (its order: files from the mover's right, front to back within
//!   a file) and the short `前九平八` are read too.
//! * WXF, as on the federation's notation page (wxf.org, "Official Xiangqi
//!   Piece Names and Notation", AXF 1980/82, adopted by WXF 1997), "Special
//!   cases for tandem pawns": three on a file `P+`, `P3` (the middle pawn
//!   keeps the plain file), `P-`; four `++`, `P+`, `P-`, `--`; five `++`,
//!   `P+`, `P3`, `P-`, `--`; two crowded files: the file digit replaces the
//!   letter, `3+`, `33` (middle of three), `3-`. The sign follows the
//!   letter as on that page (`C+=5`); the `+C=5` order is read too. We
//!   print `=` for sideways moves and read `.`.
//!
//! Reading is generous (traditional characters, variant piece names, either
//! colour's character, full-width digits, Chinese numerals or digits for
//! either side, the file written where 前/后 was due when the legal moves
//! leave only one reading); writing is the conventional simplified form.

mod chars;
pub mod chinese;
mod designate;
mod error;
pub mod iccs;
mod line;
pub mod pgn;
mod resolve;
mod text;
pub mod wxf;

use std::fmt;

use crate::board::{Move, Position};

pub use error::{MoveError, MoveErrorKind};

use error::Problem;

/// The three notations.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    Iccs,
    Wxf,
    Chinese,
}

impl Notation {
    pub const ALL: [Notation; 3] = [Notation::Iccs, Notation::Wxf, Notation::Chinese];

    pub const fn name(self) -> &'static str {
        match self {
            Notation::Iccs => "iccs",
            Notation::Wxf => "wxf",
            Notation::Chinese => "chinese",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Notation {
    type Err = String;
    fn from_str(s: &str) -> Result<Notation, String> {
        match s.to_ascii_lowercase().as_str() {
            "iccs" => Ok(Notation::Iccs),
            "wxf" => Ok(Notation::Wxf),
            "chinese" | "zh" => Ok(Notation::Chinese),
            _ => Err(format!(
                "unknown notation `{s}`: expected iccs, wxf or chinese"
            )),
        }
    }
}

/// ICCS coordinates, lower case: `h2e2`.
pub fn iccs(m: Move) -> String {
    iccs::format(m)
}

/// WXF notation of `m`, a legal move in `pos`: `C2=5`.
pub fn wxf(pos: &Position, m: Move) -> String {
    wxf::format(pos, m)
}

/// Chinese notation of `m`, a legal move in `pos`: `炮二平五`.
pub fn chinese(pos: &Position, m: Move) -> String {
    chinese::format(pos, m)
}

/// `m` (legal in `pos`) in the given notation.
pub fn format(pos: &Position, m: Move, notation: Notation) -> String {
    match notation {
        Notation::Iccs => iccs(m),
        Notation::Wxf => wxf(pos, m),
        Notation::Chinese => chinese(pos, m),
    }
}

/// Reads one move in any of the three notations and returns the legal move
/// it names in `pos`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    read_move(pos, text, 0..text.len())
        .map_err(|p| MoveError::new(p, text, "move", 0..text.len(), None))
}

/// Reads a sequence of moves, each in the position the previous ones reach.
/// Moves are separated by whitespace, commas (`,` `，`), `、` or semicolons
/// (`;` `；`), and may carry move numbers (`1.`, `2．`, `1、`, `(1)`).
pub fn parse_line(pos: &Position, text: &str) -> Result<Vec<Move>, MoveError> {
    line::parse_line(pos, text)
}

/// Reads the move in `source[span]`; a malformed move gets a reminder of
/// the shape its notation expects.
fn read_move(pos: &Position, source: &str, span: std::ops::Range<usize>) -> Result<Move, Problem> {
    read_any(pos, source, span).map_err(|p| match (&p.kind, &p.help) {
        (MoveErrorKind::Malformed { .. }, None) => p.with_help(SHAPES),
        _ => p,
    })
}

/// What a move looks like in each notation.
const SHAPES: &str = "a move is ICCS coordinates (`h2e2`), WXF piece-file-direction-number (`C2=5`, `H8+7`) or Chinese piece-file-direction-number (`炮二平五`, `马8进7`)";

fn read_any(pos: &Position, source: &str, span: std::ops::Range<usize>) -> Result<Move, Problem> {
    let token = source.get(span.clone()).unwrap_or("");
    let items = text::items(token, span.start);
    let (Some((_, first)), Some((_, last))) = (items.first(), items.last()) else {
        return Err(Problem::malformed(
            span.start..span.end,
            "a move such as h2e2, C2=5 or 炮二平五",
            "empty move".to_string(),
        ));
    };
    let span = first.start..last.end;
    let text = source.get(span.clone()).unwrap_or(token);
    let color = pos.side_to_move();
    if items.iter().any(|(c, _)| chars::is_cjk(*c)) {
        let d = chinese::read(&items, color, text, span)?;
        return resolve::resolve(pos, &d);
    }
    if let Some((c, r)) = items.iter().find(|(c, _)| !c.is_ascii()) {
        return Err(Problem::malformed(
            r.clone(),
            "a move such as h2e2, C2=5 or 炮二平五",
            format!("unexpected character U+{:04X} in `{text}`", u32::from(*c)),
        ));
    }
    if iccs::looks_like(&items) {
        return iccs::read(pos, &items, text, span);
    }
    let d = wxf::read(&items, color, text, span)?;
    resolve::resolve(pos, &d)
}
