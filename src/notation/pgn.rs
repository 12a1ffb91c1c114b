//! Game records in PGN form: tag pairs (`[Event "…"]`, `[FEN "…"]`) and
//! movetext, the way the bundled master games (`data/games/`) and most
//! xiangqi databases store them.
//!
//! The movetext is read by [`super::parse_line`]'s rules, so the moves may
//! be in any notation qili reads (ICCS in the bundled games, WXF or
//! Chinese elsewhere), with move numbers. What PGN adds around the moves is
//! blanked out before reading: `{…}` and `;` comments, `(…)` variations,
//! `$n` annotations, `!` and `?` after a move, and the result (`1-0`,
//! `0-1`, `1/2-1/2`, `*`). A record
//! whose moves stop being legal is kept up to the last legal move, with the
//! reason it was cut: a survey of thousands of games should not lose a game
//! to one mistyped move, nor hide that it was cut.

use crate::board::{parse_fen, Move, Position};

use super::line::parse_line_prefix;

/// One game of a PGN file.
#[derive(Clone, Debug)]
pub struct Game {
    /// Its place in the file, from 1.
    pub number: usize,
    /// The file line its record starts on, from 1.
    pub line: usize,
    /// The tag pairs, in the file's order.
    pub tags: Vec<(String, String)>,
    /// The `FEN` tag's position, or the standard start.
    pub start: Position,
    /// The moves read, each legal in turn.
    pub moves: Vec<Move>,
    /// Why the record was not read to its end, if it was not.
    pub cut: Option<String>,
}

impl Game {
    /// The value of tag `key` (`Event`, `Red`, `Black`, …), if present and
    /// not empty.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.trim().is_empty() && *v != "?")
    }

    /// `Event: Red – Black` from the tags, or `game N` without them.
    pub fn label(&self) -> String {
        let players = match (self.tag("Red"), self.tag("Black")) {
            (Some(r), Some(b)) => Some(format!("{r} – {b}")),
            (Some(r), None) => Some(r.to_string()),
            (None, Some(b)) => Some(b.to_string()),
            (None, None) => None,
        };
        match (self.tag("Event"), players) {
            (Some(e), Some(p)) => format!("{e}: {p}"),
            (Some(e), None) => e.to_string(),
            (None, Some(p)) => p,
            (None, None) => format!("game {}", self.number),
        }
    }
}

/// A file's games, with the names reports give them: the file's stem
/// (what repetitions are named by) and its path (where a record is).
#[derive(Clone, Debug)]
pub struct GameFile {
    pub stem: String,
    pub path: String,
    pub games: Vec<Game>,
}

/// Every game in `text`. A game starts at its tag pairs; a file of
/// movetext alone is one game. Never fails: what cannot be read is in each
/// game's [`Game::cut`].
pub fn read_games(text: &str) -> Vec<Game> {
    let mut games = Vec::new();
    let mut record = Record::default();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('[') && !record.in_comment {
            let pair = tag_pair(line);
            let repeated = pair
                .as_ref()
                .is_some_and(|(k, _)| record.tags.iter().any(|(t, _)| t == k));
            if record.has_moves() || repeated {
                games.push(std::mem::take(&mut record).finish(games.len() + 1));
            }
            record.start_at(i + 1);
            if let Some(pair) = pair {
                record.tags.push(pair);
            }
        } else if !line.is_empty() {
            record.start_at(i + 1);
            record.add_movetext(raw);
        }
    }
    if record.has_moves() || !record.tags.is_empty() {
        games.push(record.finish(games.len() + 1));
    }
    games
}

#[derive(Default)]
struct Record {
    line: Option<usize>,
    tags: Vec<(String, String)>,
    /// The movetext with PGN's extras blanked out (byte offsets kept).
    movetext: String,
    /// Inside a `{…}` comment that runs over a line end.
    in_comment: bool,
    /// Depth of `(…)` variations open at the line end.
    variation: usize,
}

impl Record {
    fn start_at(&mut self, line: usize) {
        self.line.get_or_insert(line);
    }

    fn has_moves(&self) -> bool {
        !self.movetext.trim().is_empty()
    }

    /// Appends one line of movetext, comments, variations, annotations and
    /// results replaced by spaces.
    fn add_movetext(&mut self, line: &str) {
        let mut out = String::with_capacity(line.len() + 1);
        let chars: Vec<char> = line.chars().collect();
        let mut k = 0;
        while k < chars.len() {
            let c = chars[k];
            let blank = if self.in_comment {
                if c == '}' {
                    self.in_comment = false;
                }
                true
            } else if c == '{' {
                self.in_comment = true;
                true
            } else if c == ';' && self.variation == 0 {
                // A comment to the end of the line.
                for &rest in &chars[k..] {
                    push_blank(&mut out, rest);
                }
                break;
            } else if c == '(' && !is_numbered(&chars[k..]) {
                self.variation += 1;
                true
            } else if c == ')' && self.variation > 0 {
                self.variation -= 1;
                true
            } else {
                self.variation > 0
            };
            if blank {
                push_blank(&mut out, c);
            } else {
                out.push(c);
            }
            k += 1;
        }
        self.movetext.push_str(&blank_tokens(&out));
        self.movetext.push('\n');
    }

    fn finish(self, number: usize) -> Game {
        let mut cut = None;
        let start = match self
            .tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("FEN"))
        {
            None => Position::startpos(),
            Some((_, fen)) => match parse_fen(fen) {
                Ok(p) => p,
                Err(e) => {
                    cut = Some(format!("its FEN tag cannot be read: {e}"));
                    Position::startpos()
                }
            },
        };
        let moves = if cut.is_some() {
            Vec::new()
        } else {
            let (moves, error) = parse_line_prefix(&start, &self.movetext);
            if let Some(e) = error {
                let token = self
                    .movetext
                    .get(e.move_span())
                    .unwrap_or_default()
                    .to_string();
                let ply = e.ply().unwrap_or(moves.len());
                cut = Some(format!(
                    "move {} ({}, ply {}) `{token}`: {}",
                    ply / 2 + 1,
                    if ply % 2 == 0 { "red" } else { "black" },
                    ply + 1,
                    e.label()
                ));
            }
            moves
        };
        Game {
            number,
            line: self.line.unwrap_or(1),
            tags: self.tags,
            start,
            moves,
            cut,
        }
    }
}

/// A space for each byte of `c`, so spans into the movetext stay put.
fn push_blank(out: &mut String, c: char) {
    for _ in 0..c.len_utf8() {
        out.push(' ');
    }
}

/// Whether `chars` starts with a parenthesised move number, `(12)`, which
/// [`super::parse_line`] reads as one, rather than a variation.
fn is_numbered(chars: &[char]) -> bool {
    let digits = chars
        .iter()
        .skip(1)
        .take_while(|c| c.is_ascii_digit())
        .count();
    digits > 0 && chars.get(1 + digits) == Some(&')')
}

/// The line with results (`1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`), numeric
/// annotations (`$12`) and the `!`/`?` after moves blanked.
fn blank_tokens(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while !rest.is_empty() {
        let ws = rest.len() - rest.trim_start().len();
        out.push_str(&rest[..ws]);
        rest = &rest[ws..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let token = &rest[..end];
        let drop = matches!(token, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*")
            || (token.len() > 1
                && token.starts_with('$')
                && token[1..].bytes().all(|b| b.is_ascii_digit()));
        // A move's `!`, `?`, `!?` … judge it; they are not part of it.
        let judged = token.trim_end_matches(['!', '?']);
        if drop {
            out.extend(std::iter::repeat_n(' ', token.len()));
        } else {
            out.push_str(judged);
            out.extend(std::iter::repeat_n(' ', token.len() - judged.len()));
        }
        rest = &rest[end..];
    }
    out
}

/// `[Key "value"]` → `(Key, value)`, the value's `\"` and `\\` unescaped.
fn tag_pair(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (key, rest) = inner.split_once(char::is_whitespace)?;
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::with_capacity(quoted.len());
    let mut escaped = false;
    for c in quoted.chars() {
        if escaped || c != '\\' {
            value.push(c);
            escaped = false;
        } else {
            escaped = true;
        }
    }
    Some((key.to_string(), value))
}

#[cfg(test)]
// Tests state their expectations by panicking.
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::notation::iccs;

    fn line(g: &Game) -> Vec<String> {
        g.moves.iter().map(|&m| iccs(m)).collect()
    }

    #[test]
    fn games_split_at_their_tags_and_keep_them() {
        let text =
            "[Event \"Cup 1997\"]\n[Red \"LIU\"]\n[Black \"HU\"]\n\n1. h2e2 h9g7 2. h0g2 \n\n\
                    [Event \"Open \\\"B\\\"\"]\n\n1. c3c4 1-0\n";
        let games = read_games(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].number, 1);
        assert_eq!(games[0].line, 1);
        assert_eq!(games[0].label(), "Cup 1997: LIU – HU");
        assert_eq!(line(&games[0]), ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(games[1].number, 2);
        assert_eq!(games[1].line, 7);
        assert_eq!(games[1].tag("Event"), Some("Open \"B\""));
        assert_eq!(line(&games[1]), ["c3c4"]);
        assert!(games.iter().all(|g| g.cut.is_none()));
    }

    #[test]
    fn comments_variations_annotations_and_results_are_not_moves() {
        let text = "1. 炮二平五 {the usual} 马8进7 (1... 炮8平5 2. 马二进三) $1\n\
                    2. 马二进三!? ; a comment 车9平8\n{over\ntwo lines} 车9平8? (3) 车一平二 0-1";
        let games = read_games(text);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].label(), "game 1");
        assert_eq!(line(&games[0]), ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]);
        assert_eq!(games[0].cut, None);
    }

    #[test]
    fn a_game_is_kept_up_to_its_first_illegal_move() {
        let games = read_games("[Event \"E\"]\n1. h2e2 h9g7 2. h2h9 b9c7\n");
        assert_eq!(line(&games[0]), ["h2e2", "h9g7"]);
        let cut = games[0].cut.as_deref().unwrap();
        assert!(cut.starts_with("move 2 (red, ply 3) `h2h9`"), "{cut}");
    }

    #[test]
    fn the_fen_tag_sets_the_start() {
        let games = read_games(
            "[FEN \"3k5/R8/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n1. 车九进一 将4进1 2. 车九退一 将4退1\n\
             [FEN \"not a fen\"]\n1. h2e2\n",
        );
        assert_eq!(line(&games[0]), ["a8a9", "d9d8", "a9a8", "d8d9"]);
        assert!(games[1].moves.is_empty());
        assert!(games[1]
            .cut
            .as_deref()
            .unwrap()
            .starts_with("its FEN tag cannot be read"));
    }
}
