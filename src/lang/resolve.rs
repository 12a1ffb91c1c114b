//! `extends` resolution: a chain of rules files becomes one flat rulebook
//! in which every item remembers where it was defined, overridden or
//! removed (its lineage), so that explanations and diffs can say
//! "defined in 2007-trial, overridden in 2011".
//!
//! Semantics (docs/language.md, "Editions that extend editions"):
//! * the parent is resolved first; the child's items then apply in order;
//! * a plain item adds a new id — an error if the parent has it already;
//! * `override` replaces the parent's item of that id — an error if the
//!   parent has none (or removed it);
//! * `remove` deletes the parent's item — an error if there is none;
//! * the singletons `values`, `order` and `verdict` follow the same rules
//!   under the ids `values`, `order`, `verdict`;
//! * a cycle of `extends` is an error that names the whole chain;
//! * `extends "id" sha256 "…"` pins the parent's exact text.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use miette::{Diagnostic, LabeledSpan, SourceCode};

use crate::diagnostic::SourceText;

use super::ast::{Amend, Item, ItemKind, Rulebook, Span};
use super::parse::{parse, Source, SyntaxError};

/// One file of a chain: its text, its parse, and where it was found.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub source: Source,
    pub book: Rulebook,
    pub path: Option<PathBuf>,
    /// The file's SHA-256, hex, as `extends … sha256` pins it.
    pub sha256: String,
}

/// What happened to an item in one edition of the chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Defined,
    Overridden,
    Removed,
}

impl Step {
    pub fn word(self) -> &'static str {
        match self {
            Step::Defined => "defined",
            Step::Overridden => "overridden",
            Step::Removed => "removed",
        }
    }
}

/// One entry of an item's lineage: in which edition (index into
/// [`Resolved::chain`]) what happened, and where.
#[derive(Clone, Debug)]
pub struct LineageStep {
    pub edition: usize,
    pub step: Step,
    pub span: Span,
}

/// An item of the flat rulebook with its history.
#[derive(Clone, Debug)]
pub struct ResolvedItem {
    pub item: Item,
    /// The edition (index into [`Resolved::chain`]) whose text is in force.
    pub edition: usize,
    pub lineage: Vec<LineageStep>,
}

/// A rulebook with `extends` resolved: the chain of files from the root
/// edition to this one, and the items in force, in the order they were
/// first defined (a child's new items after its parent's).
#[derive(Clone, Debug)]
pub struct Resolved {
    pub chain: Vec<Loaded>,
    pub items: IndexMap<(ItemKind, String), ResolvedItem>,
    /// Items removed somewhere along the chain, with their lineage.
    pub removed: IndexMap<(ItemKind, String), Vec<LineageStep>>,
}

impl Resolved {
    /// The edition this rulebook is (the last of the chain).
    pub fn this(&self) -> Option<&Loaded> {
        self.chain.last()
    }

    pub fn get(&self, kind: ItemKind, id: &str) -> Option<&ResolvedItem> {
        self.items.get(&(kind, id.to_string()))
    }

    pub fn edition_id(&self, index: usize) -> &str {
        self.chain
            .get(index)
            .map_or("?", |l| l.book.header.edition.name.as_str())
    }

    /// The source an item's spans point into.
    pub fn source_of(&self, item: &ResolvedItem) -> Option<&Source> {
        self.chain.get(item.edition).map(|l| &l.source)
    }
}

/// Where to find the editions named by id.
pub trait Library {
    /// The file for an edition id, or `None` if there is none.
    fn find(&self, id: &str) -> Option<(Source, Option<PathBuf>)>;
    /// The ids it knows, for "did you mean".
    fn ids(&self) -> Vec<String>;
}

/// A folder of `<id>.qili` files (normally `rules/`).
pub struct Folder(pub PathBuf);

impl Library for Folder {
    fn find(&self, id: &str) -> Option<(Source, Option<PathBuf>)> {
        let path = self.0.join(format!("{id}.qili"));
        let text = std::fs::read_to_string(&path).ok()?;
        Some((Source::new(path.display().to_string(), text), Some(path)))
    }

    fn ids(&self) -> Vec<String> {
        let Ok(dir) = std::fs::read_dir(&self.0) else {
            return Vec::new();
        };
        let mut ids: Vec<String> = dir
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().to_string();
                name.strip_suffix(".qili").map(str::to_string)
            })
            .collect();
        ids.sort();
        ids
    }
}

/// The editions the project bundles, compiled into the program, so that
/// `--rules 2011` works wherever qili runs, and a program embedding the
/// library needs no rules files of its own. Their texts are those of
/// `rules/` when the program was built.
pub struct Bundled;

/// Every file of `rules/`, by edition id (a test keeps this list and the
/// folder the same).
pub const BUNDLED: [(&str, &str); 9] = [
    ("1979", include_str!("../../rules/1979.qili")),
    ("1987", include_str!("../../rules/1987.qili")),
    ("1999", include_str!("../../rules/1999.qili")),
    ("2007-trial", include_str!("../../rules/2007-trial.qili")),
    ("2011-trial", include_str!("../../rules/2011-trial.qili")),
    ("2011", include_str!("../../rules/2011.qili")),
    ("2020", include_str!("../../rules/2020.qili")),
    ("axf", include_str!("../../rules/axf.qili")),
    ("wxf", include_str!("../../rules/wxf.qili")),
];

/// How a bundled edition's file is named in diagnostics and lineages: not
/// a path, since no such file need exist where qili runs.
pub fn bundled_name(id: &str) -> String {
    format!("<built-in>/{id}.qili")
}

impl Library for Bundled {
    fn find(&self, id: &str) -> Option<(Source, Option<PathBuf>)> {
        BUNDLED
            .iter()
            .find(|(k, _)| *k == id)
            .map(|(k, text)| (Source::new(bundled_name(k), *text), None))
    }

    fn ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = BUNDLED.iter().map(|(k, _)| k.to_string()).collect();
        ids.sort();
        ids
    }
}

/// A rules folder in front of the bundled editions: an edition the folder
/// holds is read from it (a committee's edited copy wins), any other from
/// the program. A folder that does not exist holds nothing.
pub struct Shelf(pub Folder);

impl Shelf {
    pub fn new(folder: impl Into<PathBuf>) -> Shelf {
        Shelf(Folder(folder.into()))
    }
}

impl Library for Shelf {
    fn find(&self, id: &str) -> Option<(Source, Option<PathBuf>)> {
        self.0.find(id).or_else(|| Bundled.find(id))
    }

    fn ids(&self) -> Vec<String> {
        let mut ids = self.0.ids();
        ids.extend(Bundled.ids());
        ids.sort();
        ids.dedup();
        ids
    }
}

/// Editions held in memory, for tests and embedding.
#[derive(Default)]
pub struct InMemory(pub HashMap<String, String>);

impl Library for InMemory {
    fn find(&self, id: &str) -> Option<(Source, Option<PathBuf>)> {
        self.0
            .get(id)
            .map(|t| (Source::new(format!("{id}.qili"), t.clone()), None))
    }

    fn ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self.0.keys().cloned().collect();
        ids.sort();
        ids
    }
}

/// Hex SHA-256 of a text.
pub fn sha256_hex(text: &str) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(text.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Resolves a rules file and everything it extends.
pub fn resolve(
    source: Source,
    path: Option<PathBuf>,
    library: &dyn Library,
) -> Result<Resolved, ResolveErrors> {
    let mut errors = Vec::new();
    // Load the chain child → root.
    let mut chain_rev: Vec<Loaded> = Vec::new();
    let mut next = Some((source, path));
    while let Some((src, path)) = next.take() {
        let book = match parse(&src) {
            Ok(b) => b,
            Err(e) => return Err(ResolveErrors(vec![ResolveError::Syntax(Box::new(e))])),
        };
        let sha256 = sha256_hex(&src.text);
        let ext = book.header.extends.clone();
        let loaded = Loaded {
            source: src,
            book,
            path,
            sha256,
        };
        if let Some(ext) = ext {
            let parent = if ext.by_path {
                let base = loaded
                    .path
                    .as_deref()
                    .and_then(Path::parent)
                    .map(Path::to_path_buf)
                    .unwrap_or_default();
                let p = base.join(&ext.target);
                std::fs::read_to_string(&p)
                    .ok()
                    .map(|t| (Source::new(p.display().to_string(), t), Some(p)))
            } else {
                library.find(&ext.target)
            };
            match parent {
                None => {
                    errors.push(ResolveError::UnknownParent {
                        target: ext.target.clone(),
                        by_path: ext.by_path,
                        suggestion: if ext.by_path {
                            None
                        } else {
                            super::suggest::closest(
                                &ext.target,
                                library.ids().iter().map(String::as_str),
                            )
                        },
                        at: Place::new(&loaded.source, ext.span),
                    });
                }
                Some((psrc, ppath)) => {
                    if let Some(pin) = &ext.pin {
                        let actual = sha256_hex(&psrc.text);
                        if !actual.eq_ignore_ascii_case(pin) {
                            errors.push(ResolveError::PinMismatch {
                                target: ext.target.clone(),
                                expected: pin.clone(),
                                actual,
                                at: Place::new(&loaded.source, ext.span),
                            });
                        }
                    }
                    // A circle is an edition met twice; ids, not file names,
                    // so `./rules/a.qili` and `rules/a.qili` are one edition.
                    let parent_id = parse(&psrc).ok().map(|b| b.header.edition.name);
                    let parent_edition_seen = parent_id.as_ref().is_some_and(|pid| {
                        chain_rev
                            .iter()
                            .chain(std::iter::once(&loaded))
                            .any(|l| &l.book.header.edition.name == pid)
                    });
                    if parent_edition_seen {
                        let mut names: Vec<String> = chain_rev
                            .iter()
                            .chain(std::iter::once(&loaded))
                            .map(|l| l.book.header.edition.name.clone())
                            .collect();
                        names.push(ext.target.clone());
                        errors.push(ResolveError::Cycle {
                            chain: names,
                            at: Place::new(&loaded.source, ext.span),
                        });
                    } else {
                        next = Some((psrc, ppath));
                    }
                }
            }
        }
        chain_rev.push(loaded);
    }
    if !errors.is_empty() {
        return Err(ResolveErrors(errors));
    }
    chain_rev.reverse();
    let chain = chain_rev;

    let mut items: IndexMap<(ItemKind, String), ResolvedItem> = IndexMap::new();
    let mut removed: IndexMap<(ItemKind, String), Vec<LineageStep>> = IndexMap::new();
    for (edition, loaded) in chain.iter().enumerate() {
        let mut seen_here: HashMap<(ItemKind, String), Span> = HashMap::new();
        for item in &loaded.book.items {
            let key = (item.kind(), item.id().to_string());
            if let Some(first) = seen_here.get(&key) {
                errors.push(ResolveError::Duplicate {
                    kind: item.kind(),
                    id: item.id().to_string(),
                    at: Place::new(&loaded.source, item.id_span()),
                    first: Place::labelled(&loaded.source, *first, "first written here"),
                });
                continue;
            }
            seen_here.insert(key.clone(), item.id_span());
            let here = |step| LineageStep {
                edition,
                step,
                span: item.id_span(),
            };
            let previous = items.get(&key).map(|r| (r.edition, r.item.id_span()));
            match (item, item.amend(), items.get_mut(&key)) {
                (Item::Remove(_), _, Some(_)) => {
                    if let Some(mut old) = items.shift_remove(&key) {
                        old.lineage.push(here(Step::Removed));
                        removed.insert(key, old.lineage);
                    }
                }
                (Item::Remove(_), _, None) => errors.push(ResolveError::NothingToAmend {
                    kind: item.kind(),
                    id: item.id().to_string(),
                    removing: true,
                    was_removed: removed.contains_key(&key),
                    suggestion: suggest_id(&items, item.kind(), item.id()),
                    at: Place::new(&loaded.source, item.id_span()),
                }),
                (_, Amend::Override, Some(old)) => {
                    old.item = item.clone();
                    old.edition = edition;
                    old.lineage.push(here(Step::Overridden));
                }
                (_, Amend::Override, None) => errors.push(ResolveError::NothingToAmend {
                    kind: item.kind(),
                    id: item.id().to_string(),
                    removing: false,
                    was_removed: removed.contains_key(&key),
                    suggestion: suggest_id(&items, item.kind(), item.id()),
                    at: Place::new(&loaded.source, item.id_span()),
                }),
                (_, Amend::Add, Some(_)) => {
                    let (pe, pspan) = previous.unwrap_or((edition, item.id_span()));
                    errors.push(ResolveError::Redefined {
                        kind: item.kind(),
                        id: item.id().to_string(),
                        at: Place::new(&loaded.source, item.id_span()),
                        parent: chain
                            .get(pe)
                            .map(|l| Place::labelled(&l.source, pspan, "the inherited one")),
                    });
                }
                (_, Amend::Add, None) => {
                    let mut lineage = removed.shift_remove(&key).unwrap_or_default();
                    lineage.push(here(Step::Defined));
                    items.insert(
                        key,
                        ResolvedItem {
                            item: item.clone(),
                            edition,
                            lineage,
                        },
                    );
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(Resolved {
            chain,
            items,
            removed,
        })
    } else {
        Err(ResolveErrors(errors))
    }
}

fn suggest_id(
    items: &IndexMap<(ItemKind, String), ResolvedItem>,
    kind: ItemKind,
    id: &str,
) -> Option<String> {
    super::suggest::closest(
        id,
        items
            .keys()
            .filter(|(k, _)| *k == kind)
            .map(|(_, i)| i.as_str()),
    )
}

/// A place in a named file, for diagnostics that span files: each place
/// carries its own source so a second file's snippet shows too.
#[derive(Debug)]
pub struct Place {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub span: Span,
    pub label: String,
    source: SourceText,
}

impl Place {
    pub fn new(source: &Source, span: Span) -> Place {
        Place::labelled(source, span, "here")
    }

    pub fn labelled(source: &Source, span: Span, label: &str) -> Place {
        let (line, column) = source.line_col(span.start);
        Place {
            file: source.name.clone(),
            line,
            column,
            span,
            label: label.to_string(),
            source: source.named(),
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}:{}:{})",
            self.label, self.file, self.line, self.column
        )
    }
}

impl std::error::Error for Place {}

impl Diagnostic for Place {
    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(Some(self.label.clone()), self.span),
        )))
    }
}

/// Everything wrong with a chain, all at once.
#[derive(Debug)]
pub struct ResolveErrors(pub Vec<ResolveError>);

impl fmt::Display for ResolveErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.as_slice() {
            [one] => write!(f, "{one}"),
            many => write!(f, "{} errors while resolving the rulebook", many.len()),
        }
    }
}

impl std::error::Error for ResolveErrors {}

impl Diagnostic for ResolveErrors {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        match self.0.as_slice() {
            [one] => one.code(),
            _ => Some(Box::new("qili::resolve::errors")),
        }
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        match self.0.as_slice() {
            [one] => one.help(),
            _ => None,
        }
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        match self.0.as_slice() {
            [one] => one.source_code(),
            _ => None,
        }
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        match self.0.as_slice() {
            [one] => one.labels(),
            _ => None,
        }
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        match self.0.as_slice() {
            [one] => one.related(),
            many => Some(Box::new(many.iter().map(|e| e as &dyn Diagnostic))),
        }
    }
}

/// One resolution error.
#[derive(Debug)]
pub enum ResolveError {
    Syntax(Box<SyntaxError>),
    UnknownParent {
        target: String,
        by_path: bool,
        suggestion: Option<String>,
        at: Place,
    },
    PinMismatch {
        target: String,
        expected: String,
        actual: String,
        at: Place,
    },
    Cycle {
        chain: Vec<String>,
        at: Place,
    },
    Duplicate {
        kind: ItemKind,
        id: String,
        at: Place,
        first: Place,
    },
    Redefined {
        kind: ItemKind,
        id: String,
        at: Place,
        parent: Option<Place>,
    },
    NothingToAmend {
        kind: ItemKind,
        id: String,
        removing: bool,
        was_removed: bool,
        suggestion: Option<String>,
        at: Place,
    },
}

impl ResolveError {
    fn at(&self) -> Option<&Place> {
        match self {
            ResolveError::Syntax(_) => None,
            ResolveError::UnknownParent { at, .. }
            | ResolveError::PinMismatch { at, .. }
            | ResolveError::Cycle { at, .. }
            | ResolveError::Duplicate { at, .. }
            | ResolveError::Redefined { at, .. }
            | ResolveError::NothingToAmend { at, .. } => Some(at),
        }
    }
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::Syntax(e) => write!(f, "{e}"),
            ResolveError::UnknownParent {
                target,
                by_path: true,
                ..
            } => {
                write!(f, "cannot read the extended file `{target}`")
            }
            ResolveError::UnknownParent { target, .. } => {
                write!(f, "no edition `{target}` to extend")
            }
            ResolveError::PinMismatch { target, .. } => {
                write!(f, "the text of edition `{target}` is not the pinned one")
            }
            ResolveError::Cycle { chain, .. } => {
                write!(f, "`extends` goes round in a circle: {}", chain.join(" → "))
            }
            ResolveError::Duplicate { kind, id, .. } => {
                write!(f, "`{}` is written twice in this file", named(*kind, id))
            }
            ResolveError::Redefined { kind, id, .. } => {
                write!(
                    f,
                    "`{}` is already defined by the extended edition",
                    named(*kind, id)
                )
            }
            ResolveError::NothingToAmend {
                kind, id, removing, ..
            } => write!(
                f,
                "cannot {} `{}`: the extended editions have no such item",
                if *removing { "remove" } else { "override" },
                named(*kind, id)
            ),
        }
    }
}

/// An item as a user writes it: `define rooted`, `clause king-answer`; a
/// singleton (`values`, `exchange`, `order`, `verdict`) by its keyword
/// alone, its id being that keyword.
fn named(kind: ItemKind, id: &str) -> String {
    if id == kind.keyword() {
        id.to_string()
    } else {
        format!("{} {id}", kind.keyword())
    }
}

impl std::error::Error for ResolveError {}

impl Diagnostic for ResolveError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let code = match self {
            ResolveError::Syntax(e) => return e.code(),
            ResolveError::UnknownParent { .. } => "qili::resolve::unknown_parent",
            ResolveError::PinMismatch { .. } => "qili::resolve::pin_mismatch",
            ResolveError::Cycle { .. } => "qili::resolve::cycle",
            ResolveError::Duplicate { .. } => "qili::resolve::duplicate",
            ResolveError::Redefined { .. } => "qili::resolve::redefined",
            ResolveError::NothingToAmend { removing: true, .. } => "qili::resolve::remove_missing",
            ResolveError::NothingToAmend { .. } => "qili::resolve::override_missing",
        };
        Some(Box::new(code))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let text = match self {
            ResolveError::Syntax(e) => return e.help(),
            ResolveError::UnknownParent {
                suggestion: Some(s), ..
            } => format!("did you mean `{s}`?"),
            ResolveError::UnknownParent { by_path: true, .. } => {
                "a path is read relative to the file that extends it".into()
            }
            ResolveError::UnknownParent { .. } => {
                "editions are looked up by id as `<id>.qili` in the rules folder; use `extends path \"…\"` for a file elsewhere".into()
            }
            ResolveError::PinMismatch { expected, actual, .. } => format!(
                "the pin says sha256 {expected} but the file hashes to {actual}; re-read the parent's changes, then update the pin"
            ),
            ResolveError::Cycle { .. } => "an edition may not extend itself, directly or through others".into(),
            ResolveError::Duplicate { .. } => "give each item its own id, or merge the two".into(),
            ResolveError::Redefined { kind, id, .. } => {
                format!("write `override {}` to replace the inherited one", named(*kind, id))
            }
            ResolveError::NothingToAmend {
                suggestion: Some(s), ..
            } => format!("did you mean `{s}`?"),
            ResolveError::NothingToAmend { was_removed: true, .. } => {
                "an edition in between removed it; define it again without `override`".into()
            }
            ResolveError::NothingToAmend { removing: false, kind, id, .. } => {
                format!("drop `override` to add `{}` as a new item", named(*kind, id))
            }
            ResolveError::NothingToAmend { .. } => "nothing to remove; delete this line".into(),
        };
        Some(Box::new(text))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        match self {
            ResolveError::Syntax(e) => e.source_code(),
            _ => self.at().map(|p| &p.source as &dyn SourceCode),
        }
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let label = match self {
            ResolveError::Syntax(e) => return e.labels(),
            ResolveError::UnknownParent { by_path: true, .. } => {
                "cannot read this file".to_string()
            }
            ResolveError::UnknownParent { .. } => "no such edition".to_string(),
            ResolveError::PinMismatch { .. } => "pinned here".to_string(),
            ResolveError::Cycle { .. } => "this `extends` closes the circle".to_string(),
            ResolveError::Duplicate { .. } => "written again here".to_string(),
            ResolveError::Redefined { .. } => "needs `override`".to_string(),
            ResolveError::NothingToAmend { .. } => "nothing of this id is inherited".to_string(),
        };
        let at = self.at()?;
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(Some(label), at.span),
        )))
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        match self {
            ResolveError::Duplicate { first, .. } => {
                Some(Box::new(std::iter::once(first as &dyn Diagnostic)))
            }
            ResolveError::Redefined {
                parent: Some(p), ..
            } => Some(Box::new(std::iter::once(p as &dyn Diagnostic))),
            _ => None,
        }
    }
}
