//! What qili's diagnostics share: the text they point into.
//!
//! miette's `NamedSource` heads a report with `name:line:column`, the
//! column counted in bytes. qili's inputs are Chinese (rules files name
//! natures 将 and 捉, moves are written 炮二平五), where a character is three
//! bytes: an error after `将4进1 ` was headed column 10 where an editor
//! shows 6, and a rules-file error said `at 4:37` in its message while its
//! header said `4:39`. [`SourceText`] counts columns in characters, as
//! the messages and editors do.

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// A named text for a diagnostic's `source_code`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceText {
    name: String,
    text: String,
}

impl SourceText {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceText {
        SourceText {
            name: name.into(),
            text: text.into(),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The text itself.
    pub fn inner(&self) -> &String {
        &self.text
    }

    /// The 0-based column of byte `offset`, in characters from the start of
    /// its line.
    fn char_column(&self, offset: usize) -> usize {
        let before = self.text.get(..offset).unwrap_or(&self.text);
        let line_start = before.rfind(['\n', '\r']).map_or(0, |i| i + 1);
        before.get(line_start..).map_or(0, |l| l.chars().count())
    }
}

impl SourceCode for SourceText {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let found = self
            .text
            .read_span(span, context_lines_before, context_lines_after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            found.data(),
            *found.span(),
            found.line(),
            self.char_column(found.span().offset()),
            found.line_count(),
        )))
    }
}

// Tests state their expectations by panicking.
#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_not_bytes() {
        let src = SourceText::new("moves", "车九进一 将4进1\n将4进2");
        // `将4进1` starts after four characters and a space: column 6 in an
        // editor, byte 13.
        let at = "车九进一 ".len();
        let one = src.read_span(&SourceSpan::new(at.into(), 3), 0, 0).unwrap();
        assert_eq!((one.line(), one.column()), (0, 5));
        assert_eq!(one.name(), Some("moves"));
        assert_eq!(one.data(), "将".as_bytes());
        // The second line starts again at column 0.
        let next = "车九进一 将4进1\n将".len();
        let two = src
            .read_span(&SourceSpan::new(next.into(), 1), 0, 0)
            .unwrap();
        assert_eq!((two.line(), two.column()), (1, 1));
        // With context lines the span starts at a line start, column 0.
        let wide = src.read_span(&SourceSpan::new(at.into(), 3), 1, 1).unwrap();
        assert_eq!(wide.column(), 0);
    }

    #[test]
    fn a_span_past_the_end_is_refused_not_a_panic() {
        let src = SourceText::new("x", "abc");
        assert!(src.read_span(&SourceSpan::new(10.into(), 2), 0, 0).is_err());
    }
}
