//! Every `qili` code block of docs/language.md runs: it parses, resolves
//! against the blocks before it and passes the checks, or — marked
//! `qili error=CODE` — fails with exactly that code.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)] // tests fail by panicking

use miette::Diagnostic;
use qili::lang::resolve::{resolve, InMemory};
use qili::lang::{parse, Source};

struct Block {
    line: usize,
    expect_error: Option<String>,
    text: String,
}

fn blocks(doc: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut current: Option<Block> = None;
    for (i, line) in doc.lines().enumerate() {
        match &mut current {
            None => {
                if let Some(info) = line.strip_prefix("```qili") {
                    let expect_error = info.trim().strip_prefix("error=").map(str::to_string);
                    current = Some(Block {
                        line: i + 1,
                        expect_error,
                        text: String::new(),
                    });
                }
            }
            Some(b) => {
                if line.starts_with("```") {
                    out.extend(current.take());
                } else {
                    b.text.push_str(line);
                    b.text.push('\n');
                }
            }
        }
    }
    out
}

fn code_of(d: &dyn Diagnostic) -> String {
    d.code().map(|c| c.to_string()).unwrap_or_default()
}

#[test]
fn every_example_of_the_language_reference_runs() {
    let doc = include_str!("../docs/language.md");
    let blocks = blocks(doc);
    assert!(blocks.len() >= 5, "only {} examples found", blocks.len());
    let mut library = InMemory::default();
    for b in &blocks {
        let name = format!("docs/language.md:{}", b.line);
        let source = Source::new(name.clone(), b.text.clone());
        let book = parse(&source).unwrap_or_else(|e| panic!("{name}: {e}"));
        let result = resolve(source, None, &library);
        match (&b.expect_error, result) {
            (None, Ok(resolved)) => {
                let report = qili::lang::check::check(&resolved);
                assert!(
                    report.errors.is_empty(),
                    "{name}: {}",
                    report
                        .errors
                        .iter()
                        .map(|e| e.to_string())
                        .collect::<Vec<_>>()
                        .join("; ")
                );
                library
                    .0
                    .insert(book.header.edition.name.clone(), b.text.clone());
            }
            (None, Err(e)) => panic!("{name}: {e}"),
            (Some(code), Ok(resolved)) => {
                let report = qili::lang::check::check(&resolved);
                let codes: Vec<String> = report.errors.iter().map(|e| code_of(e)).collect();
                assert!(
                    codes.contains(code),
                    "{name}: expected {code}, got {codes:?}"
                );
            }
            (Some(code), Err(errors)) => {
                let codes: Vec<String> = errors.0.iter().map(|e| code_of(e)).collect();
                assert!(
                    codes.contains(code),
                    "{name}: expected {code}, got {codes:?}"
                );
            }
        }
    }
}
