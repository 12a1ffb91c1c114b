//! The characters the notations are written with, and the many ways people
//! write them.
//!
//! Reading is generous (traditional and simplified characters, referees'
//! variants, full-width digits, either colour's piece name); writing is
//! strict (simplified characters, red's numbers in Chinese numerals, black's
//! in half-width digits), so that what we print is what a rulebook prints.

use crate::board::{Color, Kind};

/// Which way a move goes, seen from the mover: 进 forward, 退 back, 平 across.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dir {
    Forward,
    Backward,
    Sideways,
}

impl Dir {
    pub const fn chinese(self) -> char {
        match self {
            Dir::Forward => '进',
            Dir::Backward => '退',
            Dir::Sideways => '平',
        }
    }

    /// WXF writes `=` (the federation's own documents use `.`; both are read).
    pub const fn wxf(self) -> char {
        match self {
            Dir::Forward => '+',
            Dir::Backward => '-',
            Dir::Sideways => '=',
        }
    }
}

/// Where a piece stands among the pieces of its kind on its file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Place {
    Front,
    Middle,
    Rear,
}

/// Folds full-width ASCII (`１`, `Ｃ`, `＝`, `．`) to its half-width form, so
/// that text typed with a Chinese input method reads like ASCII.
pub fn fold_width(c: char) -> char {
    let u = c as u32;
    if (0xFF01..=0xFF5E).contains(&u) {
        char::from_u32(u - 0xFEE0).unwrap_or(c)
    } else {
        c
    }
}

/// The piece kind a Chinese character names. Either colour's character is
/// accepted for either side: referees write 车 for both, and the side is
/// whoever is to move anyway.
pub fn piece_kind(c: char) -> Option<Kind> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => Kind::King,
        '仕' | '士' => Kind::Advisor,
        '相' | '象' => Kind::Elephant,
        '马' | '馬' | '傌' | '㐷' => Kind::Horse,
        '车' | '車' | '俥' | '伡' => Kind::Rook,
        '炮' | '砲' | '包' => Kind::Cannon,
        '兵' | '卒' => Kind::Pawn,
        _ => return None,
    })
}

/// 前 / 中 / 后 (also the traditional 後).
pub fn place(c: char) -> Option<Place> {
    Some(match c {
        '前' => Place::Front,
        '中' => Place::Middle,
        '后' | '後' => Place::Rear,
        _ => return None,
    })
}

/// 进 / 退 / 平 (also the traditional 進).
pub fn action(c: char) -> Option<Dir> {
    Some(match c {
        '进' | '進' => Dir::Forward,
        '退' => Dir::Backward,
        '平' => Dir::Sideways,
        _ => return None,
    })
}

/// A number 1–9 written as a Chinese numeral or a (width-folded) digit.
pub fn numeral(c: char) -> Option<u8> {
    Some(match c {
        '一' => 1,
        '二' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        '1'..='9' => c as u8 - b'0',
        _ => return None,
    })
}

/// The Chinese numeral for 1–9 (`?` for anything else, which no caller passes).
pub const fn chinese_numeral(n: u8) -> char {
    match n {
        1 => '一',
        2 => '二',
        3 => '三',
        4 => '四',
        5 => '五',
        6 => '六',
        7 => '七',
        8 => '八',
        9 => '九',
        _ => '?',
    }
}

/// How `color` writes the number `n` (a file or a distance): red in Chinese
/// numerals, black in half-width digits, as rulebooks print them.
pub fn number_char(color: Color, n: u8) -> char {
    match color {
        Color::Red => chinese_numeral(n),
        Color::Black => digit(n),
    }
}

/// The ASCII digit for 0–9.
pub fn digit(n: u8) -> char {
    char::from_digit(u32::from(n), 10).unwrap_or('?')
}

/// The kind a WXF letter names: `K A E H R C P`, with `B` and `N` (the FEN
/// letters) read as elephant and horse. Either case.
pub fn wxf_kind(c: char) -> Option<Kind> {
    Some(match c.to_ascii_uppercase() {
        'K' => Kind::King,
        'A' => Kind::Advisor,
        'E' | 'B' => Kind::Elephant,
        'H' | 'N' => Kind::Horse,
        'R' => Kind::Rook,
        'C' => Kind::Cannon,
        'P' => Kind::Pawn,
        _ => return None,
    })
}

/// Whether `c` is a CJK ideograph (any block, including extension A where
/// 㐷 lives): the sign that a move is written in Chinese.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3134F)
}

/// The word for the `index`-th (0 = front) of `count` pieces on one file:
/// 前/后 for two, 前/中/后 for three, 一…五 for four or five (the xqbase
/// convention; see the module documentation).
pub fn place_word(index: usize, count: usize) -> char {
    match (count, index) {
        (0..=3, 0) => '前',
        (3, 1) => '中',
        (0..=3, _) => '后',
        _ => chinese_numeral(index as u8 + 1),
    }
}

#[cfg(test)]
// Tests state their expectations by panicking.
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn full_width_folds_to_ascii() {
        assert_eq!(fold_width('５'), '5');
        assert_eq!(fold_width('Ｃ'), 'C');
        assert_eq!(fold_width('＝'), '=');
        assert_eq!(fold_width('．'), '.');
        assert_eq!(fold_width('炮'), '炮');
    }

    #[test]
    fn every_variant_names_its_kind() {
        for (chars, kind) in [
            ("帅帥将將", Kind::King),
            ("仕士", Kind::Advisor),
            ("相象", Kind::Elephant),
            ("马馬傌㐷", Kind::Horse),
            ("车車俥伡", Kind::Rook),
            ("炮砲包", Kind::Cannon),
            ("兵卒", Kind::Pawn),
        ] {
            for c in chars.chars() {
                assert_eq!(piece_kind(c), Some(kind), "{c}");
                assert!(is_cjk(c), "{c}");
            }
        }
        assert_eq!(piece_kind('兔'), None);
    }

    #[test]
    fn numbers_are_written_per_colour() {
        assert_eq!(number_char(Color::Red, 5), '五');
        assert_eq!(number_char(Color::Black, 5), '5');
        for n in 1..=9 {
            assert_eq!(numeral(chinese_numeral(n)), Some(n));
            assert_eq!(numeral(digit(n)), Some(n));
        }
        assert_eq!(numeral('0'), None);
    }

    #[test]
    fn place_words_follow_the_count() {
        assert_eq!([place_word(0, 2), place_word(1, 2)], ['前', '后']);
        assert_eq!(
            [place_word(0, 3), place_word(1, 3), place_word(2, 3)],
            ['前', '中', '后']
        );
        assert_eq!(place_word(0, 4), '一');
        assert_eq!(place_word(4, 5), '五');
    }
}
