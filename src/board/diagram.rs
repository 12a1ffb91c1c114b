//! A text diagram of a position in Chinese characters, as the articles
//! print them: black at the top, each side's file numbers on its own edge.
//!
//! Red and black share the characters 马 车 炮 in simplified script, so the
//! diagram writes red as 帥仕相傌俥炮兵 and black as 將士象馬車砲卒, the
//! convention of printed diagrams, which keeps every piece's colour readable
//! without colour on the terminal.

use super::position::Position;
use super::types::{Color, File, Kind, Piece, Rank, Square};

/// The diagram character of a piece (colour told apart by the glyph).
pub fn diagram_char(piece: Piece) -> char {
    match (piece.color, piece.kind) {
        (Color::Red, Kind::King) => '帥',
        (Color::Red, Kind::Advisor) => '仕',
        (Color::Red, Kind::Elephant) => '相',
        (Color::Red, Kind::Horse) => '傌',
        (Color::Red, Kind::Rook) => '俥',
        (Color::Red, Kind::Cannon) => '炮',
        (Color::Red, Kind::Pawn) => '兵',
        (Color::Black, Kind::King) => '將',
        (Color::Black, Kind::Advisor) => '士',
        (Color::Black, Kind::Elephant) => '象',
        (Color::Black, Kind::Horse) => '馬',
        (Color::Black, Kind::Rook) => '車',
        (Color::Black, Kind::Cannon) => '砲',
        (Color::Black, Kind::Pawn) => '卒',
    }
}

const RED_NUMERALS: [char; 9] = ['九', '八', '七', '六', '五', '四', '三', '二', '一'];

/// The diagram, one line per rank plus the file numbers of both sides and
/// the ICCS letters, ending with the side to move.
pub fn diagram(pos: &Position) -> String {
    let mut out = String::new();
    out.push_str("   ");
    for n in 1..=9 {
        out.push_str(&format!("{n}  "));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    for r in (0..10u8).rev() {
        out.push_str(&format!("{r}  "));
        let mut cells = Vec::with_capacity(9);
        for f in 0..9u8 {
            let (Some(file), Some(rank)) = (File::new(f), Rank::new(r)) else {
                continue;
            };
            let ch = pos
                .piece_at(Square::new(file, rank))
                .map_or('＋', diagram_char);
            cells.push(ch.to_string());
        }
        out.push_str(&cells.join(" "));
        out.push('\n');
        if r == 5 {
            out.push_str("   ───── 楚河    汉界 ─────\n");
        }
    }
    out.push_str("   ");
    let reds: Vec<String> = RED_NUMERALS.iter().map(|c| c.to_string()).collect();
    out.push_str(&reds.join(" "));
    out.push('\n');
    out.push_str("   a  b  c  d  e  f  g  h  i\n");
    out.push_str(match pos.side_to_move() {
        Color::Red => "红方走棋 (red to move)\n",
        Color::Black => "黑方走棋 (black to move)\n",
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_diagram_reads_like_a_printed_board() {
        let d = diagram(&Position::startpos());
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines[1], "9  車 馬 象 士 將 士 象 馬 車");
        assert_eq!(lines[3], "7  ＋ 砲 ＋ ＋ ＋ ＋ ＋ 砲 ＋");
        assert!(lines[6].contains("楚河"));
        assert_eq!(lines[11], "0  俥 傌 相 仕 帥 仕 相 傌 俥");
        assert_eq!(lines[12], "   九 八 七 六 五 四 三 二 一");
    }
}
