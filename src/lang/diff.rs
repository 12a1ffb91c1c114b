//! What a committee asks of two editions: which clauses were added,
//! removed or changed, and where each side's text comes from; and the
//! resolved rulebook of one edition with every clause's lineage.
//!
//! Items are compared as syntax trees (spans ignored), so re-indenting a
//! clause or moving a comment is not a change; changing a word is.

use serde::Serialize;

use super::ast::{Amend, Item, ItemKind};
use super::resolve::{Resolved, ResolvedItem};

/// How one item differs between two rulebooks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    Added,
    Removed,
    Changed,
    Same,
}

/// One item's comparison: its texts on both sides and where each comes from.
#[derive(Clone, Debug, Serialize)]
pub struct DiffEntry {
    pub kind: &'static str,
    pub id: String,
    pub change: Change,
    /// The edition whose text is in force on the left, and that text.
    pub left_from: Option<String>,
    pub left_text: Option<String>,
    pub right_from: Option<String>,
    pub right_text: Option<String>,
    pub left_cite: Option<String>,
    pub right_cite: Option<String>,
}

/// Two rulebooks compared item by item.
#[derive(Clone, Debug, Serialize)]
pub struct RulebookDiff {
    pub left: String,
    pub right: String,
    pub entries: Vec<DiffEntry>,
}

impl RulebookDiff {
    pub fn count(&self, change: &Change) -> usize {
        self.entries.iter().filter(|e| &e.change == change).count()
    }
}

/// The source text of an item as written in the edition it comes from.
/// Trailing blank lines and comments (which the parser's span takes in
/// when they follow the item) belong to what comes next, not to the item.
pub fn item_text(resolved: &Resolved, item: &ResolvedItem) -> String {
    let span = item.item.span();
    let text = resolved
        .source_of(item)
        .and_then(|s| s.text.get(span.start..span.end))
        .unwrap_or_default();
    let mut lines: Vec<&str> = text.lines().collect();
    while lines
        .last()
        .is_some_and(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
    {
        lines.pop();
    }
    lines.join("\n")
}

/// The item as a meaning: whether it was written as new or as an override
/// is how it got there, not what it says.
fn meaning(item: &Item) -> Item {
    let mut it = item.clone();
    match &mut it {
        Item::Values(v) => v.amend = Amend::Add,
        Item::Exchange(h) => h.amend = Amend::Add,
        Item::Define(d) => d.amend = Amend::Add,
        Item::Nature(n) => n.amend = Amend::Add,
        Item::Clause(c) => c.amend = Amend::Add,
        Item::Order(o) => o.amend = Amend::Add,
        Item::Verdict(v) => v.amend = Amend::Add,
        Item::Remove(_) => {}
    }
    it
}

fn cite_of(item: &Item) -> Option<String> {
    item.cite().map(|c| c.id.clone())
}

/// Compares two resolved rulebooks. Items keep the left's order, then the
/// right's new ones.
pub fn diff(left: &Resolved, right: &Resolved) -> RulebookDiff {
    let mut entries = Vec::new();
    for (key, l) in &left.items {
        let r = right.items.get(key);
        let change = match r {
            None => Change::Removed,
            Some(r) if meaning(&r.item) == meaning(&l.item) => Change::Same,
            Some(_) => Change::Changed,
        };
        entries.push(DiffEntry {
            kind: key.0.keyword(),
            id: key.1.clone(),
            change,
            left_from: Some(left.edition_id(l.edition).to_string()),
            left_text: Some(item_text(left, l)),
            right_from: r.map(|r| right.edition_id(r.edition).to_string()),
            right_text: r.map(|r| item_text(right, r)),
            left_cite: cite_of(&l.item),
            right_cite: r.and_then(|r| cite_of(&r.item)),
        });
    }
    for (key, r) in &right.items {
        if left.items.contains_key(key) {
            continue;
        }
        entries.push(DiffEntry {
            kind: key.0.keyword(),
            id: key.1.clone(),
            change: Change::Added,
            left_from: None,
            left_text: None,
            right_from: Some(right.edition_id(r.edition).to_string()),
            right_text: Some(item_text(right, r)),
            left_cite: None,
            right_cite: cite_of(&r.item),
        });
    }
    RulebookDiff {
        left: left
            .this()
            .map(|l| l.book.header.edition.name.clone())
            .unwrap_or_default(),
        right: right
            .this()
            .map(|l| l.book.header.edition.name.clone())
            .unwrap_or_default(),
        entries,
    }
}

/// Word-wraps a comma-separated list to `width` columns with an indent.
fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::from(indent);
    for word in text.split(' ') {
        if line.len() > indent.len() && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(line.trim_end());
            out.push('\n');
            line = String::from(indent);
        }
        if line.len() > indent.len() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if line.len() > indent.len() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("      {l}\n")).collect()
}

fn heading(e: &DiffEntry) -> String {
    let cite = e
        .right_cite
        .as_ref()
        .or(e.left_cite.as_ref())
        .map(|c| format!(" @{c}"))
        .unwrap_or_default();
    format!("{}{cite}", label(e.kind, &e.id))
}

/// `define rooted`, but just `order` for the singletons whose id is their keyword.
fn label(kind: &str, id: &str) -> String {
    if kind == id {
        kind.to_string()
    } else {
        format!("{kind} {id}")
    }
}

/// The diff as text: changed, added and removed items with their texts, then
/// a count of what is the same.
pub fn render_text(d: &RulebookDiff) -> String {
    let mut out = format!("qili diff {} → {}\n\n", d.left, d.right);
    for e in &d.entries {
        match e.change {
            Change::Same => {}
            Change::Changed => {
                out.push_str(&format!(
                    "~ changed  {}   ({} → {})\n",
                    heading(e),
                    e.left_from.as_deref().unwrap_or("?"),
                    e.right_from.as_deref().unwrap_or("?")
                ));
                out.push_str(&format!("    {}:\n", d.left));
                out.push_str(&indent(e.left_text.as_deref().unwrap_or("")));
                out.push_str(&format!("    {}:\n", d.right));
                out.push_str(&indent(e.right_text.as_deref().unwrap_or("")));
                out.push('\n');
            }
            Change::Added => {
                out.push_str(&format!(
                    "+ added    {}   (from {})\n",
                    heading(e),
                    e.right_from.as_deref().unwrap_or("?")
                ));
                out.push_str(&indent(e.right_text.as_deref().unwrap_or("")));
                out.push('\n');
            }
            Change::Removed => {
                out.push_str(&format!(
                    "- removed  {}   (was from {})\n",
                    heading(e),
                    e.left_from.as_deref().unwrap_or("?")
                ));
                out.push_str(&indent(e.left_text.as_deref().unwrap_or("")));
                out.push('\n');
            }
        }
    }
    // What stayed the same, grouped by where each side's text comes from.
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for e in d.entries.iter().filter(|e| e.change == Change::Same) {
        let from_l = e.left_from.as_deref().unwrap_or("?");
        let from_r = e.right_from.as_deref().unwrap_or("?");
        let origin = if from_l == from_r {
            format!("from {from_l}")
        } else {
            format!("from {from_l} / {from_r}")
        };
        let name = label(e.kind, &e.id);
        match groups.iter_mut().find(|(o, _)| *o == origin) {
            Some((_, names)) => names.push(name),
            None => groups.push((origin, vec![name])),
        }
    }
    for (origin, names) in &groups {
        out.push_str(&format!(
            "= the same in both, {origin} ({}):\n",
            names.len()
        ));
        out.push_str(&wrap(&names.join(", "), 96, "    "));
    }
    if !groups.is_empty() {
        out.push('\n');
    }
    out.push_str(&format!(
        "{} changed, {} added, {} removed, {} the same\n",
        d.count(&Change::Changed),
        d.count(&Change::Added),
        d.count(&Change::Removed),
        d.count(&Change::Same)
    ));
    out
}

/// The resolved rulebook, item by item, each with its lineage
/// ("defined in 2007-trial, overridden in 2011") and its text in force.
pub fn explain(resolved: &Resolved) -> String {
    let mut out = String::new();
    let chain: Vec<&str> = (0..resolved.chain.len())
        .map(|i| resolved.edition_id(i))
        .collect();
    if let Some(this) = resolved.this() {
        let h = &this.book.header;
        out.push_str(&format!("edition {}", h.edition.name));
        if let Some(t) = &h.title_zh {
            out.push_str(&format!(" — {t}"));
        }
        if let Some(t) = &h.title_en {
            out.push_str(&format!(" / {t}"));
        }
        out.push('\n');
    }
    out.push_str(&format!("chain: {}\n\n", chain.join(" → ")));
    let kinds = [
        ItemKind::Values,
        ItemKind::Exchange,
        ItemKind::Define,
        ItemKind::Nature,
        ItemKind::Clause,
        ItemKind::Order,
        ItemKind::Verdict,
    ];
    for kind in kinds {
        for ((k, id), item) in &resolved.items {
            if *k != kind {
                continue;
            }
            let cite = cite_of(&item.item)
                .map(|c| format!(" @{c}"))
                .unwrap_or_default();
            out.push_str(&format!("{}{cite}\n", label(k.keyword(), id)));
            out.push_str(&format!(
                "    lineage: {}\n",
                lineage_text(resolved, &item.lineage)
            ));
            out.push_str(&indent(&item_text(resolved, item)));
            out.push('\n');
        }
    }
    if !resolved.removed.is_empty() {
        out.push_str("removed along the chain:\n");
        for ((k, id), lineage) in &resolved.removed {
            out.push_str(&format!(
                "    {} {id}: {}\n",
                k.keyword(),
                lineage_text(resolved, lineage)
            ));
        }
    }
    out
}

/// A resolved rulebook for tools (`qili explain-rules --format json`):
/// the chain, and each item in force with its lineage and text.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Explained {
    pub edition: String,
    pub title: Option<Titles>,
    /// Edition ids from the root to this one.
    pub chain: Vec<String>,
    pub items: Vec<ExplainedItem>,
    /// Items removed along the chain.
    pub removed: Vec<ExplainedItem>,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct Titles {
    pub zh: Option<String>,
    pub en: Option<String>,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct ExplainedItem {
    /// The item's keyword: `define`, `nature`, `clause`, `values`, …
    pub kind: &'static str,
    pub id: String,
    /// The rulebook clause it cites (`26.3`), if any.
    pub cite: Option<String>,
    pub lineage: Vec<ExplainedStep>,
    /// The text in force, as the file has it (empty for a removed item).
    pub text: String,
}

/// One step of a lineage: in which edition, what, and where (1-based line
/// of the file named).
#[derive(Debug, Clone, serde::Serialize)]
pub struct ExplainedStep {
    pub edition: String,
    pub step: &'static str,
    pub file: Option<String>,
    pub line: Option<usize>,
}

/// A lineage with each step's edition, file and line named: what both
/// the text and the JSON of `explain-rules` show.
fn lineage_steps(
    resolved: &Resolved,
    lineage: &[super::resolve::LineageStep],
) -> Vec<ExplainedStep> {
    lineage
        .iter()
        .map(|s| {
            let loaded = resolved.chain.get(s.edition);
            ExplainedStep {
                edition: resolved.edition_id(s.edition).to_string(),
                step: s.step.word(),
                file: loaded.map(|l| l.source.name.clone()),
                line: loaded.map(|l| l.source.line_col(s.span.start).0),
            }
        })
        .collect()
}

/// [`explain`] as data.
pub fn explain_data(resolved: &Resolved) -> Explained {
    let steps = |lineage: &[super::resolve::LineageStep]| lineage_steps(resolved, lineage);
    let this = resolved.this().map(|l| &l.book.header);
    Explained {
        edition: this.map_or_else(String::new, |h| h.edition.name.clone()),
        title: this.map(|h| Titles {
            zh: h.title_zh.clone(),
            en: h.title_en.clone(),
        }),
        chain: (0..resolved.chain.len())
            .map(|i| resolved.edition_id(i).to_string())
            .collect(),
        items: resolved
            .items
            .iter()
            .map(|((k, id), item)| ExplainedItem {
                kind: k.keyword(),
                id: id.clone(),
                cite: cite_of(&item.item),
                lineage: steps(&item.lineage),
                text: item_text(resolved, item),
            })
            .collect(),
        removed: resolved
            .removed
            .iter()
            .map(|((k, id), lineage)| ExplainedItem {
                kind: k.keyword(),
                id: id.clone(),
                cite: None,
                lineage: steps(lineage),
                text: String::new(),
            })
            .collect(),
    }
}

fn lineage_text(resolved: &Resolved, lineage: &[super::resolve::LineageStep]) -> String {
    lineage_steps(resolved, lineage)
        .iter()
        .map(|s| {
            let place = match (&s.file, s.line) {
                (Some(file), Some(line)) => format!(" ({file}:{line})"),
                _ => String::new(),
            };
            format!("{} in {}{place}", s.step, s.edition)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::lang::parse::Source;
    use crate::lang::resolve::{resolve, InMemory, Step};

    const BASE: &str = r#"
edition "base" { year 2007 }
define a = true
define b = 1 > 0
nature 闲 "idle" = true
order 闲
verdict { otherwise => draw }
"#;

    const CHILD: &str = r#"
edition "child" { year 2011 }
extends "base"
override define a = false
remove define b
define c = true
"#;

    fn library() -> InMemory {
        let mut lib = InMemory::default();
        lib.0.insert("base".into(), BASE.into());
        lib.0.insert("child".into(), CHILD.into());
        lib
    }

    fn resolved(id: &str) -> Resolved {
        let lib = library();
        let (src, _) = crate::lang::resolve::Library::find(&lib, id).unwrap();
        resolve(src, None, &lib).unwrap()
    }

    #[test]
    fn a_child_overrides_removes_and_adds() {
        let child = resolved("child");
        let a = child.get(ItemKind::Define, "a").unwrap();
        assert_eq!(
            a.lineage
                .iter()
                .map(|s| (s.edition, s.step))
                .collect::<Vec<_>>(),
            vec![(0, Step::Defined), (1, Step::Overridden)]
        );
        assert!(child.get(ItemKind::Define, "b").is_none());
        assert!(child
            .removed
            .contains_key(&(ItemKind::Define, "b".to_string())));
        assert_eq!(child.get(ItemKind::Define, "c").map(|c| c.edition), Some(1));
        let text = explain(&child);
        assert!(text.contains("chain: base → child"), "{text}");
        assert!(
            text.contains("defined in base (base.qili:3), overridden in child (child.qili:4)"),
            "{text}"
        );
    }

    #[test]
    fn the_diff_names_every_change_and_nothing_else() {
        let d = diff(&resolved("base"), &resolved("child"));
        let by = |id: &str| {
            d.entries
                .iter()
                .find(|e| e.id == id)
                .map(|e| e.change.clone())
        };
        assert_eq!(by("a"), Some(Change::Changed));
        assert_eq!(by("b"), Some(Change::Removed));
        assert_eq!(by("c"), Some(Change::Added));
        assert_eq!(by("闲"), Some(Change::Same));
        assert_eq!(by("order"), Some(Change::Same));
        let text = render_text(&d);
        assert!(
            text.ends_with("1 changed, 1 added, 1 removed, 3 the same\n"),
            "{text}"
        );
    }

    #[test]
    fn layout_is_not_a_change() {
        let mut lib = library();
        lib.0.insert(
            "relaid".into(),
            "edition \"relaid\" {year 2011}\nextends \"base\"\noverride define a =\n    true   # same meaning\n".into(),
        );
        let (src, _) = crate::lang::resolve::Library::find(&lib, "relaid").unwrap();
        let relaid = resolve(src, None, &lib).unwrap();
        let d = diff(&resolved("base"), &relaid);
        assert_eq!(d.count(&Change::Changed), 0, "{}", render_text(&d));
        let _ = Source::new("x", "");
    }
}
