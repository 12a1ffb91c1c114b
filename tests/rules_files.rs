//! The editions in rules/: each parses (its tree snapshotted as
//! S-expressions, so precedence is visible), the extends chain resolves with
//! the lineage snapshotted, and `qili diff` of the trial and final 2011
//! texts is snapshotted.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // tests fail by panicking

use std::path::{Path, PathBuf};

use qili::lang::diff::{diff, explain, render_text};
use qili::lang::resolve::{resolve, Folder, Resolved};
use qili::lang::{parse, sexpr, Source};

fn rules_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rules")
}

fn rules_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(rules_dir())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "qili"))
        .collect();
    files.sort();
    files
}

/// A source named by its path relative to the crate, so snapshots do not
/// depend on where the checkout lives.
fn source(path: &Path) -> Source {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path
        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path)
        .display()
        .to_string();
    Source::new(name, text)
}

fn load(id: &str) -> Resolved {
    let folder = Folder(PathBuf::from("rules"));
    let path = rules_dir().join(format!("{id}.qili"));
    // Resolve from the crate root so file names read `rules/…`.
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    resolve(
        source(&path),
        Some(PathBuf::from(format!("rules/{id}.qili"))),
        &folder,
    )
    .unwrap_or_else(|e| panic!("{id}: {e}"))
}

#[test]
fn every_rules_file_parses() {
    let files = rules_files();
    assert!(files.len() >= 2, "{files:?}");
    for path in files {
        let src = source(&path);
        let book = parse(&src).unwrap_or_else(|e| panic!("{}: {e}", src.name));
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        assert_eq!(
            book.header.edition.name, stem,
            "the edition id names the file"
        );
        insta::assert_snapshot!(format!("parse_{stem}"), sexpr::rulebook(&book));
    }
}

/// `qili fmt --check rules/*.qili` is in the README: the bundled editions
/// and proposals are kept in the formatter's layout.
#[test]
fn every_bundled_rules_file_is_in_canonical_layout() {
    let proposals = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/proposals");
    let mut files = rules_files();
    files.extend(
        std::fs::read_dir(proposals)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "qili")),
    );
    for path in files {
        let src = source(&path);
        let formatted =
            qili::lang::fmt::format_source(&src).unwrap_or_else(|e| panic!("{}: {e:?}", src.name));
        assert!(
            formatted == *src.text,
            "{} is not in canonical layout: run `qili fmt {}`",
            src.name,
            src.name
        );
    }
}

#[test]
fn the_2011_chain_resolves_with_its_lineage() {
    let resolved = load("2011");
    assert_eq!(resolved.chain.len(), 2);
    insta::assert_snapshot!("lineage_2011", explain(&resolved));
}

#[test]
fn a_three_edition_chain_keeps_every_step_of_each_items_history() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let folder = Folder(PathBuf::from("tests/data/chain"));
    let path = PathBuf::from("tests/data/chain/leaf.qili");
    let resolved = resolve(
        source(&Path::new(env!("CARGO_MANIFEST_DIR")).join(&path)),
        Some(path),
        &folder,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let steps = |kind, id: &str| -> Vec<(String, &'static str)> {
        let item = resolved.get(kind, id).unwrap();
        item.lineage
            .iter()
            .map(|s| (resolved.edition_id(s.edition).to_string(), s.step.word()))
            .collect()
    };
    use qili::lang::ast::ItemKind;
    assert_eq!(
        steps(ItemKind::Define, "attacked"),
        [
            ("root".into(), "defined"),
            ("middle".into(), "overridden"),
            ("leaf".into(), "overridden")
        ]
    );
    // removed in the middle, defined again in the leaf: the history shows both
    assert_eq!(
        steps(ItemKind::Define, "mutual-reach"),
        [
            ("root".into(), "defined"),
            ("middle".into(), "removed"),
            ("leaf".into(), "defined")
        ]
    );
    assert_eq!(
        steps(ItemKind::Verdict, "verdict"),
        [("root".into(), "defined"), ("leaf".into(), "overridden")]
    );
    insta::assert_snapshot!("lineage_chain", explain(&resolved));
}

#[test]
fn diff_of_the_2011_trial_and_final_texts() {
    let d = diff(&load("2011-trial"), &load("2011"));
    insta::assert_snapshot!("diff_2011-trial_2011", render_text(&d));
}
