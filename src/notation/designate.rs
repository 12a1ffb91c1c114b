//! How WXF and Chinese notation name a piece and a move, independent of the
//! characters: which piece on a crowded file is "the front one", and what the
//! number after 进/退/平 means for each kind.
//!
//! Both printers and the reader share these functions, so a printed move and
//! the reading of it can never disagree about which piece is meant.

use crate::board::{Color, File, Kind, Move, Piece, Position, Rank, Square};

use super::chars::{Dir, Place};

/// Squares of `color`'s pieces of `kind` on `file`, the most advanced first
/// ("front" is towards the opponent: higher ranks for red, lower for black).
pub fn file_group(pos: &Position, color: Color, kind: Kind, file: File) -> Vec<Square> {
    let mut squares: Vec<Square> = (0..10u8)
        .filter_map(Rank::new)
        .map(|r| Square::new(file, r))
        .filter(|&sq| {
            pos.piece_at(sq)
                .is_some_and(|p| p.color == color && p.kind == kind)
        })
        .collect();
    squares.sort_by_key(|sq| std::cmp::Reverse(sq.rank().relative_to(color)));
    squares
}

/// Files on which `color` has two or more pawns, in the order the side counts
/// its files (its own file 1 first, i.e. from its right to its left).
pub fn crowded_pawn_files(pos: &Position, color: Color) -> Vec<File> {
    (1..=9u8)
        .filter_map(|n| File::from_number(n, color))
        .filter(|&f| file_group(pos, color, Kind::Pawn, f).len() >= 2)
        .collect()
}

/// The pawns on crowded files numbered as one series, file by file from the
/// side's right, front to back within a file (xqbase's order for 一兵…五兵
/// when two files are crowded). Empty unless two files are crowded.
pub fn cross_file_pawns(pos: &Position, color: Color) -> Vec<Square> {
    let files = crowded_pawn_files(pos, color);
    if files.len() < 2 {
        return Vec::new();
    }
    files
        .into_iter()
        .flat_map(|f| file_group(pos, color, Kind::Pawn, f))
        .collect()
}

/// How the printers name the piece that moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Label {
    /// Alone on its file: named by kind and file (`炮二`, `C2`).
    File,
    /// One of `count` pieces of its kind on its file, `index` 0 being the
    /// front one, with no other file crowded the same way (`前炮`, `C+`).
    Tandem { index: usize, count: usize },
    /// A pawn on a crowded file while another file is crowded too: the
    /// place word alone would name two pawns, so the file is added
    /// (`前兵九`, `9+`).
    TandemOnFile { index: usize, count: usize },
}

/// The label of the piece on `sq` (of `color` and `kind`).
pub fn label(pos: &Position, sq: Square, color: Color, kind: Kind) -> Label {
    // Most pieces are alone on their file: counted without building the
    // group (every move of every ruling is named).
    let piece = Some(Piece::new(color, kind));
    let alone = (0..10u8)
        .filter_map(Rank::new)
        .filter(|&r| pos.piece_at(Square::new(sq.file(), r)) == piece)
        .nth(1)
        .is_none();
    if alone {
        return Label::File;
    }
    let group = file_group(pos, color, kind, sq.file());
    let count = group.len();
    let index = group.iter().position(|&s| s == sq).unwrap_or(0);
    if count < 2 {
        Label::File
    } else if kind == Kind::Pawn && crowded_pawn_files(pos, color).len() >= 2 {
        Label::TandemOnFile { index, count }
    } else {
        Label::Tandem { index, count }
    }
}

/// What the reader understood as "which piece", before looking at the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Selector {
    /// Chinese `炮二`: any piece of the kind on that file.
    File(File),
    /// WXF `C2`: the piece on that file; with three or five pawns on the
    /// file, WXF reserves the plain file for the middle one.
    WxfFile(File),
    /// `前炮`, `中兵`, `后兵`, or with the file added `前兵九`.
    Place { place: Place, file: Option<File> },
    /// `一兵`…`五兵`: front to back on a file of four or five; across both
    /// files when two files are crowded (xqbase).
    Ordinal(u8),
    /// WXF `C+` / `C-` (also `+C`): front or rear; with four or five pawns
    /// on the file, the second from the front or from the rear. With a file
    /// (`3+`), the front or rear pawn of that file.
    WxfSign { front: bool, file: Option<File> },
    /// WXF `++` / `--`: the foremost or rearmost of four or five pawns.
    WxfOuter { front: bool },
    /// WXF `33`: the middle pawn of three on file 3 when two files are crowded.
    WxfMiddle(File),
}

/// The index on its file that a place word picks among `count` pieces.
fn place_index(place: Place, count: usize) -> Option<usize> {
    match place {
        _ if count < 2 => None,
        Place::Front => Some(0),
        Place::Rear => Some(count - 1),
        Place::Middle if count % 2 == 1 => Some(count / 2),
        Place::Middle => None,
    }
}

/// Whether the selector picks the piece of `color` and `kind` on `sq`.
pub fn selects(pos: &Position, sq: Square, color: Color, kind: Kind, selector: Selector) -> bool {
    let group = file_group(pos, color, kind, sq.file());
    let count = group.len();
    let Some(index) = group.iter().position(|&s| s == sq) else {
        return false;
    };
    let on = |file: Option<File>| file.is_none_or(|f| f == sq.file());
    match selector {
        Selector::File(f) => f == sq.file(),
        Selector::WxfFile(f) => {
            f == sq.file() && (kind != Kind::Pawn || count % 2 == 0 || index == count / 2)
        }
        Selector::Place { place, file } => on(file) && place_index(place, count) == Some(index),
        Selector::Ordinal(n) => {
            let cross = cross_file_pawns(pos, color);
            if kind == Kind::Pawn && !cross.is_empty() {
                cross.get(usize::from(n).wrapping_sub(1)) == Some(&sq)
            } else {
                count >= 2 && usize::from(n) == index + 1
            }
        }
        Selector::WxfSign { front, file } => {
            let wanted = match (front, count) {
                (_, 0..=1) => None,
                (true, 2..=3) => Some(0),
                (false, 2..=3) => Some(count - 1),
                (true, _) => Some(1),
                (false, _) => Some(count - 2),
            };
            on(file) && wanted == Some(index)
        }
        Selector::WxfOuter { front } => count >= 2 && index == if front { 0 } else { count - 1 },
        Selector::WxfMiddle(f) => {
            f == sq.file() && count % 2 == 1 && count >= 3 && index == count / 2
        }
    }
}

/// Direction and number of a move as the notations write them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub dir: Dir,
    /// A distance for straight movers going 进/退, otherwise a file number.
    pub number: u8,
}

/// The shape of `m` made by a piece of `color` and `kind`. For 车 炮 兵 帅
/// going forward or back the number is the distance; sideways, and for
/// 马 相 仕 always, it is the destination file (they never stay on a file).
pub fn shape(color: Color, kind: Kind, m: Move) -> Shape {
    let from = i16::from(m.from.rank().relative_to(color));
    let to = i16::from(m.to.rank().relative_to(color));
    let dir = match to - from {
        0 => Dir::Sideways,
        d if d > 0 => Dir::Forward,
        _ => Dir::Backward,
    };
    let number = if dir != Dir::Sideways && kind.moves_straight() {
        (to - from).unsigned_abs() as u8
    } else {
        m.to.file().number_for(color)
    };
    Shape { dir, number }
}

/// The square a piece of `color` and `kind` on `from` would reach by moving
/// with `shape`, if the movement rules allow such a move at all (board
/// contents aside). The inverse of [`shape`].
pub fn target(color: Color, kind: Kind, from: Square, s: Shape) -> Option<Square> {
    let sign: i8 = match s.dir {
        Dir::Forward => color.forward(),
        Dir::Backward => -color.forward(),
        Dir::Sideways => 0,
    };
    if kind.moves_straight() {
        if s.dir == Dir::Sideways {
            let file = File::from_number(s.number, color)?;
            if file == from.file() {
                return None;
            }
            return Some(Square::new(file, from.rank()));
        }
        return from.offset(0, sign.checked_mul(i8::try_from(s.number).ok()?)?);
    }
    if s.dir == Dir::Sideways {
        return None;
    }
    let file = File::from_number(s.number, color)?;
    let df = file.index() as i8 - from.file().index() as i8;
    let dr = match (kind, df.abs()) {
        (Kind::Advisor, 1) => 1,
        (Kind::Elephant, 2) => 2,
        (Kind::Horse, 1) => 2,
        (Kind::Horse, 2) => 1,
        _ => return None,
    };
    from.offset(df, dr * sign)
}

#[cfg(test)]
// Tests state their expectations by panicking.
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::board::parse_fen;

    fn sq(s: &str) -> Square {
        s.parse().unwrap_or_else(|_| panic!("bad square {s}"))
    }

    #[test]
    fn front_is_towards_the_opponent() {
        // Three red pawns on e (e5 e6 e7) and three black pawns on c (c4 c3 c2).
        let pos =
            parse_fen("3k5/9/9/4P4/4P4/2p1P4/2p6/2p6/9/4K4 w").unwrap_or_else(|e| panic!("{e}"));
        let red = file_group(&pos, Color::Red, Kind::Pawn, sq("e0").file());
        assert_eq!(red, vec![sq("e6"), sq("e5"), sq("e4")]);
        let black = file_group(&pos, Color::Black, Kind::Pawn, sq("c0").file());
        assert_eq!(black, vec![sq("c2"), sq("c3"), sq("c4")]);
    }

    #[test]
    fn shapes_follow_the_conventions() {
        // 炮二平五 = h2e2, 马八进七 = b0c2, 车九进一 = a0a1, 马8进7 = h9g7 (black).
        assert_eq!(
            shape(Color::Red, Kind::Cannon, Move::new(sq("h2"), sq("e2"))),
            Shape {
                dir: Dir::Sideways,
                number: 5
            }
        );
        assert_eq!(
            shape(Color::Red, Kind::Horse, Move::new(sq("b0"), sq("c2"))),
            Shape {
                dir: Dir::Forward,
                number: 7
            }
        );
        assert_eq!(
            shape(Color::Red, Kind::Rook, Move::new(sq("a0"), sq("a1"))),
            Shape {
                dir: Dir::Forward,
                number: 1
            }
        );
        assert_eq!(
            shape(Color::Black, Kind::Horse, Move::new(sq("h9"), sq("g7"))),
            Shape {
                dir: Dir::Forward,
                number: 7
            }
        );
        // 炮8退2 for black on h7 → h9.
        assert_eq!(
            shape(Color::Black, Kind::Cannon, Move::new(sq("h7"), sq("h9"))),
            Shape {
                dir: Dir::Backward,
                number: 2
            }
        );
    }

    #[test]
    fn targets_invert_shapes() {
        let horse = Shape {
            dir: Dir::Forward,
            number: 7,
        };
        assert_eq!(
            target(Color::Red, Kind::Horse, sq("b0"), horse),
            Some(sq("c2"))
        );
        // 马八进五 is no horse move: file 八 to 五 is three files.
        assert_eq!(
            target(
                Color::Red,
                Kind::Horse,
                sq("b0"),
                Shape {
                    dir: Dir::Forward,
                    number: 5
                }
            ),
            None
        );
        // 相三进五 (g0 → e2), 仕四进五 (f0 → e1).
        assert_eq!(
            target(
                Color::Red,
                Kind::Elephant,
                sq("g0"),
                Shape {
                    dir: Dir::Forward,
                    number: 5
                }
            ),
            Some(sq("e2"))
        );
        assert_eq!(
            target(
                Color::Red,
                Kind::Advisor,
                sq("f0"),
                Shape {
                    dir: Dir::Forward,
                    number: 5
                }
            ),
            Some(sq("e1"))
        );
        // A rook cannot go ten ranks, nor "平" onto its own file.
        assert_eq!(
            target(
                Color::Red,
                Kind::Rook,
                sq("a1"),
                Shape {
                    dir: Dir::Forward,
                    number: 9
                }
            ),
            None
        );
        assert_eq!(
            target(
                Color::Red,
                Kind::Rook,
                sq("a1"),
                Shape {
                    dir: Dir::Sideways,
                    number: 9
                }
            ),
            None
        );
        assert_eq!(
            target(
                Color::Red,
                Kind::Horse,
                sq("b0"),
                Shape {
                    dir: Dir::Sideways,
                    number: 7
                }
            ),
            None
        );
        // Black goes forward down the board: 马8进7 is h9 → g7, 车1进6 a9 → a3, 炮2退1 b7 → b8.
        assert_eq!(
            target(Color::Black, Kind::Horse, sq("h9"), horse),
            Some(sq("g7"))
        );
        assert_eq!(
            target(
                Color::Black,
                Kind::Rook,
                sq("a9"),
                Shape {
                    dir: Dir::Forward,
                    number: 6
                }
            ),
            Some(sq("a3"))
        );
        assert_eq!(
            target(
                Color::Black,
                Kind::Cannon,
                sq("b7"),
                Shape {
                    dir: Dir::Backward,
                    number: 1
                }
            ),
            Some(sq("b8"))
        );
    }
}
