//! The canonical layout of rules files (`qili fmt`).
//!
//! One layout, so that two committee members who write the same rule write
//! the same text, and a diff between editions shows rule changes, not
//! whitespace. The formatter prints the syntax tree, never the text, so the
//! layout depends only on what the file says (and its comments).
//!
//! # Layout
//!
//! * The header (`edition … { … }` and its `extends`) is one paragraph;
//!   every item after it is a paragraph of its own, separated by one blank
//!   line. Edition fields are printed in the order title, year, source,
//!   status.
//! * Blocks (`edition`, `values`, `clause`, `verdict`) open on the item's
//!   line and close with `}` alone on a line; their contents (one value, one
//!   case, the `when` and the action of a clause) are one per line, indented
//!   by two spaces. An empty block is `{}`.
//! * `define` and `nature` stay on one line when it fits in 80 columns (a
//!   Chinese character counts two); otherwise the body goes on the next
//!   lines, indented by two. A `case` that does not fit puts its condition
//!   and `=> ruling` on the next line, and `=> ruling` on a line of its own
//!   if the condition itself must break.
//! * A long expression breaks first at its loosest `and`/`or`, one operand
//!   per line with the operator leading (`and not …`), then after the `:` of
//!   a quantifier (the body indented by two; a `where` that does not fit goes
//!   on its own line indented by four), then inside brackets: a context
//!   `before { … }`, a call, a set, parentheses. Comparisons and arithmetic
//!   never break.
//! * Operators and keywords are separated by single spaces (`a - b`: `a-b`
//!   is a name), `not x`, `-x`, `f(a, b)`, `{a, b}`, `{t in S where …}`,
//!   `before { … }`; `;` is never printed; strings are re-escaped (`\"`,
//!   `\\`, `\n`); citations are `@24.3`; types are `p: piece` and
//!   `) : bool` as in the language's own examples.
//! * Parentheses appear exactly where the grammar needs them to keep the
//!   tree (see [`BinOp::precedence`]): `not (a and b)`, `(a or b) and c`,
//!   `-(x - y)`, `a - (b - c)`, `(a = b) = c` — and, for the reader, around
//!   an `and` that is an operand of `or`: `a or (b and c)`. Besides precedence, three
//!   constructs extend as far right as they can — a quantifier or an `if`
//!   (their body or `else` branch) and `count t in S where F` (its set or
//!   filter) — so they need parentheses when something follows them
//!   (`(exists t in S: p) and q`, `(count t in S) > 2`), and none when they
//!   come last (`q and exists t in S: p`, `not exists t in S: p`).
//!
//! # Comments
//!
//! The grammar skips comments, so [`comments`] scans the text for them and
//! attaches each to a construct: the header, an edition field, `extends`,
//! an item, a value, a case, `otherwise`, a clause's `when` or action.
//!
//! * A comment alone on its line stays before the next construct of the
//!   block it is in (the file, an edition, a `values`, a `verdict`, a
//!   `clause`); after the last one, it stays at the end of the block
//!   (before its `}`) or of the file. Between items, a blank line after a
//!   comment is kept.
//! * A comment that ends a line of code stays at the end of a line of the
//!   innermost construct that line belongs to: of its first line if it was
//!   on the construct's first line, of its last line if on its last line.
//! * A comment that cannot be placed exactly — inside an expression, or on
//!   a middle line of a construct, or a second comment for a line that the
//!   layout joined with another — is moved before the innermost construct
//!   around it, as a line of its own. No comment is ever dropped: the
//!   output has the same comments as the input, which [`format_source`]
//!   checks.
//!
//! # Safety
//!
//! [`format_source`] parses its own output and compares the tree with the
//! input's (spans are ignored by `==`); any difference is reported as
//! [`FmtError::ChangedMeaning`] — a formatter bug — and no text is returned.

use std::collections::BTreeMap;
use std::fmt;

use miette::{Diagnostic, LabeledSpan, SourceCode};
use pest::iterators::Pair;
use pest::Parser;

use crate::diagnostic::SourceText;

use super::ast::*;
use super::parse::{parse, Source, SyntaxError};

/// The widest a line should be, in terminal columns.
const WIDTH: usize = 80;
/// One level of indentation.
const INDENT: usize = 2;

// =============================================================================
// Public API
// =============================================================================

/// A `#` comment as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// From the `#` to the end of the line, without trailing whitespace.
    pub text: String,
    pub span: Span,
    /// Alone on its line; otherwise it ends a line of code.
    pub own_line: bool,
    /// A blank line follows it (kept between items, where it separates a
    /// comment about a section from the item below).
    pub blank_after: bool,
}

/// The comments of a rules file, each attached to the construct it
/// belongs to (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct Comments {
    list: Vec<Comment>,
    places: Vec<(Anchor, Slot)>,
}

impl Comments {
    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The comments in the order they appear in the text.
    pub fn iter(&self) -> impl Iterator<Item = &Comment> {
        self.list.iter()
    }
}

/// Finds the comments of a rules file and where each belongs. A file that
/// does not parse keeps its comments, all at the end.
pub fn comments(src: &Source) -> Comments {
    let text = src.text.as_str();
    let list = scan_comments(text);
    if list.is_empty() {
        // Nothing to attach: spare the second parse.
        return Comments::default();
    }
    let places = match anchor_tree(text, &list) {
        Some(tree) => {
            let lines = LineIndex::new(text);
            list.iter()
                .map(|c| attach(&tree, &lines, text, c))
                .collect()
        }
        None => list.iter().map(|_| (Anchor::File, Slot::Inside)).collect(),
    };
    Comments { list, places }
}

/// Prints a rulebook in the canonical layout, with its comments.
pub fn format(book: &Rulebook, comments: &Comments) -> String {
    let mut p = Printer::new(comments);
    p.header(&book.header);
    for (i, item) in book.items.iter().enumerate() {
        p.blank();
        p.item(i, item);
    }
    p.finish()
}

/// Formats a rules file: parse, print, then parse the output again and
/// check that it says the same thing with the same comments.
pub fn format_source(src: &Source) -> Result<String, FmtError> {
    let book = parse(src).map_err(|e| FmtError::Syntax(Box::new(e)))?;
    let notes = comments(src);
    let text = format(&book, &notes);
    verify(src, &book, &notes, &text)?;
    Ok(text)
}

/// Why a file could not be formatted (boxed, so that the `Result`s that
/// carry it stay small).
#[derive(Debug)]
pub enum FmtError {
    /// The file does not parse; nothing to format.
    Syntax(Box<SyntaxError>),
    /// The formatted text would not say the same thing (or lost a comment).
    /// This is a bug in the formatter; the text is not returned, so it is
    /// never written.
    ChangedMeaning(Box<Changed>),
}

/// What the re-parse of the formatter's output caught.
#[derive(Debug)]
pub struct Changed {
    pub file: String,
    /// What changed: "the rules" or "the comments".
    pub what: &'static str,
    /// Where in the input the first difference starts.
    pub span: Span,
    /// The faulty output, for the bug report.
    pub formatted: String,
    source: SourceText,
}

impl fmt::Display for FmtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FmtError::Syntax(e) => write!(f, "cannot format: {e}"),
            FmtError::ChangedMeaning(c) => write!(
                f,
                "formatting {} would change {}; nothing was written",
                c.file, c.what
            ),
        }
    }
}

impl std::error::Error for FmtError {}

impl Diagnostic for FmtError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(match self {
            FmtError::Syntax(_) => "qili::fmt::syntax",
            FmtError::ChangedMeaning(_) => "qili::fmt::changed_meaning",
        }))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        match self {
            FmtError::Syntax(e) => e.help(),
            FmtError::ChangedMeaning(_) => Some(Box::new(
                "this is a bug in qili's formatter; please report it with the file",
            )),
        }
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        match self {
            FmtError::Syntax(e) => e.source_code(),
            FmtError::ChangedMeaning(c) => Some(&c.source),
        }
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        match self {
            FmtError::Syntax(e) => e.labels(),
            FmtError::ChangedMeaning(c) => Some(Box::new(std::iter::once(
                LabeledSpan::new_primary_with_span(
                    Some("printed differently from here".into()),
                    c.span,
                ),
            ))),
        }
    }
}

/// The safety net of [`format_source`]: the output must parse to the same
/// tree and carry the same comments.
fn verify(src: &Source, book: &Rulebook, notes: &Comments, text: &str) -> Result<(), FmtError> {
    let changed = |what, span| {
        FmtError::ChangedMeaning(Box::new(Changed {
            file: src.name.clone(),
            what,
            span,
            formatted: text.to_string(),
            source: src.named(),
        }))
    };
    let out = Source::new(src.name.clone(), text);
    let again = parse(&out).map_err(|_| changed("the rules", Span::new(0, 0)))?;
    if let Some(span) = first_difference(book, &again) {
        return Err(changed("the rules", span));
    }
    if comment_texts(notes) != comment_texts(&comments(&out)) {
        return Err(changed("the comments", Span::new(0, 0)));
    }
    Ok(())
}

/// Where two parses of a file first differ, pointing into the first.
fn first_difference(a: &Rulebook, b: &Rulebook) -> Option<Span> {
    if a.header != b.header {
        return Some(a.header.edition.span);
    }
    for (i, item) in a.items.iter().enumerate() {
        if b.items.get(i) != Some(item) {
            return Some(item.span());
        }
    }
    (a.items.len() != b.items.len()).then(|| {
        b.items
            .get(a.items.len())
            .map_or(Span::new(0, 0), Item::span)
    })
}

/// The comments' texts, sorted: moving a comment is allowed, losing or
/// changing one is not.
fn comment_texts(c: &Comments) -> Vec<&str> {
    let mut texts: Vec<&str> = c.iter().map(|c| c.text.as_str()).collect();
    texts.sort_unstable();
    texts
}

// =============================================================================
// Finding comments
// =============================================================================

/// Scans the text for `#` comments outside strings. Strings cannot span
/// lines, so an unterminated one ends at the line's end, as the grammar's.
fn scan_comments(text: &str) -> Vec<Comment> {
    let mut out = Vec::new();
    let mut in_string = false;
    let mut comment_end = 0;
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        if i < comment_end {
            // Inside a comment: quotes in it open no string.
            continue;
        }
        if in_string {
            match c {
                '"' | '\n' | '\r' => in_string = false,
                '\\' => {
                    if let Some((_, '\n' | '\r')) = chars.next() {
                        in_string = false;
                    }
                }
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '#' => {
                comment_end = line_end(text, i);
                out.push(comment_at(text, i, comment_end));
            }
            _ => {}
        }
    }
    out
}

/// The offset of the end of the line holding `at` (before its newline).
fn line_end(text: &str, at: usize) -> usize {
    text.get(at..)
        .and_then(|rest| rest.find(['\n', '\r']))
        .map_or(text.len(), |n| at + n)
}

fn comment_at(text: &str, start: usize, end: usize) -> Comment {
    let line_start = text
        .get(..start)
        .and_then(|before| before.rfind(['\n', '\r']))
        .map_or(0, |n| n + 1);
    let own_line = text
        .get(line_start..start)
        .is_some_and(|s| s.trim().is_empty());
    Comment {
        text: text.get(start..end).unwrap_or("#").trim_end().to_string(),
        span: Span::new(start, end),
        own_line,
        blank_after: blank_line_follows(text.get(end..).unwrap_or("")),
    }
}

/// Whether, after the current line, a blank line comes before more text.
fn blank_line_follows(rest: &str) -> bool {
    let rest = rest
        .strip_prefix("\r\n")
        .or_else(|| rest.strip_prefix(['\n', '\r']))
        .unwrap_or("");
    let next_line = rest.split(['\n', '\r']).next().unwrap_or("");
    next_line.trim().is_empty() && rest.len() > next_line.len() && !rest.trim().is_empty()
}

/// Line numbers of byte offsets; `\n`, `\r\n` and a lone `\r` end lines,
/// as in the grammar.
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        for (i, b) in bytes.iter().enumerate() {
            let lone_cr = *b == b'\r' && bytes.get(i + 1) != Some(&b'\n');
            if *b == b'\n' || lone_cr {
                starts.push(i + 1);
            }
        }
        LineIndex { starts }
    }

    fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset)
    }
}

// =============================================================================
// Attaching comments
// =============================================================================

/// A construct a comment can be attached to. Items, values and cases are
/// numbered in file order, so the same numbers find them in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Anchor {
    File,
    Edition,
    Field(FieldKind),
    Extends,
    Item(usize),
    Entry(usize, usize),
    Case(usize, usize),
    Otherwise(usize),
    When(usize),
    Action(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum FieldKind {
    Title,
    Year,
    Source,
    Status,
}

/// Where, relative to its construct, a comment is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Slot {
    /// On lines of its own before the construct.
    Before,
    /// At the end of the construct's first line.
    FirstLine,
    /// At the end of the construct's last line.
    LastLine,
    /// Inside a block, after its last construct (before its `}`), or at
    /// the end of the file.
    Inside,
}

/// A construct's place in the text. Blocks hold their constructs.
#[derive(Debug)]
struct Node {
    anchor: Anchor,
    start: usize,
    end: usize,
    block: bool,
    children: Vec<Node>,
}

/// The same grammar again, to see where the constructs the syntax tree does
/// not keep spans for (edition fields, values, `otherwise`, a clause's
/// parts) are written.
mod layout {
    #[derive(pest_derive::Parser)]
    #[grammar = "grammar/qili.pest"]
    pub(super) struct Layout;
}

use layout::{Layout, Rule};

/// The constructs of a file, outermost first; `None` if it does not parse.
fn anchor_tree(text: &str, comments: &[Comment]) -> Option<Vec<Node>> {
    let file = Layout::parse(Rule::file, text).ok()?.next()?;
    let ends: BTreeMap<usize, usize> = comments
        .iter()
        .map(|c| (c.span.end, c.span.start))
        .collect();
    let node = |anchor, p: &Pair<'_, Rule>, block, children| {
        let s = p.as_span();
        Node {
            anchor,
            start: s.start(),
            end: code_end(text, s.start(), s.end(), &ends),
            block,
            children,
        }
    };
    let mut nodes = Vec::new();
    let mut item = 0;
    for part in file.into_inner() {
        match part.as_rule() {
            Rule::header => {
                for h in part.into_inner() {
                    match h.as_rule() {
                        Rule::edition => {
                            let fields = h
                                .clone()
                                .into_inner()
                                .filter(|f| f.as_rule() == Rule::edition_field)
                                .filter_map(|f| {
                                    Some(node(
                                        Anchor::Field(field_kind(&f)?),
                                        &f,
                                        false,
                                        Vec::new(),
                                    ))
                                })
                                .collect();
                            nodes.push(node(Anchor::Edition, &h, true, fields));
                        }
                        _ => nodes.push(node(Anchor::Extends, &h, false, Vec::new())),
                    }
                }
            }
            Rule::item => {
                let inner = part.clone().into_inner().next()?;
                let kids: Vec<Node> = inner
                    .clone()
                    .into_inner()
                    .enumerate()
                    .filter_map(|(j, p)| {
                        let anchor = match p.as_rule() {
                            Rule::value_entry | Rule::setting_entry => Anchor::Entry(item, j),
                            Rule::case => Anchor::Case(item, j),
                            Rule::otherwise => Anchor::Otherwise(item),
                            Rule::clause_when => Anchor::When(item),
                            Rule::clause_action => Anchor::Action(item),
                            _ => return None,
                        };
                        Some(node(anchor, &p, false, Vec::new()))
                    })
                    .collect();
                let kids = renumber(kids);
                let block = matches!(
                    inner.as_rule(),
                    Rule::values | Rule::exchange_horizon | Rule::verdict | Rule::clause
                );
                nodes.push(node(Anchor::Item(item), &part, block, kids));
                item += 1;
            }
            _ => {}
        }
    }
    Some(nodes)
}

/// Values and cases were numbered among all the parts of their item
/// (`override`, names…); number them among their own kind.
fn renumber(mut kids: Vec<Node>) -> Vec<Node> {
    let mut n = 0;
    for k in &mut kids {
        match &mut k.anchor {
            Anchor::Entry(_, j) | Anchor::Case(_, j) => {
                *j = n;
                n += 1;
            }
            _ => {}
        }
    }
    kids
}

fn field_kind(p: &Pair<'_, Rule>) -> Option<FieldKind> {
    Some(match p.clone().into_inner().next()?.as_rule() {
        Rule::title_field => FieldKind::Title,
        Rule::year_field => FieldKind::Year,
        Rule::source_field => FieldKind::Source,
        Rule::status_field => FieldKind::Status,
        _ => return None,
    })
}

/// The end of a construct's last token: pest lets a rule's span run over
/// the whitespace and comments it skipped looking for an optional `;`.
fn code_end(
    text: &str,
    start: usize,
    mut end: usize,
    comment_ends: &BTreeMap<usize, usize>,
) -> usize {
    loop {
        let trimmed = text.get(start..end).map_or(0, |s| s.trim_end().len());
        end = start + trimmed;
        match comment_ends.get(&end) {
            Some(&c) if c >= start => end = c,
            _ => return end,
        }
    }
}

/// Where one comment goes.
fn attach(tree: &[Node], lines: &LineIndex, text: &str, c: &Comment) -> (Anchor, Slot) {
    if c.own_line {
        return place_alone(tree, Anchor::File, c.span.start);
    }
    let code = last_code_before(text, c.span.start);
    match innermost(tree, code) {
        None => place_alone(tree, Anchor::File, c.span.start),
        Some(n) if lines.line(code) == lines.line(n.start) => (n.anchor, Slot::FirstLine),
        Some(n) if lines.line(code) == lines.line(n.end.saturating_sub(1)) => {
            (n.anchor, Slot::LastLine)
        }
        Some(n) => (n.anchor, Slot::Before),
    }
}

/// A comment on a line of its own: before the next construct of the block
/// it is in, or at the end of that block; inside a construct that is not a
/// block (an expression), before that construct.
fn place_alone(nodes: &[Node], parent: Anchor, at: usize) -> (Anchor, Slot) {
    if let Some(n) = nodes.iter().find(|n| n.start < at && at < n.end) {
        return if n.block {
            place_alone(&n.children, n.anchor, at)
        } else {
            (n.anchor, Slot::Before)
        };
    }
    match nodes.iter().find(|n| n.start >= at) {
        Some(n) => (n.anchor, Slot::Before),
        None => (parent, Slot::Inside),
    }
}

/// The innermost construct holding an offset.
fn innermost(nodes: &[Node], at: usize) -> Option<&Node> {
    let n = nodes.iter().find(|n| n.start <= at && at < n.end)?;
    innermost(&n.children, at).or(Some(n))
}

/// The offset of the last non-blank character before a comment on its line.
fn last_code_before(text: &str, comment: usize) -> usize {
    let before = text.get(..comment).unwrap_or("").trim_end();
    before.char_indices().last().map_or(0, |(i, _)| i)
}

// =============================================================================
// Documents: text with places that may break, laid out to a width
// =============================================================================

/// A document in the style of Wadler's "prettier printer": a group is
/// printed on one line if it fits, else each of its own line breaks
/// becomes a newline (inner groups decide again).
#[derive(Clone, Debug)]
enum Doc {
    Text(String),
    /// A space, or a newline if its group breaks.
    Line,
    /// Nothing, or a newline if its group breaks.
    Soft,
    /// Indents the lines that start inside it.
    Nest(Box<Doc>),
    Group(Box<Doc>),
    Cat(Vec<Doc>),
}

fn text(s: impl Into<String>) -> Doc {
    Doc::Text(s.into())
}

fn cat(parts: Vec<Doc>) -> Doc {
    Doc::Cat(parts)
}

fn nest(d: Doc) -> Doc {
    Doc::Nest(Box::new(d))
}

fn group(d: Doc) -> Doc {
    Doc::Group(Box::new(d))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Flat,
    Break,
}

/// Lays a document out from column `indent`; each line comes indented and
/// without trailing blanks.
fn render(doc: &Doc, indent: usize) -> Vec<String> {
    let mut lines = vec![" ".repeat(indent)];
    let mut col = indent;
    let mut stack: Vec<(usize, Mode, &Doc)> = vec![(indent, Mode::Break, doc)];
    while let Some((ind, mode, d)) = stack.pop() {
        match d {
            Doc::Text(s) => {
                if let Some(line) = lines.last_mut() {
                    line.push_str(s);
                }
                col += width(s);
            }
            Doc::Line | Doc::Soft if mode == Mode::Break => {
                lines.push(" ".repeat(ind));
                col = ind;
            }
            Doc::Line => {
                if let Some(line) = lines.last_mut() {
                    line.push(' ');
                }
                col += 1;
            }
            Doc::Soft => {}
            Doc::Nest(inner) => stack.push((ind + INDENT, mode, inner)),
            Doc::Group(inner) => {
                let flat = mode == Mode::Flat || fits(WIDTH as isize - col as isize, inner, &stack);
                stack.push((ind, if flat { Mode::Flat } else { Mode::Break }, inner));
            }
            Doc::Cat(parts) => stack.extend(parts.iter().rev().map(|p| (ind, mode, p))),
        }
    }
    lines
        .into_iter()
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// Whether `doc`, printed flat, and what follows it up to the next line
/// break fit in `room` columns.
fn fits(mut room: isize, doc: &Doc, rest: &[(usize, Mode, &Doc)]) -> bool {
    let mut todo: Vec<(Mode, &Doc)> = vec![(Mode::Flat, doc)];
    let mut rest = rest.iter().rev();
    while room >= 0 {
        let (mode, d) = match todo.pop() {
            Some(next) => next,
            None => match rest.next() {
                Some(&(_, mode, d)) => (mode, d),
                None => return true,
            },
        };
        match d {
            Doc::Text(s) => room -= width(s) as isize,
            Doc::Line | Doc::Soft if mode == Mode::Break => return true,
            Doc::Line => room -= 1,
            Doc::Soft => {}
            Doc::Nest(inner) | Doc::Group(inner) => todo.push((mode, inner)),
            Doc::Cat(parts) => todo.extend(parts.iter().rev().map(|p| (mode, p))),
        }
    }
    false
}

/// Terminal columns of a text: CJK characters take two, so that a line of
/// Chinese names is not judged half as long as it looks.
pub(crate) fn width(s: &str) -> usize {
    s.chars().map(|c| if is_wide(c) { 2 } else { 1 }).sum()
}

fn is_wide(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x20000..=0x3FFFD)
}

// =============================================================================
// Expressions
// =============================================================================

/// Grammar levels, loosest first: what a place in the grammar accepts
/// without parentheses, and how tightly each expression binds.
const EXPR: u8 = 0;
const OR: u8 = 1;
const NOT: u8 = 3;
/// The level an operand of `or` is printed at: the grammar takes an `and`
/// there bare, but the reader should not have to recall which binds
/// tighter, so `a or (b and c)` keeps its parentheses.
const AND_IN_OR: u8 = NOT;
const SUM: u8 = 5;
const UNARY: u8 = 7;
const PRIMARY: u8 = 8;

/// What comes right after an expression, where the grammar could take it
/// as part of that expression.
#[derive(Clone, Copy, Debug, Default)]
struct Next {
    /// A binary operator.
    op: bool,
    /// `where`.
    where_kw: bool,
}

/// A place an expression is printed in: the loosest level the grammar
/// accepts there, and what follows.
#[derive(Clone, Copy, Debug)]
struct Place {
    min: u8,
    next: Next,
}

const NOTHING: Next = Next {
    op: false,
    where_kw: false,
};

const TOP: Place = Place {
    min: EXPR,
    next: NOTHING,
};

fn place(min: u8, next: Next) -> Place {
    Place { min, next }
}

fn is_compare(op: BinOp) -> bool {
    op.precedence() == 4
}

/// The left operand of `op`: the grammar's levels are left-associative
/// except comparisons, which do not chain.
fn lhs_place(op: BinOp) -> Place {
    let min = if is_compare(op) {
        SUM
    } else if op == BinOp::Or {
        AND_IN_OR
    } else {
        op.precedence()
    };
    place(
        min,
        Next {
            op: true,
            where_kw: false,
        },
    )
}

fn rhs_place(op: BinOp, next: Next) -> Place {
    place(
        if is_compare(op) {
            SUM
        } else if op == BinOp::Or {
            AND_IN_OR
        } else {
            op.precedence() + 1
        },
        next,
    )
}

/// How tightly an expression binds. Quantifiers, `if` and `count` are
/// primaries (`not exists t in S: p`, `a + count t in S`), but open to the
/// right: see [`needs_parens`].
fn level(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Binary(op, ..) => op.precedence(),
        ExprKind::Not(_) => NOT,
        ExprKind::Neg(_) => UNARY,
        _ => PRIMARY,
    }
}

/// Parentheses are needed for an expression looser than its place, and
/// for one that would swallow what follows it: a quantifier or an `if`
/// (their body or `else` runs as far right as it can) or a `count` (its
/// set or filter does) before an operator, and a `count` without filter
/// before a `where`. Other expressions pass what follows on to their last
/// part ([`expr_doc`]), so only the construct that needs them gets them:
/// `a and (exists t in S: p) and q`, not `(a and exists t in S: p) and q`.
fn needs_parens(e: &Expr, at: Place) -> bool {
    let open_to_op = matches!(
        e.kind,
        ExprKind::Quantified { .. } | ExprKind::If(..) | ExprKind::Count { .. }
    );
    let open_to_where = matches!(e.kind, ExprKind::Count { filter: None, .. });
    level(e) < at.min || (at.next.op && open_to_op) || (at.next.where_kw && open_to_where)
}

/// An expression in a place, in parentheses if the place needs them.
fn at(e: &Expr, place: Place) -> Doc {
    if needs_parens(e, place) {
        parens(expr_doc(e, NOTHING))
    } else {
        expr_doc(e, place.next)
    }
}

fn parens(inner: Doc) -> Doc {
    group(cat(vec![
        text("("),
        nest(cat(vec![Doc::Soft, inner])),
        Doc::Soft,
        text(")"),
    ]))
}

/// `open a, b close`, breaking after `open` and each comma if too long.
fn bracketed(open: String, items: Vec<Doc>, close: &str) -> Doc {
    if items.is_empty() {
        return text(open + close);
    }
    let mut inner = Vec::with_capacity(items.len() * 3);
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            inner.push(text(","));
            inner.push(Doc::Line);
        }
        inner.push(item);
    }
    group(cat(vec![
        text(open),
        nest(cat(vec![Doc::Soft, cat(inner)])),
        Doc::Soft,
        text(close),
    ]))
}

/// The document of an expression, without parentheses around it; `next`
/// is what follows it, handed on to its last part.
fn expr_doc(e: &Expr, next: Next) -> Doc {
    match &e.kind {
        ExprKind::Bool(b) => text(if *b { "true" } else { "false" }),
        ExprKind::Int(n) => text(n.to_string()),
        ExprKind::Name(id) => text(id.name.as_str()),
        ExprKind::Call(f, args) => bracketed(
            format!("{f}("),
            args.iter().map(|a| at(a, TOP)).collect(),
            ")",
        ),
        ExprKind::Not(_) | ExprKind::Neg(_) => prefixed(e, next),
        ExprKind::Binary(op, l, r) if is_compare(*op) => cat(vec![
            at(l, lhs_place(*op)),
            text(format!(" {} ", op.symbol())),
            at(r, rhs_place(*op, next)),
        ]),
        ExprKind::Binary(op, ..) => chain(e, *op, next),
        ExprKind::Quantified {
            quantifier,
            var,
            set,
            filter,
            body,
        } => {
            let word = quantifier.keyword();
            let head = ranged(format!("{word} {var} in "), set, filter.as_deref(), NOTHING);
            group(cat(vec![
                group(cat(vec![head, text(":")])),
                nest(cat(vec![Doc::Line, at(body, place(EXPR, next))])),
            ]))
        }
        ExprKind::Count { var, set, filter } => group(ranged(
            format!("count {var} in "),
            set,
            filter.as_deref(),
            next,
        )),
        ExprKind::SetBuilder { var, set, filter } => group(cat(vec![
            text("{"),
            nest(cat(vec![
                Doc::Soft,
                text(format!("{var} in ")),
                at(
                    set,
                    place(
                        OR,
                        Next {
                            op: false,
                            where_kw: true,
                        },
                    ),
                ),
                Doc::Line,
                text("where "),
                nest(at(filter, TOP)),
            ])),
            Doc::Soft,
            text("}"),
        ])),
        ExprKind::SetLiteral(items) => {
            bracketed("{".into(), items.iter().map(|i| at(i, TOP)).collect(), "}")
        }
        ExprKind::If(c, t, otherwise) => group(cat(vec![
            text("if "),
            nest(at(c, TOP)),
            nest(cat(vec![Doc::Line, text("then "), nest(at(t, TOP))])),
            nest(cat(vec![
                Doc::Line,
                text("else "),
                nest(at(otherwise, place(EXPR, next))),
            ])),
        ])),
        ExprKind::Context(ctx, body) => {
            let head = match ctx.as_ref() {
                Context::Before => text("before"),
                Context::Previously => text("previously"),
                Context::AfterPass => text("after pass"),
                Context::AfterLift(p) => bracketed("after lift(".into(), vec![at(p, TOP)], ")"),
                Context::AfterMove(m) => bracketed("after move(".into(), vec![at(m, TOP)], ")"),
                Context::AfterTake(a, b) => {
                    bracketed("after take(".into(), vec![at(a, TOP), at(b, TOP)], ")")
                }
            };
            group(cat(vec![
                head,
                text(" {"),
                nest(cat(vec![Doc::Line, at(body, TOP)])),
                Doc::Line,
                text("}"),
            ]))
        }
    }
}

/// `<head>S` then `where F` — the range of a quantifier or a count; the
/// `where` goes on its own line, indented by four, if the range is long.
/// `next` follows the range.
fn ranged(head: String, set: &Expr, filter: Option<&Expr>, next: Next) -> Doc {
    let set_next = match filter {
        Some(_) => Next {
            op: false,
            where_kw: true,
        },
        None => next,
    };
    let mut parts = vec![text(head), at(set, place(OR, set_next))];
    if let Some(f) = filter {
        parts.push(nest(nest(cat(vec![
            Doc::Line,
            text("where "),
            nest(at(f, place(OR, next))),
        ]))));
    }
    cat(parts)
}

/// `not`s and `-`s in a row, then their operand. A loop, so that a long
/// run of them cannot exhaust the stack.
fn prefixed(e: &Expr, next: Next) -> Doc {
    let mut prefix = String::new();
    let mut cur = e;
    loop {
        let (word, inner, min) = match &cur.kind {
            ExprKind::Not(x) => ("not ", x.as_ref(), NOT),
            ExprKind::Neg(x) => ("-", x.as_ref(), UNARY),
            _ => return cat(vec![text(prefix), expr_doc(cur, next)]),
        };
        prefix.push_str(word);
        if needs_parens(inner, place(min, next)) {
            return cat(vec![text(prefix), parens(expr_doc(inner, NOTHING))]);
        }
        cur = inner;
    }
}

/// A run of left-associative operators of one level (`a and b and c`,
/// `a + b - c`), gathered by a loop so that long runs cannot exhaust the
/// stack. Every operand but the last is followed by an operator. `and`/`or`
/// runs break before every operator together; arithmetic never breaks.
fn chain(e: &Expr, op: BinOp, next: Next) -> Doc {
    let mut rest: Vec<(BinOp, &Expr)> = Vec::new();
    let mut cur = e;
    let first = loop {
        let ExprKind::Binary(o, l, r) = &cur.kind else {
            break at(cur, lhs_place(op));
        };
        rest.push((*o, r.as_ref()));
        match &l.kind {
            ExprKind::Binary(lo, ..) if lo.precedence() == op.precedence() => cur = l,
            _ => break at(l, lhs_place(*o)),
        }
    };
    let breaks = matches!(op, BinOp::And | BinOp::Or);
    let last = rest.len();
    let mut parts = vec![first];
    for (k, (o, r)) in rest.into_iter().rev().enumerate() {
        if breaks {
            parts.push(Doc::Line);
            parts.push(text(format!("{} ", o.symbol())));
        } else {
            parts.push(text(format!(" {} ", o.symbol())));
        }
        let follows = if k + 1 == last {
            next
        } else {
            Next {
                op: true,
                where_kw: false,
            }
        };
        parts.push(at(r, rhs_place(o, follows)));
    }
    if breaks {
        group(cat(parts))
    } else {
        cat(parts)
    }
}

// =============================================================================
// Items
// =============================================================================

/// A string literal that reads back as `s`.
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

fn amend(a: Amend) -> &'static str {
    match a {
        Amend::Add => "",
        Amend::Override => "override ",
    }
}

/// ` "中文" "english"`, as much as is given.
fn names(n: &Names) -> String {
    let mut s = String::new();
    if let Some(zh) = &n.zh {
        s.push(' ');
        s.push_str(&quoted(zh));
        if let Some(en) = &n.en {
            s.push(' ');
            s.push_str(&quoted(en));
        }
    }
    s
}

fn cite(c: Option<&Cite>) -> String {
    c.map_or(String::new(), |c| format!(" @{}", c.id))
}

fn ident_list(ids: &[Ident]) -> String {
    ids.iter()
        .map(|i| i.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn ruling(r: &Ruling) -> String {
    match r {
        Ruling::Draw => "draw".into(),
        Ruling::MustChange(side) => format!("{side} must change"),
    }
}

/// `head = body`, the body on the next lines if it does not fit.
fn equation(head: String, body: &Expr) -> Doc {
    group(cat(vec![
        text(head + " ="),
        nest(cat(vec![Doc::Line, at(body, TOP)])),
    ]))
}

fn definition(d: &Definition) -> Doc {
    let mut head = format!("{}define {}", amend(d.amend), d.name);
    if !d.params.is_empty() {
        let params: Vec<String> = d
            .params
            .iter()
            .map(|p| format!("{}: {}", p.name, p.ty))
            .collect();
        head.push_str(&format!("({})", params.join(", ")));
    }
    if let Some(ty) = d.ty {
        head.push_str(&format!(" : {ty}"));
    }
    head.push_str(&names(&d.names));
    head.push_str(&cite(d.cite.as_ref()));
    equation(head, &d.body)
}

fn nature(n: &Nature) -> Doc {
    let en =
        n.en.as_deref()
            .map_or(String::new(), |e| format!(" {}", quoted(e)));
    let head = format!(
        "{}nature {}{en}{}",
        amend(n.amend),
        n.name,
        cite(n.cite.as_ref())
    );
    equation(head, &n.body)
}

fn case(c: &Case) -> Doc {
    let side = c
        .for_side
        .as_ref()
        .map_or(String::new(), |s| format!(" for {s}"));
    let head = format!(
        "case {}{}{}{side}:",
        c.id,
        names(&c.names),
        cite(c.cite.as_ref())
    );
    let body = group(cat(vec![
        at(&c.cond, TOP),
        Doc::Line,
        text(format!("=> {}", ruling(&c.ruling))),
    ]));
    group(cat(vec![text(head), nest(cat(vec![Doc::Line, body]))]))
}

fn action(a: &ClauseAction) -> String {
    match a {
        ClauseAction::Recast { from, to } => format!("recast {} -> {to}", ident_list(from)),
        ClauseAction::Drop(ids) => format!("drop {}", ident_list(ids)),
        ClauseAction::Add(ids) => format!("add {}", ident_list(ids)),
    }
}

fn order(o: &Order) -> String {
    let groups: Vec<String> = o
        .groups
        .iter()
        .map(|g| ident_list(g).replace(", ", " = "))
        .collect();
    format!("{}order {}", amend(o.amend), groups.join(" > "))
}

fn extends(e: &Extends) -> String {
    let mut s = String::from("extends ");
    if e.by_path {
        s.push_str("path ");
    }
    s.push_str(&quoted(&e.target));
    if let Some(pin) = &e.pin {
        s.push_str(&format!(" sha256 {}", quoted(pin)));
    }
    s
}

/// The edition's fields in their canonical order.
fn fields(h: &Header) -> Vec<(FieldKind, String)> {
    let mut out = Vec::new();
    if let Some(zh) = &h.title_zh {
        let en = h
            .title_en
            .as_deref()
            .map_or(String::new(), |en| format!(" / {}", quoted(en)));
        out.push((FieldKind::Title, format!("title {}{en}", quoted(zh))));
    }
    if let Some(y) = h.year {
        out.push((FieldKind::Year, format!("year {y}")));
    }
    if let Some(s) = &h.source {
        out.push((FieldKind::Source, format!("source {}", quoted(s))));
    }
    if let Some(s) = &h.status {
        out.push((FieldKind::Status, format!("status {}", quoted(s))));
    }
    out
}

// =============================================================================
// Printing a file with its comments
// =============================================================================

/// Collects the output lines and hands each construct its comments.
struct Printer<'c> {
    lines: Vec<String>,
    pending: BTreeMap<(Anchor, Slot), Vec<&'c Comment>>,
}

impl<'c> Printer<'c> {
    fn new(comments: &'c Comments) -> Printer<'c> {
        let mut pending: BTreeMap<(Anchor, Slot), Vec<&'c Comment>> = BTreeMap::new();
        for (c, place) in comments.list.iter().zip(&comments.places) {
            pending.entry(*place).or_default().push(c);
        }
        Printer {
            lines: Vec::new(),
            pending,
        }
    }

    fn take(&mut self, a: Anchor, s: Slot) -> Vec<&'c Comment> {
        self.pending.remove(&(a, s)).unwrap_or_default()
    }

    fn blank(&mut self) {
        self.lines.push(String::new());
    }

    /// Comments on lines of their own; between items (`top`), a blank line
    /// after one is kept.
    fn comment_lines(&mut self, cs: &[&Comment], indent: usize, top: bool) {
        for c in cs {
            self.lines.push(format!("{}{}", " ".repeat(indent), c.text));
            if top && c.blank_after {
                self.blank();
            }
        }
    }

    /// The comments of a construct: those printed before it (with any that
    /// cannot end the line they belong to), the one ending its first line
    /// and the one ending its last.
    fn gather(&mut self, a: Anchor, one_line: bool) -> Gathered<'c> {
        let mut before = self.take(a, Slot::Before);
        let mut first = self.take(a, Slot::FirstLine).into_iter();
        let first_c = first.next();
        before.extend(first);
        let mut last = self.take(a, Slot::LastLine).into_iter();
        let last_c = if one_line && first_c.is_some() {
            None
        } else {
            last.next()
        };
        before.extend(last);
        Gathered {
            before,
            first: first_c,
            last: last_c,
        }
    }

    /// A construct printed as the given lines.
    fn construct(&mut self, a: Anchor, indent: usize, lines: Vec<String>, top: bool) {
        let g = self.gather(a, lines.len() <= 1);
        self.comment_lines(&g.before, indent, top);
        let n = lines.len();
        for (k, mut line) in lines.into_iter().enumerate() {
            for c in [g.first.filter(|_| k == 0), g.last.filter(|_| k + 1 == n)]
                .into_iter()
                .flatten()
            {
                line.push_str("  ");
                line.push_str(&c.text);
            }
            self.lines.push(line);
        }
    }

    /// A block: `open {`, its constructs, its inner comments, `}`.
    fn block(
        &mut self,
        a: Anchor,
        indent: usize,
        open: String,
        empty: bool,
        top: bool,
        body: impl FnOnce(&mut Self),
    ) {
        let inside = self.take(a, Slot::Inside);
        if empty && inside.is_empty() {
            return self.construct(a, indent, vec![format!("{open} {{}}")], top);
        }
        let g = self.gather(a, false);
        self.comment_lines(&g.before, indent, top);
        self.construct_line(format!("{}{open} {{", " ".repeat(indent)), g.first);
        body(self);
        self.comment_lines(&inside, indent + INDENT, false);
        self.construct_line(format!("{}}}", " ".repeat(indent)), g.last);
    }

    fn construct_line(&mut self, mut line: String, comment: Option<&Comment>) {
        if let Some(c) = comment {
            line.push_str("  ");
            line.push_str(&c.text);
        }
        self.lines.push(line);
    }

    fn header(&mut self, h: &Header) {
        let fields = fields(h);
        let open = format!("edition {}", quoted(&h.edition.name));
        self.block(Anchor::Edition, 0, open, fields.is_empty(), true, |p| {
            for (kind, line) in fields {
                p.construct(
                    Anchor::Field(kind),
                    INDENT,
                    vec![format!("  {line}")],
                    false,
                );
            }
        });
        if let Some(e) = &h.extends {
            self.construct(Anchor::Extends, 0, vec![extends(e)], true);
        }
    }

    /// `values { … }` or `exchange { … }`: one `key integer` a line.
    fn keyed_block(&mut self, i: usize, keyword: &str, how: Amend, entries: &[ValueEntry]) {
        let open = format!("{}{keyword}", amend(how));
        self.block(Anchor::Item(i), 0, open, entries.is_empty(), true, |p| {
            for (j, e) in entries.iter().enumerate() {
                let line = format!("  {} {}", e.key, e.value);
                p.construct(Anchor::Entry(i, j), INDENT, vec![line], false);
            }
        });
    }

    fn item(&mut self, i: usize, item: &Item) {
        let a = Anchor::Item(i);
        match item {
            Item::Values(v) => self.keyed_block(i, "values", v.amend, &v.entries),
            Item::Exchange(h) => self.keyed_block(i, "exchange", h.amend, &h.entries),
            Item::Verdict(v) => {
                let open = format!("{}verdict", amend(v.amend));
                self.block(a, 0, open, false, true, |p| {
                    for (j, c) in v.cases.iter().enumerate() {
                        p.construct(Anchor::Case(i, j), INDENT, render(&case(c), INDENT), false);
                    }
                    let line = format!("  otherwise => {}", ruling(&v.otherwise));
                    p.construct(Anchor::Otherwise(i), INDENT, vec![line], false);
                });
            }
            Item::Clause(c) => {
                let open = format!(
                    "{}clause {}{}{}",
                    amend(c.amend),
                    c.id,
                    names(&c.names),
                    cite(c.cite.as_ref())
                );
                self.block(a, 0, open, false, true, |p| {
                    let when = cat(vec![text("when "), nest(at(&c.when, TOP))]);
                    p.construct(Anchor::When(i), INDENT, render(&when, INDENT), false);
                    let line = format!("  {}", action(&c.action));
                    p.construct(Anchor::Action(i), INDENT, vec![line], false);
                });
            }
            Item::Define(d) => self.construct(a, 0, render(&definition(d), 0), true),
            Item::Nature(n) => self.construct(a, 0, render(&nature(n), 0), true),
            Item::Order(o) => self.construct(a, 0, vec![order(o)], true),
            Item::Remove(r) => {
                let line = format!("remove {} {}", r.kind.keyword(), r.id);
                self.construct(a, 0, vec![line], true);
            }
        }
    }

    /// The end of the file: its own comments, then any whose construct the
    /// rulebook does not have (comments gathered from another text), in
    /// text order — never dropped.
    fn finish(mut self) -> String {
        let mut rest = self.take(Anchor::File, Slot::Inside);
        rest.extend(std::mem::take(&mut self.pending).into_values().flatten());
        rest.sort_by_key(|c| c.span.start);
        if !rest.is_empty() {
            self.blank();
            self.comment_lines(&rest, 0, true);
        }
        while self.lines.last().is_some_and(String::is_empty) {
            self.lines.pop();
        }
        let mut out = self.lines.join("\n");
        out.push('\n');
        out
    }
}

/// A construct's comments, sorted by where they will be printed.
struct Gathered<'c> {
    before: Vec<&'c Comment>,
    first: Option<&'c Comment>,
    last: Option<&'c Comment>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_of_constructs_stop_at_their_last_token() {
        let text = "edition \"x\" { year 1 }\ndefine a = 1  # one\n\n# two\ndefine b = 2\n";
        let c = comments(&Source::new("t", text));
        assert_eq!(
            c.places,
            vec![
                (Anchor::Item(0), Slot::FirstLine),
                (Anchor::Item(1), Slot::Before)
            ]
        );
    }

    #[test]
    fn width_counts_chinese_as_two_columns() {
        assert_eq!(width("将a"), 3);
    }

    #[test]
    fn blank_line_follows_only_before_more_text() {
        assert!(blank_line_follows("\n\nx"));
        assert!(!blank_line_follows("\nx"));
        assert!(!blank_line_follows("\n\n"));
    }

    #[test]
    fn a_tree_that_cannot_be_written_is_reported_not_printed() {
        // The grammar has no negative literals: Int(-1) prints as `-1`,
        // which reads back as Neg(Int(1)).
        let src = Source::new("t.qili", "edition \"x\" {}\ndefine a = 1\n");
        let mut book = parse(&src).unwrap();
        if let Some(Item::Define(d)) = book.items.first_mut() {
            d.body.kind = ExprKind::Int(-1);
        }
        let text = format(&book, &Comments::default());
        let Err(e) = verify(&src, &book, &Comments::default(), &text) else {
            panic!("a changed tree passed the check");
        };
        assert_eq!(
            e.code().map(|c| c.to_string()).as_deref(),
            Some("qili::fmt::changed_meaning")
        );
        assert!(matches!(e, FmtError::ChangedMeaning(c) if c.what == "the rules"));
    }

    #[test]
    fn a_lost_comment_is_reported() {
        let src = Source::new("t.qili", "edition \"x\" {} # kept?\n");
        let book = parse(&src).unwrap();
        let notes = comments(&src);
        let Err(e) = verify(&src, &book, &notes, "edition \"x\" {}\n") else {
            panic!("a lost comment passed the check");
        };
        assert!(matches!(e, FmtError::ChangedMeaning(c) if c.what == "the comments"));
    }

    #[test]
    fn strings_are_re_escaped() {
        assert_eq!(quoted("a\"b\\c\nd"), r#""a\"b\\c\nd""#);
    }
}
