//! 子力价值 — material values, as data.
//!
//! Serves 得子 ("winning material", brief §2.4) and through it 捉, 兑 and 献:
//! every one of them compares material by a value scale. The rulebooks print
//! no numbers (§2.14), and the editions differ on the pawn, so the scale is
//! never built in: the rules file owns it and passes it in. This module only
//! gives the shape of the table and one documented convention for tests.

use crate::board::{Kind, Piece, Square};

/// A value per kind of piece, with the pawn split by whether it has crossed
/// the river (过河兵 is material; before the river the 1999 text says it is
/// not, §2.14).
///
/// The king's value is kept apart and means only "cannot be traded": no
/// legal line ever captures a king, so it enters a sum only when a caller
/// asks about a king on purpose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueTable {
    pub king: i32,
    pub advisor: i32,
    pub elephant: i32,
    pub horse: i32,
    pub rook: i32,
    pub cannon: i32,
    /// A pawn on the enemy's half of the board (过河兵/卒).
    pub pawn_crossed: i32,
    /// A pawn still on its own half (未过河兵/卒).
    pub pawn_uncrossed: i32,
}

impl ValueTable {
    /// The scale brief §2.14 suggests as a default: 车 10, 马 5, 炮 5, 士 2,
    /// 相 2, uncrossed pawn 0 ("not material" in the 1999 text).
    ///
    /// The crossed pawn's value "floats" in the rulebooks (one pawn for
    /// several pieces, or one piece for several pawns, is not counted as
    /// winning material; from the 2011 trial a pawn given for a rook is). A
    /// single number cannot say that; we choose 2, the value of 士/相, so
    /// that pawn-for-advisor trades are even and a pawn given for a rook is a
    /// clear gain. Rules files that need the floating rule must state it
    /// themselves. The king is 1000: "cannot be traded".
    ///
    /// This table is for tests and examples; the judge always takes the
    /// table of the edition it applies.
    pub const fn conventional() -> ValueTable {
        ValueTable {
            king: 1000,
            advisor: 2,
            elephant: 2,
            horse: 5,
            rook: 10,
            cannon: 5,
            pawn_crossed: 2,
            pawn_uncrossed: 0,
        }
    }

    /// The value of a kind, with pawns counted as `crossed` or not.
    pub const fn kind_value(&self, kind: Kind, crossed: bool) -> i32 {
        match kind {
            Kind::King => self.king,
            Kind::Advisor => self.advisor,
            Kind::Elephant => self.elephant,
            Kind::Horse => self.horse,
            Kind::Rook => self.rook,
            Kind::Cannon => self.cannon,
            Kind::Pawn => {
                if crossed {
                    self.pawn_crossed
                } else {
                    self.pawn_uncrossed
                }
            }
        }
    }

    /// The value of `piece` standing on `square`: a pawn counts as crossed
    /// when `square` is on its enemy's half.
    pub const fn value_of(&self, piece: Piece, square: Square) -> i32 {
        self.kind_value(piece.kind, square.crossed_river(piece.color))
    }
}

// Tests state their expectations by panicking.
#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::board::Color;

    fn sq(s: &str) -> Square {
        s.parse().unwrap_or_else(|_| panic!("bad square {s}"))
    }

    #[test]
    fn a_pawn_is_worth_more_once_it_has_crossed_the_river() {
        let t = ValueTable::conventional();
        let red_pawn = Piece::new(Color::Red, Kind::Pawn);
        let black_pawn = Piece::new(Color::Black, Kind::Pawn);
        // Red's river bank is rank 4; rank 5 is black's half.
        assert_eq!(t.value_of(red_pawn, sq("e4")), 0);
        assert_eq!(t.value_of(red_pawn, sq("e5")), 2);
        // For black it is the other way round.
        assert_eq!(t.value_of(black_pawn, sq("e5")), 0);
        assert_eq!(t.value_of(black_pawn, sq("e4")), 2);
    }

    #[test]
    fn the_conventional_scale_keeps_the_1999_equalities() {
        // §2.14: 1 车 = 2 马 = 2 炮 = 马 + 炮; 马 = 炮; 士 = 相.
        let t = ValueTable::conventional();
        assert_eq!(t.rook, 2 * t.horse);
        assert_eq!(t.rook, 2 * t.cannon);
        assert_eq!(t.horse, t.cannon);
        assert_eq!(t.advisor, t.elephant);
        let rook = Piece::new(Color::Black, Kind::Rook);
        assert_eq!(t.value_of(rook, sq("a9")), 10);
    }

    #[test]
    fn a_table_is_read_from_a_rules_file_and_typos_are_refused() {
        let json = r#"{"king":1000,"advisor":2,"elephant":2,"horse":4,"rook":9,
                       "cannon":4,"pawn_crossed":2,"pawn_uncrossed":1}"#;
        let t: Result<ValueTable, _> = serde_json::from_str(json);
        assert_eq!(t.map(|t| t.horse).ok(), Some(4));
        let typo = json.replace("\"horse\"", "\"hrose\"");
        assert!(serde_json::from_str::<ValueTable>(&typo).is_err());
    }
}
