//! Load an edition the way an embedding program would: resolve it through
//! its `extends` chain, check it, and list what it defines and where each
//! item comes from.
//!
//! `cargo run --example rulebook -- 2011` (an edition id from `rules/`)

use std::path::PathBuf;

use qili::lang::check::check;
use qili::lang::resolve::{resolve, Folder, Library};

fn main() -> miette::Result<()> {
    let id = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "2011".to_string());
    let folder = Folder(PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/rules")));
    let (source, path) = folder
        .find(&id)
        .ok_or_else(|| miette::miette!("no edition `{id}` in rules/"))?;
    let resolved = resolve(source, path, &folder)?;
    let report = check(&resolved);
    for problem in report.diagnostics() {
        eprintln!("{:?}", miette::Report::msg(problem.to_string()));
    }
    let chain: Vec<&str> = (0..resolved.chain.len())
        .map(|i| resolved.edition_id(i))
        .collect();
    println!("{id}: chain {}", chain.join(" → "));
    for ((kind, name), item) in &resolved.items {
        println!(
            "  {:8} {:24} from {}",
            kind.keyword(),
            name,
            resolved.edition_id(item.edition)
        );
    }
    println!(
        "{} items, {} errors, {} warnings",
        resolved.items.len(),
        report.errors.len(),
        report.warnings.len()
    );
    Ok(())
}
