//! The characters of one move with their byte spans in the source, and a
//! cursor over them, shared by the three readers.

use std::ops::Range;

use super::chars::fold_width;
use super::error::Problem;

/// One significant character: width-folded, with the bytes it came from.
pub type Item = (char, Range<usize>);

/// The characters of `text` (which starts at byte `base` of the source),
/// full-width forms folded to ASCII and whitespace dropped, so that
/// `炮 二 平 五` and `Ｃ２＝５` read like their plain forms.
pub fn items(text: &str, base: usize) -> Vec<Item> {
    text.char_indices()
        .filter(|(_, c)| !c.is_whitespace())
        .map(|(i, c)| (fold_width(c), base + i..base + i + c.len_utf8()))
        .collect()
}

/// A cursor over items that knows where the move ends, so that "missing"
/// can point just past the last character.
pub struct Cursor<'a> {
    items: &'a [Item],
    next: usize,
    end: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(items: &'a [Item], end: usize) -> Cursor<'a> {
        Cursor {
            items,
            next: 0,
            end,
        }
    }

    pub fn peek(&self) -> Option<char> {
        self.items.get(self.next).map(|(c, _)| *c)
    }

    pub fn peek_at(&self, ahead: usize) -> Option<char> {
        self.items.get(self.next + ahead).map(|(c, _)| *c)
    }

    /// Takes the next character.
    pub fn bump(&mut self) -> Option<Item> {
        let item = self.items.get(self.next).cloned();
        if item.is_some() {
            self.next += 1;
        }
        item
    }

    /// The span of the next character, or the empty span at the end.
    pub fn here(&self) -> Range<usize> {
        self.items
            .get(self.next)
            .map_or(self.end..self.end, |(_, r)| r.clone())
    }

    /// Start of the next character (the end if none is left).
    pub fn offset(&self) -> usize {
        self.here().start
    }

    /// Fails unless every character was used, pointing at the leftovers.
    pub fn finish(&self, text: &str) -> Result<(), Problem> {
        match (self.items.get(self.next), self.items.last()) {
            (Some((_, first)), Some((_, last))) => Err(Problem::malformed(
                first.start..last.end,
                "the end of the move",
                format!("unexpected text after the move in `{text}`"),
            )),
            _ => Ok(()),
        }
    }
}
