//! The vocabulary of the board: colours, piece kinds, files, ranks and squares.
//!
//! Everything is a small `Copy` newtype or enum so that a square can never be
//! confused with a file, nor a red piece with a black one. Coordinates follow
//! ICCS: files `a`–`i` from red's left, ranks `0`–`9` from red's side.

use std::fmt;
use std::ops::Not;

/// The two sides. Red moves first.
#[derive(
    Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// The rank a side's pieces advance towards: `+1` for red, `-1` for black.
    #[inline]
    pub const fn forward(self) -> i8 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }

    /// Chinese name of the side as referees write it (红方 / 黑方 without 方).
    pub const fn chinese(self) -> &'static str {
        match self {
            Color::Red => "红",
            Color::Black => "黑",
        }
    }

    pub const fn english(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.opponent()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.english())
    }
}

/// The seven kinds of piece.
#[derive(
    Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    King = 0,
    Advisor = 1,
    Elephant = 2,
    Horse = 3,
    Rook = 4,
    Cannon = 5,
    Pawn = 6,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::King,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Rook,
        Kind::Cannon,
        Kind::Pawn,
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn from_index(i: usize) -> Option<Kind> {
        match i {
            0 => Some(Kind::King),
            1 => Some(Kind::Advisor),
            2 => Some(Kind::Elephant),
            3 => Some(Kind::Horse),
            4 => Some(Kind::Rook),
            5 => Some(Kind::Cannon),
            6 => Some(Kind::Pawn),
            _ => None,
        }
    }

    /// The upper-case FEN letter UCCI engines write (`K A B N R C P`).
    pub const fn fen_char(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Horse => 'N',
            Kind::Rook => 'R',
            Kind::Cannon => 'C',
            Kind::Pawn => 'P',
        }
    }

    /// Reads a FEN letter of either case; `E` and `H` are accepted for the
    /// elephant and the horse because several tools write them.
    pub fn from_fen_char(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'K' => Kind::King,
            'A' => Kind::Advisor,
            'B' | 'E' => Kind::Elephant,
            'N' | 'H' => Kind::Horse,
            'R' => Kind::Rook,
            'C' => Kind::Cannon,
            'P' => Kind::Pawn,
            _ => return None,
        })
    }

    /// The WXF letter (`K A E H R C P`).
    pub const fn wxf_char(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'E',
            Kind::Horse => 'H',
            Kind::Rook => 'R',
            Kind::Cannon => 'C',
            Kind::Pawn => 'P',
        }
    }

    /// Pieces that move along straight lines (车 炮 兵 帅): in Chinese and WXF
    /// notation their 进/退 number is a distance, not a file.
    pub const fn moves_straight(self) -> bool {
        matches!(self, Kind::King | Kind::Rook | Kind::Cannon | Kind::Pawn)
    }

    pub const fn english(self) -> &'static str {
        match self {
            Kind::King => "king",
            Kind::Advisor => "advisor",
            Kind::Elephant => "elephant",
            Kind::Horse => "horse",
            Kind::Rook => "rook",
            Kind::Cannon => "cannon",
            Kind::Pawn => "pawn",
        }
    }
}

/// A piece: a kind and its colour.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}

impl Piece {
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }

    /// Dense index `0..14` (red pieces first), for tables such as Zobrist keys.
    #[inline]
    pub const fn index(self) -> usize {
        self.color.index() * 7 + self.kind.index()
    }

    #[inline]
    pub const fn from_index(i: usize) -> Option<Piece> {
        let color = if i < 7 { Color::Red } else { Color::Black };
        match Kind::from_index(i % 7) {
            Some(kind) if i < 14 => Some(Piece { color, kind }),
            _ => None,
        }
    }

    /// FEN letter: upper case for red, lower case for black.
    pub const fn fen_char(self) -> char {
        let c = self.kind.fen_char();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = Kind::from_fen_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece { color, kind })
    }

    /// The conventional simplified character: red 帅仕相马车炮兵, black 将士象马车炮卒.
    pub const fn chinese(self) -> char {
        match (self.color, self.kind) {
            (Color::Red, Kind::King) => '帅',
            (Color::Black, Kind::King) => '将',
            (Color::Red, Kind::Advisor) => '仕',
            (Color::Black, Kind::Advisor) => '士',
            (Color::Red, Kind::Elephant) => '相',
            (Color::Black, Kind::Elephant) => '象',
            (_, Kind::Horse) => '马',
            (_, Kind::Rook) => '车',
            (_, Kind::Cannon) => '炮',
            (Color::Red, Kind::Pawn) => '兵',
            (Color::Black, Kind::Pawn) => '卒',
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.chinese())
    }
}

/// A file, `a` (0) to `i` (8) from red's left.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct File(u8);

impl File {
    pub const COUNT: usize = 9;

    pub const fn new(index: u8) -> Option<File> {
        if index < 9 {
            Some(File(index))
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    pub fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='i' => Some(File(c as u8 - b'a')),
            'A'..='I' => Some(File(c as u8 - b'A')),
            _ => None,
        }
    }

    /// The file number a side uses in WXF and Chinese notation: each side
    /// counts 1–9 from its own right, so red's 1 is file `i`, black's 1 file `a`.
    pub const fn number_for(self, color: Color) -> u8 {
        match color {
            Color::Red => 9 - self.0,
            Color::Black => self.0 + 1,
        }
    }

    /// Inverse of [`File::number_for`].
    pub const fn from_number(number: u8, color: Color) -> Option<File> {
        if number == 0 || number > 9 {
            return None;
        }
        Some(match color {
            Color::Red => File(9 - number),
            Color::Black => File(number - 1),
        })
    }
}

/// A rank, `0` (red's back rank) to `9` (black's back rank).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    pub const COUNT: usize = 10;

    pub const fn new(index: u8) -> Option<Rank> {
        if index < 10 {
            Some(Rank(index))
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// How far the rank is from `color`'s back rank (0–9).
    pub const fn relative_to(self, color: Color) -> u8 {
        match color {
            Color::Red => self.0,
            Color::Black => 9 - self.0,
        }
    }
}

/// One of the 90 points, numbered `rank * 9 + file`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// Each square's bit in a 90-bit board set: looked up, since a 128-bit
/// shift by a variable amount takes several instructions and the move
/// generation and the searches ask for bits all the time.
static SQUARE_BITS: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

impl Square {
    pub const COUNT: usize = 90;

    /// The square's bit in a board set (bit `i` for square index `i`).
    #[inline]
    pub fn bit(self) -> u128 {
        SQUARE_BITS[self.0 as usize]
    }

    #[inline]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(rank.0 * 9 + file.0)
    }

    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 90 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// For tables whose index is known to be in range.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        Square(index)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn file(self) -> File {
        File(self.0 % 9)
    }

    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 / 9)
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = (self.0 % 9) as i8 + df;
        let r = (self.0 / 9) as i8 + dr;
        if f >= 0 && f < 9 && r >= 0 && r < 10 {
            Some(Square((r * 9 + f) as u8))
        } else {
            None
        }
    }

    /// All 90 squares, rank 0 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0u8..90).map(Square)
    }

    /// Whether a pawn of `color` standing here has crossed the river (过河).
    #[inline]
    pub const fn crossed_river(self, color: Color) -> bool {
        match color {
            Color::Red => self.0 / 9 >= 5,
            Color::Black => self.0 / 9 <= 4,
        }
    }

    /// Whether the square is inside `color`'s palace (九宫).
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.0 % 9;
        let r = self.0 / 9;
        let rank_ok = match color {
            Color::Red => r <= 2,
            Color::Black => r >= 7,
        };
        f >= 3 && f <= 5 && rank_ok
    }

    /// Whether an advisor of `color` can ever stand here (the palace's five points).
    pub const fn is_advisor_point(self, color: Color) -> bool {
        let f = self.0 % 9;
        let r = match color {
            Color::Red => self.0 / 9,
            Color::Black => 9 - self.0 / 9,
        };
        matches!((f, r), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2))
    }

    /// Whether an elephant of `color` can ever stand here (its seven points).
    pub const fn is_elephant_point(self, color: Color) -> bool {
        let f = self.0 % 9;
        let r = match color {
            Color::Red => self.0 / 9,
            Color::Black => 9 - self.0 / 9,
        };
        matches!(
            (f, r),
            (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
        )
    }

    /// Whether a pawn of `color` can ever stand here: on its own side only on
    /// its five starting files, never behind its starting rank.
    pub const fn is_pawn_point(self, color: Color) -> bool {
        let f = self.0 % 9;
        let r = match color {
            Color::Red => self.0 / 9,
            Color::Black => 9 - self.0 / 9,
        };
        if r >= 5 {
            true
        } else {
            r >= 3 && f % 2 == 0
        }
    }
}

impl Square {
    /// The ICCS coordinates (`e2`) as two characters: the wording of the
    /// reasons names squares by the hundred, too often for the formatter.
    pub fn iccs(self) -> [char; 2] {
        let digit = char::from(b'0' + self.rank().index());
        [self.file().char(), digit]
    }
}

impl fmt::Display for Square {
    /// ICCS coordinates, e.g. `e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [file, rank] = self.iccs();
        fmt::Write::write_char(f, file)?;
        fmt::Write::write_char(f, rank)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Square {
    type Err = ();
    /// Parses ICCS coordinates such as `e2` (either case).
    fn from_str(s: &str) -> Result<Square, ()> {
        let mut chars = s.chars();
        let file = chars.next().and_then(File::from_char).ok_or(())?;
        let rank = chars
            .next()
            .and_then(|c| c.to_digit(10))
            .and_then(|d| Rank::new(d as u8))
            .ok_or(())?;
        if chars.next().is_some() {
            return Err(());
        }
        Ok(Square::new(file, rank))
    }
}

/// A move from one square to another. Captures are implied by the board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

impl fmt::Display for Move {
    /// ICCS form, e.g. `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl std::str::FromStr for Move {
    type Err = ();
    /// Parses ICCS coordinates such as `h2e2` (also `H2-E2`); whether the
    /// move is legal is the position's question, not this one's.
    fn from_str(s: &str) -> Result<Move, ()> {
        let t: String = s.chars().filter(|&c| c != '-').collect();
        let from = t.get(..2).ok_or(())?.parse()?;
        let to = t.get(2..).ok_or(())?.parse()?;
        Ok(Move::new(from, to))
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_numbers_count_from_each_sides_right() {
        // 炮二平五 from the start is h2e2: red's 二 is file h, 五 is e.
        assert_eq!(
            File::from_char('h').map(|f| f.number_for(Color::Red)),
            Some(2)
        );
        assert_eq!(
            File::from_char('e').map(|f| f.number_for(Color::Red)),
            Some(5)
        );
        // 炮8平5 for black is h7e7: black's 8 is file h.
        assert_eq!(
            File::from_char('h').map(|f| f.number_for(Color::Black)),
            Some(8)
        );
        assert_eq!(File::from_number(1, Color::Red), File::from_char('i'));
        assert_eq!(File::from_number(1, Color::Black), File::from_char('a'));
        assert_eq!(File::from_number(0, Color::Black), None);
    }

    #[test]
    fn point_sets_have_their_sizes() {
        for color in Color::ALL {
            let count =
                |f: fn(Square, Color) -> bool| Square::all().filter(|&s| f(s, color)).count();
            assert_eq!(count(Square::in_palace), 9);
            assert_eq!(count(Square::is_advisor_point), 5);
            assert_eq!(count(Square::is_elephant_point), 7);
            // 5 files × 2 ranks on its own side, plus the 45 points across the river.
            assert_eq!(count(Square::is_pawn_point), 55);
        }
    }

    #[test]
    fn square_parses_and_prints_iccs() {
        let sq: Square = "e2".parse().unwrap_or(Square(0));
        assert_eq!(sq.to_string(), "e2");
        assert_eq!(sq.index(), 2 * 9 + 4);
        assert!("j2".parse::<Square>().is_err());
        assert!("e10".parse::<Square>().is_err());
    }

    #[test]
    fn move_parses_iccs_with_or_without_a_dash() {
        let m: Result<Move, ()> = "h2e2".parse();
        assert_eq!(m.map(|m| m.to_string()), Ok("h2e2".to_string()));
        assert_eq!("H2-E2".parse::<Move>(), "h2e2".parse::<Move>());
        assert!("h2e".parse::<Move>().is_err());
        assert!("h2e2x".parse::<Move>().is_err());
        assert!("炮二平五".parse::<Move>().is_err());
    }
}
